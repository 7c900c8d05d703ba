"""Benchmark of the clue filter's fast path: a 50,000-candidate list against a 25-word board.

    python -m experiments.bench.clues [--repeat 30]

Builds the candidate list from wordfreq's top_n_list (en: 50,000 words; ko: wordfreq ships about
30,000 Korean entries, so the list is that long), warms the per-list analysis cache once (reported
separately), then times `ClueFilter(board).legal_mask(candidates)`, board construction included,
and prints median / p95 in milliseconds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from experiments.tools.cli import at_least

BOARDS = {
    "en": ["RAIN", "RAINCOAT", "ICE CREAM", "CAT", "ANT", "SNOW", "FIRE", "BOOK", "MOON", "STAR",
           "TREE", "APPLE", "RIVER", "BANK", "KEY", "PIANO", "BEAR", "SHIP", "GLASS", "SPRING",
           "DRAGON", "WATCH", "CARD", "PLANE", "HOLE"],
    "ko": ["눈사람", "강", "거북", "블랙홀", "전투기", "대한민국", "우비", "소고기", "빛", "사과",
           "나무", "바다", "별", "달", "시계", "학교", "비행기", "고양이", "물고기", "산불",
           "의자", "책상", "기차", "우산", "병원"],
}


def _percentile(values, q):
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(q * (len(values) - 1))))
    return values[k]


def run(language: str, repeat: int, size: int) -> dict:
    from wordfreq import top_n_list

    from engine.clues import ClueFilter

    candidates = top_n_list(language, size)
    board = BOARDS[language]
    t0 = time.perf_counter()
    ClueFilter(board, language=language).legal_mask(candidates)
    warm = time.perf_counter() - t0
    rng = random.Random(0)
    times = []
    for _ in range(repeat):
        covered = rng.sample(board, 5)
        t = time.perf_counter()
        mask = ClueFilter(board, language=language, covered=covered).legal_mask(candidates)
        times.append((time.perf_counter() - t) * 1000)
    return {
        "language": language,
        "candidates": len(candidates),
        "legal": int(mask.sum()),
        "warm_s": round(warm, 2),
        "median_ms": round(statistics.median(times), 2),
        "p95_ms": round(_percentile(times, 0.95), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--size", type=int, default=50_000)
    parser.add_argument("--lang", choices=["en", "ko", "both"], default="both")
    args = parser.parse_args()
    at_least(args.repeat, 1, "--repeat")
    at_least(args.size, 1, "--size")
    for lang in (["en", "ko"] if args.lang == "both" else [args.lang]):
        r = run(lang, args.repeat, args.size)
        print(
            f"{r['language']}: {r['candidates']} candidates vs 25-word board: "
            f"median {r['median_ms']} ms, p95 {r['p95_ms']} ms "
            f"(legal {r['legal']}; one-off analysis warm-up {r['warm_s']} s)"
        )


if __name__ == "__main__":
    main()
