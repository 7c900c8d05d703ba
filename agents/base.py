"""One interface per role, so that any spymaster pairs with any guesser.

Agents receive observations only (frozen per-seat views from the engine), never a game state;
`require_observation` enforces that boundary at every call.
"""

from __future__ import annotations

import abc
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np

from .observations import adapter_for

if TYPE_CHECKING:
    from engine.codenames import CodenamesObservation
    from engine.duet import DuetObservation

    CodenamesFamilyObservation = DuetObservation | CodenamesObservation


@dataclass(frozen=True)
class ClueDecision:
    """A clue and, for analysis only, the cards it was meant for and how it scored."""

    word: str
    number: int
    targets: tuple[str, ...] = ()
    score: float = 0.0
    details: Mapping[str, Any] = field(default_factory=dict)

    def intent(self, action: int) -> dict:
        """What a record keeps of this decision (an entry of its `intents`): the index of the Clue
        action, the targets, and the score, None when it is not a finite number (JSON has no NaN or
        Infinity: one would make the record unreadable)."""
        targets = None if isinstance(self.targets, (str, bytes)) else list(self.targets)   # 'dog' read d, o, g
        if targets is None or not all(isinstance(t, str) for t in targets):
            raise TypeError(f"targets must be board words, not {self.targets!r}"[:120])
        if isinstance(self.targets, (set, frozenset)):   # a set's order is the process's hash seed's: sorted
            targets.sort()
        if isinstance(self.score, (str, bytes)):
            raise TypeError(f"score must be a number, not {self.score!r}"[:120])
        score = float(self.score)
        return {"action": action, "targets": [str(t) for t in targets],
                "score": round(score, 6) if math.isfinite(score) else None}


def require_observation(obs: Any) -> None:
    """Agents are handed observations, never the state (hidden information is a boundary):
    only the observation types registered in agents.observations pass."""
    adapter_for(obs)


class Agent(abc.ABC):
    """Common to both roles: a seeded random stream, reset at the start of every game."""

    spec: str = "?"
    #: The models read when the spec names none (an embedding agent: the default backend).
    default_backends: tuple[str, ...] = ()
    #: The words a run deals its boards from, where that is not the shipped list of the agent's language
    #: (a researcher's own list, `--words`): set by the run before `prepare()`, which builds the
    #: per-word tables for it (`listed_words`). None: the shipped list.
    board_list: tuple[str, ...] | None = None

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)

    @classmethod
    def models_read(cls, spec) -> frozenset[str]:
        """The models this agent reads clues with under `spec` (an AgentSpec), aliases resolved,
        without building it: what tells a self-play pairing from a cross-model one. An agent that
        reads no model (random) returns none."""
        from .embeddings.registry import canonical_backend

        return frozenset(canonical_backend(b) for b in (spec.backends or cls.default_backends))

    @classmethod
    def check_setup(cls, spec, language: str) -> None:
        """Check what `spec` (an AgentSpec) names beyond its parameters, such as a model file, without
        loading any model: a ValueError before a run writes anything (`agents.registry.check_spec`).
        Nothing by default."""

    def begin_game(self, seed: Any) -> None:
        """Called once before each game with `experiments.runs.seeds.agent_seed(game, seat, role)`: a
        128-bit keyed hash that is deterministic but leads back to no deal (docs/isolation.md)."""
        self.rng = np.random.default_rng(seed)

    def prepare(self) -> None:
        """Load what every game needs, once, before worker processes fork (so they share it)."""
        prime_backends(getattr(self, "backends", ()), getattr(self, "language", "en"), self.listed_words())

    def listed_words(self) -> tuple[str, ...]:
        """The board list `prepare()` builds its per-word tables for: the run's (`board_list`), else
        the shipped list of the agent's language. A board of other words takes the per-board path."""
        from .wordlists import board_words

        return self.board_list if self.board_list is not None else board_words(getattr(self, "language", "en"))


def prime_backends(backends, language: str, words: Sequence[str] | None = None) -> None:
    """Give every encoder its vectors for the clue vocabulary (from the disk cache) and the board
    list (`words`, else the language's shipped list), in a fixed order: games then only look vectors
    up, identically in every process."""
    from .embeddings import embedded_vocabulary
    from .wordlists import board_words, clue_vocabulary

    for emb in backends:
        if emb.has_vectors and emb.open_vocabulary and not emb.name.startswith("fake"):
            embedded_vocabulary(emb, list(clue_vocabulary(language).words))
            emb.vectors(list(board_words(language) if words is None else words))


class Spymaster(Agent):
    """Gives clues in Codenames, Pictures and Duet; built as `cls(spec, language)`."""

    @abc.abstractmethod
    def give_clue(self, obs: CodenamesFamilyObservation) -> ClueDecision:
        """A legal clue for this seat's observation (the clue filter never refuses it)."""


class Guesser(Agent):
    """Touches cards in Codenames, Pictures and Duet; built as `cls(spec, language)`."""

    @abc.abstractmethod
    def next_guess(self, obs: CodenamesFamilyObservation) -> str | None:
        """The next card to touch, or None to stop (after at least one correct guess).

        In Duet's sudden death, None means "I do not guess now" (RULES 3.9: no obligation).
        """
