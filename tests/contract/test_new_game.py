"""A third party's new game (tests/contract/toy_game.py) registered as docs/architecture.md says: the
generic suite (test_game_contract.py) runs on it unchanged, and so do the commands that dispatch on a
game through the registry (`cnlab deal`, `cnlab replay`, engine.records)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import test_game_contract as suite
from engine.game import GAMES, GameSpec, register_game
from engine.records import record_from_json, record_to_json, replay_summary

TOY = "tests.contract.toy_game"


@pytest.fixture
def toy(monkeypatch):
    """Hidden Nim registered for this test only (the registry is as before afterwards)."""
    monkeypatch.setitem(GAMES, "toy_nim", GameSpec("toy_nim", "Hidden Nim", TOY, TOY, f"{TOY}:NimObservation", TOY,
                                                   variants=({}, {"pile": 5}), languages=("en",)))
    return "toy_nim"


def test_register_game_refuses_a_name_twice():
    with pytest.raises(ValueError, match="already registered"):
        register_game(GAMES["duet"])


@pytest.mark.parametrize("variant", [{}, {"pile": 5}])
def test_the_generic_suite_runs_on_a_new_game(toy, variant):
    suite.test_random_play_ends_and_refusals_change_nothing(toy, "en", variant)
    suite.test_played_records_round_trip_and_replay_to_equal_states(toy, "en", variant)
    suite.test_same_seed_same_bytes(toy, "en", variant) if not variant else None   # a fixed pile: every seed alike
    suite.test_secrets_a_seat_may_not_see_do_not_reach_its_observation(toy, "en", variant)
    suite.test_observations_are_frozen_or_share_nothing_with_the_state(toy, "en", variant)
    suite.test_every_listed_action_is_accepted_and_no_other_of_its_kind(toy, "en", variant)
    suite.test_secrets_stay_hidden_in_every_state_of_a_played_game(toy, "en", variant)


def test_deal_and_replay_dispatch_on_a_new_game(toy):
    from experiments.cli import app

    dealt = CliRunner().invoke(app, ["deal", toy, "--seed", "3", "--count", "2"])
    assert dealt.exit_code == 0, dealt.output
    lines = dealt.output.strip().splitlines()
    assert len(lines) == 2 and all(json.loads(line)["game"] == toy for line in lines)
    record = record_from_json(lines[0])
    state = record.replay()
    while not state.is_terminal():
        action = state.legal_actions()[0]
        state.apply(action)
        record.actions.append(action)
    replayed = CliRunner().invoke(app, ["replay", "-"], input=record_to_json(record) + "\n")
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.output) == replay_summary(record) and replay_summary(record)["status"] == "finished"
    refused = CliRunner().invoke(app, ["deal", toy, "--players", "4"])
    assert refused.exit_code == 2 and "--players does not apply to `deal toy_nim`" in refused.output
