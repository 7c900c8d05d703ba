"""Spy's Word batch self-play: seeded and order-free, each pack twice with the words drawn, resumable, weakened sides
(the registered `fake` backend and a small vocabulary: no model is loaded)."""

from __future__ import annotations

import json

import pytest

from engine.spyword import record_from_dict
from typer.testing import CliRunner

from experiments.cli import app
from experiments.games.spyword.batch import SpyWordRun, deal_game, simulate_spyword
from experiments.games.spyword.dealing import load_packs

BOT = "spyword:fake?vocab=300"


def rows(path):
    return [json.loads(line) for line in (path / "games.jsonl").read_text().splitlines()]


def test_same_seed_same_rows_on_any_worker_count(tmp_path):
    a = simulate_spyword(6, 6, 7, "en", BOT, None, tmp_path / "a", workers=1, progress=False)
    b = simulate_spyword(6, 6, 7, "en", BOT, None, tmp_path / "b", workers=2, progress=False)
    ra = sorted(rows(tmp_path / "a"), key=lambda r: r["game_index"])
    rb = sorted(rows(tmp_path / "b"), key=lambda r: r["game_index"])
    assert ra == rb and len(ra) == 6
    assert a["citizens_win_rate"] == b["citizens_win_rate"]
    recs = [json.loads(line) for line in (tmp_path / "a" / "records.jsonl").read_text().splitlines()]
    for rec in recs:  # every record replays to the row's result
        state = record_from_dict(rec).replay()
        row = next(r for r in ra if r["game_index"] == rec["game_index"])
        assert state.winner == row["winner"] and state.round == row["rounds"]


def test_packs_twice_and_words_and_roles_from_seed():  # RULES 5.2-5.4
    run = SpyWordRun(games=4, players=6, seed=1)
    packs = load_packs("en")
    g0, g1, g2 = (deal_game(run, i, packs) for i in range(3))
    assert g0.pack["id"] == g1.pack["id"] != g2.pack["id"]
    assert {g0.citizen_word, g0.spy_word} == {g1.citizen_word, g1.spy_word} == set(packs[0]["words"])
    assert deal_game(run, 5, packs).to_dict() == deal_game(run, 5, packs).to_dict()
    assert sorted(g0.roles.values()) == ["citizen"] * 4 + ["ghost", "spy"]


def test_a_bot_cannot_empty_the_loops_list_of_refused_clues():  # RULES 5.4
    """A bot whose clues are refused is asked again with the clues refused so far, at most 20 times,
    then the game stops with its error. The bot was handed the loop's own list: one that emptied it
    was asked again for ever."""
    from engine.spyword import GiveClue
    from experiments.games.spyword.loop import play_game
    from experiments.games.moves import AgentError

    record = deal_game(SpyWordRun(games=1, players=4, seed=0), 0, load_packs("en"))
    asked = []

    class Repeater:
        spec = "repeater"

        def act(self, obs, avoid=()):
            asked.append(1)
            if isinstance(avoid, list):
                avoid.clear()
            return GiveClue(obs.seat, obs.word)   # the word itself: always refused (5.4)

    with pytest.raises(AgentError, match="illegal move"):
        play_game(record, {s: Repeater() for s in record.seats})
    assert len(asked) == 21


def test_a_bot_that_counts_its_games_cannot_tell_its_role(monkeypatch):
    """Hidden information: a bot knows the game's index (it counts begin_game calls) and the packs, so
    the citizens' word must not follow from the index (it followed its parity, and a bot knew its
    role in every game); with the run secret set it follows from nothing a bot can compute."""
    packs = load_packs("en")

    def parity_right(seed):
        games = [deal_game(SpyWordRun(games=400, players=6, seed=seed), i, packs) for i in range(400)]
        return sum(g.citizen_word == g.pack["words"][i % 2] for i, g in enumerate(games)) / 400

    assert 0.4 < parity_right(0) < 0.6 and 0.4 < parity_right(1) < 0.6   # a coin, not the index
    plain = [deal_game(SpyWordRun(games=40, seed=0), i, packs).citizen_word for i in range(40)]
    monkeypatch.setenv("CNLAB_SEED_SECRET", "the organiser's secret")
    secret = [deal_game(SpyWordRun(games=40, seed=0), i, packs).citizen_word for i in range(40)]
    assert plain != secret   # the secret decides the words too, not only the roles


def test_resume_after_a_torn_write(tmp_path):
    out = tmp_path / "run"
    simulate_spyword(4, 6, 0, "en", BOT, None, out, progress=False)
    before = rows(out)
    with open(out / "games.jsonl", "a") as f:
        f.write('{"game_index": 4, "winn')  # a run killed mid-line
    summary = simulate_spyword(6, 6, 0, "en", BOT, None, out, progress=False)
    after = rows(out)
    assert summary["games"] == 6 and sorted(r["game_index"] for r in after) == list(range(6))
    assert after[:4] == before
    assert len((out / "records.jsonl").read_text().splitlines()) == 6
    with pytest.raises(ValueError):  # another run in the same folder
        simulate_spyword(6, 6, 1, "en", BOT, None, out, progress=False)


def test_weakened_side_and_summary(tmp_path, capsys):
    simulate_spyword(4, 6, 0, "en", BOT, "citizens", tmp_path / "w", progress=False)
    for line in (tmp_path / "w" / "records.jsonl").read_text().splitlines():
        rec = json.loads(line)
        for seat, spec in rec["bots"].items():
            assert spec.startswith("spyword-random") == (rec["roles"][seat] == "citizen")
    summary = simulate_spyword(2, 5, 0, "en", BOT, None, None, progress=False)
    from experiments.games.spyword.batch import format_summary

    text = format_summary(summary)
    for key in ("citizens_win_rate", "spies_ghost_win_rate", "ghost_alone_win_rate", "ghost_guess_accuracy",
                "mean_rounds", "no_winner_rate", "games_per_second"):
        assert key in text
    for bad in ({"weaken": "nobody"}, {"players": 3}, {"bot": "nearest:fake"}, {"lang": "fr"}):
        args = dict(games=2, players=6, seed=0, lang="en", bot=BOT, weaken=None, out=None, progress=False) | bad
        with pytest.raises(ValueError):
            simulate_spyword(**args)


def test_the_weakened_seats_settings_are_kept_and_checked_on_resume(tmp_path, monkeypatch):
    """A weakened run's other bot (`spyword-random` on the bot's backend) plays with its class's
    defaults too: run.json keeps them beside the bot's, and a resume after one changed is refused
    (its games would mix two settings), while the plain run, which never plays it, resumes."""
    from agents.spyword.bots import RandomSpyWordBot

    monkeypatch.setattr(RandomSpyWordBot, "defaults", {**RandomSpyWordBot.defaults, "stop": 0.0})
    simulate_spyword(2, 6, 0, "en", BOT, "citizens", tmp_path / "w", progress=False)
    simulate_spyword(2, 6, 0, "en", BOT, None, tmp_path / "plain", progress=False)
    agents = json.loads((tmp_path / "w" / "run.json").read_text())["agents"]
    assert set(agents) == {"bot", "weak"} and agents["weak"] == {"vocab": 300, "stop": 0.0}
    assert set(json.loads((tmp_path / "plain" / "run.json").read_text())["agents"]) == {"bot"}
    before = (tmp_path / "w" / "games.jsonl").read_bytes()
    monkeypatch.setattr(RandomSpyWordBot, "defaults", {**RandomSpyWordBot.defaults, "stop": 0.5})
    with pytest.raises(ValueError, match=r"other agent defaults \(weak stop 0.0 -> 0.5\)"):
        simulate_spyword(3, 6, 0, "en", BOT, "citizens", tmp_path / "w", progress=False)
    assert (tmp_path / "w" / "games.jsonl").read_bytes() == before
    assert simulate_spyword(3, 6, 0, "en", BOT, None, tmp_path / "plain", progress=False)["games"] == 3


def test_cnlab_simulate_spyword_bad_arguments_exit_2(tmp_path):
    result = CliRunner().invoke(app, ["simulate", "spyword", "--players", "3", "--games", "2",
                                      "--bot", "spyword-random", "--out", str(tmp_path / "x"), "--no-progress"])
    assert result.exit_code == 2 and result.stderr.startswith("error:")


def test_cnlab_simulate_spyword_prints_the_summary(tmp_path):
    result = CliRunner().invoke(app, ["simulate", "spyword", "--games", "2", "--players", "5", "--bot", BOT,
                                      "--out", str(tmp_path / "run"), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "citizens_win_rate" in result.stdout
    assert json.loads((tmp_path / "run" / "summary.json").read_text())["games"] == 2


def test_the_ray_backend_plays_spyword_too(tmp_path):
    """Spy's Word on Ray actors: the same rows as a local run (issue 13)."""
    pytest.importorskip("ray")
    a = simulate_spyword(4, 6, 3, "en", BOT, None, tmp_path / "a", workers=1, progress=False)
    b = simulate_spyword(4, 6, 3, "en", BOT, None, tmp_path / "b", workers=2, progress=False, backend="ray")
    rows = lambda p: (p / "games.jsonl").read_text()
    assert rows(tmp_path / "a") == rows(tmp_path / "b") and a["games"] == b["games"] == 4


def test_a_bot_with_no_clue_left_stops_the_run_in_one_line(tmp_path):  # RULES 5.4
    """A bot out of legal unused clues (a small vocabulary, a long 12-player game: every clue of the
    game is refused as a repeat) raised RuntimeError through the loop, and `cnlab simulate` printed a
    traceback. It is the bot's failure to move: AgentError naming the bot and its seat (one line,
    exit 2; under --isolate the game is its side's forfeit)."""
    from engine.spyword import GiveClue
    from experiments.games.spyword.loop import play_game
    from experiments.games.moves import AgentError

    record = deal_game(SpyWordRun(games=1, players=4, seed=0), 0, load_packs("en"))

    class Mute:
        spec = "mute"

        def act(self, obs, avoid=()):
            raise RuntimeError("no legal unused clue left in the vocabulary")

    with pytest.raises(AgentError, match=r"mute \(p\d+\).*no legal unused clue"):
        play_game(record, {s: Mute() for s in record.seats})
    result = CliRunner().invoke(app, ["simulate", "spyword", "--games", "1", "--players", "12", "--bot",
                                      "spyword-random:fake?vocab=50", "--out", str(tmp_path / "run"),
                                      "--no-progress"])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: spyword-random:fake?vocab=50")
    assert "no legal unused clue" in result.stderr and "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1


def test_games_parquet_types_an_empty_column_as_in_any_run(tmp_path):
    """A column no game of a run filled (no ghost's guess, no spy's belief with random infiltrators) was
    an untyped null column in that run's games.parquet and a string or float one in another run's: it
    is typed alike in every run."""
    import pyarrow.parquet as pq

    simulate_spyword(2, 4, 0, "en", BOT, "infiltrators", tmp_path, progress=False)
    assert all(r["ghost_guess"] is None and r["spy_belief"] is None for r in rows(tmp_path))  # no game filled them
    schema = pq.read_schema(tmp_path / "games.parquet")
    assert str(schema.field("ghost_guess").type) in ("string", "large_string")
    assert str(schema.field("spy_belief").type) == "double"
    assert all(str(schema.field(c).type) != "null" for c in schema.names)
