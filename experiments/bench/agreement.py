"""One turn with a foreign partner: how often does the best clue of k cards reach all k?

The ceiling behind the cross-play figures. On random fresh Duet boards (9 targets, 3 assassins,
13 bystanders, every card touchable) a spymaster on the panel less model D picks, for k = 1, 2, 3,
the legal noun clue whose k-th best target leads the best card to avoid (the assassin counts
`assassin` z above itself) by the widest margin, read two ways: the consensus (mean z-score of its
models) and the fitted foreign-partner model (`agents.foreign_model`). The partner on D then
guesses by its own cosines, best card first, up to k cards. Per reading and k: greens found, all k
found, assassin touched, averaged over every D of the panel.

    python -m experiments.bench.agreement --boards 150 --lang en
"""

from __future__ import annotations

import json

import numpy as np

from agents.foreign_model import features, rev_matrix, utility, weights_for

SEED = 5


def partner_turn(d: np.ndarray, targets: np.ndarray, assassin: np.ndarray, k: int) -> tuple[int, bool]:
    """Greens found and whether the assassin was touched, guessing the k best cards of `d`."""
    greens = 0
    for i in np.argsort(-d)[:k]:
        if not targets[i]:
            return greens, bool(assassin[i])
        greens += 1
    return greens, False


def main(lang: str = "en", boards: int = 150, vocab: int = 10000, assassin: float = 0.5,
         panel: str | None = None) -> dict:
    from experiments.evaluation.crossplay import default_panel
    from experiments.tools.cli import at_least
    from experiments.tools.fit_foreign_model import panel_pool

    at_least(boards, 1, "--boards")
    at_least(vocab, 1, "--vocab")

    models = [m.strip() for m in panel.split(",")] if panel else default_panel(lang)
    pool, nouns = panel_pool(models, lang, vocab)
    z_all = [pool.standard_matrix(b) for b in range(len(models))]
    rng = np.random.default_rng(SEED)
    tally: dict[tuple[str, int], np.ndarray] = {}
    for held in range(len(models)):
        ens = [b for b in range(len(models)) if b != held]
        w = weights_for(lang, [models[b] for b in ens])
        for _ in range(boards):
            rows = rng.choice(len(pool.board_rows), 25, replace=False)
            label = rng.permutation(np.array([1] * 9 + [2] * 3 + [0] * 13))
            targets, black = label == 1, label == 2
            cols = np.flatnonzero(pool.listed_legal(rows) & nouns)
            z = [z_all[b][rows][:, cols] for b in ens]
            readings = {"consensus": np.mean(z, axis=0),
                        "foreign": utility(w, features(z, [rev_matrix(pool, b)[rows][:, cols] for b in ens],
                                                       np.ones(25, dtype=bool)))}
            d = pool.board_matrix[held][rows][:, cols]
            for name, s in readings.items():
                best_targets = -np.sort(-np.where(targets[:, None], s, -np.inf), axis=0)
                avoid = np.where(~targets[:, None], s + assassin * black[:, None], -np.inf).max(axis=0)
                for k in (1, 2, 3):
                    j = int(np.argmax(best_targets[k - 1] - avoid))
                    g, dead = partner_turn(d[:, j], targets, black, k)
                    tally.setdefault((name, k), np.zeros(4))[:] += (1, g, g == k, dead)
    report = {f"{name} k={k}": {"greens": round(t[1] / t[0], 3), "all_found": round(t[2] / t[0], 3),
                                "assassin": round(t[3] / t[0], 3)}
              for (name, k), t in sorted(tally.items())}
    report["boards"] = boards * len(models)
    report["panel"] = models
    print(json.dumps(report, indent=1))
    return report


if __name__ == "__main__":
    import typer

    typer.run(main)
