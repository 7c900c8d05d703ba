"""The worked examples of the Codenames rulebook (seed 004): 나무, 2 and 강, 3.  RULES 1.2-1.4"""

from __future__ import annotations

import pytest

from engine import Clue, Guess, Stop
from engine.codenames import CodenamesConfig, CodenamesKey, CodenamesState
from test_codenames_support import expect_illegal

RED = ["사과", "뿌리", "아마존", "물", "나일", "연필", "의사", "시계", "바다"]        # 9: red starts
BLUE = ["달", "별", "호랑이", "기차", "우유", "모자", "피아노", "눈사람"]
BYSTANDERS = ["땅콩", "학교", "편지", "다리", "구름", "빵", "열쇠"]
ASSASSIN = ["유령"]
WORDS = RED + BLUE + BYSTANDERS + ASSASSIN
KEY = CodenamesKey("R" * 9 + "B" * 8 + "N" * 7 + "X", "red")


def example_after_river_three_correct() -> CodenamesState:
    s = CodenamesState(WORDS, KEY, CodenamesConfig(language="ko"))
    # Red's first clue 나무, 2 (for 사과 and 뿌리): the guesser touches 땅콩, a bystander.
    s.apply(Clue("red-spymaster", "나무", 2))
    s.apply(Guess("red-guesser", "땅콩"))
    assert s.to_act() == ("blue-spymaster",)           # RULES 1.3: the chance at 사과 is lost
    # Blue's turn: two codenames found correctly.
    s.apply(Clue("blue-spymaster", "밤하늘", 2))
    s.apply(Guess("blue-guesser", "달"))
    s.apply(Guess("blue-guesser", "별"))
    s.apply(Stop("blue-guesser"))
    # Red again: 강, 3. 아마존 and 물 are red; 사과 (from the earlier clue 나무) is red too.
    s.apply(Clue("red-spymaster", "강", 3))
    for w in ("아마존", "물", "사과"):
        s.apply(Guess("red-guesser", w))
    return s


def test_peanut_first_loses_the_chance_at_apple():  # RULES 1.3, seed 004 example
    s = CodenamesState(WORDS, KEY)
    s.apply(Clue("red-spymaster", "나무", 2))
    s.apply(Guess("red-guesser", "땅콩"))
    expect_illegal(s, Guess("red-guesser", "사과"), "1.2")


def test_river_three_allows_one_more_guess_after_three_correct():  # RULES 1.4, seed 004 example
    s = example_after_river_three_correct()
    assert s.to_act() == ("red-guesser",) and s.guesses_left() == 1   # 3 + 1 = 4 guesses in all


@pytest.mark.parametrize("fourth", ["나일", "뿌리"])               # a third river word, or the tree clue's
def test_the_fourth_guess_is_the_last(fourth):  # RULES 1.4
    s = example_after_river_three_correct()
    s.apply(Guess("red-guesser", fourth))
    assert s.to_act() == ("blue-spymaster",) and s.agents_left("red") == 5


def test_or_they_stop_and_pass_to_blue():  # RULES 1.4
    s = example_after_river_three_correct()
    s.apply(Stop("red-guesser"))
    assert s.to_act() == ("blue-spymaster",) and s.agents_left("red") == 6


def test_at_least_one_codename_is_covered_every_turn():  # seed 004, "게임의 흐름"
    s = example_after_river_three_correct()
    assert sum(s.revealed) == 6 and s.turns_used == 3
