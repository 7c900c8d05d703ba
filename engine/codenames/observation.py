"""What one Codenames seat may see (RULES 1.1): an immutable value, never the state itself.

Spymasters see the key; guessers see only the board, the revealed identities and the public
history (clues, guesses and their results, stops, covers, penalties).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..fresh import text


@dataclass(frozen=True)
class Event:
    """One public event: a clue, a guess and what it revealed, a stop, a cover, a penalty, the end."""

    kind: str                   # "clue", "guess", "stop", "cover", "penalty", "end_turn"
    seat: str
    word: str | None = None
    number: int | str | None = None
    result: str | None = None   # guesses and covers: the revealed letter R/B/N/X; penalties: the rule

    def to_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if v is not None}

    def copy(self) -> "Event":
        """An equal event made of new objects (observations share nothing with the state)."""
        return Event(text(self.kind), text(self.seat), text(self.word), text(self.number), text(self.result))


@dataclass(frozen=True)
class CodenamesObservation:
    seat: str
    role: str                            # "spymaster" or "guesser"
    team: str                            # the seat's team
    game: str
    variant: str
    words: tuple[str, ...]               # words, or picture card ids (RULES 2.1)
    grid: tuple[int, int]                # (rows, columns)
    key: str | None                      # spymasters only (RULES 1.1); None for guessers
    starts: str
    revealed: tuple[str | None, ...]     # the letter shown on each revealed card, None if hidden
    agents_left: tuple[tuple[str, int], ...]  # (team, agents not yet revealed): public, the agent piles
    phase: str                           # "clue", "guess", "cover", "sudden_death", "finished"
    turn_team: str | None
    to_act: tuple[str, ...]
    current_clue: tuple[str, int | str] | None
    guesses_this_turn: int
    guesses_left: int | None             # None = no limit (0, unlimited, sudden death)
    history: tuple[Event, ...]
    winner: str | None

    def hidden(self) -> tuple[int, ...]:
        """Cards still face up (not covered): what a guess may touch."""
        return tuple(i for i, r in enumerate(self.revealed) if r is None)

    def own_targets(self) -> tuple[int, ...]:
        """A spymaster's still hidden own agents (empty for a guesser, who has no key)."""
        if self.key is None:
            return ()
        letter = "R" if self.team == "red" else "B"
        return tuple(i for i in self.hidden() if self.key[i] == letter)

    def clues_received(self) -> tuple[Event, ...]:
        """The clues of this seat's team so far, oldest first (the guesser's memory)."""
        return tuple(e for e in self.history if e.kind == "clue" and e.seat.startswith(self.team))
