"""A person (seat A) plays a whole Codenames Duet game with a bot (seat B) in a terminal.

The engine (`engine.duet.DuetState`) is the only judge of moves; this module asks the person for
theirs, drives the bot seat through the same observations the self-play loop uses, renders only
the person's own key side, and saves the engine's record (after every action, and on Ctrl-C / end
of input / quit) so that `cnlab replay` reproduces the game.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from rich.console import Console
from rich.text import Text

from engine import Clue, Guess, IllegalAction, Stop
from engine.duet import DuetRecord, other
from engine.duet.state import CLUE, GUESS, SUDDEN_DEATH
from engine.records import record_to_json

from . import view
from .intents import BotIntents
from .prompts import Command, coordinate, parse

HUMAN, BOT = "A", "B"
EXIT_INTERRUPTED = 130


class Leave(Exception):
    """The person left: Ctrl-C, end of input or 'quit'."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def ask_command(io, prompt: str, parse_line: Callable[[str], Command], help_text: Callable[[], object]) -> Command:
    """One valid command for the prompt: help is answered here, errors re-prompt, quit and end of
    input leave. Shared by the Duet and Codenames sessions."""
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


def submit_clue(session, seat: str, word: str, number, covered: list[str]) -> bool:
    """Judge a person's clue (RULES 4) and apply it; on a refusal say the rule and why, and
    return False so the person retypes. Shared by the Duet and Codenames sessions."""
    verdict = session.referee.judge(word, number, session.state.visible_words(), covered)
    if verdict:
        session._notice(f"Refused (RULES {verdict[0]}): {verdict[1]} Type another clue.", "bold red")
        return False
    try:
        session._apply(Clue(seat, word, number))
    except IllegalAction as exc:
        session._notice(f"Refused (RULES {exc.rule}): {exc.message}", "bold red")
        return False
    session._notice(f"You: clue {word.upper()} {number}.", "cyan")
    return True


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
        self.notify(f"The clue filter is unavailable ({self._broken}); only basic clue checks apply.")

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
        w = word.strip().casefold()
        if len(w.split()) > 1:
            return "4.7", f"a clue is one word: {word!r}"
        for b in board:
            if b.casefold() in w or w in b.casefold():
                return "4.3", f"a visible code word, or a word containing one, may not be the clue: {b}"
        return None


class TerminalIO:
    """The person's terminal: a rich console for output, `input()` for lines, sleeps for pauses."""

    def __init__(self, console: Console | None = None, clear: bool | None = None):
        self.console = console or view.make_console()
        self.clear_screen = self.console.is_terminal if clear is None else clear

    def ask(self, prompt: str) -> str:
        return self.console.input(Text(prompt, style="bold yellow"))

    def show(self, *things, **options) -> None:
        self.console.print(*things, **options)

    def clear(self) -> None:
        if self.clear_screen:
            self.console.clear()

    def pause(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


@dataclass
class DuetSession:
    record: DuetRecord
    spymaster: object           # the bot's Spymaster (seat B's clues)
    guesser: object             # the bot's Guesser (seat B's guesses)
    record_path: Path
    io: TerminalIO = field(default_factory=TerminalIO)
    pause: float = 0.8
    first: str | None = None    # "me" or "bot"; asked when None
    partner_label: str = "bot"

    def __post_init__(self) -> None:
        self.state = self.record.new_state()
        self.record.actions = list(self.record.actions)
        # the bot's clues: a target is found when a green agent covers it (the person's guess)
        self.bot_intents = BotIntents(self.record, lambda i: self.state.green_covered[i],
                                      lambda: self.state.phase == GUESS)
        for n, action in enumerate(self.record.actions, 1):  # a record in progress continues where it stopped
            self.state.apply(action)
            self.bot_intents.settle(n)
        self.notes: list[Text] = []
        self.referee = ClueReferee(self.record.config.language or "en", self._notice)
        seed = self.record.seed or 0
        from ..seeds import agent_seed  # the bot is seat B; its seeds reveal nothing of the deal

        self.spymaster.begin_game(agent_seed(seed, "B", "spymaster"))
        self.guesser.begin_game(agent_seed(seed, "B", "guesser"))
        self.ended: str | None = None
        cfg = self.record.config
        mission = f"mission {cfg.mission}" if cfg.mission else "base game"
        self.title = (f"Codenames Duet · seed {self.record.seed} · {cfg.language or 'en'} · {mission}, "
                      f"{cfg.timer_tokens} tokens · you A, bot B ({self.partner_label})")

    # ----- output ------------------------------------------------------------------------------
    def _notice(self, message: str | Text, style: str = "yellow") -> None:
        text = message if isinstance(message, Text) else Text(message, style=style)
        self.notes.append(text)
        self.io.show(text)

    def _explain_resolved(self) -> None:
        """After a bot clue's guessing turn is over: what the bot meant by it."""
        for line in self.bot_intents.settle():
            self._notice(line)

    def _redraw(self) -> None:
        self.io.clear()
        self.io.show(view.duet_screen(self.state.observe(HUMAN), self.title, self.notes))

    # ----- record ------------------------------------------------------------------------------
    def _apply(self, action) -> None:
        self.state.apply(action)
        self.record.actions.append(action)
        self.save()

    def save(self) -> None:
        self.record.extra["intents"] = self.bot_intents.for_record()
        self.record.extra["play"] = {
            "human_seat": HUMAN, "partner": {"spymaster": getattr(self.spymaster, "spec", "?"),
                                              "guesser": getattr(self.guesser, "spec", "?")},
            "ended": self.ended,
        }
        path = Path(self.record_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(record_to_json(self.record) + "\n", encoding="utf-8")
        os.replace(tmp, path)

    # ----- input -------------------------------------------------------------------------------
    def _ask(self, mode: str, prompt: str) -> Command:
        return ask_command(self.io, prompt, lambda line: parse(line, mode, self.state.words),
                           lambda: view.help_text(mode))

    # ----- the game ------------------------------------------------------------------------------
    def run(self) -> int:
        """Play to the end (or until the person leaves); returns the process exit code."""
        code = 0
        try:
            self.io.show(Text("Loading the clue referee…", style="dim"))
            self.referee.warm()
            self._loop()
        except KeyboardInterrupt:
            self.ended = "interrupted"
            code = EXIT_INTERRUPTED
        except Leave as leave:
            self.ended = leave.reason
        except Exception as exc:  # a bot that breaks its contract: keep the game so far
            self.ended, code = f"bot error: {type(exc).__name__}: {exc}", 1
            self.io.show(Text(f"The bot failed: {type(exc).__name__}: {exc}", style="bold red"))
        self._finish()
        return code

    def _loop(self) -> None:
        while not self.state.is_terminal():
            self._explain_resolved()
            phase = self.state.phase
            if phase == CLUE:
                givers = self.state.clue_givers()
                if not self.state.clue_seats and len(givers) == 2:
                    if self.first is None:
                        self._redraw()
                        cmd = self._ask("first", "Who gives the first clue? me/bot (Enter = me, ? = help) > ")
                        self.first = cmd.kind
                    giver = HUMAN if self.first == "me" else BOT
                elif len(givers) == 1:
                    giver = givers[0]
                else:  # relaxed order: either may give the next clue; the other one by default
                    giver = other(self.state.clue_seats[-1])
                self._human_clue() if giver == HUMAN else self._bot_clue()
            elif phase == GUESS:
                self._human_guess() if self.state.guessers() == (HUMAN,) else self._bot_guess()
            elif phase == SUDDEN_DEATH:
                if not self._sudden_death_round():
                    self.ended = "both held back in sudden death"
                    self._notice("Nobody guesses in sudden death: the game ends unfinished.", style="bold magenta")
                    return

    def _human_clue(self) -> None:
        if self.state.side_finished(BOT):
            self._notice("The bot's nine agents are all found: from now on you only give clues (3.8).", "green")
        while True:
            self._redraw()
            cmd = self._ask("clue", "Your clue: WORD NUMBER (? = help) > ")
            if cmd.number is not None and not 0 <= cmd.number <= 9:
                self._notice(f"Refused (RULES 3.4): a Duet clue number is 0..9, not {cmd.number}.", "red")
                continue
            covered = [w for i, w in enumerate(self.state.words) if self.state.covered_for_both(i)]
            if submit_clue(self, HUMAN, cmd.word, cmd.number, covered):
                return

    def _human_guess(self) -> None:
        clue = self.state.current_clue
        while True:
            self._redraw()
            more = " or stop" if self.state.correct_this_turn else ""
            cmd = self._ask("guess", f"Bot's clue {clue[0].upper()} {clue[1]}: guess a word or B3{more} (? = help) > ")
            action = Stop(HUMAN) if cmd.kind == "stop" else Guess(HUMAN, cmd.word)
            try:
                self._apply(action)
            except IllegalAction as exc:
                self._notice(f"Refused (RULES {exc.rule}): {exc.message}", "bold red")
                continue
            self._report(HUMAN, action)
            return

    def _report(self, seat: str, action) -> None:
        who = "You" if seat == HUMAN else "Bot"
        if isinstance(action, Stop):
            self._notice(f"{who}: stop (one token taken).", "cyan")
            return
        result = None
        for e in reversed(self.state.history):
            if e.kind == "guess" and e.word == action.word:
                result = e.result
                break
        where = coordinate(self.state.words.index(action.word))
        text = {"green": "an agent ✓", "bystander": "a bystander ✗ (turn over)", "assassin": "THE ASSASSIN"}[result]
        style = {"green": "green", "bystander": "yellow", "assassin": "bold red"}[result]
        self._notice(f"{who}: guess {action.word} ({where}): {text}", style)

    def _bot_clue(self) -> None:
        self.io.show(Text("Bot is thinking of a clue…", style="dim"))
        decision = self.spymaster.give_clue(self.state.observe(BOT))
        self.io.pause(self.pause)
        self.bot_intents.add(decision)
        self._apply(Clue(BOT, decision.word, decision.number))
        self._notice(f"Bot: clue {decision.word.upper()} {decision.number}.", "bold cyan")

    def _bot_guess(self) -> None:
        word = self.guesser.next_guess(self.state.observe(BOT))
        self.io.pause(self.pause)
        if word is None:
            if self.state.correct_this_turn == 0:
                raise RuntimeError(f"the bot guesser {getattr(self.guesser, 'spec', '?')} gave no guess "
                                   "on a new clue (RULES 3.4)")
            action = Stop(BOT)
        else:
            action = Guess(BOT, word)
        self._apply(action)
        self._report(BOT, action)

    def _sudden_death_round(self) -> bool:
        """One round of sudden death (RULES 3.9); False when nobody would guess."""
        seats = self.state.guessers()
        if HUMAN in seats:
            while True:
                self._redraw()
                cmd = self._ask("sudden", "SUDDEN DEATH: guess a word or B3, or pass (? = help) > ")
                if cmd.kind == "pass":
                    break
                try:
                    self._apply(Guess(HUMAN, cmd.word))
                except IllegalAction as exc:
                    self._notice(f"Refused (RULES {exc.rule}): {exc.message}", "bold red")
                    continue
                self._report(HUMAN, Guess(HUMAN, cmd.word))
                return True
            if BOT not in seats:
                self._notice("You pass, and the bot has nothing left to guess.", "magenta")
                return False
        elif BOT in seats:
            self._notice("You have nothing left to guess; the bot may guess.", "magenta")
        if BOT in seats:
            word = self.guesser.next_guess(self.state.observe(BOT))
            self.io.pause(self.pause)
            if word is None:
                self._notice("Bot holds back.", "magenta")
                return False
            self._apply(Guess(BOT, word))
            self._report(BOT, Guess(BOT, word))
            return True
        return False

    # ----- the end -------------------------------------------------------------------------------
    def result_line(self) -> str:
        o = self.state.outcome()
        score = "-" if o.score is None else o.score
        return (f"Result: {o.phase} · score {score} · agents {self.state.greens_found}/15 · "
                f"tokens left {self.state.tokens_left} · loss {o.loss_reason or '-'}")

    def _finish(self) -> None:
        o = self.state.outcome()
        if self.ended is None:
            self.ended = o.phase
        self._explain_resolved()
        try:
            self.save()
            saved = f"Record saved to {self.record_path}\nReplay it with: cnlab replay {self.record_path}"
        except OSError as exc:
            saved = f"Could not save the record to {self.record_path}: {exc}"
        show = self.io.show
        if self.state.is_terminal() or self.ended.startswith("both held back"):
            self.io.clear()
            show(Text(self.title, style="bold"))
            for line in view.history_lines(self.state.history, limit=5) + self.notes[-2:]:
                show(line)
            if o.phase == "won":
                show(Text(f"You won! All 15 agents found. Score {o.score} (RULES 3.11).", style="bold green"))
            elif o.phase == "lost":
                reason = {"assassin": "an assassin was touched", "sudden_death_miss": "a miss in sudden death",
                          "out_of_tokens": "the supply could not pay a token"}.get(o.loss_reason, o.loss_reason)
                show(Text(f"You lost: {reason}.", style="bold red"))
            else:
                show(Text("The game ends unfinished in sudden death (a loss in benchmarks).", style="bold magenta"))
            for line in self.bot_intents.summary():
                show(line)
            show(view.reveal(self.state.words, self.state.key.a, self.state.key.b, self.state.green_covered))
        else:  # left mid-game: the bot's side stays hidden
            show(Text(""))
            show(Text(f"Game left unfinished ({self.ended}).", style="bold yellow"))
            for line in self.bot_intents.summary():  # only the clues already resolved (and shown)
                show(line)
        show(Text(self.result_line(), style="bold"))
        self.io.show(Text(saved), soft_wrap=True)
