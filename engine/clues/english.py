"""English morphology for the clue filter (RULES 4.3/4.4/4.7), on lemminflect (+ wordfreq).

Same word: the word and its lemmas (RAINS -> rain, MICE -> mouse). Parts: the words of a
multi-word entry (ICE CREAM), the two halves of a closed compound when both are common words of
three letters or more (RAINCOAT = rain + coat, RAINDROP = rain + drop), and the base of a
derivation by a common suffix when the derived word is rarer than its base (RAINY = rain + y).
CATEGORY is not cat + egory (no such word), WANT is not w + ant (too short).
"""

from __future__ import annotations

import math
import re

from engine.clues.tables import normalize, tables
from engine.clues.types import FilterUnavailable
from engine.clues.wordinfo import WordInfo

#: A compound half must be at least this common (wordfreq frequency; zipf 3.0).
PART_MIN = 1e-6
#: A word at least this common counts as a real word (zipf 2.0).
REAL_MIN = 1e-7
MIN_PART_LEN = 3
SUFFIXES = ("y", "ly", "ish", "less", "ful", "ness", "er", "ers", "ing", "ings", "ed", "like", "s", "es")
SPLIT = re.compile(r"[\s\-]+")
LATIN_WORD = re.compile(r"^[^\W\d_]+(?:'[^\W\d_]+)?$")


def _lemminflect():
    try:
        import lemminflect
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise FilterUnavailable(
            "the English clue filter needs lemminflect: pip install 'codenames-lab[filter]'"
        ) from exc
    return lemminflect


def _wordfreq_en() -> dict:
    try:
        from wordfreq import get_frequency_dict
    except ImportError:
        return {}
    try:
        return get_frequency_dict("en")
    except Exception:  # pragma: no cover
        return {}


class EnglishAnalyzer:
    language = "en"

    def __init__(self) -> None:
        self.lemminflect = _lemminflect()
        self.freq = _wordfreq_en()
        self.tables = tables("en")
        self._info: dict[str, WordInfo] = {}
        self._lemmas: dict[str, frozenset[str]] = {}

    def lemmas(self, w: str) -> frozenset[str]:
        got = self._lemmas.get(w)
        if got is None:
            got = frozenset(
                lem.casefold() for tup in self.lemminflect.getAllLemmas(w).values() for lem in tup
            )
            self._lemmas[w] = got
        return got

    def _may_be_adjective(self, w: str) -> bool:
        """Whether the lemmatiser knows `w` as an adjective, or does not know it at all."""
        readings = self.lemminflect.getAllLemmas(w)
        return not readings or "ADJ" in readings

    def _f(self, w: str) -> float:
        return self.freq.get(w, 0.0)

    def known(self, w: str) -> bool:
        if self.freq:
            return self._f(w) >= REAL_MIN or bool(self.lemmas(w))
        return bool(self.lemmas(w))

    def _common(self, w: str) -> bool:
        if len(w) < MIN_PART_LEN or not w.isalpha():
            return False
        if self.freq:
            return self._f(w) >= PART_MIN
        return bool(self.lemmas(w))

    def zipf(self, w: str) -> float:
        f = self._f(w)
        return math.log10(f * 1e9) if f > 0 else 0.0

    def info(self, word: str) -> WordInfo:
        return self.info_many([word])[0]

    def info_many(self, words) -> list[WordInfo]:
        out = []
        for raw in words:
            w = normalize(raw, "en")
            info = self._info.get(w)
            if info is None:
                info = self._build(w)
                self._info[w] = info
            out.append(info)
        return out

    def _parts(self, w: str) -> dict[str, bool]:
        parts: dict[str, bool] = {}
        if not w.isalpha():
            return parts
        n = len(w)
        for i in range(MIN_PART_LEN, n - MIN_PART_LEN + 1):
            left, right = w[:i], w[i:]
            if not self._common(left):
                continue
            right_ok = self._common(right) or any(self._common(r) for r in self.lemmas(right) if r != right)
            if right_ok:
                parts[left] = True
                parts[right] = True
                for r in self.lemmas(right):
                    parts[r] = True
        fw = self._f(w)
        for suf in SUFFIXES:
            if not w.endswith(suf):
                continue
            if suf == "y" and not self._may_be_adjective(w):
                continue  # -y derives adjectives (sunny, rainy); a noun such as penny is not pen + y
            stem = w[: -len(suf)]
            bases = {stem, stem + "e"}
            if len(stem) >= 2 and stem[-1] == stem[-2]:
                bases.add(stem[:-1])  # sunny -> sun
            if stem.endswith("i"):
                bases.add(stem[:-1] + "y")  # happiness -> happy
            for b in bases:
                if b != w and self._common(b) and (not self.freq or fw < self._f(b)):
                    parts[b] = True
        for p in list(parts):
            for lem in self.lemmas(p):
                parts.setdefault(lem, True)
        forms = {w} | self.lemmas(w)
        for f in forms:
            parts.pop(f, None)
        return parts

    def _build(self, w: str) -> WordInfo:
        canon = self.tables.variants.get(w, w)
        if SPLIT.search(w):
            pieces = [p for p in SPLIT.split(w) if p]
            infos = self.info_many(pieces)
            parts: dict[str, bool] = {}
            for p, info in zip(pieces, infos):
                for f in info.forms:
                    parts[f] = True
                for q in info.parts:
                    parts[q] = True
            joined = "".join(pieces)
            forms = frozenset({w, joined, " ".join(pieces), "-".join(pieces), canon})
            for f in forms:
                parts.pop(f, None)
            real = all(i.real for i in infos)
            return WordInfo(w, canon, forms, parts, real, False)
        forms = frozenset({w, canon} | self.lemmas(w) | {self.tables.variants.get(l, l) for l in self.lemmas(w)})
        number = w.isdigit() or w in self.tables.number_words
        real = w.isdigit() or (bool(LATIN_WORD.match(w)) and self.known(w))
        return WordInfo(w, canon, forms, self._parts(w), real, number)
