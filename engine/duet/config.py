"""The static configuration of a Duet game (RULES 3.3, 3.4, 3.10, 4.8)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import MalformedRecord
from ..record_fields import check_bool, check_choice, check_clue_options, check_fields, config_dict, shown

INVALID_CLUE_MODES = ("allow", "reject", "penalize")


#: The box holds 11 timer tokens: 9 for the base game, 10 or 11 make it easier (RULES 3.3, 3.10).
MAX_TIMER_TOKENS = 11
LANGUAGES = ("en", "ko")


@dataclass(frozen=True)
class DuetConfig:
    """Timer tokens and mistakes (a mission T-M), turn order and the clue referee.

    `timer_tokens`: 1..MAX_TIMER_TOKENS (11, what the box holds: RULES 3.3).
    `mistakes=None` means no mistake limit (the base game and every T-T mission): all tokens
    start bystander side up. Otherwise `mistakes` tokens start bystander side up and the rest
    check side up (RULES 3.10).
    `mission`: the mission's id on the map, or None. `relaxed_order`: true or false (RULES 3.4).
    `invalid_clue`: `allow` (no referee), `reject` (an illegal clue raises, RULES 4) or
    `penalize` (RULES 4.8: one token is discarded, then the guesser still guesses); the referee
    needs the board's `language` (`en`, `ko`, or None when nothing is refereed).
    The dataclass default is `allow` (what code that builds a config gets); a record's config
    without `invalid_clue` is refereed (`reject`, see `from_dict`).
    `clue_options`: the RULES 4.7 options the players agreed on (`record_fields.CLUE_OPTIONS`),
    off by default; the referee judges clues with them.
    Every field is checked strictly: a boolean is a JSON true/false, a choice one of its values.
    """

    timer_tokens: int = 9
    mistakes: int | None = None
    mission: str | None = None
    relaxed_order: bool = False
    invalid_clue: str = "allow"
    language: str | None = None
    clue_options: tuple[str, ...] = ()

    @property
    def scored(self) -> bool:
        """Whether a won game has a score: RULES 3.11 scores the 9-token game (Berlin's 11 tokens or
        Moscow's 8 have no score to compare)."""
        return self.timer_tokens == 9

    def __post_init__(self) -> None:
        object.__setattr__(self, "clue_options", check_clue_options(self.clue_options))
        if type(self.timer_tokens) is not int or not 1 <= self.timer_tokens <= MAX_TIMER_TOKENS:
            raise MalformedRecord(f"config.timer_tokens must be an integer 1..{MAX_TIMER_TOKENS} (the box holds "
                                  f"{MAX_TIMER_TOKENS}: RULES 3.3), not {shown(self.timer_tokens)}")
        if self.mistakes is not None and (
            type(self.mistakes) is not int or not 0 <= self.mistakes <= self.timer_tokens
        ):
            raise MalformedRecord("config.mistakes must be null or an integer 0..timer_tokens (RULES 3.10)")
        if self.mission is not None and not isinstance(self.mission, str):
            raise MalformedRecord(f"config.mission must be null or a mission's id, not {shown(self.mission)}")
        check_bool(self.relaxed_order, "config.relaxed_order", "RULES 3.4")
        check_choice(self.invalid_clue, INVALID_CLUE_MODES, "config.invalid_clue")
        check_choice(self.language, (None,) + LANGUAGES, "config.language")
        if self.invalid_clue != "allow" and self.language not in LANGUAGES:
            raise MalformedRecord("config.language must be 'en' or 'ko' when clues are refereed")

    @property
    def bystander_tokens(self) -> int:
        """Tokens that start bystander side up (RULES 3.10)."""
        return self.timer_tokens if self.mistakes is None else self.mistakes

    @property
    def check_tokens(self) -> int:
        return self.timer_tokens - self.bystander_tokens

    def to_dict(self) -> dict[str, Any]:
        return config_dict(self)

    @classmethod
    def from_dict(cls, data: Any, board_language: str | None = None) -> "DuetConfig":
        """A record's config. Fields it lacks take the dataclass defaults, except the referee's:
        a missing `invalid_clue` is `reject` (a record's clues are refereed unless it says
        `allow`), and when clues are refereed a missing or null `language` is `board_language`
        (the record's board: Hangul -> 'ko', otherwise 'en'). A field it does not know is
        refused (a misspelt `timer_token` would otherwise be dropped and the default played)."""
        if not isinstance(data, dict):
            raise MalformedRecord("config must be an object")
        check_fields(data, cls.__dataclass_fields__, "config")
        fields = dict(data)
        fields.setdefault("invalid_clue", "reject")
        if fields["invalid_clue"] != "allow" and fields.get("language") is None and board_language is not None:
            fields["language"] = board_language
        return cls(**fields)
