"""Every spymaster x guesser pairing on the same seeded deals, as one pandas table."""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

import pandas as pd

from agents.spec import parse_spec

from experiments.games.duet.batch import DuetRun, simulate
from experiments.isolation.runs import one_seed_note
from experiments.runs.execute import check_run_backend
from experiments.runs.tables import claim, write_table

COLUMNS = ["spymaster", "guesser", "pairing", "games", "wins", "win_rate", "ci95_low", "ci95_high",
           "mean_score_wins", "mean_score_all", "assassin_rate", "sudden_death_rate", "mean_clue_number"]
#: the figures: float in every file, empty (NaN) where there is none (no scored win: RULES 3.11)
FLOAT_COLUMNS = COLUMNS[5:]


def pairing_kind(spymaster: str, guesser: str) -> str:
    """`self-play` when both read a model in common (aliases and default backends resolved: `robust`
    and `nearest` both read use-m3), `no model` when either reads none, else `cross-model`."""
    from agents import registry

    return registry.pairing_kind(spymaster, registry.models_read(guesser, "guesser"))


def distinct_specs(specs) -> list[str]:
    """Each spec once, as first written: two that parse to the same spec (`x?t=0.3`, `x?t=+0.3`) are
    one pairing, else the second would find the first's folder holding a different run."""
    def key(spec: str) -> str:
        try:
            return str(parse_spec(spec))
        except ValueError:
            return spec  # malformed: validate() says why
    kept: dict[str, str] = {}
    for spec in specs:
        kept.setdefault(key(spec), spec)
    return list(kept.values())


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text)


#: The longest name a file system takes for a folder (NAME_MAX, in bytes; a slug is ASCII).
MAX_FOLDER_NAME = 255


def folder_name(run: DuetRun) -> str:
    """`SPYMASTER__GUESSER`, slugged; a name too long for a folder (specs naming deep model paths) keeps
    its first characters and ends with a hash of the whole name, so it is one folder per name still."""
    name = f"{slug(run.spymaster)}__{slug(run.guesser)}"
    if len(name) <= MAX_FOLDER_NAME:
        return name
    digest = hashlib.sha256(name.encode("ascii")).hexdigest()[:16]
    return f"{name[:MAX_FOLDER_NAME - len(digest) - 2]}__{digest}"


def pairing_folder(out: str | Path | None, run: DuetRun) -> Path | None:
    """Each pairing's own results folder under `out` (so a rerun resumes it), or None."""
    return Path(out) / folder_name(run) if out else None


def check_folders(runs) -> None:
    """ValueError (one line) when two different pairings would share a results folder (`slug` makes
    `:`, `?`, `/` and the like one `_`): said before any game, not when the second finds the first's."""
    seen: dict[str, DuetRun] = {}
    for run in runs:
        other = seen.setdefault(folder_name(run), run)
        if other != run:
            raise ValueError(f"pairings {other.spymaster} / {other.guesser} and {run.spymaster} / {run.guesser} "
                             f"would share the results folder {folder_name(run)}: write one of the specs "
                             "another way")


def summary_fields(s: dict) -> dict:
    """The table's metric columns from a simulator summary (`simulate`'s return value)."""
    return {"games": s["games"], "wins": s["wins"], "win_rate": s["win_rate"],
            "ci95_low": s["win_rate_ci95"][0], "ci95_high": s["win_rate_ci95"][1],
            "mean_score_wins": s["mean_score_wins"], "mean_score_all": s.get("mean_score_all"),
            "assassin_rate": s["assassin_rate"], "sudden_death_rate": s["sudden_death_rate"],
            "mean_clue_number": s["mean_clue_number"]}


def tournament(spymasters: list[str], guessers: list[str], games: int, seed: int = 0,
               out: str | Path | None = None, workers: int = 1, progress: bool = True, isolate: bool = False,
               move_timeout: float = 60.0, backend: str = "local", **run_options) -> pd.DataFrame:
    """Run every pairing (resumable: each pairing keeps its own results folder) and rank them.
    `isolate`: every agent in its own process, `move_timeout` seconds a move (docs/isolation.md).
    `backend`: `local` or `ray` (each pairing's games on the Ray actors; the same rows either way)."""
    check_run_backend(backend, isolate)   # before the folder is claimed
    for option, specs in (("--spymasters", spymasters), ("--guessers", guessers)):
        if not specs:
            raise ValueError(f"{option} needs at least one spec (comma-separated)")
    runs = [DuetRun(games=games, seed=seed, spymaster=s, guesser=g, **run_options)   # each pairing once
            for s in distinct_specs(spymasters) for g in distinct_specs(guessers)]
    for run in runs:
        run.validate()  # every bad spec is reported before the first game
    check_folders(runs)
    claim(out, "tournament", runs, ("spymaster", "guesser"))  # never another experiment's table
    if isolate and len(runs) > 1:
        print("note: every pairing plays the same deals, and an agent may read its user's files: the records an "
              "earlier pairing wrote hold the keys of the games a later one plays (docs/isolation.md; for "
              "untrusted agents run each pairing as another user or in a container)", file=sys.stderr)
    rows = []
    with one_seed_note():   # the pairings share their deals: one note on seeds (isolated play only)
        for run in runs:
            s = simulate(run, out=pairing_folder(out, run), workers=workers, backend=backend, progress=progress,
                         isolate=isolate, move_timeout=move_timeout)
            rows.append({"spymaster": run.spymaster, "guesser": run.guesser,
                         "pairing": pairing_kind(run.spymaster, run.guesser), **summary_fields(s)})
    table = pd.DataFrame(rows, columns=COLUMNS).astype({c: float for c in FLOAT_COLUMNS})
    table = table.sort_values(["win_rate", "mean_score_all"], ascending=False, kind="stable").reset_index(drop=True)
    table.insert(0, "rank", range(1, len(table) + 1))
    if out and not write_table(table, out, "tournament"):
        print(f"note: {out}/tournament.csv holds more games per pairing; not rewritten", file=sys.stderr)
    return table


def format_table(table: pd.DataFrame, width: int = 80) -> str:
    """The ranking as printed: fixed precision, readable in `width` columns (the CSV and Parquet
    files keep full precision). Each pairing's specs follow its figures, on the next line when long."""
    head = f"{'rank':>4} {'win':>5} {'95% CI':>11} {'assn':>5} {'sdth':>5} {'score':>5} {'clue#':>5}  pairing"
    lines = [head, "-" * min(width, max(len(head), 60))]
    for r in table.itertuples(index=False):
        figures = (f"{r.rank:>4} {r.win_rate:5.3f} {r.ci95_low:5.3f}-{r.ci95_high:5.3f} {r.assassin_rate:5.2f} "
                   f"{r.sudden_death_rate:5.2f} {_figure(r.mean_score_all)} {_figure(r.mean_clue_number)}")
        pairing = f"{r.spymaster} / {r.guesser} ({r.pairing})"
        if len(figures) + 2 + len(pairing) <= width:
            lines.append(f"{figures}  {pairing}")
        else:
            lines += [figures, f"{'':>5}{pairing}"]
    lines.append("win: win rate; assn/sdth: games lost to the assassin / ended in sudden death; score: mean "
                 "score per game (- unscored); clue#: mean clue number")
    return "\n".join(_wrap(line, width) for line in lines)


def _figure(value) -> str:
    """A mean as printed, `-` where there is none (RULES 3.11 scores 9-token games only): never 0.00."""
    return f"{'-':>5}" if value is None or pd.isna(value) else f"{value:5.2f}"


def _wrap(line: str, width: int) -> str:
    import textwrap

    return line if len(line) <= width else "\n".join(textwrap.wrap(line, width, subsequent_indent="     "))
