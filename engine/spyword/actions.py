"""Spy's Word actions and their plain-JSON form in a record (RULES 5).

Every action names a `seat`: a player's seat ("p1".."pN" or a name), "host" for whoever is host
now (RULES 5.12), or "clock" for a time-out. The engine has no clock: a driver with a clock sends
`Timeout` actions when the timers of `SpyWordSettings` run out, so a test can time a vote out at
once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from ..errors import MalformedRecord

HOST, CLOCK, PASS = "host", "clock", "PASS"
TIMEOUTS = ("speaker", "discussion", "vote", "ghost_guess", "host_notice", "host_replace")


@dataclass(frozen=True)
class Ready:
    """The player has looked at its card and pressed "got it" (RULES 5.4: the round starts after)."""
    seat: str

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "ready": True}


@dataclass(frozen=True)
class GiveClue:
    """The current speaker's clue: one word or one sentence by the clue mode (RULES 5.4, 5.7)."""
    seat: str
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "clue": self.text}


@dataclass(frozen=True)
class StartVote:
    """End the discussion early (RULES 5.5: the host on many devices, anyone on one device)."""
    seat: str

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "start_vote": True}


@dataclass(frozen=True)
class Vote:
    """A vote for another remaining player, or PASS (RULES 5.6, 5.7)."""
    seat: str
    target: str

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "vote": self.target}


@dataclass(frozen=True)
class GhostGuess:
    """The eliminated ghost's one guess of the citizens' word (RULES 5.10)."""
    seat: str
    word: str

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "ghost_guess": self.word}


@dataclass(frozen=True)
class Dismiss:
    """An eliminated non-ghost closes its private role screen (RULES 5.9, roles hidden)."""
    seat: str

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "dismiss": True}


@dataclass(frozen=True)
class Leave:
    """The player leaves the room (RULES 5.12, many devices only)."""
    seat: str

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "leave": True}


@dataclass(frozen=True)
class Kick:
    """The host removes a player from the room (RULES 5.12, many devices only)."""
    seat: str
    target: str

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "kick": self.target}


@dataclass(frozen=True)
class Disconnect:
    """The player's connection drops; it stays in the game (RULES 5.12)."""
    seat: str

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "disconnect": True}


@dataclass(frozen=True)
class Reconnect:
    seat: str

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "reconnect": True}


@dataclass(frozen=True)
class Timeout:
    """A timer ran out: speaker (30 s), discussion, vote (30 s), ghost_guess (45/60 s),
    host_notice (1 min) or host_replace (2 min) (RULES 5.4-5.6, 5.10, 5.12)."""
    kind: str
    seat: str = CLOCK

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "timeout": self.kind}


SpyWordAction = Union[Ready, GiveClue, StartVote, Vote, GhostGuess, Dismiss, Leave, Kick, Disconnect,
                      Reconnect, Timeout]

_FLAGS = {"ready": Ready, "start_vote": StartVote, "dismiss": Dismiss, "leave": Leave,
          "disconnect": Disconnect, "reconnect": Reconnect}
_TEXTS = {"clue": GiveClue, "vote": Vote, "ghost_guess": GhostGuess, "kick": Kick}
KINDS = tuple(_FLAGS) + tuple(_TEXTS) + ("timeout",)


def action_from_dict(data: Any) -> SpyWordAction:
    """Parse one record action; raise MalformedRecord on a shape that is not a Spy's Word action."""
    if not isinstance(data, dict) or not isinstance(data.get("seat"), str):
        raise MalformedRecord("an action must be an object with a string 'seat'")
    seat = data["seat"]
    kinds = [k for k in KINDS if k in data]
    if len(kinds) != 1 or set(data) != {"seat", kinds[0]}:
        raise MalformedRecord(f"an action has 'seat' and exactly one of {', '.join(KINDS)}")
    kind = kinds[0]
    value = data[kind]
    if kind in _FLAGS:
        if value is not True:
            raise MalformedRecord(f"'{kind}' must be true")
        return _FLAGS[kind](seat)
    if not isinstance(value, str):
        raise MalformedRecord(f"'{kind}' must be a string")
    if kind == "timeout":
        if seat != CLOCK:
            raise MalformedRecord("a time-out comes from the seat 'clock'")
        if value not in TIMEOUTS:
            raise MalformedRecord(f"'timeout' must be one of {', '.join(TIMEOUTS)}")
        return Timeout(value)
    return _TEXTS[kind](seat, value)
