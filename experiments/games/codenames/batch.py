"""Batch self-play for Codenames (`cnlab simulate codenames`): seeded, resumable, worker-count free.

Game i is dealt and played from the seed pair (seed, i) alone. The default variant is
`single_team`, the Codenames AI Competition protocol (8 own / 7 opponent / 9 bystanders /
1 assassin; competition score = turns to find all 8, 25 for a loss). Results go to
`DIR/games.jsonl` and `DIR/records.jsonl` as games finish, through simulate.py's RunDirectory.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, ClassVar

from agents.defaults import CODENAMES_GUESSER, CODENAMES_SPYMASTER
from engine.codenames import CodenamesConfig, CodenamesRecord
from engine.codenames.state import COMPETITION_LOSS, SEATS

from experiments.games.codenames.loop import play_codenames
from experiments.isolation.proxy import DEFAULT_MOVE_TIMEOUT
from experiments.isolation.runs import played_or_forfeited
from experiments.games.codenames.dealing import deal_record
from experiments.runs.seeds import deal_seed
from experiments.runs import (REFEREE, check_games_and_language, package_versions, run_fingerprint, run_resumable, wilson_interval)
from experiments.runs.stats import run_dict
from experiments.games.words import board_list, words_digest

DEFAULT_SPYMASTER = CODENAMES_SPYMASTER
DEFAULT_GUESSER = CODENAMES_GUESSER
SIM_VARIANTS = ("single_team", "two_player", "teams")


@dataclass(frozen=True)
class CodenamesRun:
    """Everything that determines a run's games: the resume key."""

    #: games.parquet's columns that some games or variants leave empty, typed alike in every run: the
    #: competition score is the solo variant's, the score two_player's; an unfinished game has no
    #: winner, a won one no loss reason; a game of UNLIMITED clues no mean number (RULES 1.7)
    ROW_TYPES: ClassVar[dict[str, str]] = {"competition_score": "float64", "score": "float64",
                                           "mean_clue_number": "float64", "winner": "string",
                                           "loss_reason": "string"}
    games: int
    seed: int = 0
    spymaster: str = DEFAULT_SPYMASTER
    guesser: str = DEFAULT_GUESSER
    variant: str = "single_team"
    lang: str = "en"
    words: str | None = None   # a word list file (--words); None: the language's shipped list

    def game_config(self) -> CodenamesConfig:
        # the referee judges every clue (RULES 4): an illegal one is the agent's error (a forfeit
        # under --isolate), never a clue the game quietly plays on
        return CodenamesConfig(game="codenames", variant=self.variant, invalid_clue=REFEREE, language=self.lang)

    def board_list(self) -> tuple[str, ...]:
        """The words its boards are dealt from (--words, else the shipped list): experiments.games.words."""
        return board_list(self.words, self.lang)

    def words_digest(self) -> str:
        return words_digest(self.board_list())

    def fingerprint(self) -> str:
        # a word list by its words, not its path (a run without one keeps the key it always had)
        words = {"words": self.words_digest()} if self.words is not None else {}
        return run_fingerprint(self, game="codenames", **words)

    def agent_specs(self) -> dict[str, tuple[str, str]]:
        """Each agent field's spec and role: run.json keeps what they play with."""
        return {"spymaster": (self.spymaster, "spymaster"), "guesser": (self.guesser, "guesser")}

    def validate(self) -> None:
        """Every bad argument is reported before any work (and any model load) starts."""
        from agents.registry import check_spec

        check_games_and_language(self.games, self.lang, self.seed)
        self.board_list()   # a --words file that cannot deal a board
        if self.variant not in SIM_VARIANTS:
            raise ValueError(f"unknown variant {self.variant!r}: {', '.join(SIM_VARIANTS)}")
        check_spec(self.spymaster, "spymaster", self.lang)
        check_spec(self.guesser, "guesser", self.lang)
        self.game_config()


# ----- one game ------------------------------------------------------------------------------------
_LOADED: dict[str, Any] = {}  # per process: the run's agents, loaded once (before forking)


def load_players(run: CodenamesRun, isolate: bool = False, move_timeout: float = DEFAULT_MOVE_TIMEOUT) -> dict[str, Any]:
    from agents.registry import make_guesser, make_spymaster
    from experiments.games.moves import prepare

    key = run.fingerprint() + (f"/isolated:{move_timeout:g}" if isolate else "")
    if _LOADED.get("key") != key:
        words = run.board_list()
        if isolate:  # each agent in its own process (experiments/isolation)
            from experiments.isolation.runs import codenames_agents

            _LOADED.update(key=key, run=run, agents=codenames_agents(run, move_timeout), words=words, isolated=True)
            return _LOADED
        spymaster, guesser = make_spymaster(run.spymaster, run.lang), make_guesser(run.guesser, run.lang)
        for agent in (spymaster, guesser):
            if run.words is not None:   # its per-list tables for the run's own list
                agent.board_list = words
            prepare(agent)
        # both teams share the agents (in `teams` self-play); the solo variants use one team only
        agents = {seat: spymaster if seat.endswith("spymaster") else guesser for seat in SEATS}
        _LOADED.update(key=key, run=run, agents=agents, words=words, isolated=False)
    return _LOADED


def play_one(index: int) -> tuple[dict, str]:
    """Deal and play game `index` of the loaded run: its result row and its record as JSON."""
    run, agents = _LOADED["run"], _LOADED["agents"]
    record = deal_record(deal_seed(run.seed, index), lang=run.lang, variant=run.variant,  # seeds.py: + the run secret
                         invalid_clue=REFEREE, words=_LOADED["words"])
    record.seed = [run.seed, index]  # what deals game `index` (with the run secret too, when one is set)
    record.extra["game_index"] = index
    return played_or_forfeited("codenames", index, record, lambda: play_codenames(record, agents, seed=(run.seed, index)), game_row,
                               bool(_LOADED.get("isolated")))


def game_row(index: int, record: CodenamesRecord) -> dict:
    """The per-game result row: only facts of the game. `won`: the starting (solo: the playing) team won."""
    state = record.replay()
    outcome = state.outcome()
    clues = [a.number for a in record.actions if hasattr(a, "number")]
    numbers = [n for n in clues if isinstance(n, int)]   # an UNLIMITED clue (RULES 1.7) has no number to average
    finished = outcome.status == "finished"
    return {
        "game_index": index, "status": outcome.status, "winner": outcome.winner,
        "won": finished and outcome.winner == record.key.starts,
        "loss_reason": outcome.loss_reason if finished else "unfinished",
        "turns_used": outcome.turns_used,
        "competition_score": outcome.competition_score if finished or not record.config.single_team
        else COMPETITION_LOSS,
        "score": outcome.score, "clues": len(clues),
        # none when no clue had a number (all UNLIMITED, or no clue): not a game of 0s
        "mean_clue_number": round(sum(numbers) / len(numbers), 6) if numbers else None,
    }


# ----- running -------------------------------------------------------------------------------------
def simulate_codenames(run: CodenamesRun, out: str | Path | None = None, workers: int = 1,
                       progress: bool = True, on_result: Callable[[dict], None] | None = None,
                       backend: str = "local", isolate: bool = False,
                       move_timeout: float = DEFAULT_MOVE_TIMEOUT) -> dict:
    """Play the run's games (skipping those already in `out`) and return the summary.
    `isolate`: every agent in its own process, `move_timeout` seconds a move (docs/isolation.md)."""
    from experiments.runs import check_run_backend, game_results

    check_run_backend(backend, isolate)

    def results(todo: list[int]):
        if isolate:
            from experiments.isolation.runs import closing

            loaded = load_players(run, True, move_timeout)
            return closing(game_results(backend, run, todo, workers, __name__, lambda: loaded, play_one), loaded)
        return game_results(backend, run, todo, workers, __name__, lambda: load_players(run), play_one)

    return run_resumable(run, out, workers, progress, on_result, results,
                         lambda rows, played, seconds: summarize(rows, run, played, seconds, workers))


# ----- the summary ---------------------------------------------------------------------------------
def _mean(values: list) -> float | None:
    return round(sum(values) / len(values), 6) if values else None


def summarize(rows: list[dict], run: CodenamesRun, played: int = 0, seconds: float = 0.0,
              workers: int = 1) -> dict:
    n = len(rows)
    wins = [r for r in rows if r["won"]]
    comp = [r["competition_score"] for r in rows if r["competition_score"] is not None]
    histogram: dict[str, int] = {}
    for s in sorted(comp):
        histogram[str(s)] = histogram.get(str(s), 0) + 1
    two_player = [r["score"] for r in wins if r["score"] is not None]

    def rate(pred) -> float:
        return round(sum(1 for r in rows if pred(r)) / n, 6) if n else 0.0

    return {
        "games": n, "wins": len(wins), "win_rate": rate(lambda r: r["won"]),
        "win_rate_ci95": list(wilson_interval(len(wins), n)),
        "mean_competition_score": _mean(comp),
        "competition_score_histogram": histogram,
        "mean_turns_wins": _mean([r["turns_used"] for r in wins]),
        "assassin_rate": rate(lambda r: r["loss_reason"] == "assassin"),
        "forfeits": sum(1 for r in rows if r.get("status") == "forfeit"),   # --isolate: games an agent lost by failing
        "mean_score_wins": _mean(two_player) if run.variant == "two_player" else None,
        "mean_clue_number": _mean([r["mean_clue_number"] for r in rows
                                   if r["clues"] and r["mean_clue_number"] is not None]),
        "games_per_second": round(played / seconds, 3) if seconds > 0 and played else None,
        "config": {"run": run_dict(run), **({"words_sha256": run.words_digest()} if run.words is not None else {}),
                   "game_config": run.game_config().to_dict(), "workers": workers,
                   "packages": package_versions()},
    }


SUMMARY_FIELDS = ["games", "wins", "win_rate", "win_rate_ci95", "mean_competition_score", "mean_turns_wins",
                  "assassin_rate", "forfeits", "mean_score_wins", "mean_clue_number", "games_per_second", "load_seconds"]


def format_summary(summary: dict) -> str:
    """The printed table: one metric a line."""
    width = max(len(k) for k in SUMMARY_FIELDS + ["competition_score_histogram"])
    lines = [f"{k:<{width}}  {summary.get(k)}" for k in SUMMARY_FIELDS]
    if summary["competition_score_histogram"]:
        lines.append(f"{'competition_score_histogram':<{width}}  {summary['competition_score_histogram']}")
    run = summary["config"]["run"]
    lines.append(f"{'agents':<{width}}  {run['spymaster']} / {run['guesser']}  ({run['variant']}, {run['lang']})")
    return "\n".join(lines)
