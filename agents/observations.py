"""Per-game observation adapters: what the spymasters and guessers need from each game's view.

One registration per observation type, beside the games it serves, instead of `hasattr` checks
scattered through the agents. A new Codenames-family game registers its observation class here
(or from its own module) with the family whose rules it follows and a clue-problem builder.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ObservationAdapter:
    """`family`: "duet" (two keys, timer tokens, RULES 3) or "codenames" (teams, one key, RULES 1-2);
    `clue_problem`: "module:function" building the spymasters' ClueProblem from the observation."""

    family: str
    clue_problem: str

    def problem(self, obs: Any, language: str):
        module, name = self.clue_problem.split(":")
        return getattr(importlib.import_module(module), name)(obs, language)


_ADAPTERS: dict[str, ObservationAdapter] = {}   # "module:Class" of the observation -> adapter
_BY_TYPE: dict[type, ObservationAdapter] = {}


def register_observation(observation: str, family: str, clue_problem: str) -> None:
    _ADAPTERS[observation] = ObservationAdapter(family, clue_problem)
    _BY_TYPE.clear()


def _types() -> dict[type, ObservationAdapter]:
    if not _BY_TYPE:
        for path, adapter in _ADAPTERS.items():
            module, name = path.split(":")
            _BY_TYPE[getattr(importlib.import_module(module), name)] = adapter
    return _BY_TYPE


def adapter_for(obs: Any) -> ObservationAdapter:
    """The adapter of an observation's type; TypeError for anything else (the state included:
    agents are handed observations, never the state; hidden information is a boundary)."""
    adapter = _types().get(type(obs))
    if adapter is None:
        names = ", ".join(t.__name__ for t in _types())
        raise TypeError(f"agents take an observation ({names}), not {type(obs).__name__}")
    return adapter


def observation_types() -> tuple[type, ...]:
    return tuple(_types())


register_observation("engine.duet.observation:DuetObservation", "duet", "agents.clue_problem:duet_problem")
register_observation("engine.codenames.observation:CodenamesObservation", "codenames",
                     "agents.clue_problem:codenames_problem")

__all__ = ["ObservationAdapter", "adapter_for", "observation_types", "register_observation"]
