"""The Cultural Codes human Duet games (Shaikh et al. 2023): the one loader that eval-human and
the fitting tools (experiments.tools.fit_human_model, fit_partner_model) read them through.

The data is read from a folder laid out like the dataset's `data/` folder, `<task>/<split>.csv`,
each CSV with a `base_text` and an `output` column:

* `generate_guess_task`: `remaining: ['w1', ...], hint: CLUE` -> the word(s) the person guessed
  (a few rows list several guesses, `a, b`, in the order made; a few are empty);
* `clue_generation_task`: `black: [...], tan: [...], targets: [...]` -> the person's clue.

Malformed input (a missing folder, file or column, a row whose `base_text` does not parse) is a
`HumanDataError` naming the file and row. Rows with an empty `output`, and guess rows with a guess
that is no card of the board, are skipped and counted by reason: one noisy row of people's data
should not stop an evaluation of hundreds.
"""

from __future__ import annotations

import ast
import csv
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

GUESS_TASK = "generate_guess_task"
TARGET_TASK = "clue_generation_task"
SPLITS = ("val", "test", "train")



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
    comma is kept whole; a guess that differs from one card in letter case only is that card)."""
    output = output.strip()
    if output in board:
        return (output,)

    def card(guess: str) -> str:         # `Round` is the card `round`; two cards alike in case stay apart
        if guess in board:
            return guess
        alike = [w for w in board if w.casefold() == guess.casefold()]
        return alike[0] if len(alike) == 1 else guess

    return tuple(card(w.strip()) for w in output.split(",") if w.strip())


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
        with open(path, newline="", encoding="utf-8-sig") as f:  # -sig: Excel starts its UTF-8 with a BOM
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


def load_guess_items(data_dir: str | Path, split: str = "val",
                     limit: int | None = None) -> tuple[list[GuessItem], dict[str, int]]:
    """The guess rows of `generate_guess_task/<split>.csv` (the first `limit` when given), and the
    counts of the rows skipped among those read, by reason."""
    return _guess_items(_csv_path(data_dir, GUESS_TASK, split), limit)


def _guess_items(path: Path, limit: int | None = None) -> tuple[list[GuessItem], dict[str, int]]:
    items, skipped = [], {}
    for row, text, out in _read_rows(path):
        if limit is not None and len(items) >= limit:
            break
        try:
            board, clue = parse_guess_text(text)
        except ValueError as exc:
            raise HumanDataError(f"{path} row {row}: {exc}: {text[:80]!r}") from None
        if out is None:
            skipped["no_guess"] = skipped.get("no_guess", 0) + 1
            continue
        guesses = split_guesses(out, board)
        if any(g not in board for g in guesses):    # a typo, or a card in two letter cases: noise
            skipped["guess_not_on_board"] = skipped.get("guess_not_on_board", 0) + 1
            continue
        items.append(GuessItem(board, clue, guesses, row))
    return items, skipped


def load_target_items(data_dir: str | Path, split: str = "val",
                      limit: int | None = None) -> tuple[list[TargetItem], dict[str, int]]:
    """The clue rows of `clue_generation_task/<split>.csv` (the first `limit` when given), and the
    counts of the rows skipped among those read, by reason."""
    path = _csv_path(data_dir, TARGET_TASK, split)
    items, skipped = [], {}
    for row, text, out in _read_rows(path):
        if limit is not None and len(items) >= limit:
            break
        try:
            black, tan, targets = parse_target_text(text)
        except ValueError as exc:
            raise HumanDataError(f"{path} row {row}: {exc}: {text[:80]!r}") from None
        if out is None:
            skipped["no_clue"] = skipped.get("no_clue", 0) + 1
            continue
        items.append(TargetItem(black, tan, targets, out, row))
    return items, skipped


def load_guess_file(path: str | Path) -> list[GuessItem]:
    """The guess rows of one guess-task CSV given by its path (the fitting tools' `--human FILE`)."""
    path = Path(path).expanduser()
    if not path.is_file():
        raise HumanDataError(f"missing file {path}")
    return _guess_items(path)[0]
