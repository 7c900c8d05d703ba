"""What the tools' `main()` share: bad input is one `error: ...` line on stderr and exit 2, never a
traceback, and what can be checked before the long computation (numbers, the output's folder) is."""

from __future__ import annotations

import functools
from pathlib import Path

from experiments.exits import fail


def at_least(value: int, least: int, option: str) -> int:
    """A count the tool cannot run with below `least`, refused before anything loads."""
    if value < least:
        fail(f"{option} must be at least {least}, not {value}")
    return value


def out_file(path: str | Path, option: str = "--out") -> Path:
    """An output file whose folder exists and which is not itself a folder: checked first, so that
    hours of computation are not lost on a typo."""
    path = Path(path)
    if path.is_dir():
        fail(f"{option} {path} is a folder; name the file to write")
    if not path.parent.is_dir():
        fail(f"{option} {path}: no folder {path.parent}")
    return path


def one_line_errors(main):
    """Bad input found deep in a tool (an unknown backend or language, a missing or malformed file)
    ends as `error: ...` and exit 2, not a traceback. Programming errors still show theirs."""
    @functools.wraps(main)
    def run(*args, **kwargs):
        try:
            return main(*args, **kwargs)
        except KeyError as exc:  # str(KeyError) is only the key's repr: say what it is
            fail(f"KeyError: {exc}" if type(exc) is KeyError else exc)
        except (ValueError, OSError, ImportError) as exc:
            from agents.embeddings.base import MissingBackendError  # imported here: the tools load lazily

            if isinstance(exc, ImportError) and not isinstance(exc, MissingBackendError):
                raise
            fail(exc)

    return run
