"""`cnlab deal codenames|pictures` and `cnlab replay`, end to end through the real app."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from experiments.cli import app

runner = CliRunner()
POOL = tuple(f"word{i:02d}" for i in range(80))


@pytest.fixture(autouse=True)
def _board_words(monkeypatch):
    """The word lists are another engineer's; a fixed pool keeps these tests independent of them."""
    import experiments.games.codenames.dealing as dealing

    real = dealing.board_pool
    monkeypatch.setattr(dealing, "board_pool", lambda game, lang="en": real(game, lang) if game == "pictures" else POOL)


def deal(*args):
    result = runner.invoke(app, ["deal", *args])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def replay(tmp_path, rec):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec, ensure_ascii=False), encoding="utf-8")
    return runner.invoke(app, ["replay", str(path)])


def test_deal_codenames_prints_records():  # RULES 1.1
    records = deal("codenames", "--seed", "5", "--count", "3")
    assert [r["seed"] for r in records] == [5, 6, 7]
    assert all(r["game"] == "codenames" and len(r["words"]) == 25 and r["actions"] == [] for r in records)
    assert deal("codenames", "--seed", "5", "--count", "3") == records      # reproducible


def test_deal_pictures_uses_the_picture_cards():  # RULES 2.1
    from engine.codenames.pictures import card_ids

    (rec,) = deal("pictures", "--seed", "2", "--variant", "assassin_ending")
    assert rec["game"] == "pictures" and len(rec["words"]) == 20 and set(rec["words"]) <= set(card_ids())
    assert rec["config"]["variant"] == "assassin_ending"


def test_deal_a_variant_that_the_game_lacks_exits_2():
    result = runner.invoke(app, ["deal", "pictures", "--variant", "single_team"])
    assert result.exit_code == 2 and "single_team" in result.stderr


def test_replay_prints_the_summary(tmp_path):
    (rec,) = deal("codenames", "--seed", "1", "--variant", "single_team")
    red = [w for w, c in zip(rec["words"], rec["key"]) if c == "R"]
    rec["actions"] = [{"seat": "red-spymaster", "clue": "all", "number": "unlimited"}] + \
                     [{"seat": "red-guesser", "guess": w} for w in red]
    result = replay(tmp_path, rec)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert {k: summary[k] for k in ("status", "winner", "loss_reason", "turns_used", "score", "competition_score")} == {
        "status": "finished", "winner": "red", "loss_reason": "opponent_finished", "turns_used": 1,
        "score": None, "competition_score": 1}


def test_replay_of_a_pictures_game_in_progress(tmp_path):
    (rec,) = deal("pictures", "--seed", "3", "--variant", "two_player")
    t = rec["starts"]
    rec["actions"] = [{"seat": f"{t}-spymaster", "clue": "animal", "number": 2}]
    summary = json.loads(replay(tmp_path, rec).stdout)
    assert summary["status"] == "playing" and summary["winner"] is None and summary["score"] is None


def test_replay_illegal_action_exits_2_with_index_and_rule(tmp_path):  # RULES 1.4
    (rec,) = deal("codenames", "--seed", "4")
    t = rec["starts"]
    rec["actions"] = [{"seat": f"{t}-spymaster", "clue": "hint", "number": 1}, {"seat": f"{t}-guesser", "stop": True}]
    result = replay(tmp_path, rec)
    assert result.exit_code == 2
    assert "action 1: RULES 1.4" in result.stderr and result.stdout == ""
