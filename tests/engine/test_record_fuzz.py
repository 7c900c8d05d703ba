"""Property-based fuzzing of `cnlab replay` over the records of all four games.

The seeds are real records: what `cnlab deal` prints for every game (English and Korean boards),
the same records with a few legal-looking actions, the same in the interchange shape (no
`invalid_clue`, no `language`), and the played reference games of tests/data/reference. Hypothesis
mutates them (values replaced by any JSON, keys dropped or added, types changed, deep nesting,
huge numbers and strings, odd Unicode, actions appended, values swapped between fields) and
damages the bytes (truncation, invalid UTF-8, a byte-order mark, JSON lines, blank lines).

Each mutated record is replayed through the real command line, in process, and must keep the
contract of the README: exit 0 (a summary per record on stdout, nothing on stderr) or exit 2 with
exactly one line `error: ...` on stderr; never a traceback; within TIME_BOUND seconds.

CNLAB_FUZZ_EXAMPLES sets the number of examples per game (default 300: about 40 s in all).
"""

from __future__ import annotations

import copy
import functools
import json
import os
import re
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from experiments.cli import app

RUNNER = CliRunner()
TIME_BOUND = 2.0  # seconds per replayed file
EXAMPLES = int(os.environ.get("CNLAB_FUZZ_EXAMPLES", "300"))
REFERENCE = Path(__file__).parents[1] / "data" / "reference"
WORKDIR: list[Path] = []  # the module's temporary folder, set by the `warm_referees` fixture
GAMES = ("duet", "codenames", "pictures", "spyword")

# Tokens that json.dumps cannot write: replaced in the text after dumping.
DEEP = re.compile(r'"@@DEEP(\d+)@@"')
BIGINT = re.compile(r'"@@INT(-?)(\d+)@@"')
LITERALS = {'"@@NAN@@"': "NaN", '"@@INF@@"': "-Infinity", '"@@EXP@@"': "1e999", '"@@NEGZERO@@"': "-0"}

ODD_STRINGS = [
    "", " ", "\n", "a\nb", "a\r\nb", "\t", "\x00", "\x1b[31mred", "\u2028", "\u0085", "\ud800", "x\udfffy",
    "\u200b", "snow\u200bman", "snow\u2010man", "snow\u2014man", "snow-man", "snow man", "\ufeff",
    "e\u0301", "\U0001F600", "거북이", "눈사람", "x" * 100_000, "가" * 70, "a" * 65, "9" * 5000, "NaN",
    "unlimited", "allow", "reject", "penalize", "no", "yes", "true", "en", "ko", "fr", "A", "B", "host",
    "clock", "PASS", "red-spymaster", "blue-spymaster", "red-guesser", "blue-guesser", "p1", "p2",
    "speaker", "vote", "lottery", "sentence", "word", "single", "two_player", "assassin_ending", "teams",
    "cairo", "card00", "tree", "animal",
]
ODD_NUMBERS = [0, 1, -1, 2, 9, 10, 11, 12, 25, 2**31, 2**63, 2**64, -(2**63), 10**20, 0.5, 1.0, 60.0, 90, 1e308]
SPECIAL = ["@@DEEP40@@", "@@DEEP2000@@", "@@DEEP100000@@", "@@INT5000@@", "@@INT-4301@@", "@@INT30@@",
           "@@NAN@@", "@@INF@@", "@@EXP@@", "@@NEGZERO@@"]

scalars = (st.none() | st.booleans() | st.sampled_from(ODD_NUMBERS) | st.integers() | st.sampled_from(ODD_STRINGS)
           | st.text(max_size=12) | st.sampled_from(SPECIAL))
json_values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(ODD_STRINGS[:20])
                                                                          | st.text(max_size=6), inner, max_size=4),
    max_leaves=8)


def _cli(*args: str, stdin: bytes | None = None):
    return RUNNER.invoke(app, list(args), input=stdin)


def _deal(game: str, *options: str) -> list[dict]:
    result = _cli("deal", game, "--count", "2", *options)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def _played(record: dict) -> dict:
    """The record with a few plausible opening actions (legal or not: the engine decides)."""
    record = copy.deepcopy(record)
    words = record.get("words", [])
    if record["game"] == "duet":
        record["actions"] = [{"seat": "A", "clue": "animal", "number": 2}, {"seat": "B", "guess": words[3]},
                             {"seat": "B", "stop": True}, {"seat": "B", "clue": words[0], "number": 1}]
    elif record["game"] in ("codenames", "pictures"):
        team = record["starts"]
        record["actions"] = [{"seat": f"{team}-spymaster", "clue": "animal", "number": 1},
                             {"seat": f"{team}-guesser", "guess": words[2]},
                             {"seat": f"{team}-guesser", "stop": True}]
    else:
        first = record["order"][0]
        record["actions"] = [{"seat": s, "ready": True} for s in record["seats"]] + [
            {"seat": first, "clue": "thing"}, {"seat": "clock", "timeout": "speaker"}]
    return record


def _interchange(record: dict) -> dict:
    """The record without the fields a record from elsewhere may lack (issue 13)."""
    record = copy.deepcopy(record)
    if isinstance(record.get("config"), dict):
        record["config"].pop("invalid_clue", None)
        record["config"].pop("language", None)
    return record


@functools.cache
def bases() -> dict[str, list[dict]]:
    """The seed records of each game (dealt once, on first use: not at collection)."""
    bases: dict[str, list[dict]] = {g: [] for g in GAMES}
    for game in GAMES:
        for lang in ("en", "ko"):
            for record in _deal(game, "--lang", lang, "--seed", "3"):
                bases[game] += [record, _played(record)]
                if game != "spyword":
                    bases[game] += [_interchange(_played(record))]
    for path in sorted(REFERENCE.glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        bases[record["game"]].append(record)
    return bases


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


def _get(value, path):
    for p in path:
        value = value[p]
    return value


def _set(record, path, new):
    if not path:
        return new
    _get(record, path[:-1])[path[-1]] = new
    return record


def _action(draw, record) -> dict:
    seats = ["A", "B", "host", "clock", "red-spymaster", "red-guesser", "blue-spymaster", "blue-guesser"]
    seats += [s for s in record.get("seats", []) if isinstance(s, str)] if isinstance(record.get("seats"), list) else []
    words = [w for w in record.get("words", []) if isinstance(w, str)] if isinstance(record.get("words"), list) else []
    seat = draw(st.sampled_from(seats))
    kind = draw(st.sampled_from(["clue", "guess", "stop", "cover", "ready", "vote", "kick", "timeout",
                                 "ghost_guess", "start_vote", "leave", "dismiss"]))
    value = draw(st.sampled_from(words or ["tree"]) | st.sampled_from(ODD_STRINGS) | st.just(True))
    action = {"seat": seat, kind: value}
    if kind == "clue" and draw(st.booleans()):
        action["number"] = draw(st.sampled_from([1, 2, 0, 9, 10, "unlimited", -1, True, None]))
    return action


@st.composite
def mutated_file(draw, game: str) -> tuple[bytes, bool]:
    """(the bytes of a damaged record file, whether to pass it on stdin)."""
    record = copy.deepcopy(draw(st.sampled_from(bases()[game])))
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(record))
        path = draw(st.sampled_from(paths))
        op = draw(st.sampled_from(["replace", "replace", "delete", "insert", "wrap", "swap", "stringify",
                                   "action", "action"]))
        target = _get(record, path)
        if op == "replace":
            record = _set(record, path, draw(json_values))
        elif op == "delete" and path:
            parent = _get(record, path[:-1])
            del parent[path[-1]]
        elif op == "insert" and isinstance(target, (dict, list)):
            value = draw(json_values)
            if isinstance(target, dict):
                target[draw(st.sampled_from(ODD_STRINGS[:30]) | st.text(max_size=8))] = value
            else:
                target.insert(draw(st.integers(0, len(target))), value)
        elif op == "wrap":
            record = _set(record, path, [target] if draw(st.booleans()) else {"x": target})
        elif op == "swap":
            other = _get(record, draw(st.sampled_from(paths)))
            if other is not target:
                record = _set(record, path, copy.deepcopy(other))
        elif op == "stringify":
            record = _set(record, path, json.dumps(target)[:200] if draw(st.booleans()) else str(target)[:200])
        elif op == "action" and isinstance(record, dict):
            actions = record.get("actions")
            if isinstance(actions, list):
                actions.insert(draw(st.integers(0, len(actions))), _action(draw, record))
    text = json.dumps(record, ensure_ascii=draw(st.booleans()), indent=draw(st.sampled_from([None, None, 1])))
    text = DEEP.sub(lambda m: "[" * int(m[1]) + "]" * int(m[1]), text)
    text = BIGINT.sub(lambda m: m[1] + "9" * int(m[2]), text)
    for token, literal in LITERALS.items():
        text = text.replace(token, literal)
    data = text.encode("utf-8", "surrogatepass")
    damage = draw(st.sampled_from(["none"] * 8 + ["truncate", "corrupt", "bom", "lines", "lines_bad", "blank"]))
    if damage == "truncate":
        data = data[:draw(st.integers(0, len(data)))]
    elif damage == "corrupt":
        i = draw(st.integers(0, len(data)))
        data = data[:i] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\xe2\x80"])) + data[i:]
    elif damage == "bom":
        data = b"\xef\xbb\xbf" + data
    elif damage in ("lines", "lines_bad"):
        second = json.dumps(draw(st.sampled_from(bases()[game])), ensure_ascii=False).encode()
        data = data.replace(b"\n", b" ") + b"\n" + (second if damage == "lines" else second[: len(second) // 2])
    elif damage == "blank":
        data = b"\n\n" + data + b"\n  \n"
    return data, draw(st.integers(0, 9)) == 0


def check_contract(data: bytes, stdin: bool = False) -> None:
    path = (WORKDIR[0] if WORKDIR else Path(tempfile.gettempdir())) / "cnlab-fuzz-record.json"
    path.write_bytes(data)
    start = time.perf_counter()
    result = _cli("replay", "-", stdin=data) if stdin else _cli("replay", str(path))
    elapsed = time.perf_counter() - start
    shown = data[:300]
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{type(result.exception).__name__}: {result.exception!r} on {shown!r}")
    assert result.exit_code in (0, 2), (result.exit_code, result.output, shown)
    assert "Traceback" not in result.output
    if result.exit_code == 0:
        assert result.stderr == "", (result.stderr, shown)
        for line in result.stdout.rstrip("\n").split("\n"):  # JSON lines: U+2028 in a string is no break
            assert "game" in json.loads(line)
    else:
        lines = result.stderr.rstrip("\n").split("\n")
        assert len(lines) == 1 and result.stderr.endswith("\n"), (result.stderr, shown)
        assert lines[0].isprintable(), (lines, shown)  # control characters escaped
        assert lines[0].startswith("error: "), (lines, shown)
    assert elapsed < TIME_BOUND, f"{elapsed:.2f} s on {shown!r}"


@pytest.fixture(scope="module", autouse=True)
def warm_referees(tmp_path_factory):
    """Load each language's clue analyser once, so the time bound measures replays only."""
    WORKDIR[:] = [tmp_path_factory.mktemp("fuzz")]
    for game in GAMES:
        for record in bases()[game]:
            _cli("replay", "-", stdin=json.dumps(record).encode())


def test_the_seed_records_replay():
    """Dealt and reference records replay (exit 0); the played ones keep the contract."""
    for game in GAMES:
        for record in bases()[game]:
            data = json.dumps(record, ensure_ascii=False).encode()
            if not record["actions"] or "expected" in record:
                result = _cli("replay", "-", stdin=data)
                assert result.exit_code == 0, result.output
            check_contract(data)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=EXAMPLES, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example])
@given(case=st.data())
def test_mutated_records_keep_the_replay_contract(game, case):
    data, stdin = case.draw(mutated_file(game))
    check_contract(data, stdin)
