"""One registry of agents for every role of every game, by spec string.

    make_spymaster("margin:use-m3", "en")          a registered agent
    make_guesser("nearest:glove-50?noise=0.06")     with parameters
    make_spymaster("my_pkg.bots:MyMaster?x=1")      a third party's class, by import path
    make_agent("spyword", "spyword:use-m3", "ko")   Spy's Word seats

Roles: "spymaster" and "guesser" (Codenames, Pictures, Duet: agents.base.Spymaster / Guesser) and
"spyword" (a Spy's Word seat: agents.spyword.SpyWordAgent). An agent class is built as
`cls(spec, language)` with the parsed `AgentSpec`. Other packages add agents with
`register_agent(role, name, "module:Class")` or, without importing anything of ours first, with an
entry point in the group `codenames_lab.<role>` (name = the agent's spec name, value =
"module:Class"). docs/agents.md has a worked example.
"""

from __future__ import annotations

import importlib
import inspect
from importlib import metadata

from .base import Guesser, Spymaster
from .defaults import DEFAULT_GUESSERS, DEFAULT_SPYMASTERS
from .spec import AgentSpec, check_params, parse_spec

ROLES = ("spymaster", "guesser", "spyword")
ENTRY_POINT_GROUP = "codenames_lab.{role}"

_REGISTRY: dict[str, dict[str, str]] = {role: {} for role in ROLES}


def register_agent(role: str, name: str, target: str) -> None:
    """Make `name` a spec name of `role`, built by the class at `target` ("module:Class")."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}; roles: {', '.join(ROLES)}")
    # a name a spec can reach: parse_spec strips a spec, a tournament's list splits at ','
    if not isinstance(name, str) or not name or any(c in name for c in ":?+&=.,") \
            or any(c.isspace() or not c.isprintable() for c in name):
        raise ValueError(f"agent name {name!r} may not be empty or hold ':', '?', '+', '&', '=', '.', ',' or a space")
    module, _, cls = target.partition(":") if isinstance(target, str) else ("", "", "")
    if not cls.isidentifier() or not all(part.isidentifier() for part in module.split(".")):
        raise ValueError(f"an agent target is 'module:Class', not {target!r}")
    _REGISTRY[role][name] = target


for _name, _target in {
    "kim2019": "agents.spymasters:Kim2019Spymaster",
    "margin": "agents.spymasters:MarginSpymaster",
    "expected": "agents.spymasters:ExpectedValueSpymaster",
    "robust": "agents.spymasters.robust:RobustSpymaster",
    "random": "agents.baselines:RandomSpymaster",
}.items():
    register_agent("spymaster", _name, _target)
for _name, _target in {
    "nearest": "agents.guessers:NearestGuesser",
    "memory": "agents.guessers:MemoryGuesser",
    "duet-bayes": "agents.guessers:DuetBayesGuesser",
    "human": "agents.human_model:HumanLikeGuesser",
    "random": "agents.guessers:RandomGuesser",
}.items():
    register_agent("guesser", _name, _target)
register_agent("spyword", "spyword", "agents.spyword.bots:SpyWordBot")
register_agent("spyword", "spyword-random", "agents.spyword.bots:RandomSpyWordBot")
register_agent("spymaster", "llm", "agents.llm:LLMSpymaster")   # language models (docs/llm_agents.md)
register_agent("guesser", "llm", "agents.llm:LLMGuesser")
register_agent("spyword", "llm-spyword", "agents.llm:LLMSpyWordBot")
register_agent("spyword", "llm", "agents.llm:LLMSpyWordBot")

BASES = {"spymaster": Spymaster, "guesser": Guesser}


def default_spymaster(language: str = "en") -> str:
    return DEFAULT_SPYMASTERS.get(language, DEFAULT_SPYMASTERS["en"])


def default_guesser(language: str = "en") -> str:
    """The default pair's Duet guesser for a board language (agents.defaults)."""
    return DEFAULT_GUESSERS.get(language, DEFAULT_GUESSERS["en"])


def known_agents(role: str) -> dict[str, str]:
    """Every spec name of a role: registered ones and those of installed entry points."""
    table = dict(_REGISTRY[role])
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP.format(role=role)):
        table.setdefault(ep.name, ep.value)
    return table


def is_import_path(name: str) -> bool:
    """`my_pkg.bots` in `my_pkg.bots:MyMaster?x=1`: registered names never hold a dot."""
    return "." in name


def _target(spec: AgentSpec, role: str) -> str:
    if is_import_path(spec.name):
        if not spec.backends or not spec.backends[0].isidentifier():
            raise ValueError(f"a third-party {role} is 'module.path:ClassName[+backend][?key=value]', "
                             f"not {str(spec)!r}")
        return f"{spec.name}:{spec.backends[0]}"
    table = known_agents(role)
    if spec.name not in table:
        # a non-ASCII or unprintable name is shown escaped: 'r\u043ebust' (a Cyrillic o), not 'rоbust'
        shown = repr(spec.name) if spec.name.isascii() and spec.name.isprintable() else ascii(spec.name)
        raise ValueError(f"unknown {role} {shown}; known: {', '.join(sorted(table))} "
                         f"(or a class by import path, module.path:ClassName)")
    target = table[spec.name]
    module, _, cls = target.partition(":")   # an entry point's value may name a module alone
    if not cls.isidentifier() or not all(part.isidentifier() for part in module.split(".")):
        raise ValueError(f"{role} {spec.name!r} names {target!r}, not a 'module:Class' (an entry point of the "
                         f"group {ENTRY_POINT_GROUP.format(role=role)})")
    return target


def agent_class(spec: str | AgentSpec, role: str) -> type:
    """The class a spec names; ValueError (one line) when it cannot be found or is not an agent."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}; roles: {', '.join(ROLES)}")
    spec = parse_spec(spec) if isinstance(spec, str) else spec
    module, name = _target(spec, role).split(":")
    try:
        imported = importlib.import_module(module)
    except ImportError as exc:
        raise ValueError(f"{role} {str(spec)!r}: cannot import {module!r} ({exc})") from None
    except (Exception, SystemExit) as exc:   # noqa: BLE001 - the module's own code fails as it loads (a SyntaxError, a raise, sys.exit)
        raise ValueError(f"{role} {str(spec)!r}: importing {module!r} failed "
                         f"({type(exc).__name__}: {' '.join(str(exc).split())[:200]})") from None
    try:
        cls = getattr(imported, name)
    except AttributeError:
        raise ValueError(f"{role} {str(spec)!r}: {module!r} has no {name!r}") from None
    base = BASES.get(role)
    if base is None:
        from .spyword import SpyWordAgent as base
    if not (isinstance(cls, type) and issubclass(cls, base)):
        raise ValueError(f"{role} {str(spec)!r}: {module}:{name} is not a {base.__name__} subclass")
    if inspect.isabstract(cls):   # refused by check_spec, before a run claims its folder, not as it is built
        raise ValueError(f"{role} {str(spec)!r}: {module}:{name} does not implement "
                         f"{', '.join(sorted(cls.__abstractmethods__))}")
    return cls


def _agent_spec(spec: AgentSpec) -> AgentSpec:
    """What the class is given: for an import path, "module:Class" as the name, then the backends
    that follow the class (`pkg.bots:Mine+use-m3` gives backends ("use-m3",)) and the parameters."""
    if not is_import_path(spec.name):
        return spec
    return AgentSpec(f"{spec.name}:{spec.backends[0]}", spec.backends[1:], spec.params)


def agent_backends(spec: str | AgentSpec) -> tuple[str, ...]:
    """The backends a spec names, in order (for an import path, those after the class)."""
    return _agent_spec(parse_spec(spec) if isinstance(spec, str) else spec).backends


def models_read(spec: str | AgentSpec, role: str) -> frozenset[str]:
    """The models an agent reads clues with (its class's `models_read`), without building it."""
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    return agent_class(parsed, role).models_read(_agent_spec(parsed))


def pairing_kind(spymaster: str | AgentSpec, guesser_reads: frozenset[str]) -> str:
    """`self-play` when the spymaster reads a model the guesser reads, `no model` when either reads
    none (random), else `cross-model` (the realistic case)."""
    mine = models_read(spymaster, "spymaster")
    if not mine or not guesser_reads:
        return "no model"
    return "self-play" if set(map(_model_key, mine)) & set(map(_model_key, guesser_reads)) else "cross-model"


def _model_key(name: str) -> str:
    """What a model name loads (a model file however its path is written: `m.kv`, `./m.kv`), else the name."""
    from .embeddings.registry import backend_key

    try:
        return backend_key(name)
    except ValueError:
        return name


def _check_language(role: str, spec: str | AgentSpec, language) -> None:
    """ValueError for a board language no game has (word lists exist for en and ko): an agent built for
    'fr' or 'EN' failed only at its first clue, mid-game, and check_spec passed it."""
    from .wordlists import LANGUAGES

    if language not in LANGUAGES:
        raise ValueError(f"{role} {str(spec)!r}: unknown language {language!r}: {' or '.join(LANGUAGES)}")


def _one_model_once(role: str, spec: AgentSpec, given) -> None:
    """ValueError for one model named twice however spelled (`glove+glove-50`, `m.kv+./m.kv`), as
    check_spec says it: built, it counted twice in an ensemble or a guesser's mean. Names of the
    `embeddings=` a caller hands in are its own."""
    seen: dict[str, str] = {}
    for name in spec.backends:
        if name not in given and seen.setdefault(_model_key(name), name) != name:
            raise ValueError(f"{role} {str(spec)!r}: backend {name!r} is {seen[_model_key(name)]!r} named again "
                             "(one model, named once)")


def make_agent(role: str, spec: str | AgentSpec, language: str = "en", **kwargs):
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    cls = agent_class(parsed, role)
    _check_language(role, parsed, language)
    if not is_import_path(parsed.name) and getattr(cls, "reads_embeddings", True):
        given = kwargs.get("embeddings") or {}
        _one_model_once(role, parsed, given)
        from .embeddings.registry import check_language

        try:   # glove-50 on a Korean board: every card a stranger, said before any model loads
            check_language([b for b in parsed.backends or sorted(cls.models_read(parsed)) if b not in given], language)
        except ValueError as exc:
            raise ValueError(f"{role} {str(parsed)!r}: {exc}") from None
    try:
        agent = cls(_agent_spec(parsed), language, **kwargs)
    except (ValueError, TypeError) as exc:  # a bad parameter value: one line naming the spec
        raise ValueError(f"{role} {str(parsed)!r}: {exc}") from None
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - a third party's own constructor fails (a raise, sys.exit)
        if not is_import_path(parsed.name):
            raise
        raise ValueError(f"{role} {str(parsed)!r}: building it raised {type(exc).__name__}: "
                         f"{' '.join(str(exc).split())[:200]}") from exc
    agent.spec = str(parsed)
    return agent


def make_spymaster(spec: str | AgentSpec, language: str = "en") -> Spymaster:
    return make_agent("spymaster", spec, language)


def make_guesser(spec: str | AgentSpec, language: str = "en") -> Guesser:
    return make_agent("guesser", spec, language)


def played_params(spec: str, role: str) -> dict | None:
    """The parameters an agent of `spec` plays with: its class's defaults overlaid with the spec's own
    (a run folder keeps them, so a default changed since is noticed on resume). None for a class
    named by import path or one without a `defaults` dict: its settings are its own."""
    parsed = parse_spec(spec)
    if is_import_path(parsed.name):
        return None
    defaults = getattr(agent_class(parsed, role), "defaults", None)
    return {**defaults, **parsed.params} if isinstance(defaults, dict) else None


def check_models(cls, spec: AgentSpec) -> None:
    """ValueError for a model the built-in agent class `cls` would not find, without loading any:
    an unknown backend name, and for an agent that loads its models (random reads none) a path
    holding no model. An agent whose backend names no embedding (llm:local) is not asked."""
    from agents.embeddings.registry import check_backends, check_model_paths

    if getattr(cls, "reads_embeddings", True):
        check_backends(spec.backends)
        if cls.models_read(spec):
            check_model_paths(spec.backends)


def check_spec(spec: str, role: str, language: str | None = None) -> AgentSpec:
    """Validate a spec without loading any model: for clear errors before a run starts. A
    third-party class is imported (to check it exists and has the role's base) but not built.
    With `language`, a built-in backend that does not read it is refused too."""
    from agents.embeddings.registry import check_language

    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}; roles: {', '.join(ROLES)}")
    parsed = parse_spec(spec)
    cls = agent_class(parsed, role)
    if language is not None:
        _check_language(role, spec, language)
    if isinstance(getattr(cls, "defaults", None), dict) and not is_import_path(parsed.name):
        check_params(parsed, cls.defaults, f"{parsed.name} {role}", getattr(cls, "limits", None))
    if not is_import_path(parsed.name):
        try:   # an unknown model name or path: refused here, before a run claims its folder, not as the agent builds
            check_models(cls, parsed)
        except ValueError as exc:
            raise ValueError(f"{role} {spec!r}: {exc}") from None
    if language is not None and not is_import_path(parsed.name):
        try:   # which spec: a run names a spymaster and a guesser, each perhaps on glove-50
            check_language(parsed.backends, language)
        except ValueError as exc:
            raise ValueError(f"{role} {spec!r}: {exc}") from None
        if not parsed.backends:   # the backends it reads by default (human: use-m3+glove-50+minilm)
            defaults = sorted(cls.models_read(parsed))
            try:
                check_language(defaults, language)
            except ValueError as exc:
                raise ValueError(f"{role} {spec!r} reads {'+'.join(defaults)} by default: {exc}") from None
    if not is_import_path(parsed.name) and hasattr(cls, "check_setup"):
        try:
            cls.check_setup(parsed, language or "en")
        except ValueError as exc:
            raise ValueError(f"{role} {spec!r}: {exc}") from None
    return parsed
