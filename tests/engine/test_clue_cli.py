"""`cnlab check-clue` (experiments/clue_cli.py) through a throwaway typer app (RULES section 4)."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from experiments.clue_cli import check_clue_command

pytest.importorskip("kiwipiepy")


@pytest.fixture(scope="module")
def app():
    a = typer.Typer()
    a.command("check-clue")(check_clue_command)

    @a.command("noop")
    def _noop() -> None:  # a second command keeps "check-clue" as a sub-command name
        pass

    return a


def run(app, args):
    return CliRunner().invoke(app, ["check-clue", *args])


def test_single_clue_prints_one_json_verdict(app):  # RULES 4.4
    r = run(app, ["--lang", "ko", "--board", "눈사람,강", "눈"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out == {"legal": False, "status": "illegal", "rule": "4.4", "message": out["message"],
                   "blocked_by": {"visible": "눈사람", "relation": "part", "part": "눈", "of": "눈사람"}}


def test_single_clue_covered_and_number(app):  # RULES 4.5 / 4.2
    r = run(app, ["--lang", "ko", "--board", "눈사람,강", "--covered", "눈사람", "눈"])
    assert json.loads(r.stdout)["legal"] is True
    r = run(app, ["--lang", "en", "--board", "RAIN", "--number", "12", "weather"])
    assert json.loads(r.stdout)["rule"] == "4.2"
    r = run(app, ["--lang", "en", "--board", "RAIN", "--number", "unlimited", "weather"])
    assert json.loads(r.stdout)["legal"] is True
    for other_digit in ("\u00b3", "\u0663", "\uff13"):   # ³, Arabic-Indic 3, full-width 3: not a clue number
        r = run(app, ["--lang", "en", "--board", "RAIN", "--number", other_digit, "weather"])
        assert r.exit_code == 0 and json.loads(r.stdout)["rule"] == "4.2", r.output
    # 5,000 ASCII digits: int() refuses them (a traceback before); the verdict quotes them cut short
    r = run(app, ["--lang", "en", "--board", "RAIN", "--number", "9" * 5000, "weather"])
    assert r.exit_code == 0 and json.loads(r.stdout)["rule"] == "4.2" and len(r.stdout) < 300, r.output[-300:]


def test_cases_file(app, tmp_path):  # RULES 4.3 / 4.4 / 4.6
    cases = tmp_path / "cases.jsonl"
    lines = [
        {"lang": "ko", "board": ["거북", "강"], "covered": [], "clue": "거북이", "number": 2},
        {"lang": "ko", "board": ["블랙홀"], "clue": "블로그", "number": 1},
        {"lang": "en", "board": ["RAINCOAT"], "covered": [], "clue": "raindrop", "number": 2},
        {"lang": "ko", "board": ["빵"], "clue": "브레드"},
    ]
    cases.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n\n", encoding="utf-8")
    r = run(app, ["--cases", str(cases)])
    assert r.exit_code == 0, r.output
    out = [json.loads(line) for line in r.stdout.splitlines()]
    assert [(o["legal"], o["rule"]) for o in out] == [(False, "4.3"), (True, None), (False, "4.4"), (False, "4.6")]
    assert all(set(o) == {"legal", "status", "rule", "message", "blocked_by"} for o in out)
    assert out[0]["blocked_by"] == {"visible": "거북", "relation": "contains", "part": "거북", "of": "거북이"}
    assert out[1]["blocked_by"] is None and out[3]["blocked_by"] is None  # legal; a table rule (4.6)


def test_blocked_by_names_the_form_or_part(app):  # RULES 4.3 / 4.4 / 4.6 (check-clue shows what blocked)
    def run_one(*args):
        r = run(app, list(args))
        assert r.exit_code == 0, r.output
        return json.loads(r.stdout)

    snowmen = run_one("--lang", "en", "--board", "snowman,river", "snowmen")
    assert snowmen["blocked_by"] == {"visible": "snowman", "relation": "form", "form": "snowmen", "of": "snowman"}
    raindrop = run_one("--lang", "en", "--board", "RAINCOAT", "raindrop")
    assert raindrop["blocked_by"] == {"visible": "raincoat", "relation": "shares", "part": "rain", "of": "raincoat"}
    split = run_one("--lang", "en", "--board", "SNOWMAN", "snow-man")
    assert split["blocked_by"] == {"visible": "snowman", "relation": "form", "form": "snow-man", "of": "snowman"}
    variant = run_one("--lang", "ko", "--board", "소고기", "쇠고기")
    assert (variant["rule"], variant["blocked_by"]["relation"], variant["blocked_by"]["of"]) == ("4.6", "variant", "소고기")
    syllable = run_one("--lang", "ko", "--board", "대한민국", "국")
    assert syllable["blocked_by"] == {"visible": "대한민국", "relation": "syllable", "part": "국", "of": "대한민국"}


def test_undecidable_verdict_on_the_command_line(app):  # RULES 4.2 (undecidable, allowed by default)
    r = run(app, ["--lang", "ko", "--board", "비누,무지개", "--number", "7", "세수"])
    out = json.loads(r.stdout)
    assert r.exit_code == 0
    assert (out["legal"], out["status"], out["rule"]) == (True, "undecidable", "4.2")
    assert out["blocked_by"] == {"visible": "무지개", "relation": "number", "number": 7}


@pytest.mark.parametrize(
    "args",
    [
        ["--lang", "fr", "--board", "a", "rain"],
        ["--lang", "ko", "--board", "눈"],
        ["--lang", "ko", "--board", "눈", "  "],
        ["--board", "snowman,SNOWMAN", "ice"],               # a board of distinct words
        ["--board", "snowman,\uff53\uff4e\uff4f\uff57\uff4d\uff41\uff4e", "ice"],   # full-width letters: the same word
        ["--board", "snowman,river", "--covered", "forest", "ice"],   # a covered card is on the board (4.5)
        ["--lang", "ko", "--board", "사\u200b과,강", "사과"],   # a card with an invisible character: no card
        ["--lang", "ko", "--board", "사과\u3164,강", "사과"],   # (a Hangul filler) hides the word it spells
    ],
)
def test_bad_input_exits_2(app, args):  # RULES 4 (CLI)
    r = run(app, args)
    assert r.exit_code == 2
    assert len(r.stderr.strip().splitlines()) == 1
    assert r.stdout == ""


@pytest.mark.parametrize(
    "line",
    ['{"lang": "ko", "board": ["눈"], "clue": "비"', '{"lang": "xx", "board": [], "clue": "비"}',
     '{"lang": "ko", "board": [], "clue": ""}', '["not", "an", "object"]', '{"lang": "ko", "board": "눈", "clue": "비"}',
     '{"board": ["snow", "rain"], "clue": "ice", "covered": [-1]}', '{"board": ["snow", "rain"], "clue": "ice", "covered": [5]}',
     '{"board": ["snow", "rain"], "clue": "ice", "covered": [true]}', '{"board": ["snow", "", "rain"], "clue": "ice"}',
     '{"board": ["\uc0ac\u200b\uacfc", "\uac15"], "clue": "\uc0ac\uacfc"}'],
)
def test_malformed_case_lines_exit_2(app, tmp_path, line):  # RULES 4 (CLI)
    cases = tmp_path / "bad.jsonl"
    cases.write_text('{"lang": "ko", "board": ["눈"], "clue": "비"}\n' + line + "\n", encoding="utf-8")
    r = run(app, ["--cases", str(cases)])
    assert r.exit_code == 2
    assert "bad.jsonl:2" in r.stderr
    assert r.stdout == ""


def test_an_empty_cases_file_or_a_clue_beside_it_exits_2(app, tmp_path):  # RULES 4 (CLI): no silent nothing
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n", encoding="utf-8")
    r = run(app, ["--cases", str(empty)])
    assert r.exit_code == 2 and "no cases" in r.stderr and r.stdout == ""
    full = tmp_path / "one.jsonl"
    full.write_text('{"board": ["snow"], "clue": "ice"}\n', encoding="utf-8")
    r = run(app, ["--cases", str(full), "rain"])
    assert r.exit_code == 2 and "not both" in r.stderr and r.stdout == ""


def test_missing_cases_file_exits_2(app, tmp_path):  # RULES 4 (CLI)
    r = run(app, ["--cases", str(tmp_path / "nope.jsonl")])
    assert r.exit_code == 2 and r.stderr.strip()


def test_language_defaults_to_the_boards_script(app):  # RULES 4: the board decides the language
    english = run(app, ["--board", "snowman,river", "snowmen"])
    assert english.exit_code == 0 and json.loads(english.stdout)["rule"] == "4.3"
    korean = run(app, ["--board", "눈사람,강", "눈"])
    assert korean.exit_code == 0 and json.loads(korean.stdout)["rule"] == "4.4"
    assert "공개된" in json.loads(korean.stdout)["message"]  # a Korean board's message is Korean


@pytest.mark.parametrize("word", ["snow\u200bman", "snow\u00adman", "snow\u2060man", "\ufeffsnowman"])
def test_a_board_word_with_an_invisible_character_exits_2_and_is_not_judged_as_another_word(app, tmp_path, word):  # RULES 1.1, 3.1
    """A board word with a zero-width space, a soft hyphen, a word joiner or a byte-order mark inside
    (pasted from a web page) was judged as some other word: with snow\\u200bman on the board, "snow"
    was a legal clue. Such a board is refused, as a record's board is: one line, exit 2."""
    r = run(app, ["--board", f"{word},river", "snow"])
    assert r.exit_code == 2 and r.stdout == "" and len(r.stderr.strip().splitlines()) == 1, r.stdout
    assert "the board word" in r.stderr and "invisible" in r.stderr
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps({"clue": "snow", "board": [word, "river"]}) + "\n", encoding="utf-8")
    r = run(app, ["--cases", str(cases)])
    assert r.exit_code == 2 and "cases.jsonl:1: the board word" in r.stderr
    r = run(app, ["--board", " snowman , ice cream,K9,e-mail", "snow"])   # spaces around a word are fine
    assert r.exit_code == 0 and json.loads(r.stdout)["rule"] == "4.4"


def test_a_board_in_decomposed_hangul_is_a_korean_board(app, tmp_path):  # RULES 4.6, 4.4
    """Hangul written decomposed (NFD: conjoining jamo, as macOS pastes file names) was not seen as
    Hangul: the board was English and every Korean clue illegal by 4.6 (눈 and 겨울 alike)."""
    import unicodedata

    nfd = lambda text: unicodedata.normalize("NFD", text)
    r = run(app, ["--board", f"{nfd('눈사람')},{nfd('강')}", nfd("눈")])
    assert r.exit_code == 0 and json.loads(r.stdout)["rule"] == "4.4", r.stdout
    r = run(app, ["--board", f"{nfd('눈사람')},{nfd('강')}", nfd("겨울")])
    assert json.loads(r.stdout)["legal"] is True, r.stdout
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps({"clue": nfd("겨울"), "board": [nfd("눈사람")]}, ensure_ascii=False) + "\n",
                     encoding="utf-8")
    assert json.loads(run(app, ["--cases", str(cases)]).stdout)["legal"] is True
