"""One test per defect the record fuzzer found in `cnlab replay` (issue 14), the clue referee on
by default in replay, and records without `config.language` (issue 13).

The contract (README): every bad input exits 2 with ONE line `error: ...` on stderr, never a
traceback; an illegal action exits 2 naming the RULES section it breaks.
"""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.clues import MAX_CLUE_LENGTH, ClueTextError, check_clue, normalize_clue
from engine.codenames import CodenamesConfig
from engine.duet import DuetConfig
from engine.errors import MalformedRecord
from engine.record_fields import MAX_NESTING, board_language, one_line
from engine.records import record_from_dict, record_from_json, record_to_json
from engine.spyword import SpyWordSettings
from experiments.cli import _read_records, app

RUNNER = CliRunner()
REFERENCE = Path(__file__).parents[1] / "data" / "reference"


def dealt(game: str, *options: str) -> dict:
    result = RUNNER.invoke(app, ["deal", game, "--seed", "3", *options])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def replay_bytes(tmp_path, data: bytes | str, stdin: bool = False):
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    path = tmp_path / "record.json"
    path.write_bytes(data)
    result = RUNNER.invoke(app, ["replay", "-" if stdin else str(path)], input=data if stdin else None)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def replay_record(tmp_path, record: dict, ensure_ascii: bool = False):
    return replay_bytes(tmp_path, json.dumps(record, ensure_ascii=ensure_ascii))


def refused(result, *fragments: str) -> str:
    """The one error line of an exit-2 replay; every fragment is in it."""
    assert result.exit_code == 2, result.output
    lines = result.stderr.split("\n")
    assert len(lines) == 2 and lines[1] == "" and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def spymaster(record: dict) -> str:
    return f"{record['starts']}-spymaster"


# ----- bytes and JSON ---------------------------------------------------------------------------
@pytest.mark.parametrize("stdin", [False, True])
def test_a_file_that_is_not_utf8_is_one_line(tmp_path, stdin):
    line = refused(replay_bytes(tmp_path, b'{"game": "duet", "words": ["\xff"]}', stdin=stdin), "not UTF-8")
    assert "0xff" in line and "offset 28" in line


def test_a_byte_order_mark_is_dropped(tmp_path):
    result = replay_bytes(tmp_path, b"\xef\xbb\xbf" + json.dumps(dealt("duet")).encode())
    assert result.exit_code == 0, result.output


def test_deeply_nested_json_is_malformed_not_a_recursion_error(tmp_path):
    refused(replay_bytes(tmp_path, "[" * 100_000 + "]" * 100_000), "nested deeper")
    refused(replay_bytes(tmp_path, '{"game": "duet", "x": ' + "[" * 500 + "]" * 500 + "}"), f"deeper than {MAX_NESTING}")


def test_an_integer_of_5000_digits_is_malformed(tmp_path):
    record = json.dumps(dealt("duet")).replace('"seed": 3', '"seed": ' + "9" * 5000)
    refused(replay_bytes(tmp_path, record), "too many digits")
    record = json.dumps(dealt("duet")).replace('"seed": 3', '"seed": ' + "9" * 300)
    refused(replay_bytes(tmp_path, record), "'seed' must be")


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_nan_and_infinity_are_not_json(tmp_path, literal):
    record = json.dumps(dealt("codenames")).replace('"turn_time_limit": null', f'"turn_time_limit": {literal}')
    refused(replay_bytes(tmp_path, record), "not valid JSON")


@pytest.mark.parametrize("game", ["duet", "codenames", "pictures", "spyword"])
def test_a_key_twice_in_one_object_is_malformed(tmp_path, game):
    """JSON leaves an object that names a key twice undefined (RFC 8259 4), and json.loads kept the
    last silently: {"actions": [...the game...], "actions": []} replayed an empty game, a second
    "game" made a Duet record a Codenames one. It is now refused, naming the key, wherever it is."""
    text = json.dumps(dealt(game))
    assert text.startswith('{"game": ')
    refused(replay_bytes(tmp_path, text[:-1] + ', "actions": []}'), "not valid JSON", "'actions'", "twice")
    refused(replay_bytes(tmp_path, '{"game": "codenames", ' + text[1:]), "not valid JSON", "'game'", "twice")
    nested = text.replace('"actions": []', '"actions": [], "notes": [{"by": "a", "by": "b"}]')
    refused(replay_bytes(tmp_path, nested), "'by'", "twice")
    with pytest.raises(MalformedRecord, match="twice"):
        record_from_json(text[:-1] + ', "version": 1}')


@pytest.mark.parametrize("game", [{}, [], 1, None, True, "x" * 1000])
def test_a_game_that_is_not_a_name_is_malformed(tmp_path, game):
    line = refused(replay_bytes(tmp_path, json.dumps({"game": game, "version": 1})), "unknown game")
    assert len(line) < 200


@pytest.mark.parametrize("game", ["duet", "codenames", "pictures", "spyword"])
def test_a_missing_or_wrong_header_field_is_named(tmp_path, game):
    """A record without "version" was "unsupported record version None", and a "game" that is no
    name "unknown game that": each now names the field and what it holds or lacks."""
    record = dealt(game)
    del record["version"]
    refused(replay_record(tmp_path, record), "no 'version' field", "version 1")
    refused(replay_record(tmp_path, record | {"version": 2}), "unsupported record version 2", "version 1")
    refused(replay_record(tmp_path, record | {"version": "1"}), "unsupported record version '1'")
    for value, said in ((None, "None"), (7, "7"), (["duet"], "['duet']")):
        line = refused(replay_record(tmp_path, record | {"version": 1, "game": value}), f"unknown game {said}; known: ")
        assert "that" not in line


def test_a_version_that_is_true_is_not_version_1():
    record = dealt("duet") | {"version": True}
    with pytest.raises(MalformedRecord, match="version"):
        record_from_dict(record)


def test_deep_nesting_inside_an_unchecked_field_is_malformed(tmp_path):
    record = dealt("duet")
    text = json.dumps(record).replace('"mission": null', '"mission": ' + "[" * 900 + "]" * 900)
    refused(replay_bytes(tmp_path, text), "config.mission", "nests deeper")
    record["notes"] = json.loads("[" * 40 + "]" * 40)  # an added field, kept on round trip
    refused(replay_record(tmp_path, record), "notes", "nests deeper")
    record["notes"] = json.loads("[" * 20 + "]" * 20)
    assert replay_record(tmp_path, record).exit_code == 0


def test_a_long_added_list_is_checked_in_linear_time():
    """check_tree pushed every scalar of the record on its stack with its whole path: a 16 MiB
    record (the size `cnlab replay` takes) of one added list of 8 million numbers took about 20 s
    of CPU before any game looked at it. Scalars other than strings need no check, and a string is
    checked where its list or object is read."""
    record = dealt("duet")
    record["notes"] = [0] * 4_000_000 + ["a\u00e9\U0001F600"] * 1_000_000
    text = json.dumps(record, ensure_ascii=False)
    start = time.process_time()
    assert record_from_json(text).extra["notes"][-1] == "a\u00e9\U0001F600"
    assert time.process_time() - start < 2.5
    record["notes"] = [[{"k": "ok"}, "ok", 1.5, None, True]] * 3 + [["\ud800"]]
    with pytest.raises(MalformedRecord, match=r"notes\[3\]\[0\] is not valid Unicode"):
        record_from_dict(record)
    record["notes"] = [{"ok": 1, "\udc00": 2}]
    with pytest.raises(MalformedRecord, match=r"a key of notes\[0\] is not valid Unicode"):
        record_from_dict(record)


def test_config_mission_must_be_a_string_or_null(tmp_path):
    record = dealt("duet")
    record["config"]["mission"] = [["cairo"]]
    refused(replay_record(tmp_path, record), "config.mission")


@pytest.mark.parametrize("game, field", [("duet", "words"), ("codenames", "words"), ("spyword", "citizen_word")])
def test_a_lone_surrogate_in_a_word_is_malformed(tmp_path, game, field):
    record = dealt(game)
    if field == "words":
        record["words"][0] = "x\ud800"
    else:
        record["pack"]["words"] = [record["citizen_word"] + "\ud800" if w == record["citizen_word"] else w
                                   for w in record["pack"]["words"]]
        record["citizen_word"] += "\ud800"
    line = refused(replay_record(tmp_path, record, ensure_ascii=True), "not valid Unicode")
    line.encode("utf-8")  # the message itself prints


def test_a_lone_surrogate_in_a_key_is_malformed():
    with pytest.raises(MalformedRecord, match="key of"):
        record_from_json(json.dumps(dealt("duet") | {"\udc80": 1}))


# ----- Spy's Word ---------------------------------------------------------------------------------
@pytest.mark.parametrize("words", [5, "ab", ["a"], ["a", "a"], ["a", 3], None])
def test_a_spyword_pack_whose_words_are_not_two_words_is_malformed(tmp_path, words):
    record = dealt("spyword")
    record["pack"]["words"] = words
    refused(replay_record(tmp_path, record), "'pack'")


def test_a_spyword_pack_picture_must_be_a_string(tmp_path):
    record = dealt("spyword")
    record["pack"]["pictures"] = [{}, None]
    refused(replay_record(tmp_path, record), "pack.pictures")


def _tied_vote(record: dict) -> dict:
    """Clues round, then a vote with every remaining player voted once: a tie, settled by lots."""
    record = copy.deepcopy(record)
    seats, order = record["seats"], record["order"]
    record["settings"]["tie_break"] = "lottery"
    actions = [{"seat": s, "ready": True} for s in seats]
    actions += [{"seat": s, "clue": f"clue{i}"} for i, s in enumerate(order)]
    actions += [{"seat": "clock", "timeout": "discussion"}]
    actions += [{"seat": s, "vote": seats[(i + 1) % len(seats)]} for i, s in enumerate(seats)]
    record["actions"] = actions
    record["clue_filter"] = False
    return record


@pytest.mark.parametrize("seed", [-1, -(2**70), 2**64, 1.5, "3", True])
def test_a_spyword_seed_that_numpy_cannot_take_is_malformed(tmp_path, seed):
    record = _tied_vote(dealt("spyword"))
    record["seed"] = seed
    refused(replay_record(tmp_path, record), "'seed' must be")


@pytest.mark.parametrize("seed", [[5, 0], [3], "3"])
def test_a_spyword_seed_is_an_integer_and_says_so(tmp_path, seed):
    """The shared seed check offered Codenames' and Duet's list form ([run seed, i]) to a Spy's Word
    record too ("... or a list of 1-4 such integers"), whose lots are drawn from one integer: a list
    then failed as "the seed must be an integer". The message is now the game's own."""
    record = _tied_vote(dealt("spyword"))
    record["seed"] = seed
    line = refused(replay_record(tmp_path, record), "'seed' must be null or an integer 0..2**64-1")
    assert "list of" not in line


def test_lots_are_drawn_with_a_valid_seed(tmp_path):
    result = replay_record(tmp_path, _tied_vote(dealt("spyword")))
    assert result.exit_code == 0, result.output


# ----- messages are one line ------------------------------------------------------------------------
def test_a_seat_name_with_a_newline_stays_one_line(tmp_path):
    record = dealt("spyword")
    rename = {s: f"{s}\nsecond line\u2028third" for s in record["seats"]}
    record["seats"] = [rename[s] for s in record["seats"]]
    record["roles"] = {rename[s]: r for s, r in record["roles"].items()}
    record["order"] = [rename[s] for s in record["order"]]
    record["host"] = rename[record["host"]]
    record["clue_filter"] = False
    record["actions"] = [{"seat": s, "ready": True} for s in record["seats"]] + [
        {"seat": record["order"][1], "clue": "early"}]  # not the speaker's turn: names the speaker
    line = refused(replay_record(tmp_path, record), "RULES 5.4", "\\nsecond line\\u2028third")
    assert "\n" not in line and "\u2028" not in line


def test_one_line_escapes_and_bounds_any_message():
    assert one_line("a\nb\tc\u2028d\u200be\x1b\ud800 거북") == "a\\nb\\tc\\u2028d\\u200be\\x1b\\ud800 거북"
    long = one_line("x" * 10_000)
    assert len(long) < 600 and long.endswith("(9500 more characters)")


def test_a_huge_guess_is_named_in_a_bounded_line(tmp_path):
    record = dealt("codenames")
    record["actions"] = [{"seat": spymaster(record), "clue": "animal", "number": 1},
                         {"seat": f"{record['starts']}-guesser", "guess": "y" * 200_000}]
    record["config"]["invalid_clue"] = "allow"
    assert len(refused(replay_record(tmp_path, record), "RULES 1.1")) < 700


# ----- clues: length, Unicode ---------------------------------------------------------------------
@pytest.mark.parametrize("game, rule", [("duet", "3.4"), ("codenames", "1.2"), ("pictures", "2.2"), ("spyword", "5.4")])
@pytest.mark.parametrize("invalid_clue", ["allow", "reject"])
def test_a_100kb_clue_is_refused_before_any_analysis(tmp_path, game, rule, invalid_clue):
    record = dealt(game)
    clue = "x" * 100_000
    if game == "duet":
        record["actions"] = [{"seat": "A", "clue": clue, "number": 1}]
    elif game == "spyword":
        record["actions"] = [{"seat": s, "ready": True} for s in record["seats"]] + [
            {"seat": record["order"][0], "clue": clue}]
    else:
        record["actions"] = [{"seat": spymaster(record), "clue": clue, "number": 1}]
    if game != "spyword":
        record["config"]["invalid_clue"] = invalid_clue
    start = time.perf_counter()
    refused(replay_record(tmp_path, record), f"RULES {rule}", f"at most {MAX_CLUE_LENGTH} characters")
    assert time.perf_counter() - start < 1.0


@pytest.mark.parametrize("game", ["duet", "codenames", "pictures", "spyword"])
def test_a_100kb_board_word_is_malformed_before_the_referee_reads_it(tmp_path, game):
    record = dealt(game)
    if game == "spyword":
        record["pack"]["words"] = [w + "x" * 100_000 if w == record["citizen_word"] else w for w in record["pack"]["words"]]
        record["citizen_word"] += "x" * 100_000
    else:
        record["words"][0] = "x" * 100_000
        record["config"].pop("invalid_clue")
    start = time.perf_counter()
    refused(replay_record(tmp_path, record), "at most 64")
    assert time.perf_counter() - start < 1.0


def test_the_filter_bounds_a_clue_too():
    check_clue("tree", 1, board=["rain"], language="en")  # the analyser loaded
    start = time.perf_counter()
    verdict = check_clue("x" * 100_000, 1, board=["tree"], language="en")
    assert (verdict.legal, verdict.rule) == (False, "4.7") and time.perf_counter() - start < 0.5
    assert check_clue("가" * 70, 1, board=["나무"], language="ko").rule == "4.7"


def test_normalize_clue():
    assert normalize_clue("  tree ") == "tree"
    assert normalize_clue("cafe\u0301") == "caf\u00e9"  # NFC
    for dash in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d":
        assert normalize_clue(f"snow{dash}man") == "snow-man"
    for invisible in "\u200b\u200c\u200d\u2060\ufeff\u00ad\u200e\x00\x7f\ue000\ud800":
        with pytest.raises(ClueTextError, match="invisible"):
            normalize_clue(f"snow{invisible}man")
    # default-ignorable letters and marks: the Hangul fillers (a blank read as a jamo), the combining
    # grapheme joiner (audit-koclue4: refused as jamo, 4.1, or not Hangul, 4.6); an emoji's variation
    # selector stays (❤️, a Spy's Word clue)
    assert normalize_clue("\u2764\ufe0f") == "\u2764\ufe0f"
    for invisible in "\u3164\uffa0\u115f\u1160\u034f":
        with pytest.raises(ClueTextError, match="invisible"):
            normalize_clue(f"사과{invisible}")
    assert normalize_clue("ㅋㅋ") == "ㅋㅋ" and normalize_clue("\u1100\u1161") == "가"  # jamo are letters
    assert normalize_clue("a" * MAX_CLUE_LENGTH) == "a" * MAX_CLUE_LENGTH
    with pytest.raises(ClueTextError, match="at most"):
        normalize_clue("a" * (MAX_CLUE_LENGTH + 1))
    assert "자를" in ClueTextError("too_long", limit=64, length=65).describe("ko")


@pytest.mark.parametrize("clue", ["snow\u2010man", "snow\u2011man", "snow\u2013man", "snow\u2212man",
                                  "snow\uff0dman", "snow\u200bman", "snow\u200dman", "snow\u00adman",
                                  "snow\u3000man", "snow\u00a0man"])
@pytest.mark.parametrize("invalid_clue", ["allow", "reject"])
def test_a_pictures_clue_with_a_dash_variant_or_invisible_break_is_not_one_word(tmp_path, clue, invalid_clue):
    record = dealt("pictures")
    record["config"]["invalid_clue"] = invalid_clue
    record["actions"] = [{"seat": spymaster(record), "clue": clue, "number": 1}]
    refused(replay_record(tmp_path, record), "RULES 2.2")


@pytest.mark.parametrize("clue", ["snow\u2010man", "snow\u200bman"])
def test_a_codenames_or_duet_clue_with_a_dash_variant_breaks_the_one_word_rule(tmp_path, clue):
    record = dealt("codenames")
    record["config"]["invalid_clue"] = "reject"
    record["actions"] = [{"seat": spymaster(record), "clue": clue, "number": 1}]
    refused(replay_record(tmp_path, record), "RULES")
    assert check_clue("snow\u2010man", 1, board=["tree"], language="en").rule == "4.7"


# ----- strict configs and settings ------------------------------------------------------------------
@pytest.mark.parametrize("field, value", [
    ("relaxed_order", "no"), ("relaxed_order", 0), ("relaxed_order", None), ("relaxed_order", "false"),
    ("invalid_clue", "REJECT"), ("invalid_clue", {}), ("invalid_clue", True), ("language", "fr"),
    ("language", ["en"]), ("mission", 3), ("mission", {}), ("timer_tokens", 9.0), ("timer_tokens", True),
    ("timer_tokens", 12), ("timer_tokens", 0), ("mistakes", 5.0),
])
def test_duet_config_fields_are_strict(tmp_path, field, value):
    record = dealt("duet")
    record["config"][field] = value
    refused(replay_record(tmp_path, record), f"config.{field}")


def test_timer_tokens_are_what_the_box_holds():  # RULES 3.3
    assert DuetConfig(timer_tokens=11).timer_tokens == 11
    with pytest.raises(MalformedRecord, match="the box holds 11"):
        DuetConfig(timer_tokens=12)


@pytest.mark.parametrize("field, value", [
    ("variant", ["teams"]), ("variant", "Teams"), ("invalid_clue", "no"), ("three_player_mode", 1),
    ("language", True), ("turn_time_limit", True), ("turn_time_limit", "5"), ("turn_time_limit", -1),
])
def test_codenames_config_fields_are_strict(tmp_path, field, value):
    record = dealt("codenames")
    record["config"][field] = value
    refused(replay_record(tmp_path, record), f"config.{field}")


@pytest.mark.parametrize("field, value", [
    ("allow_pass", "no"), ("allow_pass", 1), ("reveal_spy_role", None), ("ghost", "yes"), ("spies", 1.0),
    ("discussion_seconds", 90.0), ("discussion_seconds", True), ("tie_break", "Lottery"), ("device", ["multi"]),
    ("clue_mode", {}), ("vote_seconds", 30.0), ("vote_seconds", 10**9),
])
def test_spyword_settings_are_strict(tmp_path, field, value):
    record = dealt("spyword")
    record["settings"][field] = value
    refused(replay_record(tmp_path, record), f"settings.{field}")


def test_configs_built_in_code_keep_their_defaults():
    assert DuetConfig().invalid_clue == "allow" and CodenamesConfig().invalid_clue == "allow"
    assert SpyWordSettings().discussion_seconds == 90


# ----- the referee is on by default in replay -------------------------------------------------------
def _visible_clue(game: str, *options: str) -> dict:
    record = dealt(game, *options)
    seat = "A" if game == "duet" else spymaster(record)
    record["actions"] = [{"seat": seat, "clue": record["words"][0], "number": 1}]
    return record


@pytest.mark.parametrize("game", ["duet", "codenames"])
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_record_without_invalid_clue_is_refereed_in_the_boards_language(tmp_path, game, lang):
    record = _visible_clue(game, "--lang", lang)
    del record["config"]["invalid_clue"], record["config"]["language"]
    line = refused(replay_record(tmp_path, record), "RULES 4.3", record["words"][0])
    assert ("공개된" in line) == (lang == "ko")  # the board's language gives the message's


@pytest.mark.parametrize("game", ["duet", "codenames"])
def test_a_record_that_says_allow_is_not_refereed(tmp_path, game):
    record = _visible_clue(game, "--invalid-clue", "allow")
    assert record["config"]["invalid_clue"] == "allow"
    assert replay_record(tmp_path, record).exit_code == 0


@pytest.mark.parametrize("game", ["duet", "codenames", "pictures"])
def test_dealt_records_referee_their_clues(tmp_path, game):
    record = dealt(game)
    assert record["config"]["invalid_clue"] == "reject"  # what `cnlab deal` writes unless told otherwise


def test_a_refereed_record_round_trips_with_the_defaults_written_out():
    record = _visible_clue("duet")
    record["actions"] = []
    del record["config"]["invalid_clue"], record["config"]["language"]
    config = json.loads(record_to_json(record_from_dict(record)))["config"]
    assert (config["invalid_clue"], config["language"]) == ("reject", "en")


def test_reference_records_say_their_referee_and_round_trip_unchanged():
    for path in REFERENCE.glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert "invalid_clue" in data.get("config", {"invalid_clue": None})  # no default decides them
        assert json.loads(record_to_json(record_from_dict(data))) == data


# ----- records without config.language (issue 13) ---------------------------------------------------
def test_board_language():
    assert board_language(["tree", "거북"]) == "ko" and board_language(["tree", 3, None]) == "en"
    assert board_language([]) == "en"


@pytest.mark.parametrize("game", ["codenames", "pictures"])
@pytest.mark.parametrize("lang, clue", [("en", "animal"), ("ko", "동물")])
def test_an_interchange_record_without_language_replays(tmp_path, game, lang, clue):
    record = dealt(game, "--lang", lang)
    record["config"] = {"variant": "teams", "invalid_clue": "reject"}  # no language
    record["actions"] = [{"seat": spymaster(record), "clue": clue, "number": 1}]
    result = replay_record(tmp_path, record)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["game"] == game
    language = record_from_dict(record).config.language
    assert language == lang


def test_a_null_language_is_the_boards_when_refereed():
    record = dealt("codenames", "--lang", "ko")
    record["config"].update(language=None, invalid_clue="reject")
    assert record_from_dict(record).config.language == "ko"
    record["config"]["invalid_clue"] = "allow"
    assert record_from_dict(record).config.language is None


# ----- reading the file -------------------------------------------------------------------------------
def test_json_lines_are_split_on_newlines_only(tmp_path):
    first, second = dealt("duet"), dealt("spyword")
    first["note"] = "a\u2028b\x85c"  # line separators inside a JSON string are not record breaks
    text = json.dumps(first, ensure_ascii=False) + "\r\n\n" + json.dumps(second, ensure_ascii=False) + "\n"
    result = replay_bytes(tmp_path, text)
    assert result.exit_code == 0, result.output
    assert [json.loads(line)["game"] for line in result.stdout.strip().split("\n")] == ["duet", "spyword"]


def test_the_line_of_a_bad_record_is_named(tmp_path):
    text = json.dumps(dealt("duet")) + "\n\n" + '{"game": "duet"'
    refused(replay_bytes(tmp_path, text), "record 3:")


@pytest.mark.parametrize("damage", [
    lambda t: t.replace('"seed": 3,', '"seed": 3,,'),          # a stray comma
    lambda t: t.replace('"actions": []', '"actions": [],'),     # a trailing comma
    lambda t: t[:t.index('"key"')],                            # a truncated file
])
def test_a_pretty_printed_record_that_is_not_json_names_where(tmp_path, damage):
    """A pretty-printed record (one JSON document over many lines) with a syntax error was read as
    JSON lines, so the error was its first line's, "{": "record 1: ... Expecting property name
    enclosed in double quotes: line 1 column 2", wherever the fault was. A file whose first two
    lines are no JSON document each is one document: the error says where it breaks."""
    text = damage(json.dumps(dealt("duet"), indent=2))
    with pytest.raises(json.JSONDecodeError) as err:
        json.loads(text.strip())
    assert err.value.lineno > 1
    line = refused(replay_bytes(tmp_path, text), "not valid JSON", f"line {err.value.lineno} column {err.value.colno}")
    assert "record 1" not in line and "line 1 column 2" not in line
    lines = json.dumps(dealt("duet")) + "\n" + '{"game": "duet",\n'   # JSON lines: the bad one is named
    refused(replay_bytes(tmp_path, lines), "record 2:")
    lines = '{"game": "duet",\n' + json.dumps(dealt("duet")) + "\n"
    refused(replay_bytes(tmp_path, lines), "record 1:")


def test_an_empty_file_holds_no_record(tmp_path):
    refused(replay_bytes(tmp_path, " \n\n "), "holds no record")


def test_a_large_file_is_streamed_as_json_lines(tmp_path):
    line = json.dumps(dealt("duet"))
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join([line] * 50) + "\n")
    docs = list(_read_records(str(path), limit=len(line) * 3))
    assert [n for n, _ in docs] == list(range(1, 51)) and all(doc == line for _, doc in docs)
    path.write_text(line + "\n" + line * 4 + "\n" + line)
    with pytest.raises(MalformedRecord, match="line 2: a record of more than"):
        list(_read_records(str(path), limit=len(line) * 3))
    path.write_bytes((line + "\n").encode() * 5 + b"\xff\xff\n")
    with pytest.raises(MalformedRecord, match="line 6: not UTF-8"):
        list(_read_records(str(path), limit=len(line) * 3))


def test_a_large_single_document_is_refused_in_one_line(tmp_path):
    path = tmp_path / "big.json"
    path.write_text(json.dumps(dealt("duet"), indent=1) * 3)
    with pytest.raises(MalformedRecord, match="must be JSON lines"):
        _read_records(str(path), limit=100)


def test_a_missing_file_or_a_folder_is_one_line(tmp_path):
    refused(RUNNER.invoke(app, ["replay", str(tmp_path / "nope.json")]), "cannot read")
    refused(RUNNER.invoke(app, ["replay", str(tmp_path)]), "cannot read")


def test_a_record_without_a_game_field_says_so(tmp_path):
    """A record (or a results row of games.jsonl, a run.json) with no "game" field was refused as
    "unknown game that"; it now names the missing field and the games a record may name."""
    line = refused(replay_bytes(tmp_path, json.dumps({"game_index": 0, "won": True})), "no 'game' field")
    assert "duet" in line and "that" not in line


@pytest.mark.parametrize("game", ["duet", "codenames", "pictures"])
@pytest.mark.parametrize("lang,said", [("ko", "보이지 않는 문자"), ("en", "invisible character")])
def test_a_clue_texts_refusal_is_in_the_boards_language_as_the_filters_are(game, lang, said):
    """The engine refused a clue holding an invisible character, or too long, in English on a Korean
    board ('A clue may not hold an invisible character (U+200B).'), while the clue filter's verdicts
    on the same board (passed the board's language) are Korean: the web page showed that English
    line to a Korean game. Now the message is the board's language (engine.clues.messages)."""
    from engine import Clue, IllegalAction
    from engine.duet import DuetState
    from experiments.games.codenames.dealing import deal_record
    from experiments.games.duet.dealing import deal_duet_record

    if game == "duet":
        record = deal_duet_record(4, lang)
        state, seat = DuetState(record.words, record.key, record.config), "A"
    else:
        record = deal_record(2, lang, game=game, variant="two_player")
        state, seat = record.new_state(), f"{record.key.starts}-spymaster"
    before = state.observe(seat)
    for text, needle in [("우\u200b주", said), ("우주\u3164", said),  # a Hangul filler: no jamo (4.1) penalty
                         ("가" * (MAX_CLUE_LENGTH + 1), "64자" if lang == "ko" else "at most 64")]:
        with pytest.raises(IllegalAction) as err:
            state.apply(Clue(seat, text, 2))
        assert needle in err.value.message
    assert state.observe(seat) == before
