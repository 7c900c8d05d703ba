"""What every game loop does with an agent's move: apply it through the rules, record it, and make
an illegal one the agent's error (a forfeit under --isolate), named as such."""

from __future__ import annotations

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
