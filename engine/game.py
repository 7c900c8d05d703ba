"""The one contract every game keeps, and the one registry of games.

In the spirit of OpenSpiel and PettingZoo: a game is a static config plus a state that answers
the same questions (`GameState`), and `GAMES` names each game once. Everything that dispatches on a
game (records, replay, dealing, the simulators, play, the agents' observation adapters, the
contract test suite) reads this registry, so adding a game is one module and one line here.

The engine never imports the experiments layer: a spec names its harness (dealer, loop,
simulator, terminal play) by module path, resolved only by `experiments`.
"""

from __future__ import annotations

import importlib
import reprlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Literal, Protocol, runtime_checkable

from .errors import MalformedRecord

#: The shared status vocabulary: a game is being played, has ended by the rules, or was called
#: off before its end (Spy's Word, RULES 5.12: too few players left).
Status = Literal["playing", "finished", "aborted"]
STATUSES = ("playing", "finished", "aborted")


@dataclass(frozen=True)
class Outcome:
    """Common to every game's outcome: `status` in STATUSES; `winner` the winning side (Duet:
    "players" on a win; Codenames: "red"/"blue"; Spy's Word: "citizens"/"spies"/"ghost"), None
    while playing or on a loss of everyone; `reason`: how the losing side lost ("assassin",
    "out_of_tokens", ...), None on a plain win; `score`: the rulebook's score where it has one.
    Each game's outcome class extends this with its own fields."""

    status: str
    winner: str | None
    reason: str | None
    score: int | None

    @property
    def finished(self) -> bool:
        return self.status != "playing"


@runtime_checkable
class GameState(Protocol):
    """What every game state answers. `apply` raises `IllegalAction` (naming its RULES section)
    before any change, so an illegal action leaves the state exactly as it was."""

    @property
    def seats(self) -> tuple[str, ...]: ...

    def to_act(self) -> tuple[str, ...]: ...

    def legal_actions(self) -> list[Any]: ...

    def apply(self, action: Any) -> None: ...

    def observe(self, seat: str) -> Any: ...

    def is_terminal(self) -> bool: ...

    def outcome(self) -> Outcome: ...


@dataclass(frozen=True)
class GameSpec:
    """One registered game.

    `engine`: the package with the rules; `record`: the module with `record_from_dict(data)` and
    `replay_summary(state)`; `observation`: "module:Class" of the seat's view; `harness`: the
    experiments module with `deal_record(seed, lang, **options)`, `play_game` and `simulate`;
    `variants`: config dicts the contract suite deals every game under (refereed clues among them: the
    simulators play with `invalid_clue: reject`); `languages`: boards.
    """

    name: str
    title: str
    engine: str
    record: str
    observation: str
    harness: str
    variants: tuple[dict, ...] = ({},)
    languages: tuple[str, ...] = ("en", "ko")

    def record_module(self) -> ModuleType:
        return importlib.import_module(self.record)

    def record_from_dict(self, data: Any):
        return self.record_module().record_from_dict(data)

    def replay_summary(self, state) -> dict:
        return self.record_module().replay_summary(state)

    def observation_type(self) -> type:
        module, name = self.observation.split(":")
        return getattr(importlib.import_module(module), name)

    def harness_module(self) -> ModuleType:
        return importlib.import_module(self.harness)


GAMES: dict[str, GameSpec] = {}


def register_game(spec: GameSpec) -> GameSpec:
    if spec.name in GAMES:
        raise ValueError(f"game {spec.name!r} is already registered")
    GAMES[spec.name] = spec
    return spec


def game_spec(name: Any) -> GameSpec:
    """The spec of a registered game; MalformedRecord (one clear line) for anything else."""
    if not isinstance(name, str) or name not in GAMES:
        raise MalformedRecord(f"unknown game {reprlib.repr(name)}; known: {', '.join(GAMES)}")
    return GAMES[name]


def _variants(*names: str) -> tuple[dict, ...]:
    return tuple({"variant": v} for v in names)


register_game(GameSpec("duet", "Codenames Duet", "engine.duet", "engine.duet.record",
                       "engine.duet.observation:DuetObservation", "experiments.games.duet",
                       variants=({}, {"tokens": 11}, {"mission": "cairo"}, {"invalid_clue": "reject"},
                                 {"invalid_clue": "penalize"})))
register_game(GameSpec("codenames", "Codenames", "engine.codenames", "engine.codenames.record",
                       "engine.codenames.observation:CodenamesObservation", "experiments.games.codenames",
                       variants=_variants("teams", "two_player", "three_player", "single_team")
                       + ({"variant": "teams", "invalid_clue": "reject"}, {"variant": "two_player", "invalid_clue": "penalize"})))
register_game(GameSpec("pictures", "Codenames Pictures", "engine.codenames", "engine.codenames.record",
                       "engine.codenames.observation:CodenamesObservation", "experiments.games.codenames",
                       variants=_variants("teams", "two_player", "three_player", "assassin_ending")
                       + ({"variant": "teams", "invalid_clue": "reject"}, {"variant": "assassin_ending", "invalid_clue": "penalize"})))
register_game(GameSpec("spyword", "Spy's Word", "engine.spyword", "engine.spyword.record",
                       "engine.spyword.observation:SpyWordObservation", "experiments.games.spyword",
                       variants=({"players": 4}, {"players": 5}, {"players": 6}, {"players": 9}, {"players": 12})))

__all__ = ["GAMES", "STATUSES", "GameSpec", "GameState", "Outcome", "Status", "game_spec", "register_game"]
