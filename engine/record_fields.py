"""The fields every game record shares, parsed and checked once for all games.

Also the guards every record passes before any game looks at it (`parse_json`, `check_tree`):
strict JSON (no NaN or Infinity, no number over Python's digit limit), at most MAX_NESTING levels
of nesting anywhere (unchecked added fields included), every string valid Unicode (no lone
surrogate, so a summary can always be printed); the strict field checks the configs share
(`check_bool`, `check_choice`); the board's language (`board_language`); and `one_line`, which
makes any message one printable line.
"""

from __future__ import annotations

import json
import math
import re
import reprlib
from dataclasses import asdict
from typing import Any, Callable, Iterable

from .clues.normalize import MAX_CLUE_LENGTH
from .errors import IllegalAction, MalformedRecord

RECORD_VERSION = 1
#: Deepest nesting of lists and objects a record may have (a record itself needs 4).
MAX_NESTING = 32
#: Seeds are what numpy's generators take: non-negative, here below 2**64.
MAX_SEED = 2**64 - 1
#: The most actions a record may hold (a whole game of any of the four needs far fewer).
MAX_ACTIONS = 10_000
#: The longest board word (and Spy's Word word) a record may hold: a card is one word, and the
#: clue referee analyses every visible word, so the bound is a clue's (engine.clues.normalize).
MAX_WORD_LENGTH = MAX_CLUE_LENGTH
LANGUAGES = ("en", "ko")
_HANGUL = re.compile("[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7a3\ud7b0-\ud7ff]")


# ----- any message, one printable line ---------------------------------------------------------
def one_line(text: Any, limit: int = 500) -> str:
    """`text` as one printable line: control, format and other invisible characters (newlines,
    U+2028, zero-width spaces, lone surrogates) written as escapes like repr does; at most `limit`
    characters of it kept."""
    text = str(text)
    cut, rest = text[:limit], len(text) - limit
    out = cut if cut.isprintable() else "".join(
        ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in cut)
    return out + (f" ... ({rest} more characters)" if rest > 0 else "")


_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxdict, _SHORT.maxtuple = 2, 4, 4, 4
_SHORT.maxstring, _SHORT.maxlong, _SHORT.maxother = 40, 40, 40


def shown(value: Any) -> str:
    """A short repr of a value for a message: a huge or deep value never ends up in one whole."""
    return _SHORT.repr(value)


# ----- the guards before any game -------------------------------------------------------------
def _no_constant(name: str) -> Any:
    raise MalformedRecord(f"not valid JSON: {name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise MalformedRecord(f"not valid JSON: the number {shown(text)} is out of range")
    return value


def parse_json(text: str) -> Any:
    """Strict JSON, every failure one MalformedRecord (never RecursionError or ValueError).
    Callers check the parsed tree with `check_tree` (record_from_dict does)."""
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except MalformedRecord:
        raise
    except json.JSONDecodeError as exc:
        raise MalformedRecord(f"not valid JSON: {exc}") from None
    except RecursionError:
        raise MalformedRecord(f"nested deeper than {MAX_NESTING} levels of lists and objects") from None
    except ValueError:  # an integer over sys.get_int_max_str_digits()
        raise MalformedRecord("not valid JSON: a number has too many digits") from None
    return data


def _where(path: tuple) -> str:
    out = ""
    for p in path[:6]:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if re.fullmatch(r"\w{1,30}", p) else f"[{shown(p)}]")
    return (out.lstrip(".") or "the record") + ("..." if len(path) > 6 else "")


def _valid_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_tree(data: Any) -> None:
    """MalformedRecord unless `data` nests at most MAX_NESTING levels and every string and key
    is valid Unicode. Iterative: no depth can overflow the stack here."""
    stack = [(data, 0, ())]
    while stack:
        value, depth, path = stack.pop()
        if isinstance(value, str):
            if not _valid_unicode(value):
                raise MalformedRecord(f"{_where(path)} is not valid Unicode text (a lone surrogate)")
        elif isinstance(value, (dict, list)):
            if depth >= MAX_NESTING:
                raise MalformedRecord(f"{_where(path)} nests deeper than {MAX_NESTING} levels of lists and objects")
            if isinstance(value, dict):
                for k, v in value.items():
                    if not _valid_unicode(k):
                        raise MalformedRecord(f"a key of {_where(path)} is not valid Unicode text (a lone surrogate)")
                    stack.append((v, depth + 1, path + (k,)))
            else:
                stack.extend((v, depth + 1, path + (i,)) for i, v in enumerate(value))


# ----- shared fields ---------------------------------------------------------------------------
def check_header(data: Any, games: Iterable[str], name: str) -> str:
    """A JSON object of one of `games`, at the supported version; returns its game."""
    if not isinstance(data, dict):
        raise MalformedRecord("a record must be a JSON object")
    game = data.get("game")
    if not isinstance(game, str) or game not in tuple(games):
        raise MalformedRecord(f"not a {name} record (game={shown(game)})")
    version = data.get("version")
    if type(version) is not int or version != RECORD_VERSION:
        raise MalformedRecord(f"unsupported record version {shown(version)}")
    return game


def check_words(words: Any, count: int, what: str = "strings") -> list[str]:
    """A board: a list of `count` strings, each at most MAX_WORD_LENGTH characters."""
    if not isinstance(words, list) or len(words) != count or not all(isinstance(w, str) for w in words):
        raise MalformedRecord(f"'words' must be a list of {count} {what}")
    for i, w in enumerate(words):
        if len(w) > MAX_WORD_LENGTH:
            raise MalformedRecord(f"words[{i}] has {len(w)} characters; a card is one word of at most "
                                  f"{MAX_WORD_LENGTH}")
    return words


Seed = int | list[int] | None


def parse_seed(data: dict) -> Seed:
    """The seed the game was dealt from: an integer, or the sequence of integers a simulator deals
    game i of a run from (`[run seed, i]`, numpy's seed-sequence form), each 0..2**64-1; or null."""
    seed = data.get("seed")
    entropy = seed if isinstance(seed, list) and 1 <= len(seed) <= 4 else [seed]
    if seed is not None and not all(type(s) is int and 0 <= s <= MAX_SEED for s in entropy):
        raise MalformedRecord("'seed' must be null, an integer 0..2**64-1 or a list of 1-4 such integers")
    return seed


def check_bool(value: Any, name: str, rule: str = "") -> bool:
    """A JSON true or false: "no", 0 or null are not booleans."""
    if not isinstance(value, bool):
        raise MalformedRecord(f"{name} must be true or false, not {shown(value)}{f' ({rule})' if rule else ''}")
    return value


#: RULES 4.7: the options players may agree on before a game (off by default), by their record
#: names; each is a field of the clue filter's `ClueOptions`.
CLUE_OPTIONS = {
    "multiword_compounds": "allow_multiword_compounds",   # 열대우림, 냉동 식품 (Pictures: 스쿠버 다이빙)
    "multiword_proper_nouns": "allow_multiword_proper_nouns",
    "abbreviations": "allow_abbreviations",               # 유엔, 국과수, FBI
    "liberal_homophones": "liberal_homophones",
    "rhymes": "rhymes",
}


def config_dict(config) -> dict[str, Any]:
    """A game config as a record's JSON object: its fields, `clue_options` as a list and left out
    when none were agreed (so records without them read and write as before)."""
    out = asdict(config)
    if out.get("clue_options"):
        out["clue_options"] = list(out["clue_options"])
    else:
        out.pop("clue_options", None)
    return out


def check_clue_options(value: Any, where: str = "config.clue_options") -> tuple[str, ...]:
    """The agreed clue options of a config (RULES 4.7) as a sorted tuple of their names: a list of
    distinct names from `CLUE_OPTIONS`."""
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise MalformedRecord(f"{where} must be a list of option names ({', '.join(CLUE_OPTIONS)})")
    unknown = [v for v in value if v not in CLUE_OPTIONS]
    if unknown:
        raise MalformedRecord(f"{where}: unknown option {shown(unknown[0])} (RULES 4.7: {', '.join(CLUE_OPTIONS)})")
    if len(set(value)) != len(value):
        raise MalformedRecord(f"{where} names an option twice")
    return tuple(sorted(value))


def check_choice(value: Any, allowed: Iterable, name: str, rule: str = "") -> Any:
    """One of `allowed`, of the same JSON type (60.0 is not 60, true is not 1)."""
    allowed = tuple(allowed)
    if not any(type(value) is type(a) and value == a for a in allowed):
        raise MalformedRecord(f"{name} must be one of {', '.join(map(repr, allowed))}, not {shown(value)}"
                              f"{f' ({rule})' if rule else ''}")
    return value


def board_language(texts: Iterable[Any]) -> str:
    """The language of a board (or of a Pictures game's clues): 'ko' when any text holds Hangul,
    otherwise 'en'. Non-strings are ignored."""
    return "ko" if any(isinstance(t, str) and _HANGUL.search(t) for t in texts) else "en"


def replay_actions(state: Any, actions: Iterable) -> Any:
    """Apply actions in order; an illegal one raises IllegalAction carrying its index."""
    for i, action in enumerate(actions):
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise exc.at(i) from None
    return state


def parse_actions(data: dict, parse_one: Callable[[Any], Any]) -> list:
    """The record's actions, each parsed; a bad one is reported with its index."""
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise MalformedRecord("'actions' must be a list")
    if len(actions) > MAX_ACTIONS:
        raise MalformedRecord(f"'actions' holds {len(actions)} actions; a record holds at most {MAX_ACTIONS}")
    parsed = []
    for i, a in enumerate(actions):
        try:
            parsed.append(parse_one(a))
        except MalformedRecord as exc:
            raise MalformedRecord(f"action {i}: {exc}") from None
    return parsed
