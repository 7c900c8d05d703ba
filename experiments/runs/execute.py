"""Running a batch of games: here, on forked workers or on Ray; results stored as they arrive.

Every game's simulator hands `run_resumable` its run (with `validate()` and `fingerprint()`) and a
`results(todo)` function; `game_results` picks the backend for any simulator module that has
`load_players(run)` and `play_one(index)`.
"""

from __future__ import annotations

import bisect
import gc
import json
import multiprocessing
import signal
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from experiments.runs.folder import RunDirectory, RunFolderError, _atomic_write, _write_parquet

#: The most games one run may ask for (`cnlab simulate --games`, each tournament or cross-play
#: pairing; `cnlab deal --count` too): a larger experiment is several runs with other seeds.
MAX_GAMES = 10_000_000
#: The most worker processes (or Ray actors) one run may ask for; a run never uses more than it has games.
MAX_WORKERS = 1024


class MissingGames(Sequence[int]):
    """The game indices 0..games-1 not in `done`, in order, without building the list: a run of
    millions of games holds only the indices already done (len, iteration and slices, like a list)."""

    def __init__(self, games: int, done: Iterable[int]):
        self._games = games
        self._done = sorted(i for i in set(done) if 0 <= i < games)
        self._shift = [d - n for n, d in enumerate(self._done)]  # missing indices before done[n]

    def __len__(self) -> int:
        return self._games - len(self._done)

    def __iter__(self) -> Iterator[int]:
        start = 0
        for d in self._done:
            yield from range(start, d)
            start = d + 1
        yield from range(start, self._games)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        n = len(self)
        if k < 0:
            k += n
        if not 0 <= k < n:
            raise IndexError("game index out of range")
        return k + bisect.bisect_right(self._shift, k)

    def __repr__(self) -> str:
        return f"MissingGames({self._games}, done={len(self._done)})"


def local_results(todo: Sequence[int], workers: int, play: Callable[[int], tuple[dict, str]]
                  ) -> Iterator[tuple[dict, str]]:
    """Play game indices here or on forked workers (`game_results` asks for no more than there are
    games); results in completion order.

    What is loaded by now lives as long as the run: frozen (`gc.freeze`), the collector never walks
    it again, so no game pays for it, and forked workers do not copy its pages by touching them."""
    gc.freeze()
    try:
        if workers <= 1 or len(todo) < 2:
            yield from map(play, todo)
            return
        # fork after loading: every worker shares the parent's embeddings and tables (copy-on-write).
        # One game a task: a worker hands each game back as it finishes, so it is on disk at once (a batch
        # came back only with its last game, and a run killed meanwhile lost the batch's finished games)
        with multiprocessing.get_context("fork").Pool(workers, initializer=_one_thread) as pool:
            yield from _while_workers_live(pool, pool.imap_unordered(play, todo, chunksize=1))
    finally:
        gc.unfreeze()


def _while_workers_live(pool, results: Iterator) -> Iterator:
    """The pool's results, until one of its workers dies: killed (a signal from any process of the user,
    an isolated agent's included; the OOM killer), it takes its game along, and the pool, which starts
    another worker, would wait for that game forever. The run stops then (SystemExit, one line), its
    finished games kept: a rerun resumes. Workers end only so (the pool's own end comes after this)."""
    seen = list(pool._pool)
    while True:
        try:
            yield results.next(timeout=0.25)
        except StopIteration:
            return
        except multiprocessing.TimeoutError:
            seen += [p for p in list(pool._pool) if p not in seen]  # replacements of dead workers too
            dead = next((p for p in seen if p.exitcode is not None), None)
            if dead is not None:
                code = dead.exitcode
                how = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
                raise SystemExit(f"error: a worker process died ({how}) while it played: the run stops; the games "
                                 "finished before it are kept, and a rerun resumes")


def _one_thread() -> None:
    """One BLAS thread per worker: N workers on N cores, not N x N threads fighting. Ctrl-C is the
    parent's to handle (it saves what is done and ends the pool): a worker ignores it, rather than
    print its own KeyboardInterrupt traceback. SIGTERM ends a worker at once, as it always did (the
    pool's terminate() sends it), not through the parent's handler (`stop_on_sigterm`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return
    threadpool_limits(1)


@contextmanager
def stop_on_sigterm() -> Iterator[None]:
    """While a run plays, SIGTERM (`kill PID`, a batch scheduler's time limit, a service manager) ends it
    as Ctrl-C does: an exception (SystemExit 143) in the main thread, so the pool of forked workers is
    terminated, isolated agents are closed and what they started reaped, the folder's lock released.
    With the default action the parent died at once: its workers played on and printed a
    BrokenPipeError traceback each when they found it gone. The previous handler is restored after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


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


def save_outputs(directory: "RunDirectory | None", ordered_rows: list[dict], summary: dict,
                 played: int | None = None, types: dict[str, str] | None = None) -> None:
    """summary.json and games.parquet: derived from the rows, rewritten whole at the end of a run, and
    only when the reported games are every game the folder holds (a smaller --games writes nothing).
    A rerun that played no game (`played` 0) keeps a whole summary of those games as it is: its speed,
    workers and package versions are those of the run that played them."""
    if not directory or not directory.covers_folder(r["game_index"] for r in ordered_rows):
        return
    if played == 0 and _outputs_describe(directory.path, len(ordered_rows), summary):
        return
    try:
        _atomic_write(directory.path / "summary.json", json.dumps(summary, indent=1))
        _write_parquet(ordered_rows, directory.path / "games.parquet", types)
    except OSError as exc:
        raise RunFolderError(f"cannot write the summary in {directory.path}: {exc.strerror or exc}") from None


#: What a summary says of the run that played its games rather than of the games themselves.
_PROVENANCE = ("games_per_second", "load_seconds", "config")


def _outputs_describe(path: Path, games: int, summary: dict) -> bool:
    """Whether summary.json and games.parquet in `path` are whole and hold `games` games with every
    figure `summary` has (a summary of older code, or an edited one, is rewritten)."""
    try:
        kept = json.loads((path / "summary.json").read_text(encoding="utf-8"))
        import pyarrow.parquet as pq

        rows = pq.read_metadata(path / "games.parquet").num_rows
    except Exception:  # noqa: BLE001 - missing, unreadable or damaged: rewritten
        return False
    fresh = json.loads(json.dumps(summary))
    return (isinstance(kept, dict) and rows == games
            and all(kept.get(k, not v) == v for k, v in fresh.items() if k not in _PROVENANCE))


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
    if workers > MAX_WORKERS:
        raise ValueError(f"--workers must be at most {MAX_WORKERS}")
    if run.games > MAX_GAMES:
        raise ValueError(f"--games must be at most {MAX_GAMES:,}; split a larger experiment into runs with "
                         "other seeds")
    with stop_on_sigterm():
        directory = RunDirectory(out, run) if out else None
        try:
            rows = directory.open() if directory else {}
            todo = MissingGames(run.games, rows)  # the games still to play, in order, not built as a list
            started = loaded = time.perf_counter()
            if todo:
                if progress:
                    print(f"loading the agents for {len(todo)} games ...", file=sys.stderr, flush=True)
                stream = results(todo)  # loads the agents (here, or every Ray actor) before it returns
                loaded = time.perf_counter()
                if progress:
                    print(f"agents ready in {loaded - started:.1f} s", file=sys.stderr, flush=True)
                collect(stream, rows, run.games, directory, progress, on_result)
            seconds = time.perf_counter() - loaded  # games_per_second counts the games only
            if directory:
                directory.finish()
            ordered = [rows[i] for i in sorted(rows)]
            try:
                summary = {**summarize_rows(ordered, len(todo), seconds), "load_seconds": round(loaded - started, 3)}
            except (KeyError, TypeError, ValueError) as exc:   # rows of the folder that _check_rows let pass
                if not directory:
                    raise
                raise RunFolderError(f"{directory.rows_path} holds rows this run cannot summarise ({type(exc).__name__}: "
                                     f"{str(exc)[:60]}); the folder is damaged: remove it to start over") from None
            save_outputs(directory, ordered, summary, played=len(todo), types=getattr(run, "ROW_TYPES", None))
        finally:
            if directory:
                directory.close()
    return summary


def _progress_bar(total: int, initial: int):
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="game", smoothing=0.05, dynamic_ncols=True)


def check_run_backend(backend: str, isolate: bool = False) -> None:
    """ValueError (one line) for a backend other than `local` or `ray`, or `ray` with isolated agents
    (their processes are this machine's): every batch command checks it before any folder is claimed."""
    if backend not in ("local", "ray"):
        raise ValueError(f"unknown backend {backend!r}: local or ray")
    if isolate and backend != "local":
        raise ValueError("--isolate runs on the local backend")


def game_results(backend: str, run, todo: Sequence[int], workers: int, simulator: str,
                 load: Callable[[], object], play: Callable[[int], tuple[dict, str]]) -> Iterable[tuple[dict, str]]:
    """The finished games of `todo` on the chosen backend, for any game's simulator: `local`
    (this process or forked workers) or `ray` (actors that load the run themselves); never more
    workers than games. Either way the agents are loaded when this returns (Ray: started or joined,
    every actor ready), so `run_resumable` counts loading as load time, not game time."""
    check_run_backend(backend)
    workers = max(1, min(workers, len(todo)))
    if backend == "ray":
        from experiments.runs.ray_backend import ray_results

        return ray_results(run, todo, workers, simulator)
    load()
    return local_results(todo, workers, play)
