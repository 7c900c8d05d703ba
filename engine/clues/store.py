"""On-disk tables that keep a single clue check fast from a cold start (docs/clue_filter.md, Speed).

Two kinds, both SQLite files under ``$CNLAB_CACHE/clues`` (default ``~/.cache/codenames-lab/clues``):

* `Lookup`: a read-only copy of a package's word list (wordfreq frequencies, lemminflect's lemma
  table), built once per installed version of that package. A single check reads the few dozen
  words it needs, row by row, instead of loading a 300,000-word list (and importing the package);
  a batch (`legal_mask` over a candidate list) calls `preload()` and gets the whole list in memory.
* `InfoStore`: the analyser's board-independent facts about each word (`WordInfo`, and for
  English the other-language check), keyed by a fingerprint of everything they depend on: the
  analyser's source files, the data tables under data/clues/ and the installed morphology packages.
  Any change to one of those makes a new store, so a stored answer is always the one the analyser
  would give now; a word found there needs no analyser at all (no Kiwi model load in Korean).

Both are caches: a missing, unwritable or damaged file is never an error, the data is then
computed in memory as before; a damaged file (SQLite finds it corrupt, not a database, or cut short)
is removed and made again. ``CNLAB_CLUE_CACHE=off`` turns both off. Connections are per process
(a forked worker opens its own) and guarded by a lock (threads).
"""

from __future__ import annotations

import hashlib
import marshal
import os
import threading
from contextlib import contextmanager
from importlib.util import find_spec
from pathlib import Path
from typing import Callable, Iterable

from engine.clues.wordinfo import WordInfo

FORMAT = 1
_KEEP = 6  # info stores kept per language (other fingerprints: other checkouts or versions)


def cache_dir() -> Path | None:
    """The folder of the filter's caches, or None when turned off (CNLAB_CLUE_CACHE=off)."""
    if os.environ.get("CNLAB_CLUE_CACHE", "").strip().lower() in ("0", "off", "no", "false"):
        return None
    root = os.environ.get("CNLAB_CACHE")
    base = Path(root).expanduser() if root else Path.home() / ".cache" / "codenames-lab"
    return base / "clues"


def package_signature(*modules: str) -> str:
    """A cheap fingerprint of installed packages: the size and mtime of their files (two levels
    deep), or "missing". Changes when a package is upgraded or reinstalled."""
    h = hashlib.sha256()
    for name in modules:
        h.update(name.encode() + b"\0")
        try:
            spec = find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is None or not spec.origin:
            h.update(b"missing\0")
            continue
        root = Path(spec.origin).parent
        try:
            entries = sorted(os.scandir(root), key=lambda e: e.name)
            for e in entries:
                if e.name == "__pycache__":
                    continue
                st = e.stat()
                h.update(f"{e.name}:{st.st_size}:{st.st_mtime_ns}\0".encode())
                if e.is_dir():
                    for sub in sorted(os.scandir(e.path), key=lambda s: s.name):
                        if sub.name != "__pycache__":
                            s = sub.stat()
                            h.update(f"{e.name}/{sub.name}:{s.st_size}:{s.st_mtime_ns}\0".encode())
        except OSError:
            h.update(b"unreadable\0")
    return h.hexdigest()[:16]


def files_signature(paths: Iterable[Path]) -> str:
    """Fingerprint of files' contents (the analyser's sources and data tables)."""
    h = hashlib.sha256(f"format {FORMAT}\0".encode())
    for p in sorted(paths, key=str):
        h.update(p.name.encode() + b"\0")
        try:
            h.update(p.read_bytes())
        except OSError:
            h.update(b"missing")
        h.update(b"\0")
    return h.hexdigest()[:16]


#: SQLite's codes for a damaged file: SQLITE_CORRUPT and SQLITE_NOTADB (their extended codes too), and
#: SQLITE_IOERR_SHORT_READ (a file cut short). Not "locked", "read-only" or "cannot open": those keep it.
_DAMAGED = (11, 26)
_SHORT_READ = 522


class _Db:
    """One SQLite file, opened lazily per process; every failure turns it off (returns None). A file
    that is no database or a damaged one (truncated, overwritten) is removed and made again, once per
    process: it would otherwise be read as nothing, every later check in memory, for ever."""

    def __init__(self, path: Path | None, on_reset: Callable[[], None] | None = None) -> None:
        self.path = path
        self._conn = None
        self._pid = None
        self._broken = path is None
        self._reset = False
        self._on_reset = on_reset
        self.lock = threading.RLock()

    def conn(self):
        if self._broken:
            return None
        if self._conn is not None and self._pid == os.getpid():
            return self._conn
        try:
            import sqlite3

            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(str(self.path), timeout=5.0, check_same_thread=False,
                                   isolation_level=None)
            try:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
            except Exception:
                conn.close()
                raise
        except Exception as exc:  # unwritable folder, damaged file, no sqlite3: memory only
            if self._remove_damaged(exc):
                return self.conn()
            self._broken = True
            return None
        self._conn, self._pid = conn, os.getpid()
        return conn

    def _remove_damaged(self, exc: Exception) -> bool:
        """True when `exc` says the file is damaged (not locked, not unwritable) and it was removed,
        so the next connection makes it anew; once per process."""
        code = getattr(exc, "sqlite_errorcode", None)
        if self._reset or code is None or not (code & 0xFF in _DAMAGED or code == _SHORT_READ):
            return False
        self._reset = True
        if self._conn is not None:
            try:
                self._conn.close()
            except Exception:
                pass
        self._conn = None
        try:
            for suffix in ("", "-wal", "-shm"):
                Path(str(self.path) + suffix).unlink(missing_ok=True)
        except OSError:
            return False
        if self._on_reset is not None:
            self._on_reset()
        return True

    def run(self, fn: Callable, default=None):
        with self.lock:
            conn = self.conn()
            if conn is None:
                return default
            try:
                return fn(conn)
            except Exception as exc:
                if self._remove_damaged(exc):
                    return self.run(fn, default)
                self._broken = True  # a damaged or locked file: stop using it in this process
                return default


class Lookup:
    """A read-only str -> value table built once from a package (see the module doc).

    `build()` returns the whole dict; `kind` is "real" (float values) or "marshal" (any value
    marshal can write: dicts of tuples). Missing keys give `default`."""

    def __init__(self, name: str, modules: tuple[str, ...], build: Callable[[], dict], kind: str = "real",
                 version: str | None = None) -> None:
        self.name = name
        self.modules = modules
        self.version = version  # instead of the packages' signature (a data file's)
        self.kind = kind
        self._build = build
        self._mem: dict | None = None  # the whole table, once preloaded or built here
        self._seen: dict = {}
        self._db: _Db | None = None
        self._size: int | None = None

    def _open(self) -> None:
        if self._db is not None:
            return
        root = cache_dir()
        version = self.version or package_signature(*self.modules)
        path = None if root is None else root / f"{self.name}-{version}.sqlite"
        self._db = _Db(path)
        def size_of(c):
            if c.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'").fetchone() is None:
                return None
            return c.execute("SELECT v FROM meta WHERE k='size'").fetchone()

        size = self._db.run(size_of, None)
        if size is not None:
            self._size = int(size[0])
            return
        data = self._build()
        self._mem, self._size = data, len(data)
        self._write(data)

    def _write(self, data: dict) -> None:
        encode = (lambda v: float(v)) if self.kind == "real" else marshal.dumps
        column = "REAL" if self.kind == "real" else "BLOB"

        def write(c):
            c.execute("BEGIN IMMEDIATE")
            try:
                c.execute("DROP TABLE IF EXISTS t")
                c.execute(f"CREATE TABLE t (k TEXT PRIMARY KEY, v {column}) WITHOUT ROWID")
                c.executemany("INSERT INTO t VALUES (?, ?)", ((k, encode(v)) for k, v in data.items()))
                c.execute("CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT)")
                c.execute("INSERT OR REPLACE INTO meta VALUES ('size', ?)", (str(len(data)),))
                c.execute("COMMIT")
            except Exception:
                c.execute("ROLLBACK")
                raise

        self._db.run(write)

    def _decode(self, v):
        return v if self.kind == "real" else marshal.loads(v)

    def get(self, key: str, default=None):
        if self._mem is not None:
            return self._mem.get(key, default)
        got = self._seen.get(key, self._seen)
        if got is not self._seen:
            return default if got is None else got
        self._open()
        if self._mem is not None:
            return self._mem.get(key, default)
        row = self._db.run(lambda c: c.execute("SELECT v FROM t WHERE k=?", (key,)).fetchone(), False)
        if row is False:  # the file went bad: fall back to the package
            self.preload()
            return self._mem.get(key, default)
        value = None if row is None else self._decode(row[0])
        self._seen[key] = value
        return default if value is None else value

    def __contains__(self, key: str) -> bool:
        return self.get(key) is not None

    def __bool__(self) -> bool:
        if self._mem is not None:
            return bool(self._mem)
        self._open()
        return bool(self._size) if self._mem is None else bool(self._mem)

    def items(self):
        """Every (key, value) of the table (preloads it)."""
        self.preload()
        return self._mem.items()

    def preload(self) -> None:
        """The whole table in memory (a batch of many words)."""
        if self._mem is not None:
            return
        self._open()
        if self._mem is not None:
            return
        rows = self._db.run(lambda c: c.execute("SELECT k, v FROM t").fetchall(), None)
        if rows is None:
            self._mem = self._build()
        elif self.kind == "real":
            self._mem = dict(rows)
        else:
            self._mem = {k: marshal.loads(v) for k, v in rows}
        self._seen = {}


def _encode_info(info: WordInfo) -> bytes:
    return marshal.dumps((info.canon, tuple(sorted(info.forms)), tuple(info.parts.items()), info.real, info.number,
                          tuple(sorted(info.syllable_words)), info.position, info.letter))


def _decode_info(word: str, blob: bytes) -> WordInfo:
    canon, forms, parts, real, number, words, position, letter = marshal.loads(blob)   # the store's name holds the analyser's fingerprint
    return WordInfo(word, canon, frozenset(forms), dict(parts), real, number, frozenset(words), position, letter)


class InfoStore:
    """Stored `WordInfo` per word (and small per-word answers such as the other-language check),
    for one language and one fingerprint of the analyser (see the module doc)."""

    def __init__(self, language: str, fingerprint: str) -> None:
        root = cache_dir()
        self.path = None if root is None else root / f"wordinfo-{language}-{fingerprint}.sqlite"
        self.language = language
        self._ready = False
        self._db = _Db(self.path, on_reset=lambda: setattr(self, "_ready", False))

    def _init(self, c) -> None:
        if not self._ready:
            c.execute("CREATE TABLE IF NOT EXISTS info (w TEXT PRIMARY KEY, v BLOB) WITHOUT ROWID")
            c.execute("CREATE TABLE IF NOT EXISTS extra (w TEXT PRIMARY KEY, v BLOB) WITHOUT ROWID")
            self._ready = True
            self._prune()

    def _prune(self) -> None:
        try:
            others = sorted(self.path.parent.glob(f"wordinfo-{self.language}-*.sqlite"),
                            key=lambda p: p.stat().st_mtime, reverse=True)
            for old in [p for p in others if p != self.path][_KEEP - 1:]:
                for suffix in ("", "-wal", "-shm"):
                    Path(str(old) + suffix).unlink(missing_ok=True)
        except OSError:
            pass

    def _select(self, table: str, words: list[str]) -> dict:
        def read(c):
            self._init(c)
            out = {}
            for i in range(0, len(words), 500):
                chunk = words[i:i + 500]
                marks = ",".join("?" * len(chunk))
                out.update(c.execute(f"SELECT w, v FROM {table} WHERE w IN ({marks})", chunk).fetchall())
            return out

        return self._db.run(read, {}) if words else {}

    def _insert(self, table: str, rows: list[tuple]) -> None:
        if not rows:
            return

        def write(c):
            self._init(c)
            c.execute("BEGIN IMMEDIATE")
            try:
                c.executemany(f"INSERT OR REPLACE INTO {table} VALUES (?, ?)", rows)
                c.execute("COMMIT")
            except Exception:
                c.execute("ROLLBACK")
                raise

        self._db.run(write)

    def get_many(self, words: list[str]) -> dict[str, WordInfo]:
        found = self._select("info", words)
        out = {}
        for w, blob in found.items():
            try:
                out[w] = _decode_info(w, blob)
            except Exception:  # a damaged row: analyse it again
                continue
        return out

    def put_many(self, infos: Iterable[WordInfo]) -> None:
        self._insert("info", [(i.word, _encode_info(i)) for i in infos])

    def get_extra(self, words: list[str]) -> dict:
        return {w: marshal.loads(v) for w, v in self._select("extra", words).items()}

    def all_extra(self) -> dict:
        """Every stored small answer (a batch reads them at once)."""
        def read(c):
            self._init(c)
            return c.execute("SELECT w, v FROM extra").fetchall()

        return {w: marshal.loads(v) for w, v in self._db.run(read, [])}

    def put_extra(self, items: dict) -> None:
        self._insert("extra", [(w, marshal.dumps(v)) for w, v in items.items()])


class StoredForeign:
    """`foreign(w)`, an analyser's other-language answer for a word (RULES 4.6: chien in English,
    삭스 = socks in Korean), kept in the analyser's store beside its WordInfo. The analyser sets
    `store` and defines `_find_foreign(w) -> str` ("" when the word is of the board's language)."""

    store: "InfoStore"
    _foreign: dict
    _pending: dict | None = None  # answers to store at the end of a batch

    def foreign(self, w: str) -> str:
        foreign = self.__dict__.setdefault("_foreign", {})
        got = foreign.get(w)
        if got is None:
            stored = None if self._pending is not None else self.store.get_extra([w]).get(w)
            got = stored if isinstance(stored, str) else self._find_foreign(w)
            foreign[w] = got
            if stored is None:
                if self._pending is not None:
                    self._pending[w] = got
                else:
                    self.store.put_extra({w: got})
        return got

    @contextmanager
    def batch(self):
        """Many `foreign` calls (a candidate list): stored answers read at once, new ones written
        in one transaction at the end."""
        if self._pending is not None:
            yield
            return
        self._pending = {}
        foreign = self.__dict__.setdefault("_foreign", {})
        for w, answer in self.store.all_extra().items():
            if isinstance(answer, str):
                foreign.setdefault(w, answer)
        try:
            yield
        finally:
            pending, self._pending = self._pending, None
            self.store.put_extra(pending)

    def _find_foreign(self, w: str) -> str:  # pragma: no cover - each analyser defines it
        raise NotImplementedError


def analyser_fingerprint(language: str, modules: tuple[str, ...], extra: str = "") -> str:
    """Fingerprint of what a language's WordInfo depends on: engine/clues sources, that language's
    data/clues tables, the packages in `modules`, and `extra` (analyser options)."""
    from engine.paths import data_path

    here = Path(__file__).resolve().parent
    own = ("english.py",) if language == "en" else ("korean.py", "hanja.py", "transliterate.py")
    sources = [here / f for f in (*own, "wordinfo.py", "tables.py", "store.py", "pronunciation.py")]
    try:
        tables = [p for p in data_path("clues").iterdir() if p.name.startswith(language + "_")]
    except OSError:
        tables = []
    return hashlib.sha256(
        f"{files_signature(sources + tables)}:{package_signature(*modules)}:{extra}".encode()
    ).hexdigest()[:20]
