"""Value types of the clue filter (RULES section 4): verdicts and options."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from engine.actions import UNLIMITED  # noqa: F401 (the expert clue number, re-exported by engine.clues)

#: Rule codes a verdict can carry.
RULES = ("4.1", "4.2", "4.3", "4.4", "4.5", "4.6", "4.7")


class FilterUnavailable(RuntimeError):
    """A morphology package the filter needs is not installed."""


#: The three answers of the referee. "undecidable": a rule the filter cannot decide from words alone
#: (RULES 4.2: a number used as part of the hint; RULES 4.1: a number word that may count letters).
STATUSES = ("legal", "illegal", "undecidable")


@dataclass(frozen=True)
class ClueVerdict:
    """The referee's answer for one clue.

    legal: whether a referee lets the clue stand (a bool for every caller). An undecidable clue is
        legal by default (the referee allows what it cannot rule out, and its message says so);
        `ClueOptions(refuse_undecidable=True)` makes it illegal. Bots (`legal_mask`) avoid it.
    status: "legal", "illegal" or "undecidable".
    rule: the RULES code broken (illegal) or in doubt (undecidable); None when legal.
    message: a short message in the board's language.
    blocked_by: for a board rule, what blocked: the visible word (`visible`), how (`relation`:
        same, form, variant, contains, part, shares, syllable, letters, number), and the piece:
        {"part": "눈", "of": "눈사람"} or {"form": "snowmen", "of": "snowman"}; None otherwise.
    """

    legal: bool
    rule: str | None
    message: str
    status: str = ""
    blocked_by: dict | None = None

    def __post_init__(self) -> None:
        if not self.status:
            object.__setattr__(self, "status", "legal" if self.legal else "illegal")
        if self.status not in STATUSES:
            raise ValueError(f"unknown verdict status {self.status!r}")

    @property
    def undecidable(self) -> bool:
        return self.status == "undecidable"

    def as_dict(self) -> dict:
        return {"legal": self.legal, "status": self.status, "rule": self.rule, "message": self.message,
                "blocked_by": self.blocked_by}


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
        established one (냉동 식품 yes, 음력 생선 no). A Korean phrase passes the proper-noun option
        only when a piece is a name (레오나르도 다빈치); a compound needs the compounds option.
    allow_abbreviations: accept abbreviations (RULES 4.7): initialisms said letter by letter (FBI, TV,
        유엔 = UN) and Latin-letter acronyms (CIA) on a Korean board (RULES 4.6). Off by default.
    liberal_homophones, rhymes: recorded for the engines; they do not change the filter (they are
        about how clues relate to meaning, which the filter does not judge).
    vocabulary: extra words the filter must treat as real (RULES 4.7).
    refuse_undecidable: a strict referee: a clue the filter cannot decide (status "undecidable",
        e.g. RULES 4.2) is illegal instead of allowed. Off by default.
    """

    allowed_clues: frozenset[str] = field(default_factory=frozenset)
    forbid_number_words: bool = False
    allow_multiword_compounds: bool = False
    allow_multiword_proper_nouns: bool = False
    allow_abbreviations: bool = False
    liberal_homophones: bool = False
    rhymes: bool = False
    vocabulary: frozenset[str] = field(default_factory=frozenset)
    refuse_undecidable: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "allowed_clues", _frozen(self.allowed_clues))
        object.__setattr__(self, "vocabulary", _frozen(self.vocabulary))

    @property
    def allow_multiword(self) -> bool:
        return self.allow_multiword_compounds or self.allow_multiword_proper_nouns
