"""The Spy's Word game loop: one bot per seat through the engine's rules (RULES 5), the host's
discussion closed at once; a refused clue is asked for again (up to 20 times)."""

from __future__ import annotations

import math
import numbers
from typing import Any

from engine.errors import IllegalAction
from engine.spyword import HOST, SpyWordRecord, StartVote
from engine.spyword.actions import Dismiss, GhostGuess, GiveClue, Ready, Vote

from experiments.games.moves import AgentError, ask

MAX_ACTIONS = 2000
BOT_MOVES = (Ready, GiveClue, StartVote, Vote, GhostGuess, Dismiss)  # what `SpyWordAgent.act` makes


def _last_belief(bot, seat: str) -> float | None:
    """A bot's last belief (its `belief_history`, what a game's row averages), a finite number; AgentError
    naming the bot otherwise (a NaN or Infinity made the run's games.jsonl no JSON, a text a traceback),
    as an isolated bot's is refused (experiments.isolation.protocol.beliefs_from_json)."""
    history = getattr(bot, "belief_history", None)
    if not history:
        return None
    last = history[-1]
    try:
        value = float(last) if isinstance(last, numbers.Real) and not isinstance(last, bool) else math.nan
    except OverflowError:   # an integer of hundreds of digits
        value = math.nan
    if not math.isfinite(value):
        raise AgentError(f"{getattr(bot, 'spec', bot)} ({seat}) gave a belief that is no finite number: "
                         f"{last!r}"[:300])
    return value


def bot_move_fault(action: Any, seat: str, host: str | None) -> str | None:
    """Why `action` is no move of `seat`'s bot (None when it is one): a bot plays its own seat's moves
    (ready, a clue, the vote start, a vote, the ghost's guess, closing its role screen), as "host" only
    when it is the host; leaving, kicking and the connection are the room's, time-outs the clock's."""
    if not isinstance(action, BOT_MOVES):
        return f"{type(action).__name__} is not a bot's move"
    if action.seat != seat and not (action.seat == HOST and seat == host):
        return (f"{seat} answered an action for seat {action.seat!r:.40}"
                + (" (it is not the host)" if action.seat == HOST else ""))
    return None


def _bot_move(bot: Any, seat: str, obs: Any, avoid: list[str]) -> Any:
    """The bot's move for `seat`; AgentError naming the bot when it is none of its own moves."""
    action = ask(bot, "act", obs, tuple(avoid), seat=seat) if avoid else ask(bot, "act", obs, seat=seat)   # a copy: the loop keeps its own count
    fault = bot_move_fault(action, seat, obs.host)
    if fault is not None:
        raise AgentError(f"{getattr(bot, 'spec', bot)} ({seat}) made no move of its own: {fault}: {action!r:.80}")
    return action


def play_game(record: SpyWordRecord, bots: dict[str, Any], checker=None) -> dict:
    """Play a dealt record to the end with one bot per seat; append the actions to the record.
    Returns play facts (clue refusals, beliefs) for the row."""
    state = record.new_state(clue_checker=checker)
    refusals = 0
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            break
        if state.phase == "discussion":
            action = StartVote(HOST)
        else:
            waiting = state.to_act()
            if not waiting:
                raise RuntimeError(f"nobody to act in phase {state.phase}")
            seat = waiting[0]
            obs = state.observe(seat)
            avoid: list[str] = []
            action = _bot_move(bots[seat], seat, obs, avoid)
            while True:
                try:
                    state.apply(action)
                    break
                except IllegalAction as exc:
                    if not hasattr(action, "text") or len(avoid) >= 20:
                        raise AgentError(f"{getattr(bots[seat], 'spec', bots[seat])} ({seat}) made an illegal "
                                         f"move {action}: {exc}") from exc
                    refusals += 1
                    avoid.append(action.text)
                    action = _bot_move(bots[seat], seat, obs, avoid)
            record.actions.append(action)
            continue
        state.apply(action)
        record.actions.append(action)
    else:
        raise AgentError(f"the game did not end within {MAX_ACTIONS} actions: a bot keeps it going "
                         f"({', '.join(sorted({str(getattr(b, 'spec', b)) for b in bots.values()}))})")
    beliefs = {s: _last_belief(b, s) for s, b in bots.items()}
    from agents.llm.seat import keep_log

    keep_log(record, bots.values())  # llm seats' moves (agents/llm)
    return {"state": state, "refusals": refusals, "beliefs": beliefs}
