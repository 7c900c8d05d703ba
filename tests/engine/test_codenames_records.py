"""Codenames / Pictures records: round trip, validation, replay, determinism.  RULES 1, 2"""

from __future__ import annotations

import json

import pytest

from engine import UNLIMITED, Clue, Cover, Guess, IllegalAction, MalformedRecord, Stop
from engine.codenames import CodenamesConfig, CodenamesRecord, deal_codenames, replay_summary
from engine.records import record_from_dict, record_from_json, record_to_json
from engine.records import replay_summary as any_replay_summary

POOL = [f"word{i}" for i in range(60)]


def test_same_seed_same_record_byte_for_byte():
    a = record_to_json(deal_codenames(7, POOL))
    assert a == record_to_json(deal_codenames(7, POOL))
    assert a != record_to_json(deal_codenames(8, POOL))


def test_record_has_the_duet_shape_with_a_letter_key():  # RULES 1.1
    data = deal_codenames(7, POOL).to_dict()
    assert data["game"] == "codenames" and data["version"] == 1 and data["seed"] == 7
    assert len(data["words"]) == 25 and isinstance(data["key"], str) and len(data["key"]) == 25
    assert set(data["key"]) == {"R", "B", "N", "X"} and data["starts"] in ("red", "blue")
    assert data["config"]["variant"] == "teams" and data["config"]["invalid_clue"] == "allow"
    assert data["actions"] == []


def test_pictures_records_have_20_cards():  # RULES 2.1
    data = deal_codenames(1, POOL, CodenamesConfig(game="pictures")).to_dict()
    assert data["game"] == "pictures" and len(data["words"]) == 20
    assert sorted(data["key"].replace("R", "S").replace("B", "S")) == sorted("S" * 15 + "N" * 4 + "X")


def test_round_trip_with_every_action_kind_keeps_added_fields():
    rec = deal_codenames(3, POOL, CodenamesConfig(variant="two_player"))
    ours = rec.key.starts
    own = [w for w, c in zip(rec.words, rec.key.letters) if c == ours[0].upper()]
    opp = [w for w, c in zip(rec.words, rec.key.letters) if c not in (ours[0].upper(), "N", "X")]
    rec.actions = [Clue(f"{ours}-spymaster", "x", UNLIMITED), Guess(f"{ours}-guesser", own[0]),
                   Stop(f"{ours}-guesser"), Cover(f"{ours}-spymaster", opp[0]), Clue(f"{ours}-spymaster", "y", 0)]
    data = rec.to_dict() | {"notes": {"agent": "baseline"}}
    text = json.dumps(data, ensure_ascii=False)
    again = record_from_json(text)
    assert isinstance(again, CodenamesRecord) and again.to_dict() == data
    assert data["actions"][0] == {"seat": f"{ours}-spymaster", "clue": "x", "number": "unlimited"}
    s = again.replay()
    assert s.turns_used == 2 and s.phase == "guess"


def test_starts_may_be_omitted_and_is_derived():  # RULES 1.1
    data = deal_codenames(2, POOL).to_dict()
    starts = data.pop("starts")
    assert record_from_dict(data).key.starts == starts


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.pop("words"), "words"),
    (lambda d: d.__setitem__("words", d["words"][:24]), "words"),
    (lambda d: d.__setitem__("key", "R" * 25), "1.1"),
    (lambda d: d.__setitem__("starts", "green"), "starts"),
    (lambda d: d.__setitem__("key", ["R"]), "key"),
    (lambda d: d.__setitem__("version", 9), "version"),
    (lambda d: d["config"].__setitem__("variant", "solo"), "variant"),
    (lambda d: d["config"].__setitem__("invalid_clue", "maybe"), "invalid_clue"),
    (lambda d: d["config"].__setitem__("game", "pictures"), "game"),
    (lambda d: d.__setitem__("actions", [{"seat": "red-guesser"}]), "action 0"),
    (lambda d: d.__setitem__("actions", [{"seat": "red-spymaster", "clue": "x", "number": "lots"}]), "number"),
])
def test_malformed_records_are_refused(mutate, message):
    data = deal_codenames(4, POOL).to_dict()
    mutate(data)
    with pytest.raises(MalformedRecord, match=message):
        record_from_dict(data)


def test_replay_stops_at_the_illegal_action_with_its_index_and_rule():
    rec = deal_codenames(5, POOL)
    t = rec.key.starts
    rec.actions = [Clue(f"{t}-spymaster", "x", 1), Stop(f"{t}-guesser")]
    with pytest.raises(IllegalAction) as err:
        rec.replay()
    assert err.value.index == 1 and err.value.rule == "1.4" and "action 1: RULES 1.4" in str(err.value)


def test_replay_summary_fields():
    rec = deal_codenames(6, POOL, CodenamesConfig(variant="single_team"))
    assassin = rec.words[rec.key.letters.index("X")]
    rec.actions = [Clue("red-spymaster", "x", 1), Guess("red-guesser", assassin)]
    summary = any_replay_summary(rec)
    assert summary == replay_summary(rec.replay())
    assert {k: summary[k] for k in ("status", "winner", "loss_reason", "turns_used", "score",
                                     "competition_score")} == {
        "status": "finished", "winner": "blue", "loss_reason": "assassin", "turns_used": 1,
        "score": None, "competition_score": 25}


def test_a_penalised_clue_is_recorded_and_replays_the_same():  # RULES 1.6
    from test_codenames_support import FakeReferee

    rec = deal_codenames(9, POOL, CodenamesConfig(invalid_clue="penalize", language="en"))
    t = rec.key.starts
    other = "blue" if t == "red" else "red"
    theirs = [w for w, c in zip(rec.words, rec.key.letters) if c == other[0].upper()]
    rec.actions = [Clue(f"{t}-spymaster", "badclue", 2), Cover(f"{other}-spymaster", theirs[0])]
    rec2 = CodenamesRecord.from_dict(json.loads(record_to_json(rec)))
    s = rec2.replay(referee=FakeReferee())
    assert s.turns_used == 1 and s.to_act() == (f"{other}-spymaster",) and s.phase == "clue"


def test_deal_needs_enough_distinct_words():
    with pytest.raises(ValueError):
        deal_codenames(1, POOL[:24])



@pytest.mark.parametrize("game", ["codenames", "two_player"])
def test_deal_never_puts_one_word_twice_on_the_board(game):  # RULES 1.1: 25 different words (CRANE is crane)
    """The dealer's pool was distinct by exact text, so a list spelling one word in several cases
    dealt boards the engine refuses (48 of 50 seeds here) and counted the spellings towards the 25."""
    pool = [f"w{i:02d}" for i in range(24)] + ["Crane", "crane", "CRANE"]
    config = CodenamesConfig() if game == "codenames" else CodenamesConfig(variant="two_player")
    for seed in range(30):
        rec = deal_codenames(seed, pool, config)
        assert sum(w.lower() == "crane" for w in rec.words) == 1
        record_from_dict(rec.to_dict())   # a board the engine accepts
    with pytest.raises(ValueError, match="distinct"):
        deal_codenames(0, pool[:23] + ["Crane", "crane", "CRANE"])

def test_agreed_clue_options_are_recorded_and_replay_the_same():  # RULES 4.7
    pytest.importorskip("engine.clues")
    words = ["dog", "cat", "river", "bank", "apple", "tree", "moon", "star", "car", "road", "ship", "sea",
             "bird", "fish", "king", "queen", "bread", "milk", "door", "key", "book", "pen", "rain", "snow", "fire"]
    rec = deal_codenames(4, words, CodenamesConfig(invalid_clue="reject", language="en",
                                                   clue_options=("multiword_compounds",)))
    t = rec.key.starts
    rec.actions = [Clue(f"{t}-spymaster", "ice cream", 1)]
    data = json.loads(record_to_json(rec))
    assert data["config"]["clue_options"] == ["multiword_compounds"]
    assert record_from_dict(data).replay().phase == "guess"
    del data["config"]["clue_options"]                  # the same game without the agreement
    with pytest.raises(IllegalAction, match="4.7"):
        record_from_dict(data).replay()


@pytest.mark.parametrize("bad", ["crane\r", "\ufeffcrane", " crane", "", "a\tb"])
def test_a_word_list_with_a_word_no_card_can_show_is_refused_whatever_the_seed(bad):  # RULES 1.1
    """Such a word was dealt onto the board of most seeds, a record the engine then refused."""
    pool = [f"w{i:02d}" for i in range(40)] + [bad]
    for seed in range(8):
        with pytest.raises(ValueError, match="RULES 1.1.*: the board word"):
            deal_codenames(seed, pool)


@pytest.mark.parametrize("seed", [2**64, -1, False, 2.0])
def test_a_seed_no_record_can_hold_is_refused_before_the_deal(seed):  # RULES 1.1 (records hold 0..2**64-1)
    with pytest.raises(ValueError, match="a deal's seed is a whole number 0..2[*][*]64-1"):
        deal_codenames(seed, POOL)
    record_from_dict(deal_codenames(2**64 - 1, POOL).to_dict())
