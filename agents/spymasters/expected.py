"""The expected-value spymaster: models its partner and plays for the game, not for the clue.

The partner guesses with a softmax over its similarities to the clue (temperature per backend,
calibrated by `experiments/tools/fit_partner_model.py`), best remaining card first, and stops after the
clue's number (`agents.partner_model.turn_outcomes`). Each way the turn can end (m greens then a
bystander, m greens then the assassin, n greens then a stop) leads to a game state, valued by
`DuetValue`: the chance to win from (greens left, tokens left), sudden death included, plus a
small score term (RULES 3.9, 3.11). In missions a bystander with no bystander-side token left
costs two tokens (RULES 3.10). The clue and number with the highest expected value win:

    EV(clue, n) = sum_m<n miss[m] V(R - m, T - c_miss) + reach[n] V(R - n, T - 1) - risk P(assassin)

`sides` (0-1; `robust` 0.5) weighs in V by side (`DuetValue.after`): the players alternate clues
(RULES 3.4), so after my turn the partner clues for its greens, and what my clues leave waits for my
next turn or, after my last, for sudden death. The pooled V lets any later turn find any green and
so undervalues reaching my greens before my turns run out; V by side alone makes the clues bolder
than the panel's partners follow (docs/agents.md, "The value by side").

Partner-robust play: with several backends (`expected:use-m3+glove-50`) the candidates are the
words every backend covers, and a clue is worth the minimum (`combine=min`), the mean
(`combine=mean`) or the posterior-weighted mean (`combine=bayes`, default) of its values under each
backend's model of the partner.

Learning the partner (`adapt=1`; `adapt=auto`, the default, adapts only with several backends):
the partner's guesses on my earlier clues are evidence
about how it reads clues. For each backend, a grid of temperatures (the calibrated one times
`tmin` .. 1.4) is weighted by the likelihood of those guesses (a softmax over the cards it could touch,
RULES 3.7); the backend plays with its posterior temperature, and with `combine=bayes` the backends
are weighted by how well each explains the partner (Bayesian model averaging over partner models).
With one backend adaptation is off by default: the guesses a spymaster sees are on the clues it
chose for their margins, so they make any partner look sharper than it is (selection bias) and
the adapted spymaster then overreaches with a noisy partner (measured: 67% vs 88% wins).
"""

from __future__ import annotations

import numpy as np

from agents.base import ClueDecision
from agents.clue_problem import prefilter, top_targets
from agents.partner_model import DuetValue, partner_temperature, turn_outcomes
from agents.spec import above, at_least, between, one_of, whole

from .base import PoolSpymaster


class ExpectedValueSpymaster(PoolSpymaster):
    name = "expected"
    combines = ("min", "mean", "bayes")
    defaults = {"vocab": 20000, "kmax": 5, "temp": 0.0, "risk": 0.0, "score_weight": 0.01, "pace": 2.0,
                "sudden": 0.45, "hazard": 0.02, "combine": "bayes", "rare": 0.01, "cap": 3000, "adapt": "auto", "tmin": 0.5,
                "sharpen": 0.77, "learn": 1.0, "sides": 0.0}
    # pace: greens a later turn finds of 4 (DuetValue); sudden, hazard: chances; tmin, sharpen:
    # factors of a temperature; learn: a power of a likelihood; sides: V by side (DuetValue.after)
    limits = {**PoolSpymaster.limits, "kmax": whole(1), "temp": at_least(0), "risk": at_least(0),
              "score_weight": at_least(0), "pace": between(0, 4), "sudden": between(0, 1),
              "hazard": between(0, 1), "rare": at_least(0), "cap": whole(1), "adapt": one_of("auto", 0, 1),
              "combine": one_of(*combines),
              "tmin": above(0), "sharpen": above(0), "learn": at_least(0), "sides": between(0, 1)}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.p("combine") not in self.combines:
            raise ValueError(f"{self.name} spymaster: combine is {', '.join(self.combines)}")
        self.value = DuetValue(pace=float(self.p("pace")), sudden=float(self.p("sudden")),
                               hazard=float(self.p("hazard")), score_weight=float(self.p("score_weight")))
        t = float(self.p("temp"))
        # The fitted temperature describes the partner's choices; planning with a somewhat sharper one
        # (`sharpen` x fitted) wins more with both sharp and noisy partners (docs/agents.md).
        sharpen = float(self.p("sharpen"))
        self.temperatures = [t if t > 0 else sharpen * partner_temperature(n, emb, self.language)
                             for n, emb in zip(self.backend_names, self.backends)]

    def choose(self, problem, pool, sims, ok) -> ClueDecision:
        nmax = min(int(self.p("kmax")), problem.n_targets)
        bystanders = problem.guessable & ~problem.targets & ~problem.assassin
        cols = self.columns(problem, sims, ok)
        temps, weights = self.partner_posterior(problem, pool, sims)
        combine = self.combination()
        # Bayesian averaging: a partner model the guesses have all but ruled out (weight under
        # 1/1000 of the best) moves no value; it is not scored
        live = weights >= 1e-3 * weights.max() if combine == "bayes" else np.ones(len(weights), bool)
        scored = [b for b in range(len(weights)) if live[b]]
        out = turn_outcomes([sims.raw[b] for b in scored], problem.targets, bystanders, problem.assassin,
                            [temps[b] for b in scored], nmax, cols)          # one pass for every live model
        values = self._values(problem, out, nmax)                           # (live models, nmax, V)
        per_backend = dict(zip(scored, values))
        if len(weights) == 1:
            value = values[0]
        elif combine == "min":
            value = values.min(axis=0)
        elif combine == "mean":
            value = values.mean(axis=0)
        else:
            value = np.tensordot(weights[live], values, axes=1)
        risk = float(self.p("risk"))
        if risk > 0:
            p_dead = cumulative(out.dead[:, :nmax]).max(axis=0)   # P(assassin) for a clue of n = 1..nmax
            value = value - risk * p_dead
        value = value - float(self.p("rare")) * pool.rarity[cols][None, :]
        kk, j = self.best_index(value)
        _, cards = top_targets(sims.raw[0][:, cols[j:j + 1]], problem.targets, kk + 1)
        # without `risk`, P(assassin) of the chosen clue alone (the same sums, for one column)
        p_assassin = p_dead[kk, j] if risk > 0 else cumulative(out.dead[:, :kk + 1, j:j + 1]).max(axis=0)[kk, 0]
        return self.decision(pool, problem, int(cols[j]), kk + 1, cards[:, 0], value[kk, j],
                             p_assassin=float(p_assassin),
                             per_backend=[float(per_backend[b][kk, j]) if b in per_backend else None
                                          for b in range(len(weights))],
                             temperatures=[round(float(t), 4) for t in temps],
                             backend_weights=[round(float(w), 4) for w in weights])

    def columns(self, problem, sims, ok) -> np.ndarray:
        """The candidates to score. A clue whose best target trails a card to avoid by more than
        two temperatures is never worth it under the model: only the others (at most `cap`)."""
        cols = prefilter(sims, problem, ok, self.floors(), cap=int(self.p("cap")))
        return cols if len(cols) else np.flatnonzero(ok)

    def floors(self) -> list[float]:
        return [-2.0 * t for t in self.temperatures]

    def partner_posterior(self, problem, pool, sims) -> tuple[list[float], np.ndarray]:
        """Per backend: the posterior temperature and the backend's weight, from the partner's
        guesses on my earlier clues (uniform weights and the calibrated temperatures without any)."""
        nb = len(self.temperatures)
        prior = self.hypothesis_prior(nb)
        history = problem.state.get("history", ())
        if not history:
            return list(self.temperatures), prior
        adapt = self.p("adapt")
        adapt = nb > 1 if adapt == "auto" else bool(float(adapt))
        board = problem.board
        index = {w: i for i, w in enumerate(board)}
        me = problem.state.get("seat")
        grid = np.geomspace(float(self.p("tmin")), 1.4, 5) if adapt else np.ones(1)
        grids = np.array([t * grid for t in self.temperatures])    # (backends, grid)
        # the log-likelihood of the guesses seen so far, resumed from the last call of this game
        # (the history only grows; another game on the same board starts over)
        memo = {} if getattr(sims, "per_call", False) else sims.__dict__.setdefault("_guess_likelihood", {})
        key = (me, grids.tobytes())
        kept = memo.get(key)
        if kept is None or tuple(history[:len(kept[0])]) != kept[0]:
            kept = (), np.zeros((nb, len(grid))), set(), set(), None
        seen, ll, covered, partner_marks, clue_col = kept
        ll, covered, partner_marks = ll.copy(), set(covered), set(partner_marks)   # the kept state stays whole
        for e in history[len(seen):]:
            if e.kind == "clue":
                clue_col = pool.index.get(e.word) if e.seat == me else None
            elif e.kind == "guess" and e.word in index:
                i = index[e.word]
                if e.seat != me and clue_col is not None:
                    touch = [k for k in range(len(board)) if k not in covered and k not in partner_marks]
                    pos = touch.index(i) if i in touch else None
                    if pos is not None:   # the softmax likelihood of this guess, every backend at once
                        s = np.array([raw[touch, clue_col] for raw in sims.raw[:nb]], dtype=np.float64)
                        z = s[:, None, :] / grids[:, :, None]
                        zmax = z.max(axis=2, keepdims=True)
                        ll += z[:, :, pos] - (zmax[:, :, 0] + np.log(np.exp(z - zmax).sum(axis=2)))
                if e.result == "green":
                    covered.add(i)
                elif e.seat != me:
                    partner_marks.add(i)
        memo[key] = tuple(history), ll, covered, partner_marks, clue_col
        post = np.exp(ll - ll.max(axis=1, keepdims=True))
        post /= post.sum(axis=1, keepdims=True)
        temps = [float(np.exp(np.dot(p, np.log(g)))) for p, g in zip(post, grids)]
        marginal = np.log(np.exp(ll - ll.max()).mean(axis=1)) + ll.max()
        # `learn` < 1 tempers the evidence: when no hypothesis is the partner's mind, a few guesses
        # should not hand every later clue to the one that happens to fit them
        w = prior * np.exp(float(self.p("learn")) * (marginal - marginal.max()))
        return temps, w / w.sum()

    def combination(self) -> str:
        """How the values under several partner models are combined: min, mean or bayes."""
        return self.p("combine")

    def hypothesis_prior(self, n: int) -> np.ndarray:
        """Prior weight of each partner model before any guess is seen: uniform."""
        return np.full(n, 1.0 / n)

    def _values(self, problem, out, nmax) -> np.ndarray:
        """(nmax, V): expected game value of each candidate given as a clue of number 1..nmax."""
        st = problem.state
        if problem.game != "duet":
            return self._codenames_values(problem, out, nmax)
        r, t = int(st.get("greens_left", 15)), int(st.get("tokens_left", 9))
        miss_cost = 1 if st.get("bystander_tokens", 1) > 0 else 2
        sides = float(self.p("sides"))
        mine = problem.n_targets
        theirs = max(r - mine, 0)

        def v(found: int, tokens: int) -> float:
            if tokens < 0:
                return 0.0
            return (1 - sides) * self.value(r - found, tokens) + sides * self.value.after(mine - found, theirs, tokens)

        stop_v = np.array([v(n, t - 1) for n in range(nmax + 1)])
        miss_v = np.array([v(m, t - miss_cost) for m in range(nmax + 1)])
        if st.get("bystander_tokens", 1) == 0 and st.get("check_tokens", 1) < 2:
            miss_v[:] = 0.0                      # a bystander would need a token the supply lacks
        value = cumulative(out.miss[..., :nmax, :] * miss_v[:nmax, None], copy=False)   # misses before the n-th green
        value += out.reach[..., 1:nmax + 1, :] * stop_v[1:nmax + 1, None]
        return value

    def _codenames_values(self, problem, out, nmax) -> np.ndarray:
        """Codenames: expected agents found this turn, minus the race cost of a miss and the assassin."""
        left = max(int(problem.state.get("my_targets_left", 9)), 1)
        opp = max(int(problem.state.get("opponent_left", 8)), 1)
        found = cumulative(out.reach[..., 1:nmax + 1, :])          # expected greens for numbers 1..nmax
        dead = cumulative(out.dead[..., :nmax, :])
        # being behind in the race makes risk cheaper; the assassin costs the game
        return found / left - dead * (1.0 + opp / left)


def cumulative(rows: np.ndarray, copy: bool = True) -> np.ndarray:
    """np.cumsum(rows, axis=-2) for a few long rows (of each model), row by row (ten times faster;
    the same sums); `copy=False` sums in place a float array of the caller's own."""
    out = np.array(rows, dtype=np.result_type(rows, np.float32), copy=copy or None)
    for i in range(1, out.shape[-2]):
        out[..., i, :] += out[..., i - 1, :]
    return out
