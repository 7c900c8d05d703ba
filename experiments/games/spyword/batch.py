"""Batch self-play of Spy's Word (RULES 5): seeded games, written as they finish, resumable.

Game i plays pack (i // 2) mod n_packs, dealt by the engine's `deal_spyword` from the game's
seed (`experiments.runs.seeds.deal_seed`): the citizens' word, the roles, the clue order and the
engine's lots, so rows do not depend on the worker count or the order. Bots: every seat plays
`bot`; with `weaken` ("citizens" or "infiltrators") the seats of that side play `spyword-random`
(random legal clues and votes, a random ghost guess). The engine checks clues with the project
clue filter plus the use-m3 translation check when the backend is multilingual (`agents.spyword.with_translation_check`). A
language-model bot (`llm-spyword:...`) reads no embeddings: its referee and weakened seats use the
default backend, use-m3.

Results on disk reuse experiments.games.duet.batch's `RunDirectory` (run.json, games.jsonl, records.jsonl,
torn last lines dropped on resume), summary.json and games.parquet.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Callable, ClassVar

import numpy as np

from engine.errors import IllegalAction
from engine.spyword import CITIZEN, GHOST, SPY, SpyWordRecord, SpyWordSettings, deal_spyword

from experiments.games.moves import AgentError
from experiments.games.spyword.loop import play_game
from experiments.isolation.proxy import DEFAULT_MOVE_TIMEOUT
from experiments.runs.seeds import agent_seed, deal_seed
from experiments.runs import (check_games_and_language, package_versions, run_fingerprint, run_resumable, wilson_interval)

DEFAULT_BOT = "spyword:use-m3"
WEAKEN = (None, "citizens", "infiltrators")


@dataclass(frozen=True)
class SpyWordRun:
    """Everything that determines a run's games: the resume key."""

    #: games.parquet's columns that some games leave empty, typed alike in every run: a game with no
    #: winner, no one out, no ghost's guess, or no belief of a side to average
    ROW_TYPES: ClassVar[dict[str, str]] = {"winner": "string", "first_out": "string", "ghost_guess": "string",
                                           "spy_belief": "float64", "citizen_belief": "float64"}
    games: int
    players: int = 6
    seed: int = 0
    lang: str = "en"
    bot: str = DEFAULT_BOT
    weaken: str | None = None
    translation_check: bool = True

    def fingerprint(self) -> str:
        return run_fingerprint(self)

    def agent_specs(self) -> dict[str, tuple[str, str]]:
        """The bot and, in a weakened run, the weakened seats' bot (`weak`), each with its role:
        run.json keeps what they play with."""
        return {"bot": (self.bot, "spyword"), **({"weak": (self.weak_spec(), "spyword")} if self.weaken else {})}

    def reads_embeddings(self) -> bool:
        """Whether `bot` plays from an embedding model. A language-model seat (`llm-spyword:local`,
        `llm-spyword:openai?...`) does not: its backend names a chat model. A third-party class is
        taken to read embeddings (it is not imported here: under --isolate it runs elsewhere)."""
        from agents.registry import agent_class, is_import_path
        from agents.spec import parse_spec

        spec = parse_spec(self.bot)
        return is_import_path(spec.name) or bool(getattr(agent_class(spec, "spyword"), "reads_embeddings", True))

    def embedding_bot(self) -> str:
        """The spec whose embedding backend the referee's translation check and the weakened seats
        use: `bot`, or `DEFAULT_BOT` (use-m3) for a bot that reads no embeddings."""
        return self.bot if self.reads_embeddings() else DEFAULT_BOT

    def embedding_backends(self) -> tuple[str, ...]:
        """The embedding backends of `embedding_bot()`: its spec's, less the class of a bot named by import
        path (`my_pkg.bots:MyBot+fake`: the backends are `fake`, MyBot is no backend)."""
        from agents.registry import is_import_path
        from agents.spec import parse_spec

        spec = parse_spec(self.embedding_bot())
        return tuple(spec.backends[1:] if is_import_path(spec.name) else spec.backends)

    def weak_spec(self) -> str:
        """`spyword-random` on the same backend and vocabulary size as `bot` (use-m3 for an llm bot)."""
        from agents.spec import AgentSpec, parse_spec

        spec = parse_spec(self.embedding_bot())
        params = {k: v for k, v in spec.params.items() if k == "vocab"}
        return str(AgentSpec("spyword-random", self.embedding_backends(), params))

    def validate(self) -> None:
        from agents.spyword import check_spyword_spec
        from engine.spyword.settings import check_player_count

        check_games_and_language(self.games, self.lang, self.seed)
        check_player_count(self.players)
        if self.weaken not in WEAKEN:
            raise ValueError(f"--weaken must be citizens or infiltrators, not {self.weaken!r}")
        check_spyword_spec(self.bot, self.lang)


# ----- dealing ------------------------------------------------------------------------------------
def deal_game(run: SpyWordRun, index: int, packs: list[dict]) -> SpyWordRecord:
    """Game `index`: pack index//2 (each pack twice), dealt by the engine's dealer from (seed,
    index) (RULES 5.2-5.4): which of its words the citizens hold, the roles, the order and the
    lots. The citizens' word is drawn, never read off the index: a bot that counts its games
    knows the index, and with it would know its role."""
    pack = packs[(index // 2) % len(packs)]
    seed = int(np.random.default_rng(deal_seed(run.seed, index)).integers(2**63 - 1))  # the record's seed is one int
    record = deal_spyword(seed, [pack], run.players, SpyWordSettings(), lang=run.lang)
    return replace(record, extra={"game_index": index, "run_seed": run.seed})


# ----- one game -------------------------------------------------------------------------------------
_LOADED: dict[str, Any] = {}  # per process: the run's bots and packs, loaded once (before forking)


def load_players(run: SpyWordRun) -> dict[str, Any]:
    """The simulator protocol's name (experiments.runs.ray_backend): the run's bots, loaded once."""
    return load_bots(run)


def load_bots(run: SpyWordRun, embeddings: Any = None, isolate: bool = False,
              move_timeout: float = DEFAULT_MOVE_TIMEOUT) -> dict[str, Any]:
    from agents.spyword import make_spyword_bot, with_translation_check

    from experiments.games.spyword.dealing import load_packs

    key = run.fingerprint() + (f"/isolated:{move_timeout:g}" if isolate else "")
    if _LOADED.get("key") != key and isolate:  # each seat's bot in its own process (experiments/isolation)
        from experiments.isolation.runs import spyword_bots, spyword_checker

        if embeddings:
            raise ValueError("replacement embeddings cannot reach isolated bots")
        packs = load_packs(run.lang)
        strong, weak = spyword_bots(run, move_timeout, (w for p in packs for w in p["words"]))
        # the referee's checker is built from the embedding backend (an llm bot's is a chat model)
        checker = spyword_checker(replace(run, bot=run.embedding_bot()))
        _LOADED.update(key=key, run=run, strong=strong, weak=weak, packs=packs, checker=checker, isolated=True)
    if _LOADED.get("key") != key:
        kwargs = {"embeddings": embeddings} if embeddings else {}
        seats = [f"p{k}" for k in range(1, run.players + 1)]
        strong = {s: make_spyword_bot(run.bot, run.lang, **kwargs) for s in seats}
        if run.reads_embeddings():
            weak = {s: make_spyword_bot(run.weak_spec(), run.lang, model=strong[s].model) for s in seats} \
                if run.weaken else {}
            model = strong[seats[0]].model  # builds (and shares) the vocabulary model before any fork
            shared = list(strong.values()) + list(weak.values())
            referee = model.emb
        else:  # language-model seats (no embedding model): the weakened seats and the referee read use-m3
            from agents.embeddings import DEFAULT_BACKEND

            weak = {s: make_spyword_bot(run.weak_spec(), run.lang, **kwargs) for s in seats} if run.weaken else {}
            model = weak[seats[0]].model if weak else None
            shared = list(weak.values())
            referee = model.emb if model is not None else _backend(DEFAULT_BACKEND, embeddings)
            strong[seats[0]].prepare()  # a local model: loaded once, before any fork (an endpoint: nothing)
        for bot in shared:
            bot._model = model
        checker = None
        if run.translation_check and len(referee.languages) > 1:
            backend = (run.embedding_backends() or ("use-m3",))[0]
            checker = with_translation_check(backend=referee if embeddings else backend)
        packs = load_packs(run.lang)
        if model is not None:
            model.prepare(sorted({w for p in packs for w in p["words"]}))  # before the fork: shared by workers
        _LOADED.update(key=key, run=run, strong=strong, weak=weak, packs=packs, checker=checker, isolated=False)
    return _LOADED


def _backend(name: str, embeddings: Any = None) -> Any:
    """The embedding backend `name`, or its replacement in `embeddings` ({name: Embeddings}, tests)."""
    from agents.embeddings import get_backend

    return (embeddings or {}).get(name) or get_backend(name)


def weakened(run: SpyWordRun, role: str) -> bool:
    return (run.weaken == "citizens" and role == CITIZEN) or (run.weaken == "infiltrators" and role in (SPY, GHOST))


def play_one(index: int) -> tuple[dict, str]:
    run: SpyWordRun = _LOADED["run"]
    record = deal_game(run, index, _LOADED["packs"])
    bots = {s: (_LOADED["weak"][s] if weakened(run, record.roles[s]) else _LOADED["strong"][s])
            for s in record.seats}
    try:
        for s in record.seats:
            bots[s].begin_game(agent_seed((run.seed, index), s, "bot"))  # nothing of the deal
        record.extra["bots"] = {s: bots[s].spec for s in record.seats}
        facts = play_game(record, bots, _LOADED["checker"])
    except (AgentError, IllegalAction) as exc:  # --isolate: a failing bot forfeits the game for its side
        if not _LOADED.get("isolated"):
            raise
        from experiments.isolation.runs import forfeit_row, record_forfeit

        record.extra["bots"] = {s: bots[s].spec for s in record.seats}
        forfeit = record_forfeit(record, exc)
        facts = {"state": record.replay(clue_checker=_LOADED["checker"]), "refusals": 0,
                 "beliefs": {s: None for s in record.seats}}
        row = forfeit_row("spyword", game_row(index, record, facts), record, forfeit)
        return row, json.dumps(record.to_dict(), ensure_ascii=False, separators=(",", ":"))
    row = game_row(index, record, facts)
    return row, json.dumps(record.to_dict(), ensure_ascii=False, separators=(",", ":"))


def game_row(index: int, record: SpyWordRecord, facts: dict) -> dict:
    """Only facts of the game, so rows are identical on any worker count."""
    state = facts["state"]
    report = state.end_report()
    guesses = report["ghost_guesses"]
    eliminated = [e["role"] for e in report["eliminated"]]
    spy_beliefs = [facts["beliefs"][s] for s in record.seats if record.roles[s] == SPY
                   and facts["beliefs"][s] is not None]
    cit_beliefs = [facts["beliefs"][s] for s in record.seats if record.roles[s] == CITIZEN
                   and facts["beliefs"][s] is not None]
    return {
        "game_index": index, "pack": record.pack.get("id"), "citizen_word": record.citizen_word,
        "spy_word": record.spy_word, "status": report["status"], "winner": report["winner"],
        "rounds": report["rounds"], "eliminated": eliminated,
        "first_out": eliminated[0] if eliminated else None,
        "ghost_guessed": bool(guesses) and guesses[0].get("guess") is not None,
        "ghost_guess": guesses[0].get("guess") if guesses else None,
        "ghost_right": bool(guesses) and bool(guesses[0].get("right")),
        "clues": sum(c["clue"] is not None for c in state.clues), "clue_refusals": facts["refusals"],
        "spy_belief": round(float(np.mean(spy_beliefs)), 6) if spy_beliefs else None,
        "citizen_belief": round(float(np.mean(cit_beliefs)), 6) if cit_beliefs else None,
    }


# ----- running ---------------------------------------------------------------------------------------
def simulate_spyword(games: int, players: int = 6, seed: int = 0, lang: str = "en", bot: str = DEFAULT_BOT,
                     weaken: str | None = None, out: str | Path | None = None, workers: int = 1,
                     progress: bool = True, embeddings: Any = None,
                     on_result: Callable[[dict], None] | None = None, backend: str = "local",
                     isolate: bool = False, move_timeout: float = DEFAULT_MOVE_TIMEOUT) -> dict:
    """Play the run's games (skipping those already in `out`) and return the summary.
    `embeddings` ({name: Embeddings}) replaces a backend of the bot spec (tests). `isolate`: every
    seat's bot in its own process, `move_timeout` seconds a move (docs/isolation.md)."""
    run = SpyWordRun(games=games, players=players, seed=seed, lang=lang, bot=bot, weaken=weaken)

    from experiments.runs import check_run_backend, game_results

    if backend == "ray" and embeddings is not None:
        raise ValueError("replacement embeddings are for local runs only")

    check_run_backend(backend, isolate)

    def results(todo: list[int]):
        if isolate:
            from experiments.isolation.runs import closing

            loaded = load_bots(run, embeddings, True, move_timeout)
            return closing(game_results(backend, run, todo, workers, __name__, lambda: loaded, play_one), loaded)
        return game_results(backend, run, todo, workers, __name__, lambda: load_bots(run, embeddings), play_one)

    return run_resumable(run, out, workers, progress, on_result, results,
                         lambda rows, played, seconds: summarize(rows, run, played, seconds, workers))


# ----- the summary -------------------------------------------------------------------------------------
def summarize(rows: list[dict], run: SpyWordRun, played: int = 0, seconds: float = 0.0, workers: int = 1) -> dict:
    n = len(rows)

    def count(pred) -> int:
        return sum(1 for r in rows if pred(r))

    def rate(k: int, total: int = n) -> float | None:
        return round(k / total, 6) if total else None

    cit, spies, ghost = count(lambda r: r["winner"] == "citizens"), count(lambda r: r["winner"] == "spies"), \
        count(lambda r: r["winner"] == "ghost")
    guesses = count(lambda r: r["ghost_guessed"])
    right = count(lambda r: r["ghost_right"])
    spy_b = [r["spy_belief"] for r in rows if r.get("spy_belief") is not None]
    cit_b = [r["citizen_belief"] for r in rows if r.get("citizen_belief") is not None]
    return {
        "games": n,
        "citizens_win_rate": rate(cit), "citizens_win_ci95": list(wilson_interval(cit, n)),
        "spies_ghost_win_rate": rate(spies), "spies_ghost_win_ci95": list(wilson_interval(spies, n)),
        "ghost_alone_win_rate": rate(ghost), "ghost_alone_win_ci95": list(wilson_interval(ghost, n)),
        "ghost_guesses": guesses, "ghost_guess_accuracy": rate(right, guesses),
        "mean_rounds": round(sum(r["rounds"] for r in rows) / n, 6) if n else None,
        "no_winner_rate": rate(count(lambda r: r["winner"] is None)),
        "first_out_infiltrator_rate": rate(count(lambda r: r["first_out"] in (SPY, GHOST))),
        "mean_spy_belief": round(float(np.mean(spy_b)), 6) if spy_b else None,
        "mean_citizen_belief": round(float(np.mean(cit_b)), 6) if cit_b else None,
        "clue_refusals": sum(r["clue_refusals"] for r in rows),
        "forfeits": count(lambda r: bool(r.get("forfeit"))),   # --isolate: games a bot lost by failing
        "games_per_second": round(played / seconds, 3) if seconds > 0 and played else None,
        "config": {"run": asdict(run), "workers": workers, "packages": package_versions()},
    }


SUMMARY_FIELDS = ["games", "citizens_win_rate", "citizens_win_ci95", "spies_ghost_win_rate", "spies_ghost_win_ci95",
                  "ghost_alone_win_rate", "ghost_alone_win_ci95", "ghost_guesses", "ghost_guess_accuracy",
                  "mean_rounds", "no_winner_rate", "first_out_infiltrator_rate", "mean_spy_belief",
                  "mean_citizen_belief", "clue_refusals", "forfeits", "games_per_second", "load_seconds"]


def format_summary(summary: dict) -> str:
    width = max(len(k) for k in SUMMARY_FIELDS)
    lines = [f"{k:<{width}}  {summary.get(k)}" for k in SUMMARY_FIELDS]
    run = summary["config"]["run"]
    lines.append(f"{'bots':<{width}}  {run['bot']}" + (f"  (weakened: {run['weaken']} -> random)" if run["weaken"] else ""))
    return "\n".join(lines)

