"""A folder's summary table belongs to one experiment (nothing lost: an existing result is never
silently overwritten by another's).

`tournament` and `crossplay` keep each pairing in its own resumable folder and write one ranked
table beside them. A rerun of the same experiment with more games rewrites the table with the same
pairings; with fewer it rewrites nothing (the table describes the games on disk, as a run folder's
summary does). Another set of pairings, seed, language or token supply into the same `--out` would
replace the table with another experiment's, so it is refused before any game is played, as is a
folder that holds something else. The setup is kept in `<name>.setup.json` next to the table.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable

from experiments.runs.folder import _atomic_write, _words_meta


def setup_of(runs: Iterable) -> list[dict]:
    """What identifies an experiment: each pairing's run without its game count, in order."""
    from experiments.runs.stats import run_dict

    # a run's own word list (--words) by its path and its words' hash, as run.json keeps it: an edited
    # file is another setup
    return [{**{k: v for k, v in run_dict(run).items() if k != "games"}, **_words_meta(run)} for run in runs]


def claim(out: str | Path | None, name: str, runs: Iterable, legacy_columns: tuple[str, str]) -> None:
    """Refuse (ValueError, one line) when `out` holds a `name` table of another experiment; else
    record this one's setup. `legacy_columns`: the table's two columns naming a pairing, to
    compare a table written before setups were kept."""
    if not out:
        return
    out = Path(out)
    setup = setup_of(runs)
    kept = out / f"{name}.setup.json"
    table = out / f"{name}.csv"
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {out} is a file, not a results folder")
    try:
        foreign = out.is_dir() and not kept.exists() and not table.exists() and any(out.iterdir())
    except OSError as exc:
        raise ValueError(f"cannot read --out {out}: {exc.strerror or exc}") from None
    if foreign:
        raise ValueError(f"{out} is not empty and holds no {name}: use another --out")
    if kept.exists():
        try:
            before = json.loads(kept.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError) as exc:  # RecursionError: nested deeper than json reads
            raise ValueError(f"{kept} is unreadable ({type(exc).__name__}); use another --out") from None
        if before != setup and (table.exists() or _played(out)):
            raise ValueError(f"{out} holds a {name} of another setup (other pairings, seed, language, "
                             f"tokens or --words list); its table would be overwritten: use another --out")
    elif table.exists():               # a table written before setups were kept: compare its pairings
        import pandas as pd

        try:
            old = pd.read_csv(table)
            pairs = sorted(map(tuple, old[list(legacy_columns)].astype(str).values.tolist()))
        except Exception as exc:  # noqa: BLE001 - any unreadable table is refused the same way
            raise ValueError(f"{table} is unreadable ({type(exc).__name__}); use another --out") from None
        new = sorted((r["spymaster"], r["guesser"]) for r in setup)
        if pairs != new:
            raise ValueError(f"{out} holds a {name} of other pairings; its table would be overwritten: "
                             f"use another --out")
    try:
        out.mkdir(parents=True, exist_ok=True)
        _atomic_write(kept, json.dumps(setup, indent=1, sort_keys=True))
    except OSError as exc:
        raise ValueError(f"cannot write in --out {out}: {exc.strerror or exc}") from None


def _played(out: Path) -> bool:
    """Whether any pairing folder under `out` holds a game or is in use: an experiment whose runs all
    failed before their first game (a model file that does not load) has nothing to keep."""
    from experiments.runs.folder import holds_games, in_use

    try:
        return any(holds_games(p) or in_use(p) for p in out.iterdir() if p.is_dir())
    except OSError:   # what cannot be read may hold games: kept
        return True


def write_table(table, out: str | Path, name: str) -> bool:
    """`name`.csv and `name`.parquet in `out`, each written whole (a temporary file renamed over it),
    unless the table there holds more games than this one: a rerun with a smaller --games reports
    the first games and rewrites nothing. Returns whether the files were written."""
    import pandas as pd

    out = Path(out)
    csv = out / f"{name}.csv"
    if csv.exists():
        try:
            held = pd.read_csv(csv, usecols=["games"])["games"].max()
        except Exception:  # noqa: BLE001 - claim() compared this table already; an odd one is rewritten
            held = None
        if held is not None and pd.notna(held) and int(held) > int(table["games"].max()):
            return False
    try:
        _atomic_write(csv, table.to_csv(index=False))
        tmp = out / f"{name}.parquet.tmp"
        table.to_parquet(tmp, index=False)
        tmp.replace(out / f"{name}.parquet")
    except OSError as exc:   # a full disk, a folder where the table goes: one line, the games stay
        raise ValueError(f"cannot write the {name} table in {out}: {exc.strerror or exc} "
                         f"({Path(exc.filename).name if exc.filename else name}); the games are kept: "
                         "a rerun writes it") from None
    return True
