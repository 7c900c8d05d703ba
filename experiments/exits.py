"""The command line's one contract for bad input and illegal actions: one line on stderr, exit 2.

Every command module (experiments.cli and the commands registered beside it) and every offline tool
(experiments.tools) fails through here, so none of them imports the CLI module itself.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn, Optional

#: What `--tokens` takes (the help's "9, 10 or 11"): the base game's 9 timer tokens, or 10 or 11 to make
#: it easier (RULES 3.3). Records and the engine allow 1..11; the command line deals the rulebook's games.
DUET_TOKENS = (9, 10, 11)


def fail(message: object) -> NoReturn:
    """One line on stderr (a message's line breaks become spaces), exit 2. SystemExit, not typer's
    Exit: the argparse tools (experiments.tools.cli) fail through here too."""
    print(f"error: {' '.join(str(message).split())}", file=sys.stderr, flush=True)
    raise SystemExit(2)


def check_seed(seed: int) -> None:
    """A deal's seed: 0..2**64-1 (a record's seed, engine.record_fields.MAX_SEED)."""
    from engine.record_fields import MAX_SEED

    if seed < 0:
        fail(f"--seed must be a whole number 0 or more, not {seed}")
    if seed > MAX_SEED:
        fail(f"--seed must be at most 2**64-1 ({MAX_SEED}), not {seed}")


def check_duet_options(mission: Optional[str], missions_file: Optional[Path], tokens: Optional[int]) -> None:
    """--tokens as the help says it, and --missions-file only with the --mission to play from it."""
    if tokens is not None and tokens not in DUET_TOKENS:
        fail(f"--tokens must be 9, 10 or 11 (RULES 3.3), not {tokens}")
    if missions_file is not None and not mission:
        fail("--missions-file needs --mission: the mission of that map to play")


def writable_folder(path: Path, what: str) -> None:
    """Make `path` (and its parents) now and check it can be written in, so that a command fails on its
    first line, not after minutes of work; `what` names the folder in the message ("--games-dir")."""
    import os

    if path.exists() and not path.is_dir():
        fail(f"{what} {path} is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot create {what} {path}: {exc.strerror or exc}")
    if not os.access(path, os.W_OK | os.X_OK):
        fail(f"cannot write in {what} {path}: permission denied")


def path_option(value: Optional[str], option: str, what: str) -> Optional[Path]:
    """A path option as a Path, refused before anything is written when empty (it would be the current
    folder) or not UTF-8 (its name is shown and written into files); `what`: the kind of path asked for."""
    if value is None:
        return None
    if not value:
        fail(f"{option} is empty: give {what}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        fail(f"{option} {ascii(value)} is not a UTF-8 path: give {what} in UTF-8")
    path = Path(value)
    try:   # what the file system refuses to look up at all: a name too long (Path.exists raises it)
        path.exists()
    except OSError as exc:
        fail(f"{option} {value}: {exc.strerror or exc}: give {what}")
    return path
