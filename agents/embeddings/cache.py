"""On-disk cache of embedded vocabularies.

One entry = the vectors of one word list under one model:

    <root>/vectors/<backend>/<key>.npy    the (n, dim) float32 matrix
    <root>/vectors/<backend>/<key>.json   sidecar: shape, dtype, byte size, sha256 of the .npy

``key`` hashes the backend name, the backend's model version, the vocabulary (exact word
list, in order) and this package's cache format/version. Both files are written to a
temporary file in the same folder and moved into place with ``os.replace`` (the sidecar
last, so it is the commit). On load the byte size, checksum, shape and dtype are checked;
a truncated, corrupted or orphaned entry is logged as a warning and rebuilt, never used.

The root is ``$CNLAB_CACHE`` or ``~/.cache/codenames-lab``.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import tempfile
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

log = logging.getLogger("agents.embeddings.cache")

CACHE_FORMAT = 1


def default_cache_dir() -> Path:
    env = os.environ.get("CNLAB_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "codenames-lab"


def package_version() -> str:
    try:
        from importlib.metadata import version

        return version("codenames-lab")
    except Exception:  # not installed (running from a checkout)
        return "0"


def vocab_hash(words: Sequence[str]) -> str:
    """One word list's hash: each word's length before it, so that no two lists meet (with a
    separator, a word holding it, `["a\\0", "b"]` and `["a", "\\0b"]`, hashed alike)."""
    h = hashlib.sha256()
    for w in words:
        b = w.encode("utf-8")
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()


def _safe(name: str) -> str:
    s = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._")[:40] or "backend"
    if s != name:
        s += "-" + hashlib.sha256(name.encode()).hexdigest()[:8]
    return s


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 22), b""):
            h.update(chunk)
    return h.hexdigest()


def _atomic_write(path: Path, write: Callable[[object], None]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class CacheCorrupt(Exception):
    pass


class VectorCache:
    def __init__(self, root: str | os.PathLike | None = None):
        self.root = Path(root).expanduser() if root is not None else default_cache_dir()

    # -- naming -----------------------------------------------------------
    def key(self, backend: str, model_version: str, words: Sequence[str]) -> str:
        ident = json.dumps([CACHE_FORMAT, package_version(), backend, model_version, vocab_hash(words)])
        return hashlib.sha256(ident.encode()).hexdigest()[:32]

    def paths(self, backend: str, key: str) -> tuple[Path, Path]:
        d = self.root / "vectors" / _safe(backend)
        return d / f"{key}.npy", d / f"{key}.json"

    # -- read / write -------------------------------------------------------
    def _read(self, npy: Path, side: Path, n_words: int, vhash: str) -> np.ndarray:
        try:
            meta = json.loads(side.read_text("utf-8"))
        except (OSError, ValueError) as e:
            raise CacheCorrupt(f"unreadable sidecar {side.name}: {e}") from e
        if not isinstance(meta, dict):
            raise CacheCorrupt(f"sidecar {side.name} holds a JSON {type(meta).__name__}, not an object")
        if meta.get("format") != CACHE_FORMAT or meta.get("vocab_sha256") != vhash:
            raise CacheCorrupt("sidecar does not match this vocabulary/format")
        size = npy.stat().st_size
        if size != meta.get("bytes"):
            raise CacheCorrupt(f"size {size} != recorded {meta.get('bytes')} (truncated?)")
        digest = _sha256_file(npy)
        if digest != meta.get("sha256"):
            raise CacheCorrupt("checksum mismatch")
        try:
            arr = np.load(npy, allow_pickle=False)
        except Exception as e:
            raise CacheCorrupt(f"np.load failed: {e}") from e
        if list(arr.shape) != meta.get("shape") or str(arr.dtype) != meta.get("dtype"):
            raise CacheCorrupt(f"shape/dtype {arr.shape}/{arr.dtype} != recorded {meta.get('shape')}/{meta.get('dtype')}")
        if arr.shape[0] != n_words:
            raise CacheCorrupt(f"{arr.shape[0]} rows for {n_words} words")
        return arr

    def load(self, backend: str, model_version: str, words: Sequence[str]) -> np.ndarray | None:
        """The cached matrix, or None when absent; a damaged entry is logged and None returned. It is
        left in place for the rebuild's `save` to replace: another process may be filling this entry
        (its .npy written, its sidecar not yet), and deleting it would delete that fresh entry."""
        key = self.key(backend, model_version, words)
        npy, side = self.paths(backend, key)
        if not npy.exists() and not side.exists():
            return None
        try:
            if not npy.exists() or not side.exists():
                raise CacheCorrupt("one of .npy/.json is missing")
            return self._read(npy, side, len(words), vocab_hash(words))
        except (CacheCorrupt, OSError) as e:
            log.warning("embedding cache entry %s for %s is damaged (%s); rebuilding", npy, backend, e)
            return None

    def save(self, backend: str, model_version: str, words: Sequence[str], arr: np.ndarray) -> Path:
        arr = np.ascontiguousarray(arr, dtype=np.float32)
        key = self.key(backend, model_version, words)
        npy, side = self.paths(backend, key)
        _atomic_write(npy, lambda f: np.save(f, arr, allow_pickle=False))
        meta = {
            "format": CACHE_FORMAT,
            "package_version": package_version(),
            "backend": backend,
            "model_version": model_version,
            "vocab_sha256": vocab_hash(words),
            "n_words": len(words),
            "shape": list(arr.shape),
            "dtype": str(arr.dtype),
            "bytes": npy.stat().st_size,
            "sha256": _sha256_file(npy),
        }
        _atomic_write(side, lambda f: f.write(json.dumps(meta, indent=1).encode("utf-8")))
        return npy

    def get_or_build(self, backend: str, model_version: str, words: Sequence[str],
                     build: Callable[[list[str]], np.ndarray]) -> np.ndarray:
        words = list(words)
        arr = self.load(backend, model_version, words)
        if arr is not None:
            return arr
        arr = np.ascontiguousarray(build(words), dtype=np.float32)
        try:
            self.save(backend, model_version, words, arr)
        except OSError as e:  # a read-only cache dir must not stop a game
            log.warning("could not write embedding cache under %s: %s", self.root, e)
        return arr


def cached_vectors(emb, words: Sequence[str], *, cache_dir: str | os.PathLike | None = None) -> np.ndarray:
    """``emb.vectors(words)``, read from / written to the on-disk cache."""
    if not emb.has_vectors:
        raise NotImplementedError(f"backend {emb.name!r} has no vectors to cache")
    return VectorCache(cache_dir).get_or_build(emb.name, emb.version, words, emb.vectors)
