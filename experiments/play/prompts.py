"""What a person types at a prompt, parsed into one command.

Forms (case does not matter for the keywords):

- a clue: ``clue WORD N`` or ``WORD N`` (N = 0..9);
- a guess: ``guess WORD``, ``WORD``, a unique beginning of a board word (the board abbreviates long
  words), or a coordinate: the column letter then the row number, ``B3`` or ``b3`` = column B,
  row 3 (columns A-E from the left, rows 1-5 from the top);
- ``stop`` or ``end`` (end the turn after a correct guess), ``pass`` or ``skip`` (sudden death: let
  the partner guess); when such a keyword is also a card, the person is asked to say which;
  ``cover WORD`` (Codenames two-player: the virtual opponent's agent you cover),
- ``help`` or ``?``, ``quit``.

A board word that is also a keyword is guessed with ``guess WORD``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Sequence

COLUMNS = "ABCDE"
COORDINATE = re.compile(r"^([A-Ea-e])([1-9])$")
HELP_WORDS = {"help", "?", "h", "도움말"}
QUIT_WORDS = {"quit", "exit", "q", "종료"}
STOP_WORDS = {"stop", "end", "그만"}
PASS_WORDS = {"pass", "skip", "wait", "패스"}


@dataclass(frozen=True)
class Command:
    kind: str                    # clue, guess, stop, pass, cover, help, quit, me, bot, error
    word: str | None = None
    number: int | None = None
    index: int | None = None     # the board index of a guessed / covered card
    error: str | None = None     # for kind == "error": what to tell the person


def coordinate(index: int, columns: int = 5) -> str:
    """The coordinate of a board index: 0 -> A1, 7 -> C2."""
    return f"{COLUMNS[index % columns]}{index // columns + 1}"


def _norm(text: str) -> str:
    return unicodedata.normalize("NFC", text).strip().casefold()


def resolve_card(text: str, words: Sequence[str], columns: int = 5,
                 labels: Sequence[str] | None = None) -> tuple[int | None, str | None]:
    """(board index, None) for a word, a unique prefix or a coordinate; (None, why) otherwise.

    `labels` (for Pictures: the descriptions shown) are matched like words."""
    text = unicodedata.normalize("NFC", text.strip())
    if not text:
        return None, "name a card: a word or a coordinate such as B3"
    m = COORDINATE.match(text)
    rows = (len(words) + columns - 1) // columns
    if m and text not in words:
        col, row = COLUMNS.index(m.group(1).upper()), int(m.group(2))
        if col >= columns or row > rows:
            return None, f"{text} is off the board: columns A-{COLUMNS[columns - 1]}, rows 1-{rows}"
        return (row - 1) * columns + col, None
    if text in words:
        return words.index(text), None
    names = [[_norm(w)] for w in words]
    if labels:
        for n, label in zip(names, labels):
            n.append(_norm(label))
    key = _norm(text)
    exact = [i for i, n in enumerate(names) if key in n]
    if len(exact) == 1:
        return exact[0], None
    prefix = [i for i, n in enumerate(names) if any(x.startswith(key) for x in n)]
    if len(prefix) == 1:
        return prefix[0], None
    if len(prefix) > 1:
        return None, f"{text!r} could be {', '.join(words[i] for i in prefix[:4])}: type more of it"
    return None, f"{text!r} is not on the board (type a board word or a coordinate such as B3)"


def parse(text: str, mode: str, words: Sequence[str] = (), columns: int = 5,
          labels: Sequence[str] | None = None) -> Command:
    """Parse one line typed at a prompt of `mode`: first, clue, guess, sudden, cover, role."""
    line = unicodedata.normalize("NFC", text).strip()
    low = line.casefold()
    if low in HELP_WORDS:
        return Command("help")
    if low in QUIT_WORDS:
        return Command("quit")
    parts = line.split()
    head = parts[0].casefold() if parts else ""
    if mode == "first":
        if low in ("", "me", "m", "i", "1", "a", "나", "내가"):
            return Command("me")
        if low in ("bot", "b", "partner", "2", "봇"):
            return Command("bot")
        return Command("error", error="type 'me' to give the first clue or 'bot' to let the bot start")
    if mode == "role":
        if low in ("guesser", "g", "1", ""):
            return Command("me", word="guesser")
        if low in ("spymaster", "s", "2"):
            return Command("bot", word="spymaster")
        return Command("error", error="type 'guesser' or 'spymaster'")
    if not parts:
        return Command("error", error="type something, or 'help'")
    if mode == "clue":
        if head == "clue":
            parts = parts[1:]
        if head in ("guess",) or (len(parts) == 1 and parts[0].casefold() in STOP_WORDS | PASS_WORDS):
            return Command("error", error="it is your turn to give a clue: type WORD NUMBER, e.g. ocean 2")
        if len(parts) < 2:
            return Command("error", error="a clue is a word and a number: type WORD NUMBER, e.g. ocean 2")
        number = parts[-1]
        if not re.fullmatch(r"\d+", number):
            return Command("error", error=f"the clue's number must be 0..9, not {number!r} (type WORD NUMBER)")
        return Command("clue", word=" ".join(parts[:-1]), number=int(number))
    if mode == "cover":
        if head == "cover":
            parts = parts[1:]
        index, why = resolve_card(" ".join(parts), words, columns, labels)
        if index is None:
            return Command("error", error=why)
        return Command("cover", word=words[index], index=index)
    # guess / sudden
    keywords = PASS_WORDS if mode == "sudden" else STOP_WORDS | PASS_WORDS
    if len(parts) == 1 and head in keywords:
        on_board = [w for w in words if _norm(w) == head]
        if not on_board:
            return Command("pass" if mode == "sudden" else "stop")
        if head in ("pass", "stop"):  # the main keyword and a card: ask which one
            alias = "skip" if mode == "sudden" else "end"
            return Command("error", error=f"{line!r} is a card too: type 'guess {on_board[0]}' to guess it, "
                                          f"or '{alias}' to {'pass' if mode == 'sudden' else 'stop'}")
        # any other keyword that is a card of the board is a guess of that card
    if head == "guess":
        parts = parts[1:]
    elif head == "clue" or (len(parts) >= 2 and re.fullmatch(r"\d+", parts[-1])):
        return Command("error", error="it is not your turn to give a clue: guess a card (word or B3)")
    index, why = resolve_card(" ".join(parts), words, columns, labels)
    if index is None:
        return Command("error", error=why)
    return Command("guess", word=words[index], index=index)
