"""The command line's one contract for bad input and illegal actions: one line on stderr, exit 2.

Every command module (experiments.cli and the commands registered beside it) fails through here,
so none of them imports the CLI module itself.
"""

from __future__ import annotations

import typer


def fail(message: str) -> None:
    """One line on stderr, exit 2."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)
