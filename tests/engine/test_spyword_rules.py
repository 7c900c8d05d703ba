"""Spy's Word rules, one test (or more) per RULES section 5.x."""

from __future__ import annotations

import pytest

from engine.errors import MalformedRecord
from engine.spyword import (GHOST, PASS, GhostGuess, SpyWordSettings, SpyWordState, Timeout, Vote, check_role_counts,
                            deal_spyword, recommended_roles, spy_range)
from test_spyword_helpers import act, clues, eliminate, expect_illegal, make, to_vote, votes

PACKS = [{"id": "t-1", "category": "fruit", "words": ["apple", "pear"]},
         {"id": "t-2", "category": "drink", "words": ["coffee", "tea"], "pictures": ["c.png", "t.png"]}]


# RULES 5.1 / 5.2: players and roles -------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 13, 0])
def test_player_count_is_4_to_12(players):  # RULES 5.1
    with pytest.raises(ValueError, match="5.1"):
        deal_spyword(0, PACKS, players)
    with pytest.raises(MalformedRecord, match="5.1"):
        SpyWordState([f"p{i}" for i in range(players)], ["citizen"] * players, "a", "b")


def test_allowed_role_counts():  # RULES 5.2
    assert spy_range(4) == spy_range(5) == (1, 1)
    assert spy_range(6) == spy_range(8) == (1, 2)
    assert spy_range(9) == spy_range(12) == (1, 3)
    check_role_counts(5, 1, True)
    with pytest.raises(ValueError, match="ghost"):
        check_role_counts(4, 1, True)  # 4 players: no ghost
    with pytest.raises(ValueError, match="outnumber"):
        check_role_counts(6, 2, True)  # the rulebook's example
    with pytest.raises(ValueError, match="spies"):
        check_role_counts(8, 3, False)
    check_role_counts(9, 3, True)


@pytest.mark.parametrize("players, expected", [(4, (1, False)), (5, (1, False)), (6, (1, True)), (8, (1, True)),
                                               (9, (2, True)), (12, (2, True))])
def test_recommended_roles_are_the_default(players, expected):  # RULES 5.2, 5.14
    assert recommended_roles(players) == expected
    rec = deal_spyword(1, PACKS, players)
    roles = list(rec.roles.values())
    assert (roles.count("spy"), "ghost" in roles) == expected
    assert roles.count("ghost") <= 1


def test_host_chooses_role_counts_within_the_range():  # RULES 5.2, 5.14
    rec = deal_spyword(1, PACKS, 8, SpyWordSettings(spies=2, ghost=False))
    assert list(rec.roles.values()).count("spy") == 2
    with pytest.raises(ValueError, match="5.2"):
        deal_spyword(1, PACKS, 6, SpyWordSettings(spies=2, ghost=True))


def test_roles_are_assigned_at_random():  # RULES 5.2
    spies = {next(s for s, r in deal_spyword(seed, PACKS, 6).roles.items() if r == "spy") for seed in range(40)}
    assert len(spies) == 6


def test_roles_in_a_record_must_match_the_settings():  # RULES 5.2
    with pytest.raises(MalformedRecord, match="5.2"):
        SpyWordState([f"p{i}" for i in range(6)], ["citizen"] * 4 + ["spy"] * 2, "a", "b")  # default: 1 spy + ghost
    with pytest.raises(MalformedRecord, match="5.2"):
        make("ccssgc")  # 6 players: 2 spies + ghost leaves citizens 3 vs 3


def test_ghost_has_no_word_and_knows_it(): # RULES 5.1
    s = make()
    ghost = s.observe("p4")
    assert ghost.word is None and ghost.role == "ghost"
    assert s.observe("p1").word == "apple" and s.observe("p3").word == "pear"


def test_spy_screen_looks_like_a_citizens_by_default():  # RULES 5.1, 5.14
    s = make()
    spy, citizen = s.observe("p3"), s.observe("p1")
    assert spy.role is None and citizen.role is None
    assert "pear" not in repr(citizen) and "apple" not in repr(spy)
    assert make(reveal_spy_role=True).observe("p3").role == "spy"


# RULES 5.3: packs -------------------------------------------------------------------------------------
def test_which_word_goes_to_the_citizens_is_random():  # RULES 5.3
    sides = {deal_spyword(seed, PACKS[:1], 6).citizen_word for seed in range(20)}
    assert sides == {"apple", "pear"}


def test_pack_pictures_follow_their_words():  # RULES 5.3
    rec = deal_spyword(0, PACKS[1:], 6)
    s = rec.replay()
    seat = next(p for p, r in rec.roles.items() if r == "citizen")
    assert s.observe(seat).picture == {"coffee": "c.png", "tea": "t.png"}[rec.citizen_word]


def test_a_pack_is_two_different_words():  # RULES 5.3
    with pytest.raises(ValueError, match="5.3"):
        deal_spyword(0, [{"words": ["tea", "tea"]}], 6)
    with pytest.raises(MalformedRecord, match="5.3"):
        SpyWordState([f"p{i}" for i in range(4)], "citizen citizen spy citizen".split(), "Tea", "tea",
                     settings=SpyWordSettings())


@pytest.mark.parametrize("words", [["Tea", "tea"], ["tea", "tea "], ["café", "cafe"], ["ice cream", "Ice-Cream"]])
def test_a_pack_of_one_word_written_twice_is_refused_when_dealt(words):  # RULES 5.3
    # check_pack compared the strings exactly: the deal succeeded and the record it made could not be played
    with pytest.raises(ValueError, match="5.3"):
        deal_spyword(0, [{"words": words}], 6)


# RULES 5.4: start, order, clues -------------------------------------------------------------------------
def test_the_game_starts_when_everyone_has_seen_its_card():  # RULES 5.4
    s = make(ready=False)
    assert s.phase == "ready"
    expect_illegal(s, {"seat": "p1", "clue": "red"}, "5.4")
    for seat in s.seats[:-1]:
        act(s, {"seat": seat, "ready": True})
    expect_illegal(s, {"seat": "p1", "ready": True}, "5.4")
    assert s.phase == "ready"
    act(s, {"seat": "p6", "ready": True})
    assert s.phase == "clues" and s.round == 1


def test_order_is_shuffled_and_the_ghost_never_speaks_first_in_round_1():  # RULES 5.4
    firsts = set()
    for seed in range(60):
        rec = deal_spyword(seed, PACKS, 6)
        assert rec.roles[rec.order[0]] != GHOST
        firsts.add(rec.order[0])
    assert len(firsts) == 6
    with pytest.raises(MalformedRecord, match="5.4"):
        make(order=[4, 1, 2, 3, 5, 6])


def test_the_first_player_gone_before_round_1_does_not_point_at_the_ghost():  # RULES 5.4, 5.12
    # the order is public from the deal on; when its first player leaves (or the host kicks it) before
    # round 1, the next one in the order cannot simply speak first, skipping the ghost: whoever saw the
    # order would learn who the ghost is. The first speaker is drawn among the players but the ghost.
    firsts = set()
    for seed in range(40):
        s = make("csgccc", order=[1, 3, 2, 4, 5, 6], seed=seed, ready=False)   # p3, the ghost, comes second
        act(s, {"seat": "p1", "leave": True})
        for seat in ("p2", "p3", "p4", "p5", "p6"):
            act(s, {"seat": seat, "ready": True})
        cycle = ("p3", "p2", "p4", "p5", "p6")   # the order without p1
        k = cycle.index(s.speaker)
        assert s.phase == "clues" and s.speaker != "p3" and s.round_order == cycle[k:] + cycle[:k]
        firsts.add(s.speaker)
    assert firsts == {"p2", "p4", "p5", "p6"}   # not always p2, the one after the skipped ghost


def test_speakers_go_in_the_round_order():  # RULES 5.4
    s = make(order=[2, 1, 3, 4, 5, 6])
    assert s.speaker == "p2"
    expect_illegal(s, {"seat": "p1", "clue": "red"}, "5.4")
    clues(s, 1)
    assert s.speaker == "p1"


def test_next_round_starts_after_the_previous_first_speaker():  # RULES 5.4
    s = make(order=[2, 1, 3, 4, 5, 6])
    eliminate(s, "p1")  # the player after p2 is out: round 2 starts at p3
    assert s.round == 2 and s.round_order == ("p3", "p4", "p5", "p6", "p2")
    eliminate(s, "p4")  # round 3: the next remaining after p3
    act(s, {"seat": "p4", "ghost_guess": "banana"})
    assert s.round == 3 and s.speaker == "p5"


def test_later_rounds_may_start_with_the_ghost():  # RULES 5.4 (only round 1 is protected)
    s = make(order=[3, 4, 1, 2, 5, 6])
    eliminate(s, "p1")
    assert s.speaker == "p4" and s.roles["p4"] == "ghost"


@pytest.mark.parametrize("clue", ["apple", "APPLE", " Apple ", "ápple"])
def test_clue_may_not_be_the_word_itself(clue):  # RULES 5.4
    expect_illegal(make(), {"seat": "p1", "clue": clue}, "5.4")


@pytest.mark.parametrize("clue", [None, 7, ["red"]])
def test_a_clue_that_is_not_text_is_refused_as_such(clue):  # RULES 5.4
    from engine.spyword import GiveClue
    err = expect_illegal(make(), GiveClue("p1", clue), "5.4")
    assert "text" in err.message and type(clue).__name__ in err.message and "empty" not in err.message


@pytest.mark.parametrize("clue", ["applepie", "manzana", "사과"])
def test_clue_may_not_be_a_part_or_a_translation(clue):  # RULES 5.4 (through the injected checker)
    err = expect_illegal(make(), {"seat": "p1", "clue": clue}, "5.4")
    assert "part or a translation" in err.message


def test_clue_is_judged_against_the_givers_own_word_only():  # RULES 5.4
    s = make(order=[3, 1, 2, 4, 5, 6])
    act(s, {"seat": "p3", "clue": "apple"})  # the spy names the citizens' word: not its own word
    expect_illegal(s, {"seat": "p1", "clue": "APPLE"}, "5.4")  # ... and now a repeat as well
    act(s, {"seat": "p1", "clue": "orchard"}, {"seat": "p2", "clue": "red"})
    act(s, {"seat": "p4", "clue": "pear"})  # the ghost has no word to break


def test_clue_may_not_repeat_any_earlier_clue_of_the_game():  # RULES 5.4
    s = make()
    act(s, {"seat": "p1", "clue": "Red"})
    expect_illegal(s, {"seat": "p2", "clue": "red"}, "5.4")
    expect_illegal(s, {"seat": "p2", "clue": " RED!"}, "5.4")
    clues(s)
    act(s, {"seat": "host", "start_vote": True})
    votes(s, {"p1": "p3", "p2": "p3", "p3": "p1", "p4": "p3", "p5": "p3", "p6": "p3"})
    expect_illegal(s, {"seat": s.speaker, "clue": "red"}, "5.4")  # a later round too


@pytest.mark.parametrize("clue, again", [("🍎", "🍎"), ("❤️", "❤"), ("!!!", " !!! "), ("🍎", "🍎!")])
def test_a_clue_without_letters_may_not_be_repeated_either(clue, again):  # RULES 5.4
    # normalize() empties a clue of symbols only, and "" never counted as the same clue: "🍎" was
    # accepted from every player in turn
    s = make()
    act(s, {"seat": "p1", "clue": clue})
    err = expect_illegal(s, {"seat": "p2", "clue": again}, "5.4")
    assert "repeats an earlier clue" in err.message
    act(s, {"seat": "p2", "clue": "🍐" if clue != "!!!" else "???"})  # another symbol is another clue


def test_one_word_mode_and_sentence_mode():  # RULES 5.4, 5.14
    s = make()
    expect_illegal(s, {"seat": "p1", "clue": "very red"}, "5.4")
    expect_illegal(s, {"seat": "p1", "clue": "   "}, "5.4")
    s = make(clue_mode="sentence")
    act(s, {"seat": "p1", "clue": "it keeps the doctor away"})
    expect_illegal(s, {"seat": "p2", "clue": "an apple a day"}, "5.4")  # the word itself inside


@pytest.mark.parametrize("clue", ["It is red. It grows on trees.", "red. round", "It is red! Sweet too?",
                                  "빨갛다. 나무에서 자란다.", "赤い。甘い。"])
def test_sentence_mode_is_one_sentence_not_several(clue):  # RULES 5.4 (one word or one sentence)
    err = expect_illegal(make(clue_mode="sentence"), {"seat": "p1", "clue": clue}, "5.4")
    assert "one sentence" in err.message


@pytest.mark.parametrize("clue", ["It is red.", "Is it red?", "Mr. Brown eats it daily", "J. K. Rowling never ate it",
                                  "grown in the U.S. mostly", "about 3.5 of them", "wait... it grows", "빨갛고 달다."])
def test_one_sentence_with_abbreviations_initials_or_an_ellipsis_is_one_sentence(clue):  # RULES 5.4
    s = act(make(clue_mode="sentence"), {"seat": "p1", "clue": clue})
    assert s.clues[-1]["clue"] == clue


@pytest.mark.parametrize("clue", ["it is red,apple", "apple/pear thing", "a red…apple", "(red)apple", "APPLE! red"])
def test_a_sentence_may_not_hold_the_word_joined_by_punctuation(clue):  # RULES 5.4
    # the built-in check split a sentence at spaces only: "red,apple" was one word "redapple"
    expect_illegal(make(clue_mode="sentence"), {"seat": "p1", "clue": clue}, "5.4")


@pytest.mark.parametrize("clue", ["red,apple", "apple/pear", "red.apple", "red_apple", "apple,apple"])
def test_a_one_word_clue_may_not_hold_the_word_joined_by_punctuation(clue):  # RULES 5.4
    # one-word mode compared the whole clue only: "red,apple" passed as one word, the clue filter too
    err = expect_illegal(make(), {"seat": "p1", "clue": clue}, "5.4")
    assert "word itself" in err.message


def test_punctuation_joined_parts_and_translations_are_judged_in_one_word_mode():  # RULES 5.4
    from engine.spyword import default_clue_checker
    assert default_clue_checker("red,applepie", "apple", "en", "word")[0] == "4.3"
    assert default_clue_checker("fruit/사과", "apple", "en", "word")[0] == "5.4"
    assert default_clue_checker("U.S.", "apple", "en", "word") is None


def test_a_sentence_may_not_hold_a_word_of_two_words():  # RULES 5.4
    s = make(clue_mode="sentence", citizen="ice cream", spy="frozen yogurt")
    for clue in ("I like ice cream a lot", "cold Ice-Cream", "ice, cream!"):
        err = expect_illegal(s, {"seat": "p1", "clue": clue}, "5.4")
        assert "word itself" in err.message
    act(s, {"seat": "p1", "clue": "nice creamy thing"})  # other words, not the word


def test_no_clue_filter_keeps_the_built_in_checks():  # RULES 5.4
    s = SpyWordState([f"p{i}" for i in range(1, 5)], "citizen citizen spy citizen".split(), "apple", "pear",
                     clue_filter=False)
    for seat in s.seats:
        act(s, {"seat": seat, "ready": True})
    act(s, {"seat": "p1", "clue": "applepie"})  # no morphology without a checker
    expect_illegal(s, {"seat": "p2", "clue": "apple"}, "5.4")


def test_speaker_timer_auto_advances_on_many_devices_only():  # RULES 5.4
    s = make()
    act(s, Timeout("speaker"))
    assert s.speaker == "p2" and s.clues[-1]["clue"] is None
    expect_illegal(make(device="single"), Timeout("speaker"), "5.4")
    expect_illegal(s, Timeout("vote"), "5.6")


def test_players_may_look_at_their_word_at_any_time():  # RULES 5.4
    s = make()
    for _ in range(3):
        assert s.observe("p3").word == "pear"
        clues(s, 1)


# RULES 5.5: discussion ----------------------------------------------------------------------------------
def test_discussion_follows_the_clues_and_the_host_starts_the_vote():  # RULES 5.5
    s = clues(make())
    assert s.phase == "discussion"
    expect_illegal(s, {"seat": "p2", "start_vote": True}, "5.5")
    act(s, {"seat": "p1", "start_vote": True})  # p1 is the host
    assert s.phase == "vote"


def test_single_device_anyone_starts_the_vote():  # RULES 5.5
    s = clues(make(device="single"))
    act(s, {"seat": "p5", "start_vote": True})
    assert s.phase == "vote"


@pytest.mark.parametrize("seconds", [60, 90, 120])
def test_discussion_time_runs_out_into_the_vote(seconds):  # RULES 5.5
    s = clues(make(discussion_seconds=seconds))
    assert s.settings.timer_seconds("discussion") == seconds
    act(s, Timeout("discussion"))
    assert s.phase == "vote"


def test_unlimited_discussion_has_no_time_out():  # RULES 5.5
    s = clues(make(discussion_seconds="unlimited"))
    expect_illegal(s, Timeout("discussion"), "5.5")
    expect_illegal(make(), {"seat": "host", "start_vote": True}, "5.5")  # not during the clues


# RULES 5.6: the vote -------------------------------------------------------------------------------------
def test_most_votes_is_eliminated():  # RULES 5.6
    s = to_vote(make())
    votes(s, {"p1": "p3", "p2": "p3", "p3": "p1", "p4": "p5", "p5": "p3", "p6": "p1"})
    assert s.eliminated == ["p3"] and s.vote_log[-1]["counts"]["p3"] == 3


def test_vote_rules_never_for_oneself_final_and_only_remaining():  # RULES 5.6
    s = to_vote(make())
    expect_illegal(s, {"seat": "p1", "vote": "p1"}, "5.6")
    expect_illegal(s, {"seat": "p1", "vote": "p9"}, "5.6")
    expect_illegal(s, {"seat": "p1", "vote": PASS}, "5.6")  # pass is off by default
    act(s, {"seat": "p1", "vote": "p2"})
    expect_illegal(s, {"seat": "p1", "vote": "p3"}, "5.6")
    assert s.observe("p2").my_vote is None and s.observe("p1").my_vote == "p2"  # secret until the end


def test_pass_counts_like_a_candidate_and_wins_ties():  # RULES 5.6
    s = to_vote(make(allow_pass=True))
    votes(s, {"p1": PASS, "p2": PASS, "p3": "p1", "p4": "p1", "p5": "p3", "p6": "p3"})
    assert s.eliminated == [] and s.vote_log[-1]["outcome"] == "pass"
    assert s.round == 2 and s.phase == "clues" and s.citizen_word == "apple"


def test_pass_with_fewer_votes_does_not_stop_the_elimination():  # RULES 5.6
    s = to_vote(make(allow_pass=True))
    votes(s, {"p1": PASS, "p2": "p3", "p3": "p1", "p4": "p3", "p5": "p3", "p6": PASS})
    assert s.eliminated == ["p3"]


def test_no_pass_right_after_a_vote_that_ended_in_pass():  # RULES 5.6
    s = to_vote(make(allow_pass=True))
    votes(s, {v: PASS for v in s.remaining()})
    to_vote(s)
    assert not s.observe("p1").pass_allowed
    expect_illegal(s, {"seat": "p1", "vote": PASS}, "5.6")
    votes(s, {"p1": "p3", "p2": "p3", "p3": "p1", "p4": "p3", "p5": "p3", "p6": "p3"})
    to_vote(s)
    assert s.pass_allowed_now()  # allowed again after a vote that did not end in PASS


def test_timed_out_vote_counts_only_the_votes_cast():  # RULES 5.6
    s = to_vote(make(allow_pass=True))
    votes(s, {"p1": "p3", "p2": "p3", "p4": "p5"})
    act(s, Timeout("vote"))  # instant: no sleeping; p3, p5 and p6 cast no vote (not a PASS)
    assert s.eliminated == ["p3"] and s.vote_log[-1]["pass"] == 0


def test_nobody_votes_all_tie_at_zero_and_lots_decide():  # RULES 5.6
    outs = set()
    for seed in range(12):
        s = to_vote(make(seed=seed))
        act(s, Timeout("vote"))
        assert s.vote_log[-1]["outcome"] == "lots" and len(s.eliminated) == 1
        outs.add(s.eliminated[0])
        again = to_vote(make(seed=seed))
        act(again, Timeout("vote"))
        assert again.eliminated == s.eliminated  # reproducible from the seed
    assert len(outs) > 2


def test_single_device_has_no_vote_timer():  # RULES 5.6
    s = to_vote(make(device="single"))
    expect_illegal(s, Timeout("vote"), "5.6")


# RULES 5.7: ties ---------------------------------------------------------------------------------------
def tie(state, a="p3", b="p5"):
    to_vote(state)
    return votes(state, {"p1": a, "p2": b, "p3": b, "p4": a, "p5": a, "p6": b})


def test_duel_tied_players_give_one_more_clue_then_the_others_vote():  # RULES 5.7
    s = tie(make(order=[5, 1, 2, 3, 4, 6]))
    assert s.phase == "duel_clues" and s.duel == ("p5", "p3") and s.speaker == "p5"
    expect_illegal(s, {"seat": "p1", "clue": "x"}, "5.7")
    clues(s)
    assert s.phase == "duel_vote" and set(s.voters) == {"p1", "p2", "p4", "p6"}
    expect_illegal(s, {"seat": "p3", "vote": "p5"}, "5.7")  # tied players do not vote
    expect_illegal(s, {"seat": "p1", "vote": "p2"}, "5.7")  # only among the tied
    expect_illegal(s, Vote("p1", PASS), "5.6")
    votes(s, {"p1": "p3", "p2": "p3", "p4": "p5", "p6": "p3"})
    assert s.eliminated == ["p3"] and [v["kind"] for v in s.vote_log] == ["vote", "duel"]


def test_no_pass_in_a_duel_even_when_allowed():  # RULES 5.6, 5.7
    s = tie(make(allow_pass=True))
    clues(s)
    expect_illegal(s, {"seat": "p1", "vote": PASS}, "5.6")


def test_duel_tied_again_draws_lots_among_the_tied():  # RULES 5.7
    s = tie(make())
    clues(s)
    votes(s, {"p1": "p3", "p2": "p5", "p4": "p3", "p6": "p5"})
    assert s.vote_log[-1]["outcome"] == "lots" and s.eliminated[0] in ("p3", "p5")


def test_duel_without_voters_draws_lots_at_once():  # RULES 5.7
    s = to_vote(make("ccsc"))
    votes(s, {"p1": "p2", "p2": "p3", "p3": "p4", "p4": "p1"})  # all four tied
    assert s.vote_log[-1]["outcome"] == "lots" and len(s.eliminated) == 1


def test_lottery_tie_break_draws_at_once():  # RULES 5.7, 5.14
    s = tie(make(tie_break="lottery"))
    assert s.vote_log[-1]["outcome"] == "lots" and s.eliminated[0] in ("p3", "p5")


# RULES 5.8: vote display ---------------------------------------------------------------------------------
def test_vote_display_public_or_counts_only():  # RULES 5.8
    for display, shown in (("public", True), ("counts", False)):
        s = make(vote_display=display)
        eliminate(s, "p3")
        seen = s.observe("p1").votes[-1]
        assert ("votes" in seen) is shown and seen["counts"]["p3"] == 5


# RULES 5.9: elimination ------------------------------------------------------------------------------------
def test_eliminated_player_is_a_spectator():  # RULES 5.9
    s = eliminate(make(), "p2")
    expect_illegal(s, {"seat": "p2", "clue": "z"}, "5.9")
    to_vote(s)
    expect_illegal(s, {"seat": "p2", "vote": "p3"}, "5.9")
    expect_illegal(s, {"seat": "p1", "vote": "p2"}, "5.6")  # nor voted for
    obs = s.observe("p1")
    assert obs.eliminated == ({"seat": "p2", "round": 1, "by": "vote", "role": "citizen"},)
    assert s.observe("p2").is_spectator and s.observe("p2").word == "apple"


def test_hidden_roles_give_every_eliminated_player_a_private_screen():  # RULES 5.9
    s = eliminate(make(reveal_eliminated_role=False), "p2")
    assert s.phase == "private_screen" and s.observe("p1").eliminated[0].get("role") is None
    assert s.observe("p2").private_screen == {"kind": "role", "role": "citizen"}
    assert s.observe("p1").private_screen is None
    expect_illegal(s, {"seat": "p2", "ghost_guess": "apple"}, "5.10")
    act(s, {"seat": "p2", "dismiss": True})
    eliminate(s, "p4")
    assert s.phase == "private_screen"  # the same public phase: the ghost is not exposed
    assert s.observe("p4").private_screen == {"kind": "ghost_guess"}
    expect_illegal(s, {"seat": "p4", "dismiss": True}, "5.10")


# RULES 5.10: the ghost's guess -----------------------------------------------------------------------------
def test_ghost_right_guess_wins_alone_at_once():  # RULES 5.10, 5.11
    s = eliminate(make(), "p4")
    assert s.phase == "ghost_guess"
    expect_illegal(s, {"seat": "p1", "ghost_guess": "apple"}, "5.10")
    act(s, {"seat": "p4", "ghost_guess": "  Apple! "})
    assert s.winner == "ghost" and s.outcome().winners == ("p4",)


def test_ghost_wrong_guess_is_out_and_the_word_stays_hidden():  # RULES 5.10
    s = eliminate(make(), "p4")
    act(s, {"seat": "p4", "ghost_guess": "banana"})
    assert s.phase == "clues" and s.round == 2
    obs = s.observe("p1")
    assert obs.ghost_guesses == ({"seat": "p4", "round": 1, "guess": "banana"},)
    assert "apple" not in repr(s.observe("p4"))


def test_wrong_guess_stays_hidden_with_hidden_roles():  # RULES 5.10
    s = eliminate(make(reveal_eliminated_role=False), "p4")
    act(s, {"seat": "p4", "ghost_guess": "banana"})
    assert s.observe("p1").ghost_guesses == () and s.observe("p4").ghost_guesses[0]["guess"] == "banana"


def test_a_guess_matching_the_spy_word_too_is_refused():  # RULES 5.10
    s = eliminate(make(citizen="coffee", spy="toffee"), "p4")
    act(s, {"seat": "p4", "ghost_guess": "Xoffee"})
    assert s.winner is None and s.ghost_guesses[-1]["right"] is False


@pytest.mark.parametrize("word", [None, 7, ["apple"], "", "   ", "apple" * 100])
def test_a_ghost_guess_that_names_no_word_is_refused_and_the_guess_is_kept(word):  # RULES 5.10
    # it was taken as a wrong guess: the ghost lost its one guess (and None left a record that did not replay)
    s = eliminate(make(), "p4")
    expect_illegal(s, GhostGuess("p4", word), "5.10")
    act(s, {"seat": "p4", "ghost_guess": "apple"})
    assert s.winner == "ghost"


def test_ghost_guess_time_out_is_wrong():  # RULES 5.10
    assert SpyWordSettings().ghost_guess_seconds == 45
    assert SpyWordSettings(reveal_eliminated_role=False).ghost_guess_seconds == 60
    assert SpyWordSettings(device="single").ghost_guess_seconds is None
    s = eliminate(make(), "p4")
    act(s, Timeout("ghost_guess"))
    assert s.ghost_guesses[-1] == {"seat": "p4", "round": 1, "guess": None, "right": False, "timed_out": True}
    s = eliminate(make(device="single"), "p4")
    expect_illegal(s, Timeout("ghost_guess"), "5.10")


def test_ghost_who_leaves_gets_no_guess():  # RULES 5.10, 5.12
    s = eliminate(make("ccsgccc"), "p4")
    act(s, {"seat": "p4", "leave": True})
    assert s.winner is None and s.ghost_guesses[-1]["left"] and s.phase == "clues"
    expect_illegal(s, {"seat": "p4", "ghost_guess": "apple"}, "5.12")


# RULES 5.11: winning ---------------------------------------------------------------------------------------
def test_citizens_win_when_no_spy_and_no_ghost_remain():  # RULES 5.11
    s = eliminate(make(), "p3")
    assert s.winner is None
    eliminate(s, "p4")
    act(s, {"seat": "p4", "ghost_guess": "pear"})
    assert s.winner == "citizens" and s.outcome().winners == ("p1", "p2", "p5", "p6")


def test_spies_and_ghost_win_when_one_citizen_remains():  # RULES 5.11
    s = eliminate(make("ccsgc"), "p4")
    act(s, {"seat": "p4", "ghost_guess": "plum"})
    eliminate(s, "p1")
    assert s.winner is None
    eliminate(s, "p2")
    assert s.winner == "spies" and s.outcome().winners == ("p3", "p4")  # the eliminated ghost wins too
    expect_illegal(s, {"seat": "p5", "clue": "x"}, "5.11")


def test_ghost_guess_comes_before_the_citizens_win():  # RULES 5.11 (order)
    s = eliminate(make(), "p3")
    eliminate(s, "p4")  # no spy and no ghost remain, but the ghost guesses first
    assert s.winner is None and s.phase == "ghost_guess"
    act(s, {"seat": "p4", "ghost_guess": "apple"})
    assert s.winner == "ghost"


# RULES 5.12: leaving, kicking, host ---------------------------------------------------------------------------
def test_leaving_counts_as_elimination():  # RULES 5.12
    s = make("ccsgccc")
    act(s, {"seat": "p2", "leave": True})
    assert s.eliminated == ["p2"] and s.departed == ["p2"] and s.phase == "clues"
    clues(s)
    assert [c["seat"] for c in s.clues] == ["p1", "p3", "p4", "p5", "p6", "p7"]


def test_only_the_host_kicks():  # RULES 5.12
    s = make("ccsgccc")
    expect_illegal(s, {"seat": "p2", "kick": "p3"}, "5.12")
    expect_illegal(s, {"seat": "host", "kick": "p1"}, "5.12")
    act(s, {"seat": "host", "kick": "p3"})
    assert s.winner is None and s.eliminated == ["p3"]
    eliminate(s, "p4")
    act(s, {"seat": "p4", "ghost_guess": "x"})
    assert s.winner == "citizens"


def test_fewer_than_four_in_the_room_ends_with_no_winner():  # RULES 5.12
    s = make("ccsc")
    act(s, {"seat": "p2", "leave": True})
    assert s.status() == "aborted" and s.winner is None
    expect_illegal(s, {"seat": "p1", "clue": "x"}, "5.12")


def test_departure_that_decides_a_winner_is_not_a_no_winner_end():  # RULES 5.12
    s = make("ccsc")
    act(s, {"seat": "p3", "leave": True})  # the only spy left: citizens win
    assert s.winner == "citizens" and s.status() == "finished"


def test_eliminated_players_count_in_the_room():  # RULES 5.12
    s = eliminate(make("ccsgc"), "p1")
    act(s, {"seat": "p1", "leave": True})  # a spectator leaves: 4 in the room
    assert s.status() == "playing"
    act(s, {"seat": "p2", "leave": True})
    assert s.winner == "spies"  # one citizen remains: decided, not aborted


@pytest.mark.parametrize("how", [{"seat": "p3", "leave": True}, {"seat": "host", "kick": "p3"}])
def test_a_spectator_leaving_takes_no_guess_from_the_ghost(how):  # RULES 5.10, 5.11, 5.12
    s = eliminate(make(), "p3")          # the spy is out: a spectator
    eliminate(s, "p4")                   # the ghost is out: its one guess is pending
    act(s, how)                          # the spectator leaves, or is kicked: 5 still in the room
    assert s.status() == "playing" and "p4" in s.to_act()
    act(s, {"seat": "p4", "ghost_guess": "apple"})
    assert s.winner == "ghost"           # the ghost guessed the citizens' word: it wins alone


def test_a_spectator_leaving_mid_vote_voids_no_vote():  # RULES 5.6, 5.12
    s = to_vote(eliminate(make("ccsgccc"), "p1"))
    votes(s, {"p2": "p3"})
    act(s, {"seat": "p1", "leave": True})
    assert s.votes == {"p2": "p3"} and s.phase == "vote"


def test_leaving_and_kicking_are_many_device_rules():  # RULES 5.12
    s = make(device="single")
    expect_illegal(s, {"seat": "p2", "leave": True}, "5.12")
    expect_illegal(s, {"seat": "host", "kick": "p2"}, "5.12")


def test_host_leaves_the_next_player_becomes_host():  # RULES 5.12
    s = make("ccsgccc")
    act(s, {"seat": "p2", "disconnect": True})
    act(s, {"seat": "p1", "leave": True})
    assert s.host == "p3"  # p2 is not logged in
    act(s, {"seat": "host", "kick": "p6"})
    assert "p6" in s.departed


def test_disconnected_host_is_replaced_after_the_notice():  # RULES 5.12
    s = make()
    expect_illegal(s, Timeout("host_notice"), "5.12")
    act(s, {"seat": "p1", "disconnect": True})
    expect_illegal(s, {"seat": "p1", "clue": "x"}, "5.12")
    expect_illegal(s, Timeout("host_replace"), "5.12")  # 1 minute notice first
    act(s, Timeout("host_notice"), Timeout("host_replace"))
    assert s.host == "p2" and "p1" in s.seats and s.status() == "playing"
    act(s, {"seat": "p1", "reconnect": True}, {"seat": "p1", "clue": "x"})


def test_timers_do_not_wait_for_a_disconnected_player():  # RULES 5.12
    s = make()
    act(s, {"seat": "p1", "disconnect": True}, Timeout("speaker"))
    assert s.speaker == "p2"


def test_a_departure_during_a_vote_voids_every_vote():  # RULES 5.12 (docs/spyword.md)
    s = to_vote(make("ccsgccc"))
    votes(s, {"p1": "p3", "p2": "p7"})
    act(s, {"seat": "p7", "leave": True})
    assert s.phase == "vote" and s.votes == {} and {"p1", "p2"} <= set(s.to_act())


@pytest.mark.parametrize("display", ["public", "counts"])
def test_a_departure_shows_nobody_who_voted_for_the_departed(display):  # RULES 5.6, 5.8, 5.12
    """An attacker (here the host, kicking a player mid-vote) reads every other seat's view before
    and after: what it sees must not depend on who had voted for the kicked player."""
    def after(ballots):
        s = to_vote(make("ccsgccc", vote_display=display))
        votes(s, ballots)
        act(s, {"seat": "host", "kick": "p7"})
        return [(o.voted, o.to_act, o.votes, o.my_vote) for o in (s.observe(x) for x in ("p1", "p4", "p5"))]

    assert after({"p2": "p7", "p3": "p4"}) == after({"p2": "p4", "p3": "p7"}) == after({"p2": "p4", "p3": "p5"})


# RULES 5.13 / 5.14 ---------------------------------------------------------------------------------------------
def test_end_report_lists_winner_words_roles_and_votes():  # RULES 5.13
    s = eliminate(make(), "p3")
    eliminate(s, "p4")
    act(s, {"seat": "p4", "ghost_guess": "kiwi"})
    report = s.observe("p2").report
    assert report["winner"] == "citizens" and report["citizen_word"] == "apple" and report["spy_word"] == "pear"
    assert report["roles"] == {"p1": "citizen", "p2": "citizen", "p3": "spy", "p4": "ghost", "p5": "citizen",
                               "p6": "citizen"}
    assert [v["round"] for v in report["votes"]] == [1, 2] and report["votes"][0]["votes"]["p3"] == "p1"
    assert s.observe("p3").role == "spy"  # everything is shown at the end


def test_host_settings_defaults():  # RULES 5.14
    d = SpyWordSettings()
    assert (d.spies, d.ghost, d.reveal_spy_role, d.reveal_eliminated_role, d.vote_display, d.allow_pass,
            d.clue_mode, d.discussion_seconds, d.tie_break) == (None, None, False, True, "public", False, "word", 90,
                                                                "duel")
    assert (d.speaker_seconds, d.vote_seconds) == (30, 30)
    with pytest.raises(MalformedRecord):
        SpyWordSettings(discussion_seconds=45)
    with pytest.raises(MalformedRecord):
        SpyWordSettings(tie_break="coin")


def test_clock_and_host_seats_cannot_do_other_things():  # RULES 5.4, 5.1
    s = make()
    expect_illegal(s, {"seat": "clock", "clue": "x"}, "5.4")
    expect_illegal(s, Timeout("speaker", seat="p1"), "5.4")
    expect_illegal(s, {"seat": "p99", "clue": "x"}, "5.1")


def _pack_words(language):
    import json

    from engine.paths import data_path

    packs = json.loads(data_path("spyword", f"packs_{language}.json").read_text(encoding="utf-8"))["packs"]
    return [w for p in packs for w in p["words"]]


def test_every_pack_word_has_its_translations_listed():  # RULES 5.4 ("not a translation of it")
    from engine.spyword.translations import table
    from engine.spyword.matching import normalize

    for language in ("ko", "en"):
        for word in _pack_words(language):
            assert table().get(normalize(word)), f"{word} has no listed translation"


@pytest.mark.parametrize("language, word, translation, other", [
    ("ko", "사과", "apple", "배"), ("ko", "사과", "Apple", "pear"), ("en", "taxi", "택시", "bus"),
    ("en", "apple", "사과", "pear")])
def test_a_translation_of_a_pack_word_is_refused_by_default(language, word, translation, other):  # RULES 5.4
    seats = [f"p{i}" for i in range(1, 7)]
    s = SpyWordState(seats, ["citizen", "citizen", "spy", "ghost", "citizen", "citizen"], word, other,
                     order=seats, settings=SpyWordSettings(spies=1, ghost=True), language=language)
    for seat in seats:
        act(s, {"seat": seat, "ready": True})
    err = expect_illegal(s, {"seat": "p1", "clue": translation}, "5.4")
    assert ("번역" if language == "ko" else "translation") in err.message   # the verdict in the game's language
    act(s, {"seat": "p1", "clue": other})        # the pack's other word is no translation of this one


@pytest.mark.parametrize("language, word, clue, other, mode", [
    ("ko", "사과", "apples", "배", "word"), ("ko", "사과", "I like apples", "배", "sentence"),
    ("ko", "택시", "Taxis", "버스", "word"), ("en", "apple", "사과를", "pear", "word"),
    ("en", "apple", "나는 사과가 좋아", "pear", "sentence")])
def test_a_form_of_a_translation_is_a_translation_too(language, word, clue, other, mode):  # RULES 5.4
    """5.4 "not a translation of it": the translation in another form (a plural, a particle)
    translates the word as the bare translation does, just as a form of the word itself is refused."""
    seats = [f"p{i}" for i in range(1, 7)]
    s = SpyWordState(seats, ["citizen", "citizen", "spy", "ghost", "citizen", "citizen"], word, other,
                     order=seats, settings=SpyWordSettings(spies=1, ghost=True, clue_mode=mode), language=language)
    for seat in seats:
        act(s, {"seat": seat, "ready": True})
    err = expect_illegal(s, {"seat": "p1", "clue": clue}, "5.4")
    assert ("번역" if language == "ko" else "translation") in err.message   # the verdict in the game's language
    act(s, {"seat": "p1", "clue": "pineapples" if language == "ko" else "사과나무"})  # holds it, another thing


# Rules audit 9: rulebook details (seed 002) that had no test citing their section ---------------------------
def test_hidden_roles_check_the_win_before_the_private_screen():  # RULES 5.9, 5.11
    s = eliminate(make("cccs", reveal_eliminated_role=False), "p4")
    assert s.winner == "citizens" and s.phase == "finished" and s.pending is None


@pytest.mark.parametrize("device", ["multi", "single"])
def test_the_timers_of_each_device(device):  # RULES 5.4, 5.5, 5.6, 5.10, 5.12
    multi = device == "multi"
    st = SpyWordSettings(device=device)
    assert st.timer_seconds("speaker") == (30 if multi else None)       # 5.4: no speaking timer on one phone
    assert st.timer_seconds("vote") == (30 if multi else None)          # 5.6
    assert st.timer_seconds("discussion") == 90                         # 5.5: the discussion is timed on both
    assert st.timer_seconds("ghost_guess") == (45 if multi else None)   # 5.10: 45 s with roles revealed
    assert SpyWordSettings(device=device, reveal_eliminated_role=False).ghost_guess_seconds == (60 if multi else None)
    # 5.12: connections (and the host's notice and replacement) are a many-device matter
    assert (st.timer_seconds("host_notice"), st.timer_seconds("host_replace")) == ((60, 120) if multi else (None, None))
    s = clues(make(device=device))
    act(s, Timeout("discussion"))
    assert s.phase == "vote"


def test_end_report_with_counts_only_gives_the_counts_not_the_voters():  # RULES 5.13, 5.8
    s = eliminate(make(vote_display="counts"), "p3")
    eliminate(s, "p4")
    act(s, {"seat": "p4", "ghost_guess": "kiwi"})
    report = s.end_report()
    assert s.winner == "citizens" and [v["eliminated"] for v in report["votes"]] == ["p3", "p4"]
    assert all("votes" not in v for v in report["votes"]) and report["votes"][0]["counts"]["p3"] == 5


def test_a_round_after_an_eliminated_first_speaker_starts_with_the_next_remaining():  # RULES 5.4
    s = eliminate(make(order=[1, 2, 3, 4, 5, 6]), "p1")
    assert s.round == 2 and s.round_order == ("p2", "p3", "p4", "p5", "p6")
    eliminate(s, "p2")                                                  # p2 spoke first in round 2
    assert s.round == 3 and s.round_order[0] == "p3"


def test_an_eliminated_players_word_stays_hidden_until_the_end():  # RULES 5.9, 5.13
    s = eliminate(make(), "p3")                                         # the spy, word "pear"
    for seat in ("p1", "p2", "p5"):
        obs = s.observe(seat)
        assert obs.word == "apple" and obs.report is None
        assert all(set(e) == {"seat", "round", "by", "role"} for e in obs.eliminated)   # no word shown
    assert s.observe("p3").word == "pear"                               # its own word, to itself only
    eliminate(s, "p4")
    act(s, {"seat": "p4", "ghost_guess": "kiwi"})
    assert s.observe("p1").report["spy_word"] == "pear"                 # shown at the end


def test_no_host_replacement_is_offered_when_nobody_connected_can_take_over():  # RULES 5.12
    s = make("ccscc")
    for p in ("p1", "p2", "p3", "p4", "p5"):
        act(s, {"seat": p, "disconnect": True})
    act(s, Timeout("host_notice"))
    assert Timeout("host_replace") not in s.legal_actions()   # legal_actions lists only what apply takes
    expect_illegal(s, Timeout("host_replace"), "5.12")
    act(s, {"seat": "p4", "reconnect": True})
    assert Timeout("host_replace") in s.legal_actions()
    act(s, Timeout("host_replace"))
    assert s.host == "p4"


def test_a_refused_guess_or_sentence_text_is_named_as_what_it_is():  # RULES 5.4, 5.10
    # the shared clue-text message said "A clue is one word: at most 256 characters" of a ghost's
    # guess and of a sentence clue
    s = eliminate(make(), "p4")
    err = expect_illegal(s, GhostGuess("p4", "o" * 300), "5.10")
    assert err.message == "the ghost's guess is at most 256 characters, not 300"
    err = expect_illegal(s, GhostGuess("p4", "oc\u200bean"), "5.10")
    assert err.message == "the ghost's guess may not hold an invisible character (U+200B)"
    s = make(clue_mode="sentence")
    err = expect_illegal(s, {"seat": "p1", "clue": "red " * 69 + "red"}, "5.4")
    assert err.message == "a sentence clue is at most 256 characters, not 279"
    err = expect_illegal(make(), {"seat": "p1", "clue": "r" * 70}, "5.4")
    assert err.message == "a one-word clue is at most 64 characters, not 70"


@pytest.mark.parametrize("language,cited", [("ko", "(규칙 4.3)"), ("en", "(RULES 4.3)")])
def test_a_checkers_refusal_cites_its_rule_in_the_games_language(language, cited):  # RULES 5.4
    """The clue checker answers in the game's language (the clue filter's Korean verdicts in a Korean
    game), and the refusal cited its rule in English after it: '... 들어 있는 단어입니다: 사과나무
    (RULES 4.3)'. Now a Korean game cites '(규칙 4.3)', as the Korean pages and the play harness do."""
    from test_spyword_helpers import LETTERS

    seats = [f"p{i}" for i in range(1, 7)]
    state = SpyWordState(seats, [LETTERS[r] for r in "ccsgcc"], "사과", "배", seed=0, language=language,
                         settings=SpyWordSettings(spies=1, ghost=True),
                         clue_checker=lambda clue, word, lang, mode: ("4.3", f"[{lang}]"))
    for s in seats:
        act(state, {"seat": s, "ready": True})
    err = expect_illegal(state, {"seat": state.speaker, "clue": "사과나무"}, "5.4")
    assert err.message == f"[{language}] {cited}"
