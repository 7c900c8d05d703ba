"""A guesser that reads people: which card would a person pick for this clue?

`human:use-m3+glove-50+minilm` scores every candidate card for a clue from several embedding
backends at once. For each backend it computes the clue-card cosine and where that cosine stands
on this board (z-score, gap to the best card, reciprocal rank, best-card flag), plus how "hubby"
the card is (its mean similarity to its nearest common English words: cards close to everything
are over-picked by cosine, less so by people); across backends it adds the card's word frequency
and spelling overlap with the clue (`superman` -> `superhero`). A linear utility over these
features, fitted as a conditional logit (a pairwise logistic regression: the card the person chose
against each card they did not) on the Cultural Codes validation split, ranks the cards; its
softmax over the board is the model's probability that a person picks each card.

The weights live in `data/models/human_guesser.json` (a few numbers per backend combination;
`python -m experiments.fit_human_model --data DIR` refits them). Spec parameters:

* `model=fitted` (default) or `model=nearest` (the mean raw cosine of the backends: plain
  nearest-neighbour guessing, which needs no fitted weights and works with any backend, `fake` too);
* `threshold=0.2`: after the first correct guess of a clue, stop when the best remaining card's
  probability (softmax over the guessable cards) is below this;
* `weights=PATH`: another model JSON;
* `hub=true|false`: the hubness features (default: as the fitted model was trained).

Nothing loads at construction: backends (and torch, for minilm) load on the first guess.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from .base import Guesser, require_observation
from .spec import AgentSpec

DEFAULT_BACKENDS = ("use-m3", "glove-50", "minilm")
MODEL_PATH = Path(__file__).resolve().parents[1] / "data" / "models" / "human_guesser.json"
MODEL_FORMAT = 1
PER_BACKEND = ("sim", "z", "gap", "rr", "top", "hub")
GLOBAL = ("zipf", "lex")
HUB_VOCAB = 2000
HUB_K = 10


def model_key(backends: Sequence[str]) -> str:
    return "+".join(backends)


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


class FeatureBuilder:
    """Per-candidate feature rows for (clue, candidates), from the given embedding backends."""

    def __init__(self, backends: Sequence[str], language: str = "en", hub: bool = True,
                 embeddings: Mapping[str, object] | None = None):
        self.backend_names = tuple(backends)
        self.language = language
        self.hub = bool(hub)
        self._given = dict(embeddings or {})
        self._emb: dict[str, object] = {}
        self._vec: dict[str, dict[str, np.ndarray | None]] = {b: {} for b in self.backend_names}
        self._hubref: dict[str, np.ndarray] = {}
        self._hubval: dict[str, dict[str, float]] = {b: {} for b in self.backend_names}
        self._zipf: dict[str, float] = {}

    def names(self) -> list[str]:
        per = [f for f in PER_BACKEND if self.hub or f != "hub"]
        return [f"{b}:{f}" for b in self.backend_names for f in per] + list(GLOBAL)

    # -- embeddings ----------------------------------------------------------
    def embedding(self, name: str):
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
            self._emb[name] = emb
        return self._emb[name]

    def vectors(self, name: str, words: Sequence[str]) -> list[np.ndarray | None]:
        """Unit vectors (None for words the backend does not cover), memoised per word."""
        memo = self._vec[name]
        new = [w for w in dict.fromkeys(words) if w not in memo]
        if new:
            emb = self.embedding(name)
            ok = emb.covers(new)
            covered = [w for w, c in zip(new, ok) if c]
            vecs = emb.vectors(covered) if covered else np.zeros((0, 1), dtype=np.float32)
            for w in new:
                memo[w] = None
            for w, v in zip(covered, vecs):
                memo[w] = np.asarray(v, dtype=np.float32)
        return [memo[w] for w in words]

    def _hub_reference(self, name: str) -> np.ndarray:
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
            for w, v in zip(new, self.vectors(name, new)):
                if v is None or len(ref) <= HUB_K:
                    memo[w] = np.nan
                    continue
                s = ref @ v
                s = s[s < 0.9999]  # the word itself, when it is a common word
                memo[w] = float(np.mean(np.sort(s)[-HUB_K:]))
        return np.array([memo[w] for w in words], dtype=np.float64)

    def zipf(self, words: Sequence[str]) -> np.ndarray:
        for w in words:
            if w not in self._zipf:
                self._zipf[w] = _zipf(w, self.language)
        return np.array([self._zipf[w] for w in words], dtype=np.float64)

    # -- features --------------------------------------------------------------
    def features(self, clue: str, candidates: Sequence[str]) -> np.ndarray:
        """(len(candidates), len(names())) float64."""
        n = len(candidates)
        cols: list[np.ndarray] = []
        for name in self.backend_names:
            cvec = self.vectors(name, [clue])[0]
            wvecs = self.vectors(name, list(candidates))
            sim = np.full(n, np.nan)
            if cvec is not None:
                for i, v in enumerate(wvecs):
                    if v is not None:
                        sim[i] = float(v @ cvec)
            ok = ~np.isnan(sim)
            if ok.any():
                sim[~ok] = sim[ok].mean()  # an uncovered card: average, neither favoured nor shunned
                sd = sim.std()
                z = (sim - sim.mean()) / sd if sd > 1e-9 else np.zeros(n)
                gap = sim - sim.max()
                order = np.argsort(-sim, kind="stable")
                ranks = np.empty(n)
                ranks[order] = np.arange(n)
                rr = 1.0 / (1.0 + ranks)
                top = (ranks == 0).astype(float)
                sim_c = sim - sim.mean()
            else:  # the backend knows neither the clue nor any card: it says nothing here
                sim_c = z = gap = rr = top = np.zeros(n)
            feats = [sim_c, z, gap, rr, top]
            if self.hub:
                h = self.hubness(name, candidates)
                good = ~np.isnan(h)
                h = np.where(good, h, h[good].mean() if good.any() else 0.0)
                feats.append(h - h.mean())
            cols.extend(feats)
        zf = self.zipf(candidates)
        cols.append(zf - zf.mean())
        cols.append(np.array([lexical_overlap(clue, w) for w in candidates]))
        return np.column_stack(cols) if n else np.zeros((0, len(self.names())))


def load_model(path: str | Path = MODEL_PATH) -> dict:
    p = Path(path).expanduser()
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FileNotFoundError(f"no human-guesser model at {p}; fit one with "
                                f"`python -m experiments.fit_human_model --data DIR`") from None
    except ValueError as exc:
        raise ValueError(f"{p} is not a human-guesser model JSON ({exc})") from None
    if data.get("format") != MODEL_FORMAT or not isinstance(data.get("models"), dict):
        raise ValueError(f"{p} is not a human-guesser model (format {MODEL_FORMAT})")
    return data


def softmax(u: np.ndarray) -> np.ndarray:
    if len(u) == 0:
        return u
    e = np.exp(u - u.max())
    return e / e.sum()


class HumanLikeGuesser(Guesser):
    """Ranks cards as people do (see the module docstring); `rank(clue, candidates)` exposes it."""

    def __init__(self, spec: AgentSpec, language: str = "en", *, embeddings: Mapping[str, object] | None = None,
                 model: Mapping | None = None):
        super().__init__()
        backends = tuple(spec.backends) or DEFAULT_BACKENDS
        if len(set(backends)) != len(backends):
            raise ValueError(f"human guesser: a backend is named twice in {'+'.join(backends)}")
        self.language = language
        self.mode = str(spec.params.get("model", "fitted"))
        if self.mode not in ("fitted", "nearest"):
            raise ValueError(f"human guesser: model={self.mode!r}; use model=fitted or model=nearest")
        self.threshold = float(spec.params.get("threshold", 0.2))
        if not 0.0 <= self.threshold <= 1.0:
            raise ValueError("human guesser: threshold must be between 0 and 1")
        self.weights = self.scale = None
        hub = False
        if self.mode == "fitted":
            data = model if model is not None else load_model(spec.params.get("weights", MODEL_PATH))
            entry = self._entry(data, backends)
            self.weights = np.asarray(entry["weights"], dtype=np.float64)
            self.scale = np.asarray(entry["scale"], dtype=np.float64)
            backends = tuple(entry["backends"])
            hub = bool(entry.get("hub", False))
            if "hub" in spec.params and bool(spec.params["hub"]) != hub:
                raise ValueError(f"human guesser: the fitted model for {'+'.join(backends)} was fitted with hub={hub}")
        self.backends = backends
        self.builder = FeatureBuilder(backends, language, hub=hub, embeddings=embeddings)
        if self.mode == "fitted":
            names = self.builder.names()
            if list(entry["features"]) != names or len(self.weights) != len(names) or len(self.scale) != len(names):
                raise ValueError("human guesser: the model's features do not match this code's; refit it "
                                 "(python -m experiments.fit_human_model --data DIR)")

    @staticmethod
    def _entry(data: Mapping, backends: Sequence[str]) -> Mapping:
        models = data["models"]
        for entry in models.values():
            if set(entry["backends"]) == set(backends) and len(entry["backends"]) == len(backends):
                return entry
        raise ValueError(f"human guesser: no fitted model for backends {'+'.join(backends)}; fitted: "
                         f"{', '.join(models)} (or use model=nearest, or refit with "
                         f"python -m experiments.fit_human_model --backends {'+'.join(backends)})")

    # -- scoring ---------------------------------------------------------------
    def utilities(self, clue: str, candidates: Sequence[str]) -> np.ndarray:
        """The model's utility of each candidate for the clue (higher: a person is likelier to pick it)."""
        if self.mode == "nearest":
            sims = []
            for name in self.backends:
                cvec = self.builder.vectors(name, [clue])[0]
                row = [float(v @ cvec) if (v is not None and cvec is not None) else np.nan
                       for v in self.builder.vectors(name, list(candidates))]
                sims.append(row)
            s = np.array(sims, dtype=np.float64)
            s = np.where(np.isnan(s), -1.0, s)
            return s.mean(axis=0) if len(s) else np.zeros(len(candidates))
        x = self.builder.features(clue, candidates)
        return (x / self.scale) @ self.weights

    def probabilities(self, clue: str, candidates: Sequence[str]) -> np.ndarray:
        """The model's probability that a person picks each candidate (softmax of the utilities)."""
        return softmax(self.utilities(clue, candidates))

    def rank(self, clue: str, candidates: Sequence[str]) -> list[int]:
        """Candidate indices, the likeliest pick first (ties: board order)."""
        u = self.utilities(clue, candidates)
        return [int(i) for i in np.argsort(-u, kind="stable")]

    # -- playing -----------------------------------------------------------------
    def next_guess(self, obs) -> str | None:
        require_observation(obs)
        if not obs.current_clue:
            return None
        clue, number = obs.current_clue
        number = int(number) if number is not None else 1
        if number > 0 and obs.correct_this_turn >= number:
            return None
        options = list(obs.guessable())
        if not options:
            return None
        cands = [obs.words[i] for i in options]
        p = self.probabilities(clue, cands) if self.mode == "fitted" else None
        order = self.rank(clue, cands)
        best = order[0]
        if obs.correct_this_turn >= 1 and p is not None and p[best] < self.threshold:
            return None
        if obs.phase == "sudden_death" and p is not None and p[best] < max(self.threshold, 0.5):
            return None  # no obligation to guess in sudden death (RULES 3.9): only a confident one
        return cands[best]

