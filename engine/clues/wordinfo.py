"""What the filter knows about one word, board-independent (computed once, cached per language)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WordInfo:
    """Morphological facts about a normalised word.

    forms: spellings that are *this same word*: the word, its variant-table canonical spelling, its
        lemmas (RAINS -> rain), its joined form for a multi-word entry. Shared forms = same word
        (RULES 4.3 inflection, 4.6 variants).
    parts: the standalone words it is made of (RULES 4.3/4.4), mapped to strength. A part is
        *strong* when it clearly stands on its own in this word (눈 and 사람 in 눈사람, 홀 in 블랙홀,
        rain in raincoat); *weak* when it is a one-syllable piece of a word whose pieces are all one
        syllable (우+비, 강+변, 한+강), or a syllable the analyser also reads as a bound affix (기 in
        전투기). Weak parts still make "contains the visible word" (강 in 강변) but do not make two
        words share a part (RULES 4.4: a shared Sino-Korean syllable does not block).
    real: a known word (RULES 4.7).
    number: a number word or numeral (RULES 4.1).
    """

    word: str
    canon: str
    forms: frozenset[str]
    parts: dict
    real: bool
    number: bool = False

    @property
    def partforms(self) -> frozenset[str]:
        return frozenset(self.parts)

    @property
    def strongparts(self) -> frozenset[str]:
        return frozenset(p for p, strong in self.parts.items() if strong)
