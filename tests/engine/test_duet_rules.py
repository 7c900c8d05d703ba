"""Codenames Duet rules, one test (or more) per RULES section 3.x."""

from __future__ import annotations

import pytest

from conftest import WORDS, expect_illegal, make_key, make_state
from engine import Clue, Guess, Stop
from engine.duet import DuetConfig, DuetKey
from engine.errors import MalformedRecord

# Cell plan used by many tests (A side, B side).
GG, GN, NG, GX, XG, XX, XN, NX, NN = [("G", "G"), ("G", "N"), ("N", "G"), ("G", "X"), ("X", "G"),
                                       ("X", "X"), ("X", "N"), ("N", "X"), ("N", "N")]


# RULES 3.1 / 3.2 -------------------------------------------------------------------------------
def test_key_must_have_the_key_card_structure():  # RULES 3.2
    good = make_key({})
    assert sum(a == "G" for a in good.a) == 9 and sum(b == "G" for b in good.b) == 9
    assert len(good.green_cells()) == 15
    with pytest.raises(MalformedRecord, match="3.2"):
        DuetKey("G" * 25, good.b)
    gg, nn = good.a.index("G"), good.b.index("N", good.a.index("N"))  # a GG cell and an N? cell
    a = list(good.a)
    a[gg], a[nn] = a[nn], a[gg]  # same counts per side, broken cross-structure
    assert sorted(a) == sorted(good.a)
    with pytest.raises(MalformedRecord):
        DuetKey("".join(a), good.b)


def test_board_is_25_distinct_words():  # RULES 3.1
    with pytest.raises(MalformedRecord):
        make_state({}, words=WORDS[:24] + [WORDS[0]])


def test_a_word_not_on_the_board_is_refused():  # RULES 3.1
    s = make_state({})
    s.apply(Clue("A", "x", 1))
    expect_illegal(s, Guess("B", "nope"), "3.1")


@pytest.mark.parametrize("word", [["w00"], {"w00": 1}, None, 0])
def test_a_guess_that_names_no_word_is_refused_with_the_rule(word):  # RULES 3.1
    s = make_state({})
    s.apply(Clue("A", "x", 1))
    expect_illegal(s, Guess("B", word), "3.1")  # a list or dict raised TypeError (unhashable)


def test_a_huge_clue_number_or_guess_is_refused_in_a_short_line():  # RULES 3.4, 3.1
    """Before: a clue number of more than 4,300 digits raised ValueError from repr() (not
    IllegalAction), and a guess of a million characters was quoted whole in the message."""
    s = make_state({})
    err = expect_illegal(s, Clue("A", "x", 10 ** 5000), "3.4")
    assert "clue number is 0..9" in err.message and len(err.message) < 200
    s.apply(Clue("A", "x", 1))
    for word in ("x" * 10 ** 6, [0] * 10 ** 5):
        err = expect_illegal(s, Guess("B", word), "3.1")
        assert "not a word of the board" in err.message and len(err.message) < 200


def test_unknown_seat_is_refused():  # RULES 3.1
    expect_illegal(make_state({}), Clue("C", "x", 1), "3.1")


# RULES 3.3 / 3.4 -------------------------------------------------------------------------------
@pytest.mark.parametrize("tokens", [9, 10, 11])
def test_timer_tokens_are_the_turns(tokens):  # RULES 3.3
    s = make_state({}, DuetConfig(timer_tokens=tokens))
    assert s.tokens_left == tokens


def test_either_player_gives_the_first_clue_then_they_alternate():  # RULES 3.4
    for first in "AB":
        s = make_state({0: GN, 1: NG})
        assert s.clue_givers() == ("A", "B")
        other = "B" if first == "A" else "A"
        s.apply(Clue(first, "x", 1))
        s.apply(Guess(other, "w00" if first == "A" else "w01"))
        s.apply(Stop(other))
        assert s.clue_givers() == (other,)
        expect_illegal(s, Clue(first, "y", 1), "3.4")


def test_relaxed_order_allows_two_clues_in_a_row_but_not_three():  # RULES 3.4 (variant)
    s = make_state({0: GN, 1: GN, 2: NG}, DuetConfig(relaxed_order=True))
    for word in ("w00", "w01"):
        s.apply(Clue("A", "x", 1))
        s.apply(Guess("B", word))
        s.apply(Stop("B"))
    assert s.clue_givers() == ("B",)
    expect_illegal(s, Clue("A", "z", 1), "3.4")


def test_clue_number_zero_still_needs_a_guess():  # RULES 3.4 (expert 0)
    s = make_state({0: GN})
    s.apply(Clue("A", "feather", 0))
    expect_illegal(s, Stop("B"), "3.6")
    expect_illegal(s, Clue("B", "x", 1), "3.6")
    s.apply(Guess("B", "w00"))
    s.apply(Stop("B"))
    assert s.tokens_left == 8


@pytest.mark.parametrize("number", [-1, 10, "unlimited", True])
def test_clue_number_range(number):  # RULES 3.4
    expect_illegal(make_state({}), Clue("A", "x", number), "3.4")


@pytest.mark.parametrize("word", [None, 7, ["x"], b"x"])
@pytest.mark.parametrize("invalid_clue", ["allow", "reject"])
def test_a_clue_whose_word_is_not_text_is_refused(word, invalid_clue):  # RULES 3.4: a clue is one word
    # it was played as its str() (the guesser saw the clue "None") and its record did not replay
    config = DuetConfig(invalid_clue=invalid_clue, language=None if invalid_clue == "allow" else "en")
    expect_illegal(make_state({}, config), Clue("A", word, 1), "3.4")


def test_guess_before_any_clue_is_refused():  # RULES 3.4
    expect_illegal(make_state({}), Guess("B", "w00"), "3.4")


# RULES 3.5 -------------------------------------------------------------------------------------
def test_guess_is_judged_by_the_clue_givers_side():  # RULES 3.5
    # w00 is green for A's side only, w01 green for B's side only.
    s = make_state({0: GN, 1: NG})
    s.apply(Clue("A", "x", 2))
    s.apply(Guess("B", "w00"))
    assert s.green_covered[0] and s.phase == "guess"
    s.apply(Guess("B", "w01"))  # beige on A's side: token, turn over
    assert not s.green_covered[1] and s.marks[1] == {"B"} and s.phase == "clue"


def test_unlimited_guesses_while_correct():  # RULES 3.5: no number+1 limit in Duet
    s = make_state({i: GN for i in range(5)})
    s.apply(Clue("A", "x", 1))
    for i in range(5):
        s.apply(Guess("B", f"w{i:02d}"))
    assert s.phase == "guess" and s.correct_this_turn == 5


def test_assassin_loses_at_once():  # RULES 3.5, 3.9
    s = make_state({0: XN})
    s.apply(Clue("A", "x", 1))
    s.apply(Guess("B", "w00"))
    assert s.outcome().phase == "lost" and s.outcome().loss_reason == "assassin"
    expect_illegal(s, Clue("B", "y", 1), "3.9")


def test_a_black_card_of_my_own_side_may_be_green_for_my_partner():  # RULES 3.2, 3.5
    s = make_state({0: XG})  # black on A, green on B
    s.apply(Clue("B", "x", 1))
    s.apply(Guess("A", "w00"))
    assert s.green_covered[0]


def test_bystander_places_a_token_and_ends_the_turn():  # RULES 3.5, 3.6
    s = make_state({0: NN})
    s.apply(Clue("A", "x", 1))
    s.apply(Guess("B", "w00"))
    assert s.tokens_left == 8 and s.mistakes == 1 and s.phase == "clue"
    assert "w00" in s.visible_words()  # one token keeps the card visible (RULES 4.5)


def test_the_clue_giver_does_not_guess():  # RULES 3.5
    s = make_state({0: GN})
    s.apply(Clue("A", "x", 1))
    expect_illegal(s, Guess("A", "w00"), "3.5")


# RULES 3.6 -------------------------------------------------------------------------------------
def test_stop_only_after_a_correct_guess_and_takes_one_token():  # RULES 3.6
    s = make_state({0: GN})
    s.apply(Clue("A", "x", 2))
    expect_illegal(s, Stop("B"), "3.6")
    s.apply(Guess("B", "w00"))
    expect_illegal(s, Stop("A"), "3.6")
    s.apply(Stop("B"))
    assert s.tokens_left == 8 and s.stop_tokens == 1


def test_every_turn_consumes_exactly_one_token():  # RULES 3.6
    s = make_state({0: GN, 1: NN, 2: NG})
    s.apply(Clue("A", "x", 1)); s.apply(Guess("B", "w00")); s.apply(Stop("B"))
    s.apply(Clue("B", "x", 1)); s.apply(Guess("A", "w01"))
    assert s.tokens_left == 7


def test_stop_before_any_clue_is_refused():  # RULES 3.6
    expect_illegal(make_state({}), Stop("A"), "3.6")


# RULES 3.7 -------------------------------------------------------------------------------------
def test_bystander_token_is_per_direction():  # RULES 3.7
    s = make_state({0: NG, 1: GN, 2: NG})
    s.apply(Clue("A", "x", 1)); s.apply(Guess("B", "w00"))  # beige on A: token B->A direction
    s.apply(Clue("B", "y", 1)); s.apply(Guess("A", "w00"))  # judged by B: green
    assert s.green_covered[0]


def test_second_bystander_covers_the_card_for_both():  # RULES 3.7
    s = make_state({0: NN, 1: GN, 2: NG})
    s.apply(Clue("A", "x", 1)); s.apply(Guess("B", "w00"))
    s.apply(Clue("B", "y", 1)); s.apply(Guess("A", "w00"))
    assert s.covered_for_both(0) and "w00" not in s.visible_words()
    assert s.tokens_left == 7
    s.apply(Clue("A", "z", 1))
    expect_illegal(s, Guess("B", "w00"), "3.7")


def test_same_direction_cannot_guess_a_known_bystander_again():  # RULES 3.7
    s = make_state({0: NG, 1: GN}, DuetConfig(relaxed_order=True))
    s.apply(Clue("A", "x", 1)); s.apply(Guess("B", "w00"))
    s.apply(Clue("A", "x", 1))
    err = expect_illegal(s, Guess("B", "w00"), "3.7")
    assert "bystander" in err.message


def test_a_covered_agent_cannot_be_guessed():  # RULES 3.7
    s = make_state({0: GG, 1: GN})
    s.apply(Clue("A", "x", 1)); s.apply(Guess("B", "w00")); s.apply(Stop("B"))
    s.apply(Clue("B", "y", 1))
    expect_illegal(s, Guess("A", "w00"), "3.7")


# RULES 3.8 -------------------------------------------------------------------------------------
def test_covering_the_clue_givers_last_green_ends_the_turn_with_a_stop_token():  # RULES 3.8
    a_greens = {i: GN for i in range(5)} | {5: GG, 6: GG, 7: GG, 8: GX}
    s = make_state(a_greens)
    s.apply(Clue("A", "x", 9))
    for i in range(9):
        s.apply(Guess("B", f"w{i:02d}"))
    assert s.side_finished("A") and s.phase == "clue"
    assert s.stop_tokens == 1 and s.tokens_left == 8
    assert s.observe("B").partner_finished
    # A's side is finished: A gives no more clues, only guesses.
    expect_illegal(s, Clue("A", "y", 1), "3.8")
    s.apply(Clue("B", "y", 1))
    s.apply(Guess("A", s.words[[i for i in range(25) if s.key.b[i] == "G" and not s.green_covered[i]][0]]))
    s.apply(Stop("A"))
    assert s.clue_givers() == ("B",)  # B gives every remaining clue


def test_after_the_clue_givers_last_green_the_partner_guessing_on_is_refused_citing_3_8():  # RULES 3.8
    """RULES 3.8: the turn that covers the clue-giver's last green ends at once, and the partner has
    nothing left to guess: one more guess is refused naming 3.8, and nothing changes."""
    a_greens = {i: GN for i in range(5)} | {5: GG, 6: GG, 7: GG, 8: GX}
    s = make_state(a_greens)
    s.apply(Clue("A", "x", 9))
    for i in range(9):
        s.apply(Guess("B", f"w{i:02d}"))
    assert s.phase == "clue" and s.clue_givers() == ("B",)
    b_green = next(i for i in range(25) if s.key.b[i] == "G" and not s.green_covered[i])
    expect_illegal(s, Guess("B", "w09"), "3.8")
    expect_illegal(s, Guess("A", s.words[b_green]), "3.4")  # A still guesses, on B's next clue
    s.apply(Clue("B", "y", 1))
    s.apply(Guess("A", s.words[b_green]))


# RULES 3.9 -------------------------------------------------------------------------------------
def _exhaust_tokens(s, guesser_word_pairs):
    for giver, guesser, word in guesser_word_pairs:
        s.apply(Clue(giver, "x", 1))
        s.apply(Guess(guesser, word))


def test_sudden_death_after_the_last_token():  # RULES 3.9
    s = make_state({0: NN, 1: NN, 2: GN, 3: NG}, DuetConfig(timer_tokens=2))
    _exhaust_tokens(s, [("A", "B", "w00"), ("B", "A", "w01")])
    assert s.phase == "sudden_death" and s.outcome().phase == "sudden_death"
    expect_illegal(s, Clue("A", "x", 1), "3.9")
    expect_illegal(s, Stop("A"), "3.9")
    assert set(s.to_act()) == {"A", "B"}


def test_sudden_death_any_wrong_guess_loses():  # RULES 3.9
    s = make_state({0: NN, 1: NN, 2: NN}, DuetConfig(timer_tokens=2))
    _exhaust_tokens(s, [("A", "B", "w00"), ("B", "A", "w01")])
    s.apply(Guess("A", "w02"))
    assert s.outcome().loss_reason == "sudden_death_miss"


def test_sudden_death_finding_every_green_wins_with_minus_one():  # RULES 3.9, 3.11
    s = make_state({})  # the 9-token game (only it is scored)
    key = s.key
    s.apply(Clue("A", "x", 1))
    first_a = next(i for i in range(25) if key.a[i] == "G")
    s.apply(Guess("B", s.words[first_a]))
    s.apply(Stop("B"))
    for turn in range(8):  # the other eight tokens on beige guesses
        giver, guesser = ("B", "A") if turn % 2 == 0 else ("A", "B")
        side = key.b if giver == "B" else key.a
        s.apply(Clue(giver, "x", 1))
        s.apply(Guess(guesser, s.words[[i for i in range(25) if side[i] == "N"][turn // 2]]))
    assert s.phase == "sudden_death"
    for i in range(25):
        if s.green_covered[i]:
            continue
        if key.a[i] == "G":
            s.apply(Guess("B", s.words[i]))
        elif key.b[i] == "G":
            s.apply(Guess("A", s.words[i]))
    assert s.outcome().phase == "won"
    assert s.score() == 0 + 1 - 1  # no tokens left, one stop token, sudden death


def test_in_sudden_death_only_players_with_greens_to_find_guess():  # RULES 3.9
    a_side = {i: GN for i in range(5)} | {5: GG, 6: GG, 7: GG, 8: GX}
    s = make_state(a_side, DuetConfig(timer_tokens=1))
    s.apply(Clue("A", "x", 9))
    for i in range(9):
        s.apply(Guess("B", f"w{i:02d}"))
    assert s.phase == "sudden_death"
    assert s.to_act() == ("A",)  # B has nothing left to find on A's side
    b_green = next(i for i in range(25) if s.key.b[i] == "G" and not s.green_covered[i])
    expect_illegal(s, Guess("B", s.words[b_green]), "3.9")


def test_fifteenth_green_wins_at_once():  # RULES 3.9
    s = make_state({})
    key = s.key
    a_only = [i for i in range(25) if key.a[i] == "G"]
    b_only = [i for i in range(25) if key.b[i] == "G" and key.a[i] != "G"]
    s.apply(Clue("A", "x", 9))
    for i in a_only:
        s.apply(Guess("B", s.words[i]))
    s.apply(Clue("B", "y", 6))
    for i in b_only:
        s.apply(Guess("A", s.words[i]))
    assert s.outcome().phase == "won" and s.greens_found == 15
    expect_illegal(s, Clue("A", "z", 1), "3.9")


# RULES 3.10 ------------------------------------------------------------------------------------
def test_mission_tokens_start_with_mistakes_bystander_side_up():  # RULES 3.10
    cairo = DuetConfig(timer_tokens=9, mistakes=5)
    s = make_state({}, cairo)
    assert (s.bystander_tokens, s.check_tokens) == (5, 4)


def test_mission_stop_takes_a_check_token_then_bystander_ones():  # RULES 3.10
    s = make_state({0: GN, 1: NG, 2: GN}, DuetConfig(timer_tokens=3, mistakes=2))
    s.apply(Clue("A", "x", 1)); s.apply(Guess("B", "w00")); s.apply(Stop("B"))
    assert (s.check_tokens, s.bystander_tokens) == (0, 2)
    s.apply(Clue("B", "x", 1)); s.apply(Guess("A", "w01")); s.apply(Stop("A"))
    assert (s.check_tokens, s.bystander_tokens) == (0, 1)


def test_mission_beige_without_bystander_tokens_costs_two_check_tokens():  # RULES 3.10
    s = make_state({0: NN, 1: NN, 2: NN}, DuetConfig(timer_tokens=5, mistakes=1))
    s.apply(Clue("A", "x", 1)); s.apply(Guess("B", "w00"))
    assert (s.check_tokens, s.bystander_tokens) == (4, 0)
    s.apply(Clue("B", "x", 1)); s.apply(Guess("A", "w01"))
    assert (s.check_tokens, s.bystander_tokens) == (2, 0) and s.mistakes == 2
    assert "w01" in s.visible_words()  # the two-token stack counts as one token (RULES 3.7)


def test_mission_last_two_tokens_used_leads_to_sudden_death():  # RULES 3.10
    s = make_state({0: NN, 1: NN}, DuetConfig(timer_tokens=3, mistakes=1))
    s.apply(Clue("A", "x", 1)); s.apply(Guess("B", "w00"))
    s.apply(Clue("B", "x", 1)); s.apply(Guess("A", "w01"))
    assert s.tokens_left == 0 and s.phase == "sudden_death"


def test_mission_supply_that_cannot_pay_loses_at_once():  # RULES 3.10
    s = make_state({0: NN, 1: NN, 2: NN}, DuetConfig(timer_tokens=2, mistakes=0))
    s.apply(Clue("A", "x", 1)); s.apply(Guess("B", "w00"))  # two check tokens stacked
    assert s.tokens_left == 0 and s.phase == "sudden_death"
    s = make_state({0: GN, 1: NN}, DuetConfig(timer_tokens=2, mistakes=0))
    s.apply(Clue("A", "x", 1)); s.apply(Guess("B", "w00")); s.apply(Stop("B"))
    s.apply(Clue("B", "x", 1)); s.apply(Guess("A", "w01"))  # one check token left, beige needs two
    assert s.outcome().phase == "lost" and s.outcome().loss_reason == "out_of_tokens"


# RULES 3.11 ------------------------------------------------------------------------------------
def _win_with_two_stops(config=DuetConfig()):
    """A won game of three turns: two stops (+1 each) and the final turn's token (+1)."""
    s = make_state({}, config)
    key = s.key
    a_side = [i for i in range(25) if key.a[i] == "G"]
    b_only = [i for i in range(25) if key.b[i] == "G" and key.a[i] != "G"]
    shared = [i for i in a_side if key.b[i] == "G"]
    a_only = [i for i in a_side if key.b[i] != "G"]
    s.apply(Clue("A", "x", 3))
    for i in a_only[:3]:
        s.apply(Guess("B", s.words[i]))
    s.apply(Stop("B"))  # +1
    s.apply(Clue("B", "y", 6))
    for i in b_only:
        s.apply(Guess("A", s.words[i]))
    s.apply(Stop("A"))  # +1 (B's shared greens are still uncovered)
    s.apply(Clue("A", "z", 6))
    for i in a_only[3:] + shared:
        s.apply(Guess("B", s.words[i]))  # the 15th green: the final turn takes its token (+1)
    assert s.outcome().phase == "won"
    return s


def test_score_of_a_won_game():  # RULES 3.11
    s = _win_with_two_stops()
    assert s.tokens_left == 6
    assert s.score() == 3 * 6 + 3 == s.outcome().score


@pytest.mark.parametrize("config", [DuetConfig(timer_tokens=9, mistakes=5),     # Cairo 9-5: scored
                                    DuetConfig(timer_tokens=11),                 # Berlin: not
                                    DuetConfig(timer_tokens=10, mistakes=10)])
def test_only_a_won_9_token_game_has_a_score(config):  # RULES 3.11 ("score of a won 9-token game")
    s = _win_with_two_stops(config)
    expected = 3 * s.tokens_left + 3 if config.timer_tokens == 9 else None
    assert s.score() == expected and s.outcome().score == expected


def test_lost_games_have_no_score():  # RULES 3.11
    s = make_state({0: XN})
    s.apply(Clue("A", "x", 1)); s.apply(Guess("B", "w00"))
    assert s.score() is None


# RULES 4.8 (Duet's penalty for an invalid clue) ----------------------------------------------
def _referee(word, number, board, covered, language):
    return ("4.3", f"{word} is on the board") if word in board else None


def test_invalid_clue_reject_mode_raises_and_changes_nothing():  # RULES 4.8, 1.6
    from engine.duet import DuetState

    s = DuetState(WORDS, make_key({}), DuetConfig(invalid_clue="reject", language="en"), referee=_referee)
    expect_illegal(s, Clue("A", "w03", 1), "4.3")


def test_invalid_clue_penalty_discards_a_token_then_the_guesser_guesses():  # RULES 4.8
    from engine.duet import DuetState

    s = DuetState(WORDS, make_key({0: GN}), DuetConfig(invalid_clue="penalize", language="en"), referee=_referee)
    s.apply(Clue("A", "w03", 1))
    assert s.tokens_left == 8 and s.phase == "guess"
    s.apply(Guess("B", "w00")); s.apply(Stop("B"))
    assert s.tokens_left == 7


# RULES 4.7 (options agreed before the game) ------------------------------------------------------
@pytest.mark.parametrize("language, clue, option", [("en", "FBI", "abbreviations"), ("ko", "유엔", "abbreviations"),
                                                    ("en", "ice cream", "multiword_compounds"),
                                                    ("ko", "냉동 식품", "multiword_compounds")])
def test_an_agreed_option_makes_its_clues_legal(language, clue, option):  # RULES 4.7
    from engine.duet import DuetState

    pytest.importorskip("engine.clues")
    off = DuetState(WORDS, make_key({}), DuetConfig(invalid_clue="reject", language=language))
    expect_illegal(off, Clue("A", clue, 1), "4.7")           # off by default
    on = DuetState(WORDS, make_key({}), DuetConfig(invalid_clue="reject", language=language, clue_options=[option]))
    on.apply(Clue("A", clue, 1))
    assert on.current_clue == (clue, 1)


def test_agreed_options_are_checked_and_round_trip():  # RULES 4.7
    config = DuetConfig(clue_options=["rhymes", "abbreviations"])
    assert config.clue_options == ("abbreviations", "rhymes")
    assert DuetConfig.from_dict(config.to_dict()) == config
    assert "clue_options" not in DuetConfig().to_dict()          # records without options read as before
    for bad in (["telepathy"], "abbreviations", ["rhymes", "rhymes"], [1]):
        with pytest.raises(MalformedRecord, match="clue_options"):
            DuetConfig(clue_options=bad)


# Rules audit 9: rulebook details (seed 000) that had no test citing their section -----------------
@pytest.mark.parametrize("tokens", [0, 12])
def test_the_box_holds_eleven_timer_tokens(tokens):  # RULES 3.3 (9 in the base game, 10 or 11 easier)
    with pytest.raises(MalformedRecord, match="3.3"):
        DuetConfig(timer_tokens=tokens)
    assert make_state({}, DuetConfig(timer_tokens=11)).tokens_left == 11


def test_a_finished_side_leaves_every_clue_to_the_partner_in_relaxed_order_too():  # RULES 3.4, 3.8
    a_greens = {i: GN for i in range(5)} | {5: GG, 6: GG, 7: GG, 8: GX}
    s = make_state(a_greens | {9: NG, 10: NG, 11: NG}, DuetConfig(relaxed_order=True))
    s.apply(Clue("A", "x", 9))
    for i in range(9):
        s.apply(Guess("B", f"w{i:02d}"))
    assert s.side_finished("A") and s.clue_givers() == ("B",)
    for word in ("w09", "w10", "w11"):  # a third clue in a row is no longer refused: A has none to give
        s.apply(Clue("B", "y", 1))
        s.apply(Guess("A", word))
        s.apply(Stop("A"))
        assert s.clue_givers() == ("B",)
        expect_illegal(s, Clue("A", "z", 1), "3.8")


def test_the_token_of_a_turn_ended_by_a_finished_side_scores_as_a_stop():  # RULES 3.8, 3.11
    s = make_state({})
    key = s.key
    s.apply(Clue("A", "x", 9))
    for i in [i for i in range(25) if key.a[i] == "G"]:
        s.apply(Guess("B", s.words[i]))
    assert s.phase == "clue" and s.tokens_left == 8 and s.stop_tokens == 1  # the turn ended by itself
    s.apply(Clue("B", "y", 6))
    for i in [i for i in range(25) if key.b[i] == "G" and key.a[i] != "G"]:
        s.apply(Guess("A", s.words[i]))
    assert s.outcome().phase == "won" and s.tokens_left == 7
    assert s.score() == 3 * 7 + 2  # two turns, each ended by a token taken after correct guesses


def test_a_card_with_a_two_token_stack_may_still_be_green_the_other_way():  # RULES 3.7, 3.10
    s = make_state({0: GN, 1: GN}, DuetConfig(timer_tokens=6, mistakes=0))  # no bystander-side token
    s.apply(Clue("B", "x", 1)); s.apply(Guess("A", "w00"))  # beige on B's side: two check tokens stacked
    assert s.tokens_left == 4 and s.marks[0] == {"A"} and "w00" in s.visible_words()
    s.apply(Clue("A", "y", 2)); s.apply(Guess("B", "w00"))  # green on A's side: covered, the stack on top
    assert s.green_covered[0] and s.phase == "guess" and "w00" not in s.visible_words()
    s.apply(Guess("B", "w01")); s.apply(Stop("B"))
    assert s.tokens_left == 3


def test_in_sudden_death_a_card_the_partner_marked_may_still_be_found():  # RULES 3.7, 3.9
    s = make_state({0: NG, 1: NN, 2: NN}, DuetConfig(timer_tokens=2))
    s.apply(Clue("A", "x", 1)); s.apply(Guess("B", "w00"))  # beige on A's side
    s.apply(Clue("B", "x", 1)); s.apply(Guess("A", "w01"))
    assert s.phase == "sudden_death"
    expect_illegal(s, Guess("B", "w00"), "3.7")  # B already knows w00 is beige on A's side
    s.apply(Guess("A", "w00"))  # judged by B's side: green
    assert s.green_covered[0] and s.phase == "sudden_death"
    s.apply(Guess("B", "w02"))  # any miss in sudden death, beige included, loses
    assert s.outcome().loss_reason == "sudden_death_miss"


def _finish_a_side_then_miss(turns_of_misses: int):
    """Turn 1: B finds A's nine greens (A's side finished, the turn ends with its token, 3.8);
    then `turns_of_misses` turns of B's clues on which A guesses a beige (a token each)."""
    s = make_state({})
    key = s.key
    s.apply(Clue("A", "x", 9))
    for i in [i for i in range(25) if key.a[i] == "G"]:
        s.apply(Guess("B", s.words[i]))
    assert s.phase == "clue" and s.stop_tokens == 1 and s.tokens_left == 8
    beige_for_a = [i for i in range(25) if key.b[i] == "N" and key.a[i] != "G"]
    for i in beige_for_a[:turns_of_misses]:
        s.apply(Clue("B", "y", 1))
        s.apply(Guess("A", s.words[i]))
    return s


def test_a_win_on_the_last_token_scores_its_stops_only():  # RULES 3.11 (score when winning on the last token)
    s = _finish_a_side_then_miss(7)
    assert s.tokens_left == 1 and s.mistakes == 7 and s.phase == "clue"
    s.apply(Clue("B", "z", 6))
    for i in [i for i in range(25) if s.key.b[i] == "G" and s.key.a[i] != "G"]:
        s.apply(Guess("A", s.words[i]))
    assert s.outcome().phase == "won" and not s.went_to_sudden_death
    assert s.tokens_left == 0 and s.stop_tokens == 2  # the winning turn took the last token (+1)
    assert s.score() == 3 * 0 + 2 == s.outcome().score   # mistakes cost tokens, not points


def test_a_win_in_sudden_death_scores_its_stops_minus_one():  # RULES 3.9, 3.11 (score in sudden death)
    s = _finish_a_side_then_miss(8)
    assert s.tokens_left == 0 and s.phase == "sudden_death" and s.to_act() == ("A",)
    for i in [i for i in range(25) if s.key.b[i] == "G" and s.key.a[i] != "G"]:
        s.apply(Guess("A", s.words[i]))
    assert s.outcome().phase == "won" and s.went_to_sudden_death
    assert s.stop_tokens == 1 and s.score() == 3 * 0 + 1 - 1 == s.outcome().score  # no token to take at the end


# RULES 3.13 ------------------------------------------------------------------------------------
def test_a_side_of_the_key_card_is_one_seat():  # RULES 3.13 (more than two players: a side is one seat)
    s = make_state({0: GN})
    assert s.seats == ("A", "B")
    for player in ("A2", "B-1", "C", "a"):
        expect_illegal(s, Clue(player, "x", 1), "3.1")
        with pytest.raises(ValueError):
            s.observe(player)
    s.apply(Clue("A", "x", 1))
    s.apply(Guess("B", "w00"))  # whoever of side B touches the card, the seat B guesses
    assert s.observe("B").own_key == s.key.b and s.observe("A").own_key == s.key.a


def test_a_guess_of_a_card_spelled_otherwise_says_how_the_board_spells_it():  # RULES 3.1
    """A hand-written record guessing 'crane' for the card CRANE, or a decomposed é for a composed one,
    was told "'café' is not a word of the board" beside a board showing café: the message now gives
    the board's spelling (in code points when they look alike); the move is still refused, nothing changes."""
    words = ["CRANE", "caf\u00e9"] + WORDS[2:]
    s = make_state({}, words=words)
    s.apply(Clue("A", "x", 1))
    err = expect_illegal(s, Guess("B", "crane"), "3.1")
    assert "the board spells it 'CRANE', not 'crane'" in err.message
    err = expect_illegal(s, Guess("B", "cafe\u0301"), "3.1")
    assert "the board spells it 'caf\\xe9', not 'cafe\\u0301'" in err.message
    err = expect_illegal(s, Guess("B", "nothing"), "3.1")
    assert "spells" not in err.message
