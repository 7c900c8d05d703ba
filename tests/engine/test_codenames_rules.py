"""Codenames rules, one test (or more) per RULES section 1.x."""

from __future__ import annotations

import numpy as np
import pytest

from engine import UNLIMITED, Clue, Cover, Guess, Stop
from engine.codenames import CodenamesConfig, CodenamesKey, CodenamesState, generate_key
from engine.errors import MalformedRecord
from test_codenames_support import FakeReferee, board, cards, expect_illegal, make_state, plain_key


def red_clue(s, number=2, word="hint"):
    s.apply(Clue("red-spymaster", word, number))


# RULES 1.1 -------------------------------------------------------------------------------------
def test_board_is_25_distinct_words_in_a_5x5_grid():  # RULES 1.1
    s = make_state()
    assert len(s.words) == 25 and s.config.grid == (5, 5)
    with pytest.raises(MalformedRecord, match="1.1"):
        make_state(words=board()[:24] + ["w00"])


@pytest.mark.parametrize("letters, starts", [
    ("R" * 9 + "B" * 8 + "N" * 7 + "X", "red"),
    ("B" * 9 + "R" * 8 + "N" * 7 + "X", "blue"),
])
def test_key_has_9_8_7_1_and_the_starting_team_has_9(letters, starts):  # RULES 1.1
    key = CodenamesKey.parse(letters)
    assert key.starts == starts
    s = make_state(key=key)
    assert s.to_act() == (f"{starts}-spymaster",)
    assert s.agents_left(starts) == 9


@pytest.mark.parametrize("letters, starts", [
    ("R" * 9 + "B" * 8 + "N" * 7 + "X", "blue"),        # the team with 9 must start
    ("R" * 9 + "B" * 8 + "N" * 6 + "XX", "red"),         # one assassin
    ("R" * 10 + "B" * 7 + "N" * 7 + "X", "red"),
    ("R" * 9 + "B" * 8 + "N" * 7, "red"),                # 25 cards
    ("R" * 9 + "B" * 8 + "N" * 7 + "G", "red"),          # letters R B N X only
])
def test_a_key_that_breaks_1_1_is_refused(letters, starts):  # RULES 1.1
    with pytest.raises(MalformedRecord):
        make_state(key=CodenamesKey(letters, starts))


def test_key_generator_is_seeded_and_fair():  # RULES 1.1
    a = generate_key(np.random.default_rng(5))
    assert a == generate_key(np.random.default_rng(5))
    keys = [generate_key(np.random.default_rng(i)) for i in range(400)]
    starts = sum(k.starts == "red" for k in keys)
    assert 150 < starts < 250                                     # a fair coin for the starting team
    assassin = np.bincount([k.letters.index("X") for k in keys], minlength=25)
    assert assassin.min() >= 3 and assassin.max() <= 35           # every cell can hold the assassin
    for k in keys[:50]:
        k.validate("codenames", "teams")


def test_unknown_seat_and_unknown_word_are_refused():  # RULES 1.1
    s = make_state()
    expect_illegal(s, Clue("green-spymaster", "x", 1), "1.1")
    red_clue(s)
    expect_illegal(s, Guess("red-guesser", "nope"), "1.1")


@pytest.mark.parametrize("word", [["w00"], {"w00": 1}, None, 0])
def test_a_guess_or_cover_that_names_no_card_is_refused_with_the_rule(word):  # RULES 1.1, 1.6
    s = make_state()
    red_clue(s)
    expect_illegal(s, Guess("red-guesser", word), "1.1")  # a list or dict raised TypeError (unhashable)
    s = make_state(invalid_clue="penalize", language="en", referee=FakeReferee())
    red_clue(s, word="badclue")
    expect_illegal(s, Cover("blue-spymaster", word), "1.1")


# RULES 1.2 -------------------------------------------------------------------------------------
def test_turns_alternate_clue_then_guesses():  # RULES 1.2
    s = make_state()
    assert s.to_act() == ("red-spymaster",)
    expect_illegal(s, Guess("red-guesser", "w00"), "1.2")          # a guess needs a clue first
    expect_illegal(s, Clue("blue-spymaster", "x", 1), "1.2")       # not blue's turn
    red_clue(s)
    assert s.to_act() == ("red-guesser",)
    expect_illegal(s, Clue("red-spymaster", "again", 1), "1.2")    # exactly one clue per turn
    expect_illegal(s, Guess("blue-guesser", "w00"), "1.2")         # red's guessers guess
    s.apply(Guess("red-guesser", "w17"))                           # a bystander ends the turn
    assert s.to_act() == ("blue-spymaster",) and s.turns_used == 1


@pytest.mark.parametrize("number", [0, 1, 9, UNLIMITED])
def test_clue_numbers_are_0_to_9_or_unlimited(number):  # RULES 1.2, 1.7
    s = make_state()
    red_clue(s, number)
    assert s.current_clue == ("hint", number)


@pytest.mark.parametrize("number", [-1, 10, 2.5, "many", True])
def test_other_clue_numbers_are_refused(number):  # RULES 1.2
    expect_illegal(make_state(), Clue("red-spymaster", "hint", number), "1.2")


def test_a_huge_clue_number_or_guess_is_refused_in_a_short_line():  # RULES 1.2, 1.1
    """Before: a clue number of more than 4,300 digits raised ValueError from repr() (not
    IllegalAction), and a guess of a million characters was quoted whole in the message."""
    err = expect_illegal(make_state(), Clue("red-spymaster", "hint", 10 ** 5000), "1.2")
    assert "clue number is 0..9" in err.message and len(err.message) < 200
    s = make_state()
    red_clue(s)
    for action in (Guess("red-guesser", "x" * 10 ** 6), Guess("red-guesser", [0] * 10 ** 5)):
        err = expect_illegal(s, action, "1.1")
        assert "not a card of the board" in err.message and len(err.message) < 200
    s = make_state(invalid_clue="penalize", language="en", referee=FakeReferee())
    red_clue(s, word="badclue")
    err = expect_illegal(s, Cover("blue-spymaster", "y" * 10 ** 6), "1.1")
    assert len(err.message) < 200


def test_a_clue_is_a_word():  # RULES 1.2
    expect_illegal(make_state(), Clue("red-spymaster", "  ", 1), "1.2")


@pytest.mark.parametrize("word", [None, 7, ["x"], b"x"])
@pytest.mark.parametrize("game, rule", [("codenames", "1.2"), ("pictures", "2.2")])
def test_a_clue_whose_word_is_not_text_is_refused(word, game, rule):  # RULES 1.2, 2.2: a clue is one word
    # it was played as its str() (the guessers saw the clue "None") and its record did not replay
    expect_illegal(make_state(game=game), Clue("red-spymaster", word, 1), rule)


# RULES 1.3 -------------------------------------------------------------------------------------
def test_own_agent_lets_the_team_guess_again():  # RULES 1.3
    s = make_state()
    red_clue(s, 2)
    s.apply(Guess("red-guesser", "w00"))
    assert s.revealed[0] and s.to_act() == ("red-guesser",) and s.agents_left("red") == 8


def test_bystander_ends_the_turn():  # RULES 1.3
    s = make_state()
    red_clue(s, 3)
    s.apply(Guess("red-guesser", "w17"))
    assert s.revealed[17] and s.to_act() == ("blue-spymaster",)


def test_opponent_agent_is_covered_for_the_opponent_and_ends_the_turn():  # RULES 1.3
    s = make_state()
    red_clue(s, 3)
    s.apply(Guess("red-guesser", "w09"))
    assert s.agents_left("blue") == 7 and s.to_act() == ("blue-spymaster",)


def test_assassin_loses_at_once():  # RULES 1.3, 1.5
    s = make_state()
    red_clue(s, 3)
    s.apply(Guess("red-guesser", "w24"))
    o = s.outcome()
    assert s.is_terminal() and o.status == "finished" and o.winner == "blue" and o.loss_reason == "assassin"
    expect_illegal(s, Clue("blue-spymaster", "x", 1), "1.5")


def test_a_covered_card_cannot_be_guessed_again():  # RULES 1.3
    s = make_state()
    red_clue(s, 3)
    s.apply(Guess("red-guesser", "w00"))
    expect_illegal(s, Guess("red-guesser", "w00"), "1.3")


# RULES 1.4 -------------------------------------------------------------------------------------
@pytest.mark.parametrize("number", [1, 2, 3])
def test_number_plus_one_guesses_then_the_turn_ends_by_itself(number):  # RULES 1.4
    s = make_state()
    red_clue(s, number)
    for i in range(number):
        s.apply(Guess("red-guesser", f"w0{i}"))
        assert s.to_act() == ("red-guesser",) and s.guesses_left() == number - i
    s.apply(Guess("red-guesser", f"w0{number}"))                   # the (number+1)th, correct
    assert s.to_act() == ("blue-spymaster",) and s.agents_left("red") == 9 - number - 1


@pytest.mark.parametrize("variant", ["teams", "two_player"])
def test_a_guess_or_stop_past_the_number_plus_one_limit_is_refused_citing_1_4(variant):  # RULES 1.4
    """RULES 1.4: the turn ends by itself after the last allowed guess, so one more guess (or a
    stop) by the same guessers is refused naming 1.4, and nothing changes."""
    s = make_state(variant=variant)
    red_clue(s, 1)
    s.apply(Guess("red-guesser", "w00"))
    s.apply(Guess("red-guesser", "w01"))                           # 1 + 1: the turn is over
    assert s.to_act() == (("blue-spymaster",) if variant == "teams" else ("red-spymaster",))
    expect_illegal(s, Guess("red-guesser", "w02"), "1.4")
    expect_illegal(s, Stop("red-guesser"), "1.4")
    if variant == "teams":
        expect_illegal(s, Guess("blue-guesser", "w02"), "1.2")     # blue's guessers wait for a clue
    else:
        s.apply(Cover("red-spymaster", "w09"))                     # the virtual opponent's turn (1.8)
        expect_illegal(s, Guess("red-guesser", "w02"), "1.2")      # a new turn: a clue comes first


@pytest.mark.parametrize("number", [0, UNLIMITED])
def test_zero_and_unlimited_have_no_limit_while_correct(number):  # RULES 1.4, 1.7
    s = make_state()
    red_clue(s, number)
    assert s.guesses_left() is None
    for w in cards(s, "R")[:8]:
        s.apply(Guess("red-guesser", w))
    assert s.to_act() == ("red-guesser",)
    expect_illegal(make_state(), Stop("red-guesser"), "1.2")


def test_at_least_one_guess_then_stop_any_time():  # RULES 1.4
    s = make_state()
    red_clue(s, 0)
    expect_illegal(s, Stop("red-guesser"), "1.4")                  # at least one guess, even on 0
    s.apply(Guess("red-guesser", "w00"))
    expect_illegal(s, Stop("blue-guesser"), "1.4")
    s.apply(Stop("red-guesser"))
    assert s.to_act() == ("blue-spymaster",)


def test_guesses_may_target_words_of_earlier_clues():  # RULES 1.4
    s = make_state()
    red_clue(s, 1)
    s.apply(Guess("red-guesser", "w17"))                           # missed
    s.apply(Clue("blue-spymaster", "b", 1))
    s.apply(Guess("blue-guesser", "w18"))
    red_clue(s, 1, "other")
    s.apply(Guess("red-guesser", "w00"))
    s.apply(Guess("red-guesser", "w01"))                           # the earlier clue's word, second guess
    assert s.to_act() == ("blue-spymaster",)                       # 1 + 1 guesses used


# RULES 1.5 -------------------------------------------------------------------------------------
def test_finding_all_own_agents_wins_at_once():  # RULES 1.5
    s = make_state()
    red_clue(s, UNLIMITED)
    for w in cards(s, "R"):
        s.apply(Guess("red-guesser", w))
    o = s.outcome()
    assert o.status == "finished" and o.winner == "red" and o.loss_reason == "opponent_finished"
    assert o.turns_used == 1 and o.score is None and o.competition_score is None


def test_revealing_the_opponents_last_agent_makes_them_win():  # RULES 1.5
    s = make_state()
    s.revealed[9:16] = [True] * 7                                  # blue has one agent left: w16
    red_clue(s, 2)
    s.apply(Guess("red-guesser", "w16"))
    assert s.is_terminal() and s.winner == "blue" and s.loss_reason == "opponent_finished"


# RULES 1.6 -------------------------------------------------------------------------------------
def test_reject_mode_refuses_an_invalid_clue_and_changes_nothing():  # RULES 1.6, 4
    ref = FakeReferee()
    s = make_state(referee=ref, invalid_clue="reject", language="en")
    expect_illegal(s, Clue("red-spymaster", "badword", 2), "4.3")
    red_clue(s, 2, "fine")
    word, number, board_seen, covered, lang = ref.calls[-1]
    assert (word, number, lang) == ("fine", 2, "en") and len(board_seen) == 25 and covered == ()


def test_the_referee_sees_covered_words_as_covered():  # RULES 1.6, 4.5
    ref = FakeReferee()
    s = make_state(referee=ref, invalid_clue="reject", language="en")
    red_clue(s, 2)
    s.apply(Guess("red-guesser", "w00"))
    s.apply(Guess("red-guesser", "w17"))
    s.apply(Clue("blue-spymaster", "b", 1))
    _, _, board_seen, covered, _ = ref.calls[-1]
    assert "w00" not in board_seen and set(covered) == {"w00", "w17"} and len(board_seen) == 23


def test_penalize_mode_ends_the_turn_and_the_other_spymaster_covers_an_own_agent():  # RULES 1.6
    s = make_state(referee=FakeReferee(), invalid_clue="penalize", language="en")
    s.apply(Clue("red-spymaster", "badword", 3))
    assert s.turns_used == 1 and s.phase == "cover" and s.to_act() == ("blue-spymaster",)
    assert [e.kind for e in s.history] == ["clue", "penalty"] and s.history[1].result == "RULES 4.3"
    expect_illegal(s, Clue("blue-spymaster", "b", 1), "1.6")       # cover comes before the clue
    expect_illegal(s, Cover("red-spymaster", "w00"), "1.6")         # the other spymaster covers
    expect_illegal(s, Cover("blue-spymaster", "w00"), "1.6")        # one of their OWN agents
    expect_illegal(s, Cover("blue-spymaster", "w17"), "1.6")
    assert {a.word for a in s.legal_actions()} == set(cards(s, "B"))
    s.apply(Cover("blue-spymaster", "w12"))
    assert s.agents_left("blue") == 7 and s.to_act() == ("blue-spymaster",) and s.phase == "clue"


def test_a_penalty_cover_of_the_last_agent_wins():  # RULES 1.6, 1.5
    s = make_state(referee=FakeReferee(), invalid_clue="penalize", language="en")
    s.revealed[9:16] = [True] * 7
    s.apply(Clue("red-spymaster", "badword", 3))
    s.apply(Cover("blue-spymaster", "w16"))
    assert s.winner == "blue" and s.loss_reason == "opponent_finished"


def test_allow_mode_never_calls_the_referee():  # RULES 1.6 (a clue nobody objects to stands)
    ref = FakeReferee()
    s = make_state(referee=ref)
    red_clue(s, 1, "badword")
    assert ref.calls == [] and s.phase == "guess"


def test_a_refereed_game_needs_a_language():  # RULES 4.6
    with pytest.raises(MalformedRecord):
        CodenamesConfig(invalid_clue="reject")
    with pytest.raises(MalformedRecord):
        CodenamesConfig(invalid_clue="strict", language="en")


def test_cover_outside_a_cover_phase_is_refused():  # RULES 1.6
    expect_illegal(make_state(), Cover("red-spymaster", "w00"), "1.6")


# RULES 1.10 ------------------------------------------------------------------------------------
def test_turn_time_limit_is_an_optional_config_field():  # RULES 1.10
    assert CodenamesConfig().turn_time_limit is None
    assert CodenamesConfig(turn_time_limit=60).turn_time_limit == 60
    with pytest.raises(MalformedRecord):
        CodenamesConfig(turn_time_limit=0)


def test_blue_can_start():  # RULES 1.1
    s = make_state(starts="blue")
    assert s.to_act() == ("blue-spymaster",)
    expect_illegal(s, Clue("red-spymaster", "x", 1), "1.2")
    s.apply(Clue("blue-spymaster", "x", 1))
    s.apply(Guess("blue-guesser", cards(s, "N")[0]))
    assert s.to_act() == ("red-spymaster",)


def test_legal_actions_list_guesses_stop_and_covers():  # RULES 1.3, 1.4
    s = make_state()
    assert s.legal_actions() == [] and s.clue_giver() == "red-spymaster"
    red_clue(s, 2)
    assert len(s.legal_actions()) == 25                             # 25 guesses, no stop yet
    s.apply(Guess("red-guesser", "w00"))
    acts = s.legal_actions()
    assert len(acts) == 25 and Stop("red-guesser") in acts and Guess("red-guesser", "w00") not in acts


def test_plain_key_helper_layout():
    assert plain_key().letters == "R" * 9 + "B" * 8 + "N" * 7 + "X"
    assert isinstance(make_state(), CodenamesState)


def test_the_default_referee_is_the_projects_clue_filter():  # RULES 1.6, 4.3
    pytest.importorskip("engine.clues")
    words = ["rain"] + board()[1:]
    s = make_state(words=words, invalid_clue="reject", language="en")
    expect_illegal(s, Clue("red-spymaster", "raincoat", 2), "4.3")
    s.apply(Clue("red-spymaster", "weather", UNLIMITED))
    assert s.phase == "guess"


# Rules audit 9: rulebook details (seed 004) that had no test citing their section -----------------
def test_unlimited_guessers_are_not_told_how_many():  # RULES 1.7
    s = make_state()
    red_clue(s, UNLIMITED, "feather")
    obs = s.observe("red-guesser")
    assert obs.current_clue == ("feather", UNLIMITED) and obs.guesses_left is None
    for w in cards(s, "R")[:5]:                                    # more than any numbered clue's limit allows
        s.apply(Guess("red-guesser", w))
    s.apply(Guess("red-guesser", "w17"))                           # a bystander still ends the turn
    assert s.to_act() == ("blue-spymaster",)


def test_the_virtual_opponents_cover_follows_a_turn_ended_by_the_guess_limit():  # RULES 1.8, 1.4
    s = make_state(variant="two_player")
    red_clue(s, 1)
    s.apply(Guess("red-guesser", "w00"))
    s.apply(Guess("red-guesser", "w01"))                           # number + 1: the turn ends by itself
    assert s.phase == "cover" and s.to_act() == ("red-spymaster",)
    s.apply(Cover("red-spymaster", "w09"))
    assert s.phase == "clue" and s.agents_left("blue") == 7 and s.agents_left("red") == 7


def test_a_guess_or_cover_of_a_card_spelled_otherwise_says_how_the_board_spells_it():  # RULES 1.1
    """'w00' for the card W00 was "'w00' is not a card of the board": now with the board's spelling."""
    s = make_state(words=[w.upper() for w in board()])
    red_clue(s)
    err = expect_illegal(s, Guess("red-guesser", "w00"), "1.1")
    assert "the board spells it 'W00', not 'w00'" in err.message
