"""The analysis notebooks run top to bottom on a small simulate + tournament output, through the
runner the README names (`python -m experiments.tools.run_notebook`); their figures are shown inline
(image/png outputs in the executed notebook) and saved as PNG files next to the results they read."""

import base64
import json

import nbformat
import pandas as pd
import pytest

from engine.paths import DATA_DIR
from experiments.games.duet.batch import DuetRun, simulate
from experiments.tools.run_notebook import main as run_notebook_main
from experiments.tools.run_notebook import run_notebook
from experiments.evaluation.tournament import tournament

NOTEBOOK = DATA_DIR.parent / "notebooks" / "duet_benchmark.ipynb"
PNG = b"\x89PNG\r\n\x1a\n"


def outputs_of(nb):
    return [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]


def images(outputs) -> list[bytes]:
    return [base64.b64decode(o["data"]["image/png"]) for o in outputs if "image/png" in o.get("data", {})]


def test_duet_benchmark_notebook_executes(tmp_path, monkeypatch):
    simulate(DuetRun(games=12, seed=0, spymaster="random", guesser="random"), out=tmp_path / "run", progress=False)
    tournament(["random"], ["random", "random?stop=0.5"], games=4, out=tmp_path / "tour", progress=False)
    monkeypatch.setenv("CNLAB_RESULTS", "run")  # relative: the kernel runs in the current folder
    monkeypatch.setenv("CNLAB_TOURNAMENT", str(tmp_path / "tour"))
    monkeypatch.chdir(tmp_path)
    nb = nbformat.read(NOTEBOOK, as_version=4)
    assert not any(cell.get("outputs") for cell in nb.cells if cell.cell_type == "code"), "outputs are not committed"
    assert run_notebook_main([str(NOTEBOOK), "--timeout", "120"]) == 0
    executed = nbformat.read(tmp_path / "runs" / "notebooks" / "duet_benchmark.ipynb", as_version=4)
    outputs = outputs_of(executed)
    text = "\n".join(o.get("text", "") for o in outputs)
    assert "12 games, win rate" in text
    assert "game 0:" in text
    assert not any(o.get("output_type") == "error" for o in outputs)
    # the figures: shown inline (at least one image/png output: here all three) and saved as PNG
    shown = images(outputs)
    assert len(shown) >= 1 and len(shown) == 3 and all(png.startswith(PNG) for png in shown)
    saved = [tmp_path / "run" / "score_distribution.png", tmp_path / "tour" / "win_rate_by_pairing.png",
             tmp_path / "tour" / "win_rate_heatmap.png"]
    assert all(p.read_bytes().startswith(PNG) for p in saved)
    assert "figure saved to run/score_distribution.png" in text


def test_the_notebook_runner_names_a_failing_cell(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CNLAB_RESULTS", str(tmp_path / "nothing-here"))
    monkeypatch.chdir(tmp_path)
    assert run_notebook_main([str(NOTEBOOK), "--out", "out.ipynb"]) == 1
    err = capsys.readouterr().err
    assert "a cell of" in err and "FileNotFoundError" in err and err.count("\n") == 1
    assert (tmp_path / "out.ipynb").exists()  # saved up to the failing cell
    assert run_notebook_main([str(tmp_path / "missing.ipynb")]) == 2



def test_the_notebook_runner_refuses_an_unknown_kernel_or_a_folder_before_it_runs(tmp_path, monkeypatch, capsys):
    """Checked before any cell runs: an unknown kernel made nbclient write the unexecuted notebook
    over --out and raise; an --out folder failed only after the whole run. One line, exit 2."""
    import experiments.tools.run_notebook as runner

    def ran(*args, **kwargs):
        raise AssertionError("the notebook ran before its arguments were checked")

    monkeypatch.setattr(runner, "run_notebook", ran)
    kept = tmp_path / "kept.ipynb"
    kept.write_text("an earlier run", encoding="utf-8")
    assert run_notebook_main([str(NOTEBOOK), "--kernel", "nosuchkernel", "--out", str(kept)]) == 2
    err = capsys.readouterr().err
    assert "nosuchkernel" in err and err.count("\n") == 1
    assert kept.read_text(encoding="utf-8") == "an earlier run"
    assert run_notebook_main([str(NOTEBOOK), "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --out") and err.count("\n") == 1


@pytest.mark.parametrize("content", [b"{}", b"[]", b'"a notebook"', b"\xff\xfe{}", b'{"nbformat": 4, "cells": 3}',
                                     b'{"nbformat": 4, "cells": [{"cell_type": "code"}]}'])
def test_the_notebook_runner_refuses_a_file_that_is_not_a_notebook(tmp_path, monkeypatch, capsys, content):
    """JSON that is no notebook ({}, a list, a string, cells that are not cells) or a file that is not
    UTF-8 ended in a traceback from nbformat (ValidationError, AttributeError, UnicodeDecodeError) and
    exit 1, where the runner says 2 for a notebook it cannot read: one line, exit 2, nothing run."""
    import experiments.tools.run_notebook as runner

    def ran(*args, **kwargs):
        raise AssertionError("the file ran as a notebook")

    monkeypatch.setattr(runner, "run_notebook", ran)
    bad = tmp_path / "bad.ipynb"
    bad.write_bytes(content)
    assert run_notebook_main([str(bad), "--out", str(tmp_path / "out.ipynb")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {bad} is not a notebook") and err.count("\n") == 1, err
    assert not (tmp_path / "out.ipynb").exists()


def test_the_notebook_runner_refuses_an_out_it_cannot_write_before_it_runs(tmp_path, monkeypatch, capsys):
    """An --out under a file (or anywhere not writable) ran the whole notebook, then failed to write it
    with a traceback (FileExistsError, NotADirectoryError, PermissionError) and exit 1: now one line,
    exit 2, before any cell runs; a writable --out is left as it was by the check."""
    import experiments.tools.run_notebook as runner

    def ran(*args, **kwargs):
        raise AssertionError("the notebook ran before --out was checked")

    monkeypatch.setattr(runner, "run_notebook", ran)
    (tmp_path / "file").write_text("a file")
    for out in (tmp_path / "file" / "out.ipynb", tmp_path / "file" / "deeper" / "out.ipynb"):
        assert run_notebook_main([str(NOTEBOOK), "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"error: cannot write --out {out}") and err.count("\n") == 1, err
    monkeypatch.setattr(runner, "run_notebook", lambda *args, **kwargs: None)
    assert run_notebook_main([str(NOTEBOOK), "--out", str(tmp_path / "new" / "out.ipynb")]) == 0
    assert not (tmp_path / "new" / "out.ipynb").exists()


PARTNER_NOTEBOOK = DATA_DIR.parent / "notebooks" / "partner_robustness.ipynb"


def test_partner_robustness_notebook_executes(tmp_path, monkeypatch):
    from agents.embeddings import FakeEmbeddings, register_backend
    from agents.embeddings import registry
    from experiments.evaluation.crossplay import crossplay

    panel = ["fake-nb-a", "fake-nb-b", "fake-nb-c"]
    for seed, name in zip((0, 0, 7), panel):
        register_backend(name, lambda seed=seed, name=name: FakeEmbeddings(seed=seed, name=name), overwrite=True)
    try:
        crossplay(["random", "margin?vocab=300"], games=3, panel=panel, noise="0.05", human=False,
                  out=tmp_path / "cross", progress=False)
    finally:
        for name in panel:
            registry._REGISTRY.pop(name, None)
        registry.get_backend.cache_clear()
    monkeypatch.setenv("CNLAB_CROSSPLAY", str(tmp_path / "cross"))
    nb = nbformat.read(PARTNER_NOTEBOOK, as_version=4)
    assert not any(cell.get("outputs") for cell in nb.cells if cell.cell_type == "code"), "outputs are not committed"
    executed = nbformat.read(run_notebook(PARTNER_NOTEBOOK, tmp_path / "executed.ipynb", timeout=120, cwd=tmp_path),
                             as_version=4)
    outputs = outputs_of(executed)
    text = "\n".join(o.get("text", "") for o in outputs)
    assert "crossplay: 2 algorithms x 6 partners, 3-3 games per pairing" in text
    table = pd.read_parquet(tmp_path / "cross" / "crossplay.parquet")
    best = table.iloc[0]
    assert (f"best algorithm (leave-one-out mean win rate, 95% CI over the deals): {best.algorithm} "
            f"{best.loo_win_rate:.3f} [{best.loo_ci95_low:.3f}, {best.loo_ci95_high:.3f}]") in text
    assert len(images(outputs)) >= 4  # means, per partner, heatmap, where the assassin comes
    guesses = sum(1 for f in (tmp_path / "cross").glob("*/records.jsonl") for line in f.read_text().splitlines()
                  for action in json.loads(line)["actions"] if "guess" in action)
    assert f"{guesses} guesses, " in text
    for name in ("notebook_means.png", "notebook_per_partner.png", "notebook_heatmap.png", "notebook_assassin.png"):
        assert (tmp_path / "cross" / name).read_bytes().startswith(PNG)
    assert not any(o.get("output_type") == "error" for o in outputs)


def test_duet_benchmark_notebook_reads_won_games_without_a_score(tmp_path, monkeypatch):
    """RULES 3.11 scores 9-token games only: a 10-token run's won games have no score (null in
    games.parquet), and the score chart cast them to int (TypeError) instead of leaving them out."""
    fake = dict(spymaster="expected:fake", guesser="duet-bayes:fake")
    summary = simulate(DuetRun(games=4, seed=0, tokens=10, **fake), out=tmp_path / "run", progress=False)
    assert summary["wins"] > 0 and summary["mean_score_wins"] is None
    monkeypatch.setenv("CNLAB_RESULTS", str(tmp_path / "run"))
    monkeypatch.delenv("CNLAB_TOURNAMENT", raising=False)
    executed = nbformat.read(run_notebook(NOTEBOOK, tmp_path / "executed.ipynb", timeout=120, cwd=tmp_path),
                             as_version=4)
    outputs = outputs_of(executed)
    assert not any(o.get("output_type") == "error" for o in outputs)
    assert (tmp_path / "run" / "score_distribution.png").read_bytes().startswith(PNG)


def test_partner_robustness_notebook_places_the_tables_games_only(tmp_path, monkeypatch):
    """The assassin section replayed every record of each pairing's folder, so a folder holding more
    games than the table (a larger --games stopped before it rewrote the table) counted guesses of
    games the table does not report; it reads the table's first `games` games of each pairing."""
    from agents.embeddings import FakeEmbeddings, register_backend
    from agents.embeddings import registry
    from experiments.evaluation.crossplay import crossplay, plan, pairing_folder

    panel = ["fake-nb-a", "fake-nb-c"]
    for seed, name in zip((0, 7), panel):
        register_backend(name, lambda seed=seed, name=name: FakeEmbeddings(seed=seed, name=name), overwrite=True)
    out = tmp_path / "cross"
    try:
        crossplay(["random"], games=2, panel=panel, noise="none", human=False, out=out, progress=False)
        first = plan(["random"], 4, panel=panel, noise="none", human=False)[0].run   # stopped after one pairing
        simulate(first, out=pairing_folder(out, first), progress=False)
    finally:
        for name in panel:
            registry._REGISTRY.pop(name, None)
        registry.get_backend.cache_clear()
    monkeypatch.setenv("CNLAB_CROSSPLAY", str(out))
    executed = nbformat.read(run_notebook(PARTNER_NOTEBOOK, tmp_path / "executed.ipynb", timeout=120, cwd=tmp_path),
                             as_version=4)
    text = "\n".join(o.get("text", "") for o in outputs_of(executed))
    guesses = sum(1 for f in out.glob("*/records.jsonl") for line in f.read_text().splitlines()
                  if json.loads(line)["game_index"] < 2 for action in json.loads(line)["actions"] if "guess" in action)
    assert f"{guesses} guesses, " in text


def test_duet_benchmark_notebook_shows_the_summarys_games_of_a_stopped_larger_run(tmp_path, monkeypatch):
    """A folder resumed with a larger --games and stopped before its end holds records (and rows) of
    games that summary.json and games.parquet do not describe yet, and may end in a torn line; a
    record's text may hold U+2028. The example games took the first three lines of records.jsonl
    (str.splitlines: cut at U+2028) and looked each up in games.parquet: IndexError for the stopped
    run's game, JSONDecodeError for the separator. They are now games.parquet's first games."""
    simulate(DuetRun(games=2, seed=0, spymaster="random", guesser="random"), out=tmp_path / "run", progress=False)
    simulate(DuetRun(games=3, seed=0, spymaster="random", guesser="random"), out=tmp_path / "more", progress=False)
    run, more = tmp_path / "run", tmp_path / "more"
    records = (run / "records.jsonl").read_text(encoding="utf-8").split("\n")
    first = json.loads(records[0])
    first["llm"] = [{"reply": "weather\u20282"}]   # as a language model's reply is kept
    records[0] = json.dumps(first, ensure_ascii=False)
    extra = (more / "records.jsonl").read_text(encoding="utf-8").split("\n")[2]   # game 2, played by the stopped run
    (run / "records.jsonl").write_text("\n".join(records[:2]) + "\n" + extra + "\n" + extra[:40], encoding="utf-8")
    (run / "games.jsonl").write_text((run / "games.jsonl").read_text() +
                                     (more / "games.jsonl").read_text().split("\n")[2] + "\n")
    monkeypatch.setenv("CNLAB_RESULTS", str(run))
    monkeypatch.delenv("CNLAB_TOURNAMENT", raising=False)
    executed = nbformat.read(run_notebook(NOTEBOOK, tmp_path / "executed.ipynb", timeout=120, cwd=tmp_path),
                             as_version=4)
    outputs = outputs_of(executed)
    assert not any(o.get("output_type") == "error" for o in outputs)
    text = "\n".join(o.get("text", "") for o in outputs)
    assert "2 games, win rate" in text and "game 0:" in text and "game 1:" in text and "game 2:" not in text
    assert "nan" not in text and "<NA>" not in text   # a loss shows its reason only


def test_duet_benchmark_notebook_shows_a_won_games_score_as_the_game_has_it(tmp_path, monkeypatch):
    """games.parquet holds score as a double and loss_reason as a string (RULES 3.11: a score is a whole
    number of a won game): the example games printed 'won (score 11.0, <NA>)' and 'lost (score nan,
    assassin)'; now 'won (score 11)' and 'lost (assassin)'."""
    import re

    simulate(DuetRun(games=3, seed=3, spymaster="expected:fake", guesser="duet-bayes:fake"), out=tmp_path / "run",
             progress=False)
    games = pd.read_parquet(tmp_path / "run" / "games.parquet")
    assert games["won"].all() and games["score"].dtype == "float64"
    monkeypatch.setenv("CNLAB_RESULTS", str(tmp_path / "run"))
    monkeypatch.delenv("CNLAB_TOURNAMENT", raising=False)
    executed = nbformat.read(run_notebook(NOTEBOOK, tmp_path / "executed.ipynb", timeout=120, cwd=tmp_path),
                             as_version=4)
    text = "\n".join(o.get("text", "") for o in outputs_of(executed))
    shown = re.findall(r"^game (\d+): (.*)$", text, re.M)
    assert shown == [(str(r.game_index), f"won (score {int(r.score)})") for r in games.head(3).itertuples()]


def test_the_notebooks_name_a_folder_that_is_not_theirs_in_one_line(tmp_path, monkeypatch, capsys):
    """A Codenames (or Spy's Word) simulate folder given as CNLAB_RESULTS failed deep in the first cell
    with `KeyError: 'mean_score_all'` ('win_rate'), a crossplay folder as CNLAB_TOURNAMENT or a
    tournament one as CNLAB_CROSSPLAY with a bare errno line; each now says which variable names
    what, and why this folder is not it (one line, exit 1)."""
    from experiments.games.codenames.batch import CodenamesRun, simulate_codenames

    simulate_codenames(CodenamesRun(games=1, seed=0, spymaster="random", guesser="random"), out=tmp_path / "cn",
                       progress=False)
    simulate(DuetRun(games=2, seed=0, spymaster="random", guesser="random"), out=tmp_path / "run", progress=False)
    monkeypatch.chdir(tmp_path)
    cases = [(NOTEBOOK, {"CNLAB_RESULTS": "cn"}, "CNLAB_RESULTS=cn holds no Duet run (a codenames run)"),
             (NOTEBOOK, {"CNLAB_RESULTS": "run", "CNLAB_TOURNAMENT": "run"}, "CNLAB_TOURNAMENT=run: no tournament.csv"),
             (PARTNER_NOTEBOOK, {"CNLAB_CROSSPLAY": "run/games.parquet"}, "CNLAB_CROSSPLAY=run/games.parquet: a file")]
    for notebook, env, message in cases:
        for name in ("CNLAB_RESULTS", "CNLAB_TOURNAMENT", "CNLAB_CROSSPLAY"):
            monkeypatch.delenv(name, raising=False)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        assert run_notebook_main([str(notebook), "--out", "out.ipynb", "--timeout", "120"]) == 1
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, err


def test_duet_benchmark_notebook_counts_the_forfeits_the_command_line_prints(tmp_path, monkeypatch):
    """Under --isolate an agent that fails forfeits its game (docs/isolation.md): `cnlab simulate` prints
    `forfeits` with the other figures of summary.json, but the notebook's summary left it out, so a run
    whose every game was forfeited read as lost with no assassin and no sudden death."""
    import re

    summary = simulate(DuetRun(games=2, seed=0, spymaster="random",
                               guesser="tests.agents.hostile_agent:CrashingGuesser"),
                       out=tmp_path / "run", progress=False, isolate=True, move_timeout=30)
    assert summary["forfeits"] == 2
    monkeypatch.setenv("CNLAB_RESULTS", str(tmp_path / "run"))
    monkeypatch.delenv("CNLAB_TOURNAMENT", raising=False)
    executed = nbformat.read(run_notebook(NOTEBOOK, tmp_path / "executed.ipynb", timeout=120, cwd=tmp_path),
                             as_version=4)
    shown = "\n".join(o.get("data", {}).get("text/plain", "") for o in outputs_of(executed))
    assert re.search(r"^forfeits\s+2(\.0+)?$", shown, re.M), shown


def test_partner_robustness_notebook_reads_a_table_without_its_pairing_folders(tmp_path, monkeypatch):
    """A crossplay table copied without its pairing folders (crossplay.csv/.parquet alone) ran every
    section but the last, which failed with pandas' 'No objects to concatenate'; that section now
    says there are no records to replay, and the notebook runs to the end."""
    import shutil

    from agents.embeddings import FakeEmbeddings, register_backend
    from agents.embeddings import registry
    from experiments.evaluation.crossplay import crossplay

    panel = ["fake-nb-a", "fake-nb-c"]
    for seed, name in zip((0, 7), panel):
        register_backend(name, lambda seed=seed, name=name: FakeEmbeddings(seed=seed, name=name), overwrite=True)
    try:
        crossplay(["random"], games=2, panel=panel, noise="none", human=False, out=tmp_path / "cross", progress=False)
    finally:
        for name in panel:
            registry._REGISTRY.pop(name, None)
        registry.get_backend.cache_clear()
    (tmp_path / "table").mkdir()
    for name in ("crossplay.csv", "crossplay.parquet"):
        shutil.copy(tmp_path / "cross" / name, tmp_path / "table" / name)
    monkeypatch.setenv("CNLAB_CROSSPLAY", str(tmp_path / "table"))
    executed = nbformat.read(run_notebook(PARTNER_NOTEBOOK, tmp_path / "executed.ipynb", timeout=120, cwd=tmp_path),
                             as_version=4)
    outputs = outputs_of(executed)
    assert not any(o.get("output_type") == "error" for o in outputs)
    assert "the table alone places no guess" in "\n".join(o.get("text", "") for o in outputs)


def test_duet_benchmark_notebook_names_seat_bs_own_agents(tmp_path, monkeypatch):
    """A run whose seat B plays other agents (--spymaster-b, --guesser-b; `cnlab simulate` prints
    `A=... B=...`) was shown as one pairing of seat A's agents in the win-rate table and heatmap."""
    simulate(DuetRun(games=2, seed=0, spymaster="random", guesser="random", guesser_b="random?stop=0.5"),
             out=tmp_path / "run", progress=False)
    monkeypatch.setenv("CNLAB_RESULTS", str(tmp_path / "run"))
    monkeypatch.delenv("CNLAB_TOURNAMENT", raising=False)
    executed = nbformat.read(run_notebook(NOTEBOOK, tmp_path / "executed.ipynb", timeout=120, cwd=tmp_path),
                             as_version=4)
    shown = "\n".join(o.get("data", {}).get("text/plain", "") for o in outputs_of(executed))
    assert "A random, B random?stop=0.5" in shown
