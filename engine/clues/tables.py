"""The filter's small data tables under data/clues/ (positions, letter words, loanwords, variants)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from engine.clues.normalize import dashes_as_hyphens
from engine.paths import data_path


#: Full-width forms of ASCII (U+FF01..U+FF5E: Ｒａｉｎ, ２) as the ASCII characters they are.
FULL_WIDTH = {cp: cp - 0xFEE0 for cp in range(0xFF01, 0xFF5F)}


def normalize(word: str, language: str) -> str:
    """The comparison form of a word: NFC, full-width letters and digits as ASCII (Ｒａｉｎ is rain:
    the same spelling, RULES 4.6), every dash a hyphen (a code word ICE–CREAM is ICE-CREAM, as a clue
    is read), trimmed, inner whitespace collapsed, case-folded, curly apostrophes straightened and the
    ligatures æ, œ written ae, oe (en). Kept for the words met most: a filter compares the board's
    and the candidates' words on every clue."""
    return _normalize(str(word), language)


@lru_cache(maxsize=1 << 16)
def _normalize(word: str, language: str) -> str:
    word = dashes_as_hyphens(unicodedata.normalize("NFC", word).translate(FULL_WIDTH)).strip()
    word = " ".join(word.split())
    if language == "en":  # one apostrophe: witch’s is witch's; the ligatures æ, œ are ae, oe (as casefold makes ﬁ fi)
        return (word.casefold().replace("\u2019", "'").replace("\u2018", "'").replace("\u02bc", "'")
                .replace("\u00e6", "ae").replace("\u0153", "oe"))
    return word


def data_lines(name: str) -> list[str]:
    """The lines of `data/clues/NAME` that hold data (no blank or `#` comment lines); [] when absent."""
    path = data_path("clues", name)
    if not path.exists():
        return []
    out = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        if raw.strip() and not raw.lstrip().startswith("#"):
            out.append(raw.rstrip("\n\r"))
    return out


@dataclass(frozen=True)
class Loanword:
    word: str
    refused: bool
    source: str
    native: str


@dataclass(frozen=True)
class Tables:
    positions: frozenset[str]
    letter_words: frozenset[str]
    number_words: frozenset[str]
    loanwords: dict
    variants: dict  # spelling -> canonical spelling
    tied: dict = None  # visible word -> letters and position words tied to its meaning (RULES 4.1)
    number_values: dict = None  # number word -> its value (RULES 4.1)
    numeral_only: frozenset = frozenset()  # number words that are numbers only when read as numerals (ko)
    meaning_numbers: dict = None  # word -> ((number, why), ...) tied to its meaning (RULES 4.1, 4.2)
    derivations: dict = None  # derived word -> its bases: irregular derivations (RULES 4.3, en)
    bound: frozenset = frozenset()  # Sino-Korean suffix syllables that are no shared part (RULES 4.4, ko)
    meaning_parts: dict = None  # native word -> its parts by meaning (RULES 4.3/4.4, ko_meaning_parts.tsv)
    accidental_cuts: dict = None  # word -> left parts of its compound cuts not by meaning (en_accidental_cuts.tsv)
    derived_nouns: dict = None  # (noun, verb) -> embedding z of the tie, None if unscored (ko_derived_nouns.tsv)
    unheard_bases: dict = None  # word -> parts by letters its sounds do not carry (en_unheard_bases.tsv)
    bound_heads: dict = None  # word -> a last part that is a suffix there, not the word (en_bound_heads.tsv)
    romanized: dict = None  # Latin spelling -> (Korean word, its zipf): Korean in Latin letters (en_romanized_ko.tsv)


@lru_cache(maxsize=None)
def tables(language: str) -> Tables:
    """Load (once) the tables of one language."""
    positions = frozenset(normalize(w, language) for w in data_lines(f"{language}_positions.txt"))
    letters = frozenset(normalize(w, language) for w in data_lines(f"{language}_letters.txt"))
    values: dict[str, int] = {}
    numeral_only = set()
    for line in data_lines(f"{language}_numbers.txt") + data_lines(f"{language}_numbers.tsv"):
        cols = [c.strip() for c in line.split("\t")]
        word = normalize(cols[0], language)
        if len(cols) > 1 and cols[1].isdigit():
            values[word] = int(cols[1])
        if len(cols) > 2 and cols[2] == "nr":
            numeral_only.add(word)
        else:
            values.setdefault(word, None)
    numbers = frozenset(w for w in values if w not in numeral_only)
    meaning_numbers: dict[str, tuple] = {}
    for line in data_lines(f"{language}_number_meanings.tsv"):
        cols = line.split("\t")
        if len(cols) >= 2:
            nums = tuple(int(n) for n in cols[1].split(",") if n.strip().isdigit())
            why = cols[2].strip() if len(cols) > 2 else ""
            meaning_numbers[normalize(cols[0], language)] = tuple((n, why) for n in nums)
    loans: dict[str, Loanword] = {}
    for line in data_lines(f"{language}_loanwords.tsv"):
        cols = line.split("\t") + ["", "", ""]
        word = normalize(cols[0], language)
        loans[word] = Loanword(word, cols[1].strip() == "refused", cols[2].strip(), cols[3].strip())
    variants: dict[str, str] = {}
    for line in data_lines(f"{language}_variants.tsv"):
        group = [normalize(w, language) for w in line.split("\t") if w.strip()]
        for w in group:
            variants[w] = group[0]
    meaning: dict[str, tuple] = {}  # letters, and position words, tied to a visible word's meaning
    for line in data_lines(f"{language}_meaning_letters.tsv") + data_lines(f"{language}_meaning_positions.tsv"):
        cols = line.split("\t")
        if len(cols) >= 2:
            meaning.setdefault(normalize(cols[1], language), ())
            meaning[normalize(cols[1], language)] += (unicodedata.normalize("NFC", cols[0].strip()),)
    derivations: dict[str, tuple] = {}
    for line in data_lines(f"{language}_derivations.tsv"):
        cols = line.split("\t")
        if len(cols) >= 2:
            base = normalize(cols[0], language)
            for d in cols[1].split(","):
                if d.strip():
                    derivations[normalize(d, language)] = derivations.get(normalize(d, language), ()) + (base,)
    bound = frozenset(line.split("\t")[0].strip() for line in data_lines(f"{language}_bound.txt"))
    derived_nouns: dict[tuple[str, str], float | None] = {}
    for line in data_lines(f"{language}_derived_nouns.tsv"):
        cols = line.split("\t")
        if len(cols) >= 3:
            derived_nouns[cols[0], cols[1]] = None if cols[2] == "-" else float(cols[2])
    return Tables(positions, letters, numbers, loans, variants, meaning, values, frozenset(numeral_only),
                  meaning_numbers, derivations, bound, _word_parts(f"{language}_meaning_parts.tsv", language),
                  _word_parts(f"{language}_accidental_cuts.tsv", language), derived_nouns,
                  _word_parts(f"{language}_unheard_bases.tsv", language),
                  _word_parts(f"{language}_bound_heads.tsv", language), _romanized(f"{language}_romanized_ko.tsv"))


def _romanized(name: str) -> dict[str, tuple[str, float]]:
    """spelling<TAB>Korean word<TAB>zipf rows: spelling -> (word, zipf)."""
    out: dict[str, tuple[str, float]] = {}
    for line in data_lines(name):
        cols = line.split("\t")
        if len(cols) >= 3:
            out[cols[0].strip()] = (cols[1].strip(), float(cols[2]))
    return out


def _word_parts(name: str, language: str) -> dict[str, tuple[str, ...]]:
    """A table of word<TAB>part rows (more columns are notes): word -> its parts, in file order."""
    out: dict[str, tuple[str, ...]] = {}
    for line in data_lines(name):
        cols = line.split("\t")
        if len(cols) >= 2 and cols[1].strip():
            word = normalize(cols[0], language)
            out[word] = out.get(word, ()) + (normalize(cols[1], language),)
    return out
