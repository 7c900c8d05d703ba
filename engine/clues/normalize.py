"""A clue's text as every referee reads it, before any rule (RULES 2.2, 4.7, 5.4).

One function for every engine and the filter, so that the one-word rules see the same text:

- NFC, so a composed and a decomposed accent are the same letter;
- trimmed, and every dash variant (Unicode dash punctuation: U+2010 hyphen, U+2011 non-breaking
  hyphen, en and em dashes, the minus sign, the fullwidth hyphen...) written as "-", so that
  snow‐man is refused as two words like snow-man;
- refused when it holds an invisible character (zero-width space, joiners, soft hyphen, byte-order
  mark, direction marks, other format or control characters, unassigned or private-use code
  points, lone surrogates, the Hangul fillers and other default-ignorable letters and marks): a
  zero-width space would hide a word break from the one-word rules, and what the guesser sees must
  be what the referee judged;
- refused when longer than MAX_CLUE_LENGTH characters (a clue is one word; the longest words of
  either language are far shorter), or MAX_SENTENCE_LENGTH for a Spy's Word sentence clue, before
  any analysis, so that no rule ever analyses a huge text.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

#: The longest clue any referee analyses: a clue is one word (RULES 4.7, 2.2, 3.4).
MAX_CLUE_LENGTH = 64
#: The longest Spy's Word clue in sentence mode (RULES 5.4).
MAX_SENTENCE_LENGTH = 256

# Dashes that are not dash punctuation (Pd) but read as a hyphen inside a word.
_EXTRA_DASHES = frozenset("\u2212\u2043\ufe63\uff0d")
_INVISIBLE = frozenset(("Cf", "Cs", "Co", "Cn"))
_BREAKS = frozenset(("Cc", "Zl", "Zp"))  # every control character, line and paragraph separators
# Letters and marks nobody sees (Unicode's default-ignorable code points outside Cf, but not the
# variation selectors that pick an emoji's look: ❤️): the Hangul fillers (U+3164, U+FFA0, U+115F,
# U+1160: a blank that reads as a jamo), the combining grapheme joiner, Khmer's invisible vowels.
_IGNORABLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0")


class ClueTextError(ValueError):
    """A clue no rule needs to analyse: too long, or holding an invisible character.

    `key` names the message in engine.clues.messages ("too_long" or "invisible"); `describe`
    gives it in a board language."""

    def __init__(self, key: str, **details) -> None:
        self.key = key
        self.details = details
        super().__init__(self.describe("en"))

    def describe(self, language: str | None = "en") -> str:
        from engine.clues.messages import message

        return message(self.key, language or "en", **self.details)


def _invisible(ch: str) -> bool:
    if ch in _IGNORABLE:
        return True
    category = unicodedata.category(ch)
    if category == "Cc":  # tab and newline are spaces (a word break); other controls are invisible
        return not ch.isspace()
    return category in _INVISIBLE


def invisible_character(text: str, breaks: bool = False) -> str | None:
    """The first character of `text` nobody sees (what `normalize_clue` refuses: format, private-use,
    unassigned and surrogate code points, control characters other than tab and newline), or None.
    With `breaks`, tab, newline and the line and paragraph separators count too: a clue may hold a
    word break (the one-word rules judge it), a card's word never holds a line break."""
    for ch in text:
        if _invisible(ch) or (breaks and unicodedata.category(ch) in _BREAKS):
            return ch
    return None


def normalize_clue(text: str, max_length: int = MAX_CLUE_LENGTH) -> str:
    """The clue text the rules judge (see the module); raises ClueTextError.

    >>> normalize_clue(" snow\\u2010man ")
    'snow-man'
    """
    text = str(text)
    if len(text) > 4 * max_length:  # no normalisation of a huge text: NFC can at most triple it
        raise ClueTextError("too_long", limit=max_length, length=len(text))
    text = unicodedata.normalize("NFC", text).strip()
    for ch in text:
        if _invisible(ch):
            raise ClueTextError("invisible", code=f"U+{ord(ch):04X}")
    if len(text) > max_length:
        raise ClueTextError("too_long", limit=max_length, length=len(text))
    return dashes_as_hyphens(text)


def dashes_as_hyphens(text: str) -> str:
    """`text` with every dash variant (dash punctuation, the minus sign, the fullwidth hyphen...)
    written as "-": a clue, and a code word, are read with one hyphen (ICE–CREAM is ICE-CREAM)."""
    if text.isascii():   # the one ASCII dash is "-" itself (this runs on every word the filter compares)
        return text
    return _dashes_as_hyphens(text)


@lru_cache(maxsize=1 << 16)
def _dashes_as_hyphens(text: str) -> str:
    if any(unicodedata.category(ch) == "Pd" or ch in _EXTRA_DASHES for ch in text):
        text = "".join("-" if unicodedata.category(ch) == "Pd" or ch in _EXTRA_DASHES else ch for ch in text)
    return text
