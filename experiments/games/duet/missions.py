"""Reading the Duet mission map and a team's progress from JSON files."""

from __future__ import annotations

import json
from pathlib import Path

from engine.duet import MissionMap
from engine.errors import MalformedRecord
from engine.paths import data_path


#: The most bytes a mission map file is read for (the rulebook's is about 1 KB): a larger file, or an endless
#: stream such as /dev/zero, is not a mission map and is not read whole into memory.
MAX_MAP_BYTES = 16 * 2**20


def load_mission_map(path: str | Path | None = None) -> MissionMap:
    """The rulebook's map (data/duet/missions.json) or a user's complete map in the same format.
    Anything that is not such a map (unreadable, not UTF-8, not JSON, nested too deeply, the wrong
    shape, more than MAX_MAP_BYTES) is one MalformedRecord naming the file."""
    path = Path(path) if path else data_path("duet", "missions.json")
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_MAP_BYTES + 1)
        if len(raw) > MAX_MAP_BYTES:
            raise MalformedRecord(f"cannot read mission map {path}: more than {MAX_MAP_BYTES // 2**20} MiB, "
                                  "not a mission map")
        data = json.loads(raw.decode("utf-8-sig"))   # a leading byte-order mark dropped, as records' and cases'
    except OSError as exc:
        raise MalformedRecord(f"cannot read mission map {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise MalformedRecord(f"cannot read mission map {path}: not UTF-8 text (byte at offset {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise MalformedRecord(f"cannot read mission map {path}: not JSON ({exc.msg}, line {exc.lineno})") from None
    except (RecursionError, ValueError) as exc:  # nested too deeply; a number too long to read
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc).split("\n")[0]
        raise MalformedRecord(f"cannot read mission map {path}: {reason}") from None
    try:
        missions = MissionMap.from_dict(data)
    except (AttributeError, TypeError, OverflowError) as exc:  # a mission that is not an object, inf tokens
        raise MalformedRecord(f"malformed mission map {path}: {exc}") from None
    for m in missions.missions.values():
        if not isinstance(m.id, str) or not isinstance(m.name, str):
            raise MalformedRecord(f"malformed mission map {path}: a mission's id and name must be text, "
                                  f"not {m.id!r}")
    return missions
