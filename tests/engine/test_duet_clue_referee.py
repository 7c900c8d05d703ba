"""The Duet engine refers clues to the project's clue filter (RULES 4, 4.5, 4.8)."""

import pytest

from conftest import make_key
from engine import Clue, Guess, IllegalAction, Stop
from engine.duet import DuetConfig, DuetState

pytest.importorskip("kiwipiepy")

WORDS = ["rain", "snow", "cat", "dog", "bank", "river", "apple", "tree", "ice", "cream",
         "moon", "star", "car", "train", "ship", "piano", "guitar", "drum", "bread", "cheese",
         "king", "queen", "castle", "bridge", "tower"]


def test_reject_mode_refuses_a_board_word_with_its_rule():  # RULES 4.3
    s = DuetState(WORDS, make_key({}), DuetConfig(invalid_clue="reject", language="en"))
    with pytest.raises(IllegalAction) as err:
        s.apply(Clue("A", "rainy", 1))
    assert err.value.rule == "4.3" and s.phase == "clue" and s.tokens_left == 9
    s.apply(Clue("A", "weather", 2))
    assert s.phase == "guess"


def test_a_covered_card_no_longer_blocks():  # RULES 4.5
    s = DuetState(WORDS, make_key({0: ("G", "N"), 1: ("G", "N")}),
                  DuetConfig(invalid_clue="reject", language="en"))
    s.apply(Clue("A", "weather", 2))
    s.apply(Guess("B", "rain"))
    s.apply(Guess("B", "snow"))
    s.apply(Stop("B"))
    s.apply(Clue("B", "rainy", 1))  # 'rain' is covered by an agent: it no longer blocks
    assert s.current_clue == ("rainy", 1)


def test_penalize_mode_costs_a_token():  # RULES 4.8
    s = DuetState(WORDS, make_key({}), DuetConfig(invalid_clue="penalize", language="en"))
    s.apply(Clue("A", "cats", 2))
    assert s.tokens_left == 8 and s.phase == "guess"
    assert s.history[-1].kind == "penalty"
