"""What one Duet seat may see (RULES 3.1, 3.12): an immutable value, never the state itself."""

from __future__ import annotations

from dataclasses import dataclass

from ..fresh import text

_new = object.__new__


@dataclass(frozen=True)
class Event:
    """One public event of the game: a clue, a guess and what the table showed, a stop, a penalty."""

    kind: str  # "clue", "guess", "stop", "penalty"
    seat: str
    word: str | None = None
    number: int | None = None
    result: str | None = None  # for guesses: "green", "bystander", "assassin"

    def to_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if v is not None}

    def copy(self) -> "Event":
        """An equal event made of new objects (observations share nothing with the state)."""
        e = _new(Event)          # the fields set directly: a frozen dataclass's __init__ is slow
        fields = self.__dict__
        e.__dict__.update(zip(fields, map(text, fields.values())))
        return e


@dataclass(frozen=True)
class DuetObservation:
    """A seat's view: the board, its own key side, every token and agent on the table, and the
    public history. Nothing of the other side's key is in it (RULES 3.1)."""

    seat: str
    words: tuple[str, ...]
    own_key: str                       # this seat's side: G / X / N per card
    green_covered: tuple[bool, ...]    # a green agent card lies on the card
    bystander_marks: tuple[frozenset[str], ...]  # seats whose guess put a bystander token on it
    check_tokens: int                  # tokens left in the supply, check side up
    bystander_tokens: int              # tokens left in the supply, bystander side up
    timer_tokens: int
    mistakes_allowed: int | None
    phase: str                         # "clue", "guess", "sudden_death", "won", "lost"
    clue_giver: str | None
    to_act: tuple[str, ...]
    current_clue: tuple[str, int] | None
    correct_this_turn: int
    greens_found: int
    partner_finished: bool             # the partner announced its nine greens are covered (RULES 3.8)
    history: tuple[Event, ...]

    @property
    def tokens_left(self) -> int:
        return self.check_tokens + self.bystander_tokens

    def can_guess(self, index: int) -> bool:
        """Whether this seat may still guess the card: not covered, not already beige for it (3.7)."""
        return not self.green_covered[index] and self.seat not in self.bystander_marks[index]

    def guessable(self) -> tuple[int, ...]:
        return tuple(i for i in range(len(self.words)) if self.can_guess(i))

    def own_targets(self) -> tuple[int, ...]:
        """Cards green on my side not yet covered: what my clues must lead the partner to."""
        return tuple(i for i, c in enumerate(self.own_key) if c == "G" and not self.green_covered[i])

    def clues_received(self) -> tuple[Event, ...]:
        """The partner's clues so far, oldest first (the guesser's memory)."""
        return tuple(e for e in self.history if e.kind == "clue" and e.seat != self.seat)
