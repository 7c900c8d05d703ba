"""Benchmark of the bots' fast path (RULES 4): a 50,000-word candidate list vs a 25-word board.

A benchmark, not a timed test: `pytest tests/engine/test_clue_bench.py --benchmark-only` reports
the figure (target: well under 50 ms once the candidate list's analysis is warmed).
"""

from __future__ import annotations

import pytest

from engine.clues import ClueFilter

pytest.importorskip("kiwipiepy")
wordfreq = pytest.importorskip("wordfreq")

EN_BOARD = ["RAIN", "RAINCOAT", "ICE CREAM", "CAT", "ANT", "SNOW", "FIRE", "BOOK", "MOON", "STAR",
            "TREE", "APPLE", "RIVER", "BANK", "KEY", "PIANO", "BEAR", "SHIP", "GLASS", "SPRING",
            "DRAGON", "WATCH", "CARD", "PLANE", "HOLE"]


@pytest.fixture(scope="module")
def candidates():
    return wordfreq.top_n_list("en", 50_000)


def test_legal_mask_50k_en(benchmark, candidates):  # RULES 4.3/4.4 fast path
    ClueFilter(EN_BOARD, language="en").legal_mask(candidates)  # warm the per-list analysis

    def run():
        return ClueFilter(EN_BOARD, language="en", covered=EN_BOARD[-5:]).legal_mask(candidates)

    mask = benchmark.pedantic(run, rounds=10, iterations=1)
    assert mask.shape == (len(candidates),)
    assert not mask[candidates.index("rainy")] if "rainy" in candidates else True
