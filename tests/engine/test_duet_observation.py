"""Per-seat observations carry nothing of the other side.  RULES 3.1, 3.12"""

import dataclasses

import numpy as np
import pytest

from conftest import WORDS, make_key
from engine import Clue, Guess
from engine.duet import DuetObservation, DuetState, generate_key


def test_observation_holds_only_the_own_side():  # RULES 3.1
    key = generate_key(np.random.default_rng(3))
    s = DuetState(WORDS, key)
    for seat, own, hidden in (("A", key.a, key.b), ("B", key.b, key.a)):
        obs = s.observe(seat)
        assert obs.own_key == own
        values = [getattr(obs, f.name) for f in dataclasses.fields(obs)]
        assert hidden not in values
        assert not any(isinstance(v, str) and v == hidden for v in values)
        assert "key" not in {f.name for f in dataclasses.fields(obs)} - {"own_key"}


def test_observation_is_immutable_and_detached_from_the_state():  # RULES 3.12
    s = DuetState(WORDS, make_key({0: ("G", "N")}))
    obs = s.observe("B")
    with pytest.raises(dataclasses.FrozenInstanceError):
        obs.own_key = "G" * 25
    s.apply(Clue("A", "x", 1))
    s.apply(Guess("B", "w00"))
    assert obs.green_covered[0] is False and s.observe("B").green_covered[0] is True
    assert not any(isinstance(getattr(obs, f.name), (DuetState, list, dict, set))
                   for f in dataclasses.fields(obs))


def test_public_history_shows_what_the_table_shows():  # RULES 3.5
    s = DuetState(WORDS, make_key({0: ("G", "N"), 1: ("N", "N")}))
    s.apply(Clue("A", "x", 2)); s.apply(Guess("B", "w00")); s.apply(Guess("B", "w01"))
    for seat in "AB":
        hist = s.observe(seat).history
        assert [(e.kind, e.word, e.result) for e in hist] == [
            ("clue", "x", None), ("guess", "w00", "green"), ("guess", "w01", "bystander")]
    obs_b = s.observe("B")
    assert not obs_b.can_guess(1)  # known bystander for B's guesses (RULES 3.7)
    assert s.observe("A").can_guess(1)


def test_observation_type_is_frozen_dataclass():
    assert dataclasses.is_dataclass(DuetObservation)
    assert DuetObservation.__dataclass_params__.frozen
