"""The terminal session machinery shared by the Duet (duet.py) and Codenames / Pictures
(codenames.py) sessions: the person's terminal (`TerminalIO`, with line editing and history through
`readline` when the input is a terminal), reading one valid command at a prompt, the clue referee,
judging a person's clue, notices and refusals in the board's language, and the record file.
"""

from __future__ import annotations

import re
import sys
import time
from typing import Callable

from rich.console import Console
from rich.text import Text

from engine import UNLIMITED, Clue, IllegalAction

from experiments.play import view
from experiments.play.prompts import SAID_BACK, Command, _norm
from experiments.play.text import clue_number, engine_refusal, refusal, say
from experiments.records import write_record

EXIT_INTERRUPTED = 130
_SGR = re.compile(r"(\x1b\[[0-9;]*m)")


class Leave(Exception):
    """The person left: Ctrl-C, end of input or 'quit'."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def enable_line_editing() -> bool:
    """Load `readline`, so that `input()` edits the line (arrow keys, Home/End, Ctrl-A/E/K/U) and
    keeps a history of this session's lines (up/down arrows). False where it is not available
    (e.g. Windows without pyreadline)."""
    try:
        import readline
    except ImportError:
        return False
    readline.set_history_length(500)
    return True


def read_undecodable_bytes_as_replacement() -> None:
    """A line that is not text in the input's encoding (a legacy Korean terminal's EUC-KR bytes, a
    stray byte in a moves file) is read with U+FFFD in place of those bytes, so that it is refused
    like any other bad input; with 'strict' decoding (a UTF-8 locale) it raised UnicodeDecodeError."""
    try:
        if sys.stdin is not None and sys.stdin.errors == "strict":
            sys.stdin.reconfigure(errors="replace")
    except (AttributeError, ValueError, OSError):   # not a text stream that can change (a test's)
        pass


def _stdin_is_tty() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (AttributeError, ValueError, OSError):
        return False


class TerminalIO:
    """The person's terminal: a rich console for output (it wraps long lines at the terminal's
    width), `input()` for lines, sleeps for pauses.

    When both the console and the standard input are a terminal (`line_editing=None`, the default),
    lines are read through `readline`: arrow keys move in the line and recall earlier lines. Piped or
    scripted input (tests, `cnlab play ... < moves.txt`) is read as before, line by line."""

    def __init__(self, console: Console | None = None, clear: bool | None = None,
                 line_editing: bool | None = None):
        self.console = console or view.make_console()
        self.clear_screen = self.console.is_terminal if clear is None else clear
        if line_editing is None:
            line_editing = self.console.is_terminal and _stdin_is_tty()
        self.line_editing = enable_line_editing() if line_editing else False
        read_undecodable_bytes_as_replacement()

    def ask(self, prompt: str) -> str:
        if not self.line_editing:
            return self.console.input(Text(prompt, style="bold yellow"))
        return input(self.readline_prompt(prompt))

    def readline_prompt(self, prompt: str) -> str:
        """The coloured prompt for `input()`: readline is told which bytes take no columns
        (\\001 ... \\002 around each escape code), so editing and wrapping keep their place."""
        with self.console.capture() as capture:
            self.console.print(Text(prompt, style="bold yellow"), end="", soft_wrap=True)
        return _SGR.sub("\x01\\1\x02", capture.get())

    def show(self, *things, **options) -> None:
        """Print lines as they are spelled: a plain string is never read as rich markup or emoji codes
        (a record path such as `[bold]x.json` or `a:smile:b.json`, a partner spec)."""
        options.setdefault("markup", False)
        options.setdefault("emoji", False)
        self.console.print(*things, **options)

    def clear(self) -> None:
        if self.clear_screen:
            self.console.clear()

    def pause(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


def ask_command(io, prompt: str, parse_line: Callable[[str], Command], help_text: Callable[[], object]) -> Command:
    """One valid command for the prompt: help is answered here, errors re-prompt, quit and end of
    input leave."""
    while True:
        try:
            line = io.ask(prompt)
        except EOFError:
            raise Leave("end of input") from None
        cmd = parse_line(line)
        if cmd.kind == "help":
            io.show(help_text())
            continue
        if cmd.kind == "quit":
            raise Leave("quit")
        if cmd.kind == "error":
            io.show(Text(cmd.error, style="red"))
            continue
        return cmd


class ClueReferee:
    """The clue filter (engine.clues, RULES 4) for the person's clues, on the visible words.

    If the filter cannot be loaded (a missing optional package), only the engine's own checks and
    a plain "is it a visible word / does it contain one" test remain, and the person is told once.
    """

    def __init__(self, language: str, notify: Callable[[str], None]):
        self.language = language
        self.notify = notify
        self._check = None
        self._broken: str | None = None

    def _load(self):
        if self._check is None and self._broken is None:
            try:
                from engine.clues import check_clue

                self._check = check_clue
            except Exception as exc:  # ImportError, FilterUnavailable: a missing extra
                self._fallback(exc)
        return self._check

    def _fallback(self, exc: Exception) -> None:
        self._broken = f"{type(exc).__name__}: {exc}"
        self._check = None
        self.notify(say(self.language, "filter_unavailable", why=self._broken))

    def warm(self) -> None:
        """Load the filter and its morphology model now (Korean takes a second or two)."""
        check = self._load()
        if check is not None:
            try:
                check("test", 1, board=["board"], language=self.language)
            except Exception as exc:
                self._fallback(exc)

    def judge(self, word: str, number: int, board: list[str], covered: list[str]) -> tuple[str, str] | None:
        check = self._load()
        if check is not None:
            try:
                verdict = check(word, number, board=board, language=self.language, covered=covered)
                return None if verdict.legal else (verdict.rule, verdict.message)
            except Exception as exc:
                self._fallback(exc)

        # compared as the filter reads words, and as a typed card name is read (prompts._norm): jamo
        # composed, full-width letters plain (4.6)
        w = _norm(word)
        if len(w.split()) > 1:   # said back clipped: a pasted screenful is no clue
            said = word if len(word) <= SAID_BACK else word[:SAID_BACK] + "…"
            return "4.7", say(self.language, "basic_one_word", word=said)
        for b in board:
            if _norm(b) in w or w in _norm(b):
                return "4.3", say(self.language, "basic_visible", word=b)
        return None


class TerminalSession:
    """What both sessions share: `lang`, `notes`, `io`, `record`, `record_path`, `state`,
    `bot_intents`, `spymaster`, `guesser`, `ended` and `human_seat` are theirs."""

    lang = "en"

    def say(self, key: str, /, **fields) -> str:
        return say(self.lang, key, **fields)

    def _notice(self, message: str | Text, style: str = "yellow") -> None:
        text = message if isinstance(message, Text) else Text(message, style=style)
        self.notes.append(text)
        self.io.show(text)

    def _refuse(self, exc: IllegalAction, retype: bool = False) -> None:
        self._notice(engine_refusal(self.lang, exc, retype), "bold red")

    def _explain_resolved(self) -> None:
        """After a bot clue's guessing turn is over: what the bot meant by it (in Codenames' two-player
        variant the one person at the terminal is the bot spymaster's own team, its guesser). A clue
        the game's end resolved is explained whole: the end screen names every target."""
        for line in self.bot_intents.settle(reveal=self.state.is_terminal()):
            self._notice(line)

    def _apply(self, action) -> None:
        """Play `action` (IllegalAction, before any change, when the rules refuse it), then save."""
        self.state.apply(action)
        self.record.actions.append(action)
        self._save_after_move()

    def save(self) -> None:
        """The record with the bots' intents and who played what, written whole to a temporary file
        and renamed over the last one."""
        self.record.extra["intents"] = self.bot_intents.for_record()
        self.record.extra["play"] = {"human_seat": self.human_seat,
                                     "partner": {"spymaster": getattr(self.spymaster, "spec", "?"),
                                                 "guesser": getattr(self.guesser, "spec", "?")},
                                     "ended": self.ended}
        write_record(self.record, self.record_path)

    def _save_after_move(self) -> None:
        """Save the record after a move. When it cannot be written (a full disk, a folder removed or
        made read-only), the person is told why, once until a save works again, and the game goes
        on: the next move and the end try again (an OSError here is no bot's error)."""
        try:
            self.save()
        except OSError as exc:
            if not getattr(self, "_save_failing", False):
                self._notice(self.say("save_failed", path=self.record_path, error=exc.strerror or exc), "bold red")
            self._save_failing = True
        else:
            self._save_failing = False

    def _save_line(self) -> Text:
        """Save the record one last time; the line that says where (or why it could not)."""
        try:
            self.save()
            return Text(self.say("saved", path=self.record_path))
        except OSError as exc:
            return Text(self.say("not_saved", path=self.record_path, error=exc))

    def referee_bot_clue(self, spymaster, word, number, covered: list[str]) -> None:
        """A bot's clue is refereed like a person's (RULES 4), as `cnlab simulate` and the web referee
        theirs: an illegal one is the bot's error (the game stops as a bot error), never played. The
        error names the rule only: the clue would point at the bot's cards. A word or number the engine
        refuses anyway is left to it."""
        if not isinstance(word, str) or isinstance(number, bool) or not (isinstance(number, int) or number == UNLIMITED):
            return
        verdict = self.referee.judge(word, number, self.state.visible_words(), covered)
        if verdict:
            raise RuntimeError(f"the bot spymaster {getattr(spymaster, 'spec', '?')} gave a clue the rules refuse "
                               f"(RULES {verdict[0]})")

    def submit_clue(self, seat: str, word: str, number, covered: list[str]) -> bool:
        """Judge a person's clue (RULES 4) and apply it; on a refusal say the rule and why, and
        return False so the person retypes."""
        verdict = self.referee.judge(word, number, self.state.visible_words(), covered)
        if verdict:
            self._notice(refusal(self.lang, verdict[0], verdict[1], retype=True), "bold red")
            return False
        try:
            self._apply(Clue(seat, word, number))
        except IllegalAction as exc:
            self._refuse(exc)
            return False
        self._notice(self.say("you_clue", word=word.upper(), number=clue_number(self.lang, number)), "cyan")
        return True
