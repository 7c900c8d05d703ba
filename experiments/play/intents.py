"""What the bot meant: its clues' intended targets (ClueDecision.targets), kept in the record's
`intents` like the self-play loops (`{"action": index of the Clue action, "targets": [...],
"score": ...}`), and shown to the person only once a clue is resolved: its guessing turn is over.
Until the game ends, only the targets already found are named; the rest are counted.

Hidden information: the targets are the bot's word for which cards it meant (its own agents), so
they are shown exactly as the bot gave them, never checked against or completed from the key
(that would show more of the bot's side); an unresolved clue stays unexplained, even when the
person leaves mid-game.
"""

from __future__ import annotations

from typing import Callable

from rich.text import Text

from engine.actions import UNLIMITED

from experiments.play import view
from experiments.play.text import say


class BotIntents:
    def __init__(self, record, found: Callable[[int], bool], guessing: Callable[[], bool],
                 names: Callable[[str], str] = str, lang: str = "en"):
        """`found(i)`: card i is found now; `guessing()`: a clue's guessing turn is in progress;
        `names(card)`: how the screen names a card; `lang`: the language of the lines."""
        self.record = record
        self.lang = lang
        self.items: list[dict] = list(record.extra.get("intents", []))
        self.found, self.guessing, self.names = found, guessing, names
        self.resolved: list[tuple[str, int, list[str], list[bool]]] = []  # (clue, number, targets, found)

    def add(self, decision) -> None:
        """The bot's clue, before its Clue action is applied."""
        self.items.append(decision.intent(len(self.record.actions)))

    def for_record(self) -> list[dict]:
        """The intents of the clues in the record (not one whose Clue the engine refused)."""
        return [i for i in self.items if i["action"] < len(self.record.actions)]

    def settle(self, applied: int | None = None, reveal: bool = False) -> list[Text]:
        """Lines for the clues resolved since the last call (`applied`: actions applied so far).
        Called after every action, so a clue's targets are marked as found when its turn ended.
        `reveal`: the game is over, so the lines name every target (see `line`)."""
        applied = len(self.record.actions) if applied is None else applied
        lines = []
        while len(self.resolved) < len(self.items):
            n = len(self.resolved)
            intent = self.items[n]
            later = n + 1 < len(self.items) and self.items[n + 1]["action"] < applied
            if intent["action"] >= applied or (self.guessing() and not later):
                break
            clue = self.record.actions[intent["action"]]
            words = list(self.record.words)
            targets = [t for t in intent["targets"] if t in words]
            self.resolved.append((clue.word, clue.number, targets, [self.found(words.index(t)) for t in targets]))
            lines.append(self.line(n, reveal=reveal))
        return lines

    def line(self, n: int, reveal: bool = False, left: bool = False) -> Text:
        """A resolved clue's line. During the game (`reveal` off) a target still face down is only
        counted: naming it would tell the bot's key side (RULES 3.12); the end shows them all. On
        the screen of a game left unfinished (`left`) they stay counted, and it says why."""
        word, number, targets, found = self.resolved[n]
        shown = [(t, f) for t, f in zip(targets, found) if reveal or f]
        # RULES 1.7: an UNLIMITED clue does not tell its guessers how many cards it is for: until the
        # end, neither does the count of the targets still face down
        return view.intent_line(word, number, [self.names(t) for t, _ in shown], [f for _, f in shown], self.lang,
                                hidden=len(targets) - len(shown), left=left,
                                uncounted=number == UNLIMITED and not reveal)

    def summary(self, reveal: bool, left: bool = False) -> list[Text]:
        """Every resolved bot clue, one line each; every target named when `reveal` (the game is
        over), else only the found ones (`left`: the person left mid-game and may come back to it)."""
        if not self.resolved:
            return []
        return [Text(say(self.lang, "meant_header"), style="bold")] + [
            self.line(n, reveal=reveal, left=left) for n in range(len(self.resolved))]
