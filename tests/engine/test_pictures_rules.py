"""Codenames Pictures: RULES 2.1-2.4 and the picture card set."""

from __future__ import annotations

import json
import struct
from collections import Counter

import numpy as np
import pytest

from engine import UNLIMITED, Clue, Cover, Guess, Stop
from engine.codenames import CodenamesConfig, CodenamesKey, generate_key
from engine.codenames.pictures import card_ids, describe, load_cards
from engine.errors import MalformedRecord
from engine.paths import data_path
from test_codenames_support import FakeReferee, board, cards, expect_illegal, make_state


def pictures(**kw):
    return make_state(game="pictures", **kw)


# RULES 2.1 -------------------------------------------------------------------------------------
def test_board_is_20_cards_in_a_5_wide_4_high_grid_with_8_7_4_1():  # RULES 2.1
    s = pictures()
    assert len(s.words) == 20 and s.config.grid == (4, 5) and s.config.board_size == 20
    assert s.agents_left("red") == 8 and s.agents_left("blue") == 7
    assert s.key.letters.count("N") == 4 and s.key.letters.count("X") == 1
    with pytest.raises(MalformedRecord, match="2.1"):
        pictures(key=CodenamesKey("R" * 9 + "B" * 8 + "N" * 7 + "X", "red"))
    with pytest.raises(MalformedRecord, match="2.1"):
        make_state(game="pictures", words=board("codenames"))


def test_pictures_key_generator():  # RULES 2.1
    for seed in range(30):
        key = generate_key(np.random.default_rng(seed), "pictures")
        key.validate("pictures", "teams")
        assert key.letters.count(key.starts[0].upper()) == 8


def test_number_plus_one_and_unlimited_as_in_codenames():  # RULES 2.4, 1.4, 1.7
    s = pictures()
    s.apply(Clue("red-spymaster", "star", UNLIMITED))
    for w in cards(s, "R")[:7]:
        s.apply(Guess("red-guesser", w))
    assert s.to_act() == ("red-guesser",)


# RULES 2.2 -------------------------------------------------------------------------------------
@pytest.mark.parametrize("clue", ["scuba diving", "t-rex", "ice\tcream"])
def test_a_clue_is_one_word_no_spaces_no_hyphens(clue):  # RULES 2.2
    expect_illegal(pictures(), Clue("red-spymaster", clue, 2), "2.2")


@pytest.mark.parametrize("clue", ["ice\u00b7cream", "\ub208\u00b7\uc0ac\ub78c", "\uc0ac\uacfc\u30fb\ubc30", "a\u2027b", "a\uff65b"])
def test_a_middle_dot_joins_two_words_as_a_space_does(clue):  # RULES 2.2, 4.7
    """The middle dot (가운뎃점) is a word break like a space or a hyphen (the clue filter's reading,
    RULES 4.7): 눈·사람 is two words, refused as 2.2 in every mode like 눈 사람 and 눈-사람, and
    allowed once a multi-word option is agreed."""
    expect_illegal(pictures(), Clue("red-spymaster", clue, 2), "2.2")
    expect_illegal(pictures(invalid_clue="reject", language="ko", referee=FakeReferee()),
                   Clue("red-spymaster", clue, 2), "2.2")
    s = pictures(invalid_clue="penalize", language="en", referee=FakeReferee())
    s.apply(Clue("red-spymaster", clue, 2))
    assert s.phase == "cover" and s.history[-1].result == "RULES 2.2"
    s = pictures(clue_options=("multiword_compounds",))
    s.apply(Clue("red-spymaster", clue, 2))
    assert s.phase == "guess"


@pytest.mark.parametrize("option", ["multiword_compounds", "multiword_proper_nouns"])
def test_an_agreed_multi_word_option_lifts_the_one_word_rule(option):  # RULES 2.2, 4.7 (agreed before the game)
    s = pictures(clue_options=(option,))
    s.apply(Clue("red-spymaster", "scuba diving", 2))
    assert s.phase == "guess"
    expect_illegal(pictures(clue_options=("abbreviations",)), Clue("red-spymaster", "scuba diving", 2), "2.2")


def test_a_two_word_clue_is_penalised_in_penalize_mode():  # RULES 2.2, 1.6
    s = pictures(invalid_clue="penalize", language="en", referee=FakeReferee())
    s.apply(Clue("red-spymaster", "scuba diving", 2))
    assert s.phase == "cover" and s.to_act() == ("blue-spymaster",) and s.history[-1].result == "RULES 2.2"


def test_the_referee_gets_an_empty_board_for_pictures():  # RULES 2.2, 4.1
    ref = FakeReferee()
    s = pictures(invalid_clue="reject", language="ko", referee=ref)
    s.apply(Clue("red-spymaster", "진화", 2))
    assert ref.calls == [("진화", 2, (), (), "ko")]
    s.apply(Guess("red-guesser", "w15"))
    expect_illegal(s, Clue("blue-spymaster", "badclue", 1), "4.3")


# RULES 2.3 -------------------------------------------------------------------------------------
def assassin_game():
    return pictures(variant="assassin_ending")


def test_assassin_ending_is_a_pictures_variant():  # RULES 2.3
    with pytest.raises(MalformedRecord):
        CodenamesConfig(game="codenames", variant="assassin_ending")


def test_finding_all_agents_does_not_end_the_game():  # RULES 2.3
    s = assassin_game()
    s.apply(Clue("red-spymaster", "all", UNLIMITED))
    for w in cards(s, "R"):
        s.apply(Guess("red-guesser", w))
    assert not s.is_terminal() and s.agents_left("red") == 0 and s.to_act() == ("red-guesser",)
    s.apply(Guess("red-guesser", "w19"))                           # then the assassin: red wins
    o = s.outcome()
    assert o.winner == "red" and o.status == "finished" and o.loss_reason == "opponent_finished"


def test_finished_team_keeps_playing_for_the_assassin_and_a_miss_ends_its_turn():  # RULES 2.3
    s = assassin_game()
    s.apply(Clue("red-spymaster", "all", UNLIMITED))
    for w in cards(s, "R"):
        s.apply(Guess("red-guesser", w))
    s.apply(Guess("red-guesser", "w15"))                           # a bystander
    assert s.to_act() == ("blue-spymaster",) and not s.is_terminal()
    s.apply(Clue("blue-spymaster", "b", 1))
    s.apply(Guess("blue-guesser", "w08"))
    s.apply(Stop("blue-guesser"))
    s.apply(Clue("red-spymaster", "night", 1))                     # red, finished, hunts the assassin
    s.apply(Guess("red-guesser", "w19"))
    assert s.winner == "red"


def test_early_assassin_means_sudden_death_won_without_a_miss():  # RULES 2.3
    s = assassin_game()
    s.apply(Clue("red-spymaster", "a", 1))
    s.apply(Guess("red-guesser", "w00"))
    s.apply(Guess("red-guesser", "w19"))                           # the assassin, 7 red left
    assert s.phase == "sudden_death" and s.guesses_left() is None and s.to_act() == ("red-guesser",)
    expect_illegal(s, Stop("red-guesser"), "2.3")                  # no stopping
    expect_illegal(s, Clue("red-spymaster", "more", 2), "2.3")      # no more clues
    for w in cards(s, "R")[1:]:                                    # the 1+1 limit no longer applies
        s.apply(Guess("red-guesser", w))
    o = s.outcome()
    assert o.winner == "red" and o.status == "finished"


@pytest.mark.parametrize("miss", ["w15", "w08"])                   # a bystander or a blue agent
def test_sudden_death_miss_loses(miss):  # RULES 2.3
    s = assassin_game()
    s.apply(Clue("red-spymaster", "a", 3))
    s.apply(Guess("red-guesser", "w19"))
    s.apply(Guess("red-guesser", "w00"))
    s.apply(Guess("red-guesser", miss))
    o = s.outcome()
    assert o.winner == "blue" and o.loss_reason == "sudden_death_miss"


def test_revealing_the_opponents_last_agent_does_not_end_the_assassin_game():  # RULES 2.3
    s = assassin_game()
    s.revealed[8:14] = [True] * 6                                  # blue has one agent left: w14
    s.apply(Clue("red-spymaster", "a", 1))
    s.apply(Guess("red-guesser", "w14"))
    assert not s.is_terminal() and s.agents_left("blue") == 0 and s.to_act() == ("blue-spymaster",)
    s.apply(Clue("blue-spymaster", "end", 1))
    s.apply(Guess("blue-guesser", "w19"))
    assert s.winner == "blue"


def test_penalty_owed_by_a_finished_team_is_dropped():  # RULES 2.3, 1.6
    s = pictures(variant="assassin_ending", invalid_clue="penalize", language="en", referee=FakeReferee())
    s.revealed[8:15] = [True] * 7                                  # blue is finished, game goes on
    s.apply(Clue("red-spymaster", "badclue", 1))
    assert s.phase == "clue" and s.to_act() == ("blue-spymaster",)


# RULES 2.4 -------------------------------------------------------------------------------------
def test_pictures_two_player_variant():  # RULES 2.4, 1.8
    s = pictures(variant="two_player")
    s.apply(Clue("red-spymaster", "a", 1))
    s.apply(Guess("red-guesser", "w15"))
    s.apply(Cover("red-spymaster", "w08"))
    s.apply(Clue("red-spymaster", "all", 0))
    for w in cards(s, "R"):
        s.apply(Guess("red-guesser", w))
    assert s.outcome().score == 6


# The card set ----------------------------------------------------------------------------------
def test_at_least_200_cards_each_a_real_png_with_a_description_and_tags():  # RULES 2.1
    cards_ = load_cards()
    assert len(cards_) >= 200 and len(set(card_ids())) == len(cards_)
    total = 0
    for card in cards_.values():
        head = card.path.read_bytes()[:24]
        assert head[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", head[16:24]) == (64, 64)
        total += card.path.stat().st_size
        assert card.description and len(card.tags) >= 3 and card.tags_ko
        assert card.id.replace("_", "").isalnum() and card.text().startswith(card.description)
    assert total < 2_000_000


def test_the_set_is_varied_and_credited():
    data = json.loads(data_path("pictures", "cards.json").read_text(encoding="utf-8"))
    assert data["license"] == "CC-BY-4.0" and "Twemoji" in data["credit"]
    groups = Counter(c["category"] for c in data["cards"])
    assert len(groups) >= 30 and max(groups.values()) < 0.15 * len(data["cards"])
    readme = data_path("pictures", "README.md").read_text(encoding="utf-8")
    assert "Twemoji" in readme and "CC-BY 4.0" in readme and "creativecommons.org/licenses/by/4.0" in readme
    assert describe("apple").description == "a red apple"


def test_the_default_referee_judges_pictures_clues_without_a_board():  # RULES 2.2, 4.6
    pytest.importorskip("engine.clues")
    s = pictures(invalid_clue="reject", language="ko")
    expect_illegal(s, Clue("red-spymaster", "star", 2), "4.6")     # a Korean game: Korean clues
    s.apply(Clue("red-spymaster", "별", 2))
    assert s.phase == "guess"


# Rules audit 9: rulebook details (seed 003) that had no test citing their section -----------------
def test_number_zero_as_in_codenames_at_least_one_guess_then_no_limit_while_correct():  # RULES 2.4, 1.7
    s = pictures()
    s.apply(Clue("red-spymaster", "feather", 0))
    assert s.guesses_left() is None
    expect_illegal(s, Stop("red-guesser"), "1.4")                  # at least one guess, even on 0
    for w in cards(s, "R"):                                        # all 8 in one turn: no 0+1 limit
        s.apply(Guess("red-guesser", w))
    assert s.outcome().winner == "red" and s.outcome().status == "finished"


def test_three_player_variants_in_pictures():  # RULES 2.4, 1.9
    shared = pictures(variant="three_player")                     # two spymasters, one shared guesser
    shared.apply(Clue("red-spymaster", "a", 1))
    shared.apply(Guess("red-guesser", "w15"))                      # a bystander: blue's turn
    assert shared.to_act() == ("blue-spymaster",)
    shared.apply(Clue("blue-spymaster", "b", UNLIMITED))
    for w in cards(shared, "B"):
        shared.apply(Guess("blue-guesser", w))
    assert shared.winner == "blue" and shared.outcome().score is None
    coop = pictures(variant="three_player", three_player_mode="two_guessers")   # the two-player rules
    coop.apply(Clue("red-spymaster", "all", UNLIMITED))
    for w in cards(coop, "R"):
        coop.apply(Guess("red-guesser", w))
    assert coop.winner == "red" and coop.outcome().score == 7     # Pictures' best: all 7 opponents left


def test_the_starting_team_is_the_one_with_eight_and_moves_first():  # RULES 2.1
    for starts in ("red", "blue"):
        s = pictures(starts=starts)
        assert s.agents_left(starts) == 8 and s.agents_left("blue" if starts == "red" else "red") == 7
        assert s.to_act() == (f"{starts}-spymaster",)
        expect_illegal(s, Clue(f"{'blue' if starts == 'red' else 'red'}-spymaster", "x", 1), "1.2")
