"""Records the audit found replaying although the rules refuse them: near-duplicate or invisible
board words (RULES 1.1, 3.1), Spy's Word languages and words outside the pack (RULES 5.3), picture
card ids outside the deck (RULES 2.1), and fields no rule reads (a misspelt config field, an action
with an added key, a misspelt record field). Each is one line `error: ...` and exit 2 from
`cnlab replay`; every record the project itself writes still replays.
"""

from __future__ import annotations

import copy
import json
import unicodedata

import pytest
from typer.testing import CliRunner

from engine.codenames import CodenamesConfig
from engine.codenames.key import CodenamesKey
from engine.codenames.pictures import card_ids
from engine.codenames.state import CodenamesState
from engine.duet import DuetConfig
from engine.duet.record import deal_duet
from engine.duet.state import DuetState
from engine.errors import MalformedRecord
from engine.records import record_from_dict, record_to_json
from experiments.cli import app
from test_record_hardening import refused   # the one error line of an exit-2 replay

RUNNER = CliRunner()
RULE = {"duet": "3.1", "codenames": "1.1", "pictures": "2.1"}


def dealt(game: str, *options: str) -> dict:
    result = RUNNER.invoke(app, ["deal", game, "--seed", "3", *options])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def replay(tmp_path, record: dict):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    result = RUNNER.invoke(app, ["replay", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def replays(tmp_path, record: dict) -> dict:
    result = replay(tmp_path, record)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# ----- board words: RULES 1.1, 3.1 -----------------------------------------------------------------
# Two cards that are one word: case, Unicode form (composed / decomposed, compatibility forms),
# whitespace runs.
SAME_WORD = [
    ("CRANE", "crane"), ("Crane", "crane"), ("e\u0301", "\u00e9"), ("cafe\u0301", "caf\u00e9"),
    ("\uff23\uff32\uff21\uff2e\uff25", "crane"),            # full-width CRANE
    ("ice\u00a0cream", "ice cream"), ("ice  cream", "ice cream"),
    ("STRASSE", "stra\u00dfe"),                           # case folding, not lower()
    ("\u1100\u1161\u11bc", "\uac15"),                     # 강 as conjoining jamo and as a syllable
]
# One card that is no word a card can show.
NOT_A_WORD = [
    " crane", "crane ", "\tcrane", "crane\n", "\u3000\uac15",   # whitespace before or after
    "a\u0000b", "a\u001bb", "a\u007fb", "a\nb", "a\tb",          # control characters
    "\u200b", "\u200b\u200c\u2060", "cr\u200bane", "\ufeffcrane", "cra\u00adne", "a\u2028b",  # invisible
    "\ue000", "", "   ", "\u0301", "-", "...",                   # no letter or digit
]


@pytest.mark.parametrize("game", ["duet", "codenames"])
@pytest.mark.parametrize("first, second", SAME_WORD)
def test_a_board_may_not_hold_one_word_twice(tmp_path, game, first, second):
    record = dealt(game)
    record["words"][3], record["words"][17] = first, second
    line = refused(replay(tmp_path, record), f"RULES {RULE[game]}", "words[3]", "words[17]", "same word")
    assert "25 distinct" in line


@pytest.mark.parametrize("game", ["duet", "codenames"])
@pytest.mark.parametrize("word", NOT_A_WORD)
def test_a_board_word_is_a_visible_word(tmp_path, game, word):
    record = dealt(game)
    record["words"][5] = word
    refused(replay(tmp_path, record), f"RULES {RULE[game]}", "words[5]")


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_board_of_the_same_word_in_two_forms_is_refused_on_a_korean_board_too(tmp_path, lang):
    record = dealt("codenames", "--lang", lang)
    record["words"][0] = record["words"][1].upper() if lang == "en" else unicodedata.normalize("NFD", record["words"][1])
    assert record["words"][0] != record["words"][1]
    refused(replay(tmp_path, record), "RULES 1.1", "same word")


def test_the_states_refuse_the_same_boards():  # RULES 3.1, 1.1: a board built in code, not only a record
    duet = deal_duet(1, [f"word{i}" for i in range(30)])
    words = list(duet.words)
    words[1] = words[0].upper()
    with pytest.raises(MalformedRecord, match="RULES 3.1"):
        DuetState(words, duet.key, DuetConfig())
    words[1] = "a\x00b"
    with pytest.raises(MalformedRecord, match="RULES 3.1"):
        DuetState(words, duet.key, DuetConfig())
    key = CodenamesKey.parse("R" * 9 + "B" * 8 + "N" * 7 + "X", "red")
    board = [f"word{i}" for i in range(25)]
    board[7] = "WORD3"
    with pytest.raises(MalformedRecord, match="RULES 1.1"):
        CodenamesState(board, key, CodenamesConfig())


def test_same_word_in_two_unicode_forms_is_shown_by_its_code_points(tmp_path):
    record = dealt("duet")
    record["words"][0], record["words"][1] = "e\u0301", "\u00e9"
    line = refused(replay(tmp_path, record), "RULES 3.1")
    assert "\\u0301" in line and "\\xe9" in line  # the two forms look alike: the message tells them apart


def test_the_shipped_word_lists_and_picture_deck_are_boards():
    """Every word the project deals is a card word, and no two are the same word (data/words,
    data/pictures/cards.json), so every board dealt from them replays."""
    from agents.wordlists import board_words
    from engine.record_fields import word_key, word_problem

    for cards in (board_words("en"), board_words("ko"), card_ids()):
        assert [w for w in cards if word_problem(w) is not None] == []
        assert len({word_key(w) for w in cards}) == len(cards)


def test_distinct_words_still_make_a_board():
    from engine.record_fields import word_key, word_problem

    assert word_problem("ice cream") is None and word_problem("거북") is None and word_problem("x2") is None
    assert word_key("Ice\u00a0Cream") == word_key("ice cream") != word_key("icecream")
    assert word_key("빛") != word_key("빚")  # homophones spelled differently are different words (RULES 4.6)


# ----- Pictures: card ids of the deck (RULES 2.1) ----------------------------------------------------
@pytest.mark.parametrize("card", ["card99", "not_a_picture", "DOG", "dog ", "trees"])
def test_a_pictures_card_is_a_card_of_the_deck(tmp_path, card):
    record = dealt("pictures")
    record["words"][4] = card
    assert card not in card_ids()
    refused(replay(tmp_path, record), "RULES 2.1", "words[4]")


def test_every_card_of_the_deck_may_be_dealt(tmp_path):
    record = dealt("pictures")
    ids = card_ids()
    for start in range(0, len(ids) - 20, 97):
        record["words"] = list(ids[start:start + 20])
        assert replays(tmp_path, record)["game"] == "pictures"


# ----- Spy's Word: languages and the pack's words (RULES 5.3) -----------------------------------------
@pytest.mark.parametrize("lang", ["fr", "de", "EN", "", "english", "ko-KR"])
def test_a_spyword_language_without_packs_is_refused(tmp_path, lang):
    record = dealt("spyword")
    record["lang"] = lang
    refused(replay(tmp_path, record), "'lang'", "RULES 5.3")


@pytest.mark.parametrize("lang", ["en", "ko", None])
def test_the_spyword_languages_replay(tmp_path, lang):
    record = dealt("spyword", "--lang", lang or "en")
    record["lang"] = lang
    assert replays(tmp_path, record)["game"] == "spyword"


@pytest.mark.parametrize("field", ["citizen_word", "spy_word"])
@pytest.mark.parametrize("change", ["zebra", "upper"])
def test_the_spyword_words_are_the_packs_two_words(tmp_path, field, change):
    record = dealt("spyword")
    record[field] = "zebra" if change == "zebra" else record[field].upper()
    refused(replay(tmp_path, record), "RULES 5.3")


def test_spyword_words_swapped_are_still_the_packs(tmp_path):
    record = dealt("spyword")
    record["citizen_word"], record["spy_word"] = record["spy_word"], record["citizen_word"]
    assert replays(tmp_path, record)["citizen_word"] == record["citizen_word"]


@pytest.mark.parametrize("word", ["a\u0000b", "\u200b", " rainbow", "..."])
def test_a_spyword_word_is_a_visible_word(tmp_path, word):
    record = dealt("spyword")
    record["pack"]["words"] = [word if w == record["citizen_word"] else w for w in record["pack"]["words"]]
    record["citizen_word"] = word
    refused(replay(tmp_path, record), "RULES 5.3")


# ----- unknown fields: configs -----------------------------------------------------------------------
@pytest.mark.parametrize("game, field, value", [
    ("duet", "timer_token", 3), ("duet", "Timer_tokens", 3), ("duet", "mistake", 1), ("duet", "relaxed", True),
    ("codenames", "varient", "two_player"), ("codenames", "Variant", "two_player"), ("codenames", "x", None),
    ("pictures", "variant ", "assassin_ending"), ("pictures", "clue_option", ["rhymes"]),
])
def test_a_config_field_no_rule_knows_is_refused(tmp_path, game, field, value):
    record = dealt(game)
    record["config"][field] = value
    refused(replay(tmp_path, record), "config: unknown field", field)


def test_a_misspelt_config_field_is_named_with_its_likely_meaning(tmp_path):
    record = dealt("duet")
    record["config"]["timer_token"] = 3
    line = refused(replay(tmp_path, record), "'timer_token'")
    assert "did you mean 'timer_tokens'" in line
    assert DuetConfig.from_dict({"timer_tokens": 3}, board_language="en").timer_tokens == 3  # the real field still works


# ----- unknown fields: actions -------------------------------------------------------------------------
def _played(game: str) -> dict:
    """A dealt record with a legal opening holding every kind of action its game has: a clue, a
    correct guess, a stop and (the two-player variant, RULES 1.8) the spymaster's cover."""
    record = dealt(game, *(() if game == "duet" else ("--variant", "two_player")))
    record["config"]["invalid_clue"] = "allow"
    words = record["words"]
    if game == "duet":  # RULES 3.5: B's guess is judged on A's side
        green = words[record["key"]["A"].index("G")]
        record["actions"] = [{"seat": "A", "clue": "animal", "number": 1}, {"seat": "B", "guess": green},
                             {"seat": "B", "stop": True}]
        return record
    team, key = record["starts"], record["key"]
    ours = words[key.index(team[0].upper())]
    theirs = words[key.index("B" if team == "red" else "R")]
    record["actions"] = [{"seat": f"{team}-spymaster", "clue": "animal", "number": 1},
                         {"seat": f"{team}-guesser", "guess": ours}, {"seat": f"{team}-guesser", "stop": True},
                         {"seat": f"{team}-spymaster", "cover": theirs}]
    return record


@pytest.mark.parametrize("game", ["duet", "codenames", "pictures"])
def test_the_played_openings_are_legal(tmp_path, game):
    assert replays(tmp_path, _played(game))["turns_used"] == 1


KINDS = [(g, k) for g in ("duet", "codenames", "pictures") for k in ("clue", "guess", "stop", "cover")
         if (g, k) != ("duet", "cover")]  # Duet has no cover


@pytest.mark.parametrize("game, kind", KINDS)
@pytest.mark.parametrize("added", ["why", "numbr", "Seat", "intent"])
def test_an_action_with_a_field_its_kind_has_not_is_refused(tmp_path, game, kind, added):
    record = _played(game)
    i = next(i for i, a in enumerate(record["actions"]) if kind in a)
    record["actions"][i][added] = 1
    refused(replay(tmp_path, record), f"action {i}", "unknown field", added)


# ----- unknown fields: the record itself ------------------------------------------------------------------
MISSPELT = {  # a record field's name in another case or punctuation, or one letter off
    "duet": ["confg", "Config", "configs", "word", "Words", "action", "acitons", "seeds", "Version", "keys", "Game"],
    "codenames": ["confg", "CONFIG", "word", "actoins", "start", "Starts", "kye", "seed_"],
    "pictures": ["config ", "Words", "action", "starts_", "versoin"],
    "spyword": ["setting", "Settings", "citizen-word", "spyWord", "citizen_words", "seat", "Roles", "packs", "Host",
                "clue-filter", "action", "orders", "lang_"],
}


@pytest.mark.parametrize("game, misspelt", [(g, m) for g, names in MISSPELT.items() for m in names])
def test_a_misspelt_record_field_is_refused(tmp_path, game, misspelt):
    record = dealt(game)
    record[misspelt] = copy.deepcopy(record.get("config", record.get("settings")))
    refused(replay(tmp_path, record), "unknown field", "misspelt")


# What the project's tools add to a record (simulators, isolation, terminal and web play, language
# models, reference games, notes): kept on round trip, never refused.
ADDED = {"game_index": 3, "run_seed": 7, "intents": [], "web": {"seats": {}, "tokens": {}, "first": "A"},
         "play": {"human_seat": None}, "forfeit": {"seat": "A", "why": "timeout"}, "llm": [], "bots": {},
         "notes": {"spymaster": "margin"}, "note": "a\u2028b", "expected": {"status": "playing"}}


@pytest.mark.parametrize("game", ["duet", "codenames", "pictures", "spyword"])
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_fields_the_project_adds_are_kept(tmp_path, game, lang):
    record = dealt(game, "--lang", lang) | ADDED
    assert replays(tmp_path, record)["game"] == game
    assert json.loads(record_to_json(record_from_dict(record))) == record


@pytest.mark.parametrize("args", [
    ["duet", "--games", "2"], ["duet", "--games", "2", "--lang", "ko"], ["codenames", "--games", "2"],
    ["codenames", "--games", "2", "--variant", "two_player", "--lang", "ko"],
    ["codenames", "--games", "2", "--variant", "single_team"],
])
def test_the_simulators_records_replay(tmp_path, args):
    out = tmp_path / "run"
    result = RUNNER.invoke(app, ["simulate", *args, "--spymaster", "random", "--guesser", "random",
                                 "--workers", "1", "--no-progress", "--out", str(out)])
    assert result.exit_code == 0, result.output
    rows = (out / "records.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(rows) == 2 and all("game_index" in json.loads(r) for r in rows)
    result = RUNNER.invoke(app, ["replay", str(out / "records.jsonl")])
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 2


# ----- key cards: RULES 1.1, 2.1, 3.2 ----------------------------------------------------------------
@pytest.mark.parametrize("game", ["codenames", "pictures"])
def test_a_bad_key_says_what_is_wrong_with_it(tmp_path, game):
    """A key with a letter not R, B, N, X said only what a key is, with no rule and not which
    letter; one with the wrong counts said the counts a key has, not this key's."""
    record = dealt(game)
    key = record["key"]
    line = refused(replay(tmp_path, record | {"key": key[:4] + key[4].lower() + key[5:]}), "RULES 1.1, 2.1", "letter 5")
    assert repr(key[4].lower()) in line
    extra = key.replace("N", "X", 1)   # a bystander turned assassin: 2 assassins
    line = refused(replay(tmp_path, record | {"key": extra}), "invalid key (RULES", "2 X")


def test_a_bad_duet_key_says_what_is_wrong_with_it(tmp_path):
    record = dealt("duet")
    a, b = record["key"]["A"], record["key"]["B"]
    refused(replay(tmp_path, record | {"key": {"A": a[:-1], "B": b}}), "RULES 3.2", "side A", "24 letters")
    refused(replay(tmp_path, record | {"key": {"A": a, "B": b[:2] + "g" + b[3:]}}), "RULES 3.2", "side B", "letter 3",
            "'g'")
    i = next(i for i in range(25) if (a[i], b[i]) == ("N", "N"))
    line = refused(replay(tmp_path, record | {"key": {"A": a, "B": b[:i] + "G" + b[i + 1:]}}), "RULES 3.2")
    assert "N/G" in line and "N/N" in line   # 6 beige/green cells where the card has 5; 6 beige/beige, not 7
