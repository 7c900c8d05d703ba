"""The fields every game record shares, parsed and checked once for all games."""

from __future__ import annotations

from typing import Any, Callable, Iterable

from .errors import IllegalAction, MalformedRecord

RECORD_VERSION = 1


def check_header(data: Any, games: Iterable[str], name: str) -> str:
    """A JSON object of one of `games`, at the supported version; returns its game."""
    if not isinstance(data, dict):
        raise MalformedRecord("a record must be a JSON object")
    game = data.get("game")
    if game not in tuple(games):
        raise MalformedRecord(f"not a {name} record (game={game!r})")
    if data.get("version") != RECORD_VERSION:
        raise MalformedRecord(f"unsupported record version {data.get('version')!r}")
    return game


def parse_seed(data: dict) -> int | None:
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise MalformedRecord("'seed' must be an integer or null")
    return seed


def replay_actions(state: Any, actions: Iterable) -> Any:
    """Apply actions in order; an illegal one raises IllegalAction carrying its index."""
    for i, action in enumerate(actions):
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise exc.at(i) from None
    return state


def parse_actions(data: dict, parse_one: Callable[[Any], Any]) -> list:
    """The record's actions, each parsed; a bad one is reported with its index."""
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise MalformedRecord("'actions' must be a list")
    parsed = []
    for i, a in enumerate(actions):
        try:
            parsed.append(parse_one(a))
        except MalformedRecord as exc:
            raise MalformedRecord(f"action {i}: {exc}") from None
    return parsed
