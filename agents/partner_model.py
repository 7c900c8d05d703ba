"""Models of the partner: how a guesser reads a clue, and what a Duet key side says about the other.

* `PartnerModel`: the guesser picks among the cards it may touch with a softmax over its cosine
  similarities to the clue, temperature per backend (fitted with scikit-learn by
  `experiments/tools/fit_partner_model.py`, stored in `data/models/partner_model.json`).
* `turn_outcomes`: under that model, the probability of each way a clue's turn can end
  (m greens then a bystander, m greens then the assassin, n greens then a stop), vectorised over
  all candidate clues at once (a Plackett-Luce sequence with the targets taken best first).
* `DuetValue`: the chance to win (plus a small score term) from (greens left, tokens left), so that
  a turn's outcomes can be valued against the whole game state (RULES 3.9, 3.11).
* `human_agreement`: how often each backend's reading agrees with people's first guesses (the
  same fits), which `robust` uses to weigh its models' consensus.
* `duet_partner_prior`: RULES 3.2 read from one side: the chance that a card is green / black /
  beige on the partner's side, given my side and what the table has shown.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from engine.paths import data_path

MODEL_FILE = data_path("models", "partner_model.json")

#: used when no fitted file is present (cosine units, per backend)
FALLBACK_TEMPERATURE = {"use-m3": 0.05, "glove-50": 0.08, "minilm": 0.05, "default": 0.06}


@lru_cache(maxsize=4)
def load_partner_params(path: str | None = None) -> dict:
    p = Path(path) if path else MODEL_FILE
    try:
        with open(p, encoding="utf-8") as fh:
            return json.load(fh)
    except FileNotFoundError:
        return {"temperature": dict(FALLBACK_TEMPERATURE)}


def fitted_name(backend: str) -> str:
    """The name a backend's fits are kept under, however the spec spells it: a registered backend's
    own name (`glove` is glove-50's alias), a model's resolved path (`./my.kv` and `/models/my.kv`
    are one file); anything else as given."""
    from agents.embeddings.registry import backend_key

    try:
        key = backend_key(backend)
    except ValueError:
        return backend
    return key[5:] if key.startswith("path:") else key


def temperature_for(backend: str, params: Mapping | None = None, spread: float | None = None) -> float:
    """The fitted temperature of a guesser reading `backend`. A backend without a fit (a user's
    model by path, a new backend) with its `spread` (`card_spread`) gets the spread times the
    fitted backends' median ratio of temperature to spread: a model whose cosines all sit in a
    narrow band is read as sharply as the fitted ones, not flattened to nothing by a temperature
    made for wider cosines. Without a spread, the table's default."""
    params = params if params is not None else load_partner_params()
    table = params.get("temperature", {})
    backend = fitted_name(backend)
    if backend in table:
        return float(table[backend])
    ratio = params.get("spread_ratio")
    if spread and ratio:
        return float(ratio) * float(spread)
    return float(table.get("default", FALLBACK_TEMPERATURE["default"]))


def card_spread(emb, language: str) -> float | None:
    """How widely a backend's cosines vary: over the board-list words it knows, the mean of each
    card's standard deviation of cosine to the 10,000 most frequent clue words it knows (the hub
    statistics). None when it knows too few of either to say."""
    from agents.clue_problem import candidate_pool
    from agents.guessers.base import card_stats
    from agents.wordlists import board_words

    words = board_words(language)
    known = tuple(w for w, ok in zip(words, emb.covers(words)) if ok)
    if len(known) < 2 or len(candidate_pool([emb], language, 10000)) < 2:
        return None
    return float(card_stats(emb, known, language)[1].mean())


def partner_temperature(backend: str, emb, language: str) -> float:
    """`temperature_for`, with the spread of `emb` where the backend has no fitted temperature."""
    params = load_partner_params()
    backend = fitted_name(backend)
    unfitted = backend not in params.get("temperature", {}) and params.get("spread_ratio") and emb.has_vectors
    return temperature_for(backend, params, card_spread(emb, language) if unfitted else None)


def human_agreement(backends: Sequence[str], params: Mapping | None = None) -> np.ndarray:
    """Per backend, the top-1 agreement of its softmax with people's first guesses on the human
    guess task (the `human|backend` fits of `fit_partner_model --human`). A backend with no such
    fit gets the mean of those that have one (all 1 when none has)."""
    fits = (params if params is not None else load_partner_params()).get("fits", {})
    acc = [fits.get(f"human|{fitted_name(b)}", {}).get("top1_accuracy") for b in backends]
    known = [a for a in acc if a is not None]
    fill = float(np.mean(known)) if known else 1.0
    return np.array([fill if a is None else float(a) for a in acc])


# ---------------------------------------------------------------------------------------------
# a clue's turn under the softmax model, vectorised over candidates
# ---------------------------------------------------------------------------------------------
@dataclass
class TurnOutcomes:
    """Arrays of shape (models, nmax + 1, candidates), one row block per partner model.

    `reach[:, m]`: probability that the first m guesses are all green (reach[:, 0] = 1);
    `miss[:, m]`: probability of m greens then a bystander; `dead[:, m]`: m greens then the assassin.
    A clue of number n ends with n greens and a stop with probability reach[:, n].
    """

    reach: np.ndarray
    miss: np.ndarray
    dead: np.ndarray


def turn_outcomes(views: Sequence[np.ndarray], targets: np.ndarray, bystanders: np.ndarray,
                  assassins: np.ndarray, temperatures: Sequence[float], nmax: int,
                  cols: np.ndarray | None = None) -> TurnOutcomes:
    """`views`: one (cards, candidates) cosine matrix per partner model, read at its temperature,
    all in one pass; the masks select cards the guesser may touch; `cols`, when given, the
    candidates to score (the touchable rows' cells taken by flat index in one `take`: a third
    faster than a column `take` over every row and then the rows, a few percent of a game)."""
    temps = np.asarray(temperatures, dtype=np.float64)
    it, ib, ia = np.flatnonzero(targets), np.flatnonzero(bystanders), np.flatnonzero(assassins)
    nt, nb = len(it), len(ib)
    rows = np.concatenate([it, ib, ia])             # the touchable rows: targets, bystanders, assassins
    v = views[0].shape[1] if cols is None else len(cols)
    w = np.empty((len(views), len(rows), v), np.float32)
    flat = None if cols is None else rows[:, None] * views[0].shape[1] + cols[None, :]
    for h, view in enumerate(views):
        if flat is None:
            w[h] = view[rows]
        else:
            np.take(view.reshape(-1), flat, out=w[h])
    w -= w.max(axis=1, keepdims=True)
    w *= (1.0 / temps).astype(np.float32)[:, None, None]
    # float32 and a floor on the exponent: no subnormals (which are slow), negligible weights anyway
    np.maximum(w, np.float32(-30.0), out=w)
    np.exp(w, out=w)
    wt = w[:, :nt]
    g = wt.sum(axis=1)
    b_n = w[:, nt:nt + nb].sum(axis=1) if nb else np.zeros((len(views), v), np.float32)
    b_a = w[:, nt + nb:].sum(axis=1) if len(ia) else np.zeros((len(views), v), np.float32)
    nmax = max(0, min(nmax, nt))
    wt_sorted = top_rows(wt.transpose(1, 0, 2), nmax)
    reach = np.ones((nmax + 1, len(views), v), np.float32)
    miss = np.zeros((nmax + 1, len(views), v), np.float32)
    dead = np.zeros((nmax + 1, len(views), v), np.float32)
    for m in range(nmax):        # each product and quotient written in place: the same numbers
        denom = g + b_n
        denom += b_a
        denom[denom <= 0] = 1.0
        for part, into in ((b_n, miss[m]), (b_a, dead[m]), (g, reach[m + 1])):
            np.multiply(reach[m], part, out=into)
            into /= denom
        g = np.maximum(g - wt_sorted[m], 0.0)
    return TurnOutcomes(*(a.transpose(1, 0, 2) for a in (reach, miss, dead)))   # models first


def top_rows(w: np.ndarray, k: int) -> np.ndarray:
    """The k largest values of each column of the non-negative `w`, largest first: an insertion
    network over the rows (for a few rows, four times as fast as sorting each column). A row fills
    an empty slot without comparisons, and the last slot only keeps the larger."""
    top: list[np.ndarray] = []
    for x in w:
        x = x.copy()
        for i, t in enumerate(top):
            if i == k - 1:
                np.maximum(t, x, out=t)
                break
            hi = np.maximum(t, x)
            np.minimum(t, x, out=x)
            top[i] = hi
        else:
            if len(top) < k:
                top.append(x)
    top += [np.zeros(w.shape[1:], w.dtype) for _ in range(k - len(top))]
    return np.stack(top) if top else np.zeros((0, *w.shape[1:]), w.dtype)


# ---------------------------------------------------------------------------------------------
# the value of a Duet game state
# ---------------------------------------------------------------------------------------------
class DuetValue:
    """V(greens left, tokens left): chance to win, plus `score_weight` x the expected score.

    A later turn finds g greens with a binomial(4, pace/4) law and loses with probability
    `hazard`; with no token left the game is in sudden death, where each remaining green is
    found with probability `sudden` (RULES 3.9). `after` is the same by side: a turn finds only
    greens of its clue giver's side, and the givers alternate (RULES 3.4, 3.8).
    """

    def __init__(self, pace: float = 2.0, hazard: float = 0.02, sudden: float = 0.45,
                 score_weight: float = 0.01, max_greens: int = 15, max_tokens: int = 12):
        n = 4
        p = min(max(pace / n, 1e-6), 1 - 1e-6)
        q = np.array([math.comb(n, g) * p ** g * (1 - p) ** (n - g) for g in range(n + 1)])
        table = np.zeros((max_greens + 1, max_tokens + 1))
        for t in range(max_tokens + 1):
            table[0, t] = 1.0 + score_weight * (3 * t + 1)
        for r in range(1, max_greens + 1):
            table[r, 0] = sudden ** r * (1.0 - score_weight)
            for t in range(1, max_tokens + 1):
                nxt = [table[max(r - g, 0), t - 1] for g in range(n + 1)]
                table[r, t] = (1 - hazard) * float(np.dot(q, nxt))
        self.table = table
        self.score_weight = score_weight
        # by side: W[x, y, t] before a turn of the side with x greens its clues must still lead to,
        # y the other side's (at most 9 each); the next turn is the other side's, and a side with
        # no green left gives no more clues (RULES 3.8): W[0, y] is W[y, 0], the other clues on
        m = 10
        w = np.zeros((m, m, max_tokens + 1))
        w[:, :, 0] = [[sudden ** (x + y) * (1.0 - score_weight) for y in range(m)] for x in range(m)]
        w[0, 0, :] = table[0]                         # won
        for t in range(1, max_tokens + 1):
            for x in range(1, m):
                for y in range(m):
                    nxt = [w[y, max(x - g, 0), t - 1] for g in range(n + 1)]
                    w[x, y, t] = (1 - hazard) * float(np.dot(q, nxt))
            w[0, 1:, t] = w[1:, 0, t]
        self.sides = w

    def after(self, mine: int, theirs: int, tokens_left: int) -> float:
        """The value after my turn, by side: `mine` greens my clues must still lead to, `theirs`
        the partner's clues, the partner to clue next (or me again, when its side is done)."""
        m = self.sides.shape[0] - 1
        x, y = int(min(max(mine, 0), m)), int(min(max(theirs, 0), m))
        t = int(min(max(tokens_left, 0), self.sides.shape[2] - 1))
        return float(self.sides[y, x, t])

    def __call__(self, greens_left: int, tokens_left: int) -> float:
        r = int(min(max(greens_left, 0), self.table.shape[0] - 1))
        t = int(min(max(tokens_left, 0), self.table.shape[1] - 1))
        return float(self.table[r, t])


# ---------------------------------------------------------------------------------------------
# RULES 3.2 from one side
# ---------------------------------------------------------------------------------------------
# partner side counts given my side (row: mine; columns: partner's G, X, N)
_STRUCTURE = {"G": {"G": 3, "X": 1, "N": 5}, "X": {"G": 1, "X": 1, "N": 1}, "N": {"G": 5, "X": 1, "N": 7}}
_COUNTS = {m: [c["G"], c["X"], c["N"]] for m, c in _STRUCTURE.items()}
_RESULT_COLUMN = {"green": 0, "assassin": 1, "bystander": 2}


@lru_cache(maxsize=64)
def _side_codes(side: str) -> np.ndarray:
    """Each card's row of `_COUNTS` (G, X, N) for a key side's letters."""
    order = {m: i for i, m in enumerate(_COUNTS)}
    return np.array([order[m] for m in side])


def duet_partner_prior(obs) -> np.ndarray:
    """(cards, 3) probabilities that each card is G / X / N on the partner's side.

    What I know for certain: a card I covered with a green on the partner's clue is green for the
    partner; a card where my guess put a bystander token is beige for the partner (RULES 3.5).
    The other cards of each of my categories share the category's remaining counts (RULES 3.2).
    """
    me = obs.seat
    index = {w: i for i, w in enumerate(obs.words)}
    known: dict[int, int] = {}
    for e in obs.history:
        if e.kind == "guess" and e.seat == me and e.word in index:
            known[index[e.word]] = _RESULT_COLUMN.get(e.result, 2)
    remaining = {m: list(c) for m, c in _COUNTS.items()}
    for i, t in known.items():
        counts = remaining[obs.own_key[i]]
        counts[t] = max(counts[t] - 1, 0)
    rows = []
    for counts in remaining.values():
        tot = sum(counts)
        rows.append([c / tot for c in counts] if tot > 0 else [0.0, 0.0, 1.0])
    out = np.array(rows, dtype=float)[_side_codes("".join(obs.own_key))]
    for i, t in known.items():
        out[i] = 0.0
        out[i, t] = 1.0
    return out
