"""The `cnlab` command line: the only place that turns errors into exit codes."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from engine.errors import IllegalAction, MalformedRecord

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="codenames-lab: engines, agents and experiments for the Codenames family.")


def fail(message: str) -> None:
    """One line on stderr, exit 2: the contract for bad input and illegal actions."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def emit(obj) -> None:
    typer.echo(json.dumps(obj, ensure_ascii=False))


@app.command()
def deal(
    game: str = typer.Argument(..., help="duet"),
    seed: int = typer.Option(0, help="seed of the first game; game i uses seed + i"),
    count: int = typer.Option(1, help="how many records"),
    mission: Optional[str] = typer.Option(None, help="a Duet mission of the map, e.g. cairo"),
    missions_file: Optional[Path] = typer.Option(None, help="a complete mission map JSON file"),
    tokens: Optional[int] = typer.Option(None, help="timer tokens (9, 10 or 11) without a mission"),
    lang: str = typer.Option("en", help="board language: en or ko"),
) -> None:
    """Print COUNT new game records (JSON lines, no actions)."""
    from agents.wordlists import board_words
    from engine.duet import DuetConfig, deal_duet
    from engine.records import record_to_json

    from .missions import load_mission_map

    if game != "duet":
        fail(f"unknown game {game!r}; known: duet")
    if count < 1:
        fail("--count must be at least 1")
    if mission and tokens:
        fail("give either --mission or --tokens, not both")
    try:
        words = board_words(lang)
        if mission:
            config = load_mission_map(missions_file).get(mission).config(language=lang)
        else:
            config = DuetConfig(timer_tokens=tokens or 9, language=lang)
    except (KeyError, ValueError) as exc:
        fail(str(exc.args[0] if isinstance(exc, KeyError) else exc))
    for i in range(count):
        typer.echo(record_to_json(deal_duet(seed + i, words, config)))


def _read_records(path: str) -> list[str]:
    text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    stripped = text.strip()
    if not stripped:
        raise MalformedRecord("the file holds no record")
    try:  # one JSON document (possibly pretty-printed) ...
        json.loads(stripped)
        return [stripped]
    except json.JSONDecodeError:  # ... or JSON lines
        return [line for line in stripped.splitlines() if line.strip()]


@app.command()
def replay(file: str = typer.Argument(..., help="a record file (JSON or JSON lines), or - for stdin")) -> None:
    """Replay records and print one JSON summary per record; exit 2 on a bad record or illegal action."""
    from engine.duet import replay_summary
    from engine.records import record_from_json

    try:
        docs = _read_records(file)
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror}")
    except MalformedRecord as exc:
        fail(f"malformed record: {exc}")
    for n, doc in enumerate(docs):
        where = f"record {n + 1}: " if len(docs) > 1 else ""
        try:
            record = record_from_json(doc)
            emit(replay_summary(record.replay()))
        except IllegalAction as exc:
            fail(f"{where}illegal {exc.describe()}")
        except MalformedRecord as exc:
            fail(f"{where}malformed record: {exc}")


def main() -> None:  # pragma: no cover
    app()
