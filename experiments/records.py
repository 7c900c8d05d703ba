"""A game's record file outside the run folders (terminal play, the web server's games and Spy's Word
rooms): one writer, so every such file is written the same way and replays with `cnlab replay`."""

from __future__ import annotations

import os
from pathlib import Path

from engine.records import record_to_json


def write_record(record, path: str | Path) -> None:
    """The record as one JSON line, written whole to a temporary file beside `path` and renamed over
    it: a crash or a full disk mid-write leaves the last whole file, never half of one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(record_to_json(record) + "\n", encoding="utf-8")
    os.replace(tmp, path)
