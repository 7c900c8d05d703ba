"""`cnlab play duet` in-process: input parsing, the 80x24 layout, leaving, sudden death, the referee."""

from __future__ import annotations

import json
import os
import re

import pytest
import typer
from rich.cells import cell_len
from rich.console import Console
from typer.testing import CliRunner

from engine.records import record_from_json, replay_summary
from experiments.games.duet.dealing import deal_duet_record
from experiments.play import play_command
from experiments.play import duet as duet_module
from experiments.play.prompts import PASS_WORDS, STOP_WORDS, coordinate, parse, resolve_card
from experiments.play.view import duet_screen, fit, reveal

from test_play_helpers import ScriptedIO, legal_clue, play_in_process

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORDS = ["coach", "owl", "punch", "wire", "leg", "bass", "snake", "hill", "match", "japan", "pride", "candle",
         "vault", "bay", "fall", "feather", "date", "baby", "actor", "bark", "cell", "socket", "pass", "pitch",
         "watermelon"]


class KeyGuesser:
    """A stub bot guesser that knows the key: two of `mine` (in order) per clue."""
    spec = "stub"

    def __init__(self, mine: list[str]):
        self.mine = mine

    def begin_game(self, seed):
        pass

    def next_guess(self, obs):
        return None if obs.guesses_this_turn >= 2 else self.mine.pop(0)


# ----- prompts ---------------------------------------------------------------------------------
@pytest.mark.parametrize("text,expected", [
    ("ocean 2", ("clue", "ocean", 2)), ("clue Ocean 0", ("clue", "Ocean", 0)),
    ("two words 3", ("clue", "two words", 3)),  # the filter refuses it (4.7), not the parser
])
def test_clue_forms(text, expected):
    cmd = parse(text, "clue", WORDS)
    assert (cmd.kind, cmd.word, cmd.number) == expected


@pytest.mark.parametrize("text", ["ocean", "ocean two", "stop", "guess coach", "ocean ³", "ocean ３",
                                  "ocean " + "1" * 5000])  # int() fails on ³ and on 4,301 digits
def test_malformed_clues_are_explained(text):
    cmd = parse(text, "clue", WORDS)
    assert cmd.kind == "error" and cmd.error and len(cmd.error) < 100


@pytest.mark.parametrize("mode", ["guess", "sudden", "cover"])
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_very_long_line_that_names_no_card_is_said_back_clipped(mode, lang):
    """A pasted line of 200,000 characters at a guess prompt was said back whole in "'xxx...' is not on
    the board" (2,500 rows of screen); like a clue's number it is said back clipped."""
    for line in ("x" * 200_000, "guess " + "가" * 200_000, "y " * 100_000):
        cmd = parse(line, mode, WORDS, lang=lang)
        assert cmd.kind == "error" and len(cmd.error) < 160, (line[:20], len(cmd.error))
    short = parse("zebra", mode, WORDS, lang=lang)
    assert "zebra" in short.error   # a short line is still said back whole


@pytest.mark.parametrize("lang,typed,word", [("ko", "추측 우물", "추측"), ("en", "guess coach", "guess")])
def test_a_guess_typed_at_the_clue_prompt_is_told_it_is_the_clue_turn_in_either_language(lang, typed, word):
    """'guess WORD' at the clue prompt is told "it is your turn to give a clue"; the Korean keyword
    '추측 WORD' was read as the clue '추측' with the number 'WORD' ("힌트 숫자는 0~9여야 합니다 ('우물'
    아님)"). The keyword followed by a number alone is a clue of that word."""
    from experiments.play.text import say

    assert parse(typed, "clue", WORDS + ["우물"], lang=lang).error == say(lang, "err_clue_turn")
    cmd = parse(f"{word} 2", "clue", WORDS, lang=lang)
    assert (cmd.kind, cmd.word, cmd.number) == ("clue", word, 2)
    cmd = parse(f"clue {word} 2", "clue", WORDS, lang=lang)
    assert (cmd.kind, cmd.word, cmd.number) == ("clue", word, 2)


def test_a_clue_number_is_read_as_written_ascii_digits_only():
    assert parse("ocean ٣", "clue", WORDS).kind == "error"  # int() would read it as 3
    assert (parse("ocean -3", "clue", WORDS).kind, parse("ocean -3", "clue", WORDS).number) == ("clue", -3)
    for text in ("ocean unlimited", "ocean Unlimited", "ocean 무제한"):   # RULES 1.2: the expert number
        assert (parse(text, "clue", WORDS).kind, parse(text, "clue", WORDS).number) == ("clue", "unlimited")


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




def to_full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else "\u3000" if c == " " else c for c in text)


@pytest.mark.parametrize("mode", ["guess", "sudden", "cover"])
def test_a_card_name_coordinate_or_command_typed_full_width_reads_as_typed_half_width(mode):
    """A Korean keyboard's full-width mode types ＣＯＡＣＨ, Ｂ３, ？, ｑｕｉｔ: the clue filter reads such a
    clue as the visible word it is (RULES 4.6, NFKC), but a guess of ＣＯＡＣＨ or Ｂ３ was "not on the
    board" and ？ / ｑｕｉｔ were no commands. They now read as the letters they are."""
    for typed, index in (("ＣＯＡＣＨ", 0), ("Ｂ３", 11), ("ｂ３", 11), ("ｗａｔｅｒｍ", 24), ("ｇｕｅｓｓ\u3000ｏｗｌ", 1)):
        if mode == "cover" and typed.startswith("ｇ"):
            typed = to_full_width("cover owl")
        cmd = parse(typed, mode, WORDS)
        assert (cmd.kind, cmd.index) == ({"cover": "cover"}.get(mode, "guess"), index), (typed, cmd)
    assert parse("？", mode, WORDS).kind == "help" and parse("ｑｕｉｔ", mode, WORDS).kind == "quit"
    if mode == "guess":
        assert parse("ＳＴＯＰ", mode, WORDS).kind == "stop"
    if mode == "sudden":
        assert parse("ｓｋｉｐ", mode, ["x"] * 25).kind == "pass"
    assert parse("？", "role", WORDS).kind == "help" and parse("ｓｐｙｍａｓｔｅｒ", "role", WORDS).word == "spymaster"
    cmd = parse("ｃｌｕｅ ｏｃｅａｎ 2", "clue", WORDS)   # the clue word stays as typed: the filter reads it
    assert (cmd.kind, cmd.word, cmd.number) == ("clue", "ｏｃｅａｎ", 2)


def test_a_pictures_description_word_typed_full_width_names_the_card():
    record, labels, keywords = picture_parts()
    words, covered = list(record.words), [False] * len(record.words)
    i, word = next((i, w) for i, k in enumerate(keywords) for w in sorted(k)
                   if len(w) > 3 and w.isascii() and sum(w in kk for kk in keywords) == 1)
    cmd = parse(to_full_width(word.upper()), "guess", words, 5, labels, "en", keywords, covered)
    assert (cmd.kind, cmd.index) == ("guess", i)

@pytest.mark.parametrize("mode,command", [("sudden", "pass"), ("guess", "stop")])
def test_a_keyword_that_is_a_card_is_never_guessed_unasked_and_the_offered_keyword_is_not_a_card(mode, command):
    """Seed 192 deals both PASS and SKIP: in sudden death 'pass' used to say "or 'skip' to pass", and
    'skip' then guessed the card SKIP (a bystander there: the game was lost, RULES 3.9)."""
    words = WORDS[:21] + ["skip", "end", "wait", "pass"]
    for typed in ("pass", "skip", "end", "wait"):
        cmd = parse(typed, mode, words)
        if typed not in PASS_WORDS | (STOP_WORDS if mode == "guess" else set()):
            assert cmd.kind == "guess"   # not a keyword of this prompt: the card
            continue
        assert cmd.kind == "error" and f"guess {typed}" in cmd.error, (typed, cmd)
        offered = re.findall(r"or '([^']+)' to", cmd.error)
        assert offered and offered[0] not in words and parse(offered[0], mode, words).kind == command
    ko = parse("pass", mode, words, lang="ko")
    assert re.search(r"'(패스|그만)'", ko.error)   # a Korean board offers the Korean keyword


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


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_record_that_cannot_be_saved_mid_game_is_said_so_and_not_blamed_on_the_bot(lang, tmp_path):
    """When the record could not be written after a move (a full disk, a folder removed or made
    read-only), the OSError ended the game as "The bot failed: IsADirectoryError ..." with exit 1 and
    `bot error` in the record. The person is told once that the record could not be saved, and why;
    the game goes on, and a later save that works saves the whole game."""
    from experiments.play.text import say

    clue = legal_clue(deal_duet_record(3, lang).words) if lang == "en" else "우주"
    session, io = session_for(3, ["me", f"{clue} 1", f"{clue} 1"], tmp_path, lang=lang)
    blocker = tmp_path / "s3.json.tmp"   # the file the record is written to before it is renamed
    blocker.mkdir()
    real_apply = session._apply

    def apply(action):
        real_apply(action)
        if len(session.record.actions) >= 2 and blocker.exists():   # the disk works again later
            blocker.rmdir()

    session._apply = apply
    assert session.run() == 0
    text = " ".join(io.out.getvalue().split())
    assert say(lang, "bot_failed", error="")[:8] not in text
    warning = " ".join(say(lang, "save_failed", path=session.record_path, error="X").split())
    said = [n.plain for n in session.notes if warning.split(str(session.record_path))[0] in " ".join(n.plain.split())]
    assert len(said) == 1 and "Is a directory" in said[0]   # once, not after every move; and why
    saved = json.loads((tmp_path / "s3.json").read_text())
    assert saved["play"]["ended"] == "end of input" and len(saved["actions"]) == len(session.record.actions)


@pytest.mark.parametrize("lang,clue", [("en", "zebra"), ("ko", "우주")])
def test_a_line_that_is_not_utf8_is_refused_as_bad_input_and_the_game_goes_on(lang, clue, tmp_path):
    """A line whose bytes are not UTF-8 (a legacy Korean terminal's EUC-KR, a stray byte in a moves
    file) raised UnicodeDecodeError under a UTF-8 locale (stdin's errors 'strict'), which ended the game
    as "The bot failed: UnicodeDecodeError ..." with exit 1. It is read with U+FFFD for the bytes and
    refused like any other bad input; the next line is played."""
    import subprocess
    import sys

    moves = b"me\n" + b"\xff\xfe 1\n" + "우주".encode("euc-kr") + b" 1\n" + f"{clue} 1\n".encode()
    env = dict(os.environ, PYTHONIOENCODING="utf-8:strict", PYTHONPATH=str(ROOT), NO_COLOR="1")
    done = subprocess.run([sys.executable, "-m", "experiments.play", "duet", "--partner", "random",
                           "--partner-guesser", "random", "--seed", "3", "--pause", "0", "--lang", lang,
                           "--record", str(tmp_path / "g.json")],
                          input=moves, capture_output=True, env=env, cwd=tmp_path, timeout=120)
    out = done.stdout.decode("utf-8", "replace")
    assert done.returncode == 0, out[-800:] + done.stderr.decode()[-800:]
    assert "UnicodeDecodeError" not in out and "Traceback" not in done.stderr.decode()
    saved = json.loads((tmp_path / "g.json").read_text())
    assert saved["play"]["ended"] == "end of input" and saved["actions"][0]["clue"] == clue


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


def test_a_duet_bot_spymasters_numpy_integer_number_is_played_as_that_number(tmp_path):  # RULES 3.4
    """As in Codenames: the terminal passed a bot's clue number on raw, so numpy.int64(1) (a number out
    of an argmax) was refused under 3.4 and the game stopped as a bot error, where `cnlab simulate` and
    the web play it as 1 (experiments.games.moves.clue_number)."""
    record = deal_duet_record(3, "en")
    greens = [w for w, c in zip(record.words, record.key.b) if c == "G"]

    io = Lines(["bot", greens[0], "stop", "quit"])
    session = duet_module.DuetSession(record, NumpySpymaster(greens[0]), _holds_back(), tmp_path / "n.json", io=io, pause=0)
    session.run()
    saved = json.loads((tmp_path / "n.json").read_text())
    assert saved["actions"][0]["number"] == 1 and saved["actions"][1]["guess"] == greens[0], saved["actions"]
    assert "bot error" not in str(saved["play"]["ended"])


class NumpySpymaster:
    """Clues ZEBRA 1 for `target` with numpy numbers, as a bot's argmax gives them."""

    spec = "numpy"

    def __init__(self, target: str):
        self.target = target

    def begin_game(self, seed):
        pass

    def give_clue(self, obs):
        import numpy as np

        from agents.base import ClueDecision

        return ClueDecision("zebra", np.int64(1), (self.target,), np.float64(0.5))


def _holds_back():
    """A bot guesser that never guesses (in sudden death: it holds back)."""
    from agents.base import Guesser

    class HoldsBack(Guesser):
        spec = "holds-back"

        def next_guess(self, obs):
            return None

    return HoldsBack()


@pytest.mark.parametrize("lang,refused", [("en", "Refused (RULES 3.9)"), ("ko", "거절 (규칙 3.9)")])
def test_stop_or_a_clue_in_sudden_death_is_refused_naming_rule_3_9_and_the_game_goes_on(lang, refused, tmp_path):
    """RULES 3.9: in sudden death there are no more clues and no stopping. 'stop' (or 'end', '그만')
    and a clue typed at the sudden-death prompt were answered "'stop' is not on the board" / "it is not
    your turn to give a clue", naming no rule; they are refused by the engine citing 3.9, nothing is
    applied, and the person is asked again."""
    from agents.registry import make_spymaster

    record = deal_duet_record(3, lang, tokens=1)  # one turn, then sudden death
    greens = [w for w, c in zip(record.words, record.key.b) if c == "G"]
    stop, clue = ("stop", "zebra 2") if lang == "en" else ("그만", "사과 2")  # the second stop is in sudden death
    io = Lines(["bot", greens[0], stop, stop, "end" if lang == "en" else "멈춤", clue, f"clue {clue}", "pass"])
    session = duet_module.DuetSession(record, make_spymaster("random", lang), _holds_back(),
                                      tmp_path / "sd.json", io=io, pause=0)
    session.run()
    text = io.out.getvalue()
    assert io.prompts[3:] == [io.prompts[3]] * 5 and io.prompts[3].startswith(("SUDDEN DEATH", "서든 데스"))
    notes = [n.plain for n in session.notes]
    assert sum(n.startswith(refused) for n in notes) == 4
    assert "not on the board" not in text and "not your turn" not in text
    if lang == "ko":
        assert "서든데스에서는 멈출 수 없습니다" in text and "서든데스에서는 힌트를 줄 수 없습니다" in text
    assert len(session.record.actions) == 3   # the bot's clue, the guess, the stop: nothing else applied
    assert session.record.extra["play"]["ended"] == "both held back in sudden death"


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_miss_that_loses_the_game_is_not_reported_as_turn_over(lang, tmp_path):
    """RULES 3.9: a wrong guess in sudden death loses at once. It was reported 'a bystander ✗ (turn
    over)' like a miss that only ends the turn (3.5), just above 'You lost'; now '(game over)'."""
    from agents.registry import make_spymaster

    record = deal_duet_record(3, lang, tokens=1)  # one turn, then sudden death
    greens = [w for w, c in zip(record.words, record.key.b) if c == "G"]
    beige = next(w for w, c in zip(record.words, record.key.b) if c == "N")
    io = Lines(["bot", greens[0], "stop" if lang == "en" else "그만", beige])
    session = duet_module.DuetSession(record, make_spymaster("random", lang), _holds_back(),
                                      tmp_path / "sd.json", io=io, pause=0)
    session.run()
    assert session.state.outcome().loss_reason == "sudden_death_miss"
    last = [n.plain for n in session.notes if beige in n.plain][-1]
    assert last.endswith("a bystander ✗ (game over)" if lang == "en" else "민간인 ✗ (게임 끝)"), last


def test_the_clue_number_and_the_filter_refuse_and_reprompt(tmp_path):
    record = deal_duet_record(3, "en")
    clue = legal_clue(record.words)
    session, io = session_for(3, ["me", f"{clue} 12", f"{record.words[5].upper()} 1", f"{clue} unlimited",
                                  f"{clue} 1"], tmp_path)
    session.run()
    text = io.out.getvalue()
    assert "Refused (RULES 3.4)" in text and "Refused (RULES 4.3)" in text
    assert "not unlimited" in text and "bot failed" not in text.lower()   # Duet has no unlimited clue (3.4)
    assert io.prompts[:5] == [io.prompts[0]] + ["Your clue: WORD NUMBER (? = help) > "] * 4
    assert session.record.actions[0].word == clue and session.record.actions[0].number == 1


def test_a_clue_number_of_thousands_of_digits_is_refused_and_reprompted_not_blamed_on_the_bot(tmp_path):
    record = deal_duet_record(3, "en")
    clue = legal_clue(record.words)
    session, io = session_for(3, ["me", f"{clue} " + "1" * 5000, f"{clue} 1"], tmp_path)
    assert session.run() == 0
    text = io.out.getvalue()
    assert "the clue's number must be 0..9, not '111111111111…'" in text and "bot failed" not in text.lower()
    assert session.record.actions[0].number == 1


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


@pytest.mark.parametrize("clue,board,lang", [
    ("\u110b\u116e\u1106\u116e\u11af", ["우물", "보석"], "ko"),   # 우물 typed as jamo (NFD): the same word
    ("ｒｉｆｌｅ", ["rifle", "chip"], "en"),                            # full-width letters
    ("RIFLE", ["rifle", "chip"], "en"),
])
def test_the_basic_checks_without_the_filter_read_a_clue_as_the_filter_does(clue, board, lang):
    """RULES 4.3, 4.6 (words spelled the same are the same word): without the clue filter the basic
    check compared the clue as typed, so 우물 typed in decomposed jamo (as some input methods send it)
    or in full-width letters passed, and the engine then recorded the visible word 우물 as the clue.
    The full filter refuses both; so does the basic check now."""
    from experiments.play.terminal import ClueReferee

    referee = ClueReferee(lang, lambda message: None)
    referee._broken = "the filter is unavailable"   # as after a failed import: only the basic checks
    verdict = referee.judge(clue, 1, board, [])
    assert verdict is not None and verdict[0] == "4.3", verdict
    assert referee.judge("zebra" if lang == "en" else "사과", 1, board, []) is None



@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_basic_checks_without_the_filter_say_a_pasted_screenful_back_clipped(lang):
    """RULES 4.7 without the clue filter: a clue of 100,000 words was refused as "a clue is one word:
    'y y y ...'" said back whole (200,000 characters, 2,500 rows of screen); like every other line that
    says back what was typed (prompts.SAID_BACK), it is clipped now."""
    from experiments.play.terminal import ClueReferee

    referee = ClueReferee(lang, lambda message: None)
    referee._broken = "the filter is unavailable"
    rule, message = referee.judge("y " * 100_000, 1, ["rifle", "chip"], [])
    assert rule == "4.7" and len(message) < 120, len(message)
    assert referee.judge("ice cream", 1, ["rifle"], [])[1].endswith("'ice cream'")   # a short one whole

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


def test_the_screen_names_the_record_file_as_it_is_spelled(tmp_path, monkeypatch):
    """Plain strings went through rich markup: --record '[bold]x.json' was announced as x.json
    (and ':smile:' would have become an emoji), so the screen named a file that does not exist."""
    monkeypatch.chdir(tmp_path)
    args = ["duet", "--partner", "random", "--partner-guesser", "random", "--seed", "3", "--pause", "0",
            "--first", "bot", "--record"]
    for name in ("[bold]x.json", "a:smile:b.json"):
        for n in (1, 2):   # the second game goes to STEM-2: both names on screen as spelled
            result = CliRunner().invoke(app(), args + [name], input="")
            assert result.exit_code == 0, result.output
            saved = name if n == 1 else name.replace(".json", "-2.json")
            assert (tmp_path / saved).is_file()
            first_line = next(line for line in result.output.splitlines() if "saved to" in line)
            assert saved in first_line, first_line


@pytest.mark.parametrize("args,needle", [
    (["chess"], "unknown game"), (["duet", "--lang", "fr"], "unknown language"),
    (["duet", "--partner", "nobody"], "unknown spymaster"), (["duet", "--first", "you"], "--first"),
])
def test_bad_options_exit_2(args, needle):
    result = CliRunner().invoke(app(), args)
    assert result.exit_code == 2 and needle in result.output


def test_a_person_gives_the_clues_of_a_pictures_game_and_covers_for_the_virtual_opponent(tmp_path):
    from agents.registry import make_spymaster
    from experiments.games.codenames.dealing import deal_record
    from experiments.play.codenames import CodenamesSession

    record = deal_record(2, "en", game="pictures", variant="two_player")
    ours, theirs = record.key.starts[0].upper(), "B" if record.key.starts == "red" else "R"
    mine = [w for w, c in zip(record.words, record.key.letters) if c == ours]
    opponents = [i for i, c in enumerate(record.key.letters) if c == theirs]

    lines = ["animal 2 words 2", "animal 2"] + [x for i in opponents[:6] for x in (coordinate(i), "animal 2")]
    io = Lines(lines)
    session = CodenamesSession(record, make_spymaster("random", "en"), KeyGuesser(mine), tmp_path / "pic.json", io=io,
                               pause=0, role="spymaster")
    assert session.run() == 0
    text = io.out.getvalue()
    assert "Refused (RULES 4.7)" in text or "Refused (RULES 2.2)" in text  # one word only
    assert "a " in text and "Cover an agent of the opponent" in "".join(io.prompts)
    assert "You won!" in text
    summary = replay_summary(record_from_json((tmp_path / "pic.json").read_text()))
    assert summary["winner"] == record.key.starts and summary["game"] == "pictures"


# ----- Korean boards ------------------------------------------------------------------------------
def test_every_line_has_an_english_and_a_korean_wording_with_the_same_fields():
    import string

    from experiments.play.text import TEXT

    assert set(TEXT["en"]) == set(TEXT["ko"])
    fields = lambda s: {f for _, f, _, _ in string.Formatter().parse(s) if f}  # noqa: E731
    for key, english in TEXT["en"].items():
        assert fields(english) == fields(TEXT["ko"][key]), key


def hangul(text: str) -> bool:
    return any("\uac00" <= ch <= "\ud7a3" for ch in text)


def test_a_korean_board_prompts_helps_refuses_and_ends_in_korean(tmp_path):
    record = deal_duet_record(4, "ko")
    greens_b = [w for w, c in zip(record.words, record.key.b) if c == "G"]
    session, io = session_for(4, ["?", "나", "도움말", f"{record.words[3]} 1", "우주 12", "ocean", "우주 2",
                                  "?"], tmp_path, lang="ko")
    session.run()
    text = io.out.getvalue()
    assert io.prompts and all(hangul(p) for p in io.prompts)
    assert io.prompts[0] == "누가 첫 힌트를 줄까요? 나/봇 (Enter = 나, ? = 도움말) > "
    assert "내 힌트: 단어 숫자 (? = 도움말) > " in io.prompts
    assert "첫 힌트를 직접 주려면 '나'(또는 Enter)" in text and "힌트 주기: 단어 숫자" in text  # help
    assert "좌표: 열 글자 + 행 숫자" in text
    assert "거절 (규칙 4.3): 공개된 코드네임은 힌트로 줄 수 없습니다" in text  # the clue filter, in Korean
    assert "거절 (규칙 3.4): 듀엣의 힌트 숫자는 0~9입니다 (12 아님)." in text
    assert "힌트는 단어와 숫자입니다" in text  # a parse error
    assert "나: 힌트 우주 2." in text and "찾은 요원 0/15" in text and "아직 힌트가 없습니다." in text
    assert "게임을 끝내지 않고 나갔습니다 (입력 끝)." in text
    assert "결과: 진행 중(playing) · 점수 - · 요원" in text and "기록을 저장했습니다:" in text
    for english in ("Your clue", "Refused", "You:", "Game left", "Result:", "Record saved", "Give a clue",
                    "Coordinates", "Agents found", "No clues"):
        assert english not in text, english
    assert session.record.extra["play"]["ended"] == "end of input"  # the record keeps the engine's words
    assert greens_b  # (the deal has a side B)


@pytest.mark.parametrize("lang,typed,said", [("ko", "우주 무제한", "(무제한 아님)"), ("en", "ocean unlimited", "not unlimited.")])
def test_an_unlimited_duet_clue_is_refused_naming_the_number_in_the_boards_language(lang, typed, said, tmp_path):
    """RULES 3.4: a Duet clue has no UNLIMITED; a Korean board's refusal said '(unlimited 아님)', the
    number in the record's English word; it names it as the player typed it now, in Korean."""
    session, io = session_for(4, ["나" if lang == "ko" else "me", typed], tmp_path, lang=lang)
    session.run()
    text = " ".join(io.out.getvalue().split())
    assert said in text and ("3.4" in text), text[-400:]
    assert "unlimited 아님" not in text


def test_a_refused_clues_reason_ends_its_sentence_before_type_another_clue():
    """The Korean clue filter's reasons end without a period ('...: 우물'), so the refusal read
    '...힌트로 줄 수 없습니다: 우물 다른 힌트를 입력하세요.', the refused word running into the next
    sentence; the reason now ends with a period first (English reasons already do)."""
    from experiments.play.text import refusal

    ko = refusal("ko", "4.3", "공개된 코드네임은 힌트로 줄 수 없습니다: 우물", retype=True)
    assert ko == "거절 (규칙 4.3): 공개된 코드네임은 힌트로 줄 수 없습니다: 우물. 다른 힌트를 입력하세요."
    en = refusal("en", "4.3", "A visible code word may not be the clue: coach.", retype=True)
    assert en == "Refused (RULES 4.3): A visible code word may not be the clue: coach. Type another clue."
    assert refusal("en", "4.7", "Is it one word?", retype=True).endswith("one word? Type another clue.")
    assert refusal("ko", "3.7", "'x'은(는) 요원 카드로 덮였습니다") == "거절 (규칙 3.7): 'x'은(는) 요원 카드로 덮였습니다"


def test_an_engine_refusal_is_worded_on_a_korean_board_from_the_engines_table(tmp_path):
    """The terminal words an engine refusal by its kind from the engines' one table (engine.refusals,
    which the web pages read too), not from a second table of its own that matched English messages."""
    from engine.errors import IllegalAction
    from engine.refusals import refusal as engine_error, refusal_text
    from experiments.play.text import engine_refusal

    record = deal_duet_record(3, "ko")
    green = next(w for w, c in zip(record.words, record.key.b) if c == "G")
    miss = next(w for w, a, b in zip(record.words, record.key.a, record.key.b) if b == "N" and a != "X")
    covered = engine_error("3.7", "covered_agent", word=repr(green))
    assert engine_refusal("ko", covered) == f"거절 (규칙 3.7): {refusal_text(covered, 'ko')}"
    assert engine_refusal("ko", covered) == f"거절 (규칙 3.7): '{green}'은(는) 요원 카드로 덮였습니다"
    assert engine_refusal("en", covered) == f"Refused (RULES 3.7): {green!r} is covered by an agent"
    assert engine_refusal("ko", IllegalAction("3.4", "something new")) == "거절 (규칙 3.4): something new"  # no kind: as it is
    # the bot gives a clue; the person finds a green, guesses it again (refused), then misses
    session, io = session_for(3, ["봇", green, green, miss], tmp_path, lang="ko")
    session.run()
    assert f"'{green}'은(는) 요원 카드로 덮였습니다" in io.out.getvalue()


# ----- wrapping -----------------------------------------------------------------------------------
def test_long_messages_wrap_at_80_columns_instead_of_being_cut(tmp_path):
    from rich.text import Text

    label = "robust:use-m3+glove-50 + duet-bayes:use-m3?noise=0.05"
    session, _ = session_for(3, [], tmp_path, partner_label=label)
    long = Text("Refused (RULES 4.3): " + "a very long reason " * 8 + "END OF THE MESSAGE.")
    console = Console(width=80, record=True, color_system=None, file=open(os.devnull, "w"))
    console.print(duet_screen(session.state.observe("A"), session.title, [Text("older note"), long]))
    out = console.export_text()
    lines, flat = out.splitlines(), " ".join(out.split())
    assert "END OF THE MESSAGE." in flat and "…" not in flat
    assert "duet-bayes:use-m3?noise=0.05)" in flat  # the title wraps too
    assert all(cell_len(line) <= 80 for line in lines) and len(lines) <= 22
    rows = [line for line in lines if line[:1] in "12345" and line[1:3] == "  "]
    assert len(rows) == 5  # board rows are laid out to fit, never wrapped
    # a screen full of long notices keeps the board and the latest notice whole, within 22 rows
    many = [Text(f"note {n}: " + "word " * 30 + f"end {n}") for n in range(4)]
    console = Console(width=80, record=True, color_system=None, file=open(os.devnull, "w"))
    console.print(duet_screen(session.state.observe("A"), session.title, many))
    out = console.export_text()
    assert len(out.splitlines()) <= 22 and "end 3" in " ".join(out.split())


@pytest.mark.parametrize("width", [40, 50, 64, 76])
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_terminal_narrower_than_80_columns_shows_every_card_of_the_board_and_the_reveal(width, lang, tmp_path):
    """The board rows are laid out for 80 columns and were cut at the terminal's edge: at 40 columns
    columns D and E (10 of the 25 cards, public words, RULES 3.1) were not on the screen at all, nor in
    the end's reveal. On a narrower terminal the columns go in bands, each under its own header, so
    every card is drawn whole; at 80 columns the board is as before."""
    session, _ = session_for(3, [], tmp_path, lang=lang)
    words = session.state.words
    for shown in (duet_screen(session.state.observe("A"), session.title, session.notes, lang=lang),
                  reveal(words, session.state.key.a, session.state.key.b, lang=lang)):
        console = Console(width=width, record=True, color_system=None, file=open(os.devnull, "w"))
        console.print(shown)
        lines = console.export_text().splitlines()
        assert all(cell_len(line) <= width for line in lines)
        flat = "\n".join(lines)
        for word in words:
            assert fit(word).rstrip() in flat, (width, word)
        headers = [line.split() for line in lines if line.startswith("   ") and line.split()
                   and set(line.split()) <= set("ABCDE")]
        assert sorted(sum(headers, [])) == list("ABCDE")   # each column named once, above its cards
        rows = [line for line in lines if line[:1] in "12345" and line[1:3] == "  "]
        assert len(rows) == 5 * len(headers)
    wide = Console(width=80, record=True, color_system=None, file=open(os.devnull, "w"))
    wide.print(duet_screen(session.state.observe("A"), session.title, session.notes, lang=lang))
    assert len([line for line in wide.export_text().splitlines() if line[:1] in "12345" and line[1:3] == "  "]) == 5


@pytest.mark.parametrize("width", [52, 64, 76])
def test_a_late_game_screen_narrower_than_80_columns_still_fits_22_rows_with_its_status(width, tmp_path):
    """Older notices and clues were left out by counting wrapped rows at 80 columns whatever the
    terminal's width, so on a narrower one (the board in bands, more lines wrapped) a late-game screen
    took more than 24 rows and the title and the status line (tokens left, sudden death) scrolled off
    the top. The rows are counted at the terminal's width."""
    session, _, _ = play_in_process(5, tmp_path)  # a whole game: a long clue history
    console = Console(width=width, record=True, color_system=None, file=open(os.devnull, "w"))
    console.print(duet_screen(session.state.observe("A"), session.title, session.notes))
    lines = console.export_text().splitlines()
    assert len(lines) <= 22 and all(cell_len(line) <= width for line in lines)
    assert lines[0].startswith("Codenames Duet") and any("Tokens left" in line for line in lines)
    assert session.notes[-1].plain.split()[-1] in " ".join(lines)   # the latest notice stays


# ----- line editing -------------------------------------------------------------------------------
def test_line_editing_is_on_only_at_a_terminal():
    import io as stdio
    import sys

    from experiments.play.terminal import TerminalIO

    piped = TerminalIO(console=Console(file=stdio.StringIO()))
    assert piped.line_editing is False  # scripted or piped input: plain lines
    at_terminal = TerminalIO(console=Console(file=stdio.StringIO(), force_terminal=True), line_editing=True)
    assert at_terminal.line_editing is True and "readline" in sys.modules
    prompt = at_terminal.readline_prompt("Your clue: > ")
    assert "Your clue: > " in prompt and "\x1b[" in prompt
    # every escape code is marked as taking no columns, so readline keeps the cursor in place
    import re

    assert all(m.start() > 0 and prompt[m.start() - 1] == "\x01" and prompt[m.end()] == "\x02"
               for m in re.finditer(r"\x1b\[[0-9;]*m", prompt))


# ----- Codenames and Pictures: the end screen names the roles as played -----------------------------
def codenames_game(tmp_path, game, role, lang="en", seed=7):
    from agents.registry import make_guesser, make_spymaster
    from experiments.games.codenames.dealing import deal_record
    from experiments.play.codenames import CodenamesSession

    record = deal_record(seed, lang, game=game, variant="two_player")
    ours = record.key.starts[0].upper()
    mine = [w for w, c in zip(record.words, record.key.letters) if c == ours]
    return record, mine, CodenamesSession, make_spymaster("random", lang), make_guesser("random", lang)


def test_the_end_screen_of_a_person_guesser_names_the_roles_as_played(tmp_path):
    record, mine, Session, spymaster, guesser = codenames_game(tmp_path, "codenames", "guesser")
    io = Lines(list(mine))
    session = Session(record, spymaster, guesser, tmp_path / "g.json", io=io, pause=0, role="guesser",
                      partner_label="random")
    assert session.run() == 0
    text = io.out.getvalue()
    end = text.rindex("Codenames two-player")  # the final screen: the key revealed
    final = text[end:]
    assert "You won!" in final and f"you: {record.key.starts} guesser · bot: random" in final
    assert "spymaster ·" not in final.splitlines()[0]
    assert "You played the guesser; the bot (random) gave the clues." in final
    clue_lines = [line for line in final.splitlines() if " → " in line or line.endswith("→")]
    assert clue_lines and all(line.startswith("Bot: ") for line in clue_lines[:4])  # the bot's clues
    assert "You: " + str(record.actions[0].word).upper() not in text  # never the person's
    assert "The bot's clues and what it meant" in final
    assert "R red  B blue  N bystander  X assassin" in final  # the key, shown once the game is over
    assert "Your clues and what the bot guessed" not in final


def test_the_end_screen_of_a_person_spymaster_lists_their_clues_and_the_bots_guesses(tmp_path):
    record, mine, Session, spymaster, _ = codenames_game(tmp_path, "codenames", "spymaster", seed=2)
    theirs = "B" if record.key.starts == "red" else "R"
    opponents = [w for w, c in zip(record.words, record.key.letters) if c == theirs]

    io = Lines(["zebra 2"] + [x for w in opponents[:6] for x in (w, "zebra 2")])
    session = Session(record, spymaster, KeyGuesser(mine), tmp_path / "s.json", io=io, pause=0, role="spymaster")
    assert session.run() == 0
    final = io.out.getvalue()[io.out.getvalue().rindex("Codenames two-player"):]
    assert "You won!" in final and "spymaster · bot:" in final.splitlines()[0]
    assert "You played the spymaster; the bot (stub) guessed." in final
    assert "Your clues and what the bot guessed on them:" in final and "ZEBRA 2 →" in final
    assert "You: ZEBRA 2 →" in final  # the history names the person as the clue giver
    assert "Bot meant" not in final


def test_a_codenames_spymaster_may_give_an_unlimited_clue(tmp_path):  # RULES 1.2
    record, mine, Session, spymaster, _ = codenames_game(tmp_path, "codenames", "spymaster", seed=2)
    io = Lines(["zebra unlimited"])
    session = Session(record, spymaster, KeyGuesser(mine), tmp_path / "s.json", io=io, pause=0, role="spymaster")
    session.run()
    assert session.record.actions[0].number == "unlimited" and "bot failed" not in io.out.getvalue().lower()


@pytest.mark.parametrize("role", ["spymaster", "guesser"])
def test_an_unlimited_clue_reads_in_korean_on_a_korean_board(role, tmp_path):   # RULES 1.2
    """A Korean board said '힌트 우주 unlimited' (the engine's word) in the notice, the clue history, the
    guess prompt and the end screen; the record keeps the engine's word."""
    from agents.base import ClueDecision

    record, mine, Session, spymaster, _ = codenames_game(tmp_path, "codenames", role, seed=2, lang="ko")

    class Unlimited:   # a bot spymaster whose clue is UNLIMITED
        spec = "stub-bot"

        def begin_game(self, seed):
            pass

        def give_clue(self, obs):
            return ClueDecision("우주", "unlimited", targets=[mine[0]])

    lines = ["우주 무제한"] if role == "spymaster" else [mine[0], "그만"]
    io = Lines(lines)
    bot = Unlimited() if role == "guesser" else spymaster
    session = Session(record, bot, KeyGuesser(list(mine)), tmp_path / "s.json", io=io, pause=0, role=role)
    session.run()
    text = io.out.getvalue() + "".join(io.prompts)
    assert session.record.actions[0].number == "unlimited"
    assert "우주 무제한" in text and "unlimited" not in text.replace(str(tmp_path), "")


def test_a_codenames_spymaster_is_asked_again_after_a_clue_number_of_thousands_of_digits(tmp_path):
    record, mine, Session, spymaster, _ = codenames_game(tmp_path, "codenames", "spymaster", seed=2)
    io = Lines(["zebra " + "1" * 5000, "zebra 99", "zebra 2"])
    session = Session(record, spymaster, KeyGuesser(mine), tmp_path / "s.json", io=io, pause=0, role="spymaster")
    assert session.run() == 0
    text = io.out.getvalue()
    assert "the clue's number must be 0..9 or unlimited, not '111111111111…'" in text
    # RULES 1.2 sets the number's range; 4.2 (the number used as part of the hint) was cited before
    assert "Refused (RULES 1.2): a clue number is 0..9 or unlimited, not 99." in text and "4.2" not in text
    assert "bot failed" not in text.lower() and session.record.actions[0].number == 2



@pytest.mark.parametrize("game", ["codenames", "pictures"])
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_codenames_clue_prompt_says_unlimited_is_a_number_in_its_error_and_help(game, lang, tmp_path):
    """RULES 1.2, 1.7 (Pictures 2.4): a Codenames clue's number is 0..9 or UNLIMITED, and 0 and UNLIMITED
    set no guess limit (1.4). An unreadable number ('zebra two') was told "must be 0..9" (Duet's range),
    and the clue help said "(0..9). Your guesser may guess NUMBER+1 cards", both leaving UNLIMITED out."""
    from experiments.play.text import say

    record, mine, Session, spymaster, _ = codenames_game(tmp_path, game, "spymaster", seed=2, lang=lang)
    io = Lines(["zebra two", "?"])
    session = Session(record, spymaster, KeyGuesser(mine), tmp_path / "s.json", io=io, pause=0, role="spymaster")
    assert session.run() == 0
    text = " ".join(io.out.getvalue().split())
    unlimited = say(lang, "unlimited")
    error = next(line for line in io.out.getvalue().splitlines() if "'two'" in line)
    assert unlimited in error, error
    help_start = say(lang, "help_cn_clue")[:12]
    help_text = text[text.index(help_start):]
    assert unlimited in help_text[:300] and session.record.actions == []

def test_a_korean_pictures_spymaster_is_told_the_number_rule_in_korean(tmp_path):   # RULES 2.4, 1.2
    record, mine, Session, spymaster, _ = codenames_game(tmp_path, "pictures", "spymaster", seed=2, lang="ko")
    io = Lines(["동물 10", "동물 -1"])
    session = Session(record, spymaster, KeyGuesser(mine), tmp_path / "s.json", io=io, pause=0, role="spymaster")
    assert session.run() == 0
    text = io.out.getvalue()
    assert "거절 (규칙 1.2): 힌트 숫자는 0~9 또는 무제한입니다 (10 아님)." in text and "(-1 아님)" in text
    assert "4.2" not in text and session.record.actions == []


# ----- Pictures: a word of a card's description names the card ----------------------------------------
def picture_parts(seed=2, lang="en"):
    from engine.codenames.pictures import describe
    from experiments.games.codenames.dealing import deal_record
    from experiments.play.codenames import picture_keywords, picture_label

    record = deal_record(seed, lang, game="pictures", variant="two_player")
    cards = [describe(c) for c in record.words]
    return record, [picture_label(c, lang) for c in cards], [picture_keywords(c, lang) for c in cards]


def test_a_pictures_guess_by_a_word_of_the_description():
    record, labels, keywords = picture_parts()
    words, covered = list(record.words), [False] * len(record.words)

    def guess(text, cov=covered, lang="en"):
        return parse(text, "guess", words, 5, labels, lang, keywords, cov)

    # a word that is in exactly one description: that card
    for i, label in enumerate(labels):
        unique = [w for w in keywords[i] if sum(w in k for k in keywords) == 1 and len(w) > 2]
        if unique:
            cmd = guess(unique[0].upper())
            assert (cmd.kind, cmd.index) == ("guess", i), (unique[0], label)
    # a word of several descriptions: the candidates are listed, with coordinates and descriptions
    shared = next(w for w in set().union(*keywords) if sum(w in k for k in keywords) >= 2 and len(w) > 2)
    holders = [i for i, k in enumerate(keywords) if shared in k]
    cmd = guess(shared)
    assert cmd.kind == "error" and f"fits {len(holders)} cards" in cmd.error
    assert all(f"{coordinate(i)} {labels[i]}" in cmd.error for i in holders)
    # ... unless all but one of them are covered: then it names the uncovered one
    cov = [i in holders[1:] for i in range(len(words))]
    assert guess(shared, cov).index == holders[0]
    # two words narrow it down; the whole description and the coordinate work too
    assert guess(labels[holders[0]]).index == holders[0]
    assert guess("B1").index == 1
    assert guess("zzz").kind == "error"



def test_a_pictures_cards_hidden_id_never_outranks_the_descriptions_on_the_screen():
    """A Pictures card is shown by its description; its catalogue id ('fire', 'horse') never is. A guess
    matched the ids first: 'fire' guessed the card shown as "a flame" (id fire) while "a red fire
    engine" was on the board, 'horse' guessed one of two horses unasked, and 'dino' the card shown as
    "a tyrannosaurus rex" (id dinosaur) rather than "a long-necked sauropod dinosaur". The words typed
    are read on the descriptions (docs/play.md); an id is one more candidate, never a silent choice."""
    from engine.codenames.pictures import card_ids, describe
    from experiments.play.codenames import picture_keywords, picture_label

    pairs = ["fire", "fire_engine", "horse", "carousel", "dinosaur", "sauropod", "shell", "snail"]
    words = pairs + [i for i in card_ids() if i not in pairs][:12]
    cards = [describe(w) for w in words]
    labels = [picture_label(c, "en") for c in cards]
    keywords = [picture_keywords(c, "en") for c in cards]

    def guess(text):
        return parse(text, "guess", words, 5, labels, "en", keywords, [False] * len(words))

    for typed, shown in (("fire", ["a flame", "a red fire engine"]), ("horse", ["a brown horse galloping",
                         "a carousel horse"]), ("shell", ["a spiral seashell", "a snail with a spiral shell"])):
        cmd = guess(typed)
        assert cmd.kind == "error" and "fits 2 cards" in cmd.error and all(d in cmd.error for d in shown), cmd
    assert guess("dino").index == words.index("sauropod")
    assert guess("engine").index == words.index("fire_engine") and guess("flame").index == 0
    assert guess("fire_engine").index == words.index("fire_engine")   # an id no description has: that card

def test_a_korean_pictures_board_shows_korean_names_and_takes_them_as_guesses():
    from engine.codenames.pictures import describe

    record, labels, keywords = picture_parts(lang="ko")
    for card, label in zip(record.words, labels):  # no Korean descriptions in the catalogue: name + English
        c = describe(card)
        assert label == f"{c.tags_ko[0]} ({c.description})"
    i = next(i for i, c in enumerate(record.words) if sum(describe(c).tags_ko[0] in k for k in keywords) == 1)
    cmd = parse(describe(record.words[i]).tags_ko[0], "guess", record.words, 5, labels, "ko", keywords,
                [False] * len(record.words))
    assert cmd.index == i
    cmd = parse("a", "guess", record.words, 5, labels, "ko", keywords, [False] * len(record.words))
    assert cmd.kind == "error" and "맞는 카드가" in cmd.error


def test_a_person_guesses_pictures_by_description_words_and_sees_them_on_the_board(tmp_path):
    from agents.base import ClueDecision, Spymaster
    from agents.registry import make_guesser
    from experiments.play.codenames import CodenamesSession

    record, labels, keywords = picture_parts(seed=5)
    ours = record.key.starts[0].upper()
    mine = [i for i, c in enumerate(record.key.letters) if c == ours]
    # a word only the first agent's description has, and one several cards share
    unique = next(w for w in sorted(keywords[mine[0]]) if sum(w in k for k in keywords) == 1)
    shared = next(w for w in sorted(set().union(*keywords)) if sum(w in k for k in keywords) >= 2 and len(w) > 2)

    class Clue(Spymaster):
        spec = "clue"

        def give_clue(self, obs):
            return ClueDecision("animal", 1, (), 0.0)

    io = Lines([shared, unique])
    session = CodenamesSession(record, Clue(), make_guesser("random", "en"), tmp_path / "p.json", io=io, pause=0,
                               role="guesser")
    session.run()
    text = " ".join(io.out.getvalue().split())
    assert f"'{shared}' fits" in text  # the candidates, then the unique word is taken
    assert session.record.actions[1].word == record.words[mine[0]]
    assert f"You: guess {coordinate(mine[0])} {labels[mine[0]]}: your agent ✓" in text
    board = io.out.getvalue()
    assert all(labels[i][:20] in board for i in range(len(labels)))  # the descriptions on the board


def test_a_korean_pictures_game_asks_helps_and_ends_in_korean(tmp_path):
    from agents.registry import make_guesser, make_spymaster
    from engine.codenames.pictures import describe
    from experiments.play.codenames import CodenamesSession

    record, labels, keywords = picture_parts(seed=5, lang="ko")
    ours = record.key.starts[0].upper()
    first = next(i for i, c in enumerate(record.key.letters) if c == ours
                 and sum(describe(record.words[i]).tags_ko[0] in k for k in keywords) == 1)
    name = describe(record.words[first]).tags_ko[0]
    io = Lines(["도움말", "요원", "?", name])
    session = CodenamesSession(record, make_spymaster("random", "ko"), make_guesser("random", "ko"),
                               tmp_path / "ko.json", io=io, pause=0)
    assert session.run() == 0
    text = io.out.getvalue()
    assert all(hangul(p) for p in io.prompts) and io.prompts[0].startswith("요원(추측)과 스파이마스터(힌트)")
    assert "'요원'(봇이 힌트를 줍니다)" in text and "카드 추측: 설명의 한 단어" in text  # help, in Korean
    assert labels[first] == f"{name} ({describe(record.words[first]).description})"
    assert view_fit_start(labels[first]) in text  # the Korean name on the board
    assert f"나: 추측 {session._card_name(record.words[first])}: 우리 요원 ✓" in " ".join(text.split())
    assert "나: 빨강 팀 요원" in text or "나: 파랑 팀 요원" in text  # the title names the role as played
    assert "나는 요원(추측)을 했고, 봇(random)이 힌트를 주었습니다." in text
    assert "결과: 진행 중(playing)" in text and "게임을 끝내지 않고 나갔습니다 (입력 끝)." in text
    for english in ("Play as", "Your clue", "Clue ", "You:", "Result:", "Game left", "Agents left"):
        assert english not in text, english


def view_fit_start(label: str) -> str:
    from experiments.play.view import fit

    return fit(label, 33).rstrip().rstrip("~")


def test_a_pictures_refusal_names_the_card_as_the_board_shows_it(tmp_path):  # RULES 1.8 on a Pictures board
    from engine.refusals import refusal

    record, mine, Session, spymaster, guesser = codenames_game(tmp_path, "pictures", "spymaster", seed=5)
    io = Lines([])
    session = Session(record, spymaster, guesser, tmp_path / "p.json", io=io, pause=0, role="spymaster")
    session._refuse(refusal("1.8", "not_their_agent", word=repr(mine[0]), team="blue"))   # as the engine raises it
    shown = io.out.getvalue()
    assert repr(mine[0]) not in shown and session._card_name(mine[0]).split()[0] in shown, shown
    record, mine, Session, spymaster, guesser = codenames_game(tmp_path, "pictures", "spymaster", lang="ko", seed=5)
    io = Lines([])
    session = Session(record, spymaster, guesser, tmp_path / "k.json", io=io, pause=0, role="spymaster")
    session._refuse(refusal("1.8", "not_their_agent", word=repr(mine[0]), team="blue"))
    shown = " ".join(io.out.getvalue().split())
    assert repr(mine[0]) not in shown and "요원이 아닙니다" in shown, shown   # still translated (ko)


@pytest.mark.parametrize("game", ["codenames", "pictures"])
def test_a_bot_spymasters_numpy_integer_number_is_played_as_that_number(tmp_path, game):  # RULES 1.2
    """`cnlab simulate` and the web give the engine a bot's clue number as
    experiments.games.moves.clue_number reads it (a numpy integer as the int it is); the terminal
    passed it on raw, so a spymaster answering numpy.int64(1) (a number out of an argmax) was refused
    'a clue number is 0..9 or "unlimited", not 1' (RULES 1.2) and the game stopped as a bot error."""
    record, mine, Session, _, guesser = codenames_game(tmp_path, game, "guesser", seed=3)

    io = Lines([mine[0], "stop", "quit"])
    session = Session(record, NumpySpymaster(mine[0]), guesser, tmp_path / "n.json", io=io, pause=0, role="guesser")
    assert session.run() == 0, io.out.getvalue()[-400:]
    saved = json.loads((tmp_path / "n.json").read_text())
    assert saved["actions"][0] == {"seat": f"{record.key.starts}-spymaster", "clue": "zebra", "number": 1}
    assert saved["actions"][1]["guess"] == mine[0] and "bot error" not in str(saved["play"]["ended"])


def test_a_bot_guesser_that_makes_no_guess_is_a_bot_error_naming_rules_1_4(tmp_path):
    """A bot guesser answering None to the first guess of a turn stops the game as a bot error; the
    terminal's line named no rule ('the bot guesser silent made no guess') where the web's says
    '(RULES 1.4)': the guessers make at least one guess per clue."""
    record, mine, Session, spymaster, _ = codenames_game(tmp_path, "codenames", "spymaster", seed=3)

    class Silent:
        spec = "silent"

        def begin_game(self, seed):
            pass

        def next_guess(self, obs):
            return None

    io = Lines(["zebra 1"])
    session = Session(record, spymaster, Silent(), tmp_path / "s.json", io=io, pause=0, role="spymaster")
    assert session.run() == 1
    ended = json.loads((tmp_path / "s.json").read_text())["play"]["ended"]
    assert ended.startswith("bot error") and "silent made no guess (RULES 1.4)" in ended


@pytest.mark.parametrize("lang,shown,other", [("ko", "암살자!", "ASSASSIN"), ("en", "ASSASSIN!", "암살자")])
def test_the_clue_history_marks_the_assassin_in_the_boards_language(lang, shown, other, tmp_path):
    """The clue history marked a guess on the assassin ' ASSASSIN!' on a Korean board too (Duet's
    history above the prompt, Codenames' and Pictures' history and end screen), where every other
    mark and line is Korean."""
    from engine.duet.observation import Event
    from experiments.play.view import history_lines

    history = [Event("clue", "B", word="우주", number=2), Event("guess", "B", word="양초", result="assassin")]
    line = history_lines(history, lang=lang)[-1].plain
    assert shown in line and other not in line

    record, mine, Session, spymaster, guesser = codenames_game(tmp_path, "codenames", "guesser", lang=lang)
    session = Session(record, spymaster, guesser, tmp_path / "g.json", io=Lines([]), pause=0, role="guesser")
    mark, _ = session._mark("X")
    assert shown in mark and other not in mark


def test_a_korean_board_says_where_the_game_is_saved_in_korean(tmp_path, monkeypatch):
    """`cnlab play --lang ko` opened with 'The game is saved to ko.json' (and, when that file held a
    saved game, 'ko.json holds a saved game; this one is saved to ko-2.json') in English, before a
    screen that is Korean throughout; now in the board's language, the file named as spelled."""
    monkeypatch.chdir(tmp_path)
    args = ["duet", "--lang", "ko", "--partner", "random", "--partner-guesser", "random", "--seed", "3",
            "--pause", "0", "--first", "bot", "--record", "ko.json"]
    for n, korean in ((1, "이 게임은 ko.json에 저장됩니다"), (2, "ko.json에는 저장된 게임이 있어 이 게임은 ko-2.json에 저장됩니다")):
        result = CliRunner().invoke(app(), args, input="")
        assert result.exit_code == 0, result.output
        assert korean in result.output and "saved" not in result.output, result.output


@pytest.mark.parametrize("width", [40, 60, 80])
def test_a_pictures_board_narrower_than_80_columns_shows_every_card(width, tmp_path):
    """The Pictures board is two cards of 39 columns a line, laid out for 80 columns and cut at the
    terminal's edge: at 40 columns the right-hand card of every line (half the board) was not on the
    screen. The descriptions are now cut to the width, so every card is drawn; at 80 as before."""
    from agents.registry import make_guesser
    from experiments.play.codenames import CodenamesSession
    from experiments.play.view import fit

    record, labels, _ = picture_parts(seed=5)
    session = CodenamesSession(record, NumpySpymaster(record.words[0]), make_guesser("random", "en"), tmp_path / "p.json",
                               io=Lines([]), pause=0, role="guesser")
    console = Console(width=width, record=True, color_system=None, file=open(os.devnull, "w"))
    console.print(session._screen())
    lines = console.export_text().splitlines()
    assert all(cell_len(line) <= width for line in lines)
    flat = "\n".join(lines)
    for i, label in enumerate(labels):
        assert coordinate(i) in flat and label[:4] in flat, (width, i)
    if width == 80:   # the descriptions cut to 33 columns, as before
        assert all(fit(label, 33).rstrip() in flat for label in labels)


@pytest.mark.parametrize("game, role, seat", [("duet", None, "A"), ("codenames", None, None),
                                              ("codenames", "guesser", "guesser"), ("pictures", "spymaster", "spymaster")])
def test_a_saved_session_names_the_person_s_seat_and_the_bots(game, role, seat, tmp_path):
    """Both sessions save through TerminalSession.save (they each had a copy differing in the seat):
    the record's `play` names the person's seat (None while a Codenames person has no role yet), the
    bots' specs and how the game ended, and a move saves it."""
    from agents.registry import make_guesser, make_spymaster
    from engine import IllegalAction, Stop
    from experiments.games.codenames.dealing import deal_record
    from experiments.play.codenames import CodenamesSession

    bots = make_spymaster("random", "en"), make_guesser("random", "en")
    if game == "duet":
        session = duet_module.DuetSession(deal_duet_record(4, "en"), *bots, tmp_path / "p.json", io=Lines([]), pause=0)
    else:
        session = CodenamesSession(deal_record(4, "en", game=game), *bots, tmp_path / "p.json", io=Lines([]), pause=0,
                                   role=role)
        seat = seat and f"{session.team}-{seat}"
    session.ended = "test"
    session.save()
    saved = json.loads((tmp_path / "p.json").read_text())
    assert saved["play"] == {"human_seat": seat, "partner": {"spymaster": "random", "guesser": "random"},
                             "ended": "test"}
    assert saved["intents"] == []
    with pytest.raises(IllegalAction):
        session._apply(Stop("nobody"))   # refused by the rules: nothing recorded, nothing saved
    assert record_from_json((tmp_path / "p.json").read_text()).actions == session.record.actions == []
