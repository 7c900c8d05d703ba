"""Benchmark spymaster x guesser pairs on the same seeded Duet deals (RULES 3; 9 tokens by default).

    python -m experiments.bench.agents --games 1000 \
        --spymasters kim2019:use-m3,margin:use-m3,expected:use-m3 \
        --partners nearest:use-m3,nearest:use-m3?noise=0.06,nearest:glove-50
    python -m experiments.bench.agents --games 200 --pairs 'expected:glove-50@nearest:use-m3'

Both seats play the same pair (seat A: spymaster + guesser, seat B: the same specs, each agent with
its own seed). Prints, per pair: win rate, mean score of won games (RULES 3.11), mean score with
losses as 0, assassin rate, sudden-death rate, mean clue number, and the spymaster's time per clue
(median, p95). Deal i uses seed `--seed + i`; agents are seeded from (deal seed, seat, role).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from experiments.exits import fail
from experiments.tools.cli import one_line_errors


@dataclass
class Row:
    spymaster: str
    guesser: str
    games: int = 0
    wins: int = 0
    scores: list = field(default_factory=list)
    assassin: int = 0
    sudden: int = 0
    numbers: list = field(default_factory=list)
    latency_ms: list = field(default_factory=list)
    greens: list = field(default_factory=list)
    errors: int = 0

    def summary(self) -> dict:
        n = max(self.games, 1)
        lat = np.array(self.latency_ms) if self.latency_ms else np.zeros(1)
        return {
            "spymaster": self.spymaster, "guesser": self.guesser, "games": self.games,
            "win_rate": self.wins / n,
            "mean_score_won": float(np.mean(self.scores)) if self.scores else float("nan"),
            "mean_score_all": float(np.sum(self.scores)) / n,
            "assassin_rate": self.assassin / n, "sudden_death_rate": self.sudden / n,
            "mean_clue_number": float(np.mean(self.numbers)) if self.numbers else float("nan"),
            "mean_greens": float(np.mean(self.greens)) if self.greens else float("nan"),
            "clue_ms_median": float(np.median(lat)), "clue_ms_p95": float(np.percentile(lat, 95)),
            "errors": self.errors,
        }


class TimedSpymaster:
    """Wraps a spymaster to time give_clue (same interface for the loop)."""

    def __init__(self, inner, sink: list):
        self.inner, self.sink = inner, sink
        self.spec = inner.spec

    def begin_game(self, seed) -> None:
        self.inner.begin_game(seed)

    def give_clue(self, obs):
        t = time.perf_counter()
        d = self.inner.give_clue(obs)
        self.sink.append((time.perf_counter() - t) * 1000)
        return d


def run_pair(sm_spec: str, g_spec: str, games: int, seed0: int, lang: str, tokens: int) -> Row:
    from agents.registry import make_guesser, make_spymaster
    from experiments.games.duet.dealing import deal_duet_record
    from experiments.games.duet.loop import DuetSeat, play_duet

    row = Row(sm_spec, g_spec)
    seats = {s: DuetSeat(TimedSpymaster(make_spymaster(sm_spec, lang), row.latency_ms), make_guesser(g_spec, lang))
             for s in ("A", "B")}
    for seat in seats.values():  # load and precompute once, as the simulator does
        seat.spymaster.inner.prepare()
        seat.guesser.prepare()
    for i in range(games):
        seed = seed0 + i
        record = deal_duet_record(seed, lang, tokens=tokens)
        try:
            play_duet(record, seats, seed=(seed,))
        except Exception as exc:  # an agent broke its contract: counted, reported, not hidden
            row.errors += 1
            print(f"  game {seed}: {type(exc).__name__}: {exc}", file=sys.stderr)
            row.games += 1
            continue
        state = record.replay()
        out = state.outcome()
        row.games += 1
        row.wins += out.phase == "won"
        if out.phase == "won":
            row.scores.append(out.score)
        row.assassin += out.loss_reason == "assassin"
        row.sudden += state.went_to_sudden_death
        row.greens.append(state.greens_found)
        row.numbers += [a.number for a in record.actions if type(a).__name__ == "Clue"]
    return row


def format_table(rows: list[dict]) -> str:
    head = ("spymaster", "guesser", "games", "win%", "score(won)", "score(all)", "assassin%", "sudden%",
            "clue#", "greens", "ms med", "ms p95")
    lines = [" | ".join(head), " | ".join("---" for _ in head)]
    for r in rows:
        lines.append(" | ".join([
            r["spymaster"], r["guesser"], str(r["games"]), f"{100 * r['win_rate']:.1f}",
            f"{r['mean_score_won']:.2f}", f"{r['mean_score_all']:.2f}", f"{100 * r['assassin_rate']:.1f}",
            f"{100 * r['sudden_death_rate']:.1f}", f"{r['mean_clue_number']:.2f}", f"{r['mean_greens']:.2f}",
            f"{r['clue_ms_median']:.2f}", f"{r['clue_ms_p95']:.2f}",
        ]) + (f"  (errors: {r['errors']})" if r["errors"] else ""))
    return "\n".join(lines)


def check_arguments(args: argparse.Namespace, pairs: list[tuple[str, str]]) -> None:
    """What the run would fail on, refused before any model loads (one line, exit 2): the counts, the
    first and last deal (seed, language, tokens), every spec, and the --json file's folder."""
    from agents.registry import check_spec
    from engine.record_fields import MAX_SEED
    from experiments.exits import check_seed
    from experiments.games.duet.dealing import deal_duet_record
    from experiments.tools.cli import at_least, out_file

    at_least(args.games, 1, "--games")
    check_seed(args.seed)
    if args.seed + args.games - 1 > MAX_SEED:
        fail(f"--seed {args.seed} with --games {args.games}: the last deal's seed would pass 2**64-1 ({MAX_SEED})")
    deal_duet_record(args.seed, args.lang, tokens=args.tokens)
    for sm, g in pairs:
        check_spec(sm, "spymaster", args.lang)
        check_spec(g, "guesser", args.lang)
    if args.json:
        out_file(args.json, "--json")


@one_line_errors
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0, help="first deal seed")
    ap.add_argument("--lang", default="en")
    ap.add_argument("--tokens", type=int, default=9)
    ap.add_argument("--spymasters", default="", help="comma-separated spymaster specs")
    ap.add_argument("--partners", default="", help="comma-separated guesser specs (crossed with --spymasters)")
    ap.add_argument("--pairs", default="", help="comma-separated SPYMASTER@GUESSER pairs")
    ap.add_argument("--json", default="", help="also write the rows to this JSON file")
    args = ap.parse_args(argv)
    pairs = []
    sms = [s for s in args.spymasters.split(",") if s]
    gs = [g for g in args.partners.split(",") if g]
    pairs += [(s, g) for s in sms for g in (gs or ["nearest:use-m3"])]
    for p in (p for p in args.pairs.split(",") if p):
        if "@" not in p:
            fail(f"--pairs {p!r}: a pair is SPYMASTER@GUESSER")
        pairs.append(tuple(p.split("@", 1)))
    if not pairs:
        ap.error("give --spymasters (and --partners) or --pairs")
    check_arguments(args, pairs)
    rows = []
    for sm, g in pairs:
        t = time.time()
        r = run_pair(sm, g, args.games, args.seed, args.lang, args.tokens).summary()
        r["seconds"] = round(time.time() - t, 1)
        rows.append(r)
        print(format_table([r]).splitlines()[-1] + f"   [{r['seconds']} s]", file=sys.stderr, flush=True)
    print(f"# {args.games} deals (seeds {args.seed}..{args.seed + args.games - 1}), {args.tokens} tokens, "
          f"language {args.lang}")
    print(format_table(rows))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
