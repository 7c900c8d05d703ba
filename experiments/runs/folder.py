"""A run's results folder: written as games finish, resumed, locked, repaired, never truncated.

Shared by every game's simulator (experiments.games.*.simulate), tournaments and cross-play.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterable

from .stats import agent_settings, changed_settings, run_dict


class RunFolderError(ValueError):
    """A results folder that cannot be used as it is: one line naming the file (the CLI's `error: ...`)."""


#: What a results folder may hold before its run.json is written: the lock, empty row and record files and
#: the temporary file of an interrupted atomic write. A folder holding anything else without a run.json
#: is not a results folder (someone's other files): a run never writes into it.
_NEW_FOLDER_FILES = frozenset({".lock", "games.jsonl", "records.jsonl", "run.json.tmp", "games.jsonl.tmp",
                               "records.jsonl.tmp"})

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
      that is not JSON or not a row/record (no integer `game_index`), rows without a `run.json`, a
      non-empty folder without a `run.json` (another tool's files), or `--out` naming a regular file
      each raise `RunFolderError` naming the file.
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
            if self.path.is_dir():
                self._refuse_foreign()  # before the lock file: nothing is written into another tool's folder
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RunFolderError(f"cannot create the results folder {self.path}: {exc.strerror or exc}") from None
        self._lock()
        try:
            agents = agent_settings(self.run)   # what its agents play with: checked, then kept
            old_games = self._check_meta(agents)
            rows = self._repair()
            self._write_meta(old_games, agents)
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

    def _refuse_foreign(self) -> None:
        """A folder without run.json that holds other files than a new run's is someone else's: refused."""
        if self.meta_path.exists():
            return
        foreign = sorted(p.name for p in self.path.iterdir() if p.name not in _NEW_FOLDER_FILES)
        if foreign:
            shown = ", ".join(n if n.isprintable() else ascii(n) for n in foreign[:3]) + (", ..." if len(foreign) > 3 else "")
            raise RunFolderError(f"{self.path} is not empty ({shown}) and is not a results folder (no run.json); "
                                 "give --out a new or empty folder")

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

    def _check_meta(self, agents: dict[str, dict]) -> int | None:
        """The games count run.json records (None for a new folder); refuses another run's folder, or
        one whose agents played with other settings than `agents`."""
        if not self.meta_path.exists():
            for path in (self.rows_path, self.records_path):
                if path.exists() and path.stat().st_size:
                    raise RunFolderError(f"{self.path} holds {path.name} but no run.json, so its games cannot "
                                         "be matched to this run; use another --out")
            self._refuse_foreign()
            return None
        try:
            old = json.loads(self.meta_path.read_text(encoding="utf-8"))
        except (ValueError, RecursionError):  # not JSON, not UTF-8, nested deeper than json reads
            raise RunFolderError(f"{self.meta_path} is corrupted (not JSON); remove the folder to start over") from None
        if not isinstance(old, dict) or not isinstance(old.get("fingerprint"), str):
            raise RunFolderError(f"{self.meta_path} is not a run description (a JSON object with a "
                                 "fingerprint); remove the folder to start over")
        if not holds_games(self.path):
            return None   # a run that played no game (say its agents failed to load): nothing to keep, the folder is new
        if old["fingerprint"] != self.run.fingerprint():
            lists = _word_lists(old, self.run)
            if lists:
                raise RunFolderError(f"{self.path} holds a run dealt from {lists[0]}, not from {lists[1]} (--words): "
                                     "use another --out")
            if _arguments(old.get("run")) == _arguments(run_dict(self.run)):   # the seeds differ, not what was asked
                raise RunFolderError(f"{self.path} holds a different run: these arguments, played under other seeds "
                                     "(another CNLAB_SEED_SECRET, or none where this run has one or the reverse; an "
                                     "older seed scheme or an edited missions file); rerun with the secret it was "
                                     "played with, or use another --out")
            raise RunFolderError(f"{self.path} holds a different run ({old.get('run')}); use another --out")
        changed = changed_settings(old.get("agents"), agents)
        if changed:
            raise RunFolderError(f"{self.path} was played with other agent defaults ({'; '.join(changed)}); "
                                 "use another --out, or resume it with the code it was played with")
        games = old["run"].get("games") if isinstance(old.get("run"), dict) else None
        return games if isinstance(games, int) and not isinstance(games, bool) else 0

    def _write_meta(self, old_games: int | None, agents: dict[str, dict]) -> None:
        """run.json: written for a new folder, and when a run is extended; never shrunk."""
        if old_games is not None and old_games >= self.run.games:
            return
        _atomic_write(self.meta_path, json.dumps({"fingerprint": self.run.fingerprint(), "run": run_dict(self.run),
                                                  "agents": agents, **_words_meta(self.run)}, indent=1))

    # ----- repair ------------------------------------------------------------------------------------
    def _repair(self) -> dict[int, dict]:
        """Cut torn last lines, keep the games whose row and record are both whole, and rewrite the two
        files (records first) in game order when they hold anything else. Returns every done row."""
        rows, rows_clean = self._read(self.rows_path, "game row")
        records, records_clean = self._read(self.records_path, "game record")
        done = sorted(set(rows) & set(records))
        _check_rows(self.rows_path, [rows[i][0] for i in done])
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
            except (ValueError, RecursionError):   # RecursionError: nesting deeper than json reads
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


def _words_meta(run: Any) -> dict[str, str]:
    """What run.json keeps of a run's own word list (`--words`): its `words_sha256`, so that a resume
    from another list, or from the same file since edited, is told apart from other changes."""
    digest = getattr(run, "words_digest", None)
    return {"words_sha256": digest()} if callable(digest) and getattr(run, "words", None) is not None else {}


def _word_lists(old: dict, run: Any) -> tuple[str, str] | None:
    """(the folder's list, this run's) as a message names them, where the two runs' word lists differ;
    None where they are the same (or neither run has one)."""
    before = old.get("run", {}).get("words") if isinstance(old.get("run"), dict) else None
    now = _words_meta(run).get("words_sha256")
    if before is None and now is None:
        return None
    held = old.get("words_sha256")
    if before is not None and now is not None and held == now:
        return None
    name = lambda path, digest: (f"the word list {path} (sha256 {digest}...)" if path is not None
                                 else "the shipped word list")
    return name(before, held), name(getattr(run, "words", None), now)


def _arguments(run: Any) -> Any:
    """A run description (run.json's `run`, or a run's asdict) as JSON reads it back, less its game count."""
    if not isinstance(run, dict):
        return None
    return json.loads(json.dumps({k: v for k, v in run.items() if k != "games"}, sort_keys=True, default=str))


def holds_games(path: Path) -> bool:
    """Whether a results folder holds anything of a game: a byte of games.jsonl or records.jsonl."""
    for name in ("games.jsonl", "records.jsonl"):
        try:
            if (path / name).stat().st_size:
                return True
        except FileNotFoundError:
            continue
        except OSError:
            return True
    return False


def in_use(path: Path) -> bool:
    """Whether a run holds the results folder's lock now."""
    try:
        import fcntl
        fd = os.open(path / ".lock", os.O_RDONLY)
    except (ImportError, OSError):
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


def _kind(value) -> str | None:
    """A JSON value's kind; None for null, which any field may hold (a score only won games have)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "bool"
    return "number" if isinstance(value, (int, float)) else type(value).__name__


def _optional_field(key: str) -> bool:
    """A field only some games' rows have: a Spy's Word forfeit's `forfeit` (docs/isolation.md), the
    `llm_*` totals of a game where a language-model seat moved (agents/llm)."""
    return key == "forfeit" or key.startswith("llm_")


def _check_rows(path: Path, rows: list[dict]) -> None:
    """Every row of a run has the same fields (but the optional ones), each of one kind: a row edited by
    hand (`"won": "yes"`, a missing field) is an error naming its game, not a summary computed from it.
    The kinds are the ones most rows have, so one damaged row is the one named whatever its place."""
    from collections import Counter

    if len(rows) < 2:
        return
    keys = Counter(frozenset(k for k in r if not _optional_field(k)) for r in rows).most_common(1)[0][0]
    kinds = {}
    for k in keys | {k for r in rows for k in r if _optional_field(k)}:
        seen = Counter(_kind(r[k]) for r in rows if r.get(k) is not None)
        kinds[k] = seen.most_common(1)[0][0] if seen else None
    for r in rows:
        odd = sorted({k for k in r if not _optional_field(k)} ^ keys) or [
            k for k in r if r[k] is not None and _kind(r[k]) != kinds[k]]
        if odd:
            raise RunFolderError(f"{path}: the row of game {r['game_index']} does not match the run's other rows "
                                 f"({', '.join(map(str, odd))[:80]}); the folder is damaged: delete that line to "
                                 "resume, or the folder to start over")


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


def _write_parquet(rows: list[dict], path: Path, types: dict[str, str] | None = None) -> None:
    """`types`: a column's type in every run's file (a field only some games have, such as a score:
    never an integer column in one run, a float one in another, and untyped nulls in a third)."""
    import pandas as pd

    tmp = path.with_suffix(".parquet.tmp")
    frame = pd.DataFrame(rows)
    frame = frame.astype({c: t for c, t in (types or {}).items() if c in frame})
    frame.to_parquet(tmp, index=False)
    os.replace(tmp, path)
