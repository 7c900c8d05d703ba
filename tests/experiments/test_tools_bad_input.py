"""The offline tools (`python -m experiments.tools.NAME`) answer bad input with one `error:` line on
stderr and exit 2, before their long computation (which is stubbed out here so that reaching it fails)."""

from __future__ import annotations

import importlib

import pytest


def stop(*args, **kwargs):
    raise AssertionError("the computation started before the arguments were checked")


def refused(capsys, call, *needles):
    """`call()` exits 2 with one `error:` line on stderr holding every needle."""
    with pytest.raises(SystemExit) as exc:
        call()
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    assert all(n in err for n in needles), err


#: the tool, and the first step of its computation (stubbed): the check must come before it
BUILDERS = [("build_en_bases", "agents.wordlists.clue_vocabulary"),
            ("build_en_heads", "agents.wordlists.clue_vocabulary"),
            ("build_en_parts", "agents.wordlists.clue_vocabulary"),
            ("build_en_variants", "experiments.tools.build_en_variants.candidates"),
            ("build_romanized_korean", "experiments.tools.build_romanized_korean.romanized_table"),
            ("build_ko_parts", "experiments.tools.build_ko_parts.candidates")]


@pytest.mark.parametrize("tool, first_step", BUILDERS)
def test_a_table_builder_checks_the_out_folder_first(tool, first_step, tmp_path, monkeypatch, capsys):
    """An --out in a missing folder failed only after the whole computation (minutes to hours)."""
    monkeypatch.setenv("CNLAB_CLUE_CACHE", "off")  # the tools turn the cache off: restored after
    monkeypatch.setattr(first_step, stop)
    main = importlib.import_module(f"experiments.tools.{tool}").main
    out = tmp_path / "missing" / "table.tsv"
    refused(capsys, lambda: main(["--out", str(out)]), "--out", str(out.parent))
    assert not out.parent.exists()


@pytest.mark.parametrize("tool", ["build_en_parts", "build_ko_parts"])
def test_all_needs_an_explicit_out(tool, tmp_path, monkeypatch, capsys):
    """--all dumps every candidate: to the default --out it overwrote the table the filter reads."""
    monkeypatch.setenv("CNLAB_CLUE_CACHE", "off")
    module = importlib.import_module(f"experiments.tools.{tool}")
    monkeypatch.setattr(module, "candidates", stop)
    refused(capsys, lambda: module.main(["--all"]), "--all", "--out")


@pytest.mark.parametrize("args, needle", [(["--selfplay", "-3"], "--selfplay"),
                                          (["--human", "/nonexistent.csv"], "/nonexistent.csv"),
                                          (["--selfplay", "2", "--spymaster", "nosuch"], "'nosuch'"),
                                          (["--selfplay", "2", "--backends", "nosuch"], "'nosuch'")])
def test_fit_partner_model_refuses_bad_arguments_first(args, needle, tmp_path, monkeypatch, capsys):
    from experiments.tools import fit_partner_model as tool

    for step in ("read_human", "selfplay_events", "similarity_sets"):
        monkeypatch.setattr(tool, step, stop)
    out = tmp_path / "partner_model.json"
    refused(capsys, lambda: tool.main(args + ["--out", str(out)]), needle)
    assert not out.exists()


@pytest.mark.parametrize("content", ["[1]", "{", '{"temperature": [0.1]}', '{"fits": null}'])
def test_fit_partner_model_refuses_an_out_file_that_is_no_partner_model(content, tmp_path, monkeypatch, capsys):
    """The --out file the fits update was read as it came: a JSON list raised AttributeError (a
    traceback, exit 1), bad JSON said only 'Expecting value: ...' without the file. Now one line
    naming --out, before any work, and the file is left as it was."""
    from experiments.tools import fit_partner_model as tool

    for step in ("read_human", "selfplay_events", "similarity_sets", "record_spreads"):
        monkeypatch.setattr(tool, step, stop)
    out = tmp_path / "partner_model.json"
    out.write_text(content)
    refused(capsys, lambda: tool.main(["--spreads-only", "--out", str(out)]), f"--out {out}", "not a partner model")
    assert out.read_text() == content


def test_fit_partner_model_refuses_a_backend_path_holding_no_model_first(tmp_path, monkeypatch, capsys):
    """--backends checked only that a path existed: an empty file was found after the human data was
    read and every other backend fitted."""
    from experiments.tools import fit_partner_model as tool

    monkeypatch.setattr(tool, "read_human", stop)
    (tmp_path / "human.csv").write_text("x\n")
    (tmp_path / "empty.txt").write_text("")
    args = ["--human", str(tmp_path / "human.csv"), "--backends", f"fake,{tmp_path / 'empty.txt'}",
            "--out", str(tmp_path / "out.json")]
    refused(capsys, lambda: tool.main(args), "empty.txt is empty")


@pytest.mark.parametrize("kwargs, needle", [({"lang": "xx"}, "--lang 'xx'"),
                                            ({"boards": 0}, "--boards"),
                                            ({"panel": "nosuch,use-m3"}, "'nosuch'"),
                                            ({"vocab": -1}, "--vocab"),     # both ran the pool's models first
                                            ({"seed": -1}, "--seed")])
def test_fit_foreign_model_refuses_bad_arguments_first(kwargs, needle, tmp_path, monkeypatch, capsys):
    from experiments.tools import fit_foreign_model as tool

    monkeypatch.setattr(tool, "panel_pool", stop)
    out = tmp_path / "foreign_model.json"
    refused(capsys, lambda: tool.main(**kwargs, out=str(out)), needle)
    assert not out.exists()


@pytest.mark.parametrize("tool", ["fit_foreign_model", "fit_human_model"])
def test_a_fit_tool_refuses_a_model_path_holding_no_model_first(tool, tmp_path, monkeypatch, capsys):
    """The fit tools checked only that a model's path existed (backend_key): an empty file was found
    after the panel's pool was built or the human data's features read. Now the registry's
    check_model_paths refuses it first, as an agent spec's."""
    module = importlib.import_module(f"experiments.tools.{tool}")
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    if tool == "fit_foreign_model":
        monkeypatch.setattr(module, "panel_pool", stop)
        call = lambda: module.main(panel=f"fake,{empty}", out=str(tmp_path / "out.json"))  # noqa: E731
    else:
        monkeypatch.setattr(module, "load_choice_data", stop)
        call = lambda: module.main(data=tmp_path, split="val", backends=f"fake+{empty}", subsets=False,  # noqa: E731
                                   hub=None, nested=False, out=tmp_path / "out.json")
    refused(capsys, call, f"{empty} is empty")
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("content, needle", [(None, "no folder"), ("[1]", "not a foreign model file"),
                                             ("{", "not a foreign model file"), ("{}", "not a foreign model file")])
def test_fit_foreign_model_checks_its_out_file_first(content, needle, tmp_path, monkeypatch, capsys):
    """--out was read and written only after the pool was built and every model fitted: a missing
    folder, or a file that is a JSON list or has no `languages` (KeyError: 'languages', a bare
    `error: 'languages'`), lost the whole fit. Now checked first, one line naming --out."""
    from experiments.tools import fit_foreign_model as tool

    monkeypatch.setattr(tool, "panel_pool", stop)
    out = tmp_path / ("missing/out.json" if content is None else "out.json")
    if content is not None:
        out.write_text(content)
    refused(capsys, lambda: tool.main(panel="fake", out=str(out)), "--out", needle)
    assert content is None or out.read_text() == content


def test_fit_human_model_refuses_a_folder_as_out_first(tmp_path, monkeypatch, capsys):
    """--out naming a folder failed only when the model was written (IsADirectoryError), after the
    features were read and every combination fitted (hours); its memory file was written beside."""
    from experiments.tools import fit_human_model as tool

    monkeypatch.setattr(tool, "load_choice_data", stop)
    call = lambda: tool.main(data=tmp_path, split="val", backends="fake", subsets=False, hub=None,  # noqa: E731
                             nested=False, out=tmp_path)
    refused(capsys, call, f"--out {tmp_path} is a folder")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("args, needle", [(["--games", "0"], "--games"),
                                          (["--seed", "-1"], "--seed"),
                                          (["--tokens", "99"], "timer_tokens"),
                                          (["--lang", "xx"], "'xx'"),
                                          (["--spymasters", "nosuch"], "'nosuch'"),
                                          (["--pairs", "random"], "SPYMASTER@GUESSER"),
                                          (["--json", "/nonexistent-folder/rows.json"], "--json")])
def test_the_agents_bench_refuses_bad_arguments_first(args, needle, monkeypatch, capsys):
    """`python -m experiments.bench.agents`: a bad count, seed, token count, language, spec or --pairs item
    was a traceback (a negative --games a table of nan), and a --json in a missing folder failed only
    after every pair had played. Now each is one line, exit 2, before the first pair plays."""
    from experiments.bench import agents as bench

    monkeypatch.setattr(bench, "run_pair", stop)
    refused(capsys, lambda: bench.main(["--spymasters", "random", "--partners", "random", "--games", "2", *args]),
            needle)


def test_the_simulator_bench_names_an_unknown_spec_in_one_line(capsys):
    """`python -m experiments.bench.simulate --spymaster nosuch` was a traceback."""
    from experiments.bench import simulate as bench

    refused(capsys, lambda: bench.main(["--games", "2", "--workers", "1", "--latency-games", "1",
                                        "--spymaster", "nosuch"]), "'nosuch'")


def test_the_embeddings_bench_checks_its_out_file_and_vocabulary_size_first(monkeypatch, capsys):
    """`python -m experiments.bench.embeddings --out missing/x.json` failed with a traceback after every
    backend had loaded and embedded; --vocab-size 0 ran an empty benchmark."""
    from experiments.bench import embeddings as bench

    monkeypatch.setattr(bench, "bench_one", stop)
    monkeypatch.setattr(bench.subprocess, "run", stop)
    refused(capsys, lambda: bench.main(["--backends", "fake", "--out", "/nonexistent-folder/x.json"]),
            "/nonexistent-folder")
    refused(capsys, lambda: bench.main(["--backends", "fake", "--vocab-size", "0"]), "--vocab-size")


@pytest.mark.parametrize("args, needle", [(["--repeat", "0"], "--repeat"), (["--size", "-1"], "--size")])
def test_the_clue_filter_bench_refuses_counts_below_one(args, needle, monkeypatch, capsys):
    """--repeat 0 timed nothing and ended in a traceback (median of no times) after the warm-up."""
    from experiments.bench import clues as bench

    monkeypatch.setattr(bench, "run", stop)
    monkeypatch.setattr("sys.argv", ["clues.py", *args])
    refused(capsys, bench.main, needle)


def test_the_agreement_bench_refuses_no_boards(monkeypatch, capsys):
    """--boards 0 printed an empty report (exit 0)."""
    from experiments.bench import agreement as bench

    monkeypatch.setattr("experiments.tools.fit_foreign_model.panel_pool", stop)
    refused(capsys, lambda: bench.main(boards=0, panel="fake,fake"), "--boards")
