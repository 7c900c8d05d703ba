"""`robust`: the `expected` planner made for partners that read clues with another mind.

The `expected` spymaster trusts its own models' cosines; a partner on another model (or a person)
reads them differently. What changes (measured on the partner panel, docs/agents.md):

* similarities in each candidate's own units (`agents.clue_problem.StandardSims`): a clue is
  credited only for the cards it singles out among all board words, not for being a hub (rare or
  vague words sit near everything in some models);
* partner hypotheses (`combine=consensus`): "an unknown mind", read as the mean z-score of all my
  backends (their idiosyncrasies average out), with prior weight `prior`, beside "exactly one of my
  backends" for each; the partner's guesses weigh them, so a partner on one of my models is soon
  recognised (self-play stays ~99%) while a foreign one is met with the consensus. `min` (worst
  case over backends) and `mean` are there too; on the panel both did worse;
* the assassin's neighbourhood avoided under every model: no clue whose `veto` nearest touchable
  cards hold an assassin under any backend;
* candidates: the `vocab` most frequent words that read as nouns (`nouns`; English, lemminflect).
"""

from __future__ import annotations

import numpy as np

from agents.clue_problem import StandardSims

from .expected import ExpectedValueSpymaster


class RobustSpymaster(ExpectedValueSpymaster):
    name = "robust"
    combines = ("consensus", "min", "mean")
    defaults = {**ExpectedValueSpymaster.defaults, "combine": "consensus", "vocab": 10000,
                "ztemp": 0.4, "kmax": 4, "nouns": 1.0,
                "selftemp": 0.25, "prior": 0.6, "adapt": "0", "veto": 2}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        t = float(self.p("temp"))
        zt = t if t > 0 else float(self.p("ztemp"))
        n = len(self.backend_names)
        if self.p("combine") == "consensus" and n > 1:
            # hypotheses: an unknown mind (the consensus), or exactly one of my backends
            self.temperatures = [zt] + [float(self.p("selftemp"))] * n
        else:
            self.temperatures = [zt] * n

    def hypothesis_prior(self, n: int) -> np.ndarray:
        if self.p("combine") != "consensus" or n == 1:
            return super().hypothesis_prior(n)
        p0 = float(self.p("prior"))
        return np.array([p0] + [(1.0 - p0) / (n - 1)] * (n - 1))

    def prepare(self) -> None:
        super().prepare()
        noun_mask(self.pool, self.language)   # before workers fork

    def candidates(self, problem):
        ok = super().candidates(problem)
        if float(self.p("nouns")) > 0:
            ok &= noun_mask(self.pool, self.language)
        return ok

    def combination(self) -> str:
        return "bayes" if self.p("combine") == "consensus" else self.p("combine")

    def choose(self, problem, pool, sims, ok):
        mode = self.p("combine")
        cache = sims.__dict__.setdefault("_robust_views", {})   # the pool's boards are shared
        views = cache.get(mode)
        if views is None:
            views = StandardSims(sims, pool)
            if mode == "consensus" and len(views.raw) > 1:
                views = Hypotheses(views)
            cache[mode] = views
        standard = views.raw[1:] if isinstance(views, Hypotheses) else views.raw
        safe = ok & assassin_clear(standard, problem, int(self.p("veto")))
        return super().choose(problem, pool, views, safe if safe.any() else ok)


def assassin_clear(views, problem, top: int) -> np.ndarray:
    """Candidates whose `top` nearest touchable cards hold no assassin under *every* model: the
    assassin's neighbourhood is avoided in each mind the spymaster can imagine, not on average."""
    clear = np.ones(views[0].shape[1], dtype=bool) if views else np.ones(0, dtype=bool)
    if top <= 0 or not problem.assassin.any():
        return clear
    touch = problem.guessable
    for z in views:
        zt = z[touch]
        worst = z[problem.assassin].max(axis=0)
        clear &= (zt > worst[None, :]).sum(axis=0) >= top
    return clear


class Hypotheses:
    """Views of how the partner may read clues: first the consensus of my backends (the mean of
    their z-scores: each model's idiosyncrasies average out, what is left is what a mind outside
    the ensemble also tends to see), then each backend alone (a partner on that very model).
    The partner's guesses weigh them (Bayesian model averaging, `ExpectedValueSpymaster`)."""

    def __init__(self, standard: StandardSims):
        self.board = standard.board
        self.raw = [np.mean(standard.raw, axis=0)] + list(standard.raw)
        self.scale = [1.0] * len(self.raw)


def noun_mask(pool, language: str) -> np.ndarray:
    """Candidates that can be read as nouns (names included): adjectives and adverbs make vague
    clues whose neighbours differ most between minds ("effective", "worthwhile", "wide").
    Kept on the pool it describes (one per language)."""
    masks = pool.__dict__.setdefault("_noun_masks", {})
    if language not in masks:
        if language == "en":
            from lemminflect import getAllLemmas

            def noun(word: str) -> bool:
                pos = getAllLemmas(word)
                return not pos or "NOUN" in pos or "PROPN" in pos

            masks[language] = np.array([noun(w) for w in pool.words], dtype=bool)
        else:
            masks[language] = np.ones(len(pool.words), dtype=bool)
    return masks[language]
