"""One entry point for every game's records: dispatch on the record's "game" field.

Each game module named here provides `record_from_dict(data)` (a record with `to_dict()` and
`replay()`, raising MalformedRecord / IllegalAction) and `replay_summary(state) -> dict`.
"""

from __future__ import annotations

import importlib
import json
from types import ModuleType
from typing import Any

from .errors import MalformedRecord

GAME_MODULES = {
    "duet": "engine.duet.record",
    "codenames": "engine.codenames.record",
    "pictures": "engine.codenames.record",
    "spyword": "engine.spyword.record",
}


def game_module(game: Any) -> ModuleType:
    if game not in GAME_MODULES:
        raise MalformedRecord(f"unknown game {game!r}; known: {', '.join(GAME_MODULES)}")
    return importlib.import_module(GAME_MODULES[game])


def record_from_dict(data: Any):
    """The record object for a parsed JSON record of any game."""
    if not isinstance(data, dict):
        raise MalformedRecord("a record must be a JSON object")
    return game_module(data.get("game")).record_from_dict(data)


def record_from_json(text: str):
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MalformedRecord(f"not valid JSON: {exc}") from None
    return record_from_dict(data)


def record_to_json(record) -> str:
    """Canonical JSON: the same record gives the same bytes."""
    return json.dumps(record.to_dict(), ensure_ascii=False, separators=(",", ":"))


def replay_summary(record) -> dict:
    """Replay a record and summarise its final state, by its game's own summary."""
    state = record.replay()
    return game_module(record.to_dict()["game"]).replay_summary(state)
