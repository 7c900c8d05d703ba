"""Spy's Word bots (RULES 5): `spyword:use-m3?...` and the weakened `spyword-random`.

    from agents.spyword import make_spyword_bot
    bot = make_spyword_bot("spyword:use-m3", "en")
    bot.begin_game(seed)
    action = bot.act(state.observe("p3"))     # Ready / GiveClue / Vote / GhostGuess / Dismiss / None

See docs/spyword_bots.md.
"""

from .bots import (RandomSpyWordBot, SpyWordAgent, SpyWordBot, check_spyword_spec, make_spyword_bot,
                   require_spyword_observation, role_counts)
from .model import SpyWordModel, script_of, spyword_model
from .translation import DEFAULT_THRESHOLD, translation_checker, with_translation_check

__all__ = ["DEFAULT_THRESHOLD", "RandomSpyWordBot", "SpyWordAgent", "SpyWordBot", "SpyWordModel",
           "check_spyword_spec", "make_spyword_bot", "require_spyword_observation", "role_counts", "script_of",
           "spyword_model", "translation_checker", "with_translation_check"]
