"""How a mind outside my models reads a clue: a fitted model of a foreign partner.

A spymaster on backends B cannot ask its partner's model; it can only ask how much its own models
agree. This module turns that agreement into a probability: per (card, clue) `features` builds features
that are symmetric in the backends (so any ensemble of two or more uses the same weights):

* `z_mean`, `z_min`: the clue-card cosine in the clue's own units (`StandardSims`), mean and worst;
* `rr_mean`, `rr_min`: the card's reciprocal rank among the cards the partner may touch;
* `gap_min`: the card's lead over the best other touchable card, worst backend (z units);
* `rev_mean`, `rev_min`: the clue giver's side, -log(1 + number of candidate clues closer to the
  card than this one): a clue among the card's own associates ("wool" for lamb) carries to other
  minds, a word merely "somewhat near" several cards ("eyebrow" for feather, pencil, stick) does not.

A linear utility over them, fitted as a conditional logit (Plackett-Luce over the partner's first
three picks) by `experiments/tools/fit_foreign_model.py` on the partner panel with every partner
model held out in turn, gives P(the foreign partner picks each card) as a softmax. Its weights live
in `data/models/foreign_model.json`, one set per left-out partner (for an honest leave-one-out
benchmark) and one fitted on all.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Sequence

import numpy as np

from engine.paths import data_path

MODEL_PATH = data_path("models", "foreign_model.json")
FEATURES = ("z_mean", "z_min", "rr_mean", "rr_min", "gap_min", "rev_mean", "rev_min")


def rev_matrix(pool, b: int) -> np.ndarray:
    """(board-list words, candidates): -log(1 + rank of the candidate among the word's nearest
    candidates) under backend b; computed once per pool and backend (`CandidatePool.shared`:
    read-only, shared by forked workers, rebuilt when the board list changes)."""
    def build() -> np.ndarray:
        m = pool.board_matrix[b]
        order = np.argsort(-m, axis=1)
        rank = np.empty_like(order)
        rows = np.arange(m.shape[0])[:, None]
        rank[rows, order] = np.arange(m.shape[1])[None, :]
        return (-np.log1p(rank)).astype(np.float32)

    return pool.shared(("rev", b), build)


def features(z: Sequence[np.ndarray], rev: Sequence[np.ndarray], touch: np.ndarray) -> np.ndarray:
    """(features, cards, columns) for the cards on a board (rows of `z`/`rev`, per backend
    (cards, columns)); `touch` marks the cards the partner may still touch. Rows of cards it may
    not touch are filled but never used."""
    zs = np.stack(z)                                  # (B, cards, cols)
    zt = np.where(touch[None, :, None], zs, -np.inf)
    # rank among touchable cards, per backend
    order = np.argsort(-zt, axis=1)
    rank = np.empty_like(order)
    nb, nc, nv = zs.shape
    rank[np.arange(nb)[:, None, None], order, np.arange(nv)[None, None, :]] = np.arange(nc)[None, :, None]
    rr = 1.0 / (1.0 + rank)
    srt = -np.sort(-zt, axis=1)
    best, second = srt[:, 0:1, :], srt[:, 1:2, :]
    other_best = np.where(zs >= best, second, best)    # the best touchable card other than this one
    gap = np.where(np.isfinite(other_best), zs - other_best, 0.0)
    rv = np.stack(rev)
    return np.stack([zs.mean(0), zs.min(0), rr.mean(0), rr.min(0), gap.min(0),
                     rv.mean(0), rv.min(0)]).astype(np.float32)


@lru_cache(maxsize=2)
def load_weights(path: str | None = None) -> dict:
    with open(path or MODEL_PATH, encoding="utf-8") as fh:
        return json.load(fh)


def weights_for(language: str, backends: Sequence[str], path: str | None = None) -> np.ndarray:
    """The fitted weights for a spymaster on `backends`: when they are the fitting panel less one
    model D, the weights fitted without D's labels (nothing about how D picks cards reaches a
    spymaster that lacks D: an honest leave-one-out), else the fit on every partner."""
    table = load_weights(path)["languages"].get(language)
    if table is None:
        raise ValueError(f"no foreign-partner model for language {language!r} in {path or MODEL_PATH}")
    missing = set(table["panel"]) - set(backends)
    entry = table["leave_out"].get(next(iter(missing))) if len(missing) == 1 and set(backends) <= set(
        table["panel"]) else None
    entry = entry or table["all"]
    if tuple(entry["features"]) != FEATURES:
        raise ValueError("foreign-partner model features differ from agents.foreign_model.FEATURES")
    return np.asarray(entry["weights"], dtype=np.float32)


def utility(weights: np.ndarray, feats: np.ndarray) -> np.ndarray:
    """(cards, columns) utility in logit units: a softmax of it over the touchable cards is the
    chance that the foreign partner picks each card first."""
    return np.tensordot(weights, feats, axes=1)
