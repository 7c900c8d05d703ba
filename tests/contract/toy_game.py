"""A third party's new game, written as docs/architecture.md says ("Adding a game: one engine package,
one harness package, one `register_game` line, one reference record"), here in one module that is
both: Hidden Nim. Two seats take 1..3 stones from one pile in turn; whoever takes the last wins. Each
seat holds a secret card the other may not see (it only decides nothing, so it is pure hidden
information). Its refusals cite RULES 1.3 ("a guess"), a section of docs/rules.md, as the suite
asks of every refusal.

    GameSpec("toy_nim", "Hidden Nim", "tests.contract.toy_game", "tests.contract.toy_game",
             "tests.contract.toy_game:NimObservation", "tests.contract.toy_game")
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from engine.errors import IllegalAction, MalformedRecord
from engine.game import Outcome

SEATS = ("A", "B")
DEAL_OPTIONS = frozenset({"pile"})
SIMULATE_OPTIONS = frozenset()
PLAYABLE = False


@dataclass(frozen=True)
class Take:
    seat: str
    stones: int


@dataclass(frozen=True)
class NimObservation:
    seat: str
    pile: int
    to_act: tuple[str, ...]
    own_card: int
    history: tuple[tuple[str, int], ...]


class NimState:
    def __init__(self, pile: int, cards: dict[str, int]):
        self.pile = pile
        self.cards = dict(cards)
        self.turn = 0
        self.history: list[tuple[str, int]] = []

    @property
    def seats(self) -> tuple[str, ...]:
        return SEATS

    def to_act(self) -> tuple[str, ...]:
        return () if self.is_terminal() else (SEATS[self.turn % 2],)

    def legal_actions(self) -> list[Take]:
        if self.is_terminal():
            return []
        return [Take(self.to_act()[0], n) for n in range(1, min(3, self.pile) + 1)]

    def apply(self, action) -> None:
        if not isinstance(action, Take):
            raise IllegalAction("1.3", f"not a move of this game: {type(action).__name__}")
        if self.is_terminal():
            raise IllegalAction("1.3", "the game is over")
        if action.seat != self.to_act()[0]:
            raise IllegalAction("1.3", f"it is {self.to_act()[0]}'s turn, not {action.seat!r}'s")
        if isinstance(action.stones, bool) or not isinstance(action.stones, int) \
                or not 1 <= action.stones <= min(3, self.pile):
            raise IllegalAction("1.3", f"take 1..{min(3, self.pile)} stones, not {action.stones!r}")
        self.pile -= action.stones
        self.history.append((action.seat, action.stones))
        self.turn += 1

    def observe(self, seat: str) -> NimObservation:
        if seat not in SEATS:
            raise KeyError(seat)
        return NimObservation(seat, self.pile, self.to_act(), self.cards[seat], tuple(self.history))

    def is_terminal(self) -> bool:
        return self.pile == 0

    def outcome(self) -> Outcome:
        if not self.is_terminal():
            return Outcome("playing", None, None, None)
        return Outcome("finished", self.history[-1][0], None, None)


@dataclass
class NimRecord:
    pile: int
    cards: dict[str, int]
    seed: int | None = None
    actions: list[Take] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"game": "toy_nim", "version": 1, "seed": self.seed, "pile": self.pile, "cards": dict(self.cards),
                "actions": [{"seat": a.seat, "take": a.stones} for a in self.actions]}

    def replay(self) -> NimState:
        state = NimState(self.pile, self.cards)
        for i, a in enumerate(self.actions):
            try:
                state.apply(a)
            except IllegalAction as exc:
                raise exc.at(i) from None
        return state


def record_from_dict(data) -> NimRecord:
    try:
        actions = [Take(a["seat"], a["take"]) for a in data["actions"]]
        return NimRecord(int(data["pile"]), {s: int(data["cards"][s]) for s in SEATS}, data.get("seed"), actions)
    except (KeyError, TypeError, ValueError) as exc:
        raise MalformedRecord(f"not a Hidden Nim record: {exc}") from None


def replay_summary(state: NimState) -> dict:
    o = state.outcome()
    return {"game": "toy_nim", "status": o.status, "winner": o.winner, "pile": state.pile}


# ----- the harness ---------------------------------------------------------------------------------------
def deal_record(seed: int, lang: str = "en", game: str = "toy_nim", pile: int | None = None) -> NimRecord:
    rng = np.random.default_rng(seed)
    return NimRecord(int(pile or rng.integers(8, 30)), {s: int(rng.integers(1000)) for s in SEATS}, seed)


def simulate(game, games, seed, lang, **options) -> dict:
    raise ValueError("Hidden Nim has no simulator")


def format_summary(summary: dict) -> str:
    return str(summary)


def open_actions(state: NimState, rng, lang: str = "en") -> list:
    return [Take(s, n) for s in SEATS for n in (0, 4)] + [Take("C", 1), "take"]


def hidden_variants(data: dict, seat: str, rng) -> list[dict]:
    other = next(s for s in SEATS if s != seat)
    return [{**data, "cards": {**data["cards"], other: data["cards"][other] + 1}}]
