"""`cnlab deal spyword` / `cnlab replay` end to end through the real command-line app (RULES 5)."""

import json

from typer.testing import CliRunner

from experiments.cli import app

runner = CliRunner()


def deal(*args):
    result = runner.invoke(app, ["deal", "spyword", *args])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def finished_game(record):
    """Everyone ready, one clue each, the host starts the vote, everyone votes the spy out."""
    record["clue_filter"] = False
    seats, order = record["seats"], record["order"]
    spies = [s for s, r in record["roles"].items() if r == "spy"]
    acts = [{"seat": s, "ready": True} for s in seats]
    acts += [{"seat": s, "clue": f"clue{i}"} for i, s in enumerate(order)]
    acts += [{"seat": "host", "start_vote": True}]
    acts += [{"seat": s, "vote": spies[0] if s != spies[0] else next(o for o in seats if o != s)} for s in seats]
    record["actions"] = acts
    return record


def test_deal_spyword_six_players():  # RULES 5.1-5.4
    records = deal("--players", "6", "--seed", "4", "--count", "2")
    assert [r["seed"] for r in records] == [4, 5]
    for r in records:
        assert r["game"] == "spyword" and len(r["seats"]) == 6 and r["actions"] == []
        roles = list(r["roles"].values())
        assert roles.count("spy") == 1 and roles.count("ghost") == 1  # recommended for 6
    assert runner.invoke(app, ["deal", "spyword", "--players", "6", "--seed", "4"]).stdout == \
        runner.invoke(app, ["deal", "spyword", "--players", "6", "--seed", "4"]).stdout


def test_deal_korean_packs():  # RULES 5.3
    (r,) = deal("--players", "9", "--lang", "ko")
    assert any("\uac00" <= ch <= "\ud7a3" for ch in r["citizen_word"])


def test_deal_bad_player_count_exits_2():  # RULES 5.1
    result = runner.invoke(app, ["deal", "spyword", "--players", "3"])
    assert result.exit_code == 2 and "5.1" in result.output


def test_replay_a_finished_game(tmp_path):  # RULES 5.11
    record = finished_game(deal("--players", "4", "--seed", "1")[0])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["game"] == "spyword" and summary["status"] == "finished" and summary["winner"] == "citizens"
    assert summary["rounds"] == 1 and summary["citizen_word"] == record["citizen_word"]


def test_replay_an_illegal_action_exits_2_with_its_index_and_rule(tmp_path):  # RULES 5.6
    record = finished_game(deal("--players", "6", "--seed", "2")[0])
    first_vote = next(i for i, a in enumerate(record["actions"]) if "vote" in a)
    voter = record["actions"][first_vote]["seat"]
    record["actions"][first_vote] = {"seat": voter, "vote": voter}
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert f"action {first_vote}" in result.output and "RULES 5.6" in result.output


def test_replay_malformed_spyword_record_exits_2(tmp_path):
    record = deal("--players", "5")[0]
    record["roles"] = {s: "citizen" for s in record["seats"]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and "malformed" in result.output and "5.2" in result.output
