"""A person plays Codenames in the two-player variant (RULES 1.8) with a bot, or Codenames Pictures
(RULES 2) with every picture described in words: the person is the team's guesser (a bot
spymaster gives the clues) or its spymaster (a bot guesser guesses). After each turn the team's
spymaster covers one agent of the virtual opponent; a bot spymaster picks it at random.

Pictures: the board shows each card's written description (data/pictures/cards.json; the catalogue
has English descriptions only, so a Korean board shows the card's Korean name, its first Korean
tag, before the English description), and a guess or a cover may be a word of the description.
"""

from __future__ import annotations

import numpy as np
from rich.text import Text

from engine import Clue, Cover, Guess, IllegalAction, Stop
from engine.actions import MAX_CLUE_NUMBER, UNLIMITED
from engine.codenames.key import TEAM_LETTER
from engine.codenames.state import GUESS

from experiments.games.moves import clue_number as played_number
from experiments.play import view
from experiments.play.intents import BotIntents
from experiments.play.prompts import COLUMNS, coordinate, parse, words_of
from experiments.play.terminal import EXIT_INTERRUPTED, ClueReferee, Leave, TerminalIO, TerminalSession, ask_command
from experiments.play.text import clue_number, engine_refusal, machine_word, reason

LETTER_STYLE = {"R": "bold white on red3", "B": "bold white on blue3", "N": "black on wheat1",
                "X": "bold white on grey15"}


def picture_label(card, lang: str) -> str:
    """How the screen names a picture card: its description (Korean boards: the Korean name first)."""
    if lang == "ko" and card.tags_ko:
        return f"{card.tags_ko[0]} ({card.description})"
    return card.description


def picture_short_label(card, lang: str) -> str:
    """A picture card in the clue history: its Korean name, or its description without the article."""
    if lang == "ko" and card.tags_ko:
        return card.tags_ko[0]
    words = card.description.split()
    return " ".join(words[1:] if len(words) > 1 and words[0].casefold() in ("a", "an", "the") else words)


def picture_keywords(card, lang: str) -> set[str]:
    """The words a guess may use for a picture card: those of its description (and Korean name)."""
    words = words_of(card.description)
    if lang == "ko" and card.tags_ko:
        words |= words_of(card.tags_ko[0])
    return words


class CodenamesSession(TerminalSession):
    def __init__(self, record, spymaster, guesser, record_path, io: TerminalIO | None = None, pause: float = 0.8,
                 role: str | None = None, partner_label: str = "bot"):
        self.record = record
        self.state = record.new_state()
        self.game = record.config.game
        self.lang = record.config.language or "en"
        self.rows, self.columns = record.config.grid
        self.labels = self.keywords = None
        if self.game == "pictures":
            from engine.codenames.pictures import describe

            cards = [describe(c) for c in record.words]
            self.labels = [picture_label(c, self.lang) for c in cards]
            self.short_labels = [picture_short_label(c, self.lang) for c in cards]
            self.keywords = [picture_keywords(c, self.lang) for c in cards]
        # the bot spymaster's clues: a target (an agent of the team) is found when it is revealed
        self.bot_intents = BotIntents(record, lambda i: self.state.revealed[i], lambda: self.state.phase == GUESS,
                                      self._card_name, lang=self.lang)
        for n, action in enumerate(record.actions, 1):
            self.state.apply(action)
            self.bot_intents.settle(n)
        self.spymaster, self.guesser = spymaster, guesser
        self.record_path = record_path
        self.io = io or TerminalIO()
        self.pause = pause
        self.role = role
        self.reveal = False  # the key is shown to a guesser only once the game is over
        self.partner_label = partner_label
        self.notes: list[Text] = []
        self.ended: str | None = None
        self.referee = ClueReferee(self.lang, self._notice)
        self.team = self.state.ours
        self.seat = {"spymaster": f"{self.team}-spymaster", "guesser": f"{self.team}-guesser"}
        seed = record.seed or 0
        from experiments.runs.seeds import agent_seed  # the bots' seeds reveal nothing of the deal

        spymaster.begin_game(agent_seed(seed, self.seat["spymaster"]))
        guesser.begin_game(agent_seed(seed, self.seat["guesser"]))
        self.rng = np.random.default_rng([seed, 0, 2])  # the bot spymaster's covers

    # ----- names ------------------------------------------------------------------------------
    def _team(self, team: str | None) -> str:
        return self.say(f"team_{team}") if team in ("red", "blue") else "-"

    @property
    def title(self) -> str:
        name = self.say("pic_name" if self.game == "pictures" else "cn_name")
        role = self.say(f"role_{self.role}") if self.role else "?"
        return self.say("cn_title", name=name, seed=self.record.seed, language=self.lang,
                        team=self._team(self.team), role=role, partner=self.partner_label)

    def _card_name(self, word: str) -> str:
        """A card in a message: the word (Pictures: the coordinate and the whole description)."""
        if self.labels is None:
            return word
        i = self.record.words.index(word)
        return f"{coordinate(i, self.columns)} {self.labels[i]}"

    def _refuse(self, exc: IllegalAction, retype: bool = False) -> None:
        """The engine names a card by its record word; on a Pictures board that is an id the screen
        never shows (`'unicorn'`), so the refusal names it as the board does."""
        if self.labels is None:
            return super()._refuse(exc, retype)
        text = engine_refusal(self.lang, exc, retype)   # translated first: it reads the quoted id
        for word in self.record.words:
            text = text.replace(repr(word), self._card_name(word))
        self._notice(text, "bold red")

    def _short_name(self, word: str) -> str:
        """A card in the clue history: the word (Pictures: the coordinate and the description's start)."""
        if self.labels is None:
            return word
        i = self.record.words.index(word)
        return f"{coordinate(i, self.columns)} {view.fit(self.short_labels[i], 14).rstrip()}"

    def _who(self, seat: str) -> str:
        return self.say("you" if self.role and seat == self.seat[self.role] else "bot")

    def _mark(self, letter: str) -> tuple[str, str]:
        if letter == TEAM_LETTER[self.team]:
            return "✓", "green"
        if letter == "X":
            return self.say("mark_assassin"), "bold red"
        return "✗", "yellow"

    # ----- output and record ------------------------------------------------------------------
    def _cell(self, i: int) -> tuple[str, str]:
        revealed = self.state.revealed[i]
        letter = self.state.key.letters[i]
        if revealed:
            return "grey50 on grey23", letter.lower()
        if self.reveal or self.role == "spymaster":
            return LETTER_STYLE[letter], letter
        return "bold", " "

    def _board(self) -> list[Text]:
        if self.game == "codenames":
            cells = [(self._cell(i)[0], self._cell(i)[1], "") for i in range(len(self.state.words))]
            return view.board_lines(self.state.words, cells, self.columns)
        # pictures: the cards described in words, two columns of cards
        cells = [self._cell(i) for i in range(len(self.state.words))]
        return [view.PictureBoard([(style, coordinate(i, self.columns), mark, self.labels[i])
                                   for i, (style, mark) in enumerate(cells)])]

    def _screen(self):
        s = self.state
        status = Text(self.say("cn_status", team=self._team(self.team), ours=s.agents_left(self.team),
                               theirs=s.agents_left(other(self.team)), turns=s.turns_used))
        key = self.reveal or self.role == "spymaster"
        legend = Text(self.say("cn_legend_key") if key else  # the board's header names the columns
                      self.say("cn_legend_rows", rows=self.rows, last=COLUMNS[self.columns - 1])
                      + self.say("cn_legend_plain"), style="dim")
        fixed = [Text(self.title, style="bold"), status, *self._board(), legend]
        return view.screen(fixed, self._history()[-4:], self.notes, max_notes=3)

    def _redraw(self) -> None:
        self.io.clear()
        self.io.show(self._screen())

    def _history(self) -> list[Text]:
        """One line per clue: who gave it, and the guesses and the cover that followed."""
        out: list[Text] = []
        for e in self.state.history:
            if e.kind == "clue":
                line = Text(f"{self._who(e.seat)}: ", style="bold")
                line.append(f"{str(e.word).upper()} {clue_number(self.lang, e.number)}", style="bold cyan")
                line.append(" →")
                out.append(line)
            elif e.kind == "guess" and out:
                mark, style = self._mark(e.result)
                out[-1].append(f" {self._short_name(e.word)}{mark}", style=style)
            elif e.kind == "stop" and out:
                out[-1].append(self.say("hist_stop"), style="dim")
            elif e.kind == "cover" and out:
                out[-1].append(self.say("hist_cover", card=self._short_name(e.word)), style="dim")
        return out

    @property
    def human_seat(self) -> str | None:
        return self.seat[self.role] if self.role else None   # None until the person has picked a role

    def _ask(self, mode: str, prompt: str):
        return ask_command(self.io, prompt,
                           lambda line: parse(line, mode, self.state.words, self.columns, self.labels, self.lang,
                                              self.keywords, self.state.revealed, unlimited=True),
                           lambda: self._help(mode))

    def _help(self, mode: str) -> Text:
        pictures = self.game == "pictures" and mode in ("guess", "cover")
        key = {"role": "help_role", "clue": "help_cn_clue", "guess": "help_cn_guess",
               "cover": "help_cover"}[mode]
        if pictures:
            key = {"guess": "help_pic_guess", "cover": "help_pic_cover"}[mode]
        return Text(self.say(key) + "\n" + self.say("help_cn_common", last=COLUMNS[self.columns - 1],
                                                      rows=self.rows), style="cyan")

    # ----- the game --------------------------------------------------------------------------------
    def run(self) -> int:
        code = 0
        try:
            if self.role is None:
                self._redraw()
                self.role = "guesser" if self._ask("role", self.say("ask_role")).word == "guesser" else "spymaster"
            self.io.show(Text(self.say("loading_referee"), style="dim"))
            self.referee.warm()
            self._loop()
        except KeyboardInterrupt:
            self.ended, code = "interrupted", EXIT_INTERRUPTED
        except Leave as leave:
            self.ended = leave.reason
        except (Exception, SystemExit) as exc:  # a bot that breaks its contract (sys.exit too): keep the game so far
            self.ended, code = f"bot error: {type(exc).__name__}: {exc}", 1
            self.io.show(Text(self.say("bot_failed", error=f"{type(exc).__name__}: {exc}"), style="bold red"))
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
            cmd = self._ask("clue", self.say("cn_ask_clue"))
            if not (cmd.number == UNLIMITED or isinstance(cmd.number, int) and 0 <= cmd.number <= MAX_CLUE_NUMBER):
                # RULES 1.2 (Pictures 2.4): the number's range, before the filter (its 4.2 is another rule)
                self._notice(self.say("refused", rule="1.2", message=self.say("cn_number", number=cmd.number)), "red")
                continue
            if self.submit_clue(seat, cmd.word, cmd.number, self.state.covered_words()):
                return

    def _human_guess(self, seat: str) -> None:
        while True:
            self._redraw()
            word, number = self.state.current_clue
            left = self.state.guesses_left()
            more = self.say("guesses_left", left=left) if left is not None else self.say("no_limit")
            cmd = self._ask("guess", self.say("cn_ask_guess", word=str(word).upper(), number=clue_number(self.lang, number),
                                            more=more))
            action = Stop(seat) if cmd.kind == "stop" else Guess(seat, cmd.word)
            try:
                self._apply(action)
            except IllegalAction as exc:
                self._refuse(exc)
                continue
            self._report(seat, action)
            return

    def _human_cover(self, seat: str) -> None:
        while True:
            self._redraw()
            cmd = self._ask("cover", self.say("ask_cover", team=self._team(other(self.team))))
            try:
                self._apply(Cover(seat, cmd.word))
            except IllegalAction as exc:
                self._refuse(exc)
                continue
            card = self._card_name(cmd.word) if self.labels else f"{cmd.word} ({coordinate(cmd.index, self.columns)})"
            self._notice(self.say("you_cover", card=card), "dim")
            return

    def _bot(self, seat: str, phase: str) -> None:
        obs = self.state.observe(seat)
        if phase == "clue":
            self.io.show(Text(self.say("bot_thinking"), style="dim"))
            decision = self.spymaster.give_clue(obs)
            self.io.pause(self.pause)
            self.bot_intents.add(decision)
            number = played_number(decision.number)   # as simulate and the web give it (numpy integers as int)
            self.referee_bot_clue(self.spymaster, decision.word, number, self.state.covered_words())
            self._apply(Clue(seat, decision.word, number))
            self._notice(self.say("bot_clue", word=decision.word.upper(),
                                   number=clue_number(self.lang, number)), "bold cyan")
        elif phase == "cover":
            covers = self.state.legal_actions()
            action = covers[int(self.rng.integers(len(covers)))]
            self._apply(action)
            self._notice(self.say("bot_covers", card=self._card_name(action.word)), "dim")
        else:
            word = self.guesser.next_guess(obs)
            self.io.pause(self.pause)
            if word is None and self.state.guesses_this_turn == 0:
                raise RuntimeError(f"the bot guesser {getattr(self.guesser, 'spec', '?')} made no guess (RULES 1.4)")
            action = Stop(seat) if word is None else Guess(seat, word)
            self._apply(action)
            self._report(seat, action)

    def _report(self, seat: str, action) -> None:
        who = self._who(seat)
        if isinstance(action, Stop):
            self._notice(self.say("cn_stop", who=who), "cyan")
            return
        letter = self.state.key.letters[self.state.words.index(action.word)]
        key = {TEAM_LETTER[self.team]: "res_own", "N": "res_cn_bystander", "X": "res_cn_assassin"}.get(letter,
                                                                                                     "res_opponent")
        style = {"res_own": "green", "res_cn_assassin": "bold red"}.get(key, "yellow")
        self._notice(self.say("cn_guess_report", who=who, card=self._card_name(action.word), result=self.say(key)),
                     style)

    # ----- the end -------------------------------------------------------------------------------
    def result_line(self) -> str:
        o = self.state.outcome()
        return self.say("cn_result", status=machine_word(self.lang, o.status),
                        winner=machine_word(self.lang, o.winner), score="-" if o.score is None else o.score,
                        turns=o.turns_used, loss=machine_word(self.lang, o.loss_reason))

    def _role_lines(self) -> list[Text]:
        """Who played what, and the clues of the game as the person saw them: the bot's clues and
        what it meant (the person guessed), or the person's clues and the bot's guesses on each."""
        if self.role == "guesser":
            lines = [Text(self.say("played_guesser", spec=getattr(self.spymaster, "spec", self.partner_label)),
                          style="bold")]
            over = self.state.is_terminal()   # left mid-game: as shown, and said so
            return lines + self.bot_intents.summary(reveal=over, left=not over)
        if self.role != "spymaster":
            return []
        lines = [Text(self.say("played_spymaster", spec=getattr(self.guesser, "spec", self.partner_label)),
                      style="bold")]
        clues: list[Text] = []
        for e in self.state.history:
            if e.kind == "clue":
                clues.append(Text(f"{str(e.word).upper()} {clue_number(self.lang, e.number)} →", style="cyan"))
            elif e.kind == "guess" and clues:
                mark, style = self._mark(e.result)
                clues[-1].append(f" {self._card_name(e.word)}{mark}", style=style)
        for line in clues:
            if line.plain.endswith("→"):
                line.append(" " + self.say("no_guesses"), style="dim")
        return lines + ([Text(self.say("your_clues_header"), style="bold")] + clues if clues else [])

    def _finish(self) -> None:
        o = self.state.outcome()
        self.ended = self.ended or o.status
        self._explain_resolved()
        saved = self._save_line()
        if self.state.is_terminal():
            self.reveal = True  # the game is over: the key is shown, the roles stay as played
            self._redraw()
            if o.winner == self.team:
                from engine.codenames.labels import two_player_label

                label = two_player_label(o.score) or {}
                self.io.show(Text(self.say("cn_won", score=o.score, label=label.get(self.lang, label.get("en", ""))),
                                  style="bold green"))
            else:
                self.io.show(Text(self.say("cn_lost", reason=reason(self.lang, o.loss_reason)), style="bold red"))
        else:
            self.io.show(Text(self.say("left", why=reason(self.lang, self.ended)), style="bold yellow"))
        for line in self._role_lines():
            self.io.show(line)
        self.io.show(Text(self.result_line(), style="bold"))
        self.io.show(saved, soft_wrap=True)


def other(team: str) -> str:
    return "blue" if team == "red" else "red"


def play_codenames(game, seed, lang, partner, guesser_spec, path, pause, role) -> int:
    from experiments.games.codenames.dealing import deal_record

    from experiments.exits import fail
    from experiments.play.command import load_partner, start_record

    try:
        record = deal_record(seed, lang, game=game, variant="two_player")
    except (KeyError, ValueError) as exc:
        fail(str(exc))
    io = TerminalIO()
    spymaster, guesser, label = load_partner(io, partner, guesser_spec, lang)
    path = start_record(io, record, path)
    return CodenamesSession(record, spymaster, guesser, path, io=io, pause=pause, role=role,
                            partner_label=label).run()
