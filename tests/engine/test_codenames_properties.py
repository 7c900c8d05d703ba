"""Random legal play never crashes and keeps the invariants.  RULES 1.3-1.6, 1.8, 2.3"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import UNLIMITED, Clue
from engine.codenames import CodenamesConfig, CodenamesRecord, CodenamesState, generate_key
from test_codenames_support import FakeReferee, board

SETUPS = [("codenames", v) for v in ("teams", "two_player", "three_player", "single_team")] + \
         [("pictures", v) for v in ("teams", "two_player", "assassin_ending")]


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), setup=st.sampled_from(SETUPS),
       mode=st.sampled_from(["allow", "reject", "penalize"]))
def test_random_legal_play_keeps_the_invariants(seed, setup, mode):
    game, variant = setup
    rng = np.random.default_rng(seed)
    config = CodenamesConfig(game=game, variant=variant, invalid_clue=mode, language="en")
    state = CodenamesState(board(game), generate_key(rng, game, variant), config, referee=FakeReferee())
    record = CodenamesRecord(list(state.words), state.key, config)
    seen: dict[int, str] = {}
    for _ in range(300):
        if state.is_terminal():
            break
        giver = state.clue_giver()
        if giver:
            number = [0, 1, 2, 3, 9, UNLIMITED][rng.integers(6)]
            word = "badclue" if mode != "reject" and rng.random() < 0.1 else "clue"
            action = Clue(giver, word, number)
        else:
            actions = state.legal_actions()
            assert actions, "a non-terminal state always has a legal move"
            action = actions[rng.integers(len(actions))]
        state.apply(action)
        record.actions.append(action)
        now = {i: state.key.letters[i] for i, r in enumerate(state.revealed) if r}
        assert all(now[i] == c for i, c in seen.items())          # a revealed card never changes
        seen = now
        for team in ("red", "blue"):
            assert 0 <= state.agents_left(team)
        assert state.phase in ("clue", "guess", "cover", "sudden_death", "finished")
        if state.phase == "cover":
            assert state.pending and state.legal_actions()
    assert state.is_terminal(), "every game ends: each turn covers at least one card"
    o = state.outcome()
    assert o.winner in ("red", "blue") and o.loss_reason in ("assassin", "opponent_finished", "sudden_death_miss")
    if variant == "single_team":
        assert o.competition_score == (o.turns_used if o.winner == "red" else 25)
    if o.score is not None:
        assert o.winner == state.ours and 1 <= o.score <= 8
    # Determinism: replaying the record gives the same state.
    again = record.replay(referee=FakeReferee())
    assert again.revealed == state.revealed and again.outcome() == o and again.history == state.history
