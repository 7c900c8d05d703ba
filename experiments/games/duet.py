"""Codenames Duet's harness: dealing from the word lists and mission map, bot play, batch runs."""

from __future__ import annotations

from ..dealing import deal_duet_record as deal_record
from ..duet_loop import DuetSeat, play_duet
from ..simulate import DuetRun, format_summary
from ..simulate import simulate as _simulate

DEAL_OPTIONS = frozenset({"mission", "missions_file", "tokens", "invalid_clue"})
SIMULATE_OPTIONS = frozenset({"spymaster", "guesser", "seat_b_spymaster", "seat_b_guesser", "mission",
                              "missions_file", "tokens"})
PLAYABLE = True


def simulate(game: str, games: int, seed: int, lang: str, workers: int = 1, backend: str = "local",
             out=None, progress: bool = True, **options) -> dict:
    run = DuetRun(games=games, seed=seed, lang=lang, spymaster=options.get("spymaster"),
                  **{k: v for k, v in dict(guesser=options.get("guesser"), spymaster_b=options.get("seat_b_spymaster"),
                                           guesser_b=options.get("seat_b_guesser"), mission=options.get("mission"),
                                           tokens=options.get("tokens"),
                                           missions_file=str(options["missions_file"]) if options.get("missions_file")
                                           else None).items() if v is not None})
    run.validate()
    return _simulate(run, out=out, workers=workers, backend=backend, progress=progress)


__all__ = ["DEAL_OPTIONS", "PLAYABLE", "SIMULATE_OPTIONS", "DuetSeat", "deal_record", "format_summary",
           "play_duet", "simulate"]
