"""Rich rendering of a Duet table for the person at seat A, made for an 80x24 terminal.

The board is 5 rows of 5 cells, 15 columns each: the key letter of the person's own side (G green
agent, X assassin, - bystander) or a check mark when a green agent covers the card, the word
(abbreviated to 10 columns, wide Korean syllables counted as two), and the bystander tokens on it
(`*` from the person's wrong guess, `+` from the bot's). Only the person's own side is ever drawn;
the bot's side appears only in `reveal()`, after the game, and as the targets of a resolved bot clue
(`intent_line()`, see intents.py).

Board rows are laid out to fit 80 columns (on a narrower terminal, in bands of columns: `Board`);
every other line (the title, the clue history, notices, refusals) wraps at the terminal's width and
is never cut: `screen()` keeps a whole screen within 22 rows by showing fewer older notices and
clues when lines wrap.
"""

from __future__ import annotations

import io
from typing import Sequence

from rich.cells import cell_len
from rich.console import Console, Group
from rich.text import Text

from experiments.play.prompts import COLUMNS
from experiments.play.text import clue_number, say

WORD_CELLS = 10
PICTURE_CELLS = 33  # a Pictures card's description on the board at 80 columns: two cards of 39 a row
WIDTH, HEIGHT = 80, 22  # the screen above the prompt line of an 80x24 terminal (one spare row)
STYLE = {
    "G": "bold white on dark_green",
    "X": "bold white on grey15",
    "N": "black on wheat1",
    "covered": "grey50 on grey23",
}
LETTER = {"G": "G", "X": "X", "N": "-"}
#: a guess's mark in the clue history (the assassin's is a word: the line `mark_assassin` of the board's language)
RESULT = {"green": ("✓", "green"), "bystander": ("✗", "yellow"), "assassin": ("mark_assassin", "bold red")}


def fit(word: str, cells: int = WORD_CELLS) -> str:
    """The word cut to `cells` terminal columns (a cut word ends with '~'), padded to exactly that."""
    if cell_len(word) <= cells:
        return word + " " * (cells - cell_len(word))
    out = ""
    for ch in word:
        if cell_len(out + ch) > cells - 1:
            break
        out += ch
    out += "~"
    return out + " " * (cells - cell_len(out))


def make_console(**kw) -> Console:
    return Console(highlight=False, **kw)


def rows(text: Text, width: int = WIDTH) -> int:
    """How many terminal rows `text` takes once wrapped at `width` columns."""
    if isinstance(text, (Board, PictureBoard)):
        return len(text.lines(width))
    console = Console(width=width, file=io.StringIO(), color_system=None, legacy_windows=False)
    return max(1, len(text.wrap(console, width)))


def screen(fixed: Sequence[Text], history: Sequence[Text] = (), notes: Sequence[Text] = (),
           width: int | None = None, height: int = HEIGHT, max_notes: int = 4) -> "Screen":
    """The fixed lines (title, status, board, legend), then the clue history, then the latest
    notices; long lines wrap. When they would take more than `height` rows, older notices go first
    (the latest one always stays), then older clues (the latest one always stays). The rows are
    counted at `width`, by default the terminal's width when the screen is drawn."""
    return Screen([t.copy() for t in fixed], [t.copy() for t in history],
                  [t.copy() for t in list(notes)[-max_notes:]], width, height)


class Screen:
    """A screen of `screen()`, laid out when it is drawn, at the console's width."""

    def __init__(self, fixed: list, history: list, notes: list, width: int | None, height: int):
        self.fixed, self.history, self.notes, self.width, self.height = fixed, history, notes, width, height

    def lines(self, width: int) -> list:
        fixed, history, notes = self.fixed, list(self.history), list(self.notes)

        def used() -> int:
            return sum(rows(t, width) for t in (*fixed, *history, *notes))

        while used() > self.height and len(notes) > 1:
            notes.pop(0)
        while used() > self.height and len(history) > 1:
            history.pop(0)
        return [*fixed, *history, *notes]

    def __rich_console__(self, console, options):
        yield Group(*self.lines(self.width or options.max_width))


CELL = 15      # a board cell's columns: a space, the mark, a space, the word, two token marks
ROW_LABEL = 2  # the row number and a space


class Board:
    """The board: a header of column letters, then one line per row, laid out for 80 columns. On a
    narrower terminal no card is cut off at its edge: the columns are drawn in bands (at 40 columns
    A-B, then C-D, then E), each band under its own header of column letters."""

    def __init__(self, header: list[Text], cells: list[list[Text]]):
        self.header = header   # header[c]: the heading of column c
        self.cells = cells     # cells[r][c]: the cell of row r, column c

    def copy(self) -> "Board":
        return self

    def lines(self, width: int | None = None) -> list[Text]:
        columns = len(self.header)
        per = columns if width is None else max(1, min(columns, (width - ROW_LABEL) // CELL))
        lines = []
        for start in range(0, columns, per):
            band = range(start, min(start + per, columns))
            header = Text(" " * ROW_LABEL)
            for c in band:
                header.append_text(self.header[c])
            lines.append(header)
            for r, row in enumerate(self.cells):
                line = Text(f"{r + 1} ", style="bold")
                for c in band:
                    line.append_text(row[c])
                lines.append(line)
        for line in lines:
            line.no_wrap = True  # laid out to fit the width
        return lines

    def __rich_console__(self, console, options):
        yield from self.lines(options.max_width)


class PictureBoard:
    """A Pictures board: each card a coordinate, a mark and its description, in two columns of
    cards (the first half of the cards on the left). The descriptions are cut to the terminal's
    width (33 columns at 80): on a narrower terminal no card is cut off at its edge."""

    def __init__(self, cards: list[tuple[str, str, str, str]]):
        self.cards = cards     # (style, coordinate, mark, description)

    def copy(self) -> "PictureBoard":
        return self

    def lines(self, width: int | None = None) -> list[Text]:
        cells = PICTURE_CELLS if width is None else max(4, min(PICTURE_CELLS, (width - 1) // 2 - 6))
        half = (len(self.cards) + 1) // 2
        lines = []
        for r in range(half):
            line = Text(no_wrap=True)
            for i in (r, r + half):
                if i < len(self.cards):
                    style, where, mark, label = self.cards[i]
                    line.append(" " if i >= half else "")
                    line.append(f"{where} {mark} {fit(label, cells)}", style=style)
            lines.append(line)
        return lines

    def __rich_console__(self, console, options):
        yield from self.lines(options.max_width)


def board_lines(words: Sequence[str], cells: Sequence[tuple[str, str, str]], columns: int = 5) -> list[Board]:
    """Rows of cells: each cell is (style, left mark, token marks). One `Board`, in a list as the
    lines of a screen."""
    n_rows = (len(words) + columns - 1) // columns
    header = [Text(f" {COLUMNS[c]}".ljust(CELL), style="bold") for c in range(columns)]
    grid = []
    for r in range(n_rows):
        row = []
        for c in range(columns):
            i = r * columns + c
            style, mark, tokens = cells[i]
            cell = Text(" ")
            cell.append(f"{mark} {fit(words[i])}{tokens:<2}", style=style)
            row.append(cell)
        grid.append(row)
    return [Board(header, grid)]


def duet_cells(obs, seat: str = "A") -> list[tuple[str, str, str]]:
    cells = []
    for i in range(len(obs.words)):
        tokens = ("*" if seat in obs.bystander_marks[i] else "") + (
            "+" if (set(obs.bystander_marks[i]) - {seat}) else "")
        if obs.green_covered[i]:
            cells.append((STYLE["covered"], "✓", tokens))
        elif len(obs.bystander_marks[i]) == 2:
            cells.append((STYLE["covered"], " ", tokens))
        else:
            letter = obs.own_key[i]
            cells.append((STYLE[letter], LETTER[letter], tokens))
    return cells


def history_lines(history, limit: int = 6, lang: str = "en", human: str = "A") -> list[Text]:
    """One line per clue with the guesses made on it; a separate line for sudden-death guesses."""
    names = {human: say(lang, "you"), "B" if human == "A" else "A": say(lang, "bot")}
    sudden = say(lang, "hist_sudden")
    turns: list[Text] = []
    open_turn = False
    for e in history:
        if e.kind == "clue":
            line = Text(f"{names[e.seat]}: ", style="bold")
            line.append(f"{e.word.upper()} {e.number}", style="bold cyan")
            line.append(" →")
            turns.append(line)
            open_turn = True
        elif e.kind == "guess":
            if not open_turn:
                if not turns or not turns[-1].plain.startswith(sudden):
                    turns.append(Text(sudden, style="bold magenta"))
            mark, style = RESULT.get(e.result, ("?", ""))
            if e.result == "assassin":
                mark = say(lang, mark)
            who = "" if open_turn else f" {names[e.seat]}"
            turns[-1].append(f"{who} {e.word}{mark}", style=style)
            if e.result == "bystander":
                open_turn = False
        elif e.kind == "stop":
            turns[-1].append(say(lang, "hist_stop"), style="dim")
            open_turn = False
        elif e.kind == "penalty" and turns:
            turns[-1].append(say(lang, "hist_penalty", result=e.result), style="red")
    shown = turns[-limit:]
    if len(turns) > limit:
        shown[0] = Text(say(lang, "hist_earlier", count=len(turns) - limit + 1), style="dim") + shown[0]
    return shown


def duet_screen(obs, title: str, notes: Sequence[Text] = (), seat: str = "A", lang: str = "en") -> Group:
    """Everything the person sees at a prompt: at most 22 rows; only board rows are laid out to 80
    columns, every other line wraps."""
    status = Text()
    status.append(say(lang, "status_found", found=obs.greens_found), style="bold green")
    status.append(say(lang, "status_tokens", tokens=obs.tokens_left))
    if obs.mistakes_allowed is not None:
        status.append(say(lang, "status_mistakes", check=obs.check_tokens, bystander=obs.bystander_tokens))
    if obs.partner_finished:
        status.append(say(lang, "status_bot_done"), style="green")
    if obs.phase == "sudden_death":
        status.append(say(lang, "status_sudden"), style="bold magenta")
    legend = Text(say(lang, "duet_legend"), style="dim")
    fixed = [Text(title, style="bold"), status, *board_lines(obs.words, duet_cells(obs, seat)), legend]
    hist = history_lines(obs.history, limit=6, lang=lang, human=seat) or [Text(say(lang, "no_clues"), style="dim")]
    return screen(fixed, hist, notes)


def reveal(words: Sequence[str], key_a: str, key_b: str, covered: Sequence[bool] | None = None,
           lang: str = "en") -> Group:
    """Both key sides after the game: each cell shows side A's letter, the word, side B's letter."""
    cells = []
    for i in range(len(words)):
        a, b = key_a[i], key_b[i]
        style = STYLE["covered"] if covered and covered[i] else STYLE["G" if "G" in (a, b) else a]
        cells.append((style, LETTER[a], LETTER[b]))
    lines = [Text(say(lang, "reveal_header"), style="bold")]
    lines += board_lines(words, cells)
    lines.append(Text(say(lang, "side_a", key=key_a)))
    lines.append(Text(say(lang, "side_b", key=key_b)))
    return Group(*lines)


def help_text(mode: str, lang: str = "en") -> Text:
    body = {"first": "help_first", "clue": "help_clue", "guess": "help_guess", "sudden": "help_sudden"}.get(mode)
    lines = [say(lang, body)] if body else []
    lines += [say(lang, "help_coordinates"), say(lang, "help_common")]
    return Text("\n".join(lines), style="cyan")


def intent_line(word: str, number, targets: Sequence[str], found: Sequence[bool], lang: str = "en",
                hidden: int = 0, left: bool = False, uncounted: bool = False) -> Text:
    """`Bot meant OCEAN 2 for: wave ✓, ship (not found)`: a resolved bot clue and its intended targets;
    `hidden`: how many more targets are only counted (still face down during the game, or in a game
    left unfinished: `left`). `uncounted`: the face-down ones are not even counted, the same words
    whether there are none or several (an UNLIMITED clue, whose guessers are not told how many
    cards it is for, RULES 1.7)."""
    line = Text(say(lang, "meant"), style="cyan")
    line.append(f"{str(word).upper()} {clue_number(lang, number)}", style="bold cyan")
    line.append(say(lang, "meant_for") if targets or hidden or uncounted else say(lang, "meant_none"), style="cyan")
    missing = say(lang, "not_found")
    for n, (target, hit) in enumerate(zip(targets, found)):
        line.append(", " if n else "")
        line.append(f"{target} ✓" if hit else f"{target} {missing}", style="green" if hit else "yellow")
    if uncounted:
        line.append((", " if targets else "") + say(lang, "meant_uncounted_left" if left else "meant_uncounted"),
                    style="yellow")
    elif hidden:
        line.append((", " if targets else "") + say(lang, "meant_hidden_left" if left else "meant_hidden", n=hidden),
                    style="yellow")
    return line
