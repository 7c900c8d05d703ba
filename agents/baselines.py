"""Weak reference agents: what a bot's decisions are measured against."""

from __future__ import annotations

from engine.duet import DuetObservation

from .base import ClueDecision, Guesser, Spymaster, require_observation
from .spec import AgentSpec


class RandomSpymaster(Spymaster):
    """A clue drawn at random from the 2,000 commonest vocabulary words not on the board, for one or
    two random own targets. Needs no model; its clues carry no meaning."""

    def __init__(self, spec: AgentSpec, language: str = "en"):
        super().__init__()
        from .wordlists import clue_vocabulary

        self.candidates = clue_vocabulary(language).top(2000)

    def give_clue(self, obs) -> ClueDecision:
        require_observation(obs)
        board = {w.lower() for w in obs.words}
        targets = [obs.words[i] for i in obs.own_targets()]
        while True:
            word = self.candidates[int(self.rng.integers(len(self.candidates)))]
            if word.lower() not in board:
                break
        k = min(len(targets), int(self.rng.integers(1, 3)))
        chosen = [targets[i] for i in sorted(self.rng.choice(len(targets), size=k, replace=False))]
        return ClueDecision(word, k, tuple(chosen))


class RandomGuesser(Guesser):
    """Touches a random guessable card; stops after the clue's number of correct guesses.
    In sudden death it holds back: a random guess there is a coin flip with the game."""

    def __init__(self, spec: AgentSpec, language: str = "en"):
        super().__init__()

    def next_guess(self, obs) -> str | None:
        require_observation(obs)
        if obs.phase == "sudden_death":
            return None
        number = obs.current_clue[1] if obs.current_clue else 1
        wanted = number if isinstance(number, int) and number > 0 else 1
        duet = isinstance(obs, DuetObservation)
        made = obs.correct_this_turn if duet else obs.guesses_this_turn
        if made >= wanted:
            return None
        options = obs.guessable() if duet else obs.hidden()
        return obs.words[options[int(self.rng.integers(len(options)))]]
