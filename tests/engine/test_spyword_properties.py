"""Random legal play of Spy's Word: it terminates, never crashes, replays the same, and every
illegal action leaves the state unchanged (RULES 5)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings, strategies as st

from engine.errors import IllegalAction
from engine.records import record_from_dict
from engine.spyword import (GHOST, PASS, Disconnect, GhostGuess, GiveClue, Kick, Leave, SpyWordSettings, Timeout,
                            Vote, deal_spyword, replay_summary)
from test_spyword_helpers import snapshot

PACKS = [{"id": "p", "category": "fruit", "words": ["apple", "pear"]},
         {"id": "q", "category": "drink", "words": ["coffee", "toffee"]}]
RARE = (Leave, Kick, Disconnect)

table_settings = st.builds(
    SpyWordSettings,
    reveal_spy_role=st.booleans(), reveal_eliminated_role=st.booleans(),
    vote_display=st.sampled_from(["public", "counts"]), allow_pass=st.booleans(),
    clue_mode=st.sampled_from(["word", "sentence"]), discussion_seconds=st.sampled_from([60, 90, 120, "unlimited"]),
    tie_break=st.sampled_from(["duel", "lottery"]), device=st.sampled_from(["multi", "single"]),
)


def probe(state, rng):
    """A random, possibly illegal action: legal ones are played, illegal ones must change nothing."""
    seat = rng.choice(list(state.seats) + ["host", "clock", "nobody"])
    target = rng.choice(list(state.seats) + [PASS, "nobody"])
    return rng.choice([Vote(seat, target), GiveClue(seat, rng.choice(["apple", "pear", "x y", ""])),
                       GhostGuess(seat, "apple"), Timeout(rng.choice(["vote", "speaker", "ghost_guess"])),
                       Kick(seat, target)])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(4, 12), table=table_settings)
def test_random_legal_play_terminates_and_replays(seed, players, table):  # RULES 5
    rng = random.Random(seed)
    record = deal_spyword(seed, PACKS, players, table)
    record.clue_filter = False
    state = record.new_state()
    n = 0
    for step in range(3000):
        if state.is_terminal():
            break
        if step % 7 == 3:
            before = snapshot(state)
            action = probe(state, rng)
            try:
                state.apply(action)
                record.actions.append(action)
            except IllegalAction:
                assert snapshot(state) == before
            continue
        options = state.legal_actions()
        if state.speaker and state.speaker not in state.disconnected:
            n += 1
            options += [GiveClue(state.speaker, f"clue{n}")] * 6
        if state.pending and state.roles[state.pending] == GHOST and state.pending not in state.disconnected:
            options.append(GhostGuess(state.pending, rng.choice([state.citizen_word, state.spy_word, "nope"])))
        common = [a for a in options if not isinstance(a, RARE)]
        pool = options if (rng.random() < 0.02 or not common) else common
        action = rng.choice(pool)
        state.apply(action)  # a legal action never raises
        record.actions.append(action)
        for seat in state.seats:
            obs = state.observe(seat)
            assert obs.word in (None, state.citizen_word, state.spy_word)
    assert state.is_terminal(), f"no end after {len(record.actions)} actions (phase {state.phase})"
    summary = replay_summary(state)
    assert summary["status"] in ("finished", "aborted")
    assert (summary["winner"] is None) == (summary["status"] == "aborted")
    again = record_from_dict(record.to_dict()).replay()
    assert replay_summary(again) == summary
    if state.winner == "spies":
        assert sum(state.roles[s] == "citizen" for s in state.remaining()) <= 1
