"""Agents by spec string: `make_spymaster("margin:use-m3", "en")`, `make_guesser("nearest:glove-50?noise=0.06", "en")`."""

from __future__ import annotations

import importlib

from .base import Guesser, Spymaster
from .spec import AgentSpec, parse_spec

SPYMASTERS = {
    "kim2019": "agents.spymasters:Kim2019Spymaster",
    "margin": "agents.spymasters:MarginSpymaster",
    "expected": "agents.spymasters:ExpectedValueSpymaster",
    "robust": "agents.spymasters.robust:RobustSpymaster",
    "random": "agents.baselines:RandomSpymaster",
}
GUESSERS = {
    "nearest": "agents.guessers:NearestGuesser",
    "memory": "agents.guessers:MemoryGuesser",
    "duet-bayes": "agents.guessers:DuetBayesGuesser",
    "human": "agents.human_model:HumanLikeGuesser",
    "random": "agents.guessers:RandomGuesser",
}


#: The default Duet pair: the most partner-robust spymaster of the leave-one-out partner panel
#: (docs/agents.md, `cnlab crossplay`) on models that cover the board language, with the guesser
#: that reads the default model. glove-50 is English only, so Korean boards use e5-small instead.
DEFAULT_SPYMASTERS = {"en": "robust:use-m3+glove-50", "ko": "robust:use-m3+e5-small?vocab=20000"}
DEFAULT_GUESSER = "duet-bayes:use-m3"


def default_spymaster(language: str = "en") -> str:
    return DEFAULT_SPYMASTERS.get(language, DEFAULT_SPYMASTERS["en"])


def _load(table: dict[str, str], spec: AgentSpec, role: str):
    if spec.name not in table:
        raise ValueError(f"unknown {role} {spec.name!r}; known: {', '.join(sorted(table))}")
    module, cls = table[spec.name].split(":")
    return getattr(importlib.import_module(module), cls)


def make_spymaster(spec: str | AgentSpec, language: str = "en") -> Spymaster:
    spec = parse_spec(spec) if isinstance(spec, str) else spec
    agent = _load(SPYMASTERS, spec, "spymaster")(spec, language)
    agent.spec = str(spec)
    return agent


def make_guesser(spec: str | AgentSpec, language: str = "en") -> Guesser:
    spec = parse_spec(spec) if isinstance(spec, str) else spec
    agent = _load(GUESSERS, spec, "guesser")(spec, language)
    agent.spec = str(spec)
    return agent


def check_spec(spec: str, role: str) -> AgentSpec:
    """Validate a spec without loading any model: for clear errors before a run starts."""
    parsed = parse_spec(spec)
    table = SPYMASTERS if role == "spymaster" else GUESSERS
    if parsed.name not in table:
        raise ValueError(f"unknown {role} {parsed.name!r}; known: {', '.join(sorted(table))}")
    return parsed
