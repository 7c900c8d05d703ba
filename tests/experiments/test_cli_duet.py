"""`cnlab deal` / `cnlab replay` for Duet, end to end through the real command-line app."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from experiments.cli import app

runner = CliRunner()


def deal(*args):
    result = runner.invoke(app, ["deal", "duet", *args])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def replay(path):
    return runner.invoke(app, ["replay", str(path)])


def test_deal_prints_count_records_with_no_actions():
    records = deal("--seed", "5", "--count", "3")
    assert [r["seed"] for r in records] == [5, 6, 7]
    assert all(r["actions"] == [] and len(r["words"]) == 25 for r in records)


def test_deal_is_byte_for_byte_reproducible():
    a = runner.invoke(app, ["deal", "duet", "--seed", "11", "--count", "2"]).stdout
    b = runner.invoke(app, ["deal", "duet", "--seed", "11", "--count", "2"]).stdout
    assert a == b


def test_deal_a_mission_in_korean():  # RULES 3.10
    (rec,) = deal("--seed", "1", "--mission", "cairo", "--lang", "ko")
    assert rec["config"]["timer_tokens"] == 9 and rec["config"]["mistakes"] == 5
    assert all(any("\uac00" <= ch <= "\ud7a3" for ch in w) for w in rec["words"])


@pytest.mark.parametrize("args, message", [
    (["--mission", "atlantis"], "unknown mission"),
    (["--mission", "berlin"], "does not give"),
    (["--count", "0"], "count"),
])
def test_deal_bad_arguments_exit_2(args, message):
    result = runner.invoke(app, ["deal", "duet", *args])
    assert result.exit_code == 2 and message in result.stderr


def _play_to_loss(rec):
    a = rec["key"]["A"]
    assassin = rec["words"][a.index("X")]
    rec["actions"] = [{"seat": "A", "clue": "hint", "number": 1}, {"seat": "B", "guess": assassin}]
    return rec


def test_replay_a_lost_game(tmp_path):
    (rec,) = deal("--seed", "3")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_play_to_loss(rec)))
    result = replay(path)
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "game": "duet", "status": "lost", "greens_found": 0, "tokens_left": 9, "turns_used": 1,
        "mistakes": 0, "score": None, "loss_reason": "assassin"}


@pytest.mark.parametrize("actions, index, rule", [
    ([{"seat": "B", "guess": "WORD0"}], 0, "3.4"),                                      # guess before a clue
    ([{"seat": "A", "clue": "hint", "number": 1}, {"seat": "A", "guess": "WORD0"}], 1, "3.5"),  # wrong seat
    ([{"seat": "A", "clue": "hint", "number": 1}, {"seat": "B", "stop": True}], 1, "3.6"),      # stop first
    ([{"seat": "A", "clue": "hint", "number": 1}, {"seat": "B", "guess": "nowhere"}], 1, "3.1"),  # not on board
    ([{"seat": "A", "clue": "hint", "number": 1}, {"seat": "B", "guess": "ASSASSIN"},
      {"seat": "A", "clue": "music", "number": 1}], 2, "3.9"),                                # after the end
])
def test_replay_illegal_action_exits_2_with_index_and_rule(tmp_path, actions, index, rule):
    (rec,) = deal("--seed", "4")
    a = rec["key"]["A"]
    names = {"WORD0": rec["words"][0], "ASSASSIN": rec["words"][a.index("X")]}
    for act in actions:
        if "guess" in act:
            act["guess"] = names.get(act["guess"], act["guess"])
    rec["actions"] = actions
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec))
    result = replay(path)
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert f"action {index}" in line and f"RULES {rule}" in line


def test_replay_a_guess_of_a_covered_card(tmp_path):  # RULES 3.7
    (rec,) = deal("--seed", "9", "--tokens", "9")
    a = rec["key"]["A"]
    green_a = rec["words"][a.index("G")]
    acts = [{"seat": "A", "clue": "hint", "number": 1}, {"seat": "B", "guess": green_a}, {"seat": "B", "stop": True},
            {"seat": "B", "clue": "music", "number": 1}, {"seat": "A", "guess": green_a}]
    rec["actions"] = acts
    path = tmp_path / "covered.json"
    path.write_text(json.dumps(rec))
    result = replay(path)
    assert result.exit_code == 2 and "action 4" in result.stderr and "RULES 3.7" in result.stderr


@pytest.mark.parametrize("content", ["", "{oops", '{"game": "duet"}', "[1, 2]"])
def test_replay_malformed_exits_2(tmp_path, content):
    path = tmp_path / "m.json"
    path.write_text(content)
    result = replay(path)
    assert result.exit_code == 2 and result.stderr.startswith("error:")
    assert len(result.stderr.strip().splitlines()) == 1


def test_replay_missing_file_exits_2(tmp_path):
    result = replay(tmp_path / "nope.json")
    assert result.exit_code == 2


def test_installed_entry_point_round_trip(tmp_path):
    """The `cnlab` program itself, as a newcomer runs it."""
    cnlab = Path(sys.executable).parent / "cnlab"
    dealt = subprocess.run([str(cnlab), "deal", "duet", "--seed", "2"], capture_output=True, text=True, check=True)
    path = tmp_path / "g.jsonl"
    path.write_text(dealt.stdout)
    out = subprocess.run([str(cnlab), "replay", str(path)], capture_output=True, text=True)
    assert out.returncode == 0 and json.loads(out.stdout)["status"] == "playing"
