"""Reading the Duet mission map and a team's progress from JSON files."""

from __future__ import annotations

import json
from pathlib import Path

from engine.duet import MissionMap
from engine.errors import MalformedRecord
from engine.paths import data_path


def load_mission_map(path: str | Path | None = None) -> MissionMap:
    """The rulebook's map (data/duet/missions.json) or a user's complete map in the same format."""
    path = Path(path) if path else data_path("duet", "missions.json")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise MalformedRecord(f"cannot read mission map {path}: {exc}") from None
    return MissionMap.from_dict(data)
