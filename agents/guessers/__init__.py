"""Guessers: `nearest`, `memory`, `duet-bayes`, `random` (see docs/agents.md)."""

from .base import GuessView, SimilarityGuesser
from .guessers import DuetBayesGuesser, MemoryGuesser, NearestGuesser, RandomGuesser

__all__ = ["GuessView", "SimilarityGuesser", "NearestGuesser", "MemoryGuesser", "DuetBayesGuesser",
           "RandomGuesser"]
