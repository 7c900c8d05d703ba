"""Korean morphology for the clue filter (RULES 4.3/4.4/4.7), on kiwipiepy.

Parts of a word come from the analyser, never from raw substrings: the best analyses Kiwi gives
for the word (top 5, within a score margin of the best) that read it as nouns (NNG/NNP/XR) with
only a determiner/prefix before, noun suffixes (XSN) after, and an optional particle or
derivational ending (거북이 = 거북+이, 거북함 = 거북+하+ㅁ). 눈사람 -> 눈+사람, 한강 -> 한+강,
블랙홀 -> 블랙+홀, while 강아지 has no such reading (강+아+이+지 is rejected) and 전투기's 기 is a
suffix (XSN). A Hangul proper noun of three or more syllables whose last syllable is a noun on its
own (두만강, 서울역) is read as name + that noun.
"""

from __future__ import annotations

import os
import re

from engine.clues.tables import normalize, tables
from engine.clues.types import FilterUnavailable
from engine.clues.wordinfo import WordInfo

#: Analyses scoring more than this below the best reading are not considered (log-probability).
MARGIN = 10.0
#: A compound of several known nouns is an established word when Kiwi's language model scores
#: the whole at least this much better than its pieces said alone (열대우림 +15, 음력생선 +5).
COMPOUND_GAIN = 8.0
#: wordfreq frequency at which an analyser-unknown Hangul string still counts as a known word.
WORDFREQ_MIN = 1e-6

CONTENT = {"NNG", "NNP", "XR"}
HANGUL_WORD = re.compile(r"^[\uac00-\ud7a3]+$")
SPLIT = re.compile(r"[\s\-]+")


def _kiwi():
    try:
        from kiwipiepy import Kiwi
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise FilterUnavailable(
            "the Korean clue filter needs kiwipiepy: pip install 'codenames-lab[filter]'"
        ) from exc
    workers = max(1, min(4, os.cpu_count() or 1))
    return Kiwi(num_workers=workers)


def _wordfreq_ko() -> dict:
    try:
        from wordfreq import get_frequency_dict
    except ImportError:
        return {}
    try:
        return get_frequency_dict("ko")
    except Exception:  # pragma: no cover - a broken wordfreq data install
        return {}


_FORKED_AWAY: list = []


class KoreanAnalyzer:
    language = "ko"

    def __init__(self) -> None:
        self._kiwi, self._kiwi_pid = _kiwi(), os.getpid()
        self.freq = _wordfreq_ko()
        self.tables = tables("ko")
        self._info: dict[str, WordInfo] = {}
        self._single: dict[str, tuple] = {}

    @property
    def kiwi(self):
        """The analyser of this process: a forked child gets its own (the parent's thread pool
        does not survive a fork, and a batch analysis there would hang)."""
        if self._kiwi_pid != os.getpid():
            _FORKED_AWAY.append(self._kiwi)  # never freed here: its destructor would wait for threads
            self._kiwi, self._kiwi_pid = _kiwi(), os.getpid()
        return self._kiwi

    # -- low level -----------------------------------------------------------------------------
    def _analyze_many(self, words: list[str]) -> list:
        if not words:
            return []
        if len(words) == 1:
            return [self.kiwi.analyze(words[0], top_n=5)]
        return list(self.kiwi.analyze(words, top_n=5))

    def _singles(self, forms) -> None:
        """Cache the best single reading of forms said alone: (score, tag, oov, n_tokens, form)."""
        todo = sorted({f for f in forms if f and f not in self._single})
        for form, res in zip(todo, self._analyze_many(todo)):
            toks, score = res[0][0], res[0][1]
            t0 = toks[0] if toks else None
            self._single[form] = (
                score,
                t0.tag if t0 is not None else "",
                any(t.oov for t in toks),
                len(toks),
                t0.form if t0 is not None else "",
            )

    def _known_alone(self, form: str, tags=("NNG", "NNP")) -> bool:
        score, tag, oov, n, f = self._single[form]
        return n == 1 and not oov and tag in tags and f == form

    # -- public --------------------------------------------------------------------------------
    def info(self, word: str) -> WordInfo:
        return self.info_many([word])[0]

    def info_many(self, words) -> list[WordInfo]:
        norm = [normalize(w, "ko") for w in words]
        todo = sorted({w for w in norm if w not in self._info})
        if todo:
            self._build_many(todo)
        return [self._info[w] for w in norm]

    def _build_many(self, todo: list[str]) -> None:
        multi = [w for w in todo if SPLIT.search(w)]
        pieces = sorted({p for w in multi for p in SPLIT.split(w) if p} | {w.replace(" ", "").replace("-", "") for w in multi})
        simple = [w for w in todo if not SPLIT.search(w)]
        simple_all = sorted(set(simple) | {p for p in pieces if p not in self._info})
        hangul = [w for w in simple_all if HANGUL_WORD.match(w)]
        results = dict(zip(hangul, self._analyze_many(hangul)))
        # Forms whose stand-alone score or reading the rules need.
        need = set()
        for w, res in results.items():
            best = res[0][0]
            content = [t.form for t in best if t.tag in CONTENT or t.tag == "NR"]
            if len(content) >= 2:
                need.update(content)
            if len(best) == 1 and best[0].tag == "NNP" and len(w) >= 3:
                need.update((w[:-1], w[-1]))
        self._singles(need)
        for w in simple_all:
            if w in self._info:
                continue
            if w in results:
                self._info[w] = self._build(w, results[w])
            else:
                self._info[w] = self._plain(w)
        for w in multi:
            self._info[w] = self._build_multi(w)

    def _plain(self, w: str) -> WordInfo:
        canon = self.tables.variants.get(w, w)
        return WordInfo(w, canon, frozenset({w, canon}), {}, bool(self.freq.get(w, 0) >= WORDFREQ_MIN), w.isdigit())

    def _build_multi(self, w: str) -> WordInfo:
        pieces = [p for p in SPLIT.split(w) if p]
        joined = "".join(pieces)
        parts: dict[str, bool] = {}
        for p in pieces:
            info = self._info[p]
            parts[p] = True
            for q, strong in info.parts.items():
                parts[q] = parts.get(q, False) or strong
        real = all(self._info[p].real for p in pieces)
        canon = self.tables.variants.get(w, w)
        return WordInfo(w, canon, frozenset({w, joined, canon}), parts, real, False)

    @staticmethod
    def _accept(tokens, word: str):
        """Noun pieces of one analysis, or None when the analysis is not a noun reading."""
        content: list[str] = []
        i, n = 0, len(tokens)
        if n and tokens[0].tag in ("MM", "XPN"):
            i = 1
        while i < n:
            t = tokens[i]
            if t.tag in CONTENT:
                if t.oov or t.form not in word:
                    return None
                content.append(t.form)
            elif t.tag == "XSN" and content:
                pass
            elif t.tag.startswith("J") and content and len(content[-1]) >= 2:
                if not all(x.tag.startswith("J") for x in tokens[i:]):
                    return None
                break
            elif t.tag in ("XSA", "XSV") and content:
                if not all(x.tag.startswith("E") for x in tokens[i + 1:]):
                    return None
                break
            else:
                return None
            i += 1
        return content or None

    def _build(self, w: str, analyses) -> WordInfo:
        best_tokens, best_score = analyses[0][0], analyses[0][1]
        parts: dict[str, bool] = {}
        affixes: set[str] = set()
        for tokens, score in analyses:
            if best_score - score >= MARGIN:
                continue
            affixes.update(t.form for t in tokens if t.tag in ("XSN", "XPN") and len(t.form) == 1)
            content = self._accept(tokens, w)
            if not content or content == [w]:
                continue
            long_sibling = len(content) > 1 and any(len(c) >= 2 for c in content)
            for c in content:
                if c == w:
                    continue
                strong = len(c) >= 2 or long_sibling
                parts[c] = parts.get(c, False) or strong
        if len(best_tokens) == 1 and best_tokens[0].tag == "NNP" and len(w) >= 3:
            head, last = w[:-1], w[-1]
            if self._known_alone(last):
                parts.setdefault(last, False)
                if self._known_alone(head):
                    parts[head] = True
        for p in list(parts):
            if len(p) == 1 and p in affixes:
                parts[p] = False
        oov = any(t.oov for t in best_tokens)
        content_tokens = [t for t in best_tokens if t.tag in CONTENT or t.tag == "NR"]
        if oov:
            real = self.freq.get(w, 0) >= WORDFREQ_MIN
        elif len(content_tokens) <= 1:
            real = True
        else:
            alone = sum(self._single[t.form][0] for t in content_tokens)
            real = (best_score - alone >= COMPOUND_GAIN) or self.freq.get(w, 0) >= WORDFREQ_MIN
        number = len(best_tokens) == 1 and best_tokens[0].tag == "NR"
        canon = self.tables.variants.get(w, w)
        return WordInfo(w, canon, frozenset({w, canon}), parts, real, number)
