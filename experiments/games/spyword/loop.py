"""The Spy's Word game loop: one bot per seat through the engine's rules (RULES 5), the host's
discussion closed at once; a refused clue is asked for again (up to 20 times)."""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction
from engine.spyword import HOST, SpyWordRecord, StartVote

from experiments.games.moves import AgentError

MAX_ACTIONS = 2000


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
            action = bots[seat].act(obs)
            avoid: list[str] = []
            while True:
                try:
                    state.apply(action)
                    break
                except IllegalAction:
                    if not hasattr(action, "text") or len(avoid) >= 20:
                        raise
                    refusals += 1
                    avoid.append(action.text)
                    action = bots[seat].act(obs, avoid)
            record.actions.append(action)
            continue
        state.apply(action)
        record.actions.append(action)
    else:
        raise AgentError(f"the game did not end within {MAX_ACTIONS} actions: a bot keeps it going "
                         f"({', '.join(sorted({str(getattr(b, 'spec', b)) for b in bots.values()}))})")
    beliefs = {s: (b.belief_history[-1] if getattr(b, "belief_history", None) else None) for s, b in bots.items()}
    from agents.llm.seat import keep_log

    keep_log(record, bots.values())  # llm seats' moves (agents/llm)
    return {"state": state, "refusals": refusals, "beliefs": beliefs}
