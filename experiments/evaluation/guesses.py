"""Every guess of a Duet run, placed in its turn: what a pairing's assassin rate is made of.

A win rate says how often a partner followed the clues; it does not say where the games were lost.
Replaying a run's records (the engine's rules, not a copy of them) places each guess: its position
in the turn (the first guess, the second, ...), a spare guess past the clue's number, or a guess in
sudden death (RULES 3.9), whether it was the number's last, what it found on the clue giver's key
(RULES 3.5) and what the card is on the guesser's own key (RULES 3.2: a guesser knows its own
assassins, one of which is a green of its partner's). docs/crossplay.md, "Where the assassin comes".
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable

import pandas as pd

from engine.actions import Guess
from engine.duet.key import ASSASSIN, BYSTANDER, GREEN
from engine.duet.record import DuetRecord
from engine.errors import IllegalAction, MalformedRecord
from engine.record_fields import check_tree, one_line, parse_json

#: Where a guess falls, in the order the tables list them.
PLACES = ("1st", "2nd", "3rd", "4th+", "spare", "sudden death")
IDENTITY = {GREEN: "green", BYSTANDER: "bystander", ASSASSIN: "assassin"}


def _apply(state, action, index: int) -> None:
    """Apply a record's action; an illegal one raises IllegalAction carrying its index, as a replay's does."""
    try:
        state.apply(action)
    except IllegalAction as exc:
        raise exc.at(index) from None


def guess_rows(record: DuetRecord, game_index: int | None = None) -> list[dict]:
    """One row per guess of a Duet record, replayed by the engine (an illegal action raises)."""
    state = record.new_state()
    rows = []
    for i, action in enumerate(record.actions):
        if not isinstance(action, Guess):
            _apply(state, action, i)
            continue
        clue = state.current_clue  # None in sudden death: no clue is on the table (RULES 3.9)
        position = state.correct_this_turn + 1
        event = len(state.history)   # the guess's own event: the engine may add a stop after it (RULES 3.8)
        _apply(state, action, i)   # first: a card off the board is the engine's error, naming its rule
        own = state.key.side(action.seat)[state.words.index(action.word)]
        if clue is None:
            place, position = "sudden death", None
        elif position > clue[1]:
            place = "spare"
        else:
            place = PLACES[min(position, 4) - 1]
        rows.append({"game_index": game_index, "seat": action.seat, "clue": clue[0] if clue else None,
                     "number": clue[1] if clue else None, "position": position, "place": place,
                     "last_of_number": clue is not None and position == clue[1],
                     "result": state.history[event].result, "own": IDENTITY[own]})
    return rows


def folder_guesses(folder: str | Path) -> pd.DataFrame:
    """Every guess of a results folder's records (`records.jsonl`), with the spymaster whose clue it
    answers and the guesser who made it (from `run.json`: seat B's own where the run gives seat B
    other agents). ValueError (one line, naming the file) for anything that is not a
    Duet results folder or a record that does not replay; a torn last line (no newline: a run killed
    while writing it) is no record, as for the run folder."""
    folder = Path(folder)
    try:
        run = json.loads((folder / "run.json").read_text(encoding="utf-8"))["run"]
        spymaster, guesser = run["spymaster"], run["guesser"]
        # seat B's agents (`--spymaster-b`, `--guesser-b`), seat A's where the run names none
        seats = {"A": (spymaster, guesser), "B": (run.get("spymaster_b") or spymaster, run.get("guesser_b") or guesser)}
        # JSON lines end at "\n" only: a record's text may hold U+2028 or NEL, which splitlines() splits at
        lines = (folder / "records.jsonl").read_text(encoding="utf-8").split("\n")
        # the text after the last "\n" is a line torn by a killed run (the run folder cuts it on resume and
        # plays its game again): not a record yet
        lines[-1] = ""
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as e:
        raise ValueError(f"{folder}: not a Duet results folder ({type(e).__name__})") from None
    rows = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:  # read as `cnlab replay` reads a record: strict JSON, bounded nesting, valid Unicode
            data = parse_json(line)
            check_tree(data)
            rows.extend(guess_rows(DuetRecord.from_dict(data), data.get("game_index")))
        except (ValueError, AttributeError, RecursionError) as e:  # IllegalAction, MalformedRecord: ValueErrors
            why = one_line(e, 300) if isinstance(e, (IllegalAction, MalformedRecord)) else type(e).__name__
            raise ValueError(f"{folder / 'records.jsonl'} line {n}: not a Duet record that replays "
                             f"({why})") from None
    table = pd.DataFrame(rows, columns=["game_index", "seat", "clue", "number", "position", "place",
                                        "last_of_number", "result", "own"])
    # a guess is its seat's guesser's, on a clue of the other seat's spymaster (RULES 3.5: judged by its side)
    return table.assign(spymaster=[seats["B" if seat == "A" else "A"][0] for seat in table["seat"]],
                        guesser=[seats[seat][1] for seat in table["seat"]]).astype({"spymaster": object,
                                                                                    "guesser": object})


def assassin_profile(guesses: pd.DataFrame, by: Iterable[str] = ()) -> pd.DataFrame:
    """Per place (and per `by` group): guesses, the share that found a green and the assassin, the
    assassins found there (each ended its game), their share of all the group's assassins, and how
    many of those came on the number's last guess."""
    by = list(by)
    g = guesses.assign(green=guesses["result"] == "green", assassin=guesses["result"] == "assassin")
    g["assassin_on_last"] = g["assassin"] & g["last_of_number"]
    for column in by:  # groups in the order they first appear, places in PLACES' order
        g[column] = pd.Categorical(g[column], categories=list(dict.fromkeys(g[column])))
    g["place"] = pd.Categorical(g["place"], categories=PLACES)
    out = g.groupby(by + ["place"], observed=True).agg(
        guesses=("result", "size"), green_rate=("green", "mean"), assassin_rate=("assassin", "mean"),
        assassins=("assassin", "sum"), assassins_on_last=("assassin_on_last", "sum"))
    total = out.groupby(level=by, observed=True)["assassins"].transform("sum") if by else out["assassins"].sum()
    out["assassin_share"] = (out["assassins"] / total).fillna(0.0)
    return out
