"""`cnlab play duet` in-process: input parsing, the 80x24 layout, leaving, sudden death, the referee."""

from __future__ import annotations

import json
import os

import pytest
import typer
from rich.cells import cell_len
from rich.console import Console
from typer.testing import CliRunner

from engine.records import record_from_json, replay_summary
from experiments.dealing import deal_duet_record
from experiments.play import play_command
from experiments.play import duet as duet_module
from experiments.play.prompts import coordinate, parse, resolve_card
from experiments.play.view import duet_screen, fit, reveal

from test_play_helpers import Person, ScriptedIO, legal_clue, play_in_process

WORDS = ["coach", "owl", "punch", "wire", "leg", "bass", "snake", "hill", "match", "japan", "pride", "candle",
         "vault", "bay", "fall", "feather", "date", "baby", "actor", "bark", "cell", "socket", "pass", "pitch",
         "watermelon"]


# ----- prompts ---------------------------------------------------------------------------------
@pytest.mark.parametrize("text,expected", [
    ("ocean 2", ("clue", "ocean", 2)), ("clue Ocean 0", ("clue", "Ocean", 0)),
    ("two words 3", ("clue", "two words", 3)),  # the filter refuses it (4.7), not the parser
])
def test_clue_forms(text, expected):
    cmd = parse(text, "clue", WORDS)
    assert (cmd.kind, cmd.word, cmd.number) == expected


@pytest.mark.parametrize("text", ["ocean", "ocean two", "stop", "guess coach"])
def test_malformed_clues_are_explained(text):
    cmd = parse(text, "clue", WORDS)
    assert cmd.kind == "error" and cmd.error


@pytest.mark.parametrize("text,index", [
    ("coach", 0), ("COACH", 0), ("guess owl", 1), ("B3", 11), ("b3", 11), ("e5", 24), ("a1", 0),
    ("waterm", 24),  # a unique beginning: the board shows long words cut
])
def test_guess_by_word_prefix_or_coordinate(text, index):
    cmd = parse(text, "guess", WORDS)
    assert (cmd.kind, cmd.index, cmd.word) == ("guess", index, WORDS[index])


def test_coordinates_are_column_letter_then_row_number():
    assert [coordinate(i) for i in (0, 4, 5, 11, 24)] == ["A1", "E1", "A2", "B3", "E5"]
    assert resolve_card("F1", WORDS)[0] is None
    assert resolve_card("a6", WORDS)[0] is None and "off the board" in resolve_card("a6", WORDS)[1]


def test_stop_pass_help_quit_and_a_keyword_that_is_also_a_card():
    assert parse("stop", "guess", WORDS).kind == "stop"
    assert parse("pass", "sudden", ["x"] * 25).kind == "pass"
    assert parse("?", "clue", WORDS).kind == "help" and parse("help", "guess", WORDS).kind == "help"
    assert parse("quit", "sudden", WORDS).kind == "quit"
    ambiguous = parse("pass", "guess", WORDS)  # PASS is a card of this board
    assert ambiguous.kind == "error" and "guess pass" in ambiguous.error
    assert parse("guess pass", "guess", WORDS).word == "pass"
    assert parse("end", "guess", WORDS).kind == "stop"
    assert parse("p", "guess", WORDS).kind == "error"  # punch, pride, pass, pitch: ambiguous
    assert parse("", "first", WORDS).kind == "me" and parse("bot", "first", WORDS).kind == "bot"


# ----- layout ----------------------------------------------------------------------------------
def test_fit_counts_wide_korean_syllables():
    assert cell_len(fit("할아버지")) == 10 and fit("할아버지").startswith("할아버지")
    assert cell_len(fit("만리장성의전설")) == 10 and "~" in fit("만리장성의전설")
    assert fit("watermelons").rstrip() == "watermelo~"


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_late_game_screen_fits_80x24(lang, tmp_path):
    if lang == "en":
        session, _, _ = play_in_process(5, tmp_path)  # a whole game: a long clue history
    else:
        session, _ = session_for(4, ["우주 2"], tmp_path, lang="ko", first="me")
        session.run()
    console = Console(width=80, record=True, color_system=None, file=open(os.devnull, "w"))
    console.print(duet_screen(session.state.observe("A"), session.title, session.notes))
    lines = console.export_text().splitlines()
    assert len(lines) <= 22  # and the prompt line below
    assert all(cell_len(line) <= 80 for line in lines)
    rows = [line for line in lines if line[:1] in "12345" and line[1:3] == "  "]
    assert len(rows) == 5  # no board row wrapped
    console.print(reveal(session.state.words, session.state.key.a, session.state.key.b))
    assert all(cell_len(line) <= 80 for line in console.export_text().splitlines())


# ----- leaving, the end, the referee ---------------------------------------------------------------
class Lines(ScriptedIO):
    """Answers prompts with fixed lines, then end of input."""

    def __init__(self, lines):
        super().__init__(person=None)
        self.lines = list(lines)
        self.prompts = []

    def ask(self, prompt):
        self.prompts.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


def session_for(seed, lines, tmp_path, lang="en", **kw):
    from agents.registry import make_guesser, make_spymaster

    record = deal_duet_record(seed, lang)
    io = Lines(lines)
    session = duet_module.DuetSession(record, make_spymaster("random", lang), make_guesser("random", lang),
                                      tmp_path / f"s{seed}.json", io=io, pause=0, **kw)
    return session, io


def test_end_of_input_and_quit_save_a_replayable_record_without_revealing(tmp_path):
    session, io = session_for(3, ["bot"], tmp_path)
    assert session.run() == 0
    text = io.out.getvalue()
    assert "Game left unfinished (end of input)" in text and session.record.key.b not in text
    saved = json.loads((tmp_path / "s3.json").read_text())
    assert saved["play"]["ended"] == "end of input" and len(saved["actions"]) == 1
    assert replay_summary(record_from_json(json.dumps(saved)))["status"] == "playing"

    session, io = session_for(3, ["me", "quit"], tmp_path)
    assert session.run() == 0
    assert json.loads((tmp_path / "s3.json").read_text())["play"]["ended"] == "quit"


def test_help_answers_every_prompt_kind(tmp_path):
    record = deal_duet_record(3, "en")
    clue = legal_clue(record.words)
    session, io = session_for(3, ["?", "me", "help", f"{clue} 1"], tmp_path)
    session.run()
    text = io.out.getvalue()
    assert "'me' (or Enter) to give the first clue" in text
    assert "Give a clue: WORD NUMBER" in text and "B3 = column B, row 3" in text


def test_both_holding_back_in_sudden_death_ends_the_game_unfinished(tmp_path):
    from agents.registry import make_spymaster

    from agents.base import Guesser

    class HoldsBackInSuddenDeath(Guesser):
        spec = "holds-back"

        def next_guess(self, obs):
            return None

    record = deal_duet_record(3, "en", tokens=1)  # one turn, then sudden death (RULES 3.9)
    greens = [w for w, c in zip(record.words, record.key.b) if c == "G"]
    io = Lines(["bot", greens[0], "stop", "pass"])
    session = duet_module.DuetSession(record, make_spymaster("random", "en"), HoldsBackInSuddenDeath(),
                                      tmp_path / "sd.json", io=io, pause=0)
    assert session.run() == 0
    text = io.out.getvalue()
    assert io.prompts[-1].startswith("SUDDEN DEATH")
    assert "Bot holds back." in text and "Nobody guesses in sudden death: the game ends unfinished." in text
    assert session.record.extra["play"]["ended"] == "both held back in sudden death"
    assert f"Side B (bot): {record.key.b}" in text  # the game is over: both sides shown
    summary = replay_summary(record_from_json((tmp_path / "sd.json").read_text()))
    assert summary["status"] == "sudden_death" and summary["greens_found"] == 1


def test_the_clue_number_and_the_filter_refuse_and_reprompt(tmp_path):
    record = deal_duet_record(3, "en")
    clue = legal_clue(record.words)
    session, io = session_for(3, ["me", f"{clue} 12", f"{record.words[5].upper()} 1", f"{clue} 1"], tmp_path)
    session.run()
    text = io.out.getvalue()
    assert "Refused (RULES 3.4)" in text and "Refused (RULES 4.3)" in text
    assert io.prompts[:4] == [io.prompts[0]] + ["Your clue: WORD NUMBER (? = help) > "] * 3
    assert session.record.actions[0].word == clue


def test_without_the_clue_filter_basic_checks_remain_and_the_person_is_told_once(tmp_path, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_filter(name, *args, **kw):
        if name == "engine.clues" or name.startswith("engine.clues."):
            raise ImportError("kiwipiepy is not installed")
        return real_import(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_filter)
    record = deal_duet_record(3, "en")
    session, io = session_for(3, ["me", f"{record.words[2]}s 1", "zebra 1"], tmp_path)
    session.run()
    text = io.out.getvalue()
    assert sum("The clue filter is unavailable" in note.plain for note in session.notes) == 1
    assert "Refused (RULES 4.3)" in text and session.record.actions[0].word == "zebra"


# ----- the typer command ---------------------------------------------------------------------
def app():
    a = typer.Typer()
    a.command("play")(play_command)
    return a


def test_the_command_saves_to_duet_seed_json_by_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    record = deal_duet_record(3, "en")
    assassin = record.key.b.index("X")
    result = CliRunner().invoke(app(), ["duet", "--partner", "random", "--partner-guesser", "random", "--seed", "3",
                                        "--pause", "0", "--first", "bot"], input=f"{coordinate(assassin)}\n")
    assert result.exit_code == 0, result.output
    assert "You lost" in result.output
    assert replay_summary(record_from_json((tmp_path / "duet-3.json").read_text()))["loss_reason"] == "assassin"


@pytest.mark.parametrize("args,needle", [
    (["chess"], "unknown game"), (["duet", "--lang", "fr"], "unknown language"),
    (["duet", "--partner", "nobody"], "unknown spymaster"), (["duet", "--first", "you"], "--first"),
])
def test_bad_options_exit_2(args, needle):
    result = CliRunner().invoke(app(), args)
    assert result.exit_code == 2 and needle in result.output


def test_a_person_gives_the_clues_of_a_pictures_game_and_covers_for_the_virtual_opponent(tmp_path):
    from agents.registry import make_spymaster
    from experiments.dealing_codenames import deal_record
    from experiments.play.codenames import CodenamesSession

    record = deal_record(2, "en", game="pictures", variant="two_player")
    ours, theirs = record.key.starts[0].upper(), "B" if record.key.starts == "red" else "R"
    mine = [w for w, c in zip(record.words, record.key.letters) if c == ours]
    opponents = [i for i, c in enumerate(record.key.letters) if c == theirs]

    class Guesser:  # a stub bot guesser that knows the key: two agents per clue
        spec = "stub"

        def begin_game(self, seed):
            pass

        def next_guess(self, obs):
            return None if obs.guesses_this_turn >= 2 else mine.pop(0)

    lines = ["animal 2 words 2", "animal 2"] + [x for i in opponents[:6] for x in (coordinate(i), "animal 2")]
    io = Lines(lines)
    session = CodenamesSession(record, make_spymaster("random", "en"), Guesser(), tmp_path / "pic.json", io=io,
                               pause=0, role="spymaster")
    assert session.run() == 0
    text = io.out.getvalue()
    assert "Refused (RULES 4.7)" in text or "Refused (RULES 2.2)" in text  # one word only
    assert "a " in text and "Cover an agent of the opponent" in "".join(io.prompts)
    assert "You won!" in text
    summary = replay_summary(record_from_json((tmp_path / "pic.json").read_text()))
    assert summary["winner"] == record.key.starts and summary["game"] == "pictures"
