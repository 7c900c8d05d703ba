"""The Cultural Codes human Duet games (Shaikh et al. 2023): the one loader that eval-human and
the fitting tools (experiments.tools.fit_human_model, fit_partner_model) read them through.

The data is read from a folder laid out like the dataset's `data/` folder, `<task>/<split>.csv`,
each CSV with a `base_text` and an `output` column:

* `generate_guess_task`: `remaining: ['w1', ...], hint: CLUE` -> the word(s) the person guessed
  (a few rows list several guesses, `a, b`, in the order made; a few are empty);
* `clue_generation_task`: `black: [...], tan: [...], targets: [...]` -> the person's clue.

A missing folder, file or column, a column named twice, a file that cannot be read or is not UTF-8 CSV, or a file none of whose rows
parses (the wrong file) is a `HumanDataError` naming the file (and its first bad row). One odd row
is skipped and counted by reason, so it does not stop an evaluation of hundreds: a `base_text` that
does not parse or a row with more fields than the header (`malformed`; the first is named), no
hint or clue (`no_clue`), no targets (`no_targets`), an empty `output` (`no_guess`, `no_clue`), a
guess that is no card of the board (`guess_not_on_board`).

Clues and cards are read as the data writes them (`normalize_clue`, `normalize_cards`): lower case,
one space between words, a clue without the quotes or punctuation around it (`"Fight!"` is
`fight`); a guess in another letter case or with punctuation around it is that card.
"""

from __future__ import annotations

import ast
import csv
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

GUESS_TASK = "generate_guess_task"
TARGET_TASK = "clue_generation_task"
SPLITS = ("val", "test", "train")



class HumanDataError(ValueError):
    """The human-game data is missing or malformed; the message says where."""


class Skipped(dict):
    """Rows left out, counted by reason; `first_malformed` names the first row that did not parse."""

    first_malformed: str | None = None

    def add(self, reason: str, where: str | None = None) -> None:
        self[reason] = self.get(reason, 0) + 1
        if where is not None and self.first_malformed is None:
            self.first_malformed = where


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
        """The row's cards in a neutral order (sorted): black + tan + targets would put the answer
        in the last k places, for a guesser that reads positions to take."""
        return tuple(sorted(self.black + self.tan + self.targets))


# ---------------------------------------------------------------------------
# parsing
# ---------------------------------------------------------------------------
_EDGE = " \t\r\n\"'`.,;:!?()[]{}<>\u201c\u201d\u2018\u2019\u00ab\u00bb"


def _spaced(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split())


def normalize_clue(text: str) -> str:
    """A clue as the data writes it: lower case, one space between words, no quotes or punctuation
    around it (`  "Ice  Cream!" ` -> `ice cream`; `wi-fi`, `ocean's` keep theirs). "" when nothing is left."""
    return _spaced(_spaced(text).strip(_EDGE)).lower()


def normalize_cards(words: Sequence[str]) -> tuple[str, ...]:
    """A row's cards as the data writes them: one space between words and, unless two of them then
    differ in letter case only (`Polish`, `polish`: kept apart), lower case."""
    words = tuple(_spaced(w) for w in words)
    lower = tuple(w.lower() for w in words)
    return lower if len(set(lower)) == len(set(words)) else words


def _word_list(text: str, what: str) -> tuple[str, ...]:
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError) as exc:
        # an object's address (`<ast.Name object at 0x7f...>`) differs from run to run: not in the message
        why = re.sub(r" object at 0x[0-9a-fA-F]+", "", str(exc))
        raise ValueError(f"{what} is not a Python list of words ({type(exc).__name__}: {why})") from None
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
    return board, clue  # an empty hint: the loader counts the row as `no_clue`


def parse_target_text(text: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """`black: [...], tan: [...], targets: [...]` -> (black, tan, targets). Raises ValueError when malformed."""
    if not isinstance(text, str):
        raise ValueError("base_text is empty")
    m = _TARGET_RE.match(text)
    if not m:
        raise ValueError("base_text is not 'black: [...], tan: [...], targets: [...]'")
    black, tan, targets = (_word_list(g, name) for g, name in zip(m.groups(), ("black", "tan", "targets")))
    return black, tan, targets  # no targets: the loader counts the row as `no_targets`


def split_guesses(output: str, board: Sequence[str]) -> tuple[str, ...]:
    """The person's guesses in order: `a` or `a, b, c` (or `a; b`; a word of the board that itself
    holds a comma is kept whole; a guess that differs from one card in letter case only, or by
    quotes or punctuation around it, `'Ray.'`, is that card)."""
    output = _spaced(output)
    if output in board:
        return (output,)

    def card(guess: str) -> str:         # `Round` is the card `round`; two cards alike in case stay apart
        for g in dict.fromkeys((guess, _spaced(guess.strip(_EDGE)))):
            if g in board:
                return g
            alike = [w for w in board if w.casefold() == g.casefold()]
            if len(alike) == 1:
                return alike[0]
        return guess

    pieces = re.split(r"([,;])", output)   # parts and the separators between them
    n, i, guesses = (len(pieces) + 1) // 2, 0, []
    while i < n:
        # a card holding a comma (`salt, pepper`) among other guesses is one guess: the longest first
        j = next((j for j in range(n, i + 1, -1) if card("".join(pieces[2 * i:2 * j - 1]).strip()) in board), i + 1)
        guesses.append("".join(pieces[2 * i:2 * j - 1]).strip())
        i = j
    return tuple(card(w) for w in guesses if w.strip(_EDGE))


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


def _missing(out: str | None) -> bool:
    """An empty `output`, or `nan`: a missing value written as text (pandas' NaN through str)."""
    return out is None or out.strip().lower() == "nan"


def _header_shown(columns: Sequence[str], width: int = 30, total: int = 200) -> str:
    """The header's names for a message, each cut to `width` characters and all to `total`: a file
    without a header line has a row of data there (a few KB of text), not names."""
    names = [c if len(c) <= width else c[:width - 3] + "..." for c in columns if c]
    text = ", ".join(names) or "none"
    return text if len(text) <= total else text[:total - 3] + "..."


def _read_rows(path: Path) -> list[tuple[int, str, str | None]]:
    """(row number, base_text, output or None when empty) for every data row of a task CSV (an
    output `nan` is kept: it may name a card, `_missing`); a row with more fields than the header
    has columns has base_text None (malformed)."""
    csv.field_size_limit(max(csv.field_size_limit(), 1 << 24))
    rows: list | None = None   # a list once the header is read
    row = 1                    # rows as a spreadsheet shows them: the header is 1, a blank line is one
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:  # -sig: Excel starts its UTF-8 with a BOM
            # strict: a quote that never closes would swallow every later row into one field, silently
            reader = csv.reader(f, strict=True)
            columns = next(reader, None) or []
            missing = [c for c in ("base_text", "output") if c not in columns]
            if missing:
                raise HumanDataError(f"{path}: missing column(s) {', '.join(missing)} (the first line, the header, "
                                     f"has: {_header_shown(columns)})")
            twice = [c for c in ("base_text", "output") if columns.count(c) > 1]
            if twice:   # a reader would keep the last silently: which one is the person's is unknown
                raise HumanDataError(f"{path}: the header names column {twice[0]} twice")
            rows = []
            for rec in reader:
                row += 1
                if not any(field.strip() for field in rec):
                    # a blank line, or a row of empty fields (`,,,,`: a spreadsheet's trailing empty
                    # rows): no row of data, but a row of the sheet
                    continue
                if len(rec) > len(columns):   # an unquoted comma, say: which field is which is unknown
                    rows.append((row, None, None))
                    continue
                rec = dict(zip(columns, rec))
                out = (rec.get("output") or "").strip()
                rows.append((row, rec.get("base_text") or "", out or None))
    except UnicodeDecodeError as exc:
        raise HumanDataError(f"{path}: not UTF-8 text ({exc})") from None
    except csv.Error as exc:
        where = f"row {row + 1}: " if rows is not None else ""   # the row being read
        raise HumanDataError(f"{path}: not a readable CSV ({where}{exc})") from None
    except OSError as exc:   # no read permission, an I/O error: a bad input like a missing file
        raise HumanDataError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if not rows:
        raise HumanDataError(f"{path}: holds no data rows")
    return rows


def load_guess_items(data_dir: str | Path, split: str = "val",
                     limit: int | None = None) -> tuple[list[GuessItem], Skipped]:
    """The guess rows of `generate_guess_task/<split>.csv` (the first `limit` when given), and the
    counts of the rows skipped among those read, by reason."""
    return _guess_items(_csv_path(data_dir, GUESS_TASK, split), limit)


def _malformed(path: Path, row: int, text: str | None, exc: Exception | None) -> str:
    if text is None:
        return f"{path} row {row}: more fields than the header has columns"
    return f"{path} row {row}: {exc}: {text[:80]!r}"


def _check_parsed(path: Path, rows_read: int, skipped: Skipped) -> None:
    """A file none of whose rows parses is not this task's file: an error naming its first row."""
    if rows_read and skipped.get("malformed", 0) == rows_read:
        raise HumanDataError(f"{skipped.first_malformed} (no row of the file parses)")


def _guess_items(path: Path, limit: int | None = None) -> tuple[list[GuessItem], Skipped]:
    items, skipped, read = [], Skipped(), 0
    for row, text, out in _read_rows(path):
        if limit is not None and len(items) >= limit:
            break
        read += 1
        try:
            if text is None:
                raise ValueError
            board, clue = parse_guess_text(text)
        except ValueError as exc:
            skipped.add("malformed", _malformed(path, row, text, exc))
            continue
        board, clue = normalize_cards(board), normalize_clue(clue)
        if not clue or _missing(clue):   # a hint `nan`: a missing value written as text, as a clue row's `nan`
            skipped.add("no_clue")
            continue
        guesses = split_guesses(out, board) if out is not None else ()
        if not guesses or (_missing(out) and guesses[0] not in board):   # `nan` names a card `nan`
            skipped.add("no_guess")
            continue
        if any(g not in board for g in guesses):    # a typo, or a card in two letter cases: noise
            skipped.add("guess_not_on_board")
            continue
        items.append(GuessItem(board, clue, guesses, row))
    _check_parsed(path, read, skipped)
    return items, skipped


def load_target_items(data_dir: str | Path, split: str = "val",
                      limit: int | None = None) -> tuple[list[TargetItem], Skipped]:
    """The clue rows of `clue_generation_task/<split>.csv` (the first `limit` when given), and the
    counts of the rows skipped among those read, by reason."""
    path = _csv_path(data_dir, TARGET_TASK, split)
    items, skipped, read = [], Skipped(), 0
    for row, text, out in _read_rows(path):
        if limit is not None and len(items) >= limit:
            break
        read += 1
        try:
            if text is None:
                raise ValueError
            black, tan, targets = parse_target_text(text)
        except ValueError as exc:
            skipped.add("malformed", _malformed(path, row, text, exc))
            continue
        if not targets:
            skipped.add("no_targets")
            continue
        cards = normalize_cards(black + tan + targets)
        black, tan, targets = cards[:len(black)], cards[len(black):len(black) + len(tan)], cards[len(black) + len(tan):]
        targets = tuple(dict.fromkeys(targets))   # a target listed twice is one card, one target (k counts it once)
        clue = normalize_clue(out) if out is not None and not _missing(out) else ""
        if not clue:
            skipped.add("no_clue")
            continue
        items.append(TargetItem(black, tan, targets, clue, row))
    _check_parsed(path, read, skipped)
    return items, skipped


def load_guess_file(path: str | Path) -> list[GuessItem]:
    """The guess rows of one guess-task CSV given by its path (the fitting tools' `--human FILE`)."""
    path = Path(path).expanduser()
    if not path.is_file():
        raise HumanDataError(f"missing file {path}")
    return _guess_items(path)[0]
