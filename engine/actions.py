"""Actions shared by the Codenames-family engines, and their plain-JSON form."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Union

from .errors import MalformedRecord

UNLIMITED = "unlimited"   # the expert clue number (RULES 1.2, 1.7)
UNLIMITED_WORDS = frozenset({UNLIMITED, "무제한"})   # how a person writes it (casefolded)
MAX_CLUE_NUMBER = 9       # the largest numbered clue (RULES 1.2, 3.4)
ClueNumber = Union[int, str]
_WRITTEN_NUMBER = re.compile(r"\s*(-?[0-9]{1,4})\s*")   # ASCII digits: not \d, which takes every script's


def written_number(text: str) -> int | None:
    """The value of a clue number written as text with the ASCII digits 0-9 (spaces around and a
    minus sign allowed, so that -3 is refused as out of range, not as unreadable), or None. Never
    int() on other scripts' digits (³, ٣, ３ pass `str.isdigit`; int() fails on some and reads
    others) nor on a long run of digits (int() refuses more than 4,300): at most four digits, which
    covers every legal number (0..MAX_CLUE_NUMBER) with room to say a wrong one back."""
    m = _WRITTEN_NUMBER.fullmatch(text)
    return int(m.group(1)) if m else None


def written_clue_number(text: str) -> "int | str | None":
    """A clue number as a person writes it: UNLIMITED for any way of writing it (Unlimited, 무제한;
    RULES 1.2), else `written_number`'s value, or None."""
    return UNLIMITED if text.strip().casefold() in UNLIMITED_WORDS else written_number(text)


@dataclass(frozen=True)
class Clue:
    seat: str
    word: str
    number: ClueNumber

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "clue": self.word, "number": self.number}


@dataclass(frozen=True)
class Guess:
    seat: str
    word: str

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "guess": self.word}


@dataclass(frozen=True)
class Stop:
    seat: str

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "stop": True}


@dataclass(frozen=True)
class Cover:
    """A spymaster covers one of their own (or, in the two-player variant, an opponent) agent."""

    seat: str
    word: str

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "cover": self.word}


Action = Union[Clue, Guess, Stop, Cover]

#: The fields of each kind of action in a record, and nothing else (what `to_dict` writes).
FIELDS = {"clue": ("seat", "clue", "number"), "guess": ("seat", "guess"), "stop": ("seat", "stop"),
          "cover": ("seat", "cover")}


def action_from_dict(data: Any) -> Action:
    """Parse one record action; raise MalformedRecord on a shape that is not an action, or on an
    action with a field its kind does not have (`FIELDS`)."""
    if not isinstance(data, dict) or not isinstance(data.get("seat"), str):
        raise MalformedRecord("an action must be an object with a string 'seat'")
    seat = data["seat"]
    kinds = [k for k in ("clue", "guess", "stop", "cover") if k in data]
    if len(kinds) != 1:
        raise MalformedRecord("an action must have exactly one of 'clue', 'guess', 'stop', 'cover'")
    kind = kinds[0]
    from .record_fields import check_fields  # here: record_fields reaches engine.clues, which imports this module

    check_fields(data, FIELDS[kind], f"a {kind} action")   # a misspelt "numbr" would be dropped unseen
    if kind == "clue":
        word, number = data["clue"], data.get("number")
        if not isinstance(word, str):
            raise MalformedRecord("'clue' must be a string")
        if isinstance(number, bool) or not (isinstance(number, int) or number == UNLIMITED):
            raise MalformedRecord("'number' must be an integer or \"unlimited\"")
        return Clue(seat, word, number)
    if kind == "guess":
        if not isinstance(data["guess"], str):
            raise MalformedRecord("'guess' must be a string")
        return Guess(seat, data["guess"])
    if kind == "cover":
        if not isinstance(data["cover"], str):
            raise MalformedRecord("'cover' must be a string")
        return Cover(seat, data["cover"])
    if data["stop"] is not True:
        raise MalformedRecord("'stop' must be true")
    return Stop(seat)
