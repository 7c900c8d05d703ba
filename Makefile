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
	$(BIN)/pip install -q -e '.[embed]'
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[filter,embed,st,dist,vocab,notebook,test]'
	touch $@ $(VENV)/.main-installed

bench: $(VENV)/.main-installed
	$(BIN)/cnlab deal duet --seed 0 --count 1 > /tmp/cnlab-deal.jsonl
	$(BIN)/cnlab replay /tmp/cnlab-deal.jsonl

test: $(VENV)/.test-installed
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV)
