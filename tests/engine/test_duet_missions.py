"""The mission map is data (RULES 3.10)."""

import json

import pytest

from engine.duet import MissionMap
from engine.errors import MalformedRecord
from engine.paths import data_path
from experiments.games.duet.missions import load_mission_map


def test_the_rulebook_missions_are_on_the_map():  # RULES 3.10
    m = load_mission_map()
    expected = {"prague": (9, 9), "moscow": (8, 8), "cairo": (9, 5), "jakarta": (7, 7), "singapore": (6, 6)}
    for name, (t, k) in expected.items():
        mission = m.get(name)
        assert (mission.timer_tokens, mission.mistakes) == (t, k)
    assert m.get("Berlin").timer_tokens == 11


def test_values_the_rulebook_does_not_give_are_marked_not_invented():  # RULES 3.10
    m = load_mission_map()
    assert m.get("berlin").mistakes is None
    with pytest.raises(MalformedRecord, match="does not give"):
        m.get("berlin").config()
    raw = json.loads(data_path("duet", "missions.json").read_text())
    berlin = next(x for x in raw["missions"] if x["id"] == "berlin")
    assert "mistakes" in berlin["not_in_rulebook"]


def test_mission_configs():  # RULES 3.10: T-T has no mistake limit
    m = load_mission_map()
    assert m.get("cairo").config().mistakes == 5
    assert m.get("moscow").config().mistakes is None and m.get("moscow").config().timer_tokens == 8


def test_progress_unlocks_linked_missions():  # RULES 3.10
    m = load_mission_map()
    assert m.unlocked([]) == ["prague"]
    assert m.unlocked(["prague"]) == ["berlin", "cairo", "moscow", "prague"]


def test_a_user_map_in_the_same_format(tmp_path):  # RULES 3.10
    path = tmp_path / "map.json"
    path.write_text(json.dumps({"start": "a", "missions": [
        {"id": "a", "timer_tokens": 9, "mistakes": 9, "links": ["b"]},
        {"id": "b", "timer_tokens": 11, "mistakes": 7, "links": []}]}))
    m = load_mission_map(path)
    assert m.get("b").config().mistakes == 7 and m.unlocked(["a"]) == ["a", "b"]
    path.write_text(json.dumps({"start": "a", "missions": [{"id": "a", "timer_tokens": 9, "links": ["zz"]}]}))
    with pytest.raises(MalformedRecord, match="unknown mission"):
        load_mission_map(path)
    with pytest.raises(MalformedRecord):
        MissionMap.from_dict({"missions": []})


@pytest.mark.parametrize("mission", [
    {"id": "a", "timer_tokens": 0, "mistakes": 0},       # RULES 3.3: 1..11 tokens (the box holds 11)
    {"id": "a", "timer_tokens": 12, "mistakes": 5},
    {"id": "a", "timer_tokens": -3, "mistakes": None},
    {"id": "a", "timer_tokens": 9, "mistakes": 10},      # RULES 3.10: M of the T tokens, so M <= T
    {"id": "a", "timer_tokens": 9, "mistakes": -1},
    {"id": "a", "timer_tokens": 9, "mistakes": 9, "links": "a"},       # links: a list of ids
    {"id": "a", "timer_tokens": 9, "mistakes": 9, "links": [["a"]]},
    {"id": "a", "timer_tokens": 9, "mistakes": 9, "links": [{"a": 1}]},
])
def test_a_map_with_an_impossible_mission_is_refused_when_read(mission):  # RULES 3.3, 3.10
    with pytest.raises(MalformedRecord, match="malformed mission map") as err:
        MissionMap.from_dict({"start": "a", "missions": [mission]})
    assert "MalformedRecord(" not in str(err.value)  # one plain message, not a wrapped repr


def test_a_mission_given_twice_is_one_plain_message():  # RULES 3.10
    with pytest.raises(MalformedRecord) as err:
        MissionMap.from_dict({"start": "a", "missions": [{"id": "a", "timer_tokens": 9, "mistakes": 9},
                                                         {"id": "a", "timer_tokens": 9, "mistakes": 9}]})
    assert str(err.value) == "malformed mission map: mission 'a' is given twice"


@pytest.mark.parametrize("data", [
    {"start": ["a"], "missions": [{"id": "a", "timer_tokens": 9, "mistakes": 9}]},
    {"start": "a", "missions": [{"id": ["a"], "timer_tokens": 9, "mistakes": 9}]},
    {"start": "a", "missions": [{"id": 5, "timer_tokens": 9, "mistakes": 9}]},
    {"start": "a", "missions": [{"id": "a", "name": 7, "timer_tokens": 9, "mistakes": 9}]},
    {"start": "a", "missions": [5]},
])
def test_a_map_whose_ids_names_or_start_are_not_text_is_refused(data):  # RULES 3.10: the map is data
    with pytest.raises(MalformedRecord, match="mission map") as err:
        MissionMap.from_dict(data)
    assert "Error(" not in str(err.value)


@pytest.mark.parametrize("name", ["카이로", " 카이로 ", "Cairo", "cairo"])
def test_a_mission_is_found_by_its_korean_rulebook_name(name):  # RULES 3.10 (seed 000 names 카이로, 모스크바 ...)
    """The map gives each city's Korean name (name_ko); `--mission 카이로` found no mission."""
    mission = load_mission_map().get(name)
    assert (mission.id, mission.timer_tokens, mission.mistakes, mission.name_ko) == ("cairo", 9, 5, "카이로")


def test_every_rulebook_city_is_found_by_its_korean_name():  # RULES 3.10
    m = load_mission_map()
    for ko, mission_id in [("프라하", "prague"), ("베를린", "berlin"), ("모스크바", "moscow"), ("카이로", "cairo"),
                           ("자카르타", "jakarta"), ("싱가포르", "singapore")]:
        assert m.get(ko).id == mission_id
    assert m.unlocked(["프라하"]) == ["berlin", "cairo", "moscow", "prague"]
    with pytest.raises(KeyError):
        m.get("")  # a mission without a Korean name is not found by an empty one


def test_a_korean_name_that_is_not_text_is_refused():  # RULES 3.10: the map is data
    with pytest.raises(MalformedRecord, match="mission map"):
        MissionMap.from_dict({"start": "a", "missions": [{"id": "a", "name_ko": 7, "timer_tokens": 9, "mistakes": 9}]})


@pytest.mark.parametrize("second", [
    {"id": "b", "name": "a", "timer_tokens": 7, "mistakes": 2},          # a name that is another mission's id
    {"id": "b", "name": "Alpha", "timer_tokens": 7, "mistakes": 2},      # names equal but for case
    {"id": "b", "name_ko": "알파", "timer_tokens": 7, "mistakes": 2},     # the same Korean name twice
    {"id": "A", "timer_tokens": 7, "mistakes": 2},                       # ids equal but for case
])
def test_a_map_where_one_name_finds_two_missions_is_refused(second):  # RULES 3.10: the map is data
    """`get` finds a mission by id, name or Korean name, case-insensitive: a map where one of these
    names two missions made `--mission a` play whichever came first, silently."""
    first = {"id": "a", "name": "alpha", "name_ko": "알파", "timer_tokens": 9, "mistakes": 9}
    with pytest.raises(MalformedRecord, match="malformed mission map: .* names two missions") as err:
        MissionMap.from_dict({"start": "a", "missions": [first, second]})
    assert "\n" not in str(err.value)
    # a mission's own id, name and Korean name may agree (prague / Prague)
    assert MissionMap.from_dict({"start": "a", "missions": [
        {"id": "a", "name": "A", "name_ko": "a", "timer_tokens": 9, "mistakes": 9}]}).get("A").id == "a"


@pytest.mark.parametrize("data, says", [
    ({"missions": [{"id": "a", "timer_tokens": 9, "mistakes": 9}]}, "'start'"),
    ({"start": "a", "missions": [{"id": "a", "mistakes": 3}]}, "mission 'a': timer_tokens is missing"),
])
def test_a_map_missing_start_or_tokens_names_what_is_missing(data, says):  # RULES 3.10: the map is data
    """A map without 'start', or a mission without timer_tokens, was 'malformed mission map:
    KeyError('start')', a Python repr, not a plain line naming what is missing."""
    with pytest.raises(MalformedRecord, match="malformed mission map") as err:
        MissionMap.from_dict(data)
    assert says in str(err.value) and "Error(" not in str(err.value)


@pytest.mark.parametrize("data, field", [
    ({"start": "a", "missions": [{"id": "a", "timer_tokens": 9, "mistakes": 9, "link": ["b"]},
                                 {"id": "b", "timer_tokens": 7, "mistakes": 7}]}, "link"),
    ({"start": "a", "missions": [{"id": "a", "name_kr": "알파", "timer_tokens": 9, "mistakes": 9}]}, "name_kr"),
    ({"start": "a", "mission": [], "missions": [{"id": "a", "timer_tokens": 9, "mistakes": 9}]}, "mission"),
])
def test_a_misspelt_field_of_the_map_is_refused_not_dropped(data, field):  # RULES 3.10: the map is data
    """A misspelt 'link' was dropped, so completing the mission silently unlocked nothing; a
    misspelt 'name_kr' made the Korean name unknown. Unknown fields are refused, as a config's are."""
    with pytest.raises(MalformedRecord, match="malformed mission map") as err:
        MissionMap.from_dict(data)
    assert repr(field) in str(err.value) and "\n" not in str(err.value)


def test_a_mission_is_found_whatever_the_unicode_form_of_the_map_or_the_name():  # RULES 3.10: the map is data
    """A user's map written in decomposed Hangul (NFD, as some editors save it) or with a name padded
    by a space: `--mission 카이로` typed in the usual composed form found no mission, and two
    missions whose names differed only by that form were both accepted."""
    import unicodedata

    nfd = unicodedata.normalize("NFD", "카이로")
    data = {"start": "c", "missions": [{"id": "c", "name": "Cairo ", "name_ko": nfd, "timer_tokens": 9, "mistakes": 5}]}
    m = MissionMap.from_dict(data)
    assert m.get("카이로").id == "c" and m.get(nfd).id == "c" and m.get("cairo").id == "c" and m.get("CAIRO ").id == "c"
    second = {"id": "d", "name_ko": "카이로", "timer_tokens": 7, "mistakes": 2}
    with pytest.raises(MalformedRecord, match="names two missions"):
        MissionMap.from_dict({"start": "c", "missions": [*data["missions"], second]})
