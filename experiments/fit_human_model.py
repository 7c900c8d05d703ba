"""Fit the human-like guesser's weights (`data/models/human_guesser.json`) on Cultural Codes data.

    python -m experiments.fit_human_model --data ../shared/data/cultural-codes [--split val]
        [--backends use-m3+glove-50+minilm] [--subsets] [--out data/models/human_guesser.json]

Every row of both tasks is a choice among cards: in `generate_guess_task` the person's (first)
guess among the cards left, in `clue_generation_task` each intended target among black + tan +
targets. The model is a linear utility over `agents.human_model.FeatureBuilder`'s per-card
features, fitted as a conditional logit by pairwise logistic regression (chosen card minus each
card not chosen, both signs, every row weighted equally, no intercept).

Honesty: rows of the same game share a board and its clues' cards, so cross-validation folds are
whole games (rows whose boards share 12+ words are one group; a 100-word pool gives unrelated games
about 6 shared words). The printed and stored `cv` figures are the folds' held-out predictions;
`in_sample` is the model fitted on all rows scored on the same rows. The regularisation C is picked
by that same cross-validation among a few values, so `cv` is slightly optimistic; the test split
is what judges the model.
"""

from __future__ import annotations

import itertools
import json
import time
from pathlib import Path
from typing import Optional, Sequence

import numpy as np
import typer

from agents.human_model import DEFAULT_BACKENDS, MODEL_FORMAT, MODEL_PATH, FeatureBuilder, model_key
from experiments.eval_human import (
    GuessItem, HumanDataError, TargetItem, guess_metrics, load_guess_items, load_target_items, target_metrics,
)

C_GRID = (0.03, 0.1, 0.3, 1.0, 3.0)
FOLDS = 5
SAME_GAME = 12  # boards sharing this many words are one game (one CV group)


def game_groups(boards: Sequence[Sequence[str]], same: int = SAME_GAME) -> np.ndarray:
    """Connected components of 'boards share >= `same` words'."""
    sets = [frozenset(b) for b in boards]
    parent = list(range(len(sets)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in itertools.combinations(range(len(sets)), 2):
        if len(sets[i] & sets[j]) >= same:
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
        # later guesses of the same clue are neither the choice nor a rejected card
        self.skip = ([tuple(it.board.index(g) for g in it.guesses[1:]) for it in guess] + [() for _ in target])
        self.X = [builder.features(c, w) for c, w in zip(self.clues, self.cands)]
        self.groups = game_groups(self.cands)
        self.n_guess = len(guess)

    def columns(self, names: Sequence[str]) -> "list[np.ndarray]":
        idx = [self.names.index(n) for n in names]
        return [x[:, idx] for x in self.X]


def pairwise(X: list[np.ndarray], pos, skip, rows: Sequence[int]):
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


def fit_weights(X, pos, skip, rows, scale, C: float) -> np.ndarray:
    from sklearn.linear_model import LogisticRegression

    D, y, w = pairwise([x / scale for x in X], pos, skip, rows)
    lr = LogisticRegression(C=C, fit_intercept=False, max_iter=2000)
    lr.fit(D, y, sample_weight=w * len(rows) / w.sum())
    return lr.coef_[0]


def metrics(data: ChoiceData, X, weights_for_row) -> dict:
    top1, rankings = [], []
    for r in range(len(X)):
        u = X[r] @ weights_for_row(r)
        order = [int(i) for i in np.argsort(-u, kind="stable")]
        if r < data.n_guess:
            top1.append(order[0])
        else:
            rankings.append(order)
    g = guess_metrics(data.guess, top1)
    t = target_metrics(data.target, rankings)
    return {k: g[k] for k in ("guess_top1", "guess_top1_ci95", "guess_top1_any")} | \
           {k: t[k] for k in ("target_recall", "target_recall_ci95", "target_recall_micro")}


def cross_validate(data: ChoiceData, X, scale, C: float, folds: int = FOLDS) -> dict:
    from sklearn.model_selection import GroupKFold

    rows = np.arange(len(X))
    fold_w = {}
    for train, test in GroupKFold(n_splits=folds).split(rows, groups=data.groups):
        w = fit_weights(X, data.pos, data.skip, train, scale, C) / scale
        for r in test:
            fold_w[int(r)] = w
    return metrics(data, X, lambda r: fold_w[r])


def fit_one(data: ChoiceData, backends: Sequence[str], hub: bool, grid=C_GRID, log=print) -> dict:
    names = [n for n in data.names if (n.split(":")[0] in backends or ":" not in n)
             and (hub or not n.endswith(":hub"))]
    X = data.columns(names)
    allx = np.vstack(X)
    scale = allx.std(axis=0)
    scale[scale < 1e-9] = 1.0
    best = None
    for C in grid:
        cv = cross_validate(data, X, scale, C)
        objective = cv["guess_top1"] + cv["target_recall"]
        log(f"  {model_key(backends)} hub={hub} C={C}: cv guess_top1 {cv['guess_top1']:.4f} "
            f"target_recall {cv['target_recall']:.4f}")
        if best is None or objective > best[0]:
            best = (objective, C, cv)
    _, C, cv = best
    w = fit_weights(X, data.pos, data.skip, np.arange(len(X)), scale, C)
    ins = metrics(data, X, lambda r: w / scale)
    return {"backends": list(backends), "hub": hub, "features": names,
            "weights": [round(float(v), 6) for v in w], "scale": [round(float(v), 6) for v in scale],
            "C": C, "cv": cv, "in_sample": ins}


def main(
    data: Path = typer.Option(..., help="folder laid out like the dataset's data/: <task>/<split>.csv"),
    split: str = typer.Option("val", help="the split to fit on"),
    backends: str = typer.Option("+".join(DEFAULT_BACKENDS), help="the full backend combination"),
    subsets: bool = typer.Option(True, help="also fit every non-empty subset of the backends"),
    hub: Optional[bool] = typer.Option(None, help="hubness features: on, off, or (default) pick by CV"),
    out: Path = typer.Option(MODEL_PATH, help="where to write the model JSON"),
) -> None:
    """Refit data/models/human_guesser.json and print the cross-validated and in-sample figures."""
    t0 = time.time()
    try:
        guess, _ = load_guess_items(data, split)
        target, _ = load_target_items(data, split)
    except HumanDataError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2)
    full = tuple(b for b in backends.split("+") if b)
    builder = FeatureBuilder(full, hub=True)
    cd = ChoiceData(guess, target, builder)
    log = lambda m: typer.echo(m, err=True)  # noqa: E731
    log(f"{len(guess)} guess rows, {len(target)} target rows, {cd.groups.max() + 1} games; "
        f"features in {time.time() - t0:.0f}s")
    combos = [c for k in range(1, len(full) + 1) for c in itertools.combinations(full, k)] if subsets else [full]
    models = {}
    for combo in combos:
        options = [hub] if hub is not None else [False, True]
        fitted = [fit_one(cd, combo, h, log=log) for h in options]
        models[model_key(combo)] = max(fitted, key=lambda m: m["cv"]["guess_top1"] + m["cv"]["target_recall"])
    doc = {
        "format": MODEL_FORMAT,
        "about": ("Human-like guesser (agents/human_model.py): linear utility over per-card features, "
                  "fitted as a conditional logit (pairwise logistic regression) on Cultural Codes "
                  f"(Shaikh et al. 2023) split {split!r}: {len(guess)} guess rows + {len(target)} target rows, "
                  f"{cd.groups.max() + 1} game groups. cv = {FOLDS}-fold grouped-by-game held-out figures "
                  "(C picked by the same CV); in_sample = fitted and scored on all rows. "
                  "Refit: python -m experiments.fit_human_model --data DIR"),
        "models": models,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    summary = {k: {"hub": m["hub"], "C": m["C"],
                   "cv": {x: m["cv"][x] for x in ("guess_top1", "target_recall")},
                   "in_sample": {x: m["in_sample"][x] for x in ("guess_top1", "target_recall")}}
               for k, m in models.items()}
    typer.echo(json.dumps(summary, indent=1))
    log(f"wrote {out} in {time.time() - t0:.0f}s")


if __name__ == "__main__":
    typer.run(main)
