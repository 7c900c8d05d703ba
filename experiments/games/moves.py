"""What every game loop does with an agent's move: apply it through the rules, record it, and make
an illegal one the agent's error (a forfeit under --isolate), named as such."""

from __future__ import annotations

import numbers
from typing import Any

from engine import IllegalAction


class AgentError(RuntimeError):
    """An agent broke its contract (an illegal move, or no guess where one is required)."""


def apply_agent_action(state, record, action, agent) -> None:
    """Apply an agent's move and record it; an illegal move is the agent's error, named as such."""
    try:
        state.apply(action)
    except IllegalAction as exc:
        raise AgentError(f"{agent.spec} made an illegal move {action}: {exc}") from exc
    record.actions.append(action)


def clue_number(number: Any) -> Any:
    """A spymaster's clue number as the engine is to judge it: as given ("unlimited" is a Codenames
    number, RULES 1.2 and 1.7; 2.0, "2" or True are none), a numpy integer as the int it is (as an
    isolated agent's answer arrives, experiments/isolation/protocol.py)."""
    if isinstance(number, numbers.Integral) and not isinstance(number, bool):
        return int(number)
    return number
