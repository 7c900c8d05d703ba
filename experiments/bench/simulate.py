"""Speed of the Duet simulator: games/s on 1 and N workers, per-clue latency, peak memory, profile.

    python -m experiments.bench.simulate --games 2000 --workers 2 [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import resource
import time

import numpy as np

from experiments.games.duet.batch import DEFAULT_GUESSER, DEFAULT_SPYMASTER, DuetRun, load_players, simulate
from experiments.tools.cli import one_line_errors


def clue_latencies(run: DuetRun, games: int) -> np.ndarray:
    """Wall time of every give_clue call over `games` games, in one process."""
    players = load_players(run)
    times: list[float] = []
    for seat in players["seats"].values():
        agent = seat.spymaster
        if getattr(agent, "_timed", False):
            continue
        original = agent.give_clue

        def timed(obs, _original=original):
            start = time.perf_counter()
            try:
                return _original(obs)
            finally:
                times.append(time.perf_counter() - start)

        agent.give_clue, agent._timed = timed, True
    simulate(DuetRun(**{**run.__dict__, "games": games}), progress=False)
    for seat in players["seats"].values():  # undo the instrumentation
        seat.spymaster.__dict__.pop("give_clue", None)
        seat.spymaster.__dict__.pop("_timed", None)
    return np.array(times)


def peak_memory_mb() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return round(max(own, children) / 1024, 1)


def check_counts(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Counts the simulator refuses, refused here first: a usage line, not a traceback after the load."""
    from experiments.runs.execute import MAX_GAMES, MAX_WORKERS

    for option, value, most in (("--games", args.games, MAX_GAMES), ("--workers", args.workers, MAX_WORKERS),
                                ("--latency-games", args.latency_games, MAX_GAMES)):
        if not 1 <= value <= most:
            parser.error(f"{option} must be between 1 and {most:,}, not {value}")


@one_line_errors
def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--spymaster", default=DEFAULT_SPYMASTER)
    parser.add_argument("--guesser", default=DEFAULT_GUESSER)
    parser.add_argument("--latency-games", type=int, default=100)
    parser.add_argument("--profile", action="store_true", help="print where the time goes (cProfile, 1 worker)")
    args = parser.parse_args(argv)
    check_counts(parser, args)

    run = DuetRun(games=args.games, seed=12345, spymaster=args.spymaster, guesser=args.guesser)
    start = time.perf_counter()
    load_players(run)
    load_seconds = time.perf_counter() - start
    latencies = clue_latencies(run, args.latency_games)  # also warms every cache
    speeds = {}
    for workers in sorted({1, args.workers}):
        s = simulate(run, workers=workers, progress=False)
        speeds[workers] = s["games_per_second"]
    report = {
        "spymaster": args.spymaster, "guesser": args.guesser, "games": args.games,
        "load_seconds": round(load_seconds, 2),
        "games_per_second": {str(k): v for k, v in speeds.items()},
        "speedup": round(speeds[max(speeds)] / speeds[1], 2) if speeds.get(1) else None,
        "clue_ms_median": round(float(np.median(latencies)) * 1000, 3),
        "clue_ms_p95": round(float(np.percentile(latencies, 95)) * 1000, 3),
        "clues_timed": int(latencies.size),
        "peak_memory_mb": peak_memory_mb(),
    }
    print(json.dumps(report, indent=1))
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        simulate(DuetRun(**{**run.__dict__, "games": min(args.games, 300)}), progress=False)
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(20)
        print(out.getvalue())
    return report


if __name__ == "__main__":
    main()
