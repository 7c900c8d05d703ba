"""Random legal play never crashes and keeps the invariants.  RULES 3.3, 3.6, 3.7, 3.9, 3.10"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import WORDS
from engine import Clue
from engine.duet import DuetConfig, DuetState, generate_key


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), tokens=st.integers(1, 11), mistakes=st.none() | st.integers(0, 11),
       relaxed=st.booleans())
def test_random_legal_play_keeps_the_invariants(seed, tokens, mistakes, relaxed):
    mistakes = None if mistakes is None else min(mistakes, tokens)
    rng = np.random.default_rng(seed)
    state = DuetState(WORDS, generate_key(rng), DuetConfig(tokens, mistakes, relaxed_order=relaxed))
    greens = state.key.green_cells()
    assert len(greens) == 15
    covered_so_far: set[int] = set()
    for _ in range(400):
        if state.is_terminal():
            break
        givers = state.clue_givers()
        if givers:
            state.apply(Clue(givers[rng.integers(len(givers))], "clue", int(rng.integers(0, 10))))
        else:
            actions = state.legal_actions()
            assert actions, "a non-terminal state always has a legal move"
            state.apply(actions[rng.integers(len(actions))])
        covered = {i for i in range(25) if state.green_covered[i]}
        assert covered_so_far <= covered  # a covered card never changes
        assert covered <= greens
        covered_so_far = covered
        used = state.stop_tokens + state.tokens_on_cards + state.tokens_discarded
        assert state.tokens_left >= 0
        assert state.tokens_left + used == tokens  # tokens in supply + tokens used = start
        if state.loss_reason != "out_of_tokens":  # each paid mistake leaves one or two tokens
            assert state.mistakes <= state.tokens_on_cards <= 2 * state.mistakes
    assert state.is_terminal() or state.phase in ("clue", "guess", "sudden_death")
    if state.outcome().phase == "won":
        assert state.greens_found == 15 and state.score() is not None


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_tokens_in_supply_plus_tokens_used_is_the_start(seed):  # RULES 3.3, 3.6
    rng = np.random.default_rng(seed)
    state = DuetState(WORDS, generate_key(rng), DuetConfig(9))
    used = 0
    while not state.is_terminal() and state.phase != "sudden_death":
        givers = state.clue_givers()
        if givers:
            state.apply(Clue(givers[0], "clue", 2))
            continue
        before = state.tokens_left
        actions = state.legal_actions()
        state.apply(actions[rng.integers(len(actions))])
        used += before - state.tokens_left
        assert state.tokens_left + used == 9
