"""A person plays Codenames in the two-player variant (RULES 1.8) with a bot, or Codenames Pictures
(RULES 2) with every picture described in words: the person is the team's guesser (a bot
spymaster gives the clues) or its spymaster (a bot guesser guesses). After each turn the team's
spymaster covers one agent of the virtual opponent; a bot spymaster picks it at random.
"""

from __future__ import annotations

import numpy as np
from rich.console import Group
from rich.text import Text

from engine import Clue, Cover, Guess, IllegalAction, Stop
from engine.codenames.key import TEAM_LETTER
from engine.codenames.state import GUESS

from . import view
from .duet import EXIT_INTERRUPTED, ClueReferee, Leave, TerminalIO, ask_command, submit_clue
from .intents import BotIntents
from .prompts import COLUMNS, coordinate, parse

LETTER_STYLE = {"R": "bold white on red3", "B": "bold white on blue3", "N": "black on wheat1",
                "X": "bold white on grey15"}
RESULT = {"N": "bystander", "X": "THE ASSASSIN"}


class CodenamesSession:
    def __init__(self, record, spymaster, guesser, record_path, io: TerminalIO | None = None, pause: float = 0.8,
                 role: str | None = None, partner_label: str = "bot"):
        self.record = record
        self.state = record.new_state()
        self.labels = None
        if record.config.game == "pictures":
            from engine.codenames.pictures import describe

            self.labels = [describe(c).description for c in record.words]
        # the bot spymaster's clues: a target (an agent of the team) is found when it is revealed
        self.bot_intents = BotIntents(record, lambda i: self.state.revealed[i], lambda: self.state.phase == GUESS,
                                      self._card_name)
        for n, action in enumerate(record.actions, 1):
            self.state.apply(action)
            self.bot_intents.settle(n)
        self.spymaster, self.guesser = spymaster, guesser
        self.record_path = record_path
        self.io = io or TerminalIO()
        self.pause = pause
        self.role = role
        self.partner_label = partner_label
        self.notes: list[Text] = []
        self.ended: str | None = None
        self.game = record.config.game
        self.language = record.config.language or "en"
        self.referee = ClueReferee(self.language, self._notice)
        self.team = self.state.ours
        self.seat = {"spymaster": f"{self.team}-spymaster", "guesser": f"{self.team}-guesser"}
        seed = record.seed or 0
        from ..seeds import agent_seed  # the bots' seeds reveal nothing of the deal

        spymaster.begin_game(agent_seed(seed, self.seat["spymaster"]))
        guesser.begin_game(agent_seed(seed, self.seat["guesser"]))
        self.rng = np.random.default_rng([seed, 0, 2])  # the bot spymaster's covers
        self.rows, self.columns = record.config.grid
        name = "Codenames Pictures" if self.game == "pictures" else "Codenames"
        self.title = f"{name} two-player · seed {record.seed} · {self.language} · you: {self.team} "

    # ----- output and record ------------------------------------------------------------------
    def _notice(self, message: str | Text, style: str = "yellow") -> None:
        text = message if isinstance(message, Text) else Text(message, style=style)
        self.notes.append(text)
        self.io.show(text)

    def _card_name(self, word: str) -> str:
        if self.labels is None:
            return word
        i = self.record.words.index(word)
        return f"{coordinate(i, self.record.config.grid[1])} {view.fit(self.labels[i], 18).rstrip()}"

    def _explain_resolved(self) -> None:
        """After a bot clue's guessing turn is over: what the bot meant by it. In the two-player
        variant the one person at the terminal is the bot spymaster's own team (its guesser)."""
        for line in self.bot_intents.settle():
            self._notice(line)

    def _cell(self, i: int) -> tuple[str, str]:
        revealed = self.state.revealed[i]
        letter = self.state.key.letters[i]
        if revealed:
            return "grey50 on grey23", letter.lower()
        if self.role == "spymaster":
            return LETTER_STYLE[letter], letter
        return "bold", " "

    def _board(self) -> list[Text]:
        if self.game == "codenames":
            cells = [(self._cell(i)[0], self._cell(i)[1], "") for i in range(len(self.state.words))]
            return view.board_lines(self.state.words, cells, self.columns)
        lines = []  # pictures: the cards described in words, two columns of 39
        half = (len(self.state.words) + 1) // 2
        for r in range(half):
            line = Text()
            for i in (r, r + half):
                if i >= len(self.state.words):
                    continue
                style, mark = self._cell(i)
                line.append(" " if i >= half else "")
                line.append(f"{coordinate(i, self.columns)} {mark} {view.fit(self.labels[i], 33)}", style=style)
            lines.append(line)
        return lines

    def _redraw(self) -> None:
        s = self.state
        status = Text(f"Agents left: yours ({self.team}) {s.agents_left(self.team)}, "
                      f"opponent {s.agents_left(other(self.team))} · turns {s.turns_used}")
        legend = Text(f"Rows 1-{self.rows}, columns A-{COLUMNS[self.columns - 1]} · "
                      + ("R red  B blue  N bystander  X assassin  (lower case: covered)" if self.role == "spymaster"
                         else "covered cards show their letter in lower case"), style="dim")
        lines = [Text(self.title + f"({self.role}) · bot: {self.partner_label}", style="bold"), status,
                 *self._board(), legend, *self._history(), *self.notes[-3:]]
        for line in lines:
            line.truncate(80, overflow="ellipsis")
        self.io.clear()
        self.io.show(Group(*lines))

    def _history(self) -> list[Text]:
        out: list[Text] = []
        for e in self.state.history:
            if e.kind == "clue":
                out.append(Text(f"{'You' if self.role == 'spymaster' else 'Bot'}: {str(e.word).upper()} {e.number} →",
                                style="cyan"))
            elif e.kind == "guess" and out:
                out[-1].append(f" {e.word}({e.result})")
            elif e.kind == "cover" and out:
                out[-1].append(f" [cover {e.word}]", style="dim")
        return out[-4:]

    def save(self) -> None:
        import os
        from pathlib import Path

        from engine.records import record_to_json

        self.record.extra["intents"] = self.bot_intents.for_record()
        self.record.extra["play"] = {"human_seat": self.seat[self.role] if self.role else None,
                                     "partner": {"spymaster": getattr(self.spymaster, "spec", "?"),
                                                 "guesser": getattr(self.guesser, "spec", "?")},
                                     "ended": self.ended}
        path = Path(self.record_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(record_to_json(self.record) + "\n", encoding="utf-8")
        os.replace(tmp, path)

    def _apply(self, action) -> None:
        self.state.apply(action)
        self.record.actions.append(action)
        self.save()

    def _ask(self, mode: str, prompt: str):
        return ask_command(self.io, prompt,
                           lambda line: parse(line, mode, self.state.words, self.columns, self.labels),
                           lambda: self._help(mode))

    def _help(self, mode: str) -> Text:
        text = {
            "role": "Type 'guesser' (the bot gives clues) or 'spymaster' (you give clues, the bot guesses).",
            "clue": "Give a clue: WORD NUMBER, e.g. 'ocean 2' (0..9). Your guesser may guess NUMBER+1 cards.",
            "guess": "Guess a card by word, the start of it, or coordinate (B3). 'stop' ends the turn "
                     "after one guess. Your agents let you go on; anything else ends the turn or the game.",
            "cover": "Cover one agent of the virtual opponent (RULES 1.8): its word or coordinate.",
        }[mode]
        return Text(text + f"\nCoordinates: column letter + row number (A-{COLUMNS[self.columns - 1]}, "
                    f"1-{self.rows}). 'quit' or Ctrl-C saves the record and leaves.", style="cyan")

    # ----- the game --------------------------------------------------------------------------------
    def run(self) -> int:
        code = 0
        try:
            if self.role is None:
                self._redraw()
                self.role = "guesser" if self._ask("role", "Play as guesser or spymaster? (Enter = guesser, "
                                                           "? = help) >").word == "guesser" else "spymaster"
            self.io.show(Text("Loading the clue referee…", style="dim"))
            self.referee.warm()
            self._loop()
        except KeyboardInterrupt:
            self.ended, code = "interrupted", EXIT_INTERRUPTED
        except Leave as leave:
            self.ended = leave.reason
        except Exception as exc:  # a bot that breaks its contract: keep the game so far
            self.ended, code = f"bot error: {type(exc).__name__}: {exc}", 1
            self.io.show(Text(f"The bot failed: {type(exc).__name__}: {exc}", style="bold red"))
        self._finish()
        return code

    def _loop(self) -> None:
        human = self.seat[self.role]
        while not self.state.is_terminal():
            self._explain_resolved()
            (actor,) = self.state.to_act()
            phase = self.state.phase
            if actor != human:
                self._bot(actor, phase)
            elif phase == "clue":
                self._human_clue(actor)
            elif phase == "cover":
                self._human_cover(actor)
            else:
                self._human_guess(actor)

    def _human_clue(self, seat: str) -> None:
        while True:
            self._redraw()
            cmd = self._ask("clue", "Your clue: WORD NUMBER (? = help) >")
            if submit_clue(self, seat, cmd.word, cmd.number, self.state.covered_words()):
                return

    def _human_guess(self, seat: str) -> None:
        while True:
            self._redraw()
            word, number = self.state.current_clue
            left = self.state.guesses_left()
            more = f"{left} guesses left" if left is not None else "no limit"
            cmd = self._ask("guess", f"Clue {str(word).upper()} {number} ({more}): guess or stop (? = help) >")
            action = Stop(seat) if cmd.kind == "stop" else Guess(seat, cmd.word)
            try:
                self._apply(action)
            except IllegalAction as exc:
                self._notice(f"Refused (RULES {exc.rule}): {exc.message}", "bold red")
                continue
            self._report("You", action)
            return

    def _human_cover(self, seat: str) -> None:
        while True:
            self._redraw()
            cmd = self._ask("cover", f"Cover an agent of the opponent ({other(self.team)}) (? = help) >")
            try:
                self._apply(Cover(seat, cmd.word))
            except IllegalAction as exc:
                self._notice(f"Refused (RULES {exc.rule}): {exc.message}", "bold red")
                continue
            self._notice(f"You cover {cmd.word} ({coordinate(cmd.index, self.columns)}).", "dim")
            return

    def _bot(self, seat: str, phase: str) -> None:
        obs = self.state.observe(seat)
        if phase == "clue":
            decision = self.spymaster.give_clue(obs)
            self.io.pause(self.pause)
            self.bot_intents.add(decision)
            self._apply(Clue(seat, decision.word, decision.number))
            self._notice(f"Bot: clue {decision.word.upper()} {decision.number}.", "bold cyan")
        elif phase == "cover":
            covers = self.state.legal_actions()
            action = covers[int(self.rng.integers(len(covers)))]
            self._apply(action)
            self._notice(f"Bot covers an opponent agent: {action.word}.", "dim")
        else:
            word = self.guesser.next_guess(obs)
            self.io.pause(self.pause)
            if word is None and self.state.guesses_this_turn == 0:
                raise RuntimeError(f"the bot guesser {getattr(self.guesser, 'spec', '?')} made no guess")
            action = Stop(seat) if word is None else Guess(seat, word)
            self._apply(action)
            self._report("Bot", action)

    def _report(self, who: str, action) -> None:
        if isinstance(action, Stop):
            self._notice(f"{who}: stop.", "cyan")
            return
        letter = self.state.key.letters[self.state.words.index(action.word)]
        what = "your agent ✓" if letter == TEAM_LETTER[self.team] else RESULT.get(letter, "an opponent agent ✗")
        self._notice(f"{who}: guess {action.word}: {what}", "green" if "✓" in what else "yellow")

    def result_line(self) -> str:
        o = self.state.outcome()
        return (f"Result: {o.status} · winner {o.winner or '-'} · score {'-' if o.score is None else o.score} · "
                f"turns {o.turns_used} · loss {o.loss_reason or '-'}")

    def _finish(self) -> None:
        o = self.state.outcome()
        self.ended = self.ended or o.status
        self._explain_resolved()
        try:
            self.save()
            saved = f"Record saved to {self.record_path}\nReplay it with: cnlab replay {self.record_path}"
        except OSError as exc:
            saved = f"Could not save the record to {self.record_path}: {exc}"
        if self.state.is_terminal():
            self.role = "spymaster"  # reveal the key
            self._redraw()
            if o.winner == self.team:
                from engine.codenames.labels import two_player_label

                label = two_player_label(o.score) or {}
                self.io.show(Text(f"You won! Score {o.score} (opponent agents left). {label.get('en', '')}",
                                  style="bold green"))
            else:
                self.io.show(Text(f"You lost ({o.loss_reason}).", style="bold red"))
        else:
            self.io.show(Text(f"Game left unfinished ({self.ended}).", style="bold yellow"))
        for line in self.bot_intents.summary():  # left mid-game: only the clues already resolved
            self.io.show(line)
        self.io.show(Text(self.result_line(), style="bold"))
        self.io.show(Text(saved), soft_wrap=True)


def other(team: str) -> str:
    return "blue" if team == "red" else "red"


def play_codenames(game, seed, lang, partner, guesser_spec, path, pause, role) -> int:
    from experiments.dealing_codenames import deal_record

    from .command import _fail, load_partner, start_record

    try:
        record = deal_record(seed, lang, game=game, variant="two_player")
    except (KeyError, ValueError) as exc:
        _fail(str(exc))
    io = TerminalIO()
    spymaster, guesser, label = load_partner(io, partner, guesser_spec, lang)
    path = start_record(io, record, path)
    return CodenamesSession(record, spymaster, guesser, path, io=io, pause=pause, role=role,
                            partner_label=label).run()
