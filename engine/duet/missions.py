"""The mission map (RULES 3.10) as data: missions, their token limits, links and a team's progress."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ..errors import MalformedRecord
from .config import DuetConfig


@dataclass(frozen=True)
class Mission:
    """A mission T-M. `mistakes` or `links` are None where the rulebook does not give them."""

    id: str
    name: str
    timer_tokens: int
    mistakes: int | None
    links: tuple[str, ...] | None

    @property
    def label(self) -> str:
        return f"{self.name} {self.timer_tokens}-{'?' if self.mistakes is None else self.mistakes}"

    def config(self, **options: Any) -> DuetConfig:
        """The game configuration of this mission; T-T means no mistake limit."""
        if self.mistakes is None:
            raise MalformedRecord(
                f"the rulebook does not give the mistakes of mission {self.name!r}: "
                "supply a complete mission map file that gives them"
            )
        mistakes = None if self.mistakes == self.timer_tokens else self.mistakes
        return DuetConfig(timer_tokens=self.timer_tokens, mistakes=mistakes, mission=self.id, **options)


def _count(mission: Mapping, key: str) -> int:
    """A mission's token or mistake count: a whole number as JSON writes it (not "9", 9.5 or true)."""
    value = mission[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedRecord(f"malformed mission map: mission {mission.get('id')!r}: {key} must be a whole "
                              f"number, not {value!r}")
    return value


@dataclass(frozen=True)
class MissionMap:
    start: str
    missions: Mapping[str, Mission]

    @classmethod
    def from_dict(cls, data: Any) -> "MissionMap":
        if not isinstance(data, dict) or not isinstance(data.get("missions"), list):
            raise MalformedRecord("malformed mission map: a JSON object with 'start' and a list of 'missions'")
        try:
            missions = {}
            for m in data["missions"]:
                links = m.get("links")
                if m["id"] in missions:
                    raise MalformedRecord(f"malformed mission map: mission {m['id']!r} is given twice")
                missions[m["id"]] = Mission(
                    id=m["id"], name=m.get("name", m["id"]), timer_tokens=_count(m, "timer_tokens"),
                    mistakes=None if m.get("mistakes") is None else _count(m, "mistakes"),
                    links=None if links is None else tuple(links),
                )
            start = data["start"]
        except (KeyError, TypeError, ValueError) as exc:
            raise MalformedRecord(f"malformed mission map: {exc!r}") from None
        if start not in missions:
            raise MalformedRecord(f"mission map: start {start!r} is not a mission")
        for m in missions.values():
            for link in m.links or ():
                if link not in missions:
                    raise MalformedRecord(f"mission map: {m.id} links to unknown mission {link!r}")
        return cls(start, missions)

    def get(self, name: str) -> Mission:
        """A mission by id or by name, case-insensitive."""
        wanted = name.strip().lower()
        for m in self.missions.values():
            if wanted in (m.id.lower(), m.name.lower()):
                return m
        raise KeyError(f"unknown mission {name!r}; known: {', '.join(sorted(self.missions))}")

    def unlocked(self, completed: set[str] | frozenset[str] | list[str]) -> list[str]:
        """Missions a team may play: the start, every completed one, and those linked to a completed one."""
        done = {self.get(c).id for c in completed}
        open_ = {self.start} | done
        for mid in done:
            open_.update(self.missions[mid].links or ())
        return sorted(open_)
