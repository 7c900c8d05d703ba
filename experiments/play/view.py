"""Rich rendering of a Duet table for the person at seat A, made to fit an 80x24 terminal.

The board is 5 rows of 5 cells, 15 columns each: the key letter of the person's own side (G green
agent, X assassin, - bystander) or a check mark when a green agent covers the card, the word
(abbreviated to 10 columns, wide Korean syllables counted as two), and the bystander tokens on it
(`*` from the person's wrong guess, `+` from the bot's). Only the person's own side is ever drawn;
the bot's side appears only in `reveal()`, after the game, and as the targets of a resolved bot clue
(`intent_line()`, see intents.py).
"""

from __future__ import annotations

from typing import Sequence

from rich.cells import cell_len
from rich.console import Console, Group
from rich.text import Text

from .prompts import COLUMNS

WORD_CELLS = 10
STYLE = {
    "G": "bold white on dark_green",
    "X": "bold white on grey15",
    "N": "black on wheat1",
    "covered": "grey50 on grey23",
}
LETTER = {"G": "G", "X": "X", "N": "-"}
RESULT = {"green": ("✓", "green"), "bystander": ("✗", "yellow"), "assassin": (" ASSASSIN!", "bold red")}
NAMES = {"A": "You", "B": "Bot"}


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


def board_lines(words: Sequence[str], cells: Sequence[tuple[str, str, str]], columns: int = 5) -> list[Text]:
    """Rows of cells: each cell is (style, left mark, token marks)."""
    rows = (len(words) + columns - 1) // columns
    header = Text("  ")
    for c in range(columns):
        header.append(f" {COLUMNS[c]}".ljust(15), style="bold")
    lines = [header]
    for r in range(rows):
        line = Text(f"{r + 1} ", style="bold")
        for c in range(columns):
            i = r * columns + c
            style, mark, tokens = cells[i]
            line.append(" ")
            line.append(f"{mark} {fit(words[i])}{tokens:<2}", style=style)
        lines.append(line)
    return lines


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


def history_lines(history, limit: int = 6, width: int = 80) -> list[Text]:
    """One line per clue with the guesses made on it; a separate line for sudden-death guesses."""
    turns: list[Text] = []
    open_turn = False
    for e in history:
        if e.kind == "clue":
            line = Text(f"{NAMES[e.seat]}: ", style="bold")
            line.append(f"{e.word.upper()} {e.number}", style="bold cyan")
            line.append(" →")
            turns.append(line)
            open_turn = True
        elif e.kind == "guess":
            if not open_turn:
                if not turns or not turns[-1].plain.startswith("Sudden death"):
                    turns.append(Text("Sudden death:", style="bold magenta"))
            mark, style = RESULT.get(e.result, ("?", ""))
            who = "" if open_turn else f" {NAMES[e.seat]}"
            turns[-1].append(f"{who} {e.word}{mark}", style=style)
            if e.result == "bystander":
                open_turn = False
        elif e.kind == "stop":
            turns[-1].append(" (stop)", style="dim")
            open_turn = False
        elif e.kind == "penalty" and turns:
            turns[-1].append(f" [penalty {e.result}]", style="red")
    shown = turns[-limit:]
    if len(turns) > limit:
        shown[0] = Text(f"(+{len(turns) - limit + 1} earlier clues) ", style="dim") + shown[0]
    for line in shown:
        line.truncate(width, overflow="ellipsis")
    return shown


def duet_screen(obs, title: str, notes: Sequence[Text] = (), seat: str = "A") -> Group:
    """Everything the person sees at a prompt: at most 22 lines of at most 80 columns."""
    status = Text()
    status.append(f"Agents found {obs.greens_found}/15", style="bold green")
    status.append(f" · Tokens left {obs.tokens_left}")
    if obs.mistakes_allowed is not None:
        status.append(f" (check {obs.check_tokens}, bystander {obs.bystander_tokens})")
    if obs.partner_finished:
        status.append(" · bot's side done", style="green")
    if obs.phase == "sudden_death":
        status.append(" · SUDDEN DEATH", style="bold magenta")
    legend = Text("G agent  X assassin  - bystander (your side)  ✓ found  * your miss  + bot's miss",
                  style="dim")
    lines: list = [Text(title, style="bold"), status, *board_lines(obs.words, duet_cells(obs, seat)), legend]
    hist = history_lines(obs.history, limit=6)
    lines += hist or [Text("No clues yet.", style="dim")]
    lines += list(notes)[-4:]
    for line in lines:
        line.truncate(80, overflow="ellipsis")
    return Group(*lines)


def reveal(words: Sequence[str], key_a: str, key_b: str, covered: Sequence[bool] | None = None) -> Group:
    """Both key sides after the game: each cell shows side A's letter, the word, side B's letter."""
    cells = []
    for i in range(len(words)):
        a, b = key_a[i], key_b[i]
        style = STYLE["covered"] if covered and covered[i] else STYLE["G" if "G" in (a, b) else a]
        cells.append((style, LETTER[a], LETTER[b]))
    lines = [Text("Both sides (left: yours, right: the bot's; G agent, X assassin, - bystander):",
                  style="bold")]
    lines += board_lines(words, cells)
    lines.append(Text(f"Side A (you): {key_a}"))
    lines.append(Text(f"Side B (bot): {key_b}"))
    for line in lines:
        line.truncate(80, overflow="ellipsis")
    return Group(*lines)


def help_text(mode: str) -> Text:
    common = ("Coordinates: column letter + row number, e.g. B3 = column B, row 3 (A-E left to right, "
              "1-5 top to bottom).\n'help' or '?' shows this, 'quit' saves the record and leaves, "
              "Ctrl-C too.")
    body = {
        "first": "Type 'me' (or Enter) to give the first clue, or 'bot' to let the bot start.",
        "clue": ("Give a clue: WORD NUMBER (or 'clue WORD NUMBER'), e.g. 'ocean 2'. One word, no board word "
                 "or part of one (RULES 4); the number is 0..9. The bot guesses on your side's key."),
        "guess": ("Guess a card: a board word, the start of one, or a coordinate such as B3 ('guess WORD' "
                  "also works). A green card lets you guess again; a bystander ends the turn; an "
                  "assassin loses. 'stop' ends the turn after at least one correct guess."),
        "sudden": ("Sudden death: no more clues. Guess a card (a miss loses at once), or 'pass' to let the "
                   "bot guess. If both of you hold back, the game ends unfinished."),
    }.get(mode, "")
    return Text(body + "\n" + common, style="cyan")


def intent_line(word: str, number, targets: Sequence[str], found: Sequence[bool], width: int = 80) -> Text:
    """`Bot meant OCEAN 2 for: wave ✓, ship (not found)`: a resolved bot clue and its intended targets."""
    line = Text("Bot meant ", style="cyan")
    line.append(f"{str(word).upper()} {number}", style="bold cyan")
    line.append(" for: " if targets else " for: (no targets given)", style="cyan")
    for n, (target, hit) in enumerate(zip(targets, found)):
        line.append(", " if n else "")
        line.append(f"{target} ✓" if hit else f"{target} (not found)", style="green" if hit else "yellow")
    line.truncate(width, overflow="ellipsis")
    return line
