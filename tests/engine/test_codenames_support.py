"""Shared helpers for the Codenames / Pictures tests (no tests here): boards, keys, a fake referee."""

from __future__ import annotations

from conftest import expect_illegal, snapshot  # noqa: F401  (the shared copies, re-exported)

from engine.codenames import CodenamesConfig, CodenamesKey, CodenamesState, card_counts


def plain_key(game: str = "codenames", variant: str = "teams", starts: str = "red") -> CodenamesKey:
    """The starting team's agents first, then the other team's, bystanders, the assassin last."""
    first, second, bystanders, assassins = card_counts(game, variant)
    s, o = ("R", "B") if starts == "red" else ("B", "R")
    return CodenamesKey(s * first + o * second + "N" * bystanders + "X" * assassins, starts)


def board(game: str = "codenames") -> list[str]:
    return [f"w{i:02d}" for i in range(25 if game == "codenames" else 20)]


def make_state(game: str = "codenames", variant: str = "teams", starts: str = "red", referee=None,
               key: CodenamesKey | None = None, words=None, **config) -> CodenamesState:
    cfg = CodenamesConfig(game=game, variant=variant, **config)
    return CodenamesState(words or board(game), key or plain_key(game, variant, starts), cfg, referee=referee)


def cards(state: CodenamesState, letter: str) -> list[str]:
    """The words of the board whose identity is `letter` (R, B, N, X), in board order."""
    return [w for w, c in zip(state.words, state.key.letters) if c == letter]


class FakeReferee:
    """Refuses every clue that starts with 'bad' (as RULES 4.3 would); remembers what it was shown."""

    def __init__(self):
        self.calls = []

    def __call__(self, word, number, board, covered, language):
        self.calls.append((word, number, tuple(board), tuple(covered), language))
        return ("4.3", f"{word!r} is a visible code word") if word.startswith("bad") else None
