"""One entry point for every game's records: dispatch on the record's "game" field.

Each registered game's record module (engine.game.GAMES) provides `record_from_dict(data)` (a record with `to_dict()` and
`replay()`, raising MalformedRecord / IllegalAction) and `replay_summary(state) -> dict`.
"""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

from .errors import MalformedRecord
from .game import game_spec
from .record_fields import check_tree, parse_json


def game_module(game: Any) -> ModuleType:
    """The record module of a registered game (engine.game.GAMES); MalformedRecord otherwise."""
    return game_spec(game).record_module()


def record_from_dict(data: Any):
    """The record object for a parsed JSON record of any game (checked by `check_tree` first:
    bounded nesting, valid Unicode everywhere)."""
    if not isinstance(data, dict):
        raise MalformedRecord("a record must be a JSON object")
    check_tree(data)
    if "game" not in data:   # a results row (games.jsonl), a run.json: not "unknown game"
        from .game import GAMES

        raise MalformedRecord(f"no 'game' field: a record names its game ({', '.join(GAMES)})")
    return game_module(data["game"]).record_from_dict(data)


def record_from_json(text: str):
    """The record of one JSON document: every way it can be bad is one MalformedRecord."""
    return record_from_dict(parse_json(text))


def record_to_json(record) -> str:
    """Canonical JSON: the same record gives the same bytes."""
    return json.dumps(record.to_dict(), ensure_ascii=False, separators=(",", ":"))


def replay_summary(record) -> dict:
    """Replay a record and summarise its final state, by its game's own summary."""
    state = record.replay()
    return game_module(record.to_dict()["game"]).replay_summary(state)
