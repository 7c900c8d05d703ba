"""The fields every game record shares, parsed and checked once for all games.

Also the guards every record passes before any game looks at it (`parse_json`, `check_tree`): strict
JSON (no NaN or Infinity, no number over Python's digit limit, no key twice in one object), at most
MAX_NESTING levels of nesting anywhere (unchecked added fields included), every string valid Unicode
(no lone surrogate, so a summary can always be printed); the strict field checks the configs share
(`check_bool`, `check_choice`); the words a card may show and the boards they make (`word_problem`,
`word_key`, `check_board`); fields no rule knows (`check_fields` for configs, `added_fields` for a
record's own added fields); the board's language (`board_language`); and `one_line`, which makes any
message one printable line.
"""

from __future__ import annotations

import difflib
import json
import math
import re
import reprlib
import unicodedata
from dataclasses import asdict
from functools import lru_cache
from typing import Any, Callable, Collection, Iterable, Sequence

from .clues.normalize import MAX_CLUE_LENGTH, invisible_character
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


class _ShortRepr(reprlib.Repr):
    def repr_int(self, x: int, level: int) -> str:
        # repr() refuses an int of more than 4,300 digits (ValueError): say how big it is instead
        return super().repr_int(x, level) if x.bit_length() < 10_000 else f"<an integer of {x.bit_length()} bits>"


_SHORT = _ShortRepr()
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


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise MalformedRecord(f"not valid JSON: the key {shown(twice)} appears twice in one object")
    return data


def parse_json(text: str) -> Any:
    """Strict JSON, every failure one MalformedRecord (never RecursionError or ValueError): no NaN
    or Infinity, no key twice in one object (JSON leaves its meaning open; json.loads would keep the
    last silently). Callers check the parsed tree with `check_tree` (record_from_dict does)."""
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=_finite, object_pairs_hook=_unique_keys)
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
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_tree(data: Any) -> None:
    """MalformedRecord unless `data` nests at most MAX_NESTING levels and every string and key
    is valid Unicode. Iterative: no depth can overflow the stack here. Linear: only lists and
    objects go on the stack (a string is checked where its list or object is read)."""
    if isinstance(data, str) and not _valid_unicode(data):
        raise MalformedRecord(f"{_where(())} is not valid Unicode text (a lone surrogate)")
    stack = [(data, 0, ())] if isinstance(data, (dict, list)) else []
    while stack:
        value, depth, path = stack.pop()
        if depth >= MAX_NESTING:
            raise MalformedRecord(f"{_where(path)} nests deeper than {MAX_NESTING} levels of lists and objects")
        if isinstance(value, dict):
            for k in value:
                if not _valid_unicode(k):
                    raise MalformedRecord(f"a key of {_where(path)} is not valid Unicode text (a lone surrogate)")
            items = value.items()
        else:
            items = enumerate(value)
        for k, v in items:
            if isinstance(v, str):
                if not _valid_unicode(v):
                    raise MalformedRecord(f"{_where(path + (k,))} is not valid Unicode text (a lone surrogate)")
            elif isinstance(v, (dict, list)):
                stack.append((v, depth + 1, path + (k,)))


# ----- shared fields ---------------------------------------------------------------------------
def check_header(data: Any, games: Iterable[str], name: str) -> str:
    """A JSON object of one of `games`, at the supported version; returns its game."""
    if not isinstance(data, dict):
        raise MalformedRecord("a record must be a JSON object")
    game = data.get("game")
    if not isinstance(game, str) or game not in tuple(games):
        raise MalformedRecord(f"not a {name} record (game={shown(game)})")
    if "version" not in data:
        raise MalformedRecord(f"no 'version' field: a record names its format, version {RECORD_VERSION}")
    version = data["version"]
    if type(version) is not int or version != RECORD_VERSION:
        raise MalformedRecord(f"unsupported record version {shown(version)} (records are version {RECORD_VERSION})")
    return game


def word_problem(word: str) -> str | None:
    """Why `word` is not one word a card can show, or None (RULES 1.1, 3.1 boards, RULES 5.3 pack
    words): at most MAX_WORD_LENGTH characters; no invisible character (a format character such as a
    zero-width space, a control character such as NUL, tab or newline, a line separator, a private-use
    or unassigned code point: `engine.clues.normalize.invisible_character`), so what the players
    see is the whole word; no whitespace before or after it; and at least one letter or digit, so
    it is not empty (nor only spaces or marks)."""
    if len(word) > MAX_WORD_LENGTH:
        return f"has {len(word)} characters; a card is one word of at most {MAX_WORD_LENGTH}"
    ch = invisible_character(word, breaks=True)
    if ch is not None:
        return f"holds the invisible or control character U+{ord(ch):04X}"
    if word != word.strip():
        return "has whitespace before or after the word"
    if not any(unicodedata.category(c)[0] in "LN" for c in word):
        return "is not a word (it has no letter or digit)"
    return None


def word_key(word: str) -> str:
    """The form in which two card words are the same word: Unicode compatibility form (NFKC: a
    composed and a decomposed accent, full-width letters), case-folded, every run of whitespace one
    space. CRANE is crane, "e\u0301" is "\u00e9", "ice\u00a0cream" is "ice cream"."""
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", word).casefold())
    return " ".join(text.split())


def distinct_words(words: Sequence[str]) -> list[str]:
    """A dealer's pool: each word once as `word_key` reads it (CRANE, Crane, crane: the first in
    sorted order), so a deal never puts one word on a board twice, which `check_board` refuses.
    ValueError, whatever the seed, for a word no card can show (`word_problem`: "crane\r" of a CRLF
    file, a byte-order mark, "", a tab): dealt, it made a board the engine refuses."""
    words = tuple(words)   # read once: a generator of words deals as a list does
    try:
        return list(_distinct_words(words))
    except TypeError:   # unhashable: not a word
        bad = next(w for w in words if not isinstance(w, str))
        raise ValueError(f"RULES 1.1, 2.1, 3.1: the board word {shown(bad)} is not a string") from None


@lru_cache(maxsize=8)
def _distinct_words(words: tuple) -> tuple[str, ...]:
    """`distinct_words` of one list, kept: a simulator deals every game from the same list."""
    for w in words:
        problem = word_problem(w) if isinstance(w, str) else "is not a string"
        if problem is not None:
            raise ValueError(f"RULES 1.1, 2.1, 3.1: the board word {shown(w)} {problem}; a word list gives one word a line")
    first: dict[str, str] = {}
    for w in sorted(set(words)):
        first.setdefault(word_key(w), w)
    return tuple(first.values())


def board_spelling(word: Any, words: Sequence[str]) -> tuple[str, str] | None:
    """Why a guess or cover of `word` names no card (`engine.refusals.off_board`): where a card is the
    same word spelled otherwise (`word_key`: CRANE, a decomposed é), (`word` as shown, the board's
    spelling), in code points when the two look alike, since a move names a card exactly as the board
    spells it; else None."""
    if isinstance(word, str) and len(word) <= 4 * MAX_WORD_LENGTH:
        key = word_key(word)
        for w in words:
            if word_key(w) == key:
                if unicodedata.normalize("NFKC", word) == unicodedata.normalize("NFKC", w):
                    return ascii(word)[:60], ascii(w)[:60]
                return shown(word), shown(w)
    return None


def check_board(words: Any, count: int, rule: str, board: str, what: str = "words") -> list[str]:
    """A board of `count` cards (RULES 1.1, 2.1, 3.1: distinct non-empty words): a list of strings,
    each a word a card can show (`word_problem`), no two the same word (`word_key`).
    `board` names it in messages ("a Duet board"); `what` says what its cards are."""
    if not isinstance(words, (list, tuple)) or len(words) != count or not all(isinstance(w, str) for w in words):
        raise MalformedRecord(f"'words' must be a list of {count} {what} (RULES {rule})")
    seen: dict[str, int] = {}
    for i, w in enumerate(words):
        problem = word_problem(w)
        if problem is not None:
            raise MalformedRecord(f"RULES {rule}: words[{i}] {shown(w)} {problem}; {board} is {count} distinct "
                                  f"non-empty {what}")
        j = seen.setdefault(word_key(w), i)
        if j != i:
            a, b = shown(words[j]), shown(w)
            if unicodedata.normalize("NFKC", words[j]) == unicodedata.normalize("NFKC", w):
                a, b = ascii(words[j])[:60], ascii(w)[:60]  # they look alike: tell them apart by code points
            raise MalformedRecord(f"RULES {rule}: words[{j}] {a} and words[{i}] {b} are the same word (case and "
                                  f"Unicode form aside); {board} is {count} distinct {what}")
    return list(words)


Seed = int | list[int] | None


def parse_seed(data: dict, lists: bool = True) -> Seed:
    """The seed the game was dealt from: an integer, or (`lists`) the sequence of integers a
    simulator deals game i of a run from (`[run seed, i]`, numpy's seed-sequence form), each
    0..2**64-1; or null."""
    seed = data.get("seed")
    entropy = seed if lists and isinstance(seed, list) and 1 <= len(seed) <= 4 else [seed]
    if seed is not None and not all(type(s) is int and 0 <= s <= MAX_SEED for s in entropy):
        raise MalformedRecord("'seed' must be null, an integer 0..2**64-1 or a list of 1-4 such integers" if lists
                              else "'seed' must be null or an integer 0..2**64-1")
    return seed


def check_deal_seed(seed: Any, lists: bool = True) -> None:
    """A dealer's seed, refused (ValueError) before any deal unless its record can hold it: a whole
    number 0..2**64-1 (what `parse_seed` reads back), or (`lists`: Duet and Codenames, whose records
    then say null) a non-empty list of whole numbers 0 or more, numpy's seed-sequence form."""
    import numbers

    def whole(x: Any) -> bool:
        return isinstance(x, numbers.Integral) and not isinstance(x, bool)

    if lists and isinstance(seed, (list, tuple)) and seed and all(whole(s) and s >= 0 for s in seed):
        return
    if not whole(seed) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"a deal's seed is a whole number 0..2**64-1{' (or a list of whole numbers 0 or more)' if lists else ''}, "
                         f"not {shown(seed)}")


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


def _near(name: str, known: Collection[str]) -> str:
    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6) if isinstance(name, str) else []
    return f" (did you mean {close[0]!r}?)" if close else ""


def check_fields(data: dict, known: Collection[str], where: str) -> None:
    """MalformedRecord when an object the rules read (a config, settings, an action) has a field
    they do not know: a misspelt field ("timer_token") would otherwise be dropped and its default
    played."""
    unknown = sorted(k for k in data if k not in known)
    if unknown:
        raise MalformedRecord(f"{where}: unknown field(s) {shown(unknown)}{_near(unknown[0], known)}; "
                              f"known: {', '.join(sorted(known))}")


def _field_name(name: str) -> str:
    return "".join(ch for ch in name.casefold() if ch.isalnum())


def _one_edit(a: str, b: str) -> bool:
    """Whether a and b differ by at most one insertion, deletion, substitution or swap of neighbours."""
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) <= 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


def added_fields(data: dict, known: Collection[str]) -> dict[str, Any]:
    """A record's added fields: every top-level field but its game's own (`known`), kept on round
    trip and never read by the rules (a simulator's game_index and intents, a web table's `web`,
    a reference game's `expected`, notes). MalformedRecord for an added field named like one of the
    record's own (the same letters whatever the case and punctuation, or one letter off: Config,
    confg, word, action): that is a misspelt field, which would otherwise be kept and ignored and the
    game replayed without it."""
    names = {_field_name(k): k for k in known}
    for k in data:
        if k in known:
            continue
        name = _field_name(k)
        hit = names.get(name) or next((v for n, v in names.items() if _one_edit(name, n)), None)
        if hit is not None:
            raise MalformedRecord(f"unknown field {shown(k)}: a misspelt {hit!r}? (an added field may not be "
                                  f"named like a record field: {', '.join(sorted(known))})")
    return {k: v for k, v in data.items() if k not in known}


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
