"""Spy's Word (스파이의 단어): the hidden-word bluffing game of citizens, spies and a ghost (RULES 5)."""

from .actions import (CLOCK, HOST, PASS, TIMEOUTS, Disconnect, Dismiss, GhostGuess, GiveClue, Kick, Leave, Ready,
                      Reconnect, SpyWordAction, StartVote, Timeout, Vote, action_from_dict)
from .matching import ghost_guess_is_right, matches, normalize, same_clue
from .observation import SpyWordObservation
from .record import SpyWordRecord, check_pack, deal_spyword, record_from_dict, replay_summary
from .settings import SpyWordSettings, check_role_counts, recommended_roles, spy_range
from .state import CITIZEN, CITIZENS, GHOST, SPIES, SPY, SpyWordOutcome, SpyWordState, default_clue_checker

__all__ = [
    "CITIZEN", "CITIZENS", "CLOCK", "GHOST", "HOST", "PASS", "SPIES", "SPY", "TIMEOUTS", "Disconnect", "Dismiss",
    "GhostGuess", "GiveClue", "Kick", "Leave", "Ready", "Reconnect", "SpyWordAction", "SpyWordObservation",
    "SpyWordOutcome", "SpyWordRecord", "SpyWordSettings", "SpyWordState", "StartVote", "Timeout", "Vote",
    "action_from_dict", "check_pack", "check_role_counts", "deal_spyword", "default_clue_checker",
    "ghost_guess_is_right", "matches", "normalize", "recommended_roles", "record_from_dict", "replay_summary",
    "same_clue", "spy_range",
]
