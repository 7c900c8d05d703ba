"""The wire format between a game and an isolated agent: one JSON object per line (UTF-8).

Observations travel as `to_json_dict(obs)` (a plain JSON object with a "type": "duet",
"codenames" or "spyword") and come back as the same frozen observation with
`from_json_dict(data)`: `from_json_dict(to_json_dict(obs)) == obs` for every observation an
engine makes. Answers are checked here before the game sees them: a wrong shape raises
`ProtocolError`, which the proxy turns into a forfeit ("answered garbage").

Requests (parent -> agent), one per line:
    {"op": "hello", "role": "spymaster"|"guesser"|"spyword", "spec": SPEC, "language": "en", ...}
    {"op": "begin_game", "seed": INT}
    {"op": "give_clue", "obs": OBS}          -> {"ok": true, "clue": {"word", "number", "targets", "score", "details"}}
    {"op": "next_guess", "obs": OBS}         -> {"ok": true, "guess": WORD | null}
    {"op": "choose_cover", "obs": OBS}       -> {"ok": true, "cover": WORD}
    {"op": "act", "obs": OBS, "avoid": [..]} -> {"ok": true, "action": ACTION | null, "beliefs": [..]}
    {"op": "bye"}
An agent that raised answers {"ok": false, "error": "Type: message"}. Every request but "bye" carries
an "id" (the hello 0, then 1, 2, ...) that its answer echoes: a line that answers another request
(one the agent left on its pipe earlier) is garbage, never a later answer.

An answer is garbage when it is not one JSON object, nests deeper than the parser goes, holds a
number that is not finite (NaN, Infinity, 1e999: no record can hold it) or text that is not Unicode
(a lone surrogate, "\\ud800": the record could not be written).
"""

from __future__ import annotations

import dataclasses
import json
import math
from typing import Any, Callable

MAX_LINE = 4 * 1024 * 1024  # bytes: a longer answer is garbage


class ProtocolError(ValueError):
    """A message that is not what the protocol says (the agent's fault when it comes back)."""


# ----- observations --------------------------------------------------------------------------------
def _tuple(v):
    return tuple(v)


def _opt_tuple(v):
    return None if v is None else tuple(v)


def _tuple_of(inner: Callable) -> Callable:
    return lambda v: tuple(inner(x) for x in v)


def _observation_types() -> dict[str, tuple[type, type | None, dict[str, Callable]]]:
    """type name -> (observation class, its Event class or None, field decoders)."""
    from engine.codenames.observation import CodenamesObservation, Event as CodenamesEvent
    from engine.duet.observation import DuetObservation, Event as DuetEvent
    from engine.spyword.observation import SpyWordObservation

    duet_event = lambda d: DuetEvent(**d)
    codenames_event = lambda d: CodenamesEvent(**d)
    return {
        "duet": (DuetObservation, DuetEvent, {
            "words": _tuple, "green_covered": _tuple, "bystander_marks": _tuple_of(frozenset),
            "to_act": _tuple, "current_clue": _opt_tuple, "history": _tuple_of(duet_event)}),
        "codenames": (CodenamesObservation, CodenamesEvent, {
            "words": _tuple, "grid": _tuple, "revealed": _tuple, "agents_left": _tuple_of(tuple),
            "to_act": _tuple, "current_clue": _opt_tuple, "history": _tuple_of(codenames_event)}),
        "spyword": (SpyWordObservation, None, {
            name: _tuple for name in ("seats", "order", "to_act", "clues", "eliminated", "departed", "votes",
                                      "voted", "vote_candidates", "duel", "ghost_guesses")}),
    }


def _plain(value: Any) -> Any:
    """JSON-ready data: tuples become lists, frozensets sorted lists, events objects."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(_plain(v) for v in value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def observation_type(obs: Any) -> str:
    for name, (cls, _, _) in _observation_types().items():
        if type(obs) is cls:
            return name
    raise TypeError(f"not an observation: {type(obs).__name__}")


def to_json_dict(obs: Any) -> dict:
    """An observation as a plain JSON object (with its "type")."""
    kind = observation_type(obs)
    return {"type": kind, **{f.name: _plain(getattr(obs, f.name)) for f in dataclasses.fields(obs)}}


def from_json_dict(data: Any) -> Any:
    """The observation `to_json_dict` wrote; ProtocolError when the object is not one."""
    if not isinstance(data, dict) or data.get("type") not in _observation_types():
        raise ProtocolError("an observation is an object with a type: duet, codenames or spyword")
    cls, _, decoders = _observation_types()[data["type"]]
    names = {f.name for f in dataclasses.fields(cls)}
    fields = {k: v for k, v in data.items() if k != "type"}
    if set(fields) - names or not {f.name for f in dataclasses.fields(cls)
                                   if f.default is dataclasses.MISSING
                                   and f.default_factory is dataclasses.MISSING} <= set(fields):
        raise ProtocolError(f"a {data['type']} observation has the fields {sorted(names)}")
    try:
        return cls(**{k: decoders[k](v) if k in decoders and v is not None else v for k, v in fields.items()})
    except (TypeError, ValueError) as exc:
        raise ProtocolError(f"bad {data['type']} observation: {exc}") from None


# ----- answers ---------------------------------------------------------------------------------------
def jsonable(value: Any) -> Any:
    """Analysis details made JSON-safe: numpy numbers and arrays to Python ones (NaN and infinities to
    null: strict JSON has none), the rest to text."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    for cast in ("tolist", "item"):  # numpy arrays and scalars
        if hasattr(value, cast):
            try:
                return jsonable(getattr(value, cast)())
            except (TypeError, ValueError):
                break
    return str(value)


def clue_to_json(decision: Any) -> dict:
    return {"word": decision.word, "number": jsonable(decision.number),
            "targets": [str(t) for t in (sorted(decision.targets) if isinstance(decision.targets, (set, frozenset))
                                         else decision.targets)], "score": float(decision.score),
            "details": jsonable(dict(decision.details))}


def _as_float(value: Any) -> float | None:
    """`value` as a finite float, or None when it is no number or none a float holds: strict JSON reads
    an integer of hundreds of digits, which `float()` and `math.isfinite` refuse with OverflowError."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        out = float(value)
    except OverflowError:
        return None
    return out if math.isfinite(out) else None


def beliefs_from_json(data: Any) -> list[float]:
    """A Spy's Word bot's belief history (finite numbers); ProtocolError on anything else."""
    data = data or []
    beliefs = [_as_float(b) for b in data] if isinstance(data, list) else [None]
    if None in beliefs:
        raise ProtocolError("beliefs are a list of finite numbers")
    return beliefs


def clue_from_json(data: Any):
    """A ClueDecision from an agent's answer; ProtocolError on anything else."""
    from agents.base import ClueDecision
    from engine.actions import UNLIMITED

    if not isinstance(data, dict):
        raise ProtocolError("a clue answer is an object {word, number, targets, score}")
    word, number = data.get("word"), data.get("number")
    targets, score = data.get("targets", []), data.get("score", 0.0)
    if not isinstance(word, str):
        raise ProtocolError(f"a clue word is a string, not {word!r:.60}")
    if number != UNLIMITED and (isinstance(number, bool) or not isinstance(number, int)):  # RULES 1.2, 1.7
        raise ProtocolError(f"a clue number is an integer or {UNLIMITED!r}, not {number!r:.60}")
    if not isinstance(targets, list) or not all(isinstance(t, str) for t in targets):
        raise ProtocolError("clue targets are a list of strings")
    if _as_float(score) is None:
        raise ProtocolError(f"a clue score is a number, not {score!r:.60}")
    details = data.get("details") or {}
    if not isinstance(details, dict):
        raise ProtocolError("clue details are an object")
    return ClueDecision(word, number, tuple(targets), _as_float(score), details)


def word_from_json(value: Any, allow_none: bool, what: str) -> str | None:
    if value is None and allow_none:
        return None
    if not isinstance(value, str):
        raise ProtocolError(f"a {what} is a word of the board{' or null' if allow_none else ''}, not {value!r:.60}")
    return value


def spyword_action_from_json(data: Any, seat: str, host: str | None = None):
    """A Spy's Word action of `seat` (or None); ProtocolError on anything else. A bot plays its own
    seat's moves (`agents.spyword.bots.SpyWordAgent.act`): ready, a clue, the vote start, a vote, the
    ghost's guess, closing its role screen; as "host" only when it is the host (`host`). Leaving,
    kicking, disconnecting and reconnecting are the room's (a person's connection), time-outs the
    clock's: a bot that answers one of those, or another seat's move, answered garbage."""
    from engine.errors import MalformedRecord
    from engine.spyword.actions import action_from_dict
    from experiments.games.spyword.loop import bot_move_fault

    if data is None:
        return None
    if not isinstance(data, dict):
        raise ProtocolError("a Spy's Word action is an object as in a record, or null")
    try:
        action = action_from_dict(data)
    except (MalformedRecord, TypeError, ValueError, KeyError) as exc:
        raise ProtocolError(f"not a Spy's Word action: {exc}") from None
    fault = bot_move_fault(action, seat, host)  # the plain loop's rule (experiments/games/spyword/loop.py)
    if fault is not None:
        raise ProtocolError(f"{fault}: {data!r:.60}" if fault.endswith("is not a bot's move") else fault)
    return action


# ----- framing ----------------------------------------------------------------------------------------
def encode_line(message: dict) -> bytes:
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def decode_line(line: bytes) -> dict:
    from engine.errors import MalformedRecord
    from engine.record_fields import parse_json

    if len(line) > MAX_LINE:
        raise ProtocolError(f"a message longer than {MAX_LINE} bytes")
    try:  # strict JSON, as a record is read: NaN, Infinity or 1e999 (a clue's score) would make its record unreadable
        message = parse_json(line.decode("utf-8"))
    except MalformedRecord as exc:  # not JSON, nested past the parser's depth, a number that is not finite
        raise ProtocolError(f"{exc}: {line[:60]!r}") from None
    except ValueError as exc:  # not UTF-8
        raise ProtocolError(f"not a JSON line ({exc.__class__.__name__}): {line[:60]!r}") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"a message is a JSON object, not {line[:60]!r}")
    try:  # "\ud800" parses to a lone surrogate, which no UTF-8 file (the record) can hold
        json.dumps(message, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ProtocolError("text that is not Unicode (a lone surrogate)") from None
    return message
