"""The typer command behind `cnlab play GAME` (registered in experiments/cli.py)."""

from __future__ import annotations

import itertools
import secrets
import sys
from pathlib import Path
from typing import Optional

import typer

from agents.defaults import DEFAULT_SPYMASTERS, guesser_for_people
from experiments.exits import check_duet_options, check_seed, fail, path_option

#: The longest --pause: a bot that waits longer between moves is not playing any more.
MAX_PAUSE = 60.0


def play_command(
    game: str = typer.Argument(..., help="duet, codenames (two-player variant) or pictures"),
    lang: str = typer.Option("en", "--lang", help="board (or clue) language: ko or en"),
    partner: Optional[str] = typer.Option(None, help="the bot's spymaster spec, e.g. random or expected:use-m3 "
                                          f"(default: the partner-robust {DEFAULT_SPYMASTERS['en']}, Korean {DEFAULT_SPYMASTERS['ko']})"),
    partner_guesser: Optional[str] = typer.Option(
        None, help="the bot's guesser spec, which reads your clues (default: in English the human-data guesser "
                   "`human`, Pictures nearest:use-m3; in Korean duet-bayes:use-m3 for Duet, nearest:use-m3 otherwise)"),
    mission: Optional[str] = typer.Option(None, help="Duet: a mission of the map, e.g. cairo"),
    missions_file: Optional[Path] = typer.Option(None, help="Duet: a complete mission map JSON file"),
    tokens: Optional[int] = typer.Option(None, help="Duet: timer tokens (9, 10 or 11) without a mission"),
    seed: Optional[int] = typer.Option(None, help="deal seed, 0..2**64-1 (random when omitted; shown on screen)"),
    record: Optional[str] = typer.Option(None, metavar="FILE", help="the file the record is saved to (default "
                                         "./GAME-SEED.json; a saved game is never overwritten: GAME-SEED-2.json, "
                                         "... instead)"),
    pause: float = typer.Option(0.8, help=f"seconds between the bot's moves (0..{MAX_PAUSE:g})"),
    first: Optional[str] = typer.Option(None, help="Duet: 'me' or 'bot' gives the first clue (asked when omitted)"),
    role: Optional[str] = typer.Option(None, help="Codenames/Pictures: 'guesser' or 'spymaster' (asked when omitted)"),
) -> None:
    """Play a whole game with a bot in the terminal; Ctrl-C saves the record so far.

    Example: cnlab play duet --lang ko --first me"""
    from engine.game import GAMES

    from experiments.games import harness

    playable = [g for g in GAMES if harness(g).PLAYABLE]
    if game not in playable:
        fail(f"unknown game {game!r}; playable: {', '.join(playable)}")
    if lang not in ("en", "ko"):
        fail(f"unknown language {lang!r}: en or ko")
    if not 0 <= pause <= MAX_PAUSE:  # NaN too
        fail(f"--pause must be 0..{MAX_PAUSE:g} seconds, not {pause}")
    if first is not None and first not in ("me", "bot"):
        fail("--first must be 'me' or 'bot'")
    if role is not None and role not in ("guesser", "spymaster"):
        fail("--role must be 'guesser' or 'spymaster'")
    if game != "duet" and (mission is not None or missions_file is not None or tokens is not None or first):
        fail("--mission, --missions-file, --tokens and --first are Duet options")
    if game == "duet" and role:
        fail("--role is a Codenames/Pictures option (in Duet you are seat A)")
    check_duet_options(mission, missions_file, tokens)
    if seed is not None:
        check_seed(seed)
    if sys.stdin is None:   # `<&-`: input() would raise "lost sys.stdin", reported as the bot's error
        fail("cannot read your moves: standard input is closed")
    record_path = _record_file(record)
    from agents.registry import check_spec, default_spymaster

    partner = default_spymaster(lang) if partner is None else partner
    guesser_spec = guesser_for_people(game, lang) if partner_guesser is None else partner_guesser
    try:
        check_spec(partner, "spymaster", lang)
        check_spec(guesser_spec, "guesser", lang)
    except ValueError as exc:
        fail(str(exc))
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    path = record_path or Path(f"{game}-{seed}.json")
    if game == "duet":
        code = _play_duet(seed, lang, partner, guesser_spec, mission, missions_file, tokens, path, pause, first)
    else:
        from experiments.play.codenames import play_codenames

        code = play_codenames(game, seed, lang, partner, guesser_spec, path, pause, role)
    if code:
        raise typer.Exit(code)


def _record_file(record: Optional[str]) -> Optional[Path]:
    """--record as a Path: a file's name. Refused before the game: empty, a folder (an existing one, or
    a name ending in /), something that is not a file (/dev/null: its STEM-2 would land beside it),
    a name that is not UTF-8 (the screen shows it), a name under a file, a blank name and one with a
    control or format character (a newline, an escape code: the screen and `cnlab replay PATH` show it)."""
    import os
    import unicodedata

    if record and not record.strip():
        fail(f"--record {record!r} is blank: give the file to save the record to")
    if record and any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in record):
        fail(f"--record {record!r} holds a control character: give the file to save the record to")
    path = path_option(record, "--record", "the file to save the record to")
    if path is None:
        return None
    if record.endswith(("/", os.sep)) or path.is_dir() or path.name in ("", ".", ".."):
        fail(f"--record {record} is a folder: give the file to save the record to, e.g. {path / 'game.json'}")
    if path.exists() and not path.is_file():
        fail(f"--record {record} is not a file (a device or a pipe): give the file to save the record to")
    for parent in path.parents:   # the nearest one there must be a folder (the game makes the others)
        if parent.exists():
            if not parent.is_dir():
                fail(f"--record {record}: {parent} is a file, not a folder")
            break
    return path


def load_partner(io, partner: str, guesser_spec: str, lang: str):
    """The bot's spymaster and guesser, and how the screen names them; exit 2 if they cannot load."""
    from agents.registry import make_guesser, make_spymaster

    from experiments.play.text import say

    io.show(say(lang, "loading_partner", spec=f"{partner} + {guesser_spec}"))
    try:
        spymaster, guesser = make_spymaster(partner, lang), make_guesser(guesser_spec, lang)
    except (ValueError, OSError, ImportError) as exc:
        fail(f"cannot load the partner: {exc}")
    label = partner if partner == guesser_spec else f"{partner} + {guesser_spec}"
    return spymaster, guesser, label


def claim_record_path(path: Path, first_text: str) -> Path:
    """Where a new game is saved, without touching any saved one: `path` when no file is there, else
    STEM-2.SUFFIX, STEM-3.SUFFIX, ... The file is created exclusively (holding `first_text`, the dealt
    record) before the game starts, so two games started at once never share a file either."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot create the folder for the record {path}: {exc.strerror or exc}")
    for n in itertools.count(1):
        candidate = path if n == 1 else path.with_name(f"{path.stem}-{n}{path.suffix}")
        try:
            with open(candidate, "x", encoding="utf-8") as f:
                f.write(first_text)
        except FileExistsError:
            continue
        except OSError as exc:
            fail(f"cannot save the record to {candidate}: {exc.strerror or exc}")
        return candidate
    raise AssertionError("unreachable")


def start_record(io, record, path: Path) -> Path:
    """Claim the record's file (see claim_record_path) and say where the game is saved."""
    from engine.records import record_to_json

    from experiments.play.text import say

    claimed = claim_record_path(path, record_to_json(record) + "\n")
    lang = record.config.language   # the board's language, as every later line
    if claimed != Path(path):
        io.show(say(lang, "record_elsewhere", path=path, claimed=claimed))
    else:
        io.show(say(lang, "record_claimed", path=claimed))
    return claimed


def _play_duet(seed, lang, partner, guesser_spec, mission, missions_file, tokens, path, pause, first) -> int:
    from experiments.games.duet.dealing import deal_duet_record

    from experiments.play.duet import DuetSession
    from experiments.play.terminal import TerminalIO

    try:
        record = deal_duet_record(seed, lang, mission=mission, missions_file=missions_file, tokens=tokens)
    except (KeyError, ValueError) as exc:
        fail(str(exc.args[0] if isinstance(exc, KeyError) and exc.args else exc))
    io = TerminalIO()
    spymaster, guesser, label = load_partner(io, partner, guesser_spec, lang)
    path = start_record(io, record, path)
    session = DuetSession(record, spymaster, guesser, path, io=io, pause=pause, first=first, partner_label=label)
    return session.run()
