"""A guesser that reads people: which card would a person pick for this clue?

`human:use-m3+glove-50+minilm` scores every candidate card for a clue from several embedding
backends at once. Per backend (see `FEATURES`):

* where the clue-card cosine stands on this board: the cosine itself, its z-score, the gap to the
  best card, reciprocal rank, a best-card flag;
* the clue giver's view, `rev`: how many words of a large reference vocabulary (the language's clue
  vocabulary, 27,900 English words) are closer to the card than the clue is (-log(1 + that count)).
  A person gives a clue that is among the card's own associates, so a card that the clue is
  merely "somewhat close to", like a hub word close to everything, loses here;
* two second-order links: the clue against the card's 10 nearest reference words (`nbw`) and the
  card against the clue's 10 nearest (`nbc`) (`season` reaches `fall` through `autumn`);
* optionally the card's hubness (`hub`, mean similarity to its nearest common words);

and across backends the card's word frequency (`zipf`), its spelling overlap with the clue (`lex`,
`superman` -> `superhero`) and whether clue and card glue into a known word (`comp`/`compound`,
`lap` + `top`). A linear utility over these features, fitted as a conditional logit (the card the
person chose against the cards they did not) on the Cultural Codes validation split, ranks the
cards; its softmax over the cards is the model's probability that a person picks each one.

The weights live in `data/models/human_guesser.json` (a few numbers per backend combination;
`python -m experiments.tools.fit_human_model --data DIR` refits them).

**Clue memory.** People read a card the way earlier people clued it: `round` is `circle`, `ball`,
`sphere`. The fit also keeps, per card of the data's boards and per backend, a *prototype*: the
normalised sum of the unit vectors of the clues people gave or followed for that card, plus the
card's own vector (`MEMORY_SHRINK`). These are fitted parameters, no clue is stored
(`data/models/human_guesser.memory.npz`). When at least half the candidate cards have a prototype
(`MEMORY_COVERAGE`; a card without one is read by its own vector, on its own scale: `memory_cosines`), the
utility is `c * u + sum_b w_b * mem_b`, `mem_b` the clue's cosine to the card's prototype under
backend b, as a z-score among the row's cards (`standard_cosines`; a second conditional logit over
the first one's utility `u`, fitted leaving each row's own game out of the prototypes). `memory=0`
switches it off.

**Plain stage.** On any other board (mostly cards no person has clued: every board of the toolkit's
own lists) the model is its plain stage, fitted apart, which reads use-m3 bare (`whale`, not `the
whale`, `PLAIN_READINGS`): there it follows people better that way, while the memory's stage does
better on `the WORD` (docs/eval_human.md).

Playing Duet (`next_guess`), the guesser reads each clue with that model over the cards it may
still touch (RULES 3.7) and combines it with the key structure (RULES 3.2,
`agents.partner_model.duet_partner_prior`), as `duet-bayes` does with raw cosines:
P(green) = pG e / (pG e + pX + pN), e = exp(u - median u). It always makes the turn's first guess
(RULES 3.4), goes on after a correct one only while the best card's P(green) is at least
`threshold`, stops at the clue's number except for `spare` guesses on the unresolved targets of
earlier clues (when their chance is at least `spare_confidence`), and in sudden death (RULES 3.9)
guesses only when a card's chance is at least `sd_confidence` or when nobody else can guess. On
the last clue its partner gives before sudden death (`last`, as `duet-bayes`) it neither stops when
unsure nor at the number: it guesses on while a card's chance is at least `last` (0), for there a
beige only ends the turn, as a stop does, and in sudden death it would lose the game.

Spec parameters:

* `model=fitted` (default) or `model=nearest` (the mean raw cosine of the backends: plain
  nearest-neighbour guessing, which needs no fitted weights and works with any backend, `fake` too);
* `threshold=0.35`, `risk=2`, `spare=1`, `spare_confidence=0.6`, `sd_confidence=0.5`, `last=0`
  (above; `last=1` stops on the last clue as on any other);
* `weights=PATH`: another model JSON (its clue memory, if any, beside it, in the same folder); a
  malformed one is one ValueError naming the file (`check_model`, `ClueMemory.load`);
* `memory=1` (default) or `memory=0`: use the clue memory where it covers half the board or more (above).

No backend loads at construction (the model JSON and the small clue memory do): backends (and
torch, for minilm) load on the first guess, or in `prepare()`, which a simulator calls once before
forking its workers.
"""

from __future__ import annotations

import json
import math
import zipfile
import zlib
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from engine.paths import data_path

from .base import Guesser, require_observation
from .spec import AgentSpec, _show, at_least, between, check_params, one_of, whole

DEFAULT_BACKENDS = ("use-m3", "glove-50", "minilm")
MODEL_PATH = data_path("models", "human_guesser.json")
MODEL_FORMAT = 4  # 4: a plain stage of its own; 3: the memory stage reads z-scores, 2 centred cosines
#: how the plain stage (boards off the clue memory) reads a backend, where not as the backend does:
#: use-m3 reads an English word bare there, not as `the WORD` (docs/eval_human.md)
PLAIN_READINGS = {"use-m3": "bare"}
READINGS = ("bare",)
#: every per-backend feature the builder knows, and the global ones
FEATURES = ("sim", "z", "gap", "rr", "top", "hub", "rev", "nbw", "nbc")
GLOBAL = ("zipf", "lex", "comp", "compound")
HUB_VOCAB = 2000
HUB_K = 10
NB_SIZE = 10000    # the neighbour features look among the commonest NB_SIZE reference words
NB_K = 10          # ... at a word's NB_K nearest
NB_TOP = 3         # ... and average the NB_TOP best links
REV_HEAD = 2000    # reverse ranks below this are exact, above it counted in steps of REV_STEP
REV_STEP = 50
COMPOUND_ZIPF = 1.5
CHANCE_CAP = 0.9   # one clue never makes a card certain: the partner may mean another card
PLAY_DEFAULTS = {"threshold": 0.35, "risk": 2.0, "spare": 1, "spare_confidence": 0.6, "sd_confidence": 0.5,
                 "last": 0.0}
#: what each parameter may be (agents.spec.check_params); `weights` is a model file's path
LIMITS = {"threshold": between(0, 1), "risk": at_least(0), "spare": whole(0), "spare_confidence": between(0, 1),
          "sd_confidence": between(0, 1), "last": between(0, 1), "model": one_of("fitted", "nearest"),
          "hub": one_of(0, 1)}
MEMORY_SHRINK = 1.0  # a card's own vector counts as this many clues in its prototype
#: the memory's stage scores a board where at least this share of the cards has a prototype (a card
#: without one reads as its own vector); below it the plain stage does better (docs/eval_human.md)
MEMORY_COVERAGE = 0.5
MAX_MAGNITUDE = 1e6  # a model file's weights and scales are at most this big (the fitted ones are below 2)
MIN_SCALE = 1e-9     # ... and a scale at least this small (the fit's floor): the utility stays finite
REFIT = "python -m experiments.tools.fit_human_model --data DIR"


def model_key(backends: Sequence[str]) -> str:
    return "+".join(backends)


def feature_names(backends: Sequence[str], per: Sequence[str] = FEATURES, glob: Sequence[str] = GLOBAL) -> list[str]:
    return [f"{b}:{f}" for b in backends for f in per] + list(glob)


def plain_readings(backends: Sequence[str]) -> dict[str, str]:
    """The readings of `PLAIN_READINGS` among `backends` ({}: the plain stage reads as the first)."""
    return {b: r for b, r in PLAIN_READINGS.items() if b in backends}


def _zipf(word: str, language: str) -> float:
    try:
        from wordfreq import zipf_frequency
    except ImportError:  # wordfreq is optional: a flat frequency then
        return 0.0
    return float(zipf_frequency(word, language))


def _trigrams(word: str) -> set[str]:
    w = f"#{word.lower()}#"
    return {w[i:i + 3] for i in range(len(w) - 2)}


def lexical_overlap(clue: str, word: str) -> float:
    """1 when one word holds the other (4+ letters), else the Jaccard index of letter trigrams."""
    a, b = clue.lower(), word.lower()
    if min(len(a), len(b)) >= 4 and (a in b or b in a):
        return 1.0
    ta, tb = _trigrams(a), _trigrams(b)
    return len(ta & tb) / len(ta | tb) if ta and tb else 0.0


def hub_vocabulary(language: str = "en", size: int = HUB_VOCAB) -> list[str]:
    """The commonest alphabetic words of the language (wordfreq's list, offline)."""
    from wordfreq import top_n_list

    words = [w for w in top_n_list(language, size * 3) if w.isalpha() and len(w) >= 3]
    return words[:size]


def reference_vocabulary(language: str = "en") -> list[str]:
    """The words the clue-giver features compare against: the language's clue vocabulary, commonest first."""
    from .wordlists import clue_vocabulary

    return list(clue_vocabulary(language).words)


def products(rows: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """`rows @ ref.T`, each row's products the same whatever rows come with it (a word's per-word
    tables, computed with the other new words of its row, must not depend on them). A product of
    one row takes BLAS's matrix-vector path, whose sums differ from the matrix product's by ~1e-7,
    so one row is computed as two (itself twice)."""
    if len(rows) == 1:
        return (np.concatenate([rows, rows]) @ ref.T)[:1]
    return rows @ ref.T


class _Reference:
    """One backend's reference vocabulary: its words (covered ones, in order) and unit vectors."""

    def __init__(self, words: list[str], vectors: np.ndarray):
        self.words = words
        self.vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        self.index = {w: i for i, w in enumerate(words)}
        self.nb = self.vectors[:NB_SIZE]


class FeatureBuilder:
    """Per-candidate feature rows for (clue, candidates), from the given embedding backends.

    `features`: the feature names to build (default: all of `feature_names(backends)`, less the
    hubness ones when `hub=False`). `reference`: the reference word list (default: the language's
    clue vocabulary; tests pass a short one). `readings`: backend -> how it reads words (one of `READINGS`),
    where not as the backend itself does."""

    def __init__(self, backends: Sequence[str], language: str = "en", hub: bool = True,
                 embeddings: Mapping[str, object] | None = None, features: Sequence[str] | None = None,
                 reference: Sequence[str] | None = None, readings: Mapping[str, str] | None = None):
        self.backend_names = tuple(backends)
        self.readings = dict(readings or {})
        for b, r in self.readings.items():
            if b not in self.backend_names or r not in READINGS:
                raise ValueError(f"human guesser: reading {b}={r!r}: the backend must be among "
                                 f"{'+'.join(self.backend_names)} and the reading one of {', '.join(READINGS)}")
        self.language = language
        self.hub = bool(hub)
        if features is None:
            features = [n for n in feature_names(self.backend_names) if self.hub or not n.endswith(":hub")]
        known = set(feature_names(self.backend_names))
        unknown = [n for n in features if n not in known]
        if unknown:
            raise ValueError(f"human guesser: unknown feature(s) {', '.join(unknown)} for backends "
                             f"{'+'.join(self.backend_names)}")
        self._names = list(features)
        self._reference_words = None if reference is None else list(reference)
        self._given = dict(embeddings or {})
        self._emb: dict[str, object] = {}
        self._vec: dict[str, dict[str, np.ndarray | None]] = {b: {} for b in self.backend_names}
        self._ref: dict[str, _Reference] = {}
        self._rev: dict[str, dict[str, tuple | None]] = {b: {} for b in self.backend_names}
        self._nbr: dict[str, dict[str, np.ndarray | None]] = {b: {} for b in self.backend_names}
        self._hubref: dict[str, np.ndarray] = {}
        self._hubval: dict[str, dict[str, float]] = {b: {} for b in self.backend_names}
        self._zipf: dict[str, float] = {}
        self._twin: dict[str, "FeatureBuilder"] = {}   # backends whose tables another builder keeps

    def share(self, other: "FeatureBuilder") -> None:
        """Read the backends both builders read alike from `other`'s embeddings and per-word tables:
        the same numbers, computed and kept once (the human guesser's two stages)."""
        if other.language != self.language or other._reference_words != self._reference_words:
            return
        for b in self.backend_names:
            if b in other.backend_names and self.readings.get(b) == other.readings.get(b):
                for mine, theirs in ((self._vec, other._vec), (self._rev, other._rev), (self._nbr, other._nbr),
                                     (self._hubval, other._hubval)):
                    mine[b] = theirs[b]
                self._twin[b] = other
        self._zipf = other._zipf

    def names(self) -> list[str]:
        return list(self._names)

    def _wants(self, backend: str, feature: str) -> bool:
        return f"{backend}:{feature}" in self._names

    # -- embeddings ----------------------------------------------------------
    def embedding(self, name: str):
        if name in self._twin:
            return self._twin[name].embedding(name)
        if name not in self._emb:
            if name in self._given:
                emb = self._given[name]
            else:
                from .embeddings import get_backend

                emb = get_backend(name)
            langs = getattr(emb, "languages", ())
            if langs and self.language not in langs:
                raise ValueError(f"backend {name!r} does not cover language {self.language!r} (it covers {', '.join(langs)})")
            if not getattr(emb, "has_vectors", True):
                raise ValueError(f"backend {name!r} exposes no vectors; the human guesser needs vector backends")
            if name in self.readings:   # "bare", the one reading: a backend without `bare()` reads so already
                emb = emb.bare() if hasattr(emb, "bare") else emb
            self._emb[name] = emb
        return self._emb[name]

    def embeddings(self) -> list:
        return [self.embedding(n) for n in self.backend_names]

    def vectors(self, name: str, words: Sequence[str]) -> list[np.ndarray | None]:
        """Unit vectors (None for words the backend does not cover), memoised per word."""
        memo = self._vec[name]
        new = [w for w in dict.fromkeys(words) if w not in memo]
        if new:
            emb = self.embedding(name)
            ok = emb.covers(new)
            covered = [w for w, c in zip(new, ok) if c]
            # one word at a time: a sentence encoder's vector for a word moves (~1e-7) with the other
            # words of its batch, so a word no disk cache seeded (a held-out clue or card) would
            # read another vector with the row order; alone it reads one
            vecs = [emb.vectors([w])[0] for w in covered]
            for w in new:
                memo[w] = None
            for w, v in zip(covered, vecs):
                memo[w] = np.asarray(v, dtype=np.float32)
        return [memo[w] for w in words]

    def reference(self, name: str) -> _Reference:
        if name in self._twin:
            return self._twin[name].reference(name)
        if name not in self._ref:
            emb = self.embedding(name)
            words = self._reference_words if self._reference_words is not None else reference_vocabulary(self.language)
            words = list(dict.fromkeys(words))
            words = [w for w, ok in zip(words, emb.covers(words)) if ok]
            if self._reference_words is None:
                from .embeddings import embedded_vocabulary

                try:  # the clue vocabulary: disk-cached and shared with the spymasters in this process
                    ev = embedded_vocabulary(emb, words)
                    vecs, words = ev.vectors, list(ev.words)
                except Exception:  # a read-only or odd cache: compute in memory
                    vecs = emb.vectors(words)
            else:
                vecs = emb.vectors(words) if words else np.zeros((0, getattr(emb, "dim", 1)), np.float32)
            self._ref[name] = _Reference(words, vecs)
        return self._ref[name]

    def _hub_reference(self, name: str) -> np.ndarray:
        if name in self._twin:
            return self._twin[name]._hub_reference(name)
        if name not in self._hubref:
            from .embeddings import cached_vectors

            emb = self.embedding(name)
            words = hub_vocabulary(self.language)
            words = [w for w, ok in zip(words, emb.covers(words)) if ok]
            try:
                self._hubref[name] = cached_vectors(emb, words)
            except Exception:  # a read-only or odd cache: compute in memory
                self._hubref[name] = emb.vectors(words)
        return self._hubref[name]

    def hubness(self, name: str, words: Sequence[str]) -> np.ndarray:
        """Mean cosine of each word to its HUB_K nearest common words (itself excluded)."""
        memo = self._hubval[name]
        new = [w for w in dict.fromkeys(words) if w not in memo]
        if new:
            ref = self._hub_reference(name)
            vecs = self.vectors(name, new)
            known = [(w, v) for w, v in zip(new, vecs) if v is not None]
            for w, v in zip(new, vecs):
                if v is None or len(ref) <= HUB_K:
                    memo[w] = np.nan
            if len(ref) > HUB_K:
                for c in range(0, len(known), self.CHUNK):
                    part = known[c:c + self.CHUNK]
                    sims = products(np.stack([v for _, v in part]), ref)
                    sims[sims >= 0.9999] = -np.inf  # the word itself, when it is a common word
                    top = -np.partition(-sims, HUB_K - 1, axis=1)[:, :HUB_K]
                    for (w, _), row in zip(part, top):
                        memo[w] = float(np.mean(row))
        return np.array([memo[w] for w in words], dtype=np.float64)

    def _tables(self, name: str, words: Sequence[str]) -> None:
        """Per word: its cosines to the reference words, descending (the first REV_HEAD exactly,
        the rest every REV_STEP-th; itself excluded), and its NB_K + 1 nearest among the NB_SIZE
        commonest reference words (itself excluded; ties by index). Computed CHUNK words at a time
        (one matrix product per chunk: a board list takes seconds, not a minute)."""
        rev, nbr = self._rev[name], self._nbr[name]
        if len(words) == 1 and words[0] in rev:
            return
        todo = [w for w in dict.fromkeys(words) if w not in rev]
        if not todo:
            return
        ref = self.reference(name)
        vecs = self.vectors(name, todo)
        known = [(w, v) for w, v in zip(todo, vecs) if v is not None]
        for w, v in zip(todo, vecs):
            if v is None or not len(ref.words):
                rev[w], nbr[w] = None, None
        if not len(ref.words):
            return
        nb_n = len(ref.nb)
        for c in range(0, len(known), self.CHUNK):
            part = known[c:c + self.CHUNK]
            sims = products(np.stack([v for _, v in part]), ref.vectors)
            sims[sims >= 0.9999] = -2.0  # the word itself (and exact duplicates): never counted
            srt = -np.sort(-sims, axis=1)
            for row, (w, _) in enumerate(part):
                s = srt[row]
                s = s[s > -1.5]
                rev[w] = (s[:REV_HEAD].astype(np.float32), s[REV_HEAD::REV_STEP].astype(np.float32))
                if w not in nbr:
                    nbr[w] = self._nearest(ref, w, sims[row, :nb_n]) if nb_n else None

    CHUNK = 128

    def reverse_rank(self, name: str, word: str, sim: float) -> float:
        """About how many reference words are closer to `word` than cosine `sim` (NaN: unknown)."""
        self._tables(name, [word])
        table = self._rev[name][word]
        if table is None or np.isnan(sim):
            return np.nan
        head, tail = table
        above = int(np.searchsorted(-head, -(sim + 1e-6)))
        if above < len(head):
            return float(above)
        return float(len(head) + REV_STEP * int(np.searchsorted(-tail, -(sim + 1e-6))))

    def neighbours(self, name: str, word: str) -> np.ndarray | None:
        """Indices of the word's NB_K + 1 nearest among the NB_SIZE commonest reference words (itself
        excluded; ties by index). A word with no tables yet (a clue) gets its neighbours alone."""
        nbr = self._nbr[name]
        if word not in nbr:
            v = self.vectors(name, [word])[0]
            ref = self.reference(name)
            if v is None or not len(ref.nb):
                nbr[word] = None
            else:
                nbr[word] = self._nearest(ref, word, products(v[None, :], ref.nb)[0])
        return nbr[word]

    @staticmethod
    def _nearest(ref: _Reference, word: str, sn: np.ndarray) -> np.ndarray:
        sn = np.where(sn >= 0.9999, -2.0, sn)  # the word itself (and exact duplicates)
        k = min(len(sn), NB_K + 3)
        top = np.argpartition(-sn, k - 1)[:k]
        top = top[np.lexsort((top, -sn[top]))]
        top = [int(j) for j in top if sn[j] > -1.5 and ref.words[j] != word]
        return np.array(top[:NB_K + 1], dtype=np.int64)

    @staticmethod
    def _top_mean(sims: np.ndarray, valid: np.ndarray) -> np.ndarray:
        """Per row: the mean of the NB_TOP best of the first NB_K valid entries (NaN: none valid)."""
        valid = valid & (np.cumsum(valid, axis=1) <= NB_K)
        count = valid.sum(axis=1)
        s = -np.sort(-np.where(valid, sims, -np.inf), axis=1)[:, :NB_TOP]
        take = np.arange(s.shape[1])[None, :] < np.minimum(count, NB_TOP)[:, None]
        total = np.where(take, s, 0.0).sum(axis=1)
        return np.where(count > 0, total / np.maximum(np.minimum(count, NB_TOP), 1), np.nan)

    def _links_to_clue(self, name: str, cands: Sequence[str], clue: str, cvec: np.ndarray | None) -> np.ndarray:
        """`nbw`: per card, the clue's best links to the card's nearest reference words (the clue left out)."""
        out = np.full(len(cands), np.nan)
        if cvec is None:
            return out
        ref = self.reference(name)
        self._tables(name, cands)
        rows = [i for i, w in enumerate(cands) if self._nbr[name][w] is not None and len(self._nbr[name][w])]
        if not rows:
            return out
        idx = np.full((len(rows), NB_K + 1), -1, dtype=np.int64)
        for r, i in enumerate(rows):
            nb = self._nbr[name][cands[i]]
            idx[r, :len(nb)] = nb
        j = ref.index.get(clue, -2)
        valid = (idx >= 0) & (idx != j)
        sims = ref.nb[np.maximum(idx, 0)] @ cvec
        out[rows] = self._top_mean(sims.astype(np.float64), valid)
        return out

    def _links_from_clue(self, name: str, clue: str, cands: Sequence[str],
                         wvecs: Sequence[np.ndarray | None]) -> np.ndarray:
        """`nbc`: per card, its best links to the clue's nearest reference words (the card left out)."""
        out = np.full(len(cands), np.nan)
        nb = self.neighbours(name, clue)
        rows = [i for i, v in enumerate(wvecs) if v is not None]
        if nb is None or not len(nb) or not rows:
            return out
        ref = self.reference(name)
        W = np.stack([wvecs[i] for i in rows])
        sims = (W @ ref.nb[nb].T).astype(np.float64)            # (cards, neighbours)
        jj = np.array([ref.index.get(cands[i], -2) for i in rows])
        valid = nb[None, :] != jj[:, None]
        out[rows] = self._top_mean(sims, valid)
        return out

    def zipf(self, words: Sequence[str]) -> np.ndarray:
        for w in words:
            if w not in self._zipf:
                self._zipf[w] = _zipf(w, self.language)
        return np.array([self._zipf[w] for w in words], dtype=np.float64)

    def prepare(self, words: Sequence[str]) -> None:
        """Compute everything per word for `words` (the board list) now, in a fixed order."""
        words = list(dict.fromkeys(words))
        for name in self.backend_names:
            self.vectors(name, words)
            if any(self._wants(name, f) for f in ("rev", "nbw", "nbc")):
                self._tables(name, words)
            if self._wants(name, "hub"):
                self.hubness(name, words)
        self.zipf(words)

    # -- features --------------------------------------------------------------
    @staticmethod
    def _filled(x: np.ndarray) -> np.ndarray:
        ok = ~np.isnan(x)
        if not ok.any():
            return np.zeros(len(x))
        return np.where(ok, x, x[ok].mean())  # unknown: average, neither favoured nor shunned

    def features(self, clue: str, candidates: Sequence[str]) -> np.ndarray:
        """(len(candidates), len(names())) float64."""
        n = len(candidates)
        if not n:
            return np.zeros((0, len(self._names)))
        cands = list(candidates)
        cols: dict[str, np.ndarray] = {}
        for name in self.backend_names:
            cvec = self.vectors(name, [clue])[0]
            wvecs = self.vectors(name, cands)
            raw = np.full(n, np.nan)
            if cvec is not None:
                for i, v in enumerate(wvecs):
                    if v is not None:
                        raw[i] = float(v @ cvec)
            known = ~np.isnan(raw)
            f: dict[str, np.ndarray] = {}
            if known.any():
                sim = self._filled(raw)
                sd = sim.std()
                order = np.argsort(-sim, kind="stable")
                ranks = np.empty(n)
                ranks[order] = np.arange(n)
                f["sim"] = sim - sim.mean()
                f["z"] = (sim - sim.mean()) / sd if sd > 1e-9 else np.zeros(n)
                f["gap"] = sim - sim.max()
                f["rr"] = 1.0 / (1.0 + ranks)
                f["top"] = (ranks == 0).astype(float)
                if self._wants(name, "rev"):
                    self._tables(name, cands)
                    rev = np.array([self.reverse_rank(name, w, s) for w, s in zip(cands, raw)])
                    f["rev"] = -np.log1p(self._filled(rev))
                if self._wants(name, "nbw"):
                    x = self._filled(self._links_to_clue(name, cands, clue, cvec))
                    f["nbw"] = x - x.mean()
                if self._wants(name, "nbc"):
                    x = self._filled(self._links_from_clue(name, clue, cands, wvecs))
                    f["nbc"] = x - x.mean()
            # a backend that knows neither the clue nor any card says nothing here: zeros
            if self._wants(name, "hub"):
                h = self._filled(self.hubness(name, cands))
                f["hub"] = h - h.mean()
            for feat in FEATURES:
                key = f"{name}:{feat}"
                if key in self._names:
                    cols[key] = f.get(feat, np.zeros(n))
        if "zipf" in self._names:
            zf = self.zipf(cands)
            cols["zipf"] = zf - zf.mean()
        if "lex" in self._names:
            cols["lex"] = np.array([lexical_overlap(clue, w) for w in cands])
        if "comp" in self._names or "compound" in self._names:
            glued = [max(self.zipf([clue + w, w + clue])) for w in cands]
            cols["comp"] = np.array(glued, dtype=np.float64)
            cols["compound"] = (cols["comp"] >= COMPOUND_ZIPF).astype(float)
        return np.column_stack([cols[k] for k in self._names])


def standard_cosines(cvec: np.ndarray | None, protos: np.ndarray) -> np.ndarray:
    """The clue's cosine to each prototype row as z-scores among the rows (zeros for a clue with no
    vector, or cosines all alike). In each clue's own units, as the first stage's `z`: a clue whose
    prototypes spread wide says no more than one whose prototypes sit close (nested CV 0.694 / 0.758
    against 0.685 / 0.751 for the cosines less their mean, format 2)."""
    if cvec is None or not len(protos):
        return np.zeros(len(protos))
    c = (protos @ cvec).astype(np.float64)
    c -= c.mean()
    sd = c.std()
    return c / sd if sd > 1e-9 else np.zeros(len(c))


def memory_cosines(cvec: np.ndarray | None, protos: np.ndarray, own: np.ndarray, clued: np.ndarray) -> np.ndarray:
    """The memory's column for one clue: a card with a prototype (`clued`) reads the clue's cosine
    to it as a z-score among those cards (`standard_cosines`); a card without one reads the clue's
    cosine to its own vector as a z-score among every card's own-vector cosines. A clue sits closer
    to a prototype (a mean of clue vectors) than to any card's own vector, so read on the
    prototypes' scale an unclued card ranked low whatever the clue (held out with a quarter of
    the cards unclued, people picked one 24% of the time and the model 20%). Every card clued, or
    fewer than two (no scale of their own): `standard_cosines` of the prototypes, an unclued card's
    being its own vector."""
    clued = np.asarray(clued, dtype=bool)
    if clued.all() or clued.sum() < 2 or cvec is None:
        return standard_cosines(cvec, protos)
    out = np.zeros(len(protos))
    out[clued] = standard_cosines(cvec, protos[clued])
    out[~clued] = standard_cosines(cvec, own)[~clued]
    return out


def prototypes(sums: np.ndarray, own: np.ndarray, shrink: float = MEMORY_SHRINK) -> np.ndarray:
    """Unit rows of `sums + shrink * own` (the summed clue vectors and the card's own vector)."""
    v = np.asarray(sums, dtype=np.float64) + shrink * np.asarray(own, dtype=np.float64)
    n = np.linalg.norm(v, axis=1, keepdims=True)
    return (v / np.where(n > 0, n, 1.0)).astype(np.float32)


class ClueMemory:
    """Per card and backend, the prototype of the clues people gave or followed for it (see the
    module docstring): `words` and one (len(words), dim) array per backend."""

    def __init__(self, words: Sequence[str], vectors: Mapping[str, np.ndarray]):
        self.words = list(words)
        self.index = {w: i for i, w in enumerate(self.words)}
        self.vectors = {b: np.asarray(v, dtype=np.float32) for b, v in vectors.items()}
        self.source: Path | None = None   # the file it was loaded from (load)
        for b, v in self.vectors.items():
            if v.shape[0] != len(self.words):
                raise ValueError(f"clue memory: {b} has {v.shape[0]} rows for {len(self.words)} words")

    def coverage(self, cards: Sequence[str], backends: Sequence[str]) -> float:
        """The share of `cards` with a prototype (0 when a backend has no vectors here)."""
        if not cards or not all(b in self.vectors for b in backends):
            return 0.0
        return sum(w in self.index for w in cards) / len(cards)

    def check_size(self, backend: str, size: int) -> None:
        """The backend's vectors have `size` dimensions (known only once it loads): so must the memory's."""
        have = self.vectors[backend].shape[1]
        if have != size:
            raise ValueError(f"{self.source or 'the clue memory'} is not a clue memory for {backend} (its vectors "
                             f"have {have} dimensions, the backend's {size}); refit the human model ({REFIT})")

    def columns(self, backend: str, cvec: np.ndarray | None, cards: Sequence[str],
                own: Sequence[np.ndarray | None] = ()) -> np.ndarray:
        """The clue's z-scored cosine to each card's prototype (`memory_cosines`); a card with none
        is read by its own vector (`own[i]`, its unit vector under the backend, or None: no
        reading), on the scale of the row's own-vector cosines, not the prototypes'."""
        if cvec is not None:
            self.check_size(backend, len(cvec))
        table = self.vectors[backend]
        protos = np.zeros((len(cards), table.shape[1]), dtype=np.float32)
        owns = np.zeros_like(protos)
        clued = np.zeros(len(cards), dtype=bool)
        for i, w in enumerate(cards):
            if i < len(own) and own[i] is not None:
                owns[i] = own[i]
            if w in self.index:
                protos[i] = table[self.index[w]]
                clued[i] = True
            else:
                protos[i] = owns[i]
        return memory_cosines(cvec, protos, owns, clued)

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, words=np.array(self.words), **{f"v:{b}": v for b, v in self.vectors.items()})

    @classmethod
    def load(cls, path: str | Path) -> "ClueMemory":
        """The memory `save` wrote: an .npz of `words` (distinct card words) and per backend b a
        `v:b` array of finite floats, one row per word. Anything else is one ValueError naming the
        file (never a pickle: allow_pickle=False)."""
        path = Path(path).expanduser()
        try:
            z = np.load(path, allow_pickle=False)
            if not isinstance(z, np.lib.npyio.NpzFile):
                raise ValueError("a single array, not an .npz archive")
            with z:
                if "words" not in z.files:
                    raise ValueError("no words array")
                words = z["words"]
                if words.ndim != 1 or words.dtype.kind != "U" or len(set(words.tolist())) != len(words):
                    raise ValueError("words must be one row of distinct strings")
                vectors = {k[2:]: z[k] for k in z.files if k.startswith("v:")}
            for b, v in vectors.items():
                if v.ndim != 2 or v.dtype.kind != "f" or v.shape != (len(words), v.shape[1]) or not v.shape[1]:
                    raise ValueError(f"v:{b} must be a ({len(words)}, dimension) float array, not {v.dtype} "
                                     f"{v.shape}")
                if not np.isfinite(v).all():
                    raise ValueError(f"v:{b} holds NaN or infinite values")
        except (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile, zlib.error) as exc:
            raise ValueError(f"{path} is not a clue memory ({exc}); refit the human model ({REFIT})") from None
        memory = cls(words.tolist(), vectors)
        memory.source = path
        return memory


def memory_path(model_path: str | Path, data: Mapping) -> Path | None:
    """The clue memory beside a model JSON (None: the model has none). Its `memory_file` must lead
    to a file in the model's folder (or below it): one that leads out of it (`../x`, an absolute
    path, a link to elsewhere) is refused with a ValueError."""
    name = data.get("memory_file")
    if not name:
        return None
    folder = Path(model_path).expanduser().parent
    path = folder / name
    try:
        inside = path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError, ValueError):  # a link loop; a NUL byte
        inside = False
    if not inside:
        raise ValueError(f"{model_path}: memory_file {name!r} is not in the model's folder {folder}; refit the "
                         f"human model ({REFIT})")
    return path


def check_model(data, where: str | Path) -> dict:
    """`data` (a model JSON's content, from `where`) if it is a human-guesser model of format
    MODEL_FORMAT, else one ValueError naming `where` and what is wrong. Per entry of `models`:
    `backends` and `features` (known for those backends) non-empty lists of distinct names,
    `weights` and `scale` one finite number per feature (|x| <= MAX_MAGNITUDE, scale >= MIN_SCALE),
    `hub` a boolean; `plain` (optional) the same for the plain stage, with `reading` mapping some of
    the entry's backends to a reading of `READINGS`; and `memory` (optional) `backends` among the
    entry's with `weights` and `scale` of one more number each. `memory_file` (optional) is a file
    name (memory_path checks where it leads). Other keys (figures, notes) are not read."""
    def fail(what: str | None = None):
        raise ValueError(f"{where} is not a human-guesser model of format {MODEL_FORMAT}"
                         f"{': ' + what if what else ''}; refit it ({REFIT})")

    def names(value, what: str) -> list:
        if (not isinstance(value, list) or not value
                or not all(isinstance(v, str) and v and v.isprintable() for v in value)):
            fail(f"{what} must be a non-empty list of names")
        if len(set(value)) != len(value):
            fail(f"{what} names one twice")
        return value

    def numbers(value, n: int, what: str, least: float) -> None:
        if not isinstance(value, list) or len(value) != n:
            fail(f"{what} must be a list of {n} numbers")
        for v in value:
            try:
                x = float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else math.nan
            except OverflowError:
                x = math.inf
            if not least <= x <= MAX_MAGNITUDE:
                shown = type(v).__name__ if math.isnan(x) and not isinstance(v, float) else f"{x:g}"
                fail(f"{what} must hold numbers from {least:g} to {MAX_MAGNITUDE:g}, not {shown}")

    if not isinstance(data, dict):
        fail("its top level is not an object")
    if data.get("format") != MODEL_FORMAT:
        fail()
    models = data.get("models")
    if not isinstance(models, dict) or not models:
        fail("models must be a non-empty object")
    memory_file = data.get("memory_file")
    if memory_file is not None and not (isinstance(memory_file, str) and "\0" not in memory_file):
        fail("memory_file must be a file name")
    def stage(entry: dict, backends: list, at: str) -> None:
        features = names(entry.get("features"), f"{at}.features")
        unknown = set(features) - set(feature_names(backends))
        if unknown:
            fail(f"{at}.features: unknown feature(s) {', '.join(sorted(unknown))} for backends {model_key(backends)}")
        numbers(entry.get("weights"), len(features), f"{at}.weights", -MAX_MAGNITUDE)
        numbers(entry.get("scale"), len(features), f"{at}.scale", MIN_SCALE)
        if not isinstance(entry.get("hub", False), bool):
            fail(f"{at}.hub must be true or false")

    for key, entry in models.items():
        at = f"models[{key!r}]"
        if not isinstance(entry, dict):
            fail(f"{at} must be an object")
        backends = names(entry.get("backends"), f"{at}.backends")
        stage(entry, backends, at)
        plain = entry.get("plain")
        if plain is not None:
            if not isinstance(plain, dict):
                fail(f"{at}.plain must be an object")
            reading = plain.get("reading")
            if (not isinstance(reading, dict) or not reading or not set(reading) <= set(backends)
                    or not all(isinstance(r, str) and r in READINGS for r in reading.values())):
                fail(f"{at}.plain.reading must map some of the entry's backends to a reading "
                     f"({', '.join(READINGS)})")
            stage(plain, backends, f"{at}.plain")
        memory = entry.get("memory")
        if memory is not None:
            if not isinstance(memory, dict):
                fail(f"{at}.memory must be an object")
            mem = names(memory.get("backends"), f"{at}.memory.backends")
            if not set(mem) <= set(backends):
                fail(f"{at}.memory.backends must be among the entry's backends {model_key(backends)}")
            numbers(memory.get("weights"), 1 + len(mem), f"{at}.memory.weights", -MAX_MAGNITUDE)
            numbers(memory.get("scale"), 1 + len(mem), f"{at}.memory.scale", MIN_SCALE)
    return data


def load_model(path: str | Path = MODEL_PATH) -> dict:
    """The model JSON at `path`, checked (`check_model`): a file that is missing, unreadable, not
    JSON or not such a model is one ValueError naming it."""
    p = Path(path).expanduser()
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"no human-guesser model at {p}; fit one with `{REFIT}`") from None
    except OSError as exc:
        raise ValueError(f"cannot read the human-guesser model {p}: {exc.strerror or exc}") from None
    except RecursionError:
        raise ValueError(f"{p} is not a human-guesser model JSON (nested too deeply)") from None
    except ValueError as exc:
        raise ValueError(f"{p} is not a human-guesser model JSON ({exc})") from None
    return check_model(data, p)


def softmax(u: np.ndarray) -> np.ndarray:
    if len(u) == 0:
        return u
    e = np.exp(u - u.max())
    return e / e.sum()


class HumanLikeGuesser(Guesser):
    """Ranks cards as people do (see the module docstring); `rank(clue, candidates)` exposes it."""

    defaults = {**PLAY_DEFAULTS, "model": "fitted", "weights": None, "hub": None, "memory": None}
    limits = LIMITS

    @classmethod
    def models_read(cls, spec) -> frozenset[str]:
        from .embeddings.registry import canonical_backend

        return frozenset(canonical_backend(b) for b in (spec.backends or DEFAULT_BACKENDS))   # as __init__

    @classmethod
    def check_setup(cls, spec, language: str) -> None:
        """Its model file, clue memory and fitted entry: building it loads no backend, only those."""
        cls(spec, language)

    def __init__(self, spec: AgentSpec, language: str = "en", *, embeddings: Mapping[str, object] | None = None,
                 model: Mapping | None = None, reference: Sequence[str] | None = None,
                 memory: "ClueMemory | None" = None):
        super().__init__()
        check_params(spec, self.defaults, "human guesser", self.limits)
        path = spec.params.get("weights")
        if path is not None and not isinstance(path, str):   # weights=3 read as the number 3.0, not a file
            raise ValueError(f"human guesser: weights={_show(path)} must be a model file's path "
                             "(a name that reads as a number or true/false: write it ./NAME)")
        backends = tuple(spec.backends) or DEFAULT_BACKENDS
        if len(set(backends)) != len(backends):
            raise ValueError(f"human guesser: a backend is named twice in {'+'.join(backends)}")
        self.language = language
        self.mode = str(spec.params.get("model", "fitted"))   # fitted or nearest (LIMITS)
        self.params = {k: type(v)(spec.params.get(k, v)) for k, v in PLAY_DEFAULTS.items()}
        self.threshold = self.params["threshold"]
        self.weights = self.scale = None
        features = plain = None
        self.memory: ClueMemory | None = None
        self._mem_entry = None
        use_memory = spec.params.get("memory", 1)
        if use_memory not in (0, 1):
            raise ValueError(f"human guesser: memory={use_memory!r}; use memory=1 or memory=0")
        if self.mode == "fitted":
            model_file = spec.params.get("weights", MODEL_PATH)
            source = model_file if model is None else "the given model"
            data = load_model(model_file) if model is None else check_model(model, source)
            entry = self._entry(data, backends, source)
            backends = tuple(entry["backends"])
            features = list(entry["features"])
            self.weights = np.asarray(entry["weights"], dtype=np.float64)
            self.scale = np.asarray(entry["scale"], dtype=np.float64)
            plain = entry.get("plain")
            if use_memory and entry.get("memory"):
                self.memory = memory if memory is not None else self._load_memory(model_file, data,
                                                                                  entry["memory"]["backends"])
                if self.memory is not None:
                    self._mem_entry = (tuple(entry["memory"]["backends"]),
                                       np.asarray(entry["memory"]["weights"], dtype=np.float64),
                                       np.asarray(entry["memory"]["scale"], dtype=np.float64))
            if "hub" in spec.params and bool(spec.params["hub"]) != any(f.endswith(":hub") for f in features):
                raise ValueError(f"human guesser: the fitted model for {'+'.join(backends)} was fitted with "
                                 f"hub={not bool(spec.params['hub'])}")
        else:
            features = [f"{b}:sim" for b in backends]
        self.backend_names = backends
        self.plain: tuple[FeatureBuilder, np.ndarray, np.ndarray] | None = None
        try:
            self.builder = FeatureBuilder(backends, language, embeddings=embeddings, features=features,
                                          reference=reference)
            if plain is not None:   # off the memory's boards: the plain stage, with its own readings
                pb = FeatureBuilder(backends, language, embeddings=embeddings, features=plain["features"],
                                    reference=reference, readings=plain["reading"])
                pb.share(self.builder)
                self.plain = (pb, np.asarray(plain["weights"], dtype=np.float64),
                              np.asarray(plain["scale"], dtype=np.float64))
        except ValueError as exc:
            raise ValueError(f"{exc}; refit the model ({REFIT})") from None
        self._memo: dict[tuple, np.ndarray] = {}

    @staticmethod
    def _load_memory(model_file, data: Mapping, backends: Sequence[str]) -> "ClueMemory | None":
        path = memory_path(model_file, data)
        if path is None:
            return None
        memory = ClueMemory.load(path)
        missing = [b for b in backends if b not in memory.vectors]
        if missing:
            raise ValueError(f"{path} is not a clue memory for {model_file} (no vectors for {', '.join(missing)}, "
                             f"which its model reads); refit the human model ({REFIT})")
        return memory

    @staticmethod
    def _entry(data: Mapping, backends: Sequence[str], source: str | Path = "the model") -> Mapping:
        """The model's entry for `backends` (in any order); `data` is checked (check_model)."""
        models = data["models"]
        for entry in models.values():
            if set(entry["backends"]) == set(backends) and len(entry["backends"]) == len(backends):
                return entry
        fitted = ", ".join(model_key(e["backends"]) for e in models.values())
        raise ValueError(f"human guesser: {source} has no fitted model for backends {'+'.join(backends)}; fitted: "
                         f"{fitted} (or use model=nearest, or refit with "
                         f"python -m experiments.tools.fit_human_model --backends {'+'.join(backends)})")

    # -- set-up ------------------------------------------------------------------
    def prepare(self) -> None:
        """Load the backends and compute every per-word table for the board list now, once, in a
        fixed order (before a simulator forks its workers: they share it, and every process reads
        the same vectors)."""
        from .base import prime_backends

        embs = self.builder.embeddings()
        words = self.listed_words()
        prime_backends(embs, self.language, words)
        self.builder.prepare(words)
        if self.plain is not None:
            prime_backends([self.plain[0].embedding(b) for b in self.plain[0].readings], self.language, words)
            self.plain[0].prepare(words)
        for name in self._mem_entry[0] if self._mem_entry is not None else ():  # refuse a memory of another size now
            vec = next((v for v in self.builder.vectors(name, words) if v is not None), None)
            if vec is not None:
                self.memory.check_size(name, len(vec))

    def begin_game(self, seed) -> None:
        super().begin_game(seed)
        self._memo = {}

    # -- scoring ---------------------------------------------------------------
    def utilities(self, clue: str, candidates: Sequence[str]) -> np.ndarray:
        """The model's utility of each candidate for the clue (higher: a person is likelier to pick it)."""
        if self.mode == "nearest":
            sims = []
            for name in self.backend_names:
                cvec = self.builder.vectors(name, [clue])[0]
                row = [float(v @ cvec) if (v is not None and cvec is not None) else np.nan
                       for v in self.builder.vectors(name, list(candidates))]
                sims.append(row)
            s = np.array(sims, dtype=np.float64)
            s = np.where(np.isnan(s), -1.0, s)
            return s.mean(axis=0) if len(s) else np.zeros(len(candidates))
        memory = self.reads_memory(candidates)
        if not memory and self.plain is not None:
            builder, w, scale = self.plain
            return (builder.features(clue, candidates) / scale) @ w
        x = self.builder.features(clue, candidates)
        u = (x / self.scale) @ self.weights
        if memory:
            names, w, scale = self._mem_entry
            cols = [u] + [self.memory.columns(b, self.builder.vectors(b, [clue])[0], candidates,
                                              self.builder.vectors(b, list(candidates))) for b in names]
            u = (np.column_stack(cols) / scale) @ w
        return u

    def reads_memory(self, candidates: Sequence[str]) -> bool:
        """Does the clue memory score these cards (at least `MEMORY_COVERAGE` of them have a prototype)?"""
        return (self._mem_entry is not None
                and self.memory.coverage(candidates, self._mem_entry[0]) >= MEMORY_COVERAGE)

    def probabilities(self, clue: str, candidates: Sequence[str]) -> np.ndarray:
        """The model's probability that a person picks each candidate (softmax of the utilities)."""
        return softmax(self.utilities(clue, candidates))

    def rank(self, clue: str, candidates: Sequence[str]) -> list[int]:
        """Candidate indices, the likeliest pick first (ties: board order)."""
        u = self.utilities(clue, candidates)
        return [int(i) for i in np.argsort(-u, kind="stable")]

    # -- playing -----------------------------------------------------------------
    def _board_utilities(self, view, clue: str) -> np.ndarray:
        """Utilities of the touchable cards for `clue` (-inf elsewhere), memoised per game."""
        touch = tuple(int(i) for i in np.flatnonzero(view.touchable))
        key = (view.words, touch, clue)
        u = self._memo.get(key)
        if u is None:
            u = np.full(len(view.words), -np.inf)
            if touch:
                vals = self.utilities(clue, [view.words[i] for i in touch])
                if self.mode == "nearest":  # cosines: put them on a logit-like scale
                    vals = vals / 0.05
                u[list(touch)] = vals
            self._memo[key] = u
        return u

    def _evidence(self, view, clue: str) -> np.ndarray:
        """Likelihood ratio that each card is one the clue points at: exp(u - median touchable u)."""
        u = self._board_utilities(view, clue)
        ok = view.touchable
        ref = float(np.median(u[ok])) if ok.any() else 0.0
        return np.where(ok, np.exp(np.clip(u - ref, -50, 50)), 0.0)

    def target_chances(self, view, include_current: bool = True) -> np.ndarray:
        """Chance that each card is a still-unfound target of some received clue (per clue: its
        unresolved count times the model's pick probability, capped at CHANCE_CAP; combined as
        independent)."""
        from .guessers.base import unresolved_target_chances

        def pick(clue: str) -> np.ndarray:
            u = self._board_utilities(view, clue)
            p = np.where(view.touchable, np.exp(u - u.max()), 0.0)
            return p / p.sum() if p.sum() > 0 else p

        return unresolved_target_chances(view, pick, include_current, cap=CHANCE_CAP)

    def next_guess(self, obs) -> str | None:
        require_observation(obs)
        from .guessers.base import GuessView, key_posterior

        view = GuessView(obs)
        if not view.touchable.any():
            return None
        if view.sudden_death:
            return self._sudden_death(view)
        if view.clue is None:
            return None
        if view.zero and view.correct == 0:   # RULES 1.7: not the cards the clue relates to
            from .guessers.base import with_key_prior, zero_clue_pick

            chance = self.target_chances(view)
            chance = with_key_prior(view, chance) if view.duet else chance
            return view.words[zero_clue_pick(view, self._board_utilities(view, view.clue), chance, 1.0)]
        if view.correct >= view.number:
            return self._spare(view)
        if view.duet:
            pg, px = key_posterior(view, self._evidence(view, view.clue))
            score = np.where(view.touchable, pg - self.params["risk"] * px, -np.inf)
        else:  # Codenames: the model alone
            u = self._board_utilities(view, view.clue)
            pg = np.where(view.touchable, np.exp(u - u.max()), 0.0)
            pg = pg / pg.sum()
            score = np.where(view.touchable, pg, -np.inf)
        best = int(np.argmax(score))
        if view.correct >= 1 and pg[best] < self.threshold and not self._last(view):
            return None  # stop when unsure (the first guess of a turn is owed, RULES 3.4)
        return view.words[best]

    def _last(self, view) -> bool:
        """`last` < 1 and the clue on the table is the last my partner gives (`last_clue_for_me`)."""
        from .guessers.base import last_clue_for_me

        return view.duet and self.params["last"] < 1 and last_clue_for_me(view.obs)

    def _spare(self, view) -> str | None:
        """After the clue's number: up to `spare` more guesses on earlier clues' unfound targets; on
        the last clue my partner gives, guesses on while a card's chance is at least `last`."""
        if self._last(view):
            best, chance = self._best_chance(view)
            return view.words[best] if chance[best] >= self.params["last"] else None
        if not view.duet or view.correct - view.number >= int(self.params["spare"]):
            return None
        from .guessers.base import with_key_prior

        old = self.target_chances(view, include_current=False)
        if not old.any():
            return None
        chance = with_key_prior(view, old)
        best = int(np.argmax(chance))
        return view.words[best] if chance[best] >= self.params["spare_confidence"] else None

    def _best_chance(self, view) -> tuple[int, np.ndarray]:
        """The card likeliest green by every clue received and the key structure, and the chances."""
        from .guessers.base import with_key_prior

        chance = self.target_chances(view)
        tie = np.zeros(len(view.words))
        if view.duet:
            chance = with_key_prior(view, chance)
            tie = view.partner_prior[:, 0]  # no clue says anything more: the key structure
        return int(np.argmax(np.where(view.touchable, chance + 1e-6 * tie, -np.inf))), chance

    def _sudden_death(self, view) -> str | None:
        """RULES 3.9: any miss loses; hold back unless confident, and only when the partner must guess
        (`may_hold_back`, as every guesser: two seats that both wait leave the game unfinished)."""
        from .guessers.base import may_hold_back

        best, chance = self._best_chance(view)
        if not may_hold_back(view.obs) or chance[best] >= self.params["sd_confidence"]:
            return view.words[best]
        return None
