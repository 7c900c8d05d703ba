"""The `cnlab` command line: the only place that turns errors into exit codes."""

from __future__ import annotations

import errno
import json
import os
import sys
from pathlib import Path
from typing import NoReturn, Optional

import typer

from agents.defaults import CODENAMES_GUESSER, CODENAMES_SPYMASTER, DEFAULT_GUESSERS, DEFAULT_SPYMASTERS
from engine.errors import IllegalAction, MalformedRecord
from experiments.exits import check_duet_options, check_seed, fail, path_option
from experiments.games.moves import AgentError

try:   # typer >= 0.26 parses with its own copy of click
    from typer._click.exceptions import ClickException, NoArgsIsHelpError
except ImportError:  # pragma: no cover - older typer: click itself
    from click.exceptions import ClickException, NoArgsIsHelpError

#: Commands whose modules live beside the CLI: name -> (module, function). Imported only when that
#: command runs or help lists it, so one command does not import every other's modules (agents,
#: numpy, the web server): `cnlab check-clue` starts fast.
_EXTRA_COMMANDS = {
    "check-clue": ("experiments.clue_cli", "check_clue_command"),
    "play": ("experiments.play", "play_command"),
    "eval-human": ("experiments.evaluation.eval_human", "eval_human_command"),
    "serve": ("experiments.web.command", "serve_command"),
}


#: --words of deal, simulate, tournament and crossplay (experiments.games.words)
WORDS_HELP = ("a word list file (UTF-8, one card word a line, # comments) to deal the boards from instead of "
              "the shipped list")

#: The most folds `cnlab eval-human --cv` takes: more refits the model hundreds of times (hours) and
#: holds out games one by one at best (folds beyond the number of games are not more folds).
MAX_CV_FOLDS = 50


def _check_cv(ctx, param, value):
    if value is not None and not 2 <= value <= MAX_CV_FOLDS:
        fail(f"--cv must be 2..{MAX_CV_FOLDS} folds, not {value}")
    return value


#: (command, option) -> (a check run as the option is parsed, what its help adds): for the commands
#: that live beside the CLI.
_OPTION_CHECKS = {("eval-human", "cv"): (_check_cv, f"2..{MAX_CV_FOLDS}")}


class _LazyCommands(dict):
    """A group's commands, the `_EXTRA_COMMANDS` ones built on first look-up."""

    def __init__(self, commands, group) -> None:
        super().__init__(commands)
        for name in _EXTRA_COMMANDS:
            self.setdefault(name, None)
        self._group = group

    def _load(self, name):
        cmd = dict.get(self, name)
        if cmd is None and name in _EXTRA_COMMANDS:
            import importlib

            module, attr = _EXTRA_COMMANDS[name]
            one = typer.Typer()
            one.command(name)(getattr(importlib.import_module(module), attr))
            cmd = typer.main.get_command_from_info(one.registered_commands[0],
                                                   pretty_exceptions_short=app.pretty_exceptions_short,
                                                   rich_markup_mode=self._group.rich_markup_mode)
            for param in cmd.params:  # checks the CLI adds to a command's own options
                check = _OPTION_CHECKS.get((name, param.name))
                if check is not None:
                    param.callback, note = check
                    param.help = f"{param.help} ({note})" if param.help else note
            dict.__setitem__(self, name, cmd)
        return cmd

    def __getitem__(self, name):
        if name not in self:
            raise KeyError(name)
        return self._load(name)

    def get(self, name, default=None):
        return self._load(name) if name in self else default

    def values(self):
        return [self._load(n) for n in self]

    def items(self):
        return [(n, self._load(n)) for n in self]


#: What writing the output may fail with when the output is the trouble, not the input.
OUTPUT_ERRNOS = (errno.EPIPE, errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT)


def output_failed(exc: OSError) -> None:
    """The output could not be written: a reader that has gone (`cnlab replay all.jsonl | head -1`)
    ends the command quietly; a full disk is one line, exit 2. Never a traceback, nor an error that
    blames the input."""
    try:   # the interpreter's last flush of stdout must not fail again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    if isinstance(exc, BrokenPipeError):
        sys.exit(0)
    typer.echo(f"error: cannot write the output: {exc.strerror or exc}", err=True)
    sys.exit(2)


def _quiet_closed_stderr() -> None:
    """Started with standard error closed (`2>&-`, sys.stderr None): /dev/null takes its place. The
    progress bar crashed the run (exit 1, no game played), notes and errors went to standard output
    into the results (print's file=None is stdout), and the next file opened took descriptor 2, where
    a library's or a child process's messages would have landed in it. The exit code still tells."""
    if sys.stderr is not None:
        return
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        if fd != 2:
            os.dup2(fd, 2)
            os.close(fd)
        sys.stderr = open(2, "w", closefd=False)
    except OSError:
        pass


class _Group(typer.core.TyperGroup):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.commands = _LazyCommands(self.commands, self)

    def resolve_command(self, ctx, args):
        """A command whose output is its result refuses to run with standard output closed (`>&-`):
        click's echo would write nothing and say nothing, and exit 0. `serve` only says where it is."""
        name, cmd, rest = super().resolve_command(ctx, args)
        if sys.stdout is None and name != "serve":
            fail("cannot write the output: standard output is closed")
        return name, cmd, rest

    def invoke(self, ctx):
        """Output that cannot be written (stdout, not a file) is `output_failed`'s, whichever command
        printed it: typer's main, which sees it first, ended `cnlab deal ... | head -1` with exit 1."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as exc:   # Ctrl-C: one line (typer then exits 130), unless a run said what it kept
            if not getattr(exc, "told", False):
                typer.echo("interrupted (Ctrl-C)", err=True)
            raise
        except OSError as exc:
            if exc.filename is None and exc.errno in OUTPUT_ERRNOS:
                output_failed(exc)
            raise

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """What the parser refuses (an unknown option or command, a value it cannot read such as
        `--seed 1e29`) is bad input like any other: one line on stderr naming the command, exit 2,
        instead of the usage box. `cnlab` alone still prints its help."""
        _quiet_closed_stderr()
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except NoArgsIsHelpError as exc:   # `cnlab` alone: the help (typer prints it as it makes the error)
            sys.exit(exc.exit_code)
        except SystemExit as exc:   # a reader gone while the parser wrote (`cnlab --help | head -1`): rich's
            # help and click's echo (--version) exit 1 there; it ends as any other command's output does
            if exc.code == 1 and isinstance(exc.__context__, BrokenPipeError):
                output_failed(exc.__context__)
            raise
        except ClickException as exc:
            where = exc.ctx.command_path if getattr(exc, "ctx", None) else "cnlab"
            message = " ".join(exc.format_message().split())
            typer.echo(f"error: {where}: {message} (see {where} --help)", err=True)
            sys.exit(exc.exit_code)
        except typer.Abort:
            typer.echo("Aborted.", err=True)
            sys.exit(1)
        except AgentError as exc:   # a trusted agent (no --isolate) broke the game's contract or raised
            if os.environ.get("CNLAB_TRACEBACK"):   # an agent's author asks where: the whole traceback
                raise
            isolate = ("; with --isolate an agent that fails forfeits its game instead"
                       if getattr(exc, "isolate_hint", True) else "")
            typer.echo(f"error: {exc} (games finished before it are kept, and a rerun resumes{isolate})", err=True)
            sys.exit(2)
        except (ImportError, RuntimeError) as exc:   # an extra the run needs is not installed: name it
            from agents.embeddings.base import MissingBackendError
            from engine.clues.types import FilterUnavailable

            if not isinstance(exc, (MissingBackendError, FilterUnavailable)):
                raise
            typer.echo(f"error: {' '.join(str(exc).split())}", err=True)
            sys.exit(2)
        except OSError as exc:
            if exc.filename is None and exc.errno in OUTPUT_ERRNOS:   # writing stdout, not a file
                output_failed(exc)
            raise
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(cls=_Group, add_completion=False, no_args_is_help=True,
                  help="codenames-lab: engines, agents and experiments for the Codenames family.")


def _version(value: bool) -> None:
    if value:
        from importlib import metadata

        try:
            version = metadata.version("codenames-lab")
        except metadata.PackageNotFoundError:
            version = "unknown (not installed)"
        typer.echo(f"codenames-lab {version}")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="print the version and exit")) -> None:
    """codenames-lab: engines, agents and experiments for the Codenames family."""




def emit(obj) -> None:
    try:
        typer.echo(json.dumps(obj, ensure_ascii=False))
    except OSError as exc:   # before a caller's `except OSError` can take it for the input's
        output_failed(exc)


def _known(exc: Exception) -> str:
    return str(exc.args[0] if isinstance(exc, KeyError) and exc.args else exc)


def _check_run_numbers(games: int, seed: int, workers: int | None = None, option: str = "--games") -> None:
    """The numbers every batch command shares: 1..MAX_GAMES games, a seed 0..2**64-1, 1..MAX_WORKERS workers."""
    from experiments.runs.execute import MAX_GAMES, MAX_WORKERS

    check_seed(seed)
    if games < 1:
        fail(f"{option} must be a positive number" if option == "--games" else f"{option} must be at least 1")
    if games > MAX_GAMES:
        fail(f"{option} must be at most {MAX_GAMES:,}; split a larger experiment into runs with other --seed values")
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        fail(f"--workers must be 1..{MAX_WORKERS}, not {workers}")


def _out_folder(out: Optional[str]) -> Optional[Path]:
    return path_option(out, "--out", "a folder for the results")


def _interrupted(exc: KeyboardInterrupt, folder: Optional[Path]) -> NoReturn:
    """Ctrl-C during a batch run: one line saying what is kept (typer then exits 130). The folder holds
    every game finished before it, and the same command resumes the run."""
    kept = (f"the games finished are kept in {folder}, and the same command resumes the run" if folder
            else "no game is kept without --out")
    typer.echo(f"interrupted (Ctrl-C): {kept}", err=True)
    exc.told = True
    raise exc


@app.command()
def deal(
    game: str = typer.Argument(..., help="duet, codenames, pictures or spyword"),
    seed: int = typer.Option(0, help="seed of the first game (0..2**64-1); game i uses seed + i"),
    count: int = typer.Option(1, help="how many records (at most 10,000,000), printed as they are dealt"),
    lang: str = typer.Option("en", help="board language: en or ko"),
    mission: Optional[str] = typer.Option(None, help="Duet: a mission of the map, e.g. cairo"),
    missions_file: Optional[Path] = typer.Option(None, help="Duet: a complete mission map JSON file"),
    tokens: Optional[int] = typer.Option(None, help="Duet: timer tokens (9, 10 or 11) without a mission"),
    variant: Optional[str] = typer.Option(None, help="Codenames/Pictures: teams, two_player, three_player, single_team, assassin_ending"),
    players: Optional[int] = typer.Option(None, help="Spy's Word: number of players (4-12)"),
    invalid_clue: Optional[str] = typer.Option(None, help="Codenames/Duet clue referee: reject (default), allow or penalize"),
    words: Optional[Path] = typer.Option(None, metavar="FILE", help="Duet/Codenames: " + WORDS_HELP),
) -> None:
    """Print COUNT new game records (JSON lines, no actions).

    Example: cnlab deal duet --seed 7 --count 3 --lang ko > games.jsonl
    """
    from engine.records import record_to_json

    from experiments.games import check_options, harness

    from engine.record_fields import MAX_SEED

    _check_run_numbers(count, seed, option="--count")
    if seed + count - 1 > MAX_SEED:
        fail(f"--seed {seed} with --count {count}: the last record's seed would pass 2**64-1 ({MAX_SEED})")
    try:
        module = harness(game)
        options = check_options(game, "deal", module.DEAL_OPTIONS,
                                dict(mission=mission, missions_file=missions_file, tokens=tokens, variant=variant,
                                     players=players, invalid_clue=invalid_clue, words=words))
        if game == "duet":
            check_duet_options(mission, missions_file, tokens)
        if "words" in options:   # read and checked once, before the first record
            from experiments.games.words import load_word_file

            if game == "pictures":
                fail("--words does not apply to `deal pictures`: its cards are pictures, not words")
            options["words"] = load_word_file(options["words"], lang)
        if "invalid_clue" in module.DEAL_OPTIONS:  # a dealt record referees its clues unless told otherwise
            options.setdefault("invalid_clue", "reject")
        for i in range(count):  # each record printed as it is dealt: any --count runs in constant memory
            typer.echo(record_to_json(module.deal_record(seed=seed + i, lang=lang, game=game, **options)))
    except (KeyError, ValueError, TypeError) as exc:
        fail(_known(exc))


def _read_records(path: str, limit: int = 16 * 2**20):
    """The records of a file, or of stdin for "-": an iterator of (n, text), n None for a file of
    one JSON document (possibly pretty-printed), else the line number in a JSON-lines file.

    Read as bytes and decoded as UTF-8 (a leading byte-order mark is dropped); a byte that is not
    UTF-8 is one MalformedRecord naming where it is. A one-document file holds at most `limit`
    bytes; a larger file is JSON lines, streamed line by line, each line at most `limit` bytes.
    OSError when the file cannot be opened or read."""
    import itertools

    def decode(data: bytes, where: str) -> str:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise MalformedRecord(f"{where}not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})") from None

    def one_document(text: str) -> bool:
        try:
            json.loads(text)
        except json.JSONDecodeError:
            return False
        except (RecursionError, ValueError):  # a single bad document: its parse reports why
            return True
        return True

    def numbered(lines):
        lines = ((i, line.strip()) for i, line in lines)
        lines = ((i, line) for i, line in lines if line)
        first = next(lines, None)
        if first is None:
            raise MalformedRecord("the file holds no record")
        second = next(lines, None)
        if second is None:
            yield None, first[1]
            return
        yield from itertools.chain([first, second], lines)

    def streamed(stream, head: bytes, number: int):
        pending = head
        try:
            for chunk in iter(lambda: stream.read(1 << 20), b""):
                pending += chunk
                *complete, pending = pending.split(b"\n")
                for line in complete:
                    number += 1
                    if len(line) > limit:
                        raise MalformedRecord(f"line {number}: a record of more than {limit} bytes")
                    yield number, decode(line, f"line {number}: ")
                if len(pending) > limit:
                    raise MalformedRecord(f"line {number + 1}: a record of more than {limit} bytes")
            yield number + 1, decode(pending, f"line {number + 1}: ")
        finally:
            if path != "-":
                stream.close()

    if path == "-" and sys.stdin is None:  # started with standard input closed (`<&-`)
        raise OSError(errno.EBADF, "standard input is closed")
    stdin = getattr(sys.stdin, "buffer", None)
    if path == "-" and stdin is None:  # a text stream without bytes underneath
        stream, head = None, sys.stdin.read().encode("utf-8", "surrogatepass")
    else:
        stream = stdin if path == "-" else open(path, "rb")
        head = stream.read(limit + 1)
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    if stream is None or len(head) <= limit:  # the whole file: one document or JSON lines
        if stream is not None and path != "-":
            stream.close()
        text = decode(head, "")
        stripped = text.strip()
        # one document, or a broken one: a pretty-printed record's first two lines ("{", a field) are no
        # document each, and its parse error, not its first line's, says where it breaks
        if stripped and (one_document(stripped) or not any(one_document(line.strip()) for line in itertools.islice(
                (ln for ln in text.split("\n") if ln.strip()), 2))):
            return iter([(None, stripped)])
        return numbered(enumerate(text.split("\n"), 1))
    first, _, rest = head.partition(b"\n")  # larger than one record: JSON lines, streamed
    if len(first) > limit or (first.strip() and not one_document(decode(first, "line 1: ").strip())):
        if path != "-":
            stream.close()
        raise MalformedRecord(f"a file of more than {limit} bytes must be JSON lines (one record per line, "
                              f"each at most {limit} bytes)")
    return numbered(itertools.chain([(1, decode(first, "line 1: "))], streamed(stream, rest, 1)))


@app.command()
def replay(file: str = typer.Argument(..., help="a record file (JSON or JSON lines), or - for stdin")) -> None:
    """Replay records and print one JSON summary per record; exit 2 on a bad record or illegal action.

    Example: cnlab deal duet --seed 7 | cnlab replay -
    """
    from engine.clues import FilterUnavailable
    from engine.record_fields import one_line
    from engine.records import record_from_json, replay_summary

    try:
        for n, doc in _read_records(file):
            where = f"record {n}: " if n is not None else ""
            try:
                summary = replay_summary(record_from_json(doc))
            except IllegalAction as exc:
                fail(one_line(f"{where}illegal {exc.describe()}"))
            except MalformedRecord as exc:
                fail(one_line(f"{where}malformed record: {exc}"))
            except FilterUnavailable as exc:
                fail(one_line(f"{where}cannot referee the clues ({exc}); a config with \"invalid_clue\": "
                              "\"allow\" replays without the referee"))
            emit(summary)
    except OSError as exc:
        fail(one_line(f"cannot read {file}: {exc.strerror or exc}"))
    except MalformedRecord as exc:
        fail(one_line(f"malformed record: {exc}"))


@app.command()
def simulate(
    game: str = typer.Argument("duet", help="duet, codenames or spyword"),
    games: int = typer.Option(1000, help="number of games (at most 10,000,000); game i uses seed (SEED, i)"),
    seed: int = typer.Option(0, help="run seed (0..2**64-1): game i is dealt and played from (SEED, i)"),
    spymaster: Optional[str] = typer.Option(None, help="spymaster spec of seat A (and B unless given); default: "
                                            f"{DEFAULT_SPYMASTERS['en']} (Duet, en), {DEFAULT_SPYMASTERS['ko']} "
                                            f"(Duet, ko), {CODENAMES_SPYMASTER} (Codenames)"),
    guesser: Optional[str] = typer.Option(None, help="guesser spec of seat A (and B unless given); default: "
                                          f"{DEFAULT_GUESSERS['en']} (Duet, en), {DEFAULT_GUESSERS['ko']} (Duet, ko), "
                                          f"{CODENAMES_GUESSER} (Codenames)"),
    seat_b_spymaster: Optional[str] = typer.Option(None, "--seat-b-spymaster", help="Duet: seat B's spymaster spec"),
    seat_b_guesser: Optional[str] = typer.Option(None, "--seat-b-guesser", help="Duet: seat B's guesser spec"),
    mission: Optional[str] = typer.Option(None, help="Duet: a mission of the map, e.g. cairo"),
    missions_file: Optional[Path] = typer.Option(None, help="Duet: a complete mission map JSON file"),
    tokens: Optional[int] = typer.Option(None, help="Duet: timer tokens (9, 10 or 11) without a mission"),
    lang: str = typer.Option("en", help="board language: en or ko"),
    workers: int = typer.Option(1, help="local processes sharing the loaded embeddings (never more than games)"),
    backend: str = typer.Option("local", help="local or ray (the cluster at RAY_ADDRESS, else a local Ray "
                                "with --workers CPUs)"),
    out: Optional[str] = typer.Option(None, metavar="PATH", help="results folder (new, empty, or this run's): rows, "
                                      "records, summary; a rerun resumes"),
    progress: bool = typer.Option(True, help="show a progress bar"),
    players: Optional[int] = typer.Option(None, help="Spy's Word: players per game (4-12; default 6)"),
    bot: Optional[str] = typer.Option(None, help="Spy's Word: bot spec for every seat (default spyword:use-m3)"),
    weaken: Optional[str] = typer.Option(None, help="Spy's Word: citizens or infiltrators play random clues and votes"),
    variant: Optional[str] = typer.Option(None, help="Codenames: single_team (the AI Competition protocol; default), two_player or teams"),
    words: Optional[Path] = typer.Option(None, metavar="FILE", help="Duet/Codenames: " + WORDS_HELP),
    isolate: bool = typer.Option(False, "--isolate", help="every agent in its own process, seeing only its "
                                 "observations (untrusted agents; docs/isolation.md)"),
    move_timeout: Optional[float] = typer.Option(None, "--move-timeout", help="with --isolate: seconds an agent may "
                                                 "take per move (default 60); a slower, crashing or garbled agent "
                                                 "forfeits the game"),
) -> None:
    """Seeded self-play; prints the summary table (and writes DIR/summary.json with --out).

    Duet: game i is dealt and played from (SEED, i). Spy's Word: game i plays pack i//2, with the
    citizens' word, seats and roles dealt from (SEED, i).

    Example: cnlab simulate duet --games 1000 --workers 2 --out runs/bench
    """
    from experiments.games import check_options, harness

    _check_run_numbers(games, seed, workers)
    _check_backend(backend, isolate)
    _check_isolation(isolate, move_timeout)
    folder = _out_folder(out)
    try:
        module = harness(game)
        options = check_options(game, "simulate", module.SIMULATE_OPTIONS, dict(
            spymaster=spymaster, guesser=guesser, seat_b_spymaster=seat_b_spymaster, seat_b_guesser=seat_b_guesser,
            mission=mission, missions_file=missions_file, tokens=tokens, players=players, bot=bot, weaken=weaken,
            variant=variant, words=words))
        if game == "duet":
            check_duet_options(mission, missions_file, tokens)
        isolation = dict(isolate=True, move_timeout=_isolation_checked(move_timeout)) if isolate else {}
        summary = module.simulate(game, games=games, seed=seed, lang=lang, workers=workers, backend=backend,
                                  out=folder, progress=progress, **isolation, **options)
    except (KeyError, ValueError) as exc:
        fail(_known(exc))
    except KeyboardInterrupt as exc:
        _interrupted(exc, folder)
    typer.echo(module.format_summary(summary))


def _check_backend(backend: str, isolate: bool = False) -> None:
    """--backend (of simulate, tournament, crossplay): local, or ray where Ray is importable and
    RAY_ADDRESS, when set, answers, and agents are not isolated; refused before any folder or agent exists."""
    from experiments.runs.execute import check_run_backend

    try:
        check_run_backend(backend, isolate)
    except ValueError as exc:
        fail(exc)
    if backend == "ray":
        from experiments.runs.ray_backend import cluster_unreachable, ray_missing

        why = ray_missing() or cluster_unreachable()
        if why:
            fail(why)


def _check_isolation(isolate: bool, move_timeout: Optional[float]) -> None:
    """--move-timeout is an --isolate option: without it, refused like any option that does not apply."""
    if move_timeout is not None and not isolate:
        fail("--move-timeout applies with --isolate only (the seconds an isolated agent may take per move)")


def _isolation_checked(move_timeout: Optional[float]) -> float:
    """--move-timeout's value. The note that no seed secret hides the deals comes when isolated play
    starts, after every check (experiments.isolation.runs.closing): bad input stays one line."""
    from experiments.isolation.proxy import DEFAULT_MOVE_TIMEOUT, checked_move_timeout

    return DEFAULT_MOVE_TIMEOUT if move_timeout is None else checked_move_timeout(move_timeout)


@app.command()
def tournament(
    spymasters: str = typer.Option(..., help="comma-separated spymaster specs"),
    guessers: str = typer.Option(..., help="comma-separated guesser specs"),
    games: int = typer.Option(200, help="deals per pairing (at most 10,000,000); game i uses seed (SEED, i)"),
    seed: int = typer.Option(0, help="run seed (0..2**64-1): every pairing plays the same deals"),
    tokens: Optional[int] = typer.Option(None, help="timer tokens (9, 10 or 11) without a mission"),
    mission: Optional[str] = typer.Option(None, help="a mission of the map, e.g. cairo"),
    lang: str = typer.Option("en", help="board language: en or ko"),
    words: Optional[Path] = typer.Option(None, metavar="FILE", help=WORDS_HELP),
    workers: int = typer.Option(1, help="local processes (or Ray actors) per pairing"),
    backend: str = typer.Option("local", help="local or ray (the cluster at RAY_ADDRESS, else a local Ray "
                                "with --workers CPUs)"),
    out: Optional[str] = typer.Option(None, metavar="PATH",
                                      help="folder for per-pairing results and tournament.csv/.parquet"),
    progress: bool = typer.Option(True, help="show progress"),
    isolate: bool = typer.Option(False, "--isolate", help="every agent in its own process (docs/isolation.md)"),
    move_timeout: Optional[float] = typer.Option(None, "--move-timeout", help="with --isolate: seconds per move before "
                                                 "a forfeit (default 60)"),
) -> None:
    """Every spymaster x guesser pairing on the same seeded Duet deals; prints the ranking.

    Example: cnlab tournament --spymasters robust:use-m3,expected:use-m3 --guessers duet-bayes:glove-50 --games 200
    """
    from experiments.evaluation.tournament import format_table
    from experiments.evaluation.tournament import tournament as run_tournament

    split = lambda text: [s.strip() for s in text.split(",") if s.strip()]
    _check_run_numbers(games, seed, workers)
    check_duet_options(mission, None, tokens)
    _check_backend(backend, isolate)
    _check_isolation(isolate, move_timeout)
    folder = _out_folder(out)
    try:
        isolation = dict(isolate=True, move_timeout=_isolation_checked(move_timeout)) if isolate else {}
        table = run_tournament(split(spymasters), split(guessers), games=games, seed=seed, out=folder,
                               workers=workers, backend=backend, progress=progress, tokens=tokens, mission=mission,
                               lang=lang, words=None if words is None else str(words), **isolation)
    except (KeyError, ValueError) as exc:
        fail(_known(exc))
    except KeyboardInterrupt as exc:
        _interrupted(exc, folder)
    typer.echo(format_table(table))


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
    partner: str = typer.Option("duet-bayes", help="the panel's guesser algorithm without backends (e.g. nearest, "
                                "duet-bayes?hub=1): for each panel model P the partner is it on P"),
    leave_one_out: bool = typer.Option(True, "--leave-one-out/--no-leave-one-out",
                                       help="for partner model P the spymaster runs on the panel's other models"),
    games: int = typer.Option(400, help="deals per pairing (at most 10,000,000); game i uses seed (SEED, i)"),
    seed: int = typer.Option(0, help="run seed (0..2**64-1): every pairing plays the same deals"),
    lang: str = typer.Option("en", help="board language: en or ko"),
    tokens: Optional[int] = typer.Option(None, help="timer tokens (9, 10 or 11)"),
    words: Optional[Path] = typer.Option(None, metavar="FILE", help=WORDS_HELP),
    workers: int = typer.Option(1, help="local processes (or Ray actors) per pairing"),
    backend: str = typer.Option("local", help="local or ray (the cluster at RAY_ADDRESS, else a local Ray "
                                "with --workers CPUs)"),
    out: Optional[str] = typer.Option(None, metavar="PATH", help="results folder (default runs/crossplay, runs/crossplay-ko in "
                                       "Korean): a subfolder per pairing (a rerun resumes), crossplay.csv/.parquet"),
    progress: bool = typer.Option(True, help="show progress"),
) -> None:
    """Spymaster algorithms against a panel of partner guessers on the same seeded Duet deals.

    Example: cnlab crossplay --spymasters robust,expected --games 400 --workers 2
    """
    from experiments.evaluation.crossplay import crossplay as run_crossplay
    from experiments.evaluation.crossplay import format_table

    split = lambda text: [s.strip() for s in text.split(",") if s.strip()]
    _check_run_numbers(games, seed, workers)
    check_duet_options(None, None, tokens)
    _check_backend(backend)
    if human is False and human_spec != "human":
        fail("--human-spec names the human partner, which --no-human leaves out: give one of them")
    folder = _out_folder(out) or Path("runs/crossplay" if lang == "en" else f"runs/crossplay-{lang}")
    try:
        table = run_crossplay(split(spymasters), games=games, seed=seed, lang=lang,
                              panel=split(panel) if panel is not None else None, noise=noise, human=human,
                              leave_one_out=leave_one_out, out=folder, workers=workers, backend=backend,
                              progress=progress,
                              human_spec=human_spec, tokens=tokens, partner=partner,
                              words=None if words is None else str(words))
    except (KeyError, ValueError) as exc:
        fail(_known(exc))
    except KeyboardInterrupt as exc:
        _interrupted(exc, folder)
    except AgentError as exc:
        exc.isolate_hint = False   # crossplay has no --isolate
        raise
    typer.echo(format_table(table))


if __name__ == "__main__":
    app()
