"""Value types of the clue filter (RULES section 4): verdicts, options, the UNLIMITED number."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

#: The expert "unlimited" clue number (RULES 1.2, 1.7).
UNLIMITED = "unlimited"

#: Rule codes a verdict can carry.
RULES = ("4.1", "4.2", "4.3", "4.4", "4.5", "4.6", "4.7")


class FilterUnavailable(RuntimeError):
    """A morphology package the filter needs is not installed."""


@dataclass(frozen=True)
class ClueVerdict:
    """The referee's answer for one clue: legal or not, the RULES code broken, a short message."""

    legal: bool
    rule: str | None
    message: str

    def as_dict(self) -> dict:
        return {"legal": self.legal, "rule": self.rule, "message": self.message}


def _frozen(words: Iterable[str] | None) -> frozenset[str]:
    if words is None:
        return frozenset()
    if isinstance(words, str):
        words = [words]
    return frozenset(str(w) for w in words)


@dataclass(frozen=True)
class ClueOptions:
    """Rules agreed before the game (RULES 4.1 exceptions, 4.7 options). All off by default.

    allowed_clues: clues the players agreed are meaningful although they are letters, jamo, letter
        counts, position words or number words (RULES 4.1: ``ㅅ`` for 사이, ``여덟`` for 문어).
    forbid_number_words: treat number words (둘, 여덟, 백, two, 100) as letter counts (RULES 4.1).
        Off by default: the filter cannot read intent, and a number may relate to meaning.
    allow_multiword_compounds / allow_multiword_proper_nouns: accept clues with spaces or hyphens
        (RULES 4.7); each piece must still be a real word, and a Korean compound must be an
        established one (냉동 식품 yes, 음력 생선 no).
    allow_abbreviations: accept Latin-letter acronyms (CIA) on a Korean board (RULES 4.6/4.7).
    liberal_homophones, rhymes: recorded for the engines; they do not change the filter (they are
        about how clues relate to meaning, which the filter does not judge).
    vocabulary: extra words the filter must treat as real (RULES 4.7).
    """

    allowed_clues: frozenset[str] = field(default_factory=frozenset)
    forbid_number_words: bool = False
    allow_multiword_compounds: bool = False
    allow_multiword_proper_nouns: bool = False
    allow_abbreviations: bool = False
    liberal_homophones: bool = False
    rhymes: bool = False
    vocabulary: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        object.__setattr__(self, "allowed_clues", _frozen(self.allowed_clues))
        object.__setattr__(self, "vocabulary", _frozen(self.vocabulary))

    @property
    def allow_multiword(self) -> bool:
        return self.allow_multiword_compounds or self.allow_multiword_proper_nouns
