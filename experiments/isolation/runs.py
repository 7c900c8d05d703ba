"""What the simulators need for `--isolate`: proxies for a run's seats, and forfeited games' rows.

A forfeited game ends where the agent failed: the record keeps the legal actions played so far
(it replays) and `record.extra["forfeit"]` = {"seat", "role", "agent", "why", "reason"}; its row
has `status: "forfeit"`, is lost by the forfeiting side, and carries the reason
"forfeit: <seat> <role>: <why>" (`loss_reason` in Duet and Codenames rows, `forfeit` in Spy's Word
rows, whose winner is then the other side).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterable, Iterator

from experiments.isolation import hardening
from experiments.isolation.proxy import (DEFAULT_MOVE_TIMEOUT, Forfeit, IsolatedAgent, IsolatedGuesser, IsolatedSpymaster,
                    IsolatedSpyWordBot, forfeit_of, reap_strays, start_reaping, start_together, stop_reaping)

__all__ = ["DEFAULT_MOVE_TIMEOUT", "closing", "codenames_agents", "duet_seats", "forfeit_row", "record_forfeit",
           "spyword_bots", "spyword_checker"]


def duet_seats(run: Any, move_timeout: float = DEFAULT_MOVE_TIMEOUT) -> dict:
    """Seat -> DuetSeat of proxies for a `DuetRun` (each seat's two agents in two processes)."""
    from experiments.games.duet.loop import DuetSeat

    seats = {seat: DuetSeat(IsolatedSpymaster(s, run.lang, seat, move_timeout),
                            IsolatedGuesser(g, run.lang, seat, move_timeout))
             for seat, (s, g) in run.seat_specs().items()}
    start_together(a for seat in seats.values() for a in (seat.spymaster, seat.guesser))
    return seats


def codenames_agents(run: Any, move_timeout: float = DEFAULT_MOVE_TIMEOUT) -> dict:
    """Seat -> proxy for a `CodenamesRun`: as in the plain run, one spymaster and one guesser
    serve both teams (both spymasters see the same key, both guessers the same public table)."""
    from engine.codenames.state import SEATS

    spymaster = IsolatedSpymaster(run.spymaster, run.lang, "red-spymaster", move_timeout)
    guesser = IsolatedGuesser(run.guesser, run.lang, "red-guesser", move_timeout)
    start_together([spymaster, guesser])
    return {seat: spymaster if seat.endswith("spymaster") else guesser for seat in SEATS}


def spyword_bots(run: Any, move_timeout: float = DEFAULT_MOVE_TIMEOUT, words: Iterable[str] = ()) -> tuple[dict, dict]:
    """(strong, weak) seat -> proxy for a `SpyWordRun`; `words`: the packs' words, prepared at start."""
    seats = [f"p{k}" for k in range(1, run.players + 1)]
    words = sorted(set(words))
    strong = {s: IsolatedSpyWordBot(run.bot, run.lang, s, move_timeout, prepare_words=words) for s in seats}
    weak = {s: IsolatedSpyWordBot(run.weak_spec(), run.lang, s, move_timeout, prepare_words=words)
            for s in seats} if run.weaken else {}
    start_together([*strong.values(), *weak.values()])
    return strong, weak


def agents_of(loaded: Any) -> list[IsolatedAgent]:
    """Every proxy in a simulator's loaded players (seats, agent maps, bot maps)."""
    found: dict[int, IsolatedAgent] = {}

    def walk(obj: Any) -> None:
        if isinstance(obj, IsolatedAgent):
            found[id(obj)] = obj
        elif isinstance(obj, dict):
            for v in obj.values():
                walk(v)
        elif hasattr(obj, "spymaster") and hasattr(obj, "guesser"):
            walk(obj.spymaster)
            walk(obj.guesser)

    walk(loaded)
    return list(found.values())


def closing(results: Iterable, loaded: Any) -> Iterator:
    """Yield the results, then end the agent processes this process started (forked workers'
    agents end with their workers) and kill what any agent left behind: this process is a child
    subreaper meanwhile, so a worker's agents and whatever they started in sessions of their own
    come back to it once their parents are gone (`reap_strays`). It is non-dumpable meanwhile too:
    with forked workers it starts no agent itself, yet holds the run's deals and its environment the
    seed secret, and a dumpable process is open to its agents' user (/proc/PID/environ, mem).
    Isolated play starts here, after the run's input and folder were checked: without a seed secret,
    a note on stderr says the deals come from public seeds (once a process)."""
    note_public_seeds()
    reaper = start_reaping()
    dumpable = hardening.is_dumpable()
    hardening.protect_game_process()
    try:
        yield from results
    finally:
        for agent in agents_of(loaded):
            agent.close()
        reap_strays()
        stop_reaping(reaper)
        if dumpable:
            hardening.set_dumpable(True)


_SEED_NOTE = {"once": False, "said": False}


def note_public_seeds() -> None:
    """A note on stderr when no seed secret hides the deals (experiments/runs/seeds.py); within
    `one_seed_note()`, only the first time."""
    import os
    import sys

    from experiments.runs.seeds import SECRET_ENV

    if os.environ.get(SECRET_ENV) or (_SEED_NOTE["once"] and _SEED_NOTE["said"]):
        return
    _SEED_NOTE["said"] = True
    print(f"note: {SECRET_ENV} is not set: deals come from small public seeds, so an agent could find its deal "
          "by trying them (set it for untrusted agents; docs/isolation.md)", file=sys.stderr, flush=True)


@contextmanager
def one_seed_note() -> Iterator[None]:
    """Runs that share their deals (a tournament's pairings) say the seed note once."""
    before = dict(_SEED_NOTE)
    _SEED_NOTE.update(once=True, said=False)
    try:
        yield
    finally:
        _SEED_NOTE.update(before)


def record_forfeit(record: Any, exc: BaseException) -> Forfeit:
    """The forfeit an error of isolated play means, written into the record's extra fields."""
    forfeit = forfeit_of(exc)
    record.extra["forfeit"] = forfeit.to_dict()
    return forfeit


def forfeit_row(game: str, row: dict, record: Any, forfeit: Forfeit | None) -> dict:
    """The result row of a forfeited game (`row` as the simulator made it from the record)."""
    if forfeit is None:
        return row
    row = dict(row, status="forfeit")
    if game == "duet":
        row.update(won=False, score=None, loss_reason=forfeit.reason)
    elif game == "codenames":
        from engine.codenames.key import other_team
        from engine.codenames.state import COMPETITION_LOSS, seat_team

        # one team plays a solo variant (its agents cover for the virtual opponent too): any forfeit is its
        # loss; in `teams` the forfeiting seat's team loses
        team = (seat_team(forfeit.seat) if record.config.variant == "teams" and "-" in forfeit.seat
                else record.key.starts)
        winner = other_team(team)
        row.update(winner=winner, won=winner == record.key.starts, loss_reason=forfeit.reason, score=None,
                   competition_score=COMPETITION_LOSS if record.config.single_team else None)
    elif game == "spyword":
        from engine.spyword import CITIZEN

        role = record.roles.get(forfeit.seat)
        row.update(winner=None if role is None else ("spies" if role == CITIZEN else "citizens"),
                   forfeit=forfeit.reason)
    else:  # pragma: no cover - the simulators name their game
        raise ValueError(f"unknown game {game!r}")
    return row


def spyword_checker(run: Any):
    """The engine's clue checker for an isolated Spy's Word run: as in the plain run, the clue
    filter plus the translation check when the bots' backend is multilingual (built here, in the
    game process: the referee is never an agent)."""
    from agents.embeddings import DEFAULT_BACKEND, get_backend
    from agents.spyword import with_translation_check

    backend = (run.embedding_backends() or (DEFAULT_BACKEND,))[0]  # module.path:Class+backend: the backend
    if run.translation_check and len(get_backend(backend).languages) > 1:
        return with_translation_check(backend=backend)
    return None


def played_or_forfeited(game: str, index: int, record: Any, play, row, isolated: bool) -> tuple[dict, str]:
    """Play a dealt record (`play()`) and return its row and record JSON. Under --isolate an
    agent that fails (`AgentError`) forfeits the game for its side; otherwise the error stands."""
    from engine.records import record_to_json
    from experiments.games.moves import AgentError

    try:
        play()
    except AgentError as exc:
        if not isolated:
            raise
        forfeit = record_forfeit(record, exc)
        return forfeit_row(game, row(index, record), record, forfeit), record_to_json(record)
    return row(index, record), record_to_json(record)
