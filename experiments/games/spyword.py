"""Spy's Word's harness: dealing from the word packs, bot play, batch runs."""

from __future__ import annotations

from ..dealing_spyword import deal_record
from ..spyword_sim import format_summary, play_game, simulate_spyword

DEAL_OPTIONS = frozenset({"players"})
SIMULATE_OPTIONS = frozenset({"players", "bot", "weaken"})
PLAYABLE = False


def simulate(game: str, games: int, seed: int, lang: str, workers: int = 1, backend: str = "local",
             out=None, progress: bool = True, **options) -> dict:
    return simulate_spyword(games, seed=seed, lang=lang, out=out, workers=workers, progress=progress,
                            backend=backend, **options)


__all__ = ["DEAL_OPTIONS", "PLAYABLE", "SIMULATE_OPTIONS", "deal_record", "format_summary", "play_game",
           "simulate"]
