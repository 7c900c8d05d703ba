"""`cnlab play`: what the bot meant. A bot clue's intended targets are shown once its guessing turn
is over (never before, never more of the bot's key), listed at the end, and kept in the record's
`intents` (plain JSON that round-trips and replays)."""

from __future__ import annotations

import json

from agents.base import ClueDecision, Spymaster
from agents.registry import make_guesser, make_spymaster
from engine.records import record_from_json, record_to_json, replay_summary
from experiments.games.duet.dealing import deal_duet_record
from experiments.games.codenames.dealing import deal_record
from experiments.play.codenames import CodenamesSession
from experiments.play.duet import DuetSession

from test_play_session import Lines


class Meant(Spymaster):
    """Gives `clue` for the first two uncovered `cards` it still sees (a stub that knows its side)."""

    spec = "meant"

    def __init__(self, clue: str, cards: list[str]):
        super().__init__()
        self.clue, self.cards = clue, cards

    def give_clue(self, obs) -> ClueDecision:
        covered = set(obs.covered_words()) if hasattr(obs, "covered_words") else set()
        left = [c for c in self.cards if c not in covered][:2]
        return ClueDecision(self.clue, len(left), tuple(left), score=0.5)


def duet_game(tmp_path, lines, seed=3):
    record = deal_duet_record(seed, "en")
    greens = [w for w, c in zip(record.words, record.key.b) if c == "G"]
    miss = next(w for w, a, b in zip(record.words, record.key.a, record.key.b) if b == "N" and a != "X")
    io = Lines([line.format(g0=greens[0], g1=greens[1], miss=miss) for line in lines])
    session = DuetSession(record, Meant("zebra", greens[:2]), make_guesser("random", "en"), tmp_path / "d.json",
                          io=io, pause=0)
    session.run()
    return record, greens, io.out.getvalue(), tmp_path / "d.json"


def test_a_duet_bot_clue_is_explained_after_its_turn_and_at_the_end(tmp_path):
    record, greens, text, path = duet_game(tmp_path, ["bot", "{g0}", "{miss}"])
    line = f"Bot meant ZEBRA 2 for: {greens[0]} ✓, 1 more not found yet (shown at the end)"
    miss = text.index("a bystander ✗ (turn over)")
    assert "Bot meant" not in text[:miss] and text.index(line) > miss
    assert text.count(line) >= 2 and "The bot's clues and what it meant" in text
    # the found targets are the only thing shown of the bot's side: a target still face down and
    # the key stay hidden (left mid-game, so the game may go on: RULES 3.12)
    assert not [ln for ln in text.splitlines() if "Bot meant" in ln and greens[1] in ln]
    assert record.key.b not in text and "Side B" not in text
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["intents"] == [{"action": 0, "targets": greens[:2], "score": 0.5}]
    assert saved["actions"][0] == {"seat": "B", "clue": "zebra", "number": 2}


def test_an_unresolved_bot_clue_stays_unexplained_but_is_recorded(tmp_path):
    record, greens, text, path = duet_game(tmp_path, ["bot", "{g0}"])  # then end of input, mid-turn
    assert "Bot meant" not in text and "The bot's clues" not in text
    restored = record_from_json(path.read_text(encoding="utf-8"))
    assert restored.extra["intents"] == [{"action": 0, "targets": greens[:2], "score": 0.5}]
    assert json.loads(record_to_json(restored)) == json.loads(path.read_text(encoding="utf-8"))
    assert replay_summary(restored)["status"] == "playing"


def test_a_resumed_record_remembers_what_was_found_on_each_bot_clue(tmp_path):
    record, greens, _, path = duet_game(tmp_path, ["bot", "{g0}", "{miss}"])
    restored = record_from_json(path.read_text(encoding="utf-8"))
    io = Lines([])
    session = DuetSession(restored, make_spymaster("random", "en"), make_guesser("random", "en"), path, io=io,
                          pause=0)
    assert [line.plain for line in session.bot_intents.summary(reveal=True)][1:] == [
        f"Bot meant ZEBRA 2 for: {greens[0]} ✓, {greens[1]} (not found)"]
    assert [line.plain for line in session.bot_intents.summary(reveal=False)][1:] == [
        f"Bot meant ZEBRA 2 for: {greens[0]} ✓, 1 more not found yet (shown at the end)"]


def test_codenames_bot_clues_are_explained_to_the_guesser_and_recorded(tmp_path):
    for game in ("codenames", "pictures"):
        record = deal_record(5, "en", game=game, variant="two_player")
        ours = record.key.starts[0].upper()
        mine = [w for w, c in zip(record.words, record.key.letters) if c == ours]
        # the person finds the first intended agent and a third one, the last guess of the turn (2 + 1)
        io = Lines([mine[0], mine[2], mine[3]])
        path = tmp_path / f"{game}.json"
        session = CodenamesSession(record, Meant("zebra", mine), make_guesser("random", "en"), path, io=io,
                                   pause=0, role="guesser")
        assert session.run() == 0
        text = " ".join(io.out.getvalue().split())  # long lines wrap at 80 columns
        name = session._card_name  # Pictures: the coordinate and the description
        line = f"Bot meant ZEBRA 2 for: {name(mine[0])} ✓, 1 more not found yet (shown at the end)"
        last = text.index(f"You: guess {name(mine[3])}: your agent ✓")
        assert "Bot meant" not in text[:last] and text.index(line) > last
        end = text[text.index("Game left unfinished"):]   # the end screen does not promise an end to come
        assert line.replace("yet (shown at the end)", "(not shown: the game is unfinished)") in end
        assert "shown at the end" not in end
        assert record.key.letters not in text
        saved = path.read_text(encoding="utf-8")
        restored = record_from_json(saved)
        intents = restored.extra["intents"]
        assert intents[0] == {"action": 0, "targets": mine[:2], "score": 0.5}
        assert all(restored.actions[i["action"]].seat == f"{record.key.starts}-spymaster" for i in intents)
        assert json.loads(record_to_json(restored)) == json.loads(saved)
        assert replay_summary(restored)["game"] == game


def test_a_person_spymaster_leaves_no_bot_intents(tmp_path):
    record = deal_record(2, "en", game="codenames", variant="two_player")
    io = Lines(["zebra 1"])
    session = CodenamesSession(record, make_spymaster("random", "en"), make_guesser("random", "en"),
                               tmp_path / "s.json", io=io, pause=0, role="spymaster")
    session.run()
    assert "Bot meant" not in io.out.getvalue()
    assert json.loads((tmp_path / "s.json").read_text())["intents"] == []


class MeantUnlimited(Meant):
    """Gives `clue` UNLIMITED (RULES 1.7) for the uncovered ones of `cards`."""

    spec = "meant-unlimited"

    def give_clue(self, obs) -> ClueDecision:
        left = [c for c in self.cards if obs.revealed[obs.words.index(c)] is None]
        return ClueDecision(self.clue, "unlimited", tuple(left), score=0.5)


def test_an_unlimited_bot_clue_never_tells_the_guesser_how_many_cards_it_meant(tmp_path):
    """RULES 1.7: with UNLIMITED the guessers are not told how many cards the clue is for. The line
    that explains a resolved bot clue during the game (and on the screen of a game left unfinished)
    names the targets found and says nothing of how many are still face down: it is the same whether
    the bot meant 2 cards or 4."""
    record = deal_record(5, "en", game="codenames", variant="two_player")
    ours = record.key.starts[0].upper()
    mine = [w for w, c in zip(record.words, record.key.letters) if c == ours]
    shown = []
    for meant in (2, 4):
        io = Lines([mine[0], "stop"])   # one found, then stop; then a cover, a new clue, end of input
        session = CodenamesSession(record.__class__.from_dict(record.to_dict()), MeantUnlimited("zebra", mine[:meant]),
                                   make_guesser("random", "en"), tmp_path / f"u{meant}.json", io=io, pause=0,
                                   role="guesser")
        session.run()
        text = " ".join(io.out.getvalue().split())
        lines = [ln for ln in io.out.getvalue().splitlines() if "Bot meant" in ln]
        assert lines and all("more not found" not in ln for ln in lines), lines
        assert f"Bot meant ZEBRA unlimited for: {mine[0]} ✓" in text
        shown.append(text.replace(str(tmp_path), "").replace(f"u{meant}.json", "u.json"))
        # the record keeps every target the bot meant (analysis only; replay ignores it)
        assert json.loads((tmp_path / f"u{meant}.json").read_text())["intents"][0]["targets"] == mine[:meant]
    assert shown[0] == shown[1]


def test_a_bot_clue_resolved_by_the_end_of_the_game_is_explained_whole_on_the_end_screen(tmp_path):
    """docs/play.md: the targets still face down are counted only until the game is over. A clue whose
    turn the game ended (the assassin, RULES 1.3) was explained on the end screen as "1 more not found
    yet (shown at the end)", a promise on the screen that is the end; now that line names them all."""
    for game in ("codenames", "pictures"):
        record = deal_record(5, "en", game=game, variant="two_player")
        ours = record.key.starts[0].upper()
        mine = [w for w, c in zip(record.words, record.key.letters) if c == ours]
        assassin = record.words[record.key.letters.index("X")]
        io = Lines([mine[0], assassin])
        session = CodenamesSession(record, Meant("zebra", mine), make_guesser("random", "en"),
                                   tmp_path / f"{game}.json", io=io, pause=0, role="guesser")
        assert session.run() == 0 and session.state.is_terminal()
        text = " ".join(io.out.getvalue().split())
        name = session._card_name
        final = text[text.rindex("two-player ·"):]
        assert "shown at the end" not in final and "not found yet" not in final, final
        assert final.count(f"Bot meant ZEBRA 2 for: {name(mine[0])} ✓, {name(mine[1])} (not found)") == 2


def test_a_duet_bot_clue_the_game_ended_is_explained_whole(tmp_path):
    """docs/play.md: the targets still face down are counted only until the game is over. A Duet bot
    clue whose turn the assassin ended (RULES 3.5) was explained on the end screen as "1 more not found
    yet (shown at the end)"; now that line names every target, as Codenames' does."""
    record = deal_duet_record(3, "en")
    greens = [w for w, c in zip(record.words, record.key.b) if c == "G"]
    assassin = next(w for w, c in zip(record.words, record.key.b) if c == "X")
    io = Lines(["bot", greens[0], assassin])
    session = DuetSession(record, Meant("zebra", greens[:2]), make_guesser("random", "en"), tmp_path / "d.json",
                          io=io, pause=0)
    session.run()
    assert session.state.is_terminal()
    final = " ".join(io.out.getvalue().split())
    final = final[final.rindex("+ bot's miss"):]   # the end screen: after the board's legend
    assert "shown at the end" not in final and "not found yet" not in final, final
    assert f"Bot meant ZEBRA 2 for: {greens[0]} ✓, {greens[1]} (not found)" in final
