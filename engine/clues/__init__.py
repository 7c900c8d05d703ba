"""The clue filter (RULES section 4): one referee for engines, bots and play interfaces.

    >>> from engine.clues import check_clue
    >>> check_clue("거북이", 2, board=["거북", "강"], language="ko").rule
    '4.3'
"""

from engine.clues.filter import ClueFilter, check_clue, get_analyzer, number_ok
from engine.clues.normalize import MAX_CLUE_LENGTH, ClueTextError, normalize_clue
from engine.clues.types import RULES, UNLIMITED, ClueOptions, ClueVerdict, FilterUnavailable

__all__ = [
    "check_clue",
    "ClueFilter",
    "ClueOptions",
    "ClueVerdict",
    "FilterUnavailable",
    "UNLIMITED",
    "RULES",
    "get_analyzer",
    "number_ok",
    "normalize_clue",
    "ClueTextError",
    "MAX_CLUE_LENGTH",
]
