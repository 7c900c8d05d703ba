"""The worked example of the Codenames Pictures rulebook (seed 003): 진화, 2 / 과일, 3 / 별, 2.
RULES 2.1, 2.4, 1.3, 1.4"""

from __future__ import annotations

import pytest

from engine import Clue, Guess, Stop
from engine.codenames import CodenamesConfig, CodenamesKey, CodenamesState
from engine.codenames.pictures import load_cards
from test_codenames_support import expect_illegal

RED = ["kangaroo", "crosswalk", "rocket", "star", "lizard", "crown", "anchor", "bell"]     # 8: red starts
BLUE = ["apple", "banana", "grapes", "ship", "owl", "drum", "key"]
BYSTANDERS = ["monkey", "bridge", "cloud", "door"]
ASSASSIN = ["bomb"]
CARDS = RED + BLUE + BYSTANDERS + ASSASSIN
KEY = CodenamesKey("R" * 8 + "B" * 7 + "N" * 4 + "X", "red")


def game_until_star_two():
    s = CodenamesState(CARDS, KEY, CodenamesConfig(game="pictures", language="ko"))
    # 진화, 2 for the kangaroo and the crosswalk; the guessers read it as monkey + lizard and
    # touch the monkey first: a bystander, the turn is over.
    s.apply(Clue("red-spymaster", "진화", 2))
    s.apply(Guess("red-guesser", "monkey"))
    assert s.to_act() == ("blue-spymaster",)
    # 과일, 3: blue finds its three pictures, then stops.
    s.apply(Clue("blue-spymaster", "과일", 3))
    for card in ("apple", "banana", "grapes"):
        s.apply(Guess("blue-guesser", card))
    assert s.guesses_left() == 1
    s.apply(Stop("blue-guesser"))
    # 별, 2: the spaceship, then the crosswalk missed last turn (for 진화).
    s.apply(Clue("red-spymaster", "별", 2))
    s.apply(Guess("red-guesser", "rocket"))
    s.apply(Guess("red-guesser", "crosswalk"))
    return s


def test_evolution_two_allows_three_guesses():  # RULES 1.4 ("진화, 2" -> 3 guesses)
    s = CodenamesState(CARDS, KEY, CodenamesConfig(game="pictures"))
    s.apply(Clue("red-spymaster", "진화", 2))
    assert s.guesses_left() == 3


def test_the_bystander_ends_reds_first_turn():  # RULES 1.3
    s = CodenamesState(CARDS, KEY, CodenamesConfig(game="pictures"))
    s.apply(Clue("red-spymaster", "진화", 2))
    s.apply(Guess("red-guesser", "monkey"))
    expect_illegal(s, Guess("red-guesser", "kangaroo"), "1.2")


def test_star_two_then_one_last_guess():  # RULES 1.4, seed 003 example
    s = game_until_star_two()
    assert s.to_act() == ("red-guesser",) and s.guesses_left() == 1
    assert s.agents_left("red") == 6 and s.agents_left("blue") == 4


@pytest.mark.parametrize("last", ["star", "kangaroo"])               # star's third, or evolution's other
def test_the_last_guess_ends_the_turn(last):  # RULES 1.4
    s = game_until_star_two()
    s.apply(Guess("red-guesser", last))
    assert s.to_act() == ("blue-spymaster",)


def test_or_red_stops_and_passes_to_blue():  # RULES 1.4
    s = game_until_star_two()
    s.apply(Stop("red-guesser"))
    assert s.to_act() == ("blue-spymaster",) and s.agents_left("red") == 6


def test_the_example_board_exists_in_the_card_set_where_it_can():  # RULES 2.1
    have = set(load_cards())
    assert {"kangaroo", "rocket", "star", "apple", "banana", "grapes", "monkey"} <= have
