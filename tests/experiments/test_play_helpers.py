"""Helpers shared by the `cnlab play` tests (no tests here): a scripted person who knows the deal."""

from __future__ import annotations

import io

from rich.console import Console

from experiments.play.prompts import coordinate

CLUE_CANDIDATES = ("zebra", "galaxy", "violin", "pyramid", "tornado", "penguin")


def legal_clue(words, lang="en") -> str:
    from engine.clues import check_clue

    for word in CLUE_CANDIDATES:
        if check_clue(word, 9, board=list(words), language=lang).legal:
            return word
    raise AssertionError("no candidate clue is legal on this board")


class Person:
    """Lets the bot start, then guesses every green of the bot's side on its first clue (the test
    knows the deal), alternating words and coordinates; gives CLUE 9 on every clue turn (an illegal
    board word first, once, when `illegal_first`); passes in sudden death."""

    def __init__(self, record, clue: str, illegal_first: bool = False, first: str = "bot"):
        self.words = list(record.words)
        self.todo = [i for i, c in enumerate(record.key.b) if c == "G"]
        self.clue = clue
        # a word the person never covers, so it is still visible when refused (RULES 4.5)
        self.visible_word = next(w for w, c in zip(record.words, record.key.b) if c != "G")
        self.illegal = illegal_first
        self.first = first
        self.sent: list[str] = []

    def answer(self, prompt: str) -> str:
        line = self._answer(prompt)
        self.sent.append(line)
        return line

    def _answer(self, prompt: str) -> str:
        if prompt.startswith("Who gives"):
            return self.first
        if prompt.startswith("Your clue"):
            if self.illegal:
                self.illegal = False
                return f"{self.visible_word} 2"
            return f"{self.clue} 9"
        if prompt.startswith("Bot's clue"):
            i = self.todo.pop(0)
            return coordinate(i).lower() if len(self.todo) % 2 else f"guess {self.words[i]}"
        if prompt.startswith("SUDDEN"):
            return "pass"
        raise AssertionError(f"unexpected prompt {prompt!r}")


class ScriptedIO:
    """The session's terminal, answered by a Person, output kept in memory."""

    def __init__(self, person: Person):
        self.person = person
        self.out = io.StringIO()
        self.console = Console(file=self.out, width=80, highlight=False, color_system=None)

    def ask(self, prompt: str) -> str:
        self.console.print(prompt, end="")
        line = self.person.answer(prompt)
        self.console.print(line)
        return line

    def show(self, *things, **options) -> None:
        self.console.print(*things, **options)

    def clear(self) -> None:
        pass

    def pause(self, seconds: float) -> None:
        pass


def play_in_process(seed: int, tmp_path, lang="en", **person_kw):
    from agents.registry import make_guesser, make_spymaster
    from experiments.games.duet.dealing import deal_duet_record
    from experiments.play.duet import DuetSession

    record = deal_duet_record(seed, lang)
    person = Person(record, legal_clue(record.words, lang), **person_kw)
    scripted = ScriptedIO(person)
    session = DuetSession(record, make_spymaster("random", lang), make_guesser("random", lang),
                          tmp_path / f"duet-{seed}.json", io=scripted, pause=0, partner_label="random")
    code = session.run()
    return session, scripted, code


def find_winning_seed(tmp_path, start: int = 0, tries: int = 2000) -> int:
    """The first seed at which the scripted person and the random bot win (found in-process, with
    the very session code the terminal runs, so the terminal game on that seed wins too)."""
    for seed in range(start, start + tries):
        session, _, _ = play_in_process(seed, tmp_path)
        if session.state.outcome().phase == "won":
            return seed
    raise AssertionError("no winning seed found")


def test_the_bot_guesser_that_reads_a_persons_clues():
    """In English the human-data guesser reads a person's clues (it agrees with people's first
    guesses most: docs/eval_human.md); Korean has no human data and Pictures' cards are descriptions."""
    from agents.defaults import guesser_for_people
    from agents.registry import check_spec, default_guesser

    assert guesser_for_people("duet", "en") == guesser_for_people("codenames", "en") == "human"
    assert guesser_for_people("duet", "ko") == default_guesser("ko") == "duet-bayes:use-m3"
    assert guesser_for_people("codenames", "ko") == guesser_for_people("pictures", "en") == "nearest:use-m3"
    for game in ("duet", "codenames", "pictures"):
        for lang in ("en", "ko"):
            check_spec(guesser_for_people(game, lang), "guesser", lang)   # each reads its board language
