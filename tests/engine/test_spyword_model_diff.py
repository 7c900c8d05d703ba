"""Differential test of the Spy's Word engine (RULES 5) against an independent model written from
the rule text (`sw_reference_model.py`): seeded random games at 4-12 players under the host
settings of 5.14 (spies and ghost, PASS, lottery/duel tie-break, hidden roles, reveal to spy,
counts-only display, one word / one sentence, unlimited discussion, one device / many devices),
with random legal actions, departures, kicks and disconnections (5.12) and random illegal ones
(out of turn, a vote for oneself or a spectator, a second vote, a dead player acting, acting after
the end, the ghost guessing at the wrong time). At every step the legal actions, whether each
action is accepted (a refused one leaves the state unchanged and names a rule), the phase, whose
turn, who remains, the room, the host, the round, each vote's record (5.6-5.8), the outcome and
winners (5.11), and what each seat is told (5.1, 5.9, 5.10) must agree, and the game's record
must replay to the same state. `python tests/engine/sw_diff_driver.py N` runs more."""

from __future__ import annotations

from sw_diff_driver import run


def test_engine_agrees_with_the_reference_model_on_seeded_random_games():  # RULES 5.1-5.12
    assert run(2, first_seed=0) == []
