"""Duet games that end each way the rulebook knows, written as records: the record goes to JSON and
back byte for byte, and its replay reaches the same state (RULES 3.5, 3.9, 3.10, 3.11, 4.8)."""

from __future__ import annotations

import pytest

from conftest import WORDS, make_key, snapshot
from engine import Clue, Guess, Stop
from engine.duet import DuetConfig, DuetRecord, DuetState
from engine.records import record_from_json, record_to_json, replay_summary

GN, NG, XN, NN = ("G", "N"), ("N", "G"), ("X", "N"), ("N", "N")
KEY = make_key({})
A_GREENS = [WORDS[i] for i in range(25) if KEY.a[i] == "G"]
B_ONLY = [WORDS[i] for i in range(25) if KEY.b[i] == "G" and KEY.a[i] != "G"]
A_BEIGE = [WORDS[i] for i in range(25) if KEY.a[i] == "N"]


def _referee(word, number, board, covered, language):
    return ("4.3", f"{word} is on the board") if word in board else None


def _all_greens():
    return [Clue("A", "x", 9)] + [Guess("B", w) for w in A_GREENS] + [Clue("B", "y", 6)] + [Guess("A", w) for w in B_ONLY]


ENDINGS = {
    # name: (cells, config, actions, phase, loss reason, score)
    "all greens": ({}, DuetConfig(), _all_greens(), "won", None, 3 * 7 + 2),
    "assassin": ({0: XN}, DuetConfig(), [Clue("A", "x", 1), Guess("B", "w00")], "lost", "assassin", None),
    "tokens out (mission)": ({0: GN, 1: NN}, DuetConfig(timer_tokens=2, mistakes=0),
                             [Clue("A", "x", 1), Guess("B", "w00"), Stop("B"), Clue("B", "x", 1), Guess("A", "w01")],
                             "lost", "out_of_tokens", None),
    "sudden death loss": ({0: NN, 1: NN, 2: NN}, DuetConfig(timer_tokens=2),
                          [Clue("A", "x", 1), Guess("B", "w00"), Clue("B", "y", 1), Guess("A", "w01"),
                           Guess("A", "w02")], "lost", "sudden_death_miss", None),
    "sudden death win": ({}, DuetConfig(timer_tokens=1),
                         [Clue("A", "x", 1), Guess("B", A_BEIGE[0])] + [Guess("B", w) for w in A_GREENS]
                         + [Guess("A", w) for w in B_ONLY], "won", None, None),
    "mission still playing": ({}, DuetConfig(timer_tokens=9, mistakes=5, mission="cairo"),
                              [Clue("A", "x", 1), Guess("B", A_BEIGE[0]), Clue("B", "y", 1), Guess("A", B_ONLY[0]),
                               Stop("A")], "playing", None, None),
}


@pytest.mark.parametrize("name", list(ENDINGS))
def test_a_record_of_each_ending_round_trips_and_replays_to_the_same_state(name):  # RULES 3.9, 3.10
    cells, config, actions, phase, reason, score = ENDINGS[name]
    key = make_key(cells)
    played = DuetState(WORDS, key, config)
    for action in actions:
        played.apply(action)
    outcome = played.outcome()
    assert (outcome.phase, outcome.loss_reason, outcome.score) == (phase, reason, score)
    record = DuetRecord(words=list(WORDS), key=key, config=config, actions=list(actions))
    text = record_to_json(record)
    again = record_from_json(text)
    assert record_to_json(again) == text
    replayed = again.replay()
    assert snapshot(replayed) == snapshot(played)
    assert [replayed.observe(s) for s in "AB"] == [played.observe(s) for s in "AB"]
    assert replay_summary(again)["status"] == phase


def test_a_penalized_clue_round_trips_with_its_discarded_token():  # RULES 4.8
    config = DuetConfig(invalid_clue="penalize", language="en")
    actions = [Clue("A", "w03", 1), Guess("B", A_GREENS[0]), Stop("B")]
    played = DuetState(WORDS, KEY, config, referee=_referee)
    for action in actions:
        played.apply(action)
    assert played.tokens_left == 7 and played.tokens_discarded == 1
    again = DuetRecord.from_dict(DuetRecord(words=list(WORDS), key=KEY, config=config, actions=actions).to_dict())
    replayed = DuetState(again.words, again.key, again.config, referee=_referee)
    for action in again.actions:
        replayed.apply(action)
    assert snapshot(replayed) == snapshot(played)


def test_a_penalty_that_takes_the_last_token_leaves_the_turn_nothing_to_pay_with():  # RULES 4.8, 3.10
    """docs/rules.md 4.8: the guesser still guesses; the turn's end finds no token and loses."""
    config = DuetConfig(timer_tokens=1, invalid_clue="penalize", language="en")
    s = DuetState(WORDS, make_key({0: GN}), config, referee=_referee)
    s.apply(Clue("A", "w03", 1))
    assert s.tokens_left == 0 and s.phase == "guess"
    s.apply(Guess("B", "w00"))
    s.apply(Stop("B"))
    assert s.outcome().phase == "lost" and s.outcome().loss_reason == "out_of_tokens"
    assert not s.went_to_sudden_death
