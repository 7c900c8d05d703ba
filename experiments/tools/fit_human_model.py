"""Fit the human-like guesser's weights (`data/models/human_guesser.json`) on Cultural Codes data.

    python -m experiments.tools.fit_human_model --data ../shared/data/cultural-codes [--split val]
        [--backends use-m3+glove-50+minilm] [--subsets] [--out data/models/human_guesser.json]

Every row of both tasks is a choice among cards: in `generate_guess_task` the person's (first)
guess among the cards left, in `clue_generation_task` each intended target among black + tan +
targets. The model is a linear utility over `agents.human_model.FeatureBuilder`'s per-card
features, fitted as a conditional logit: maximum likelihood of the chosen card under a softmax over
the row's cards (a row with several targets: each target against the cards that are no target),
every row weighted equally, an L2 penalty `lam` on the standardised weights (scipy's L-BFGS; the
exact likelihood did a little better than the former pairwise logistic regression).

Honesty: rows of the same game share a board and its clues' cards, so cross-validation folds are
whole games (rows whose boards share 12+ words are one group; a 100-word pool gives unrelated games
about 6 shared words). The stored and printed `cv` figures are nested: in each of the 5 outer folds
the penalty `lam` and the hubness features (on/off) are chosen by an inner 4-fold grouped CV on the
outer training games only, then the model is fitted there and scored on the held-out games, which
never touch a choice. `in_sample` is the final model (its `lam` and hubness chosen by 5-fold CV on
all rows) scored on the rows it was fitted on.

The clue memory (`agents.human_model.ClueMemory`): per card, the clues people gave or followed for
it, summed per game (`MemoryData`). Its second-stage logit (the first model's utility plus one
cosine-to-prototype column per backend, penalty `MEMORY_LAM`) is fitted on the same training rows,
each row's prototypes built from the *other* training games only, as at play, where the row's own
game is never in the memory; held-out rows read prototypes of the training games only. `cv` is the
model with the memory, `cv_plain` the plain stage (what boards outside the data get): the same
first-stage fit on the rows read with `agents.human_model.PLAIN_READINGS` (use-m3 bare).
"""

from __future__ import annotations

import itertools
import json
import time
from pathlib import Path
from typing import Callable, Optional, Sequence

import numpy as np
import typer

from agents.embeddings.registry import check_model_paths
from agents.human_model import (
    DEFAULT_BACKENDS, FEATURES, GLOBAL, MODEL_FORMAT, MODEL_PATH, ClueMemory, FeatureBuilder,
    feature_names, memory_cosines, model_key, plain_readings, prototypes,
)
from experiments.evaluation.cultural_codes import (GuessItem, HumanDataError, TargetItem, load_guess_items,
                                                   load_target_items)
from experiments.evaluation.eval_human import guess_metrics, target_metrics
from experiments.tools.cli import fail, one_line_errors

LAM_GRID = (0.001, 0.003, 0.01, 0.03)
FOLDS = 5
INNER_FOLDS = 4
SAME_GAME = 12  # boards sharing this many words are one game (one CV group)
MEMORY_LAM = 0.01  # the clue memory's second stage (0.003-0.03 within 0.01 of each other in CV)
#: the features a fitted model uses, per backend (the hubness ones are switched on or off by CV)
FIT_FEATURES = tuple(f for f in FEATURES)
FIT_GLOBAL = tuple(GLOBAL)


def game_groups(boards: Sequence[Sequence[str]], same: int = SAME_GAME) -> np.ndarray:
    """Connected components of 'boards share >= `same` words, or every word of the smaller one'
    (a board of fewer than `same` cards, a smaller game's or a late turn's, is on its game's boards)."""
    sets = [frozenset(b) for b in boards]
    parent = list(range(len(sets)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in itertools.combinations(range(len(sets)), 2):
        if len(sets[i] & sets[j]) >= min(same, len(sets[i]), len(sets[j])):
            parent[find(i)] = find(j)
    roots = {r: k for k, r in enumerate(dict.fromkeys(find(i) for i in range(len(sets))))}
    return np.array([roots[find(i)] for i in range(len(sets))])


class ChoiceData:
    """Per-row candidate features, the chosen cards, and the CV groups, for both tasks."""

    def __init__(self, guess: list[GuessItem], target: list[TargetItem], builder: FeatureBuilder):
        self.guess, self.target = guess, target
        self.names = builder.names()
        self.cands = [it.board for it in guess] + [it.candidates for it in target]
        self.clues = [it.clue for it in guess] + [it.clue for it in target]
        self.pos = ([(it.board.index(it.guesses[0]),) for it in guess]
                    + [tuple(it.candidates.index(t) for t in dict.fromkeys(it.targets)) for it in target])
        # later guesses of the same clue are neither the choice nor a rejected card (the chosen card
        # named again, `ocean, ocean`, stays the choice)
        self.skip = ([tuple(dict.fromkeys(i for i in map(it.board.index, it.guesses[1:]) if i != p[0]))
                      for it, p in zip(guess, self.pos)] + [() for _ in target])
        self.X = [builder.features(c, w) for c, w in zip(self.clues, self.cands)]
        self.groups = game_groups(self.cands)
        self.n_guess = len(guess)
        self.builder = builder

    def columns(self, names: Sequence[str]) -> "list[np.ndarray]":
        idx = [self.names.index(n) for n in names]
        return [x[:, idx] for x in self.X]


class MemoryData:
    """Per backend: for each game group and card, the sum of the unit vectors of the clues people
    gave (target rows) or followed (guess rows: the first guess) for that card; each card's own
    vector; each row's clue vector. `columns(allowed)` is each row's memory features with the
    prototypes of the `allowed` groups less the row's own.

    `unclued` (a share, 0 by default): the held-out rows (those of groups not `allowed`) read that
    share of their cards, drawn per row from a seeded generator, without a prototype (as their own
    vector), as on a board that mixes the data's cards with cards nobody has clued."""

    def __init__(self, data: ChoiceData, backends: Sequence[str], unclued: float = 0.0, seed: int = 0):
        self.data, self.backends = data, tuple(backends)
        self.unclued, self.seed = unclued, seed
        self.cards = sorted({w for c in data.cands for w in c})
        index = {w: i for i, w in enumerate(self.cards)}
        self.rows_idx = [np.array([index[w] for w in c]) for c in data.cands]
        n_groups = int(data.groups.max()) + 1
        self.sums, self.own, self.clue = {}, {}, {}
        #: per game group, the cards on its boards: the memory's games hold a prototype for each card
        #: they showed (its own vector plus the clues people gave or followed for it, if any); a card
        #: none of them showed has none, and `memory_cosines` reads it by its own vector
        self.seen = np.zeros((n_groups, len(self.cards)), dtype=bool)
        for r, idx in enumerate(self.rows_idx):
            self.seen[data.groups[r], idx] = True
        for b in self.backends:
            vec = dict(zip(self.cards, data.builder.vectors(b, self.cards)))
            clue_vecs = data.builder.vectors(b, data.clues)
            dim = next((v.shape[0] for v in [*vec.values(), *clue_vecs] if v is not None), 1)
            S = np.zeros((n_groups, len(self.cards), dim), dtype=np.float64)
            for r, cv in enumerate(clue_vecs):
                if cv is not None:
                    for p in data.pos[r]:
                        S[data.groups[r], self.rows_idx[r][p]] += cv
            self.sums[b] = S
            self.own[b] = np.stack([vec[w] if vec[w] is not None else np.zeros(dim, np.float32) for w in self.cards])
            self.clue[b] = clue_vecs

    def memory(self, allowed: np.ndarray) -> ClueMemory:
        """The clue memory of the `allowed` groups (a boolean mask over groups): a prototype for each
        card on their boards."""
        keep = np.flatnonzero(self.seen[allowed].any(axis=0))
        return ClueMemory([self.cards[i] for i in keep],
                          {b: prototypes(self.sums[b][allowed].sum(axis=0)[keep], self.own[b][keep])
                           for b in self.backends})

    def columns(self, backends: Sequence[str], allowed: np.ndarray) -> list[np.ndarray]:
        groups = self.data.groups
        out = [np.zeros((len(c), len(backends))) for c in self.data.cands]
        unclued = {}
        if self.unclued > 0:
            rng = np.random.default_rng(self.seed)
            unclued = {r: rng.choice(len(idx), size=int(round(self.unclued * len(idx))), replace=False)
                       for r, idx in enumerate(self.rows_idx) if not allowed[groups[r]]}
        for k, b in enumerate(backends):
            total = self.sums[b][allowed].sum(axis=0)
            for r, idx in enumerate(self.rows_idx):
                T = total[idx] - (self.sums[b][groups[r], idx] if allowed[groups[r]] else 0.0)
                others = allowed.copy()
                others[groups[r]] = False   # as at play: the row's own game is not in the memory
                clued = self.seen[others][:, idx].any(axis=0)
                if r in unclued:
                    T[unclued[r]] = 0.0
                    clued[unclued[r]] = False
                out[r][:, k] = memory_cosines(self.clue[b][r], prototypes(T, self.own[b][idx]), self.own[b][idx], clued)
        return out


def fit_scale(X: list[np.ndarray], rows: Sequence[int]) -> np.ndarray:
    """The features' standard deviations over `rows` (the rows a fit is fitted on; 1 where a
    feature is flat). The scale is fitted from data like the weights: it sets how hard the L2
    penalty pulls each weight, so a held-out row never enters it."""
    scale = np.vstack([X[r] for r in rows]).std(axis=0)
    scale[scale < 1e-9] = 1.0
    return scale


def fit_memory(X: list[np.ndarray], w: np.ndarray, mem_cols: list[np.ndarray], data: ChoiceData,
               rows: Sequence[int]) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """The second stage on `rows`: weights and scale over [first-stage utility, memory columns], and
    every row's second-stage features."""
    X2 = [np.column_stack([x @ w, m]) for x, m in zip(X, mem_cols)]
    scale = fit_scale(X2, rows)
    scale[0] = 1.0
    return fit_weights(X2, data.pos, data.skip, rows, scale, MEMORY_LAM), scale, X2


def pairwise(X: list[np.ndarray], pos, skip, rows: Sequence[int]):
    """Chosen-minus-other difference rows, both signs, each row's pairs weighted to sum to 1 (kept
    for comparisons; the fit itself is the exact conditional logit of `fit_weights`)."""
    D, W = [], []
    for r in rows:
        x = X[r]
        neg = [j for j in range(len(x)) if j not in pos[r] and j not in skip[r]]
        if not neg:
            continue
        d = (x[list(pos[r])][:, None, :] - x[neg][None, :, :]).reshape(-1, x.shape[1])
        D.append(d)
        W.append(np.full(len(d), 1.0 / len(d)))
    D, W = np.vstack(D), np.concatenate(W)
    return np.vstack([D, -D]), np.concatenate([np.ones(len(D)), np.zeros(len(D))]), np.concatenate([W, W])


def choice_instances(X: list[np.ndarray], pos, skip, rows: Sequence[int]):
    """Padded arrays for the conditional logit: one instance per (row, chosen card), with the cards
    it competes against (the row's cards less its other chosen and its skipped ones)."""
    inst = [(r, p, 1.0 / len(pos[r])) for r in rows for p in pos[r]]
    width = max(len(X[r]) for r, _, _ in inst)
    F = X[inst[0][0]].shape[1]
    XX = np.zeros((len(inst), width, F))
    M = np.zeros((len(inst), width), dtype=bool)
    for a, (r, p, _) in enumerate(inst):
        n = len(X[r])
        XX[a, :n] = X[r]
        M[a, :n] = True
        M[a, [j for j in skip[r]] + [q for q in pos[r] if q != p]] = False
    P = np.array([p for _, p, _ in inst])
    W = np.array([w for _, _, w in inst])
    return XX, M, P, W / W.sum()


def fit_weights(X, pos, skip, rows, scale, lam: float) -> np.ndarray:
    """The conditional logit's weights on features divided by `scale` (L2 penalty `lam`)."""
    from scipy.optimize import minimize

    XX, M, P, W = choice_instances([x / scale for x in X], pos, skip, rows)
    chosen = XX[np.arange(len(P)), P]

    def loss(w):
        u = np.where(M, XX @ w, -np.inf)
        top = u.max(axis=1, keepdims=True)
        e = np.exp(u - top)
        s = e.sum(axis=1)
        value = float((W * (np.log(s) + top[:, 0] - chosen @ w)).sum() + lam * w @ w)
        prob = e / s[:, None]
        grad = (W[:, None] * (np.einsum("in,inf->if", prob, XX) - chosen)).sum(axis=0) + 2 * lam * w
        return value, grad

    res = minimize(loss, np.zeros(XX.shape[2]), jac=True, method="L-BFGS-B")
    return res.x


def metrics(data: ChoiceData, X, weights_for_row, rows: Sequence[int] | None = None) -> dict:
    rows = range(len(X)) if rows is None else rows
    top1, rankings, gi, ti = [], [], [], []
    for r in rows:
        u = X[r] @ weights_for_row(r)
        order = [int(i) for i in np.argsort(-u, kind="stable")]
        if r < data.n_guess:
            top1.append(order[0])
            gi.append(data.guess[r])
        else:
            rankings.append(order)
            ti.append(data.target[r - data.n_guess])
    g = guess_metrics(gi, top1)
    t = target_metrics(ti, rankings)
    return {k: g[k] for k in ("guess_top1", "guess_top1_ci95", "guess_top1_any")} | \
           {k: t[k] for k in ("target_recall", "target_recall_ci95", "target_recall_micro")}


def _folds(data: ChoiceData, rows: np.ndarray, folds: int):
    """Grouped folds of `rows`, at most one a game; our own refusal below 2 games (scikit-learn's
    speaks of n_splits, which the person never set)."""
    from sklearn.model_selection import GroupKFold

    groups = data.groups[rows]
    games = len(set(groups))
    if games < 2:
        raise HumanDataError(f"the split has {games} game(s), too few for {folds}-fold cross-validation "
                             "(at least 2 games are needed)")
    folds = min(folds, games)
    for train, test in GroupKFold(n_splits=folds).split(rows, groups=groups):
        yield rows[train], rows[test]


def _objective(m: dict) -> float:
    """The two figures' sum; a task with no row to score (None: a split whose guess rows all lack a
    guess, or a training fold holding only clue rows) adds nothing."""
    return sum(m[k] for k in ("guess_top1", "target_recall") if m[k] is not None)


def cross_validate(data: ChoiceData, X, lam: float, folds: int = FOLDS, rows=None) -> dict:
    """Held-out figures of a fixed (features, lam) over grouped folds of `rows` (default: all);
    each fold's features scaled by its training rows (`fit_scale`)."""
    rows = np.arange(len(X)) if rows is None else np.asarray(rows)
    fold_w = {}
    for train, test in _folds(data, rows, folds):
        scale = fit_scale(X, train)
        w = fit_weights(X, data.pos, data.skip, train, scale, lam) / scale
        for r in test:
            fold_w[int(r)] = w
    return metrics(data, X, lambda r: fold_w[r], rows)


def feature_set(data: ChoiceData, backends: Sequence[str], hub: bool) -> list[str]:
    names = feature_names(backends, FIT_FEATURES, FIT_GLOBAL)
    return [n for n in names if n in data.names and (hub or not n.endswith(":hub"))]


class Candidate:
    """One (features, lam) option: its columns, and their scale over all rows (`fit_scale`), which
    only the final fit on all rows uses; a cross-validation fit scales by its own training rows."""

    def __init__(self, data: ChoiceData, backends: Sequence[str], hub: bool, lam: float):
        self.hub, self.lam = hub, lam
        self.names = feature_set(data, backends, hub)
        self.X = data.columns(self.names)
        self.scale = fit_scale(self.X, range(len(self.X)))


def choose(data: ChoiceData, cands: Sequence[Candidate], rows: np.ndarray, folds: int) -> Candidate:
    """The candidate with the best grouped-CV objective on `rows` (ties: the first)."""
    best, best_obj = None, -np.inf
    for c in cands:
        obj = _objective(cross_validate(data, c.X, c.lam, folds, rows))
        if obj > best_obj + 1e-12:
            best, best_obj = c, obj
    return best


def _two_games_a_fold(data: ChoiceData, outer: list) -> list:
    """Two outer folds of 4 games or more, each holding 2 games or more: GroupKFold balances rows,
    so one long game can fill a fold alone and leave the other fold's fit 1 game. Then the other
    fold's game with the fewest rows joins it (folds that already hold 2 games each are kept)."""
    tests = [test for _, test in outer]
    games = [set(data.groups[t].tolist()) for t in tests]
    lone = next((i for i, g in enumerate(games) if len(g) < 2), None)
    if lone is None:
        return outer
    other = tests[1 - lone]
    sizes = {g: int((data.groups[other] == g).sum()) for g in games[1 - lone]}
    moved = min(sorted(sizes), key=lambda g: sizes[g])
    tests[lone] = np.sort(np.concatenate([tests[lone], other[data.groups[other] == moved]]))
    tests[1 - lone] = other[data.groups[other] != moved]
    return [(tests[1], tests[0]), (tests[0], tests[1])]


def outer_folds(data: ChoiceData, folds: int) -> list:
    """The outer grouped folds of every row, or a HumanDataError (before any fit) when the split has
    too few games for each fold to refit on 2 or more (no row to score: no game)."""
    rows = np.arange(len(data.X))
    n_groups = int(data.groups.max()) + 1 if len(rows) else 0
    outer = list(_folds(data, rows, folds)) if n_groups > 1 else []
    if len(outer) == 2 and n_groups >= 4:
        outer = _two_games_a_fold(data, outer)
    if n_groups < 3 or any(len(set(data.groups[train])) < 2 for train, _ in outer):
        raise HumanDataError(f"the split has {n_groups} game(s), too few for {folds}-fold cross-validation "
                             "(each fold refits on the other games, 2 or more as it picks its settings by "
                             f"cross-validating them: at least {4 if folds == 2 else 3} games are needed)")
    return outer


def nested_cv(data: ChoiceData, cands: Sequence[Candidate], folds: int = FOLDS, inner: int = INNER_FOLDS,
              log: Callable[[str], None] | None = None, memory: "MemoryData | None" = None,
              backends: Sequence[str] = ()) -> dict:
    """Outer grouped folds; in each, the candidate is chosen by inner grouped CV on the training games.
    With `memory`: also the second stage on the training games' clue memory (`cv` then holds the
    figures with it and `cv_plain` those without)."""
    outer = outer_folds(data, folds)
    rows = np.arange(len(data.X))
    n_groups = int(data.groups.max()) + 1
    fold_w: dict[int, np.ndarray] = {}
    fold_X: dict[int, np.ndarray] = {}
    mem_w: dict[int, np.ndarray] = {}
    mem_X: dict[int, np.ndarray] = {}
    for k, (train, test) in enumerate(outer):
        c = choose(data, cands, train, inner)
        scale = fit_scale(c.X, train)   # the training games' scale, as the weights: no held-out row
        w = fit_weights(c.X, data.pos, data.skip, train, scale, c.lam) / scale
        if log:
            log(f"    outer fold {k + 1}: hub={c.hub} lam={c.lam}")
        for r in test:
            fold_w[int(r)], fold_X[int(r)] = w, c.X[int(r)]
        if memory is not None:
            allowed = np.zeros(n_groups, dtype=bool)
            allowed[data.groups[train]] = True
            w2, scale2, X2 = fit_memory(c.X, w, memory.columns(backends, allowed), data, train)
            for r in test:
                mem_w[int(r)], mem_X[int(r)] = w2 / scale2, X2[int(r)]
    plain = metrics(data, [fold_X[r] for r in rows], lambda r: fold_w[r])
    if memory is None:
        return plain
    return {**metrics(data, [mem_X[r] for r in rows], lambda r: mem_w[r]), "cv_plain": plain}


def candidates(data: ChoiceData, backends: Sequence[str], hubs=(False, True), grid=LAM_GRID) -> list[Candidate]:
    """Every (hubness, lam) option the fits choose among."""
    return [Candidate(data, backends, h, lam) for h in hubs for lam in grid]


def _stage(data: ChoiceData, backends: Sequence[str], hubs, grid, nested: bool, log=None,
           memory: "MemoryData | None" = None) -> tuple[dict, Candidate, np.ndarray, dict]:
    """One first stage: its held-out figures (nested or plain CV), the candidate chosen on all rows,
    its weights (in scaled units) and its in-sample figures."""
    cands = candidates(data, backends, hubs, grid)
    cv = nested_cv(data, cands, log=log, memory=memory, backends=backends) if nested else None
    final = choose(data, cands, np.arange(len(data.X)), FOLDS)
    if cv is None:
        cv = cross_validate(data, final.X, final.lam)
    w = fit_weights(final.X, data.pos, data.skip, np.arange(len(final.X)), final.scale, final.lam)
    return cv, final, w, metrics(data, final.X, lambda r: w / final.scale)


def _weights(final: Candidate, w: np.ndarray) -> dict:
    return {"hub": final.hub, "features": final.names, "weights": [round(float(v), 6) for v in w],
            "scale": [round(float(v), 6) for v in final.scale], "lam": final.lam}


def fit_one(data: ChoiceData, backends: Sequence[str], hub: Optional[bool] = None, grid=LAM_GRID,
            nested: bool = True, log=print, memory: "MemoryData | None" = None,
            plain: ChoiceData | None = None) -> dict:
    """The model of `backends`: its first stage on `data`, the memory's second stage over it (with
    `memory`), and, where `plain` (the same rows read with `plain_readings`) reads some backend
    otherwise, the plain stage for boards off the memory; `cv_plain` is then that stage's figures."""
    hubs = [hub] if hub is not None else [False, True]
    t0 = time.time()
    cv, final, w, ins = _stage(data, backends, hubs, grid, nested, log, memory)
    rows = np.arange(len(final.X))
    entry = {"backends": list(backends), **_weights(final, w)}
    readings = plain_readings(backends) if plain is not None else {}
    if readings:
        cv_p, final_p, w_p, ins_p = _stage(plain, backends, hubs, grid, nested)
        entry["plain"] = {"reading": readings, **_weights(final_p, w_p)}
        cv["cv_plain"] = cv_p
    if memory is not None:  # each row's prototypes from the other games, as at play
        wr = np.array(entry["weights"]) / np.array(entry["scale"])
        w2, scale2, X2 = fit_memory(final.X, wr, memory.columns(backends, np.ones(data.groups.max() + 1, bool)),
                                    data, rows)
        entry["memory"] = {"backends": list(backends), "weights": [round(float(v), 6) for v in w2],
                           "scale": [round(float(v), 6) for v in scale2], "lam": MEMORY_LAM}
        ins = {**metrics(data, X2, lambda r: w2 / scale2), "plain": ins_p if readings else ins}
    log(f"  {model_key(backends)}: hub={final.hub} lam={final.lam}  cv{' (nested)' if nested else ''} "
        f"guess_top1 {cv['guess_top1']:.4f} target_recall {cv['target_recall']:.4f}  in-sample "
        f"{ins['guess_top1']:.4f} / {ins['target_recall']:.4f}  ({time.time() - t0:.0f}s)")
    return {**entry, "cv": cv, "cv_nested": nested, "in_sample": ins}


def load_choice_data(data_dir: str | Path, split: str, backends: Sequence[str]) -> ChoiceData:
    guess, _ = load_guess_items(data_dir, split)
    target, _ = load_target_items(data_dir, split)
    return ChoiceData(guess, target, FeatureBuilder(tuple(backends), hub=True))


def plain_data(data: ChoiceData, backends: Sequence[str]) -> ChoiceData | None:
    """The rows of `data` read as the plain stage reads `backends` (None: as `data` reads them)."""
    readings = plain_readings(backends)
    if not readings:
        return None
    builder = FeatureBuilder(tuple(backends), hub=True, readings=readings)
    builder.share(data.builder)
    return ChoiceData(data.guess, data.target, builder)


def held_out_figures(data_dir: str | Path, split: str, backends: Sequence[str], folds: int = FOLDS,
                     log: Callable[[str], None] | None = None, unclued: float = 0.0,
                     rows: tuple[list[GuessItem], list[TargetItem]] | None = None) -> dict:
    """Nested grouped-CV figures of the human model for `backends` (what `cnlab eval-human --cv`
    prints): with the clue memory, and (`cv_plain`) the plain stage alone. `unclued`: the share of
    each held-out row's cards read without a prototype (`MemoryData`). `rows`: the split's guess and
    target rows when the caller has read them (eval-human, which also reports the rows skipped), so
    the CSVs are read once."""
    cd = (ChoiceData(*rows, FeatureBuilder(tuple(backends), hub=True)) if rows is not None
          else load_choice_data(data_dir, split, backends))
    outer_folds(cd, folds)   # too few games: refused before the candidates' features are scaled
    out = nested_cv(cd, candidates(cd, backends), folds=folds, log=log,
                    memory=MemoryData(cd, backends, unclued=unclued), backends=backends)
    plain = plain_data(cd, backends)
    if plain is not None:
        out["cv_plain"] = nested_cv(plain, candidates(plain, backends), folds=folds)
    out.update(n_guess=len(cd.guess), n_target=len(cd.target), n_games=int(cd.groups.max() + 1))
    return out


@one_line_errors
def main(
    data: Path = typer.Option(..., help="folder laid out like the dataset's data/: <task>/<split>.csv"),
    split: str = typer.Option("val", help="the split to fit on"),
    backends: str = typer.Option("+".join(DEFAULT_BACKENDS), help="the full backend combination"),
    subsets: bool = typer.Option(True, help="also fit every non-empty subset of the backends"),
    hub: Optional[bool] = typer.Option(None, help="hubness features: on, off, or (default) pick by CV"),
    nested: bool = typer.Option(True, help="nested CV figures for every combination (slower)"),
    out: Path = typer.Option(MODEL_PATH, help="where to write the model JSON"),
) -> None:
    """Refit data/models/human_guesser.json and print the cross-validated and in-sample figures."""
    t0 = time.time()
    full = tuple(b for b in backends.split("+") if b)
    if not full:
        fail("--backends names no backend")
    check_model_paths(full)  # an unknown name or a path holding no model fails here, not after the features are read
    if out.is_dir():
        fail(f"--out {out} is a folder; name the model JSON to write")
    try:
        cd = load_choice_data(data, split, full)
    except HumanDataError as exc:
        fail(exc)
    log = lambda m: typer.echo(m, err=True)  # noqa: E731
    log(f"{len(cd.guess)} guess rows, {len(cd.target)} target rows, {cd.groups.max() + 1} games; "
        f"features in {time.time() - t0:.0f}s")
    combos = [c for k in range(1, len(full) + 1) for c in itertools.combinations(full, k)] if subsets else [full]
    mem = MemoryData(cd, full)
    plain = plain_data(cd, full)
    models = {model_key(combo): fit_one(cd, combo, hub, nested=nested, log=log, memory=mem, plain=plain)
              for combo in combos}
    memory_file = out.name.removesuffix(".json") + ".memory.npz"
    doc = {
        "format": MODEL_FORMAT,
        "about": ("Human-like guesser (agents/human_model.py): linear utility over per-card features, "
                  "fitted as a conditional logit on Cultural Codes (Shaikh et al. 2023) split "
                  f"{split!r}: {len(cd.guess)} guess rows + {len(cd.target)} target rows, "
                  f"{cd.groups.max() + 1} game groups. cv = {FOLDS}-fold grouped-by-game held-out figures "
                  f"(nested: lam and hubness chosen by an inner {INNER_FOLDS}-fold CV on the training games); "
                  "in_sample = fitted and scored on all rows. memory: the second stage over the clue memory "
                  f"({memory_file}: per card, a prototype of the clues people gave or followed). plain: the "
                  "stage for boards off the memory, reading use-m3 bare (cv_plain its figures). "
                  "Refit: python -m experiments.tools.fit_human_model --data DIR"),
        "memory_file": memory_file,
        "models": models,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    mem.memory(np.ones(cd.groups.max() + 1, dtype=bool)).save(out.parent / memory_file)
    out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    summary = {k: {"hub": m["hub"], "lam": m["lam"],
                   "cv": {x: m["cv"][x] for x in ("guess_top1", "target_recall")},
                   "in_sample": {x: m["in_sample"][x] for x in ("guess_top1", "target_recall")}}
               for k, m in models.items()}
    typer.echo(json.dumps(summary, indent=1))
    log(f"wrote {out} in {time.time() - t0:.0f}s")


if __name__ == "__main__":
    typer.run(main)
