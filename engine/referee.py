"""The clue referee every board game shares (RULES 4, 1.6, 4.8): the project's clue filter, with
the options the players agreed on (RULES 4.7, a config's `clue_options`)."""

from __future__ import annotations

from functools import partial
from typing import Callable, Sequence

from .record_fields import CLUE_OPTIONS

# A referee judges a clue: (word, number, board, covered, language) -> (rule, message) or None.
Referee = Callable[[str, "int | str", Sequence[str], Sequence[str], str], "tuple[str, str] | None"]


def default_referee(word, number, board, covered, language, options: Sequence[str] = ()):
    """The clue filter, imported only when a game referees its clues."""
    from .clues import ClueOptions, check_clue

    agreed = ClueOptions(**{CLUE_OPTIONS[o]: True for o in options}) if options else None
    verdict = check_clue(word, number, board=board, language=language, covered=covered, options=agreed)
    return None if verdict.legal else (verdict.rule, verdict.message)


def referee_for(config, referee: Referee | None) -> Referee:
    """The given referee, else the default one with the config's agreed options."""
    if referee is not None:
        return referee
    return partial(default_referee, options=config.clue_options) if config.clue_options else default_referee
