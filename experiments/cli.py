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


# Each game's dealer: "module:function", called as fn(seed=..., lang=..., **options) -> record.
DEALERS = {
    "duet": "experiments.dealing:deal_duet_record",
    "codenames": "experiments.dealing_codenames:deal_record",
    "pictures": "experiments.dealing_codenames:deal_record",
    "spyword": "experiments.dealing_spyword:deal_record",
}


@app.command()
def deal(
    game: str = typer.Argument(..., help="duet, codenames, pictures or spyword"),
    seed: int = typer.Option(0, help="seed of the first game; game i uses seed + i"),
    count: int = typer.Option(1, help="how many records"),
    lang: str = typer.Option("en", help="board language: en or ko"),
    mission: Optional[str] = typer.Option(None, help="Duet: a mission of the map, e.g. cairo"),
    missions_file: Optional[Path] = typer.Option(None, help="Duet: a complete mission map JSON file"),
    tokens: Optional[int] = typer.Option(None, help="Duet: timer tokens (9, 10 or 11) without a mission"),
    variant: Optional[str] = typer.Option(None, help="Codenames/Pictures: teams, two_player, three_player, single_team, assassin_ending"),
    players: Optional[int] = typer.Option(None, help="Spy's Word: number of players (4-12)"),
    invalid_clue: Optional[str] = typer.Option(None, help="Codenames/Duet clue referee: allow, reject or penalize"),
) -> None:
    """Print COUNT new game records (JSON lines, no actions)."""
    import importlib

    from engine.records import record_to_json

    if game not in DEALERS:
        fail(f"unknown game {game!r}; known: {', '.join(DEALERS)}")
    if count < 1:
        fail("--count must be at least 1")
    module, name = DEALERS[game].split(":")
    dealer = getattr(importlib.import_module(module), name)
    options = {k: v for k, v in dict(mission=mission, missions_file=missions_file, tokens=tokens,
                                      variant=variant, players=players,
                                      invalid_clue=invalid_clue).items() if v is not None}
    options["game"] = game
    try:
        records = [dealer(seed=seed + i, lang=lang, **options) for i in range(count)]
    except (KeyError, ValueError, TypeError) as exc:
        fail(str(exc.args[0] if isinstance(exc, KeyError) and exc.args else exc))
    for record in records:
        typer.echo(record_to_json(record))


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
    from engine.records import record_from_json, replay_summary

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
            emit(replay_summary(record))
        except IllegalAction as exc:
            fail(f"{where}illegal {exc.describe()}")
        except MalformedRecord as exc:
            fail(f"{where}malformed record: {exc}")




@app.command()
def simulate(
    game: str = typer.Argument("duet", help="duet, codenames or spyword"),
    games: int = typer.Option(1000, help="number of games; game i uses seed (SEED, i)"),
    seed: int = typer.Option(0),
    spymaster: Optional[str] = typer.Option(None, help="spymaster spec of seat A (and B unless given); default: "
                                            "robust:use-m3+glove-50 (en), robust:use-m3+e5-small?vocab=20000 (ko)"),
    guesser: Optional[str] = typer.Option(None, help="guesser spec of seat A (and B unless given); default: "
                                          "duet-bayes:use-m3 (Duet), the variant's own for Codenames"),
    seat_b_spymaster: Optional[str] = typer.Option(None, "--seat-b-spymaster"),
    seat_b_guesser: Optional[str] = typer.Option(None, "--seat-b-guesser"),
    mission: Optional[str] = typer.Option(None),
    missions_file: Optional[Path] = typer.Option(None),
    tokens: Optional[int] = typer.Option(None),
    lang: str = typer.Option("en"),
    workers: int = typer.Option(1, help="local processes sharing the loaded embeddings"),
    backend: str = typer.Option("local", help="local or ray"),
    out: Optional[Path] = typer.Option(None, help="results folder: rows, records, summary; a rerun resumes"),
    progress: bool = typer.Option(True, help="show a progress bar"),
    players: int = typer.Option(6, help="Spy's Word: players per game (4-12)"),
    bot: str = typer.Option("spyword:use-m3", help="Spy's Word: bot spec for every seat"),
    weaken: Optional[str] = typer.Option(None, help="Spy's Word: citizens or infiltrators play random clues and votes"),
    variant: str = typer.Option("single_team", help="Codenames: single_team (the AI Competition protocol), two_player or teams"),
) -> None:
    """Seeded self-play; prints the summary table (and writes DIR/summary.json with --out).

    Duet: game i is dealt and played from (SEED, i). Spy's Word: game i plays pack i//2, both ways
    round, with seats rotated and roles dealt from (SEED, i)."""
    from .simulate import DuetRun, format_summary
    from .simulate import simulate as run_simulation

    if game == "spyword":
        from .spyword_sim import format_summary as spyword_table
        from .spyword_sim import simulate_spyword

        try:
            summary = simulate_spyword(games, players, seed, lang, bot, weaken, out, workers, progress)
        except (KeyError, ValueError) as exc:
            fail(str(exc.args[0] if isinstance(exc, KeyError) and exc.args else exc))
        typer.echo(spyword_table(summary))
        return
    agents = {k: v for k, v in dict(spymaster=spymaster, guesser=guesser).items() if v is not None}
    if game == "codenames":
        from .codenames_sim import CodenamesRun, simulate_codenames
        from .codenames_sim import format_summary as codenames_table

        try:
            summary = simulate_codenames(CodenamesRun(games=games, seed=seed, variant=variant, lang=lang,
                                                      **agents),
                                         out=out, workers=workers, progress=progress)
        except (KeyError, ValueError) as exc:
            fail(str(exc.args[0] if isinstance(exc, KeyError) and exc.args else exc))
        typer.echo(codenames_table(summary))
        return
    if game != "duet":
        fail(f"unknown game {game!r}; simulate plays duet, codenames or spyword")
    run = DuetRun(games=games, seed=seed, **agents, spymaster_b=seat_b_spymaster,
                  guesser_b=seat_b_guesser, mission=mission, tokens=tokens, lang=lang,
                  missions_file=str(missions_file) if missions_file else None)
    try:
        run.validate()
        summary = run_simulation(run, out=out, workers=workers, backend=backend, progress=progress)
    except (KeyError, ValueError) as exc:
        fail(str(exc.args[0] if isinstance(exc, KeyError) and exc.args else exc))
    typer.echo(format_summary(summary))


@app.command()
def tournament(
    spymasters: str = typer.Option(..., help="comma-separated spymaster specs"),
    guessers: str = typer.Option(..., help="comma-separated guesser specs"),
    games: int = typer.Option(200),
    seed: int = typer.Option(0),
    tokens: Optional[int] = typer.Option(None),
    mission: Optional[str] = typer.Option(None),
    lang: str = typer.Option("en"),
    workers: int = typer.Option(1),
    out: Optional[Path] = typer.Option(None, help="folder for per-pairing results and tournament.csv/.parquet"),
    progress: bool = typer.Option(True),
) -> None:
    """Every spymaster x guesser pairing on the same seeded deals; prints the ranking."""
    import pandas as pd

    from .tournament import tournament as run_tournament

    split = lambda text: [s.strip() for s in text.split(",") if s.strip()]
    try:
        table = run_tournament(split(spymasters), split(guessers), games=games, seed=seed, out=out,
                               workers=workers, progress=progress, tokens=tokens, mission=mission, lang=lang)
    except (KeyError, ValueError) as exc:
        fail(str(exc.args[0] if isinstance(exc, KeyError) and exc.args else exc))
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        typer.echo(table.to_string(index=False))


@app.command()
def crossplay(
    spymasters: str = typer.Option("robust", help="comma-separated spymaster algorithms without backends "
                                   "(e.g. expected,margin?kmax=3); a spec with backends is a fixed spymaster"),
    panel: Optional[str] = typer.Option(None, help="comma-separated partner models (default: every installed "
                                        "backend of the language's panel)"),
    noise: str = typer.Option("0.04", help="noisy partners duet-bayes:P?noise=S: a comma list of S, or none"),
    human: Optional[bool] = typer.Option(None, "--human/--no-human",
                                         help="the human-data guesser as a partner (default: where it can play)"),
    human_spec: str = typer.Option("human", help="the human partner's guesser spec"),
    leave_one_out: bool = typer.Option(True, "--leave-one-out/--no-leave-one-out",
                                       help="for partner model P the spymaster runs on the panel's other models"),
    games: int = typer.Option(400, help="deals per pairing; game i uses seed (SEED, i)"),
    seed: int = typer.Option(0),
    lang: str = typer.Option("en", help="board language: en or ko"),
    tokens: Optional[int] = typer.Option(None, help="timer tokens (9, 10 or 11)"),
    workers: int = typer.Option(1, help="local processes per pairing"),
    out: Optional[Path] = typer.Option(None, help="results folder (default runs/crossplay, runs/crossplay-ko in "
                                       "Korean): a subfolder per pairing (a rerun resumes), crossplay.csv/.parquet"),
    progress: bool = typer.Option(True, help="show progress"),
) -> None:
    """Spymaster algorithms against a panel of partner guessers on the same seeded Duet deals."""
    from .crossplay import crossplay as run_crossplay
    from .crossplay import format_table

    split = lambda text: [s.strip() for s in text.split(",") if s.strip()]
    folder = out or Path("runs/crossplay" if lang == "en" else f"runs/crossplay-{lang}")
    try:
        table = run_crossplay(split(spymasters), games=games, seed=seed, lang=lang,
                              panel=split(panel) if panel is not None else None, noise=noise, human=human,
                              leave_one_out=leave_one_out, out=folder, workers=workers, progress=progress,
                              human_spec=human_spec, tokens=tokens)
    except (KeyError, ValueError) as exc:
        fail(str(exc.args[0] if isinstance(exc, KeyError) and exc.args else exc))
    typer.echo(format_table(table))


def _register_extra_commands() -> None:
    """Commands whose modules live beside the CLI; imported lazily by typer at call time."""
    from .clue_cli import check_clue_command
    from .eval_human import eval_human_command
    from .play import play_command

    app.command("check-clue")(check_clue_command)
    app.command("play")(play_command)
    app.command("eval-human")(eval_human_command)


_register_extra_commands()
