"""Game records: round trip, validation, replay, determinism.  RULES 3"""

import json

import pytest

from engine import Clue, Guess, IllegalAction, MalformedRecord, Stop
from engine.duet import DuetConfig, DuetRecord, deal_duet, replay_summary
from engine.records import record_from_json, record_to_json

POOL = [f"word{i}" for i in range(60)]


def test_same_seed_same_record_byte_for_byte():
    a = record_to_json(deal_duet(7, POOL))
    b = record_to_json(deal_duet(7, POOL))
    assert a == b
    assert record_to_json(deal_duet(8, POOL)) != a


def test_record_round_trip_keeps_added_fields():
    rec = deal_duet(1, POOL, DuetConfig(timer_tokens=11))
    rec.actions = [Clue("A", "x", 2), Guess("B", rec.words[0]), Stop("B")]
    data = rec.to_dict() | {"notes": {"spymaster": "margin:use-m3"}}
    again = DuetRecord.from_dict(json.loads(json.dumps(data)))
    assert again.to_dict() == data


def test_record_has_the_fixed_shape():
    data = deal_duet(7, POOL).to_dict()
    assert data["game"] == "duet" and data["version"] == 1 and data["seed"] == 7
    assert len(data["words"]) == 25 and set(data["key"]) == {"A", "B"}
    assert {"timer_tokens", "mistakes", "mission"} <= set(data["config"])
    assert data["actions"] == []


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.pop("words"), "words"),
    (lambda d: d.__setitem__("words", d["words"][:24]), "words"),
    (lambda d: d["key"].__setitem__("A", "G" * 25), "3.2"),
    (lambda d: d.__setitem__("game", "chess"), "Duet"),
    (lambda d: d.__setitem__("actions", [{"seat": "A"}]), "action 0"),
    (lambda d: d.__setitem__("actions", [{"seat": "A", "clue": "x", "number": "two"}]), "number"),
    (lambda d: d["config"].__setitem__("timer_tokens", 0), "timer_tokens"),
])
def test_malformed_records_are_refused(mutate, message):
    data = deal_duet(7, POOL).to_dict()
    mutate(data)
    with pytest.raises(MalformedRecord, match=message):
        DuetRecord.from_dict(data)


def test_not_json_is_malformed():
    with pytest.raises(MalformedRecord):
        record_from_json("{not json")


def test_replay_names_the_index_of_the_illegal_action():
    rec = deal_duet(7, POOL)
    rec.actions = [Clue("A", "x", 1), Stop("B")]
    with pytest.raises(IllegalAction) as err:
        rec.replay()
    assert err.value.index == 1 and err.value.rule == "3.6"
    assert "action 1" in str(err.value) and "RULES 3.6" in str(err.value)


def test_replay_summary_of_a_fresh_game():
    summary = replay_summary(deal_duet(7, POOL).replay())
    assert summary == {"game": "duet", "status": "playing", "greens_found": 0, "tokens_left": 9,
                       "turns_used": 0, "mistakes": 0, "score": None, "loss_reason": None}


def test_deal_never_puts_one_word_twice_on_the_board():  # RULES 3.1: 25 different words (CRANE is crane)
    """A word list that spells one word in several cases still deals a playable board: one of the
    spellings, never two (the engine refuses such a board), and it counts once towards the 25."""
    pool = [f"w{i:02d}" for i in range(24)] + ["Crane", "crane", "CRANE"]
    for seed in range(30):
        rec = deal_duet(seed, pool)
        assert sum(w.lower() == "crane" for w in rec.words) == 1
        rec.new_state()
    with pytest.raises(ValueError, match="distinct"):
        deal_duet(0, pool[:23] + ["Crane", "crane", "CRANE"])


@pytest.mark.parametrize("bad", ["crane\r", "\ufeffcrane", "crane ", "", "ice\tcream", "x" * 65])
def test_a_word_list_with_a_word_no_card_can_show_is_refused_whatever_the_seed(bad):  # RULES 3.1
    """A word of a CRLF file ("crane\\r"), a byte-order mark, a trailing space, a blank line or a tab
    was dealt onto the board of most seeds, a record the engine then refused (and on the other seeds
    the game went on): the dealer refuses the list, naming the word, before any deal."""
    pool = [f"w{i:02d}" for i in range(40)] + [bad]
    for seed in range(8):
        with pytest.raises(ValueError, match="RULES .*3.1: the board word"):
            deal_duet(seed, pool)
    rec = deal_duet(0, pool[:40] + ["crane", "ice cream", "snow-man", "K9", "café"])   # such words are fine
    rec.new_state()
    assert deal_duet(3, iter(pool[:40])).words == deal_duet(3, pool[:40]).words   # a generator, read once


@pytest.mark.parametrize("seed", [2**64, -1, True, 1.5, "7"])
def test_a_seed_no_record_can_hold_is_refused_before_the_deal(seed):  # RULES 3.1 (records hold 0..2**64-1)
    """deal_duet(2**64, words) and deal_duet(True, words) dealt records the reader then refused ('seed'
    must be ... 0..2**64-1); -1 and 1.5 were numpy's own errors. One ValueError now, before any deal."""
    with pytest.raises(ValueError, match="a deal's seed is a whole number 0..2[*][*]64-1"):
        deal_duet(seed, POOL)
    for ok in (0, 2**64 - 1, [2**64 - 1, 3, 2**127]):   # a list: numpy's seed-sequence form, as the simulators deal
        record_from_json(record_to_json(deal_duet(ok, POOL)))
