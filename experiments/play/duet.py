"""A person (seat A) plays a whole Codenames Duet game with a bot (seat B) in a terminal.

The engine (`engine.duet.DuetState`) is the only judge of moves; this module asks the person for
theirs, drives the bot seat through the same observations the self-play loop uses, renders only
the person's own key side, and saves the engine's record (after every action, and on Ctrl-C / end
of input / quit) so that `cnlab replay` reproduces the game. The terminal machinery it shares with
the Codenames session is in terminal.py; what it says, in English and Korean, in text.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rich.text import Text

from engine import Clue, Guess, IllegalAction, Stop
from engine.actions import MAX_CLUE_NUMBER
from engine.duet import DuetRecord, other
from engine.duet.state import CLUE, GUESS, SUDDEN_DEATH

from experiments.games.moves import clue_number as played_number
from experiments.play import view
from experiments.play.intents import BotIntents
from experiments.play.prompts import Command, coordinate, parse
from experiments.play.terminal import EXIT_INTERRUPTED, ClueReferee, Leave, TerminalIO, TerminalSession, ask_command
from experiments.play.text import clue_number as shown_number, machine_word, reason

HUMAN, BOT = "A", "B"
__all__ = ["BOT", "EXIT_INTERRUPTED", "HUMAN", "DuetSession", "Leave", "TerminalIO"]


@dataclass
class DuetSession(TerminalSession):
    record: DuetRecord
    spymaster: object           # the bot's Spymaster (seat B's clues)
    guesser: object             # the bot's Guesser (seat B's guesses)
    record_path: Path
    io: TerminalIO = field(default_factory=TerminalIO)
    pause: float = 0.8
    first: str | None = None    # "me" or "bot"; asked when None
    partner_label: str = "bot"

    def __post_init__(self) -> None:
        self.lang = self.record.config.language or "en"
        self.state = self.record.new_state()
        self.record.actions = list(self.record.actions)
        # the bot's clues: a target is found when a green agent covers it (the person's guess)
        self.bot_intents = BotIntents(self.record, lambda i: self.state.green_covered[i],
                                      lambda: self.state.phase == GUESS, lang=self.lang)
        for n, action in enumerate(self.record.actions, 1):  # a record in progress continues where it stopped
            self.state.apply(action)
            self.bot_intents.settle(n)
        self.notes: list[Text] = []
        self.referee = ClueReferee(self.lang, self._notice)
        seed = self.record.seed or 0
        from experiments.runs.seeds import agent_seed  # the bot is seat B; its seeds reveal nothing of the deal

        self.spymaster.begin_game(agent_seed(seed, "B", "spymaster"))
        self.guesser.begin_game(agent_seed(seed, "B", "guesser"))
        self.ended: str | None = None
        cfg = self.record.config
        mission = self.say("mission", name=cfg.mission) if cfg.mission else self.say("base_game")
        self.title = self.say("duet_title", seed=self.record.seed, language=self.lang, mission=mission,
                              tokens=cfg.timer_tokens, partner=self.partner_label)

    # ----- output ------------------------------------------------------------------------------
    def _redraw(self) -> None:
        self.io.clear()
        self.io.show(view.duet_screen(self.state.observe(HUMAN), self.title, self.notes, lang=self.lang))

    # ----- record ------------------------------------------------------------------------------
    @property
    def human_seat(self) -> str:
        return HUMAN

    # ----- input -------------------------------------------------------------------------------
    def _ask(self, mode: str, prompt: str) -> Command:
        return ask_command(self.io, prompt, lambda line: parse(line, mode, self.state.words, lang=self.lang),
                           lambda: view.help_text(mode, self.lang))

    # ----- the game ------------------------------------------------------------------------------
    def run(self) -> int:
        """Play to the end (or until the person leaves); returns the process exit code."""
        code = 0
        try:
            self.io.show(Text(self.say("loading_referee"), style="dim"))
            self.referee.warm()
            self._loop()
        except KeyboardInterrupt:
            self.ended = "interrupted"
            code = EXIT_INTERRUPTED
        except Leave as leave:
            self.ended = leave.reason
        except (Exception, SystemExit) as exc:  # a bot that breaks its contract (sys.exit too): keep the game so far
            self.ended, code = f"bot error: {type(exc).__name__}: {exc}", 1
            self.io.show(Text(self.say("bot_failed", error=f"{type(exc).__name__}: {exc}"), style="bold red"))
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
                        cmd = self._ask("first", self.say("ask_first"))
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
                    self._notice(self.say("sudden_nobody"), style="bold magenta")
                    return

    def _human_clue(self) -> None:
        if self.state.side_finished(BOT):
            self._notice(self.say("bot_side_done"), "green")
        while True:
            self._redraw()
            cmd = self._ask("clue", self.say("ask_clue"))
            if cmd.number is not None and not (isinstance(cmd.number, int) and 0 <= cmd.number <= MAX_CLUE_NUMBER):
                number = shown_number(self.lang, cmd.number)   # UNLIMITED in the board's language (무제한)
                self._notice(self.say("refused", rule="3.4", message=self.say("duet_number", number=number)), "red")
                continue
            covered = [w for i, w in enumerate(self.state.words) if self.state.covered_for_both(i)]
            if self.submit_clue(HUMAN, cmd.word, cmd.number, covered):
                return

    def _human_guess(self) -> None:
        clue = self.state.current_clue
        while True:
            self._redraw()
            more = self.say("or_stop") if self.state.correct_this_turn else ""
            cmd = self._ask("guess", self.say("ask_guess", word=clue[0].upper(), number=clue[1], more=more))
            action = Stop(HUMAN) if cmd.kind == "stop" else Guess(HUMAN, cmd.word)
            try:
                self._apply(action)
            except IllegalAction as exc:
                self._refuse(exc)
                continue
            self._report(HUMAN, action)
            return

    def _report(self, seat: str, action) -> None:
        who = self.say("you" if seat == HUMAN else "bot")
        if isinstance(action, Stop):
            self._notice(self.say("stop_token", who=who), "cyan")
            return
        result = None
        for e in reversed(self.state.history):
            if e.kind == "guess" and e.word == action.word:
                result = e.result
                break
        where = coordinate(self.state.words.index(action.word))
        if result == "bystander" and self.state.is_terminal():   # a miss in sudden death (3.9), or unpaid (3.10)
            result_key = "res_bystander_lost"
        else:
            result_key = {"green": "res_green", "bystander": "res_bystander", "assassin": "res_assassin"}[result]
        text = self.say(result_key)
        style = {"green": "green", "bystander": "yellow", "assassin": "bold red"}[result]
        self._notice(self.say("guess_report", who=who, word=action.word, where=where, result=text), style)

    def _bot_clue(self) -> None:
        self.io.show(Text(self.say("bot_thinking"), style="dim"))
        decision = self.spymaster.give_clue(self.state.observe(BOT))
        self.io.pause(self.pause)
        self.bot_intents.add(decision)
        number = played_number(decision.number)   # as simulate and the web give it (numpy integers as int)
        self.referee_bot_clue(self.spymaster, decision.word, number,
                              [w for i, w in enumerate(self.state.words) if self.state.covered_for_both(i)])
        self._apply(Clue(BOT, decision.word, number))
        self._notice(self.say("bot_clue", word=decision.word.upper(), number=number), "bold cyan")

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
                cmd = self._ask("sudden", self.say("ask_sudden"))
                if cmd.kind == "pass":
                    break
                # a stop or a clue goes to the engine too, which refuses it citing RULES 3.9
                action = (Stop(HUMAN) if cmd.kind == "stop" else Clue(HUMAN, cmd.word, cmd.number)
                          if cmd.kind == "clue" else Guess(HUMAN, cmd.word))
                try:
                    self._apply(action)
                except IllegalAction as exc:
                    self._refuse(exc)
                    continue
                self._report(HUMAN, action)
                return True
            if BOT not in seats:
                self._notice(self.say("you_pass_bot_done"), "magenta")
                return False
        elif BOT in seats:
            self._notice(self.say("you_done_bot_may"), "magenta")
        if BOT in seats:
            word = self.guesser.next_guess(self.state.observe(BOT))
            self.io.pause(self.pause)
            if word is None:
                self._notice(self.say("bot_holds"), "magenta")
                return False
            self._apply(Guess(BOT, word))
            self._report(BOT, Guess(BOT, word))
            return True
        return False

    # ----- the end -------------------------------------------------------------------------------
    def result_line(self) -> str:
        o = self.state.outcome()
        score = "-" if o.score is None else o.score
        return self.say("duet_result", phase=machine_word(self.lang, o.phase), score=score,
                        found=self.state.greens_found, tokens=self.state.tokens_left,
                        loss=machine_word(self.lang, o.loss_reason))

    def _finish(self) -> None:
        o = self.state.outcome()
        if self.ended is None:
            self.ended = o.phase
        self._explain_resolved()
        saved = self._save_line()
        show = self.io.show
        if self.state.is_terminal() or self.ended.startswith("both held back"):
            self.io.clear()
            show(Text(self.title, style="bold"))
            for line in view.history_lines(self.state.history, limit=5, lang=self.lang) + self.notes[-2:]:
                show(line)
            if o.phase == "won":
                won = self.say("duet_won", score=o.score) if o.score is not None else self.say("duet_won_unscored")
                show(Text(won, style="bold green"))
            elif o.phase == "lost":
                show(Text(self.say("duet_lost", reason=reason(self.lang, o.loss_reason)), style="bold red"))
            else:
                show(Text(self.say("duet_unfinished"), style="bold magenta"))
            for line in self.bot_intents.summary(reveal=True):   # the keys are shown below too
                show(line)
            show(view.reveal(self.state.words, self.state.key.a, self.state.key.b, self.state.green_covered,
                             lang=self.lang))
        else:  # left mid-game: the bot's side stays hidden
            show(Text(""))
            show(Text(self.say("left", why=reason(self.lang, self.ended)), style="bold yellow"))
            for line in self.bot_intents.summary(reveal=False, left=True):  # only what was shown already
                show(line)
        show(Text(self.result_line(), style="bold"))
        show(saved, soft_wrap=True)
