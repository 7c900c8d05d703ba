"""The double-sided Duet key card (RULES 3.1, 3.2) and its seeded generator."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from ..errors import MalformedRecord

GREEN, ASSASSIN, BYSTANDER = "G", "X", "N"
SEATS = ("A", "B")
BOARD_SIZE = 25

# RULES 3.2: how many cells carry each (side A, side B) pair.
CELL_COUNTS: dict[tuple[str, str], int] = {
    ("G", "G"): 3, ("G", "X"): 1, ("G", "N"): 5,
    ("X", "G"): 1, ("N", "G"): 5,
    ("X", "X"): 1, ("X", "N"): 1, ("N", "X"): 1,
    ("N", "N"): 7,
}
TOTAL_GREENS = sum(n for (a, b), n in CELL_COUNTS.items() if GREEN in (a, b))  # 15


def other(seat: str) -> str:
    return "B" if seat == "A" else "A"


@dataclass(frozen=True)
class DuetKey:
    """Side A and side B, 25 letters each (G green agent, X assassin, N bystander), row by row."""

    a: str
    b: str

    def __post_init__(self) -> None:
        problem = key_problem(self.a, self.b)
        if problem:
            raise MalformedRecord(f"invalid Duet key (RULES 3.2): {problem}")

    def side(self, seat: str) -> str:
        return self.a if seat == "A" else self.b

    def green_cells(self) -> frozenset[int]:
        """The 15 distinct cells that are green on at least one side."""
        return frozenset(i for i in range(BOARD_SIZE) if GREEN in (self.a[i], self.b[i]))

    def to_dict(self) -> dict[str, str]:
        return {"A": self.a, "B": self.b}


def key_problem(a: object, b: object) -> str | None:
    """Why (a, b) is not a valid RULES 3.2 key, or None if it is."""
    for name, side in (("A", a), ("B", b)):
        if not isinstance(side, str):
            return f"side {name} must be 25 letters of G, X, N"
        if len(side) != BOARD_SIZE:
            return f"side {name} must be 25 letters of G, X, N; it has {len(side)} letters"
        bad = next((i for i, ch in enumerate(side) if ch not in (GREEN, ASSASSIN, BYSTANDER)), None)
        if bad is not None:
            return f"side {name} must be 25 letters of G, X, N; letter {bad + 1} is {side[bad]!r}"
    pairs = Counter(zip(a, b))  # type: ignore[arg-type]
    if pairs != Counter(CELL_COUNTS):
        off = [f"{x}/{y}: {pairs[(x, y)]} cells, not {CELL_COUNTS.get((x, y), 0)}"
               for x in (GREEN, ASSASSIN, BYSTANDER) for y in (GREEN, ASSASSIN, BYSTANDER)
               if pairs[(x, y)] != CELL_COUNTS.get((x, y), 0)]
        return ("the two sides do not have the key-card structure (3 shared greens, assassin links); "
                f"cells A/B {'; '.join(off)}")
    return None


def generate_key(rng: np.random.Generator) -> DuetKey:
    """Draw uniformly among all valid keys: a uniform permutation of the 25 cell pairs."""
    cells = [pair for pair, n in CELL_COUNTS.items() for _ in range(n)]
    order = rng.permutation(BOARD_SIZE)
    a = "".join(cells[i][0] for i in order)
    b = "".join(cells[i][1] for i in order)
    return DuetKey(a, b)
