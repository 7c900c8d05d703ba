"""Third-party agents as a researcher writes them (docs/agents.md, "Your own agent"), named by import
path (`tests.contract.toy_agents:Class`) in tests/contract/test_third_party.py."""

from __future__ import annotations

import sys

from agents.base import ClueDecision, Guesser, Spymaster
from agents.spyword.bots import RandomSpyWordBot


class ExitingSpymaster(Spymaster):
    """Calls sys.exit in its own code (a stray `exit()` left in a bot)."""

    def __init__(self, spec, language="en"):
        super().__init__()

    def give_clue(self, obs):
        sys.exit(3)


class ExitingGuesser(Guesser):
    def __init__(self, spec, language="en"):
        super().__init__()

    def next_guess(self, obs):
        raise SystemExit("bye")


class ExitingSpyWordBot(RandomSpyWordBot):
    def act(self, obs, avoid=()):
        sys.exit(3)


class BrokenConstructorSpymaster(Spymaster):
    """Its constructor fails as a model it needs is missing (not a bad parameter: no ValueError)."""

    def __init__(self, spec, language="en"):
        raise RuntimeError("no model file here")

    def give_clue(self, obs):
        return ClueDecision("animal", 1)


class ExitingConstructorGuesser(Guesser):
    def __init__(self, spec, language="en"):
        sys.exit(5)

    def next_guess(self, obs):
        return None


class BrokenConstructorSpyWordBot(RandomSpyWordBot):
    def __init__(self, spec=None, language="en", **kwargs):
        raise OSError("no such pack")


class BrokenPrepareGuesser(Guesser):
    """Loads what every game needs in `prepare` (agents.base.Agent), and fails there."""

    def __init__(self, spec, language="en"):
        super().__init__()

    def prepare(self):
        raise RuntimeError("the index did not load")

    def next_guess(self, obs):
        return None


class BadBeliefSpyWordBot(RandomSpyWordBot):
    """Keeps a belief history (what a game's row averages) whose last entry is the spec's `belief`:
    nan, inf, a word or an integer no float holds."""

    defaults = {**RandomSpyWordBot.defaults, "belief": "nan"}

    def act(self, obs, avoid=()):
        self.belief_history.append({"nan": float("nan"), "inf": float("inf"), "word": "high",
                                    "huge": 10 ** 400}[str(self.params["belief"])])
        return super().act(obs, avoid)


class BoardWordSpymaster(Spymaster):
    """Clues the first word still visible on the board: a visible code word, refused by RULES 4.3."""

    def __init__(self, spec, language="en"):
        super().__init__()

    def give_clue(self, obs):
        return ClueDecision(obs.words[0], 1)
