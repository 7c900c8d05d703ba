"""What one Spy's Word seat may see (RULES 5.1, 5.8, 5.9, 5.10, 5.13): a value, never the state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SpyWordObservation:
    """A seat's screen.

    `word` / `picture`: its own word (None for the ghost), which it may look at any time (5.4).
    `role`: what the seat is told of its own role: "ghost" for the ghost; "spy" only when the
    host reveals the spy role, once eliminated (its role or private screen, 5.9), or at the end;
    "citizen" once eliminated or at the end; otherwise None (a spy's screen looks like a
    citizen's, 5.1).
    `eliminated`: the spectators in order, each {"seat", "round", "by"} plus "role" when the
    eliminated role is revealed (5.9). Other players' words are never in it before the end.
    `votes`: the finished votes as the vote display allows (5.8): "public" gives who voted for
    whom, "counts" only the counts. `my_vote` is this seat's vote in the vote under way; nobody
    sees another's vote before the vote ends (5.6).
    `private_screen`: for the eliminated player the game waits on: {"kind": "ghost_guess"} for
    the ghost, {"kind": "role", "role": ...} for the others (5.9).
    `report`: the end report (5.13) once the game is over, else None.
    """

    seat: str
    word: str | None
    picture: str | None
    role: str | None
    is_spectator: bool
    phase: str
    round: int
    host: str
    seats: tuple[str, ...]
    order: tuple[str, ...]
    to_act: tuple[str, ...]
    clues: tuple[dict, ...]
    eliminated: tuple[dict, ...]
    departed: tuple[str, ...]
    votes: tuple[dict, ...]
    voted: tuple[str, ...]
    my_vote: str | None
    vote_candidates: tuple[str, ...]
    pass_allowed: bool
    duel: tuple[str, ...]
    private_screen: dict | None
    ghost_guesses: tuple[dict, ...]
    settings: dict[str, Any] = field(default_factory=dict)
    report: dict | None = None

    @property
    def remaining(self) -> tuple[str, ...]:
        gone = {e["seat"] for e in self.eliminated}
        return tuple(s for s in self.seats if s not in gone)

    def clue_texts(self) -> tuple[str, ...]:
        return tuple(c["clue"] for c in self.clues if c.get("clue") is not None)
