"""Fit the partner model: the softmax temperature with which a guesser picks a card for a clue.

    python -m experiments.tools.fit_partner_model --human /work/shared/data/cultural-codes/generate_guess_task/val.csv
    python -m experiments.tools.fit_partner_model --selfplay 200 --guesser 'nearest:use-m3?noise=0.06'

Sources (each optional; at least one):

* `--human PATH`: a CSV with a `base_text` column "remaining: [25 words], hint: CLUE" and an
  `output` column with the word a person guessed (the Cultural Codes guess task). Only the fitted
  numbers are written; the data stays where it is.
* `--selfplay N`: N seeded Duet games of `--spymaster` with `--guesser`; every first guess on a
  clue is one observation, read through each backend's similarities.

Per backend the temperature T of P(card) = softmax(similarity / T) over the cards left is fitted in
two steps: scikit-learn's LogisticRegression on pairwise differences (chosen minus another card,
no intercept: a Bradley-Terry reading of the softmax) gives 1/T, then a 1-D search on the exact
softmax log-likelihood refines it. The result goes to `data/models/partner_model.json`
(`--out` to write elsewhere): `temperature[backend]` (used by the `expected` spymaster and the
guessers' confidence) from the source named by `--default-from` (self-play by default); every fit is
kept under `fits` with its source, n, log-likelihood and top-1 accuracy.

Every write also records each fitted backend's cosine spread (`spread`, `agents.partner_model.card_spread`)
and `spread_ratio`, the median of temperature / spread over them: a backend without a fit (a user's
model by path) is read at its own spread times that ratio. `--spreads-only` recomputes these two
and leaves every temperature as it is.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from agents.partner_model import MODEL_FILE, fitted_name
from experiments.tools.cli import at_least, fail, one_line_errors


def read_human(path: str | Path) -> list[tuple[list[str], str, str]]:
    """(remaining cards, hint, first guessed card) rows of a Cultural Codes guess-task CSV."""
    from experiments.evaluation.cultural_codes import load_guess_file

    return [(list(item.board), item.clue, item.guesses[0]) for item in load_guess_file(path) if item.clue]


def selfplay_events(games: int, spymaster: str, guesser: str, lang: str = "en") -> list[tuple[list[str], str, str]]:
    """(touchable cards, clue, first guess) for every clue of `games` seeded self-play games."""
    from agents.registry import make_guesser, make_spymaster
    from experiments.games.duet.dealing import deal_duet_record
    from experiments.games.duet.loop import DuetSeat, play_duet

    seats = {s: DuetSeat(make_spymaster(spymaster, lang), make_guesser(guesser, lang)) for s in "AB"}
    rows = []
    for seed in range(games):
        rec = play_duet(deal_duet_record(seed, lang), seats, seed=(seed,))
        state = rec.new_state()
        first = False
        for action in rec.actions:
            kind = type(action).__name__
            if kind == "Clue":
                clue, first = action.word, True
            elif kind == "Guess" and first and state.phase == "guess":
                seat = action.seat
                cards = [w for i, w in enumerate(state.words) if state.observe(seat).can_guess(i)]
                rows.append((cards, clue, action.word))
                first = False
            state.apply(action)
    return rows


def similarity_sets(rows, backend: str):
    from agents.embeddings import get_backend

    emb = get_backend(backend)
    sets = []
    for cards, hint, guess in rows:
        if not emb.covers([hint])[0] or not emb.covers(cards).all():
            continue
        s = emb.similarity([hint], cards)[0].astype(np.float64)
        sets.append((s, cards.index(guess)))
    return sets


def softmax_nll(sets, temp: float) -> float:
    total = 0.0
    for s, j in sets:
        z = s / temp
        z = z - z.max()
        total -= z[j] - np.log(np.exp(z).sum())
    return total / max(len(sets), 1)


def fit_temperature(sets) -> dict:
    from sklearn.linear_model import LogisticRegression

    x, y = [], []
    for s, j in sets:
        d = s[j] - np.delete(s, j)
        x += list(d) + list(-d)
        y += [1] * len(d) + [0] * len(d)
    lr = LogisticRegression(fit_intercept=False, C=1e4, max_iter=1000)
    lr.fit(np.array(x)[:, None], np.array(y))
    beta = float(lr.coef_[0, 0])
    t0 = 1.0 / beta if beta > 0 else 0.1
    grid = t0 * np.exp(np.linspace(-1.5, 1.5, 61))
    nll = [softmax_nll(sets, t) for t in grid]
    best = float(grid[int(np.argmin(nll))])
    top1 = float(np.mean([int(np.argmax(s) == j) for s, j in sets])) if sets else float("nan")
    return {"temperature": round(best, 5), "pairwise_temperature": round(t0, 5), "n": len(sets),
            "nll": round(float(min(nll)), 4), "top1_accuracy": round(top1, 4)}


def record_spreads(model: dict, language: str = "en") -> None:
    """`spread` of every backend with a fitted temperature (those installed here) and their
    `spread_ratio` (median temperature / spread)."""
    from agents.embeddings import get_backend
    from agents.partner_model import card_spread
    from experiments.evaluation.crossplay import backend_missing

    spreads = dict(model.get("spread", {}))
    for backend in sorted(b for b in model["temperature"] if b != "default"):
        spread = card_spread(get_backend(backend), language) if backend_missing(backend) is None else None
        if spread:
            spreads[backend] = round(spread, 5)
            print(f"spread {backend:10s} {spreads[backend]}", file=sys.stderr)
    ratios = [model["temperature"][b] / s for b, s in spreads.items() if b in model["temperature"] and s > 0]
    if ratios:
        model["spread"] = spreads
        model["spread_ratio"] = round(float(np.median(ratios)), 4)


def check_arguments(args) -> None:
    """What would fail only after the games are played or the data read, refused first."""
    from agents.embeddings.registry import check_model_paths
    from agents.registry import check_spec

    at_least(args.selfplay, 0, "--selfplay")
    if args.human and not Path(args.human).expanduser().is_file():
        fail(f"--human {args.human}: no such file")
    if args.selfplay:
        check_spec(args.spymaster, "spymaster", "en")
        check_spec(args.guesser, "guesser", "en")
    backends = [b for b in args.backends.split(",") if b]
    if not backends:
        fail("--backends names no backend")
    check_model_paths(backends)   # an unknown name, or a path holding no model


def read_model(path: Path) -> dict:
    """The partner model at `path` that the fits update (a new one where none is), refused in one
    line naming --out when it is not one: not JSON, or not an object of temperature and fits."""
    if not path.exists():
        return {"temperature": {}, "fits": {}}
    try:
        model = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        fail(f"--out {path}: not a partner model file ({type(exc).__name__}: {exc})")
    if not (isinstance(model, dict) and isinstance(model.setdefault("temperature", {}), dict)
            and isinstance(model.setdefault("fits", {}), dict)):
        fail(f"--out {path}: not a partner model file (a JSON object whose temperature and fits are objects)")
    return model


@one_line_errors
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--human", help="CSV of the Cultural Codes guess task (remaining/hint -> guess)")
    ap.add_argument("--selfplay", type=int, default=0, help="number of self-play games to fit from")
    ap.add_argument("--spymaster", default="margin:use-m3")
    ap.add_argument("--guesser", default="nearest:use-m3?noise=0.06")
    ap.add_argument("--backends", default="use-m3,glove-50,minilm")
    ap.add_argument("--out", default=str(MODEL_FILE))
    ap.add_argument("--default-from", choices=("selfplay", "human"), default="selfplay",
                    help="which fit sets temperature[backend] when both are given (default: selfplay, "
                         "the bot partner the benchmark plays with)")
    ap.add_argument("--spreads-only", action="store_true",
                    help="only recompute each fitted backend's spread and spread_ratio")
    args = ap.parse_args(argv)
    if not args.human and not args.selfplay and not args.spreads_only:
        ap.error("give --human PATH and/or --selfplay N (or --spreads-only)")
    check_arguments(args)
    out_path = Path(args.out)
    model = read_model(out_path)
    sources = []    # --spreads-only: no data read, no games played
    if args.human and not args.spreads_only:
        sources.append(("human", read_human(args.human)))
    if args.selfplay and not args.spreads_only:
        sources.append((f"selfplay:{args.spymaster}@{args.guesser}:{args.selfplay}",
                        selfplay_events(args.selfplay, args.spymaster, args.guesser)))
    for name, rows in sources:
        for backend in dict.fromkeys(fitted_name(b) for b in args.backends.split(",") if b):
            fit = fit_temperature(similarity_sets(rows, backend))
            model["fits"][f"{name}|{backend}"] = fit
            print(f"{name:50s} {backend:10s} {fit}", file=sys.stderr)
            preferred = name.startswith(args.default_from) or len(sources) == 1
            if preferred or backend not in model["temperature"]:
                model["temperature"][backend] = fit["temperature"]
    model["temperature"].setdefault("default", float(np.median(list(v for k, v in model["temperature"].items()
                                                                     if k != "default"))))
    record_spreads(model)
    model["about"] = ("softmax temperatures (cosine units) of a guesser's pick per backend; "
                      "refit with python -m experiments.tools.fit_partner_model")
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(json.dumps(model, indent=1, sort_keys=True) + "\n")
    print(f"wrote {out_path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
