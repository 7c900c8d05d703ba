"""The static configuration of a Duet game (RULES 3.3, 3.4, 3.10, 4.8)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ..errors import MalformedRecord

INVALID_CLUE_MODES = ("allow", "reject", "penalize")


@dataclass(frozen=True)
class DuetConfig:
    """Timer tokens and mistakes (a mission T-M), turn order and the clue referee.

    `mistakes=None` means no mistake limit (the base game and every T-T mission): all tokens
    start bystander side up. Otherwise `mistakes` tokens start bystander side up and the rest
    check side up (RULES 3.10).
    `invalid_clue`: `allow` (no referee), `reject` (an illegal clue raises, RULES 4) or
    `penalize` (RULES 4.8: one token is discarded, then the guesser still guesses); the referee
    needs the board's `language`.
    """

    timer_tokens: int = 9
    mistakes: int | None = None
    mission: str | None = None
    relaxed_order: bool = False
    invalid_clue: str = "allow"
    language: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.timer_tokens, bool) or not isinstance(self.timer_tokens, int) or self.timer_tokens < 1:
            raise MalformedRecord("config.timer_tokens must be a positive integer (RULES 3.3)")
        if self.mistakes is not None and (
            isinstance(self.mistakes, bool) or not isinstance(self.mistakes, int)
            or not 0 <= self.mistakes <= self.timer_tokens
        ):
            raise MalformedRecord("config.mistakes must be null or an integer 0..timer_tokens (RULES 3.10)")
        if self.invalid_clue not in INVALID_CLUE_MODES:
            raise MalformedRecord(f"config.invalid_clue must be one of {INVALID_CLUE_MODES}")
        if self.invalid_clue != "allow" and self.language not in ("en", "ko"):
            raise MalformedRecord("config.language must be 'en' or 'ko' when clues are refereed")

    @property
    def bystander_tokens(self) -> int:
        """Tokens that start bystander side up (RULES 3.10)."""
        return self.timer_tokens if self.mistakes is None else self.mistakes

    @property
    def check_tokens(self) -> int:
        return self.timer_tokens - self.bystander_tokens

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> "DuetConfig":
        if not isinstance(data, dict):
            raise MalformedRecord("config must be an object")
        known = set(cls.__dataclass_fields__)
        try:
            return cls(**{k: v for k, v in data.items() if k in known})
        except TypeError as exc:
            raise MalformedRecord(f"config: {exc}") from None
