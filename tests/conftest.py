"""Shared test helpers: hand-made Duet keys and boards, and the illegal-move check of every game."""

from __future__ import annotations

import copy

import pytest

from engine.duet import CELL_COUNTS, DuetConfig, DuetKey, DuetState
from engine.errors import IllegalAction

WORDS = [f"w{i:02d}" for i in range(25)]


def make_key(cells: dict[int, tuple[str, str]]) -> DuetKey:
    """A valid key with the given (side A, side B) pairs on some cells; the rest filled in order."""
    left = dict(CELL_COUNTS)
    for pair in cells.values():
        left[pair] -= 1
        assert left[pair] >= 0, f"too many {pair} cells"
    fill = [pair for pair, n in left.items() for _ in range(n)]
    pairs = [cells[i] if i in cells else fill.pop(0) for i in range(25)]
    return DuetKey("".join(a for a, _ in pairs), "".join(b for _, b in pairs))


def make_state(cells: dict[int, tuple[str, str]], config: DuetConfig = DuetConfig(), words=WORDS) -> DuetState:
    return DuetState(words, make_key(cells), config)


def snapshot(state) -> dict:
    """Everything that an illegal action must leave unchanged (any game's state)."""
    return copy.deepcopy({k: v for k, v in vars(state).items() if not k.startswith("_")})


def expect_illegal(state, action, rule: str, apply=None) -> IllegalAction:
    """`action` is refused citing RULES `rule` and the state is exactly as before; `apply` plays
    it (default `state.apply`). The one copy every game's rule tests use."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        (apply or state.apply)(action)
    assert err.value.rule == rule, err.value
    assert snapshot(state) == before  # an illegal action leaves the state unchanged
    return err.value


@pytest.fixture
def words():
    return list(WORDS)
