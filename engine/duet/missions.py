"""The mission map (RULES 3.10) as data: missions, their token limits, links and a team's progress."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ..errors import MalformedRecord
from ..record_fields import check_fields, word_key
from .config import MAX_TIMER_TOKENS, DuetConfig

#: The fields of a map and of a mission (data/duet/missions.json); another one is refused, as a config's is:
#: a misspelt "link" would otherwise be dropped and the mission unlock nothing.
MAP_FIELDS = ("version", "source", "start", "missions")
MISSION_FIELDS = ("id", "name", "name_ko", "timer_tokens", "mistakes", "links", "not_in_rulebook")


@dataclass(frozen=True)
class Mission:
    """A mission T-M. `mistakes` or `links` are None where the rulebook does not give them.
    `name_ko`: the Korean rulebook's name of the city (카이로), where the map gives it."""

    id: str
    name: str
    timer_tokens: int
    mistakes: int | None
    links: tuple[str, ...] | None
    name_ko: str | None = None

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


def _count(mission: Mapping, key: str, low: int, high: int) -> int:
    """A mission's token or mistake count: a whole number as JSON writes it (not "9", 9.5 or true)
    in low..high (RULES 3.3: the box holds 11 tokens; 3.10: M of the T tokens are mistakes)."""
    if key not in mission:
        raise MalformedRecord(f"malformed mission map: mission {mission.get('id')!r}: {key} is missing (RULES 3.10)")
    value = mission[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise MalformedRecord(f"malformed mission map: mission {mission.get('id')!r}: {key} must be a whole "
                              f"number {low}..{high} (RULES 3.10), not {value!r}")
    return value


def _links(mission: Mapping) -> tuple[str, ...] | None:
    """A mission's links: null (not given) or a list of mission ids (RULES 3.10)."""
    links = mission.get("links")
    if links is None:
        return None
    if not isinstance(links, list) or not all(isinstance(link, str) for link in links):
        raise MalformedRecord(f"malformed mission map: mission {mission.get('id')!r}: links must be null or a "
                              f"list of mission ids, not {links!r}")
    return tuple(links)


@dataclass(frozen=True)
class MissionMap:
    start: str
    missions: Mapping[str, Mission]

    @classmethod
    def from_dict(cls, data: Any) -> "MissionMap":
        if not isinstance(data, dict) or "start" not in data or not isinstance(data.get("missions"), list):
            raise MalformedRecord("malformed mission map: a JSON object with 'start' and a list of 'missions'")
        check_fields(data, MAP_FIELDS, "malformed mission map")
        try:
            missions = {}
            for m in data["missions"]:
                if (not isinstance(m, dict) or not isinstance(m.get("id"), str) or not isinstance(m.get("name", ""), str)
                        or not isinstance(m.get("name_ko", ""), (str, type(None)))):
                    raise MalformedRecord(f"malformed mission map: a mission is an object with a text id (and name, "
                                          f"name_ko), not {m!r}")
                check_fields(m, MISSION_FIELDS, f"malformed mission map: mission {m['id']!r}")
                if m["id"] in missions:
                    raise MalformedRecord(f"malformed mission map: mission {m['id']!r} is given twice")
                tokens = _count(m, "timer_tokens", 1, MAX_TIMER_TOKENS)
                missions[m["id"]] = Mission(
                    id=m["id"], name=m.get("name", m["id"]), timer_tokens=tokens,
                    mistakes=None if m.get("mistakes") is None else _count(m, "mistakes", 0, tokens),
                    links=_links(m), name_ko=m.get("name_ko"),
                )
            start = data["start"]
        except MalformedRecord:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise MalformedRecord(f"malformed mission map: {exc!r}") from None
        if not isinstance(start, str) or start not in missions:
            raise MalformedRecord(f"mission map: start {start!r} is not a mission")
        named: dict[str, str] = {}   # every name `get` finds a mission by -> that mission's id
        for m in missions.values():
            for key in {word_key(n) for n in (m.id, m.name, m.name_ko) if n is not None}:
                if named.setdefault(key, m.id) != m.id:
                    raise MalformedRecord(f"malformed mission map: {key!r} names two missions "
                                          f"({named[key]!r} and {m.id!r}): ids, names and Korean names "
                                          "must each find one mission")
        for m in missions.values():
            for link in m.links or ():
                if link not in missions:
                    raise MalformedRecord(f"mission map: {m.id} links to unknown mission {link!r}")
        return cls(start, missions)

    def get(self, name: str) -> Mission:
        """A mission by id, by name or by its Korean name (카이로), as one word is read (`word_key`):
        case, Unicode form (a map written in decomposed Hangul) and spaces around it aside."""
        wanted = word_key(name)
        for m in self.missions.values():
            if wanted in {word_key(n) for n in (m.id, m.name, m.name_ko) if n is not None}:
                return m
        raise KeyError(f"unknown mission {name!r}; known: {', '.join(sorted(self.missions))}")

    def unlocked(self, completed: set[str] | frozenset[str] | list[str]) -> list[str]:
        """Missions a team may play: the start, every completed one, and those linked to a completed one."""
        done = {self.get(c).id for c in completed}
        open_ = {self.start} | done
        for mid in done:
            open_.update(self.missions[mid].links or ())
        return sorted(open_)
