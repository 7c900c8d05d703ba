"""The Codenames / Pictures key card (RULES 1.1, 2.1, 1.8) and its seeded generator.

A key is one letter per card, row by row: R red agent, B blue agent, N bystander, X assassin.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from ..errors import MalformedRecord

RED, BLUE, BYSTANDER, ASSASSIN = "R", "B", "N", "X"
TEAMS = ("red", "blue")
TEAM_LETTER = {"red": RED, "blue": BLUE}
LETTER_TEAM = {RED: "red", BLUE: "blue"}
LETTERS = (RED, BLUE, BYSTANDER, ASSASSIN)


def other_team(team: str) -> str:
    return "blue" if team == "red" else "red"


def card_counts(game: str, variant: str = "teams") -> tuple[int, int, int, int]:
    """(starting team's agents, other team's agents, bystanders, assassins).

    RULES 1.1: 9/8/7/1; RULES 2.1: 8/7/4/1; single-team protocol: 8 own / 7 opponent / 9 / 1.
    """
    if variant == "single_team":
        return (8, 7, 9, 1)
    return (9, 8, 7, 1) if game == "codenames" else (8, 7, 4, 1)


@dataclass(frozen=True)
class CodenamesKey:
    """The identities of the cards and the starting team (named by the key card's lights)."""

    letters: str
    starts: str

    def __post_init__(self) -> None:
        if self.starts not in TEAMS:
            raise MalformedRecord(f"'starts' must be 'red' or 'blue', not {self.starts!r}")
        if not isinstance(self.letters, str):
            raise MalformedRecord("a key is a string of the letters R, B, N, X")
        bad = next((i for i, ch in enumerate(self.letters) if ch not in LETTERS), None)
        if bad is not None:
            raise MalformedRecord(f"invalid key (RULES 1.1, 2.1): a key is a string of the letters R, B, N, X; "
                                  f"letter {bad + 1} is {self.letters[bad]!r}")

    def __len__(self) -> int:
        return len(self.letters)

    def validate(self, game: str, variant: str) -> None:
        """Raise MalformedRecord if the key does not fit the game and variant (RULES 1.1, 2.1)."""
        first, second, bystanders, assassins = card_counts(game, variant)
        size = first + second + bystanders + assassins
        rule = "1.1" if game == "codenames" else "2.1"
        if len(self.letters) != size:
            raise MalformedRecord(f"invalid key (RULES {rule}): {size} letters expected, got {len(self.letters)}")
        if variant == "single_team" and self.starts != "red":
            raise MalformedRecord("invalid key: in the single-team protocol red is the playing team")
        starter, follower = TEAM_LETTER[self.starts], TEAM_LETTER[other_team(self.starts)]
        want = Counter({starter: first, follower: second, BYSTANDER: bystanders, ASSASSIN: assassins})
        if Counter(self.letters) != want:
            has = Counter(self.letters)
            raise MalformedRecord(
                f"invalid key (RULES {rule}): the starting team ({self.starts}) has {first} agents, the other "
                f"{second}, then {bystanders} bystanders and {assassins} assassin; this key has "
                + ", ".join(f"{has[letter]} {letter}" for letter in (starter, follower, BYSTANDER, ASSASSIN)))

    @classmethod
    def parse(cls, letters: object, starts: object = None) -> "CodenamesKey":
        """A key from a record: `starts` may be omitted; it is then the team with more agents."""
        if not isinstance(letters, str):
            raise MalformedRecord("'key' must be a string of the letters R, B, N, X")
        if starts is None:
            r, b = letters.count(RED), letters.count(BLUE)
            if r == b:
                raise MalformedRecord("'starts' is needed when both teams have as many agents")
            starts = "red" if r > b else "blue"
        return cls(letters, starts)  # type: ignore[arg-type]


def generate_key(rng: np.random.Generator, game: str = "codenames", variant: str = "teams") -> CodenamesKey:
    """A uniform key: the starting team by a fair coin (red in the single-team protocol), then a
    uniform permutation of the card identities."""
    first, second, bystanders, assassins = card_counts(game, variant)
    starts = "red" if variant == "single_team" else TEAMS[int(rng.integers(2))]
    starter, follower = TEAM_LETTER[starts], TEAM_LETTER[other_team(starts)]
    cells = [starter] * first + [follower] * second + [BYSTANDER] * bystanders + [ASSASSIN] * assassins
    letters = "".join(cells[i] for i in rng.permutation(len(cells)))
    key = CodenamesKey(letters, starts)
    key.validate(game, variant)
    return key
