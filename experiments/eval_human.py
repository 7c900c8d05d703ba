"""`cnlab eval-human`: how well a guesser reads people, on the Cultural Codes data.

The data (Shaikh et al. 2023, "Modeling Cross-Cultural Pragmatic Inference with Codenames Duet";
human Codenames Duet games) is read from a folder laid out like the dataset's `data/` folder,
`<task>/<split>.csv`, each CSV with a `base_text` and an `output` column:

* `generate_guess_task`: `remaining: ['w1', ...], hint: CLUE` -> the word(s) the person guessed
  (a few rows list several guesses, `a, b`, in the order made; a few are empty);
* `clue_generation_task`: `black: [...], tan: [...], targets: [...]` -> the person's clue.

Two figures:

* `guess_top1`: the share of guess rows where the guesser's first choice on the same board for the
  same clue is the person's (first) guess; `guess_top1_any` also counts any of the person's guesses.
* `target_recall`: given the person's clue, the share of the person's targets among the guesser's
  top-k of black + tan + targets, k = number of targets (the mean over rows; `_micro` pools targets).

A guesser that has `rank(clue, candidates) -> list[int]` (best first) is ranked directly; any other
registered guesser is ranked by its own moves: a Duet observation of the candidates with the clue
on the table, asking `next_guess` again and again and covering each returned card.

`--cv N` gives held-out figures for a fitted `human:` spec instead: the model is refitted on the
other games of each of N folds (nested: its penalty and hubness chosen by an inner CV on those
games) and scored on the held-out games (`experiments.fit_human_model.held_out_figures`).

Malformed input (a missing folder, file or column, a row whose `base_text` does not parse) is a
`HumanDataError` naming the file and row; the command prints one line and exits 2. Rows with an
empty `output` (the person made no guess / gave no clue) are skipped and counted in `skipped`.
"""

from __future__ import annotations

import ast
import csv
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Optional, Sequence

import typer

GUESS_TASK = "generate_guess_task"
TARGET_TASK = "clue_generation_task"
SPLITS = ("val", "test", "train")
#: the best guesser we have (cross-validated on the validation split; see docs/eval_human.md)
DEFAULT_GUESSER = "human:use-m3+glove-50+minilm"

Ranker = Callable[[str, Sequence[str], int], list[int]]


class HumanDataError(ValueError):
    """The human-game data is missing or malformed; the message says where."""


@dataclass(frozen=True)
class GuessItem:
    """One guess row: the cards left on the board, the clue, and the person's guesses in order."""

    board: tuple[str, ...]
    clue: str
    guesses: tuple[str, ...]
    row: int = -1


@dataclass(frozen=True)
class TargetItem:
    """One clue row: the person's clue for `targets`, with the assassins and bystanders to avoid."""

    black: tuple[str, ...]
    tan: tuple[str, ...]
    targets: tuple[str, ...]
    clue: str
    row: int = -1

    @property
    def candidates(self) -> tuple[str, ...]:
        return self.black + self.tan + self.targets


# ---------------------------------------------------------------------------
# parsing
# ---------------------------------------------------------------------------
def _word_list(text: str, what: str) -> tuple[str, ...]:
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError) as exc:
        raise ValueError(f"{what} is not a Python list of words ({type(exc).__name__}: {exc})") from None
    if not isinstance(value, (list, tuple)) or not all(isinstance(w, str) for w in value):
        raise ValueError(f"{what} is not a list of strings")
    words = tuple(w.strip() for w in value)
    if any(not w for w in words):
        raise ValueError(f"{what} holds an empty word")
    return words


_GUESS_HEAD = "remaining:"
_GUESS_SEP = re.compile(r"\]\s*,\s*hint\s*:")
_TARGET_RE = re.compile(r"^\s*black\s*:\s*(\[.*\])\s*,\s*tan\s*:\s*(\[.*\])\s*,\s*targets\s*:\s*(\[.*\])\s*$", re.S)


def parse_guess_text(text: str) -> tuple[tuple[str, ...], str]:
    """`remaining: ['a', "b's"], hint: CLUE` -> (board, clue). Raises ValueError when malformed."""
    if not isinstance(text, str) or not text.strip().startswith(_GUESS_HEAD):
        raise ValueError("base_text does not start with 'remaining:'")
    body = text.strip()[len(_GUESS_HEAD):]
    seps = list(_GUESS_SEP.finditer(body))
    if not seps:
        raise ValueError("base_text has no ', hint:' after the word list")
    sep = seps[-1]  # the clue never holds "], hint:"; a word might in principle
    board = _word_list(body[:sep.start() + 1], "the 'remaining' list")
    clue = body[sep.end():].strip()
    if not board:
        raise ValueError("the 'remaining' list is empty")
    if not clue:
        raise ValueError("the hint is empty")
    return board, clue


def parse_target_text(text: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """`black: [...], tan: [...], targets: [...]` -> (black, tan, targets). Raises ValueError when malformed."""
    if not isinstance(text, str):
        raise ValueError("base_text is empty")
    m = _TARGET_RE.match(text)
    if not m:
        raise ValueError("base_text is not 'black: [...], tan: [...], targets: [...]'")
    black, tan, targets = (_word_list(g, name) for g, name in zip(m.groups(), ("black", "tan", "targets")))
    if not targets:
        raise ValueError("the 'targets' list is empty")
    return black, tan, targets


def split_guesses(output: str, board: Sequence[str]) -> tuple[str, ...]:
    """The person's guesses in order: `a` or `a, b, c` (a word of the board that itself holds a
    comma is kept whole)."""
    output = output.strip()
    if output in board:
        return (output,)
    return tuple(w.strip() for w in output.split(",") if w.strip())


def _csv_path(data_dir: str | Path, task: str, split: str) -> Path:
    if split not in SPLITS:
        raise HumanDataError(f"unknown split {split!r}; use one of {', '.join(SPLITS)}")
    root = Path(data_dir).expanduser()
    if not root.is_dir():
        raise HumanDataError(f"no data folder at {root} (expected <task>/<split>.csv inside, e.g. {GUESS_TASK}/val.csv)")
    path = root / task / f"{split}.csv"
    if not path.is_file():
        raise HumanDataError(f"missing file {path} (the {split!r} split of {task})")
    return path


def _read_rows(path: Path) -> list[tuple[int, str, str | None]]:
    """(row number, base_text, output or None when empty) for every data row of a task CSV."""
    csv.field_size_limit(max(csv.field_size_limit(), 1 << 24))
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            columns = reader.fieldnames or []
            missing = [c for c in ("base_text", "output") if c not in columns]
            if missing:
                raise HumanDataError(f"{path}: missing column(s) {', '.join(missing)} (has: {', '.join(c for c in columns if c) or 'none'})")
            rows = []
            for i, rec in enumerate(reader, start=2):  # line numbers as a spreadsheet shows them
                if None in rec:
                    raise HumanDataError(f"{path} row {i}: more fields than the header has columns")
                out = rec.get("output")
                out = out.strip() if isinstance(out, str) else ""
                rows.append((i, rec.get("base_text") or "", out if out and out.lower() != "nan" else None))
    except UnicodeDecodeError as exc:
        raise HumanDataError(f"{path}: not UTF-8 text ({exc})") from None
    except csv.Error as exc:
        raise HumanDataError(f"{path}: not a readable CSV ({exc})") from None
    if not rows:
        raise HumanDataError(f"{path}: holds no data rows")
    return rows


def load_guess_items(data_dir: str | Path, split: str = "val") -> tuple[list[GuessItem], dict[str, int]]:
    """The guess rows of `generate_guess_task/<split>.csv`, and the counts of skipped rows by reason."""
    path = _csv_path(data_dir, GUESS_TASK, split)
    items, skipped = [], {}
    for row, text, out in _read_rows(path):
        try:
            board, clue = parse_guess_text(text)
        except ValueError as exc:
            raise HumanDataError(f"{path} row {row}: {exc}: {text[:80]!r}") from None
        if out is None:
            skipped["no_guess"] = skipped.get("no_guess", 0) + 1
            continue
        guesses = split_guesses(out, board)
        off = [g for g in guesses if g not in board]
        if off:
            raise HumanDataError(f"{path} row {row}: guessed {', '.join(map(repr, off))}, not on the board")
        items.append(GuessItem(board, clue, guesses, row))
    return items, skipped


def load_target_items(data_dir: str | Path, split: str = "val") -> tuple[list[TargetItem], dict[str, int]]:
    """The clue rows of `clue_generation_task/<split>.csv`, and the counts of skipped rows by reason."""
    path = _csv_path(data_dir, TARGET_TASK, split)
    items, skipped = [], {}
    for row, text, out in _read_rows(path):
        try:
            black, tan, targets = parse_target_text(text)
        except ValueError as exc:
            raise HumanDataError(f"{path} row {row}: {exc}: {text[:80]!r}") from None
        if out is None:
            skipped["no_clue"] = skipped.get("no_clue", 0) + 1
            continue
        items.append(TargetItem(black, tan, targets, out, row))
    return items, skipped


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
    cards or stops (then the ranking is shorter: the missing places count as misses)."""
    rank = getattr(guesser, "rank", None)
    name = getattr(guesser, "spec", type(guesser).__name__)
    if callable(rank):
        def by_rank(clue: str, candidates: Sequence[str], k: int) -> list[int]:
            return _check_ranking(rank(clue, candidates), len(candidates), name)[:k]
        return by_rank

    def by_moves(clue: str, candidates: Sequence[str], k: int) -> list[int]:
        covered = [False] * len(candidates)
        index = {w: i for i, w in enumerate(candidates)}
        order: list[int] = []
        while len(order) < min(k, len(candidates)):
            word = guesser.next_guess(_observation(candidates, clue, k, covered, len(order)))
            if word is None:
                break
            i = index.get(word)
            if i is None or covered[i]:
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
    outputs) count as misses."""
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
    from agents.registry import make_guesser

    return make_guesser(spec, language)


def evaluate(data_dir: str | Path, split: str = "val", guesser_spec: str = DEFAULT_GUESSER, *,
             limit: int | None = None, guesser=None) -> dict:
    """Both figures for `guesser_spec` (or an already built `guesser`) on `<data_dir>/<task>/<split>.csv`."""
    guess_items, skipped_g = load_guess_items(data_dir, split)
    target_items, skipped_t = load_target_items(data_dir, split)
    if limit is not None:
        guess_items, target_items = guess_items[:limit], target_items[:limit]
    if guesser is None:
        guesser = make_eval_guesser(guesser_spec)
    if hasattr(guesser, "begin_game"):
        guesser.begin_game(0)
    result = {"guesser": getattr(guesser, "spec", guesser_spec), "split": split}
    no_guess = skipped_g.get("no_guess", 0) if limit is None else 0
    result.update(score(guess_items, target_items, ranker_for(guesser), no_guess))
    skipped = {**skipped_g, **skipped_t}
    result["skipped"] = sum(skipped.values())
    result["skipped_by_reason"] = skipped
    return result


def evaluate_cv(data_dir: str | Path, split: str = "val", guesser_spec: str = DEFAULT_GUESSER,
                folds: int = 5) -> dict:
    """Held-out figures of the fitted human model for the spec's backends: it is refitted on the
    other games of each of `folds` grouped folds (nested: its penalty and hubness features chosen
    by an inner CV on those games) and scored on the held-out games only."""
    from agents.human_model import DEFAULT_BACKENDS
    from agents.spec import parse_spec

    from .fit_human_model import held_out_figures

    spec = parse_spec(guesser_spec)
    if spec.name != "human" or spec.params.get("model", "fitted") != "fitted":
        raise ValueError(f"--cv refits the human model: give a fitted human guesser spec (human:...), not {guesser_spec!r}")
    if folds < 2:
        raise ValueError("--cv needs at least 2 folds")
    backends = tuple(spec.backends) or DEFAULT_BACKENDS
    result = {"guesser": guesser_spec, "split": split, "cv_folds": folds,
              "cv": "nested, grouped by game: refitted without the held-out games"}
    result.update(held_out_figures(data_dir, split, backends, folds=folds))
    return result


def eval_human_command(
    data: Path = typer.Option(..., help="folder laid out like the dataset's data/: <task>/<split>.csv"),
    split: str = typer.Option("val", help="val, test or train"),
    guesser: str = typer.Option(DEFAULT_GUESSER, help="guesser spec, e.g. nearest:use-m3 or human:use-m3+glove-50"),
    limit: Optional[int] = typer.Option(None, help="only the first N rows of each task (quick checks)"),
    cv: Optional[int] = typer.Option(None, help="held-out figures: refit the human model on the other games of "
                                                "each of CV folds (nested, grouped by game) and score the rest"),
) -> None:
    """Print one JSON object: how often GUESSER picks what people picked (Cultural Codes data)."""

    def fail(message: str) -> None:  # the cli's contract: one line on stderr, exit 2
        typer.echo(f"error: {message}", err=True)
        raise typer.Exit(2)

    if limit is not None and limit < 1:
        fail("--limit must be at least 1")
    if cv is not None and limit is not None:
        fail("--cv and --limit do not combine")
    try:
        result = evaluate_cv(data, split, guesser, cv) if cv is not None else evaluate(data, split, guesser, limit=limit)
    except HumanDataError as exc:
        fail(str(exc))
    except ImportError as exc:  # MissingBackendError: a backend's package is not installed
        fail(" ".join(str(exc).split()))
    except (ValueError, KeyError) as exc:  # a bad guesser spec or an unknown backend
        fail(" ".join(str(exc.args[0] if isinstance(exc, KeyError) and exc.args else exc).split()))
    typer.echo(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":  # python -m experiments.eval_human --data DIR
    typer.run(eval_human_command)
