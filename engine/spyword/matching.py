"""Forgiving comparison of words: the ghost's guess (RULES 5.10) and repeated clues (RULES 5.4).

`normalize` ignores case, accents, punctuation and spacing: NFKC, case folding, accents removed
with unidecode for every character outside Hangul / CJK (so é -> e, ß -> ss), and every character
that is not a letter or a digit dropped. Hangul is kept as Hangul (unidecode would romanise it).

Typos (`_typo_units`): counted with rapidfuzz's optimal-string-alignment distance (an
insertion, deletion, substitution or swap of two neighbours is one typo):
  * Latin and other scripts: words of 5-9 letters allow 1 typo, 10 letters or more allow 2;
    words of 4 letters or fewer must match exactly.
  * Hangul: compared as jamo (자모, NFD decomposition), so 아이스크림 / 아이스크린 is one typo;
    words of 4-6 syllables allow 1 jamo typo, 7 syllables or more allow 2; words of 1-3
    syllables must match exactly (a one-jamo change there is usually another word: 사과/사고).
  * A typo is a misspelling, not another word: a guess that is itself a common word (wordfreq zipf
    >= `OTHER_WORD_ZIPF` in its script's language) other than the word or an inflection of it is
    no typo of it: "house" does not name "horse", "latter" not "later"; "horses" names "horse", and
    "elephnat", "pinapple", "아이스크린" are typos.
"""

from __future__ import annotations

import math
import unicodedata
from functools import lru_cache


def _is_hangul(ch: str) -> bool:
    o = ord(ch)
    return 0xAC00 <= o <= 0xD7A3 or 0x1100 <= o <= 0x11FF or 0x3130 <= o <= 0x318F or 0xA960 <= o <= 0xA97F \
        or 0xD7B0 <= o <= 0xD7FF


def _is_cjk(ch: str) -> bool:
    o = ord(ch)
    return _is_hangul(ch) or 0x3040 <= o <= 0x30FF or 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF


def normalize(text: str) -> str:
    """Case, accents, punctuation and spacing removed; Hangul syllables kept composed (NFC)."""
    from unidecode import unidecode

    text = unicodedata.normalize("NFKC", text).casefold()
    out = []
    for ch in text:
        if _is_cjk(ch):
            out.append(ch)
        else:
            out.append(unidecode(ch).casefold())
    return unicodedata.normalize("NFC", "".join(ch for ch in "".join(out) if ch.isalnum()))


def _typo_units(key: str) -> tuple[str, int]:
    """The string the typo distance is counted on, and the allowed number of typos."""
    syllables = sum(1 for ch in key if 0xAC00 <= ord(ch) <= 0xD7A3)
    if syllables and syllables * 2 >= len(key):  # mostly Hangul: count jamo
        allowed = 0 if syllables <= 3 else (1 if syllables <= 6 else 2)
        return unicodedata.normalize("NFD", key), allowed
    allowed = 0 if len(key) <= 4 else (1 if len(key) <= 9 else 2)
    return key, allowed


def typo_distance(a: str, b: str) -> int:
    """Typos between two normalised keys (jamo for Hangul): optimal string alignment distance."""
    from rapidfuzz.distance import OSA

    ua, _ = _typo_units(a)
    ub, _ = _typo_units(b)
    return OSA.distance(ua, ub)


def matches(guess: str, word: str) -> bool:
    """Whether the guess names the word, forgiving case, accents, punctuation, spacing and minor
    typos in long words (thresholds in the module docstring)."""
    g, w = normalize(guess), normalize(word)
    if not g or not w:
        return False
    if g == w:
        return True
    _, allowed = _typo_units(w)
    return allowed > 0 and typo_distance(g, w) <= allowed and not another_word(g, w)


#: A guess at least this common (wordfreq zipf) is a word of its own, not a typo of another.
OTHER_WORD_ZIPF = 3.0


def another_word(g: str, w: str) -> bool:
    """Whether the normalised guess `g` is a common word of its own, not `w` or an inflection of it."""
    hangul = any(_is_hangul(ch) for ch in g)
    if _zipf(g, "ko" if hangul else "en") < OTHER_WORD_ZIPF:
        return False
    if hangul:
        return True
    from lemminflect import getAllLemmas

    return not any(w in lemmas for lemmas in getAllLemmas(g).values())


@lru_cache(maxsize=4096)
def _zipf(key: str, language: str) -> float:
    if language == "ko":          # the frequency table itself: wordfreq's Korean lookup needs MeCab
        freq = _korean_frequencies().get(key, 0.0)
    else:
        from wordfreq import word_frequency

        freq = word_frequency(key, "en")
    return math.log10(freq * 1e9) if freq > 0 else 0.0


@lru_cache(maxsize=1)
def _korean_frequencies() -> dict[str, float]:
    from wordfreq import get_frequency_dict

    return get_frequency_dict("ko")


def ghost_guess_is_right(guess: str, citizen_word: str, spy_word: str) -> bool:
    """RULES 5.10: the guess must match the citizens' word and must not also match the spy word.

    Reading chosen for "also matches the spy word": a guess within the typo tolerance of both
    words is refused unless it is strictly closer to the citizens' word (so with coffee/toffee,
    "coffee" is right, "toffee" and an equally distant "Xoffee" are not).
    """
    if not matches(guess, citizen_word):
        return False
    if not matches(guess, spy_word):
        return True
    g = normalize(guess)
    return typo_distance(g, normalize(citizen_word)) < typo_distance(g, normalize(spy_word))


def _symbol_key(text: str) -> str:
    """The key of a clue with no letter or digit (an emoji, "!!!"), which `normalize` empties: its
    symbols (emoji, signs) without spacing, combining marks or variation selectors, or when it
    has none, its punctuation without spacing."""
    chars = [ch for ch in unicodedata.normalize("NFKC", text).casefold()
             if not ch.isspace() and unicodedata.category(ch) not in ("Mn", "Me", "Cf")]
    symbols = [ch for ch in chars if unicodedata.category(ch)[0] == "S"]
    return "".join(symbols or chars)


def same_clue(a: str, b: str) -> bool:
    """Two clues are the same clue when equal after `normalize` (RULES 5.4 repeats); no typo
    tolerance, since a one-letter change may well be another word. Two clues without a letter or
    a digit compare by their symbols (`_symbol_key`): "🍎" twice is a repeat too."""
    na, nb = normalize(a), normalize(b)
    if not na and not nb:
        ka, kb = _symbol_key(a), _symbol_key(b)
        return bool(ka) and ka == kb
    return bool(na) and na == nb
