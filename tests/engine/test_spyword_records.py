"""Spy's Word records: round trip, validation, replay, determinism (RULES 5)."""

import json

import pytest

from engine.errors import IllegalAction, MalformedRecord
from engine.records import record_from_json, record_to_json, replay_summary
from engine.spyword import GiveClue, Ready, SpyWordRecord, SpyWordSettings, Timeout, Vote, action_from_dict, \
    deal_spyword
from engine.spyword import replay_summary as spy_summary
from experiments.games.spyword.dealing import deal_record, load_packs

PACKS = [{"id": f"t-{i}", "category": "x", "words": [f"a{i}", f"b{i}"]} for i in range(10)]


def test_same_seed_same_deal_byte_for_byte():  # RULES 5.2-5.4
    a = record_to_json(deal_spyword(7, PACKS, 8))
    assert a == record_to_json(deal_spyword(7, PACKS, 8))
    assert a != record_to_json(deal_spyword(8, PACKS, 8))
    assert record_to_json(deal_record(seed=3, lang="ko", players=9)) == record_to_json(
        deal_record(seed=3, lang="ko", players=9))


def test_record_has_the_fixed_shape():
    data = deal_spyword(7, PACKS, 6, lang="en").to_dict()
    assert data["game"] == "spyword" and data["version"] == 1 and data["seed"] == 7
    assert data["seats"] == ["p1", "p2", "p3", "p4", "p5", "p6"] and sorted(data["order"]) == data["seats"]
    assert set(data["pack"]["words"]) == {data["citizen_word"], data["spy_word"]}
    assert data["settings"] == SpyWordSettings().to_dict() and data["actions"] == [] and data["host"] == "p1"


def play(record, *actions):
    record.actions += [action_from_dict(a) if isinstance(a, dict) else a for a in actions]
    return record


def started(record):
    record.clue_filter = False  # the built-in clue checks only: no morphology in these tests
    return play(record, *[Ready(s) for s in record.seats])


def test_record_round_trip_keeps_actions_and_added_fields():
    rec = started(deal_spyword(1, PACKS, 6))
    first = rec.order[0]
    play(rec, GiveClue(first, "hello"), Timeout("speaker"), {"seat": "host", "kick": rec.order[-1]})
    data = rec.to_dict() | {"notes": {"bots": "test"}}
    again = SpyWordRecord.from_dict(json.loads(json.dumps(data)))
    assert again.to_dict() == data
    assert record_to_json(record_from_json(record_to_json(again))) == record_to_json(again)


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.__setitem__("seats", d["seats"][:3]), "5.1"),
    (lambda d: d["roles"].__setitem__("p1", "king"), "5.1"),
    (lambda d: d.__setitem__("order", d["order"][:5]), "5.4"),
    (lambda d: d.__setitem__("game", "chess"), "chess"),
    (lambda d: d.__setitem__("version", 9), "version"),
    (lambda d: d.__setitem__("actions", [{"seat": "p1"}]), "action 0"),
    (lambda d: d.__setitem__("actions", [{"seat": "p1", "vote": 3}]), "action 0"),
    (lambda d: d.__setitem__("actions", [{"seat": "p1", "timeout": "vote"}]), "clock"),
    (lambda d: d.__setitem__("actions", [{"seat": "clock", "timeout": "lunch"}]), "timeout"),
    (lambda d: d["settings"].__setitem__("tie_break", "coin"), "tie_break"),
    (lambda d: d["settings"].__setitem__("colour", "red"), "colour"),
    (lambda d: d.__setitem__("spy_word", d["citizen_word"]), "5.3"),
])
def test_malformed_records_are_refused(mutate, message):
    data = deal_spyword(7, PACKS, 6).to_dict()
    mutate(data)
    with pytest.raises(MalformedRecord, match=message):
        SpyWordRecord.from_dict(data)


def test_ghost_first_in_round_1_is_malformed():  # RULES 5.4
    data = deal_spyword(7, PACKS, 6).to_dict()
    ghost = next(s for s, r in data["roles"].items() if r == "ghost")
    data["order"].remove(ghost)
    data["order"].insert(0, ghost)
    with pytest.raises(MalformedRecord, match="5.4"):
        record_from_json(json.dumps(data))


def test_replay_names_the_index_of_the_illegal_action():  # RULES 5.4
    rec = started(deal_spyword(7, PACKS, 6))
    second = rec.order[1]
    play(rec, GiveClue(second, "out of turn"))
    with pytest.raises(IllegalAction) as err:
        rec.replay()
    assert err.value.index == 6 and err.value.rule == "5.4"
    assert "action 6: RULES 5.4" in err.value.describe()


def test_replay_a_whole_game_and_summarise():  # RULES 5.11
    rec = started(deal_spyword(2, PACKS, 4))
    spy = next(s for s, r in rec.roles.items() if r == "spy")
    for i, s in enumerate(rec.order):
        play(rec, GiveClue(s, f"c{i}"))
    play(rec, {"seat": "host", "start_vote": True})
    other = next(s for s in rec.seats if s != spy)
    play(rec, *[Vote(v, spy if v != spy else other) for v in rec.seats])
    summary = replay_summary(rec)
    assert summary == spy_summary(rec.replay())
    assert summary["status"] == "finished" and summary["winner"] == "citizens" and summary["eliminated"] == [spy]
    assert summary["rounds"] == 1 and summary["citizen_word"] == rec.citizen_word
    assert rec.replay(upto=4).phase == "clues"


def test_lots_replay_the_same_from_the_record():  # RULES 5.6, 5.7
    rec = started(deal_spyword(11, PACKS, 6))
    for i, s in enumerate(rec.order):
        play(rec, GiveClue(s, f"c{i}"))
    play(rec, Timeout("discussion"), Timeout("vote"))
    out = rec.replay().eliminated
    assert len(out) == 1 and SpyWordRecord.from_dict(rec.to_dict()).replay().eliminated == out


def test_dealing_from_the_project_packs():  # RULES 5.3
    for lang in ("en", "ko"):
        rec = deal_record(seed=0, lang=lang, game="spyword", players=None, mission="ignored")
        assert len(rec.seats) == 6 and rec.pack in load_packs(lang)
    with pytest.raises(ValueError):
        deal_record(seed=0, lang="fr")


@pytest.mark.parametrize("word", ["!!!", "\u200b", "ri\u200bver", " river", "river\n", "a" * 300, "🍎"])
def test_a_pack_word_that_no_record_could_hold_is_refused_when_dealt_and_by_the_state(word):  # RULES 5.3, 5.10
    """5.3: a pack holds two words. One with no letter or digit, an invisible character, spaces around it
    or more characters than a card holds is no word (the ghost could never name it, 5.10): the record
    format refused it, but `check_pack` / `deal_spyword` and `SpyWordState` let it into a game whose
    record then failed to load."""
    from engine.spyword import SpyWordState, check_pack, deal_spyword
    with pytest.raises(ValueError, match="RULES 5.3"):
        check_pack({"words": [word, "lake"]})
    with pytest.raises(ValueError, match="RULES 5.3"):
        deal_spyword(1, [{"words": ["lake", word]}], 6)
    seats = [f"p{i}" for i in range(1, 7)]
    with pytest.raises(MalformedRecord, match="RULES 5.3"):
        SpyWordState(seats, ["citizen", "citizen", "spy", "ghost", "citizen", "citizen"], word, "lake")
    with pytest.raises(MalformedRecord, match="RULES 5.3"):
        SpyWordState(seats, ["citizen", "citizen", "spy", "ghost", "citizen", "citizen"], "lake", word)
