"""The margin spymaster (after thomasahle/codenames).

For every candidate clue and every k, the k best targets by similarity; the clue's margin at k is
the gap between the k-th target and the most similar card to avoid, where the assassin (in Duet,
the cards black on my side, which are what kills on the partner's guess) counts `assassin`
standard deviations nearer than it is. Margins are measured in units of the board's similarity
spread so that one setting serves every backend. A clue's value rewards k (15 greens in 9 turns
need about two a clue):

    value(clue, k) = k + alpha * min(margin_k, cap) - rare * rarity(clue),   if margin_k >= min_margin

With several backends (`margin:use-m3+glove-50`) the margin is the worst over the backends.
"""

from __future__ import annotations

import numpy as np

from agents.base import ClueDecision
from agents.clue_problem import danger, prefilter, top_targets
from agents.spec import at_least, whole

from .base import PoolSpymaster


class MarginSpymaster(PoolSpymaster):
    name = "margin"
    defaults = {"vocab": 20000, "kmax": 4, "alpha": 0.5, "cap": 1.0, "min_margin": 0.1,
                "assassin": 1.0, "rare": 0.3, "candidates": 4000}
    limits = {**PoolSpymaster.limits, "kmax": whole(1), "alpha": at_least(0), "rare": at_least(0),
              "candidates": whole(1)}

    def margins(self, problem, sims, cols=None) -> tuple[np.ndarray, np.ndarray]:
        """(kmax, C) worst-over-backends margins in spread units for the candidate columns `cols`,
        and the first backend's target cards."""
        kmax = min(int(self.p("kmax")), problem.n_targets)
        worst = None
        cards = None
        for b, raw in enumerate(sims.raw):
            raw = raw if cols is None else raw[:, cols]
            scale = sims.scale[b]
            vals, idx = top_targets(raw, problem.targets, kmax)
            bias = np.where(problem.assassin, float(self.p("assassin")) * scale, 0.0)
            d, _ = danger(raw, problem.avoid, bias)
            m = (vals - d[None, :]) / scale
            worst = m if worst is None else np.minimum(worst, m)
            if cards is None:
                cards = idx
        return worst, cards

    def choose(self, problem, pool, sims, ok) -> ClueDecision:
        floor = float(self.p("min_margin"))
        cols = prefilter(sims, problem, ok, [floor * s for s in sims.scale], cap=int(self.p("candidates")))
        if len(cols) == 0:  # nothing clears the bar: the safest one-card clue
            cols = np.flatnonzero(ok)
            m, cards = self.margins(problem, sims, cols)
            j = int(np.argmax(m[0]))
            return self.decision(pool, problem, int(cols[j]), 1, cards[:1, j], float(m[0, j]),
                                 margin=float(m[0, j]))
        m, cards = self.margins(problem, sims, cols)
        k = np.arange(1, m.shape[0] + 1, dtype=np.float32)[:, None]
        value = k + float(self.p("alpha")) * np.minimum(m, float(self.p("cap"))) \
            - float(self.p("rare")) * pool.rarity[cols][None, :]
        value = np.where(m >= floor, value, -np.inf)
        kk, j = self.best_index(value)
        return self.decision(pool, problem, int(cols[j]), kk + 1, cards[: kk + 1, j], value[kk, j],
                             margin=float(m[kk, j]))
