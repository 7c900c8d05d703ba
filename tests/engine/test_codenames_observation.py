"""What each seat sees (RULES 1.1: only spymasters see the key)."""

from __future__ import annotations

import dataclasses

import pytest

from engine import Clue, Guess
from engine.codenames import CodenamesObservation
from test_codenames_support import make_state


def played():
    s = make_state()
    s.apply(Clue("red-spymaster", "hint", 2))
    s.apply(Guess("red-guesser", "w00"))
    s.apply(Guess("red-guesser", "w17"))
    return s


@pytest.mark.parametrize("seat", ["red-guesser", "blue-guesser"])
def test_a_guesser_never_sees_the_key(seat):  # RULES 1.1
    obs = played().observe(seat)
    assert obs.key is None and obs.role == "guesser" and obs.own_targets() == ()
    hidden_letters = {f.name: getattr(obs, f.name) for f in dataclasses.fields(obs)}
    text = repr(hidden_letters)
    assert "RRRRRRRRR" not in text                                 # the key string is nowhere in it
    assert obs.revealed[0] == "R" and obs.revealed[17] == "N"      # only revealed identities
    assert sum(r is not None for r in obs.revealed) == 2


@pytest.mark.parametrize("seat", ["red-spymaster", "blue-spymaster"])
def test_spymasters_see_the_key(seat):  # RULES 1.1
    s = played()
    obs = s.observe(seat)
    assert obs.key == s.key.letters and obs.role == "spymaster"
    own = "R" if seat.startswith("red") else "B"
    assert all(obs.key[i] == own for i in obs.own_targets())


def test_observation_is_a_frozen_copy():  # RULES 1.1
    s = played()
    obs = s.observe("red-guesser")
    assert isinstance(obs, CodenamesObservation)
    with pytest.raises(dataclasses.FrozenInstanceError):
        obs.key = "x"  # type: ignore[misc]
    s.apply(Clue("blue-spymaster", "b", 1))
    assert len(obs.history) == 3 and obs.to_act == ("blue-spymaster",)


def test_public_history_and_agents_left():  # RULES 1.3
    obs = played().observe("blue-guesser")
    assert [(e.kind, e.result) for e in obs.history] == [("clue", None), ("guess", "R"), ("guess", "N")]
    assert dict(obs.agents_left) == {"red": 8, "blue": 8}
    assert obs.turn_team == "blue" and obs.phase == "clue" and obs.current_clue is None
    red_obs = played().observe("red-guesser")
    assert [e.word for e in red_obs.clues_received()] == ["hint"]


def test_guesses_left_is_visible_to_the_guesser():  # RULES 1.4
    s = make_state()
    s.apply(Clue("red-spymaster", "hint", 2))
    assert s.observe("red-guesser").guesses_left == 3


def test_unknown_seat_observation_is_an_error():
    with pytest.raises(ValueError):
        make_state().observe("referee")
