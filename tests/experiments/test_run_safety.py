"""Issue 14, "Nothing lost": a results folder is resumed or refused, never truncated; a second run into
it is refused while the first holds its lock; a crash at any byte loses at most the game in flight;
damaged files give one clear error naming the file; results stay in game order; `cnlab play` never
overwrites a saved game."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import time
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from engine.records import record_from_json, replay_summary
from experiments.cli import app
from experiments.games.duet.batch import DuetRun, simulate
from experiments.runs import RunDirectory, RunFolderError

RANDOM = dict(spymaster="random", guesser="random")
CLI_RANDOM = ["--spymaster", "random", "--guesser", "random", "--no-progress"]


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def indices(path: Path) -> list[int]:
    return [json.loads(line)["game_index"] for line in lines(path)]


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file() and p.name != ".lock"}


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    """A finished 12-game run, never modified: tests copy it."""
    folder = tmp_path_factory.mktemp("ref") / "run"
    simulate(DuetRun(games=12, seed=5, **RANDOM), out=folder, progress=False)
    return folder


def copy_of(reference: Path, tmp_path: Path, name: str = "run") -> Path:
    target = tmp_path / name
    shutil.copytree(reference, target)
    return target


def assert_whole(folder: Path, reference: Path, n: int = 12) -> None:
    """Rows == records == n, both in game order, identical to the reference, each record replays to its row."""
    assert indices(folder / "games.jsonl") == list(range(n))
    assert indices(folder / "records.jsonl") == list(range(n))
    assert (folder / "games.jsonl").read_bytes() == (reference / "games.jsonl").read_bytes()
    assert (folder / "records.jsonl").read_bytes() == (reference / "records.jsonl").read_bytes()
    rows = {json.loads(l)["game_index"]: json.loads(l) for l in lines(folder / "games.jsonl")}
    for line in lines(folder / "records.jsonl"):
        record = record_from_json(line)
        summary = replay_summary(record)
        row = rows[record.extra["game_index"]]
        assert summary["greens_found"] == row["greens_found"]


# ----- never truncated --------------------------------------------------------------------------------
def test_a_smaller_games_reports_the_first_n_and_rewrites_nothing(tmp_path, reference):
    folder = copy_of(reference, tmp_path)
    before = snapshot(folder)
    played = []
    summary = simulate(DuetRun(games=5, seed=5, **RANDOM), out=folder, progress=False, on_result=played.append)
    assert played == [] and summary["games"] == 5
    assert snapshot(folder) == before  # games.jsonl, records.jsonl, run.json, summary.json, games.parquet
    fresh = simulate(DuetRun(games=5, seed=5, **RANDOM), out=tmp_path / "five", progress=False)
    for key in ("wins", "win_rate", "score_histogram", "assassin_rate", "mean_turns"):
        assert summary[key] == fresh[key]


def test_the_cli_with_a_smaller_games_keeps_every_game(tmp_path, reference):
    folder = copy_of(reference, tmp_path)
    result = CliRunner().invoke(app, ["simulate", "duet", "--games", "3", "--seed", "5", "--out", str(folder),
                                      *CLI_RANDOM])
    assert result.exit_code == 0, result.output
    assert len(lines(folder / "games.jsonl")) == len(lines(folder / "records.jsonl")) == 12
    assert_whole(folder, reference)


def test_a_larger_games_extends_the_run(tmp_path, reference):
    folder = copy_of(reference, tmp_path)
    played = []
    simulate(DuetRun(games=15, seed=5, **RANDOM), out=folder, progress=False, on_result=played.append)
    assert sorted(r["game_index"] for r in played) == [12, 13, 14]
    simulate(DuetRun(games=15, seed=5, **RANDOM), out=tmp_path / "ref15", progress=False)
    assert_whole(folder, tmp_path / "ref15", 15)
    assert json.loads((folder / "run.json").read_text())["run"]["games"] == 15


def test_a_smaller_run_that_fills_a_gap_keeps_the_rest(tmp_path, reference):
    folder = copy_of(reference, tmp_path)
    for name in ("games.jsonl", "records.jsonl"):  # game 2 lost
        kept = [l for l in lines(folder / name) if json.loads(l)["game_index"] != 2]
        (folder / name).write_text("".join(l + "\n" for l in kept), encoding="utf-8")
    played = []
    simulate(DuetRun(games=4, seed=5, **RANDOM), out=folder, progress=False, on_result=played.append)
    assert [r["game_index"] for r in played] == [2]
    assert_whole(folder, reference)


# ----- one run at a time ---------------------------------------------------------------------------------
def hold_lock(folder: Path) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / ".lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    os.write(fd, b"4242\n")
    return fd


def test_a_second_run_into_a_locked_folder_is_refused(tmp_path):
    folder = tmp_path / "run"
    fd = hold_lock(folder)
    try:
        with pytest.raises(ValueError, match=r"in use by another run \(pid 4242\)"):
            simulate(DuetRun(games=4, seed=1, **RANDOM), out=folder, progress=False)
        assert not (folder / "games.jsonl").exists() and not (folder / "run.json").exists()
        result = CliRunner().invoke(app, ["simulate", "--games", "4", "--out", str(folder), *CLI_RANDOM])
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith("error: ") and "in use by another run" in result.stderr
        assert result.stderr.count("\n") == 1
    finally:
        os.close(fd)
    simulate(DuetRun(games=4, seed=1, **RANDOM), out=folder, progress=False)  # free again
    assert indices(folder / "games.jsonl") == [0, 1, 2, 3]


def test_the_lock_is_held_for_the_whole_run_and_released_after(tmp_path):
    folder = tmp_path / "run"
    seen = []

    def try_second(row):
        with pytest.raises(RunFolderError, match="in use"):
            RunDirectory(folder, DuetRun(games=3, seed=1, **RANDOM)).open()
        seen.append(row["game_index"])

    simulate(DuetRun(games=3, seed=1, **RANDOM), out=folder, progress=False, on_result=try_second)
    assert seen == [0, 1, 2]
    directory = RunDirectory(folder, DuetRun(games=3, seed=1, **RANDOM))
    assert sorted(directory.open()) == [0, 1, 2]
    directory.close()


def test_a_forked_child_does_not_keep_the_folder_locked(tmp_path):
    """A worker orphaned by a killed parent must not lock the folder against the rerun."""
    run = DuetRun(games=3, seed=1, **RANDOM)
    directory = RunDirectory(tmp_path / "run", run)
    directory.open()
    ready_r, ready_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: outlives the parent's hold on the folder
        os.write(ready_w, b"x")  # the at-fork hooks have run by now
        time.sleep(3)
        os._exit(0)
    os.read(ready_r, 1)
    os.close(ready_r)
    os.close(ready_w)
    try:
        directory.close()
        again = RunDirectory(tmp_path / "run", run)
        again.open()
        again.close()
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)


# ----- a crash at any byte ---------------------------------------------------------------------------------
@pytest.mark.parametrize("chop", [1, 2, 17, 300, "line-1", "line", "line+1", "line+2"])
def test_a_torn_records_line_is_repaired_on_rerun(tmp_path, reference, chop):
    """Bytes chopped off the end of records.jsonl; "line+1": the whole last line (no torn line left, but
    game 11's row has no record); "line+2": also the previous newline (game 10's record torn)."""
    folder = copy_of(reference, tmp_path)
    data = (folder / "records.jsonl").read_bytes()
    last = len(data.splitlines()[-1])
    cut = {"line-1": last - 1, "line": last, "line+1": last + 1, "line+2": last + 2}.get(chop, chop)
    (folder / "records.jsonl").write_bytes(data[:-cut])
    played = []
    simulate(DuetRun(games=12, seed=5, **RANDOM), out=folder, progress=False, on_result=played.append)
    assert len(played) == (2 if chop == "line+2" else 1)
    assert_whole(folder, reference)


@pytest.mark.parametrize("chop", [1, 40, "line"])
def test_a_torn_rows_line_is_repaired_on_rerun(tmp_path, reference, chop):
    folder = copy_of(reference, tmp_path)
    data = (folder / "games.jsonl").read_bytes()
    cut = len(data.splitlines()[-1]) if chop == "line" else chop
    (folder / "games.jsonl").write_bytes(data[:-cut])
    simulate(DuetRun(games=12, seed=5, **RANDOM), out=folder, progress=False)
    assert_whole(folder, reference)


def test_a_crash_at_any_byte_of_the_last_append_loses_only_that_game(tmp_path, reference):
    """The write order is record (fsynced), then row: every prefix of that byte stream resumes whole."""
    records = (reference / "records.jsonl").read_bytes().splitlines(keepends=True)
    rows = (reference / "games.jsonl").read_bytes().splitlines(keepends=True)
    k = 7  # game 7 in flight; games 0-6 done
    stream = [(b"".join(records[:k]) + records[k][:b], b"".join(rows[:k]))
              for b in range(0, len(records[k]) + 1, max(1, len(records[k]) // 6))]
    stream += [(b"".join(records[:k + 1]), b"".join(rows[:k]) + rows[k][:b])
               for b in range(0, len(rows[k]) + 1, max(1, len(rows[k]) // 6))]
    for n, (recs, rws) in enumerate(stream):
        folder = tmp_path / f"crash{n}"
        folder.mkdir()
        shutil.copy(reference / "run.json", folder / "run.json")
        (folder / "records.jsonl").write_bytes(recs)
        (folder / "games.jsonl").write_bytes(rws)
        played = []
        simulate(DuetRun(games=12, seed=5, **RANDOM), out=folder, progress=False, on_result=played.append)
        whole_row = rws.endswith(b"\n") and rws.count(b"\n") == k + 1
        assert len(played) == (4 if whole_row else 5), n
        assert_whole(folder, reference)


def test_rows_and_records_out_of_step_are_repaired(tmp_path, reference):
    folder = copy_of(reference, tmp_path)
    rows, records = lines(folder / "games.jsonl"), lines(folder / "records.jsonl")
    # game 3 has a record but no row; game 8 a row but no record
    (folder / "games.jsonl").write_text("".join(l + "\n" for i, l in enumerate(rows) if i != 3), encoding="utf-8")
    (folder / "records.jsonl").write_text("".join(l + "\n" for i, l in enumerate(records) if i != 8),
                                          encoding="utf-8")
    played = []
    simulate(DuetRun(games=12, seed=5, **RANDOM), out=folder, progress=False, on_result=played.append)
    assert sorted(r["game_index"] for r in played) == [3, 8]
    assert_whole(folder, reference)


def test_every_game_twice_is_repaired_to_once(tmp_path, reference):
    """What two unlocked runs into one folder used to leave."""
    folder = copy_of(reference, tmp_path)
    for name in ("games.jsonl", "records.jsonl"):
        (folder / name).write_bytes((folder / name).read_bytes() * 2)
    played = []
    simulate(DuetRun(games=12, seed=5, **RANDOM), out=folder, progress=False, on_result=played.append)
    assert played == []
    assert_whole(folder, reference)


# ----- game order --------------------------------------------------------------------------------------------
def test_results_are_in_game_order_after_a_resume_on_two_workers(tmp_path):
    run = DuetRun(games=24, seed=3, **RANDOM)
    simulate(run, out=tmp_path / "ref", progress=False)
    folder = copy_of(tmp_path / "ref", tmp_path)
    for name in ("games.jsonl", "records.jsonl"):  # games 3, 7 and 20 lost
        kept = [l for l in lines(folder / name) if json.loads(l)["game_index"] not in (3, 7, 20)]
        (folder / name).write_text("".join(l + "\n" for l in kept), encoding="utf-8")
    simulate(run, out=folder, workers=2, progress=False)
    assert_whole(folder, tmp_path / "ref", 24)
    simulate(run, out=tmp_path / "w2", workers=2, progress=False)  # a fresh parallel run, too
    assert_whole(tmp_path / "w2", tmp_path / "ref", 24)


# ----- damaged files: one clear error naming the file --------------------------------------------------------------
def cli_simulate(folder: Path, games: int = 12):
    return CliRunner().invoke(app, ["simulate", "--games", str(games), "--seed", "5", "--out", str(folder),
                                    *CLI_RANDOM])


def assert_one_line_error(result, *needles):
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)  # no traceback
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    for needle in needles:
        assert needle in result.stderr, result.stderr


@pytest.mark.parametrize("text", ["[]", "5", '"run"', "{}", '{"fingerprint": 3}', "{not json", ""])
def test_a_damaged_run_json_is_one_clear_error(tmp_path, reference, text):
    folder = copy_of(reference, tmp_path)
    (folder / "run.json").write_text(text)
    before = snapshot(folder)
    assert_one_line_error(cli_simulate(folder), "run.json")
    assert snapshot(folder) == before


@pytest.mark.parametrize("name", ["games.jsonl", "records.jsonl"])
@pytest.mark.parametrize("bad", ["5", "{}", "[]", "null", '{"game_index": "4"}', '{"game_index": true}',
                                 "not json at all"])
def test_a_line_that_is_not_a_row_or_record_is_one_clear_error(tmp_path, reference, name, bad):
    folder = copy_of(reference, tmp_path)
    text = lines(folder / name)
    text.insert(4, bad)
    (folder / name).write_text("".join(l + "\n" for l in text), encoding="utf-8")
    before = snapshot(folder)
    assert_one_line_error(cli_simulate(folder), name, "line 5")
    assert snapshot(folder) == before
    with pytest.raises(ValueError, match=name):
        simulate(DuetRun(games=12, seed=5, **RANDOM), out=folder, progress=False)


@pytest.mark.parametrize("edit", [
    lambda row: {**row, "won": "yes", "score": "x"},        # a field of another kind
    lambda row: {**row, "won": "no"},                        # truthy text: would have counted as a win
    lambda row: {"game_index": row["game_index"]},           # the fields gone
    lambda row: {**row, "extra": 1},                         # a field no other row has
])
def test_a_row_edited_by_hand_is_one_clear_error(tmp_path, reference, edit):  # nothing summarised from it
    folder = copy_of(reference, tmp_path)
    text = lines(folder / "games.jsonl")
    text[3] = json.dumps(edit(json.loads(text[3])))
    (folder / "games.jsonl").write_text("".join(l + "\n" for l in text), encoding="utf-8")
    before = snapshot(folder)
    assert_one_line_error(cli_simulate(folder), "games.jsonl", "game 3")
    assert snapshot(folder) == before


def test_a_line_nested_deeper_than_json_reads_is_one_clear_error(tmp_path, reference):
    folder = copy_of(reference, tmp_path)
    text = lines(folder / "games.jsonl")
    text[3] = "[" * 100_000
    (folder / "games.jsonl").write_text("".join(l + "\n" for l in text), encoding="utf-8")
    assert_one_line_error(cli_simulate(folder), "games.jsonl", "line 4", "not JSON")


def test_a_run_json_nested_deeper_than_json_reads_is_one_clear_error(tmp_path, reference):
    """Audit 9: the rows and records refused such a line in one line, run.json raised RecursionError (a
    traceback)."""
    folder = copy_of(reference, tmp_path)
    (folder / "run.json").write_text("[" * 100_000 + "]" * 100_000)
    before = snapshot(folder)
    assert_one_line_error(cli_simulate(folder), "run.json", "not JSON")
    assert snapshot(folder) == before


def test_derived_sidecars_that_are_not_objects_are_rebuilt(tmp_path, reference):
    import pandas as pd

    folder = copy_of(reference, tmp_path)
    (folder / "summary.json").write_text("[]")
    (folder / "games.parquet").write_text("5")
    result = cli_simulate(folder)
    assert result.exit_code == 0, result.output
    assert json.loads((folder / "summary.json").read_text())["games"] == 12
    assert len(pd.read_parquet(folder / "games.parquet")) == 12


def test_out_naming_a_regular_file_is_one_clear_error(tmp_path):
    target = tmp_path / "results.txt"
    target.write_text("my notes\n")
    assert_one_line_error(cli_simulate(target, 3), str(target), "is a file")
    assert target.read_text() == "my notes\n"
    assert_one_line_error(cli_simulate(target / "sub", 3), "results.txt")


def test_rows_without_run_json_are_refused(tmp_path, reference):
    folder = copy_of(reference, tmp_path)
    (folder / "run.json").unlink()
    before = snapshot(folder)
    assert_one_line_error(cli_simulate(folder), "no run.json")
    assert snapshot(folder) == before


def test_codenames_folders_share_the_rules(tmp_path):
    from experiments.games.codenames.batch import CodenamesRun, simulate_codenames

    run = CodenamesRun(games=4, seed=2, spymaster="random", guesser="random")
    simulate_codenames(run, out=tmp_path / "cn", progress=False)
    reference = snapshot(tmp_path / "cn")
    data = (tmp_path / "cn" / "records.jsonl").read_bytes()
    (tmp_path / "cn" / "records.jsonl").write_bytes(data[:-5])
    simulate_codenames(run, out=tmp_path / "cn", progress=False)
    assert snapshot(tmp_path / "cn")["records.jsonl"] == reference["records.jsonl"]
    assert snapshot(tmp_path / "cn")["games.jsonl"] == reference["games.jsonl"]
    (tmp_path / "cn" / "run.json").write_text("[]")
    with pytest.raises(ValueError, match="run.json"):
        simulate_codenames(run, out=tmp_path / "cn", progress=False)


# ----- play never overwrites a saved game -----------------------------------------------------------------------
def play_app():
    from experiments.play import play_command

    a = typer.Typer()
    a.command("play")(play_command)
    return a


def test_play_twice_with_one_seed_keeps_the_first_game(tmp_path, monkeypatch):
    from experiments.games.duet.dealing import deal_duet_record
    from experiments.play.prompts import coordinate

    monkeypatch.chdir(tmp_path)
    record = deal_duet_record(3, "en")
    args = ["duet", "--partner", "random", "--partner-guesser", "random", "--seed", "3", "--pause", "0",
            "--first", "bot"]
    assassin = f"{coordinate(record.key.b.index('X'))}\n"
    first = CliRunner().invoke(play_app(), args, input=assassin)
    assert first.exit_code == 0, first.output
    saved = (tmp_path / "duet-3.json").read_bytes()
    assert replay_summary(record_from_json(saved.decode()))["loss_reason"] == "assassin"

    second = CliRunner().invoke(play_app(), args, input="")  # leaves at once: an almost empty record
    assert second.exit_code == 0, second.output
    assert (tmp_path / "duet-3.json").read_bytes() == saved
    assert "duet-3-2.json" in second.output and "Record saved to duet-3-2.json" in second.output
    assert json.loads((tmp_path / "duet-3-2.json").read_text())["play"]["ended"] == "end of input"

    third = CliRunner().invoke(play_app(), [*args, "--record", "duet-3.json"], input="")
    assert third.exit_code == 0, third.output
    assert (tmp_path / "duet-3.json").read_bytes() == saved and (tmp_path / "duet-3-3.json").exists()


def test_play_codenames_twice_keeps_the_first_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["codenames", "--partner", "random", "--partner-guesser", "random", "--seed", "4", "--pause", "0",
            "--role", "guesser", "--record", "games/cn.json"]
    first = CliRunner().invoke(play_app(), args, input="")
    assert first.exit_code == 0, first.output
    saved = (tmp_path / "games" / "cn.json").read_bytes()
    second = CliRunner().invoke(play_app(), args, input="")
    assert second.exit_code == 0, second.output
    assert (tmp_path / "games" / "cn.json").read_bytes() == saved
    assert "cn-2.json" in second.output
    record_from_json((tmp_path / "games" / "cn-2.json").read_text())


def test_claim_record_path_picks_the_next_free_name(tmp_path):
    from experiments.play.command import claim_record_path

    first = claim_record_path(tmp_path / "duet-11.json", "one\n")
    second = claim_record_path(tmp_path / "duet-11.json", "two\n")
    third = claim_record_path(tmp_path / "duet-11.json", "three\n")
    assert [p.name for p in (first, second, third)] == ["duet-11.json", "duet-11-2.json", "duet-11-3.json"]
    assert [p.read_text() for p in (first, second, third)] == ["one\n", "two\n", "three\n"]


def test_a_class_default_changed_since_the_folder_began_is_refused(tmp_path, reference, monkeypatch):
    """The fingerprint names the specs, not what their classes default to: a run resumed after a default
    changed (here the random guesser's `stop`) would hold games of two settings. run.json keeps the
    parameters each agent played with; the resume is refused naming the parameter, and nothing is written."""
    from agents.guessers.guessers import RandomGuesser

    folder = copy_of(reference, tmp_path)
    meta = json.loads((folder / "run.json").read_text(encoding="utf-8"))
    assert meta["agents"] == {"spymaster": {}, "guesser": {"stop": 0.0}}
    before = snapshot(folder)
    monkeypatch.setattr(RandomGuesser, "defaults", {"stop": 0.5})
    assert_one_line_error(cli_simulate(folder, games=14), "other agent defaults (guesser stop 0.0 -> 0.5)")
    with pytest.raises(ValueError, match="other agent defaults"):
        simulate(DuetRun(games=14, seed=5, **RANDOM), out=folder, progress=False)
    assert snapshot(folder) == before
    # a parameter added since, with a default of its own, changes no game: the run resumes
    monkeypatch.setattr(RandomGuesser, "defaults", {"stop": 0.0, "added": 1.0})
    simulate(DuetRun(games=14, seed=5, **RANDOM), out=folder, progress=False)
    assert indices(folder / "games.jsonl") == list(range(14))


def test_a_folder_from_before_run_json_kept_the_agents_resumes(tmp_path, reference):
    folder = copy_of(reference, tmp_path)
    meta = json.loads((folder / "run.json").read_text(encoding="utf-8"))
    del meta["agents"]
    (folder / "run.json").write_text(json.dumps(meta), encoding="utf-8")
    simulate(DuetRun(games=13, seed=5, **RANDOM), out=folder, progress=False)
    assert indices(folder / "games.jsonl") == list(range(13))
    assert "agents" in json.loads((folder / "run.json").read_text(encoding="utf-8"))   # kept from now on


def test_an_edited_missions_file_is_another_run(tmp_path):  # RULES 3.10: what the mission says decides its games
    from engine.paths import data_path
    from experiments.runs.stats import run_fingerprint

    missions = json.loads(data_path("duet", "missions.json").read_text(encoding="utf-8"))
    path = tmp_path / "map.json"
    path.write_text(json.dumps(missions), encoding="utf-8")
    run = dict(games=2, seed=1, mission="prague", missions_file=str(path), **RANDOM)
    simulate(DuetRun(**run), out=tmp_path / "run", progress=False)
    simulate(DuetRun(**{**run, "games": 3}), out=tmp_path / "run", progress=False)    # the same file resumes
    for m in missions["missions"]:
        if m["id"] == "prague":
            m["mistakes"] = 4
    path.write_text(json.dumps(missions), encoding="utf-8")
    with pytest.raises(ValueError, match="different run"):
        simulate(DuetRun(**{**run, "games": 4}), out=tmp_path / "run", progress=False)
    plain = DuetRun(games=2, seed=1, **RANDOM)
    assert plain.fingerprint() == run_fingerprint(plain)    # without a file: the key it always had


def test_a_folder_whose_run_played_no_game_is_not_kept_from_the_corrected_run(tmp_path):
    """A model file that does not load fails after the folder's run.json is written: the corrected
    command into the same --out was refused as "a different run" though the folder held no game."""
    bad = tmp_path / "vectors.txt"
    bad.write_text("not a vectors file\n")
    out = tmp_path / "run"
    result = CliRunner().invoke(app, ["simulate", "duet", "--games", "2", "--out", str(out), "--spymaster",
                                      f"expected:{bad}", "--guesser", "random", "--no-progress"])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
    assert (out / "run.json").exists() and not (out / "games.jsonl").read_text()
    summary = simulate(DuetRun(games=2, seed=0, **RANDOM), out=out, progress=False)
    assert summary["games"] == 2 and json.loads((out / "run.json").read_text())["run"]["spymaster"] == "random"
    with pytest.raises(ValueError, match="different run"):   # once it holds a game, it is that run's
        simulate(DuetRun(games=2, seed=1, **RANDOM), out=out, progress=False)


def test_a_rerun_that_plays_no_game_keeps_the_summary_of_the_run_that_played_them(tmp_path):
    """Nothing lost: the same command again played nothing but rewrote summary.json, its speed
    (games_per_second null), workers and package versions now those of the rerun. A summary whose
    figures are not this code's (edited, or of older code) is still rebuilt."""
    out = tmp_path / "run"
    simulate(DuetRun(games=6, seed=3, **RANDOM), out=out, workers=2, progress=False)
    before = snapshot(out)
    assert json.loads(before["summary.json"])["games_per_second"] is not None
    again = simulate(DuetRun(games=6, seed=3, **RANDOM), out=out, workers=1, progress=False)
    assert snapshot(out) == before and again["games"] == 6
    summary = json.loads(before["summary.json"])
    (out / "summary.json").write_text(json.dumps({**summary, "wins": summary["wins"] + 1}))
    simulate(DuetRun(games=6, seed=3, **RANDOM), out=out, progress=False)
    assert json.loads((out / "summary.json").read_text())["wins"] == summary["wins"]


def _held_game(index: int, flag: str = "") -> tuple[dict, str]:
    """Game 3 waits (at most 5 s) until the parent has received game 0; every other game is instant."""
    released = None
    if index == 3:
        deadline = time.monotonic() + 5
        while not os.path.exists(flag) and time.monotonic() < deadline:
            time.sleep(0.02)
        released = os.path.exists(flag)
    return {"game_index": index, "released": released}, "{}"


def test_a_game_a_worker_finished_reaches_the_folder_before_its_next_game_ends(tmp_path):
    """Nothing lost (docs/architecture.md, results folders): each finished game is handed back, and so
    written, as it finishes. Workers took games 8 at a time and returned them only with the last of
    the 8, so a run killed meanwhile lost games a worker had finished long before."""
    from functools import partial

    from experiments.runs.execute import MissingGames, local_results

    flag = tmp_path / "game-0-arrived"
    got = {}
    for row, _ in local_results(MissingGames(200, []), 2, partial(_held_game, flag=str(flag))):
        got[row["game_index"]] = row
        if row["game_index"] == 0:
            flag.touch()
    assert sorted(got) == list(range(200))
    assert got[3]["released"], "game 0 came back only with game 3, the later game of its batch"


@pytest.mark.parametrize("first, then", [("one secret", "another"), ("one secret", None), (None, "a secret")])
def test_a_rerun_under_another_seed_secret_is_refused_naming_the_secret(tmp_path, monkeypatch, first, then):
    """CNLAB_SEED_SECRET deals other games (experiments/runs/seeds.py), so its hash is in the folder's
    fingerprint: a rerun under another secret (or none) was refused as 'holds a different run (...)',
    the run it showed the very arguments given, and nothing said the secret was what differed. Now the
    error names it; the folder is unchanged and never holds the secret itself."""
    out = tmp_path / "run"
    for secret in (first, then):
        if secret:
            monkeypatch.setenv("CNLAB_SEED_SECRET", secret)
        else:
            monkeypatch.delenv("CNLAB_SEED_SECRET", raising=False)
        if secret == first:
            simulate(DuetRun(games=2, seed=0, **RANDOM), out=out, progress=False)
            before = snapshot(out)
    with pytest.raises(RunFolderError, match=r"different run: .*CNLAB_SEED_SECRET"):
        simulate(DuetRun(games=3, seed=0, **RANDOM), out=out, progress=False)
    assert snapshot(out) == before
    assert not any(first.encode() in data for data in before.values() if first)
