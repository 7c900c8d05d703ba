"""`cnlab eval-human`: how well a guesser reads people, on the Cultural Codes data.

The data (Shaikh et al. 2023, "Modeling Cross-Cultural Pragmatic Inference with Codenames Duet";
human Codenames Duet games) is read from a folder laid out like the dataset's `data/` folder,
`<task>/<split>.csv`, each CSV with a `base_text` and an `output` column:

* `generate_guess_task`: `remaining: ['w1', ...], hint: CLUE` -> the word(s) the person guessed
  (a few rows list several guesses, `a, b`, in the order made; a few are empty);
* `clue_generation_task`: `black: [...], tan: [...], targets: [...]` -> the person's clue.

Two figures (and, for the human guesser, `memory_rows`: the rows its clue memory scored):

* `guess_top1`: the share of guess rows where the guesser's first choice on the same board for the
  same clue is the person's (first) guess; `guess_top1_any` also counts any of the person's guesses.
* `target_recall`: given the person's clue, the share of the person's targets among the guesser's
  top-k of the row's cards (black, tan and targets in sorted order, so a card's place gives nothing away),
  k = number of targets (the mean over rows; `_micro` pools targets).

A guesser that has `rank(clue, candidates) -> list[int]` (best first) is ranked directly; any other
registered guesser is ranked by its own moves: a Duet observation of the candidates with the clue
on the table, asking `next_guess` again and again and covering each returned card.

`--cv N` gives held-out figures for a fitted `human:` spec instead: the model is refitted on the
other games of each of N folds (nested: its penalty and hubness chosen by an inner CV on those
games) and scored on the held-out games (`experiments.tools.fit_human_model.held_out_figures`).

Malformed input (a missing folder, file or column, a file none of whose rows parses) is a
`HumanDataError` naming the file and row; the command prints one line and exits 2. One odd row is
skipped and counted in `skipped_by_reason` (`experiments.evaluation.cultural_codes`: `malformed`,
the first named in `first_malformed`; `no_clue`, `no_targets`, `no_guess`, `guess_not_on_board`);
`guess_top1_strict` counts the skipped guess rows as misses.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Callable, Iterable, Optional, Sequence

import typer

from experiments.evaluation.cultural_codes import GuessItem, HumanDataError, TargetItem, load_guess_items, load_target_items
from experiments.exits import fail, path_option

#: the best guesser we have (cross-validated on the validation split; see docs/eval_human.md)
DEFAULT_GUESSER = "human:use-m3+glove-50+minilm"

Ranker = Callable[[str, Sequence[str], int], list[int]]


# ---------------------------------------------------------------------------
# rankings
# ---------------------------------------------------------------------------
def _check_ranking(order: Iterable[int], n: int, who: str) -> list[int]:
    order = [int(i) for i in order]
    if len(set(order)) != len(order) or any(not 0 <= i < n for i in order):
        raise ValueError(f"{who} returned an invalid ranking {order[:10]} for {n} candidates")
    return order


def _observation(candidates: Sequence[str], clue: str, number: int, covered: Sequence[bool], correct: int):
    from engine.duet import DuetObservation, Event

    n = len(candidates)
    return DuetObservation(
        seat="B", words=tuple(candidates), own_key="N" * n, green_covered=tuple(covered),
        bystander_marks=(frozenset(),) * n, check_tokens=9, bystander_tokens=0, timer_tokens=9,
        mistakes_allowed=None, phase="guess", clue_giver="A", to_act=("B",),
        current_clue=(clue, int(number)), correct_this_turn=int(correct), greens_found=int(correct),
        partner_finished=False, history=(Event("clue", "A", clue, int(number)),),
    )


def ranker_for(guesser) -> Ranker:
    """`rank(clue, candidates, k)` -> up to k candidate indices, best first, for any guesser.

    Uses the guesser's own `rank` when it has one; otherwise plays its moves on a Duet observation
    (the clue with number k, each returned card covered as a correct guess) until it has named k
    cards or stops (then the ranking is shorter: the missing places count as misses). A word that is
    twice on the board names its first uncovered copy."""
    rank = getattr(guesser, "rank", None)
    name = getattr(guesser, "spec", type(guesser).__name__)
    if callable(rank):
        def by_rank(clue: str, candidates: Sequence[str], k: int) -> list[int]:
            return _check_ranking(rank(clue, candidates), len(candidates), name)[:k]
        return by_rank

    def by_moves(clue: str, candidates: Sequence[str], k: int) -> list[int]:
        covered = [False] * len(candidates)
        order: list[int] = []
        while len(order) < min(k, len(candidates)):
            word = guesser.next_guess(_observation(candidates, clue, k, covered, len(order)))
            if word is None:
                break
            # a card twice on a board (held-out data may hold one): the word names its first uncovered copy
            i = next((j for j, w in enumerate(candidates) if w == word and not covered[j]), None)
            if i is None:
                raise ValueError(f"{name} guessed {word!r}, not an uncovered card of the board")
            covered[i] = True
            order.append(i)
        return order
    return by_moves


# ---------------------------------------------------------------------------
# metrics
# ---------------------------------------------------------------------------
def wilson(successes: float, n: int, z: float = 1.96) -> list[float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return [0.0, 1.0]
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def mean_ci(values: Sequence[float], z: float = 1.96) -> list[float]:
    """95% normal-approximation interval of a mean."""
    n = len(values)
    if n < 2:
        return [0.0, 1.0]
    m = sum(values) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    half = z * sd / math.sqrt(n)
    return [round(max(0.0, m - half), 4), round(min(1.0, m + half), 4)]


def guess_metrics(items: Sequence[GuessItem], top1: Sequence[int | None], no_guess_rows: int = 0) -> dict:
    """`top1[i]`: the guesser's first choice (an index into items[i].board), or None when it named none.

    `guess_top1_strict` is the convention of the issue's baseline figures: the whole `output` text
    must equal the first choice, over all rows, so multi-guess rows and the `no_guess_rows` (empty
    outputs, or no card) count as misses."""
    first = [t is not None and it.board[t] == it.guesses[0] for it, t in zip(items, top1)]
    single = [f and len(it.guesses) == 1 for f, it in zip(first, items)]
    anyg = [t is not None and it.board[t] in it.guesses for it, t in zip(items, top1)]
    n = len(items)
    hits = sum(first)
    return {
        "guess_top1": round(hits / n, 4) if n else None,
        "guess_top1_ci95": wilson(hits, n),
        "guess_top1_any": round(sum(anyg) / n, 4) if n else None,
        "guess_top1_strict": round(sum(single) / (n + no_guess_rows), 4) if n + no_guess_rows else None,
        "guess_random": round(sum(1 / len(it.board) for it in items) / n, 4) if n else None,
        "n_guess": n,
    }


def target_metrics(items: Sequence[TargetItem], rankings: Sequence[Sequence[int]]) -> dict:
    """`rankings[i]`: the guesser's top-k (indices into items[i].candidates), k = len(items[i].targets)."""
    per_row, hits, total = [], 0, 0
    for it, order in zip(items, rankings):
        k = len(it.targets)
        chosen = {it.candidates[j] for j in list(order)[:k]}
        h = sum(t in chosen for t in set(it.targets))
        per_row.append(h / len(set(it.targets)))
        hits += h
        total += len(set(it.targets))
    n = len(items)
    return {
        "target_recall": round(sum(per_row) / n, 4) if n else None,
        "target_recall_ci95": mean_ci(per_row),
        "target_recall_micro": round(hits / total, 4) if total else None,
        "target_random": round(sum(len(it.targets) / len(it.candidates) for it in items) / n, 4) if n else None,
        "n_target": n,
    }


def score(guess_items: Sequence[GuessItem], target_items: Sequence[TargetItem], ranker: Ranker,
          no_guess_rows: int = 0) -> dict:
    """Both figures for one ranker."""
    top1 = []
    for it in guess_items:
        order = ranker(it.clue, it.board, 1)
        top1.append(order[0] if order else None)
    rankings = [ranker(it.clue, it.candidates, len(it.targets)) for it in target_items]
    return {**guess_metrics(guess_items, top1, no_guess_rows), **target_metrics(target_items, rankings)}


# ---------------------------------------------------------------------------
# entry points
# ---------------------------------------------------------------------------
def make_eval_guesser(spec: str, language: str = "en"):
    """The guesser of `spec` for the data's language (English): a backend that does not read it is
    refused (ValueError), as every command refuses one that does not read its board's language."""
    from agents.registry import check_spec, make_guesser

    check_spec(spec, "guesser", language)
    return make_guesser(spec, language)


def evaluate(data_dir: str | Path, split: str = "val", guesser_spec: str = DEFAULT_GUESSER, *,
             limit: int | None = None, guesser=None) -> dict:
    """Both figures for `guesser_spec` (or an already built `guesser`) on `<data_dir>/<task>/<split>.csv`."""
    guess_items, skipped_g = load_guess_items(data_dir, split, limit)   # skips counted among the rows read
    target_items, skipped_t = load_target_items(data_dir, split, limit)
    if guesser is None:
        guesser = make_eval_guesser(guesser_spec)
    if callable(getattr(guesser, "prepare", None)):
        # as a simulator does before its games: every encoder reads the clue vocabulary and board
        # list from the disk cache first, so a word's vector (and each row's figure) does not
        # depend on whether its row came before or after the first row that loaded them
        guesser.prepare()
    if hasattr(guesser, "begin_game"):
        guesser.begin_game(0)
    result = {"guesser": getattr(guesser, "spec", guesser_spec), "split": split}
    result.update(score(guess_items, target_items, ranker_for(guesser), sum(skipped_g.values())))
    if hasattr(guesser, "reads_memory"):  # the human guesser: on how many rows its clue memory scored
        result["memory_rows"] = (sum(guesser.reads_memory(it.board) for it in guess_items)
                                 + sum(guesser.reads_memory(it.candidates) for it in target_items))
    result.update(skip_counts(skipped_g, skipped_t))
    return result


def skip_counts(skipped_g, skipped_t) -> dict:
    """`skipped`, `skipped_by_reason` (both tasks' counts added where they share a reason; reasons
    in name order, not in the order the rows met them, so the JSON is the same in any row order) and,
    when a row did not parse, `first_malformed`."""
    skipped = dict(skipped_g)
    for reason, n in skipped_t.items():
        skipped[reason] = skipped.get(reason, 0) + n
    out = {"skipped": sum(skipped.values()), "skipped_by_reason": dict(sorted(skipped.items()))}
    first = skipped_g.first_malformed or skipped_t.first_malformed
    if first:   # where to look: the first row that did not parse
        out["first_malformed"] = first
    return out


def evaluate_cv(data_dir: str | Path, split: str = "val", guesser_spec: str = DEFAULT_GUESSER,
                folds: int = 5, unclued: float = 0.0) -> dict:
    """Held-out figures of the fitted human model for the spec's backends: it is refitted on the
    other games of each of `folds` grouped folds (nested: its penalty and hubness features chosen
    by an inner CV on those games) and scored on the held-out games only. `unclued`: the share of
    each held-out row's cards the clue memory reads without a prototype (boards that mix the data's
    cards with others)."""
    from agents.human_model import DEFAULT_BACKENDS
    from agents.spec import parse_spec

    from experiments.tools.fit_human_model import held_out_figures

    spec = parse_spec(guesser_spec)
    if spec.name != "human" or spec.params.get("model", "fitted") != "fitted":
        raise ValueError(f"--cv refits the human model: give a fitted human guesser spec (human:...), not {guesser_spec!r}")
    if folds < 2:
        raise ValueError("--cv needs at least 2 folds")
    if not 0.0 <= unclued < 1.0:
        raise ValueError(f"--unclued is a share of the cards, 0 or more and below 1, not {unclued}")
    backends = tuple(spec.backends) or DEFAULT_BACKENDS
    result = {"guesser": guesser_spec, "split": split, "cv_folds": folds,
              "cv": "nested, grouped by game: refitted without the held-out games"}
    if unclued:
        result["unclued"] = unclued
    guess_items, skipped_g = load_guess_items(data_dir, split)   # read once: the fit's rows and the skips
    target_items, skipped_t = load_target_items(data_dir, split)
    result.update(held_out_figures(data_dir, split, backends, folds=folds, unclued=unclued,
                                   rows=(guess_items, target_items)))
    result["cv_folds"] = min(folds, result["n_games"])   # a split of fewer games: one game a fold
    # the rows left out, as the in-sample figures count them (the fit reads the same rows)
    result.update(skip_counts(skipped_g, skipped_t))
    return result


def eval_human_command(
    data: str = typer.Option(..., metavar="PATH", help="folder laid out like the dataset's data/: <task>/<split>.csv"),
    split: str = typer.Option("val", help="val, test or train"),
    guesser: str = typer.Option(DEFAULT_GUESSER, help="guesser spec, e.g. nearest:use-m3 or human:use-m3+glove-50"),
    limit: Optional[int] = typer.Option(None, help="only the first N rows of each task (quick checks)"),
    cv: Optional[int] = typer.Option(None, help="held-out figures: refit the human model on the other games of "
                                                "each of CV folds (nested, grouped by game) and score the rest"),
    unclued: float = typer.Option(0.0, help="with --cv: the share of each held-out row's cards read as if "
                                            "nobody had clued them (outside the clue memory)"),
) -> None:
    """Print one JSON object: how often GUESSER picks what people picked (Cultural Codes data).

    Example: cnlab eval-human --data ../shared/data/cultural-codes --split val --cv 5"""

    data = path_option(data, "--data", "the dataset's data folder")
    if limit is not None and limit < 1:
        fail("--limit must be at least 1")
    if cv is not None and limit is not None:
        fail("--cv and --limit do not combine")
    if unclued and cv is None:
        fail("--unclued needs --cv (it withholds the memory of held-out games' cards)")
    try:
        result = (evaluate_cv(data, split, guesser, cv, unclued) if cv is not None
                  else evaluate(data, split, guesser, limit=limit))
    except HumanDataError as exc:
        fail(exc)
    except ImportError as exc:  # MissingBackendError: a backend's package is not installed
        fail(exc)
    except (ValueError, KeyError) as exc:  # a bad guesser spec or an unknown backend
        fail(exc.args[0] if isinstance(exc, KeyError) and exc.args else exc)
    typer.echo(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":  # python -m experiments.evaluation.eval_human --data DIR: cnlab eval-human, bad input too
    import sys

    from experiments.cli import app

    app(["eval-human", *sys.argv[1:]], prog_name="cnlab")
