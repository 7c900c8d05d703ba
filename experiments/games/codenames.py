"""Codenames' and Codenames Pictures' harness: dealing, bot play, batch runs (Codenames only)."""

from __future__ import annotations

from ..codenames_loop import play_codenames
from ..codenames_sim import CodenamesRun, format_summary, simulate_codenames
from ..dealing_codenames import deal_record

DEAL_OPTIONS = frozenset({"variant", "invalid_clue"})
SIMULATE_OPTIONS = frozenset({"spymaster", "guesser", "variant"})
PLAYABLE = True


def simulate(game: str, games: int, seed: int, lang: str, workers: int = 1, backend: str = "local",
             out=None, progress: bool = True, **options) -> dict:
    if game != "codenames":
        raise ValueError(f"simulate plays Codenames with words; {game} needs picture-reading bots")
    run = CodenamesRun(games=games, seed=seed, lang=lang, **options)
    return simulate_codenames(run, out=out, workers=workers, progress=progress, backend=backend)


__all__ = ["DEAL_OPTIONS", "PLAYABLE", "SIMULATE_OPTIONS", "deal_record", "format_summary", "play_codenames",
           "simulate"]
