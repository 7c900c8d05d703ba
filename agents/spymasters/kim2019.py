"""The Codenames AI Competition baseline (Kim, Ruzic, Lee, Kim, Togelius & Szlam, 2019).

Faithful to the competition's word-vector codemaster (`codemaster_glove_07.py` and siblings):

1. for every group of 1, 2 and 3 of my words (itertools order) and every candidate clue, the
   group's *worst* cosine distance to the clue (distance = 1 - cosine);
2. keep a (group, clue) pair only if that worst distance is smaller than the clue's distance to
   every other card (the "bad" words: any touchable card that is not mine);
3. per group size, the pair with the smallest worst distance (first one on ties, as the original
   loops with a strict `<`);
4. give the largest group size whose worst distance is under the threshold (0.7 in the published
   bots; 0.3 and 0.5 are its variants); if none, the best one-word clue.

Only the board's Duet/Codenames identities are mapped in: "my words" = my uncovered targets,
"bad words" = every other card the guesser may touch. Candidates come from the shared pool and the
clue filter (the original only excluded board words). Spec: `kim2019:glove-50?threshold=0.5`.
"""

from __future__ import annotations

import itertools

import numpy as np

from agents.base import ClueDecision
from agents.spec import whole

from .base import PoolSpymaster


class Kim2019Spymaster(PoolSpymaster):
    name = "kim2019"
    defaults = {"vocab": 20000, "threshold": 0.7, "max_group": 3}
    limits = {**PoolSpymaster.limits, "max_group": whole(1)}

    def choose(self, problem, pool, sims, ok) -> ClueDecision:
        dist = 1.0 - sims.raw[0]                                  # (cards, V) cosine distances
        tidx = np.flatnonzero(problem.targets)
        bad = np.flatnonzero(problem.guessable & ~problem.targets)
        bad_dist = dist[bad].min(axis=0) if len(bad) else np.full(dist.shape[1], np.inf)
        bests: dict[int, tuple[tuple[int, ...], int, float]] = {}
        td = dist[tidx]                                           # (T, V)
        for size in range(1, min(int(self.p("max_group")), len(tidx)) + 1):
            groups = list(itertools.combinations(range(len(tidx)), size))
            worst = np.max(np.stack([td[list(g)] for g in groups]), axis=1)   # (groups, V)
            valid = (worst < bad_dist[None, :]) & ok[None, :]
            score = np.where(valid, worst, np.inf)
            flat = int(np.argmin(score))
            gi, j = divmod(flat, score.shape[1])
            bests[size] = (tuple(int(tidx[i]) for i in groups[gi]), j, float(score[gi, j]))
        chosen = bests[1]
        for size, (group, j, worst) in bests.items():
            if worst < float(self.p("threshold")) and np.isfinite(worst):
                chosen = (group, j, worst)
        group, j, worst = chosen
        if not np.isfinite(worst):  # no clue nearer to a word of mine than to every bad card
            j = int(np.flatnonzero(ok)[np.argmin(dist[tidx][:, ok].min(axis=0))])
            group = (int(tidx[np.argmin(dist[tidx, j])]),)
        return self.decision(pool, problem, j, len(group), group, -worst if np.isfinite(worst) else -9.0,
                             worst_distance=worst)
