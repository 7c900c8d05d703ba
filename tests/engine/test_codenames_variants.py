"""The two-player (RULES 1.8) and three-player (RULES 1.9) variants and the single-team protocol."""

from __future__ import annotations

import numpy as np
import pytest

from engine import UNLIMITED, Clue, Cover, Guess, Stop
from engine.codenames import COMPETITION, NAMED_CONFIGS, CodenamesConfig, CodenamesKey, generate_key
from engine.codenames.labels import two_player_label, two_player_labels
from engine.codenames.record import replay_summary
from engine.errors import MalformedRecord
from test_codenames_support import FakeReferee, cards, expect_illegal, make_state


# RULES 1.8 -------------------------------------------------------------------------------------
def test_two_player_our_team_starts_with_9():  # RULES 1.8
    for starts in ("red", "blue"):
        s = make_state(variant="two_player", starts=starts)
        assert s.ours == starts and s.agents_left(starts) == 9 and s.to_act() == (f"{starts}-spymaster",)


def test_two_player_our_spymaster_covers_one_opponent_agent_after_each_turn():  # RULES 1.8
    s = make_state(variant="two_player")
    s.apply(Clue("red-spymaster", "hint", 1))
    s.apply(Guess("red-guesser", "w00"))
    s.apply(Stop("red-guesser"))
    assert s.phase == "cover" and s.to_act() == ("red-spymaster",)
    expect_illegal(s, Clue("red-spymaster", "again", 1), "1.8")    # the opponent's turn first
    expect_illegal(s, Cover("red-spymaster", "w01"), "1.8")        # an OPPONENT agent
    expect_illegal(s, Cover("blue-spymaster", "w09"), "1.8")       # our spymaster chooses it
    s.apply(Cover("red-spymaster", "w09"))
    assert s.agents_left("blue") == 7 and s.to_act() == ("red-spymaster",) and s.turns_used == 1


def test_two_player_blue_seats_never_act():  # RULES 1.8
    s = make_state(variant="two_player")
    expect_illegal(s, Clue("blue-spymaster", "x", 1), "1.8")


def test_two_player_win_scores_the_opponent_agents_left_with_the_rulebook_label():  # RULES 1.8
    s = make_state(variant="two_player")
    s.apply(Clue("red-spymaster", "all", UNLIMITED))
    for w in cards(s, "R"):
        s.apply(Guess("red-guesser", w))
    o = s.outcome()
    assert o.winner == "red" and o.score == 8 and o.competition_score is None
    summary = replay_summary(s)
    assert summary["score"] == 8 and summary["score_label"]["ko"] == "정말이지... 믿을 수가 없군요."


def test_two_player_labels_are_the_rulebooks():  # RULES 1.8 (seed 004)
    labels = two_player_labels()
    assert sorted(labels) == list(range(1, 9))
    assert labels[7]["ko"] == "미션 임파서블." and labels[1]["ko"] == "이겼으니 됐지, 그렇죠?"
    assert all(v["en"] for v in labels.values())
    assert two_player_label(None) is None


def test_two_player_score_counts_after_a_mistake_and_covers():  # RULES 1.8
    s = make_state(variant="two_player")
    s.apply(Clue("red-spymaster", "a", 3))
    s.apply(Guess("red-guesser", "w09"))                           # an opponent agent: turn ends
    s.apply(Cover("red-spymaster", "w10"))
    s.apply(Clue("red-spymaster", "b", UNLIMITED))
    for w in cards(s, "R"):
        s.apply(Guess("red-guesser", w))
    assert s.outcome().score == 6 and replay_summary(s)["score_label"]["ko"] == "대단해요!"


def test_two_player_losses_have_no_score():  # RULES 1.8
    s = make_state(variant="two_player")
    s.apply(Clue("red-spymaster", "a", 3))
    s.apply(Guess("red-guesser", "w24"))
    o = s.outcome()
    assert o.winner == "blue" and o.loss_reason == "assassin" and o.score is None


def test_two_player_loses_when_the_virtual_opponent_is_all_covered():  # RULES 1.8
    s = make_state(variant="two_player")
    s.revealed[9:16] = [True] * 7
    s.apply(Clue("red-spymaster", "a", 1))
    s.apply(Guess("red-guesser", "w17"))
    s.apply(Cover("red-spymaster", "w16"))                         # the cover takes the last one
    o = s.outcome()
    assert o.status == "finished" and o.winner == "blue" and o.loss_reason == "opponent_finished"
    assert o.score is None


def test_two_player_penalty_covers_one_more_opponent_agent():  # RULES 1.6, 1.8
    s = make_state(variant="two_player", referee=FakeReferee(), invalid_clue="penalize", language="ko")
    s.apply(Clue("red-spymaster", "badclue", 2))
    assert [p.rule for p in s.pending] == ["1.8", "1.6"]
    s.apply(Cover("red-spymaster", "w09"))
    s.apply(Cover("red-spymaster", "w10"))
    assert s.phase == "clue" and s.agents_left("blue") == 6


# RULES 1.9 -------------------------------------------------------------------------------------
def test_three_player_shared_guesser_plays_by_the_team_rules():  # RULES 1.9
    s = make_state(variant="three_player")
    s.apply(Clue("red-spymaster", "a", 1))
    s.apply(Guess("red-guesser", "w17"))
    assert s.to_act() == ("blue-spymaster",)                       # two competing spymasters
    s.apply(Clue("blue-spymaster", "b", UNLIMITED))
    for w in cards(s, "B"):
        s.apply(Guess("blue-guesser", w))                          # the one guesser guesses for blue
    assert s.winner == "blue" and s.outcome().score is None        # first spymaster found wins


def test_three_player_two_guessers_plays_by_the_two_player_rules():  # RULES 1.9
    s = make_state(variant="three_player", three_player_mode="two_guessers")
    s.apply(Clue("red-spymaster", "a", 1))
    s.apply(Guess("red-guesser", "w17"))
    assert s.phase == "cover"
    with pytest.raises(MalformedRecord):
        CodenamesConfig(variant="three_player", three_player_mode="four")


# Single-team protocol (Codenames AI Competition) ---------------------------------------------
def test_single_team_is_a_named_configuration_with_8_7_9_1():
    assert NAMED_CONFIGS["competition"] == COMPETITION and COMPETITION.variant == "single_team"
    key = generate_key(np.random.default_rng(3), "codenames", "single_team")
    assert key.starts == "red" and sorted(key.letters) == sorted("R" * 8 + "B" * 7 + "N" * 9 + "X")
    with pytest.raises(MalformedRecord):
        make_state(variant="single_team", key=CodenamesKey("B" * 8 + "R" * 7 + "N" * 9 + "X", "blue"))
    with pytest.raises(MalformedRecord):
        CodenamesConfig(game="pictures", variant="single_team")


def test_single_team_only_red_plays_and_number_plus_one_applies():  # RULES 1.4
    s = make_state(variant="single_team")
    s.apply(Clue("red-spymaster", "a", 1))
    s.apply(Guess("red-guesser", "w00"))
    s.apply(Guess("red-guesser", "w01"))                           # 1 + 1 guesses: the turn ends
    assert s.to_act() == ("red-spymaster",) and s.turns_used == 1
    s.apply(Clue("red-spymaster", "b", 2))
    s.apply(Guess("red-guesser", "w08"))                           # an opponent card ends the turn
    assert s.to_act() == ("red-spymaster",) and not s.pending
    expect_illegal(s, Clue("blue-spymaster", "x", 1), "1.8")


def test_single_team_score_is_turns_to_find_all_8():
    s = make_state(variant="single_team")
    red = cards(s, "R")
    for turn in range(4):
        s.apply(Clue("red-spymaster", f"c{turn}", 1))
        s.apply(Guess("red-guesser", red[2 * turn]))
        s.apply(Guess("red-guesser", red[2 * turn + 1]))
    o = s.outcome()
    assert o.winner == "red" and o.turns_used == 4 and o.competition_score == 4 and o.score is None


@pytest.mark.parametrize("how", ["assassin", "opponent"])
def test_single_team_loss_counts_25(how):
    s = make_state(variant="single_team")
    if how == "assassin":
        s.apply(Clue("red-spymaster", "a", 1))
        s.apply(Guess("red-guesser", "w24"))
    else:
        for w in cards(s, "B"):                                    # 7 turns, each reveals an opponent card
            s.apply(Clue("red-spymaster", "a", 1))
            s.apply(Guess("red-guesser", w))
    o = s.outcome()
    assert o.status == "finished" and o.winner == "blue" and o.competition_score == 25
    assert o.loss_reason == ("assassin" if how == "assassin" else "opponent_finished")


def test_single_team_penalty_costs_the_turn_only():  # RULES 1.6
    s = make_state(variant="single_team", referee=FakeReferee(), invalid_clue="penalize", language="en")
    s.apply(Clue("red-spymaster", "badclue", 2))
    assert s.turns_used == 1 and s.phase == "clue" and s.agents_left("blue") == 7
