"""`robust`: the `expected` planner made for partners that read clues with another mind.

The `expected` spymaster trusts its own models' cosines; a partner on another model (or a person)
reads them differently. What changes (measured on the partner panel, docs/agents.md):

* similarities in each candidate's own units (`agents.clue_problem.StandardSims`): a clue is
  credited only for the cards it singles out among all board words, not for being a hub (rare or
  vague words sit near everything in some models); and, with weight `row`, in each card's own
  units too (its cosine to the clue against its cosines to every candidate), so a card that is a
  hub in one model is not promised to a partner (with `duet-bayes`'s matching `hub` reading,
  +5 points on the panel);
* partner hypotheses (`combine=consensus`): "an unknown mind", read as the mean z-score of all my
  backends (their idiosyncrasies average out; in English each weighed by how often it agrees with
  people's first guesses, to the power `quality`: +3 points on the panel, +10 with the
  human-data partner), with prior weight `prior`, beside "exactly one of my backends" for each;
  the partner's guesses weigh them, so a partner on one of my models is soon
  recognised (self-play stays ~98%) while a foreign one is met with the consensus; the guesses'
  likelihood is tempered (`learn` 0.25: with a partner on none of my models, a few guesses that
  happen to fit one of them should not hand it the game; +0.9 points on the panel); the consensus
  is surer of a clue word my backends read alike (over the board list, each one's similarities to
  it correlate with the others') and less sure of one they part on (`agree`, `agreement_scale`: a
  partner temperature per clue, +1.7 points on the panel); with three models or more, a model
  that reads unlike the others (its similarities correlate least with their mean) weighs less in
  the consensus (`central`, `centrality`: +0.5 points on the six-model panel). `min` (worst
  case over backends) and `mean` are there too; on the panel both did worse. `combine=foreign`
  reads the unknown mind with the fitted foreign-partner model instead (`agents.foreign_model`):
  better calibrated (held-out log-likelihood -2.3 against -3.1), no more wins on the panel;
* the value of a game state (`pace`, `sudden`) set for a foreign partner: about 1.4 greens a clue
  and few sudden deaths won, which makes bolder clues worth their risk (+1-2 points on the panel);
  half of it counted by side (`sides` 0.5): the players alternate clues, so what my clues leave
  waits for my own next turn, or for sudden death (with the partner's `last`, +0.8 points on the
  panel; at full weight the clues grow bolder than the partners follow, docs/agents.md);
* the assassin's neighbourhood avoided under every model: no clue whose `veto` nearest touchable
  cards hold an assassin under any backend;
* on Korean boards, as an opt-in for research only, a reader of form beside the models of meaning
  (`form`, the backend `syllables`: the cosine of two words' sets of syllables). The Korean panel's
  models read a lone word largely by its syllables, and with this reader the spymaster foresees
  them: leave-one-out 2.7 -> 6.7%. But it does so by choosing clues for the syllables they share
  with their targets (`토로 4` for 토끼, 로봇, 해골, 피리), which is pointing at letters, not meaning
  (RULES 4.1), and no person or better model would follow them: off by default (`form` 0);
* candidates: the `vocab` most frequent words that read as nouns (`nouns`; English, lemminflect);
  15,000 of them, with single-model hypotheses at `selftemp` 0.4: against 10,000 and 0.25, +2.4
  points on the panel, +2 with the human-data partner, +3-7 with mpnet and e5-small partners of
  the default pair, at about a third fewer games/s (20,000: a point less on the panel, slower).
"""

from __future__ import annotations

import copy
from typing import Sequence

import numpy as np

from agents.clue_problem import StandardSims, best_of, passing, prefilter, row_max
from agents.foreign_model import features, rev_matrix, utility, weights_for
from agents.partner_model import human_agreement
from agents.spec import above, at_least, between, one_of, whole

from .expected import ExpectedValueSpymaster


#: The form reader added on Korean boards (`form`; agents.embeddings.backends.SyllableEmbeddings).
SYLLABLES = "syllables"


class RobustSpymaster(ExpectedValueSpymaster):
    name = "robust"
    combines = ("consensus", "foreign", "min", "mean")
    # pace/sudden: the value model of a game with a foreign partner (about 1.4 greens a clue, few
    # sudden deaths won); cap: the clues scored a turn, the 1,000 of the widest worst-case margin
    # (3,000 played as well and took a seventh longer); measured on the panel (docs/agents.md);
    # rare: commoner clue words, which a partner with a smaller vocabulary holds (docs/crossplay.md)
    defaults = {**ExpectedValueSpymaster.defaults, "combine": "consensus", "vocab": 15000,
                "pace": 1.4, "sudden": 0.3, "cap": 1000, "rare": 0.03,
                "ztemp": 0.6, "kmax": 4, "nouns": 1.0,
                "selftemp": 0.4, "prior": 0.6, "adapt": "0", "veto": 1, "row": 0.5,
                "quality": 3.0, "learn": 0.25, "form": 0.0, "agree": 0.5, "central": 1.0,
                "sides": 0.5}
    limits = {**ExpectedValueSpymaster.limits, "ztemp": above(0), "selftemp": above(0), "prior": between(0, 1),
              "veto": whole(0), "row": between(0, 1), "quality": at_least(0), "form": at_least(0),
              "agree": at_least(0), "central": at_least(0), "combine": one_of(*combines)}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        t = float(self.p("temp"))
        zt = t if t > 0 else float(self.p("ztemp"))
        n = len(self.backend_names)
        if self.p("combine") == "foreign":
            # hypotheses: a mind outside my models (the fitted foreign-partner model, logit
            # units), or exactly one of my backends
            self.temperatures = [1.0] + [float(self.p("selftemp"))] * n
        elif self.p("combine") == "consensus" and n > 1:
            # hypotheses: an unknown mind (the consensus), or exactly one of my backends
            self.temperatures = [zt] + [float(self.p("selftemp"))] * n
        else:
            self.temperatures = [zt] * n

    def models(self, spec) -> tuple[str, ...]:
        """The spec's backends; on Korean boards with `form` > 0 also the reader of the syllables a clue
        shares with a card."""
        names = super().models(spec)
        if self.language == "ko" and float(self.p("form")) > 0 and SYLLABLES not in names:
            names += (SYLLABLES,)
        return names

    def hypothesis_prior(self, n: int) -> np.ndarray:
        if self.p("combine") not in ("consensus", "foreign") or n == 1:
            return super().hypothesis_prior(n)
        p0 = float(self.p("prior"))
        return np.array([p0] + [(1.0 - p0) / (n - 1)] * (n - 1))

    def prepare(self) -> None:
        super().prepare()
        if all(m is not None for m in self.pool.board_matrix):   # the board list's views, shared too
            row = float(self.p("row"))
            if self.p("combine") in ("consensus", "foreign") and len(self.backends) > 1:
                consensus_matrix(self.pool, row, self.consensus_weights(), float(self.p("agree")))
            else:
                for b in range(len(self.backends)):
                    self.pool.standard_matrix(b, row)
        if self.p("combine") == "foreign":
            for b in range(len(self.backends)):
                if self.pool.board_matrix[b] is not None:
                    rev_matrix(self.pool, b)

    def foreign_weights(self) -> np.ndarray:
        """Weights fitted without the labels of the partner I lack: when my backends are a panel
        less one model, that model's leave-one-out fit (an honest benchmark), else the fit on all."""
        w = self.__dict__.get("_foreign_w")
        if w is None:
            w = self._foreign_w = weights_for(self.language, self.backend_names)
        return w

    def consensus_weights(self) -> np.ndarray | None:
        if "_consensus_w" not in self.__dict__:
            w = consensus_weights(self.backend_names, self.language, float(self.p("quality")))
            form = float(self.p("form"))
            if SYLLABLES in self.backend_names and form not in (0.0, 1.0) and len(self.backend_names) > 1:
                w = np.ones(len(self.backend_names)) if w is None else np.array(w, dtype=float)
                w[self.backend_names.index(SYLLABLES)] *= form
                w = w / w.sum()
            central = float(self.p("central"))
            c = centrality(self.pool, float(self.p("row"))) if central > 0 else None   # None before prepare()
            if c is not None:
                w = np.ones(len(c)) if w is None else np.array(w, dtype=float)
                w = w * np.clip(c, 1e-3, None) ** central
                w = w / w.sum()
            self._consensus_w = w
        return self._consensus_w

    def candidate_filter(self):
        """`nouns`: the pool holds only the words that read as nouns (`read_as_nouns`): every array
        of a board is that much narrower."""
        return read_as_nouns if float(self.p("nouns")) > 0 else None

    def combination(self) -> str:
        return "bayes" if self.p("combine") in ("consensus", "foreign") else self.p("combine")

    def choose(self, problem, pool, sims, ok):
        mode = self.p("combine")
        cache = sims.__dict__.setdefault("_robust_views", {})   # the pool's boards are shared
        key = (mode, float(self.p("row")), float(self.p("quality")), float(self.p("agree")))
        views = cache.get(key)
        if views is None:
            views = StandardSims(sims, pool, float(self.p("row")))
            if mode == "foreign" or (mode == "consensus" and len(views.raw) > 1):
                views = Hypotheses(views, self.consensus_weights(), float(self.p("agree")))
            cache[key] = views
        if mode == "foreign":
            safe = ok & assassin_clear(own_views(views), problem, int(self.p("veto")))
            views, ok = self.foreign_views(problem, pool, views, safe if safe.any() else ok)
        return super().choose(problem, pool, views, ok)

    def columns(self, problem, sims, ok) -> np.ndarray:
        """`expected`'s candidates, less those near the assassin under any model (`assassin_clear`;
        when none is clear, all). The veto is judged on the prefilter's survivors only (the same
        choice as judging every candidate first, at a fraction of the cost); on the nearest card
        (`veto` 1) from the prefilter's own maxima."""
        veto = int(self.p("veto"))
        if self.p("combine") == "foreign" or veto <= 0 or not problem.assassin.any():
            return super().columns(problem, sims, ok)       # foreign: vetoed in choose
        own = own_views(sims)
        if veto == 1:
            keep, gap, clear = passing(sims, problem, ok, self.floors(), nearest_from=len(sims.raw) - len(own))
            safe = clear[keep]
        else:
            keep, gap = passing(sims, problem, ok, self.floors())
            memo = sims.__dict__.setdefault("_assassin_counts", {})
            safe = assassin_clear(own, problem, veto, keep, memo)
        if safe.any():
            return best_of(keep[safe], gap[safe], int(self.p("cap")))
        everywhere = ok & (clear if veto == 1 else assassin_clear(own, problem, veto, memo=memo))
        if everywhere.any():                # clear clues exist, none passes the prefilter: all of them
            return np.flatnonzero(everywhere)
        return best_of(keep, gap, int(self.p("cap"))) if len(keep) else np.flatnonzero(ok)

    def foreign_views(self, problem, pool, views: "Hypotheses", ok: np.ndarray):
        """The foreign-partner hypothesis first, then each backend alone. Its utility is built for
        the candidates worth scoring (the consensus prefilter, at most `cap`) and the clues I gave
        before (the partner's answers to them weigh the hypotheses)."""
        floors = [-2.0 * float(self.p("ztemp"))] + [-2.0 * t for t in self.temperatures[1:]]
        cols = prefilter(views, problem, ok, floors, cap=int(self.p("cap")))
        if len(cols) == 0:
            cols = np.flatnonzero(ok)
        earlier = [pool.index[w] for w in problem.used_clues if w in pool.index]
        need = np.union1d(cols, np.array(earlier, dtype=int))
        rows = [pool.board_rows.get(w) for w in problem.board]
        standard = views.raw[1:]
        rev = []
        for b in range(len(standard)):
            if pool.board_matrix[b] is not None and None not in rows:
                rev.append(rev_matrix(pool, b)[rows][:, need])
            else:                                   # a board off the list: no giver's-side view
                rev.append(np.zeros((len(problem.board), len(need)), np.float32))
        u = utility(self.foreign_weights(), features([z[:, need] for z in standard], rev, problem.guessable))
        full = np.full(standard[0].shape, -30.0, np.float32)
        full[:, need] = u
        keep = np.zeros_like(ok)
        keep[cols] = True
        foreign = copy.copy(views)
        foreign.raw = [full] + standard
        foreign.per_call = True       # its first view is built for this turn: nothing is kept with it
        return foreign, ok & keep


def assassin_clear(views, problem, top: int, cols: np.ndarray | None = None,
                   memo: dict | None = None) -> np.ndarray:
    """Candidates (all, or those in `cols`) whose `top` nearest touchable cards hold no assassin
    under *every* model: the assassin's neighbourhood is avoided in each mind the spymaster can
    imagine, not on average. `memo` (kept with the views) holds each view's counts over the whole
    board and over the touchable cards of the last call, so a later turn only takes off the cards
    gone since."""
    n = (views[0].shape[1] if cols is None else len(cols)) if views else 0
    clear = np.ones(n, dtype=bool)
    if top <= 0 or not problem.assassin.any():
        return clear
    black = np.flatnonzero(problem.assassin)
    now = frozenset(np.flatnonzero(~problem.guessable).tolist())
    memo = {} if memo is None else memo
    for z in views:
        key = (id(z), black.tobytes())
        if key not in memo:
            worst = row_max(z, black)
            above = (z > worst).sum(axis=0, dtype=np.uint8)   # cards strictly above the nearest assassin
            memo[key] = worst, above, frozenset(), above
        worst, full, done, counted = memo[key]
        if not done <= now:                           # another game on the same board: start over
            done, counted = frozenset(), full
        if now != done:                               # a later turn: take off the newly gone cards
            counted = counted.copy()
            for r in sorted(now - done):
                counted -= z[r] > worst
            memo[key] = worst, full, now, counted
        clear &= (counted if cols is None else counted[cols]) >= top
    return clear


def own_views(views) -> list[np.ndarray]:
    """Each backend's own view: `Hypotheses` put the consensus first."""
    return views.raw[1:] if isinstance(views, Hypotheses) else views.raw


class Hypotheses:
    """Views of how the partner may read clues: first the consensus of my backends (the mean of
    their z-scores, weighted by `consensus_weights` when given: each model's idiosyncrasies
    average out, what is left is what a mind outside the ensemble also tends to see; each clue's
    column sharpened or flattened by `agreement_scale`), then each backend alone (a partner on that
    very model).
    The partner's guesses weigh them (Bayesian model averaging, `ExpectedValueSpymaster`)."""

    def __init__(self, standard: StandardSims, weights: np.ndarray | None = None, agree: float = 0.0):
        self.board = standard.board
        if standard.rows is not None:     # a listed board: rows of the list's consensus
            consensus = consensus_matrix(standard.pool, standard.row, weights, agree)[standard.rows]
        else:
            consensus = agreed(combined(standard.raw, weights), standard.pool, standard.row, agree)
        self.raw = [consensus] + list(standard.raw)
        self.scale = [1.0] * len(self.raw)


def combined(views: list[np.ndarray], weights: np.ndarray | None) -> np.ndarray:
    """The consensus of z-score views: their mean, or their weighted sum."""
    if weights is None:
        return np.mean(views, axis=0)
    return sum(float(w) * z for w, z in zip(weights, views)).astype(np.float32)


def consensus_matrix(pool, row: float, weights: np.ndarray | None, agree: float = 0.0) -> np.ndarray:
    """`combined` over the whole board list (every backend's `standard_matrix`), each column times its
    `agreement_scale`, once per pool, read-only: a board's consensus is its rows (the same numbers,
    element by element)."""
    key = ("consensus", float(row), None if weights is None else np.asarray(weights).tobytes(), float(agree))

    def build() -> np.ndarray:
        views = [pool.standard_matrix(b, row) for b in range(len(pool.backends))]
        return agreed(combined(views, weights), pool, row, agree)

    return pool.shared(key, build)


def agreed(consensus: np.ndarray, pool, row: float, agree: float) -> np.ndarray:
    """`consensus` with each clue's column times its `agreement_scale` (as it is for `agree` 0)."""
    scale = agreement_scale(pool, row, agree)
    return consensus if scale is None else consensus * scale[None, :]


def agreement(pool, row: float) -> np.ndarray | None:
    """Per candidate clue, how alike my backends read it: over the board list, the correlation of each
    backend's standardised similarities to it with the mean of the other backends', averaged over
    the backends. None without the board list's views of at least two backends."""
    n = len(pool.backends)
    if n < 2 or any(m is None for m in pool.board_matrix):
        return None

    def build() -> np.ndarray:
        views = [pool.standard_matrix(b, row) for b in range(n)]
        total = sum(views)
        out = np.zeros(views[0].shape[1])
        for z in views:
            x = z - z.mean(axis=0)
            y = (total - z) / (n - 1)
            y = y - y.mean(axis=0)
            out += (x * y).sum(axis=0) / np.sqrt((x * x).sum(axis=0) * (y * y).sum(axis=0) + 1e-12)
        return out / n

    return pool.shared(("agreement", float(row)), build)


def centrality(pool, row: float) -> np.ndarray | None:
    """Per backend, the correlation of its standardised board-list similarities with the mean of the
    other backends'. None with fewer than three views (two models each correlate with the other alike).

    Why (`central`): the consensus stands for a mind outside my models; a model that reads unlike all
    the others (wordllama beside four sentence encoders: 0.25 against 0.43-0.55) pulls it away from
    what the others share, and a sixth model cost the five earlier partners about a point."""
    n = len(pool.backends)
    if n < 3 or any(m is None for m in pool.board_matrix):
        return None

    def build() -> np.ndarray:
        # sums over blocks of rows in float64: no float64 copy of the whole list (about 45 MB a model)
        views = [pool.standard_matrix(b, row) for b in range(n)]
        sx, sy, sxx, syy, sxy = (np.zeros(n) for _ in range(5))
        for start in range(0, views[0].shape[0], 32):
            x = np.stack([z[start:start + 32] for z in views]).astype(np.float64).reshape(n, -1)
            y = (x.sum(axis=0) - x) / (n - 1)
            sx += x.sum(axis=1)
            sy += y.sum(axis=1)
            sxx += (x * x).sum(axis=1)
            syy += (y * y).sum(axis=1)
            sxy += (x * y).sum(axis=1)
        m = views[0].size
        return (sxy - sx * sy / m) / np.sqrt((sxx - sx * sx / m) * (syy - sy * sy / m))

    return pool.shared(("centrality", float(row)), build)


def agreement_scale(pool, row: float, agree: float) -> np.ndarray | None:
    """The factor on each candidate's column of the consensus: its `agreement` relative to the mean
    candidate's, clipped to 0.2-2, to the power `agree` (None for 0, or without the views).

    Why: where my models read a clue word alike, a mind outside them likely reads it so too, and
    where they part, it may go anywhere. A larger factor is a sharper consensus softmax, a smaller one
    a flatter: the partner's temperature per clue, where `ztemp` is one for all (+1.7 points of
    leave-one-out over fifteen seeds, docs/agents.md)."""
    if agree <= 0:
        return None
    a = agreement(pool, row)
    if a is None:
        return None
    return pool.shared(("agreement_scale", float(row), float(agree)),
                       lambda: (np.clip(np.maximum(a, 1e-3) / a.mean(), 0.2, 2.0) ** agree).astype(np.float32))


def consensus_weights(backends, language: str, power: float) -> np.ndarray | None:
    """The consensus's weight of each backend: how often it agrees with people's first guesses
    (`human_agreement`, English data), to the power `quality`. A model people read clues like is
    also what other minds share; the form-reading ones (e5-small, by spelling and sound) and the
    co-occurrence one (glove-50) count less. None (equal weights) for 0 or a language without
    human data."""
    if power <= 0 or language != "en" or len(backends) < 2:
        return None
    w = human_agreement(backends) ** power
    return w / w.sum()


def read_as_nouns(words: Sequence[str], language: str) -> np.ndarray:
    """Which words can be read as nouns (names included): adjectives and adverbs make vague
    clues whose neighbours differ most between minds ("effective", "worthwhile", "wide"). English
    only (lemminflect); every Korean word passes."""
    if language != "en":
        return np.ones(len(words), dtype=bool)
    from lemminflect import getAllLemmas

    def noun(word: str) -> bool:
        pos = getAllLemmas(word)
        return not pos or "NOUN" in pos or "PROPN" in pos

    return np.array([noun(w) for w in words], dtype=bool)
