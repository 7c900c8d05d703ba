"""Fit `agents.foreign_model`: how a partner on a model the spymaster lacks picks cards.

For each model D of the language's partner panel in turn, the spymaster's ensemble is the panel's
other models. On random boards (random cards still touchable) the ensemble proposes the clues a
spymaster would consider (for random target sets of 1-3 cards, the candidates that best single
them out under the ensemble's consensus, plus random legal candidates); D's first three picks for
each clue (its cosine order over the touchable cards) are the labels. Half the boards use every
other model, half a random smaller subset of them (spymasters on fewer backends). A conditional logit
(Plackett-Luce over those picks) over the symmetric features of `agents.foreign_model` is fitted
with scipy's L-BFGS. The weights fitted without D's labels are stored for D, and one set is
fitted on all partners.

    python -m experiments.tools.fit_foreign_model --lang en --boards 1500
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

import numpy as np

from agents.foreign_model import FEATURES, MODEL_PATH, features, rev_matrix
from experiments.exits import check_seed
from experiments.tools.cli import at_least, fail, one_line_errors, out_file

PICKS = 3
LAM = 1e-3


def panel_pool(panel: Sequence[str], language: str, vocab: int):
    from agents.clue_problem import candidate_pool
    from agents.spymasters.robust import read_as_nouns
    from agents.wordlists import board_words

    pool = candidate_pool(list(panel), language, vocab)
    pool.precompute_boards(board_words(language), language)
    return pool, read_as_nouns(pool.words, language)


def sample(pool, nouns, panel: Sequence[str], held: int, boards: int, rng: np.random.Generator,
           per_set: int = 4, sets: int = 3, random_cols: int = 4):
    """(X (n, features, cards), touch (n, cards), picks (n, PICKS)) for partner `held`."""
    others = [b for b in range(len(panel)) if b != held]
    n_words = len(pool.board_rows)
    standard = {b: pool.standard_matrix(b) for b in others}
    Xs, Ts, Ps = [], [], []
    for i in range(boards):
        # half the boards: every other model (the leave-one-out spymaster); half: a random
        # smaller ensemble of them, so the weights serve spymasters on fewer backends too
        ens = others if i % 2 == 0 or len(others) == 1 else sorted(
            rng.choice(others, int(rng.integers(1, len(others))), replace=False))
        rows = rng.choice(n_words, 25, replace=False)
        touch = np.zeros(25, dtype=bool)
        touch[rng.choice(25, int(rng.integers(10, 26)), replace=False)] = True
        legal = pool.listed_legal(rows) & nouns
        z = [standard[b][rows] for b in ens]
        zc = np.mean(z, axis=0)
        cols: list[int] = []
        idx = np.flatnonzero(touch)
        for _ in range(sets):
            k = int(rng.integers(1, 4))
            tset = rng.choice(idx, min(k, len(idx)), replace=False)
            rest = np.setdiff1d(idx, tset)
            margin = zc[tset].min(axis=0) - (zc[rest].max(axis=0) if len(rest) else 0.0)
            margin = np.where(legal, margin, -np.inf)
            cols += list(np.argpartition(-margin, per_set)[:per_set])
        cols += list(rng.choice(np.flatnonzero(legal), random_cols, replace=False))
        cols = np.array(cols)
        X = features([zz[:, cols] for zz in z], [rev_matrix(pool, b)[rows][:, cols] for b in ens], touch)
        d = np.where(touch[:, None], pool.board_matrix[held][rows][:, cols], -np.inf)
        picks = np.argsort(-d, axis=0)[:PICKS].T          # (cols, PICKS)
        Xs.append(np.transpose(X, (2, 0, 1)))
        Ts.append(np.repeat(touch[None, :], len(cols), axis=0))
        Ps.append(picks)
    return np.concatenate(Xs), np.concatenate(Ts), np.concatenate(Ps)


def fit(data: Sequence[tuple], lam: float = LAM) -> np.ndarray:
    """Plackett-Luce weights over the first PICKS picks of every instance in `data`."""
    from scipy.optimize import minimize

    X = np.concatenate([d[0] for d in data]).astype(np.float64)      # (n, F, cards)
    T = np.concatenate([d[1] for d in data])
    P = np.concatenate([d[2] for d in data])
    n = len(X)
    ar = np.arange(n)
    masks = []
    m = T.copy()
    for s in range(PICKS):
        masks.append(m.copy())
        m[ar, P[:, s]] = False

    def loss(w):
        u = np.einsum("f,nfc->nc", w, X)
        value, grad = 0.0, 2 * lam * n * w
        for s in range(PICKS):
            ok = masks[s][ar, P[:, s]]          # fewer touchable cards than picks: skip the stage
            us = np.where(masks[s], u, -np.inf)
            top = us.max(axis=1, keepdims=True)
            e = np.exp(us - top)
            tot = e.sum(axis=1)
            prob = e / tot[:, None]
            chosen = u[ar, P[:, s]]
            value += float(((np.log(tot) + top[:, 0] - chosen) * ok).sum())
            grad += (ok[:, None] * (np.einsum("nc,nfc->nf", prob, X) - X[ar, :, P[:, s]])).sum(axis=0)
        return value / n + lam * w @ w, grad / n

    res = minimize(loss, np.zeros(X.shape[1]), jac=True, method="L-BFGS-B")
    return res.x


def evaluate(w: np.ndarray, data: tuple) -> dict:
    """First-pick agreement and mean log-likelihood of the first pick."""
    X, T, P = data
    u = np.where(T, np.einsum("f,nfc->nc", w, X), -np.inf)
    top = u.max(axis=1, keepdims=True)
    ll = u[np.arange(len(X)), P[:, 0]] - (np.log(np.exp(u - top).sum(axis=1)) + top[:, 0])
    return {"first_pick": round(float((u.argmax(axis=1) == P[:, 0]).mean()), 4),
            "loglik": round(float(ll.mean()), 4)}


def read_table(path: Path) -> dict:
    """The fits file at `path` that this language's entry joins (a new one where none is), refused
    in one line naming --out when it is not one: not JSON, or not an object with `languages`."""
    if not path.exists():
        return {"about": "agents/foreign_model.py: conditional logit of a partner on a model outside the "
                         "spymaster's ensemble; refit: python -m experiments.tools.fit_foreign_model --lang LANG",
                "languages": {}}
    try:
        table = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        fail(f"--out {path}: not a foreign model file ({type(exc).__name__}: {exc})")
    if not (isinstance(table, dict) and isinstance(table.get("languages"), dict)):
        fail(f"--out {path}: not a foreign model file (a JSON object whose languages is an object)")
    return table


@one_line_errors
def main(lang: str = "en", boards: int = 1500, seed: int = 0, vocab: int = 10000,
         panel: str | None = None, out: str | None = None) -> dict:
    from agents.embeddings.registry import check_model_paths
    from experiments.evaluation.crossplay import PANELS, default_panel

    if lang not in PANELS:
        fail(f"--lang {lang!r}: use one of {', '.join(PANELS)}")
    at_least(boards, 1, "--boards")
    at_least(vocab, 1, "--vocab")
    check_seed(seed)
    models = [m.strip() for m in panel.split(",")] if panel else default_panel(lang)
    check_model_paths(models)  # an unknown name or a path holding no model fails here, not after the pool is built
    path = out_file(Path(out or MODEL_PATH))
    table = read_table(path)
    pool, nouns = panel_pool(models, lang, vocab)
    rng = np.random.default_rng([seed, 1])
    data = {m: sample(pool, nouns, models, i, boards, rng) for i, m in enumerate(models)}
    entry = {"panel": models, "boards": boards, "seed": seed, "vocab": vocab, "leave_out": {}}
    base = np.zeros(len(FEATURES))
    base[FEATURES.index("z_mean")] = 1.0 / 0.4                       # the consensus, ztemp 0.4
    for m in models:
        others = [data[o] for o in models if o != m]
        w = fit(others)
        entry["leave_out"][m] = {"features": list(FEATURES), "weights": [round(float(x), 5) for x in w],
                                 "held_out": evaluate(w, data[m]), "consensus": evaluate(base, data[m])}
        print(m, entry["leave_out"][m]["held_out"], "consensus", entry["leave_out"][m]["consensus"])
    w = fit(list(data.values()))
    entry["all"] = {"features": list(FEATURES), "weights": [round(float(x), 5) for x in w]}
    table["languages"][lang] = entry
    path.write_text(json.dumps(table, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return entry


if __name__ == "__main__":
    import typer

    typer.run(main)
