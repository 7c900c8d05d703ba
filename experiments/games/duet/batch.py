"""Batch self-play: thousands of seeded Duet games, written as they finish, resumable.

Game i is dealt and played from the seed pair (seed, i) alone, so per-game rows do not depend on
the worker count, the order or the backend. Rows and replayable records are appended to
`DIR/games.jsonl` and `DIR/records.jsonl` as games finish; a rerun with the same arguments keeps
every complete game and plays only the missing ones. The folder is locked while a run uses it, never
truncated (a smaller --games reports the first games and rewrites nothing), and repaired after a
crash: see `RunDirectory`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, ClassVar, Iterable

from agents.llm.seat import row_fields as llm_row_fields
from agents.registry import default_guesser, default_spymaster
from engine.duet import DuetConfig, DuetRecord, DuetState, deal_duet
from experiments.games.duet.dealing import duet_config
from experiments.games.words import board_list, words_digest
from experiments.games.duet.loop import DuetSeat, play_duet
from experiments.isolation.proxy import DEFAULT_MOVE_TIMEOUT
from experiments.isolation.runs import played_or_forfeited
from experiments.runs import (REFEREE, check_games_and_language, package_versions, run_fingerprint, run_resumable,
                              wilson_interval)
from experiments.runs.stats import run_dict
from experiments.runs.seeds import deal_seed


DEFAULT_SPYMASTER = default_spymaster("en")
DEFAULT_GUESSER = default_guesser("en")


@dataclass(frozen=True)
class DuetRun:
    """Everything that determines a run's games: the resume key."""

    #: games.parquet's columns that some games leave empty, typed alike in every run: a loss has no
    #: score, nor a game of 10 or 11 tokens (RULES 3.11); a won game no loss reason
    ROW_TYPES: ClassVar[dict[str, str]] = {"score": "float64", "loss_reason": "string"}
    games: int
    seed: int = 0
    spymaster: str | None = None   # None: the language's default (agents.registry.default_spymaster)
    guesser: str | None = None     # None: the language's default (agents.registry.default_guesser)
    spymaster_b: str | None = None  # seat B; defaults to seat A's agents
    guesser_b: str | None = None
    mission: str | None = None
    tokens: int | None = None
    lang: str = "en"
    missions_file: str | None = None
    words: str | None = None   # a word list file (--words); None: the language's shipped list

    def __post_init__(self) -> None:
        if self.spymaster is None:
            object.__setattr__(self, "spymaster", default_spymaster(self.lang))
        if self.guesser is None:
            object.__setattr__(self, "guesser", default_guesser(self.lang))

    def seat_specs(self) -> dict[str, tuple[str, str]]:
        return {"A": (self.spymaster, self.guesser),
                "B": (self.spymaster if self.spymaster_b is None else self.spymaster_b,
                      self.guesser if self.guesser_b is None else self.guesser_b)}

    def agent_specs(self) -> dict[str, tuple[str, str]]:
        """Each agent field's spec and role: run.json keeps what they play with."""
        fields = {"spymaster": "spymaster", "guesser": "guesser", "spymaster_b": "spymaster", "guesser_b": "guesser"}
        return {f: (getattr(self, f), role) for f, role in fields.items() if getattr(self, f) is not None}

    def game_config(self) -> DuetConfig:
        return duet_config(self.mission, self.missions_file, self.tokens, self.lang, REFEREE)

    def board_list(self) -> tuple[str, ...]:
        """The words its boards are dealt from (--words, else the shipped list): experiments.games.words."""
        return board_list(self.words, self.lang)

    def words_digest(self) -> str:
        return words_digest(self.board_list())

    def fingerprint(self) -> str:
        # a missions file is named by its path: what it says of the mission joins the key, so an edited
        # file is another run (a folder without one keeps the key it always had); a word list by its
        # words, not its path
        extra = {}
        if self.missions_file:
            extra["missions"] = json.dumps(self.game_config().to_dict(), sort_keys=True)
        if self.words is not None:
            extra["words"] = self.words_digest()
        return run_fingerprint(self, **extra)

    def validate(self) -> None:
        """Every bad argument is reported before any work (and any model load) starts."""
        from agents.registry import check_spec

        check_games_and_language(self.games, self.lang, self.seed)
        self.board_list()   # a --words file that cannot deal a board
        for spymaster, guesser in self.seat_specs().values():
            check_spec(spymaster, "spymaster", self.lang)
            check_spec(guesser, "guesser", self.lang)
        self.game_config()  # unknown mission, bad tokens


_LOADED: dict[str, Any] = {}  # per process: the run's agents and board words, loaded once


def load_players(run: DuetRun, isolate: bool = False, move_timeout: float = DEFAULT_MOVE_TIMEOUT) -> dict[str, Any]:
    """Build the agents once per process (before forking, so workers share the embeddings).
    `isolate`: proxies instead, each agent in its own process (experiments/isolation)."""
    from agents.registry import make_guesser, make_spymaster
    from experiments.games.moves import prepare

    key = run.fingerprint() + (f"/isolated:{move_timeout:g}" if isolate else "")
    if _LOADED.get("key") != key:
        if isolate:
            from experiments.isolation.runs import duet_seats

            seats = duet_seats(run, move_timeout)
        else:
            seats = {seat: DuetSeat(make_spymaster(s, run.lang), make_guesser(g, run.lang))
                     for seat, (s, g) in run.seat_specs().items()}
        words = run.board_list()
        for seat in seats.values():
            for agent in (seat.spymaster, seat.guesser):
                if run.words is not None:   # its per-list tables for the run's own list
                    agent.board_list = words
                prepare(agent)
        _LOADED.update(key=key, run=run, seats=seats, words=words, config=run.game_config(), isolated=isolate)
    return _LOADED


def play_one(index: int) -> tuple[dict, str]:
    """Deal and play game `index` of the loaded run: its result row and its record as JSON."""
    run, seats = _LOADED["run"], _LOADED["seats"]
    record = deal_duet(deal_seed(run.seed, index), _LOADED["words"], _LOADED["config"])  # seeds.py: + the run secret
    record.seed = [run.seed, index]  # what deals game `index` (with the run secret too, when one is set)
    record.extra["game_index"] = index
    state = record.new_state()   # played on, then read for the row: the record's replay, without judging it again
    return played_or_forfeited("duet", index, record, lambda: play_duet(record, seats, seed=(run.seed, index), state=state),
                               lambda i, r: game_row(i, r, state), bool(_LOADED.get("isolated")))


def game_row(index: int, record: DuetRecord, state: DuetState | None = None) -> dict:
    """The per-game result row: only facts of the game, so rows are identical on any worker count.
    `state`: the state the record's actions were played on (else the record is replayed)."""
    state = record.replay() if state is None else state
    numbers = [a.number for a in record.actions if hasattr(a, "number")]
    outcome = state.outcome()
    unfinished = not outcome.finished  # nobody would guess: counts as a loss
    return {
        "game_index": index, "status": outcome.phase, "won": outcome.phase == "won",
        "score": outcome.score, "loss_reason": "unfinished" if unfinished else outcome.loss_reason,
        "greens_found": state.greens_found, "tokens_left": state.tokens_left,
        "turns_used": len(state.clue_seats), "mistakes": state.mistakes,
        "sudden_death": state.went_to_sudden_death, "clues": len(numbers),
        "mean_clue_number": round(sum(numbers) / len(numbers), 6) if numbers else 0.0,
        **llm_row_fields(record.extra.get("llm")),  # llm agents only: moves, tokens, latency (agents/llm)
    }


def simulate(run: DuetRun, out: str | Path | None = None, workers: int = 1, backend: str = "local",
             progress: bool = True, on_result: Callable[[dict], None] | None = None,
             isolate: bool = False, move_timeout: float = DEFAULT_MOVE_TIMEOUT) -> dict:
    """Play the run's games (skipping those already in `out`) and return the summary.
    `isolate`: every agent in its own process, `move_timeout` seconds a move (docs/isolation.md)."""
    from experiments.runs import check_run_backend, game_results

    check_run_backend(backend, isolate)

    def results(todo: list[int]) -> Iterable[tuple[dict, str]]:
        if isolate:
            from experiments.isolation.runs import closing

            loaded = load_players(run, True, move_timeout)
            return closing(game_results(backend, run, todo, workers, __name__, lambda: loaded, play_one), loaded)
        return game_results(backend, run, todo, workers, __name__, lambda: load_players(run), play_one)

    return run_resumable(run, out, workers, progress, on_result, results,
                         lambda rows, played, seconds: summarize(rows, run, played, seconds, workers, backend))


def summarize(rows: list[dict], run: DuetRun, played: int = 0, seconds: float = 0.0,
              workers: int = 1, backend: str = "local") -> dict:
    n = len(rows)
    wins = [r for r in rows if r["won"]]
    scores = [r["score"] for r in wins if r["score"] is not None]   # RULES 3.11 scores 9-token games only
    scored = len(scores) == len(wins) and run.game_config().scored   # no win: 0 only where scored
    histogram: dict[str, int] = {}
    for s in sorted(scores):
        histogram[str(s)] = histogram.get(str(s), 0) + 1
    clue_numbers = [r["mean_clue_number"] for r in rows if r["clues"]]

    def rate(pred) -> float:
        return round(sum(1 for r in rows if pred(r)) / n, 6) if n else 0.0

    return {
        "games": n, "wins": len(wins), "win_rate": rate(lambda r: r["won"]),
        "win_rate_ci95": list(wilson_interval(len(wins), n)),
        "mean_score_wins": round(sum(scores) / len(scores), 6) if scores and scored else None,
        "mean_score_all": round(sum(scores) / n, 6) if n and scored else None,
        "score_histogram": histogram,
        "assassin_rate": rate(lambda r: r["loss_reason"] == "assassin"),
        "forfeits": sum(1 for r in rows if r.get("status") == "forfeit"),   # --isolate: games an agent lost by failing
        "sudden_death_rate": rate(lambda r: r["sudden_death"]),
        "mean_turns": round(sum(r["turns_used"] for r in rows) / n, 6) if n else None,
        "mean_clue_number": round(sum(clue_numbers) / len(clue_numbers), 6) if clue_numbers else None,
        "games_per_second": round(played / seconds, 3) if seconds > 0 and played else None,
        "config": {"run": run_dict(run), **({"words_sha256": run.words_digest()} if run.words is not None else {}),
                   "game_config": run.game_config().to_dict(), "workers": workers,
                   "backend": backend, "packages": package_versions()},
    }


SUMMARY_FIELDS = ["games", "wins", "win_rate", "win_rate_ci95", "mean_score_wins", "mean_score_all",
                  "assassin_rate", "forfeits", "sudden_death_rate", "mean_turns", "mean_clue_number", "games_per_second",
                  "load_seconds"]


def format_summary(summary: dict) -> str:
    """The printed table: one metric a line."""
    width = max(len(k) for k in SUMMARY_FIELDS)
    lines = [f"{k:<{width}}  {summary.get(k)}" for k in SUMMARY_FIELDS]
    lines.append(f"{'score_histogram':<{width}}  {summary['score_histogram']}")
    run = summary["config"]["run"]
    lines.append(f"{'agents':<{width}}  A={run['spymaster']} / {run['guesser']}  "
                 f"B={run['spymaster_b'] or run['spymaster']} / {run['guesser_b'] or run['guesser']}")
    return "\n".join(lines)
