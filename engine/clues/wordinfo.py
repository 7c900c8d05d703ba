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
    syllable_words: Korean one-syllable weak parts that are words of their own in this word, by
        meaning (RULES 4.4: 비 in 이슬비 = 이슬 + 비, 국 in 떡국, 연 in 연날리기 = 연 + 날리기): such a
        clue is a part of the visible word (4.4), not one of its letters (4.1: 국 in 대한민국, 비 in
        우비). They stay weak: two words do not share them.
    position: Korean: the position word of `ko_positions.txt` that the word points at as a board
        position (RULES 4.1) other than by being that word: a form of it (가까움, 가까이 of 가깝다) or
        a reading made only of position words, ordinals and determiners, with particles (위에,
        첫째줄, 가운데줄, 맨위에); "" for any other word.
    letter: Korean: the letter word of `ko_letters.txt` that the word names (RULES 4.1) other than by
        being that word: with particles or the plural 들 after it (글자로, 초성으로, 기역이, 자음들,
        첫글자가) or a number or determiner before it (세음절, 두음절로: a letter count); "" otherwise.
    """

    word: str
    canon: str
    forms: frozenset[str]
    parts: dict
    real: bool
    number: bool = False
    syllable_words: frozenset = frozenset()
    position: str = ""
    letter: str = ""
