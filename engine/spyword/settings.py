"""Spy's Word host settings (RULES 5.14) and the role counts they allow (RULES 5.1, 5.2)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ..errors import MalformedRecord
from ..record_fields import check_bool, check_choice, check_fields, shown

MIN_PLAYERS, MAX_PLAYERS = 4, 12
UNLIMITED = "unlimited"
DISCUSSION_TIMES = (60, 90, 120, UNLIMITED)
VOTE_DISPLAYS = ("public", "counts")
CLUE_MODES = ("word", "sentence")
TIE_BREAKS = ("duel", "lottery")
DEVICES = ("multi", "single")
MAX_TIMER_SECONDS = 86_400  # a timer of a day at most: the engine never waits, a driver's clock does


def spy_range(players: int) -> tuple[int, int]:
    """Allowed number of spies for a player count (RULES 5.2)."""
    if players <= 5:
        return (1, 1)
    if players <= 8:
        return (1, 2)
    return (1, 3)


def ghost_allowed(players: int) -> bool:
    """A ghost needs at least 5 players; there is never more than one (RULES 5.2)."""
    return players >= 5


def recommended_roles(players: int) -> tuple[int, bool]:
    """RULES 5.2: 4-5 players 1 spy; 6-8 1 spy + ghost; 9-12 2 spies + ghost."""
    check_player_count(players)
    if players <= 5:
        return (1, False)
    if players <= 8:
        return (1, True)
    return (2, True)


def check_player_count(players: Any) -> None:
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"RULES 5.1: Spy's Word is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players!r}")


def check_role_counts(players: int, spies: int, ghost: bool) -> None:
    """Raise ValueError unless the counts are allowed for this many players (RULES 5.1, 5.2)."""
    check_player_count(players)
    lo, hi = spy_range(players)
    if isinstance(spies, bool) or not isinstance(spies, int) or not lo <= spies <= hi:
        raise ValueError(f"RULES 5.2: {players} players allow {lo}-{hi} spies, not {spies!r}")
    if ghost and not ghost_allowed(players):
        raise ValueError(f"RULES 5.2: a ghost needs at least 5 players, not {players}")
    citizens = players - spies - int(ghost)
    if citizens <= spies + int(ghost):
        raise ValueError(
            f"RULES 5.2: citizens must outnumber spies + ghost at the start "
            f"({players} players: {citizens} citizens vs {spies} spies + {int(ghost)} ghost)")


@dataclass(frozen=True)
class SpyWordSettings:
    """Every host setting of RULES 5.14 with its default, plus how the table plays.

    spies / ghost          None = the recommended counts for the player count (RULES 5.2)
    reveal_spy_role        a spy sees "spy" next to its word (default off)
    reveal_eliminated_role an eliminated player's role is shown to all (default on, RULES 5.9)
    vote_display           "public" (who voted for whom, default) or "counts" (RULES 5.8)
    allow_pass             PASS may be voted (default off, RULES 5.6)
    clue_mode              "word" (one word, default) or "sentence" (RULES 5.4)
    discussion_seconds     60, 90 (default), 120 or "unlimited" (RULES 5.5)
    tie_break              "duel" (default) or "lottery" (RULES 5.7)
    device                 "multi" (each on their own phone, default) or "single" (one phone passed
                           around): decides the timers, who may start the vote, leaving and kicking.

    The timer lengths (whole seconds, 1..MAX_TIMER_SECONDS) are carried so that a driver with a
    clock knows when to send the clock's time-out actions; the engine itself never reads a clock
    (RULES 5.4-5.6, 5.10, 5.12). Every field is checked strictly: a boolean is a JSON true/false,
    a choice one of its values of the same type (90.0 is not 90).
    """

    spies: int | None = None
    ghost: bool | None = None
    reveal_spy_role: bool = False
    reveal_eliminated_role: bool = True
    vote_display: str = "public"
    allow_pass: bool = False
    clue_mode: str = "word"
    discussion_seconds: int | str = 90
    tie_break: str = "duel"
    device: str = "multi"
    speaker_seconds: int = 30
    vote_seconds: int = 30
    host_notice_seconds: int = 60
    host_replace_seconds: int = 120

    def __post_init__(self) -> None:
        for name in ("reveal_spy_role", "reveal_eliminated_role", "allow_pass"):
            check_bool(getattr(self, name), f"settings.{name}", "RULES 5.14")
        if self.ghost is not None and not isinstance(self.ghost, bool):
            raise MalformedRecord(f"settings.ghost must be true, false or null, not {shown(self.ghost)} (RULES 5.14)")
        if self.spies is not None and type(self.spies) is not int:
            raise MalformedRecord(f"settings.spies must be an integer or null, not {shown(self.spies)} (RULES 5.14)")
        choices = {"vote_display": VOTE_DISPLAYS, "clue_mode": CLUE_MODES, "discussion_seconds": DISCUSSION_TIMES,
                   "tie_break": TIE_BREAKS, "device": DEVICES}
        for name, allowed in choices.items():  # strict: 90.0 is not 90, true is not 1
            check_choice(getattr(self, name), allowed, f"settings.{name}", "RULES 5.14")
        for name in ("speaker_seconds", "vote_seconds", "host_notice_seconds", "host_replace_seconds"):
            value = getattr(self, name)
            if type(value) is not int or not 1 <= value <= MAX_TIMER_SECONDS:
                raise MalformedRecord(f"settings.{name} must be an integer 1..{MAX_TIMER_SECONDS}, not {shown(value)}")

    # ----- derived --------------------------------------------------------------------------
    def role_counts(self, players: int) -> tuple[int, bool]:
        """(spies, ghost) for this many players: the host's choice or the recommendation (RULES 5.2).
        Raises ValueError when the choice is outside the allowed range."""
        spies, ghost = recommended_roles(players)
        if self.spies is not None:
            spies = self.spies
        if self.ghost is not None:
            ghost = self.ghost
        check_role_counts(players, spies, ghost)
        return spies, ghost

    @property
    def multi_device(self) -> bool:
        return self.device == "multi"

    @property
    def ghost_guess_seconds(self) -> int | None:
        """RULES 5.10: 45 s with roles revealed, 60 s with roles hidden; no limit on a single device."""
        if not self.multi_device:
            return None
        return 45 if self.reveal_eliminated_role else 60

    def timer_seconds(self, kind: str) -> int | None:
        """Seconds before the clock's `timeout` of this kind is due; None = that timer does not run."""
        if kind == "discussion":
            return None if self.discussion_seconds == UNLIMITED else self.discussion_seconds
        if kind == "ghost_guess":
            return self.ghost_guess_seconds
        if not self.multi_device:  # RULES 5.4, 5.6, 5.12: a single device has no speaking, vote or host timer
            return None
        if kind in ("host_notice", "host_replace"):
            return self.host_notice_seconds if kind == "host_notice" else self.host_replace_seconds
        return {"speaker": self.speaker_seconds, "vote": self.vote_seconds}.get(kind)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> "SpyWordSettings":
        if not isinstance(data, dict):
            raise MalformedRecord("settings must be an object")
        check_fields(data, cls.__dataclass_fields__, "settings")
        return cls(**data)
