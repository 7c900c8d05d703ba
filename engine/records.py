"""One entry point for every game's records: parse by the record's "game" field."""

from __future__ import annotations

import json
from typing import Any

from .errors import MalformedRecord


def record_from_dict(data: Any):
    """The record object for a parsed JSON record of any game."""
    if not isinstance(data, dict):
        raise MalformedRecord("a record must be a JSON object")
    game = data.get("game")
    if game == "duet":
        from .duet import DuetRecord

        return DuetRecord.from_dict(data)
    raise MalformedRecord(f"unknown game {game!r}")


def record_from_json(text: str):
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MalformedRecord(f"not valid JSON: {exc}") from None
    return record_from_dict(data)


def record_to_json(record) -> str:
    """Canonical JSON: the same record gives the same bytes."""
    return json.dumps(record.to_dict(), ensure_ascii=False, separators=(",", ":"))
