"""What every game loop does with an agent's move: apply it through the rules, record it, and make
an illegal one the agent's error (a forfeit under --isolate), named as such."""

from __future__ import annotations

import numbers
from typing import Any

from engine import IllegalAction


class AgentError(RuntimeError):
    """An agent broke its contract (an illegal move, or no guess where one is required)."""


def ask(agent, method: str, *args, seat: str | None = None) -> Any:
    """`agent.method(*args)`, where what a trusted agent's own code raises is the agent's error: an
    AgentError naming the agent (and its `seat`, where one agent plays several), the call and the
    exception (chained as its cause), so that a run stops with that one line (a forfeit under
    --isolate) instead of a traceback from deep in the loop."""
    try:
        return getattr(agent, method)(*args)
    except AgentError:
        raise
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - any failure of third-party code is the agent's
        # (SystemExit too: a stray sys.exit() in a bot ended the whole run silently with its code)
        who = getattr(agent, "spec", type(agent).__name__) + ("" if seat is None else f" ({seat})")
        raise AgentError(f"{who} raised {type(exc).__name__} in {method}: "
                         f"{' '.join(str(exc).split())[:200]}") from exc


def prepare(agent) -> None:
    """`agent.prepare()` before the games (and the workers' fork): what an agent's own code raises there
    is its AgentError, as in `ask`, but for an extra the run needs that is not installed, which the
    command names as such."""
    try:
        ask(agent, "prepare")
    except AgentError as exc:
        from agents.embeddings.base import MissingBackendError
        from engine.clues.types import FilterUnavailable

        if isinstance(exc.__cause__, (MissingBackendError, FilterUnavailable)):
            raise exc.__cause__ from None
        raise


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


def agent_clue(decision: Any, agent, action: int, cards=None) -> tuple[Any, Any, dict]:
    """(word, number, intent) of a spymaster's answer for the Clue at index `action`: the answer is a
    `ClueDecision` whose targets and score a record can keep (`ClueDecision.intent`), its number as
    `clue_number` gives it; with `cards`, every target one of them (the clue giver's own agents: a
    record's intents name nothing else, docs/codenames.md). AgentError naming the agent otherwise,
    never an error deep in the loop."""
    from agents.base import ClueDecision

    if not isinstance(decision, ClueDecision):
        raise AgentError(f"{agent.spec} gave no clue: give_clue returns a ClueDecision(word, number), "
                         f"not {type(decision).__name__}")
    try:
        intent = decision.intent(action)
    except (TypeError, ValueError, OverflowError) as exc:
        raise AgentError(f"{agent.spec} gave a ClueDecision whose targets are no list of words or whose score "
                         f"is no number ({type(exc).__name__}: {exc})") from None
    stray = [t for t in intent["targets"] if cards is not None and t not in cards]
    if stray:
        raise AgentError(f"{agent.spec} gave a ClueDecision whose targets are not its own agents' cards: "
                         f"{', '.join(map(repr, stray))}"[:300])
    return decision.word, clue_number(decision.number), intent
