"""`cnlab check-clue`: the clue filter (RULES section 4) from the command line.

    cnlab check-clue --board 눈사람,강 --covered 강 한강
    cnlab check-clue --board snowman,river riverbank
    cnlab check-clue --cases cases.jsonl

Without --lang (or a case's "lang"), the language is the board's script, like every command that
reads a board: Hangul on the board or in the clue means Korean, anything else English.

One JSON verdict per clue on stdout ({"legal": false, "status": "illegal", "rule": "4.4", "message":
"...", "blocked_by": {"visible": "눈사람", "relation": "part", "part": "눈", "of": "눈사람"}}); an
undecidable clue (RULES 4.2: the number may be part of the hint) is {"legal": true, "status":
"undecidable", ...}: a referee allows it by default and the message says so. Bad input (unknown
language, empty clue, malformed case line) is one line on stderr and exit code 2.

    cnlab check-clue --warm [--lang ko]    # analyse common words once into the on-disk store
"""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path
from typing import Optional

import typer

from experiments.exits import fail, writable_folder

LANGUAGES = ("ko", "en")


def _fail(text: str) -> None:
    fail(f"check-clue: {text}")


def _split(text: Optional[str]) -> list[str]:
    return [w.strip() for w in (text or "").split(",") if w.strip()]


def _number(value):
    """A number written in digits as an int (the filter says why it is out of range); else as given."""
    from engine.actions import written_number

    number = written_number(value) if isinstance(value, str) else None
    return value if number is None else number


def _script_language(words) -> str:
    """ko when any word holds Hangul, else en: engine records' `board_language`, so Hangul written
    decomposed (NFD: conjoining jamo, as some systems paste it) is Korean too, not an English board."""
    from engine.record_fields import board_language

    return board_language(words)


#: The fields of a --cases line; another (a misspelt "covred") is refused, not dropped.
CASE_FIELDS = ("clue", "board", "covered", "number", "lang")


def _case(obj, where: str, default_lang: str | None) -> dict:
    if not isinstance(obj, dict):
        _fail(f"{where}: expected a JSON object")
    from engine.errors import MalformedRecord
    from engine.record_fields import check_fields

    try:
        check_fields(obj, CASE_FIELDS, where)
    except MalformedRecord as exc:
        _fail(str(exc))
    lang = obj.get("lang", default_lang)
    if lang is None:
        lang = _script_language([obj.get("clue"), *(obj.get("board") if isinstance(obj.get("board"), list) else [])])
    if lang not in LANGUAGES:
        _fail(f"{where}: unknown language {lang!r} (expected ko or en)")
    clue = obj.get("clue")
    if not isinstance(clue, str) or not clue.strip():
        _fail(f"{where}: missing or empty clue")
    board = obj.get("board", [])
    covered = obj.get("covered", [])
    if not isinstance(board, list) or not all(isinstance(w, str) for w in board):
        _fail(f"{where}: board must be a list of words")
    if not isinstance(covered, list) or not all(isinstance(w, (str, int)) for w in covered):
        _fail(f"{where}: covered must be a list of words")
    _check_board(board, covered, where)
    return {"lang": lang, "clue": clue, "board": board, "covered": covered, "number": _number(obj.get("number", 1))}


def _check_board(board: list, covered: list, where: str) -> None:
    """A board of distinct non-empty words (the same word as records read it: `word_key`), each a
    word a card can show (`word_problem`: no invisible character, which would hide the word it
    spells from the rules); each covered card one of them, by word or by its index."""
    from engine.record_fields import word_key as key
    from engine.record_fields import word_problem

    seen = set()
    for w in board:
        if not w.strip():
            _fail(f"{where}: the board holds an empty word")
        if (problem := word_problem(w.strip())) is not None:
            _fail(f"{where}: the board word {w.strip()[:40]!r} {problem}")
        if key(w) in seen:
            _fail(f"{where}: the board holds {w.strip()[:40]!r} twice")
        seen.add(key(w))
    for c in covered:
        if isinstance(c, bool) or (isinstance(c, int) and not 0 <= c < len(board)):
            _fail(f"{where}: covered card {c!r} is not an index of the board (0..{len(board) - 1})")
        if isinstance(c, str) and key(c) not in seen:
            _fail(f"{where}: covered word {c[:40]!r} is not on the board")


#: The longest line of a --cases file, in bytes (a case is a clue and a board of a few hundred).
MAX_CASE_LINE = 16 * 2**20


def _case_lines(cases: Path):
    """(line number, text) of a JSON-lines file: lines end at \n only (a JSON string may hold U+2028
    or a form feed, which str.splitlines breaks at), each read up to MAX_CASE_LINE bytes (an endless
    stream such as /dev/zero is refused, not read into memory), a leading byte-order mark dropped."""
    try:
        f = open(cases, "rb")
    except OSError as exc:
        _fail(f"cannot read {cases}: {exc.strerror or exc}")
    offset = 0
    with f:
        for n in itertools.count(1):
            try:
                raw = f.readline(MAX_CASE_LINE + 1)
            except OSError as exc:
                _fail(f"cannot read {cases}: {exc.strerror or exc}")
            if not raw:
                return
            if len(raw) > MAX_CASE_LINE:
                _fail(f"{cases}:{n}: a line of more than {MAX_CASE_LINE} bytes (one case a line)")
            if n == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw, offset = raw[3:], 3
            try:
                yield n, raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                _fail(f"{cases}:{n}: not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {offset + exc.start})")
            offset += len(raw)


def _check_store() -> None:
    """--warm's store must be one it can write: the filter takes an unwritable or turned-off store
    as memory only (never an error), so --warm analysed for a minute, stored nothing and exited 0."""
    from engine.clues.store import cache_dir

    root = cache_dir()
    if root is None:
        _fail("--warm fills the on-disk store, which CNLAB_CLUE_CACHE=off turns off")
    writable_folder(root, "--warm's store folder")


def _warm(lang: Optional[str]) -> None:
    import time

    from engine.clues import ClueFilter, FilterUnavailable

    if lang is not None and lang not in LANGUAGES:
        _fail(f"unknown language {lang!r} (expected ko or en)")
    _check_store()
    for language in ([lang] if lang else list(LANGUAGES)):
        t0 = time.perf_counter()
        words: list[str] = []
        try:
            from wordfreq import top_n_list

            words += top_n_list(language, 50_000)
        except ImportError:
            pass
        try:
            from engine.paths import data_path

            words += [w.strip() for w in data_path("words", f"{language}.txt").read_text(encoding="utf-8").splitlines()
                      if w.strip() and not w.startswith("#")]
        except OSError:
            pass
        try:
            ClueFilter([], language=language).legal_mask(list(dict.fromkeys(words)))
        except FilterUnavailable as exc:
            _fail(str(exc))
        typer.echo(json.dumps({"lang": language, "words": len(set(words)), "seconds": round(time.perf_counter() - t0, 1)}))


def check_clue_command(
    clue: Optional[str] = typer.Argument(None, help="The clue word to judge."),
    lang: Optional[str] = typer.Option(None, "--lang", help="Board language: ko or en (default: the board's "
                                       "script: Hangul means ko, else en)."),
    board: str = typer.Option("", "--board", help="Code words on the board, comma separated."),
    covered: str = typer.Option("", "--covered", help="Covered code words, comma separated (RULES 4.5)."),
    number: str = typer.Option("1", "--number", help="The clue number: 0..9 or unlimited."),
    cases: Optional[Path] = typer.Option(None, "--cases", help="JSON lines file of cases; one verdict per line."),
    warm: bool = typer.Option(False, "--warm", help="Analyse the language's common words and code words once "
                              "into the on-disk store (about a minute), so later checks of them start fast; "
                              "prints one JSON line per language."),
) -> None:
    """Judge clues with the clue filter (RULES section 4); print one JSON verdict per clue.

    Each verdict: {"legal", "status" (legal, illegal or undecidable), "rule", "message" (in the board's
    language), "blocked_by" (the visible word and the part or form that blocked, else null)}.

    Example: cnlab check-clue --board snowman,river,bark snowmen
    """
    if warm:
        given = [name for name, value in (("a CLUE", clue), ("--board", board), ("--covered", covered),
                                          ("--number", number != "1"), ("--cases", cases)) if value]
        if given:
            _fail(f"--warm judges no clue: give {', '.join(given)} without --warm")
        _warm(lang)
        return
    if cases is not None:
        if clue is not None:
            _fail("give a CLUE or --cases FILE, not both")
        given = [name for name, value in (("--board", board), ("--covered", covered), ("--number", number != "1"))
                 if value]
        if given:
            _fail(f"{', '.join(given)} with --cases: each case gives its own (\"board\", \"covered\", \"number\")")
        items = []
        for n, line in _case_lines(cases):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                _fail(f"{cases}:{n}: malformed JSON ({exc.msg})")
            except RecursionError:
                _fail(f"{cases}:{n}: malformed JSON (nested too deeply)")
            except ValueError as exc:  # e.g. an integer too long to read
                _fail(f"{cases}:{n}: malformed JSON ({str(exc).splitlines()[0] if str(exc) else 'unreadable'})")
            items.append(_case(obj, f"{cases}:{n}", lang))
        if not items:
            _fail(f"{cases}: no cases (one JSON object a line)")
    else:
        if lang is None:
            lang = _script_language([clue, *_split(board), *_split(covered)])
        if lang not in LANGUAGES:
            _fail(f"unknown language {lang!r} (expected ko or en)")
        if clue is None or not clue.strip():
            _fail("empty clue (give a CLUE or --cases FILE)")
        _check_board(_split(board), _split(covered), "--board/--covered")
        items = [{"lang": lang, "clue": clue, "board": _split(board), "covered": _split(covered), "number": _number(number)}]

    from engine.clues import ClueFilter, FilterUnavailable

    try:
        for item in items:
            f = ClueFilter(item["board"], language=item["lang"], covered=item["covered"])
            verdict = f.check(item["clue"], item["number"])
            typer.echo(json.dumps(verdict.as_dict(), ensure_ascii=False))
    except FilterUnavailable as exc:
        _fail(str(exc))
    except (IndexError, ValueError) as exc:
        _fail(str(exc))
    sys.stdout.flush()
