"""The static configuration of a Codenames or Codenames Pictures game (RULES 1, 2, 4)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..errors import MalformedRecord
from ..record_fields import check_choice, check_clue_options, check_fields, config_dict, shown

GAMES = ("codenames", "pictures")
VARIANTS = ("teams", "two_player", "three_player", "single_team", "assassin_ending")
INVALID_CLUE_MODES = ("allow", "reject", "penalize")
THREE_PLAYER_MODES = ("shared_guesser", "two_guessers")
LANGUAGES = ("en", "ko")

# Which variants each game offers: the single-team protocol is the word game's (25 cards);
# the assassin ending is the Pictures rulebook's expert variant (RULES 2.3).
GAME_VARIANTS = {
    "codenames": ("teams", "two_player", "three_player", "single_team"),
    "pictures": ("teams", "two_player", "three_player", "assassin_ending"),
}


@dataclass(frozen=True)
class CodenamesConfig:
    """One game's rules.

    - `game`: `codenames` (25 words, RULES 1) or `pictures` (20 picture cards, RULES 2).
    - `variant`: `teams` (the base game), `two_player` (RULES 1.8, a team against a virtual
      opponent), `three_player` (RULES 1.9, see `three_player_mode`), `single_team` (the Codenames
      AI Competition protocol: 8 own / 7 opponent / 9 bystanders / 1 assassin, only red plays) or
      `assassin_ending` (RULES 2.3, Pictures only).
    - `three_player_mode`: `shared_guesser` (two competing spymasters, one guesser who plays both
      guesser seats: the rules of `teams`) or `two_guessers` (the two-player rules, two people on
      the guesser seat).
    - `invalid_clue`: `allow` (no referee), `reject` (an illegal clue raises IllegalAction,
      nothing changes) or `penalize` (RULES 1.6: the turn ends, the other spymaster covers one of
      their own agents before their next clue). The referee needs the clue `language` (`en`,
      `ko`, or None when nothing is refereed). The dataclass default is `allow` (what code that
      builds a config gets); a record's config without `invalid_clue` is refereed (`reject`,
      see `from_dict`).
    - `turn_time_limit`: RULES 1.10, an optional per-turn thinking limit in seconds for bots; the
      engine records it for a runner. The toolkit's runners do not read it: `--isolate
      --move-timeout` limits each move of an isolated agent (docs/isolation.md).
    - `clue_options`: the RULES 4.7 options the players agreed on (`record_fields.CLUE_OPTIONS`:
      multi-word compounds or proper nouns, abbreviations, ...), off by default; the referee
      judges clues with them, and in Pictures a multi-word clue is then allowed (RULES 2.2).
    """

    game: str = "codenames"
    variant: str = "teams"
    invalid_clue: str = "allow"
    language: str | None = None
    three_player_mode: str = "shared_guesser"
    turn_time_limit: float | None = None
    clue_options: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "clue_options", check_clue_options(self.clue_options))
        check_choice(self.game, GAMES, "game")
        check_choice(self.variant, GAME_VARIANTS[self.game], f"config.variant of {self.game}")   # the game's own
        check_choice(self.invalid_clue, INVALID_CLUE_MODES, "config.invalid_clue")
        check_choice(self.language, (None,) + LANGUAGES, "config.language")
        if self.invalid_clue != "allow" and self.language not in LANGUAGES:
            raise MalformedRecord("config.language must be 'en' or 'ko' when clues are refereed")
        check_choice(self.three_player_mode, THREE_PLAYER_MODES, "config.three_player_mode")
        t = self.turn_time_limit
        if t is not None and (type(t) not in (int, float) or not math.isfinite(t) or t <= 0):
            raise MalformedRecord("config.turn_time_limit must be null or a positive number (RULES 1.10)")

    # ----- derived rules -----------------------------------------------------------------------
    @property
    def board_size(self) -> int:
        return 25 if self.game == "codenames" else 20

    @property
    def grid(self) -> tuple[int, int]:
        """(rows, columns): 5x5 words (RULES 1.1), 5 wide and 4 high for pictures (RULES 2.1)."""
        return (5, 5) if self.game == "codenames" else (4, 5)

    @property
    def cooperative(self) -> bool:
        """One team against a virtual opponent who covers its own agents (RULES 1.8, 1.9)."""
        return self.variant == "two_player" or (
            self.variant == "three_player" and self.three_player_mode == "two_guessers")

    @property
    def single_team(self) -> bool:
        return self.variant == "single_team"

    @property
    def assassin_ending(self) -> bool:
        return self.variant == "assassin_ending"

    def to_dict(self) -> dict[str, Any]:
        return config_dict(self)

    @classmethod
    def from_dict(cls, data: Any, game: str | None = None, board_language: str | None = None) -> "CodenamesConfig":
        """A record's config. Fields it lacks take the dataclass defaults, except the referee's:
        a missing `invalid_clue` is `reject` (a record's clues are refereed unless it says
        `allow`), and when clues are refereed a missing or null `language` is `board_language`
        (the record's board words, or a Pictures game's clues: Hangul -> 'ko', otherwise 'en').
        A field it does not know is refused (a misspelt field would otherwise be dropped and its
        default played)."""
        if not isinstance(data, dict):
            raise MalformedRecord("config must be an object")
        check_fields(data, cls.__dataclass_fields__, "config")
        fields = dict(data)
        if game is not None:
            if fields.get("game", game) != game:
                raise MalformedRecord(f"config.game {shown(fields['game'])} does not match the record's game {game!r}")
            fields["game"] = game
        fields.setdefault("invalid_clue", "reject")
        if fields["invalid_clue"] != "allow" and fields.get("language") is None and board_language is not None:
            fields["language"] = board_language
        return cls(**fields)


# The Codenames AI Competition protocol (Kim et al., 2019) and the LLM benchmark built on it: one
# team (red, 8 agents) against 7 opponent cards that nobody plays; score = turns, a loss = 25.
COMPETITION = CodenamesConfig(game="codenames", variant="single_team")
NAMED_CONFIGS = {
    "standard": CodenamesConfig(),
    "pictures": CodenamesConfig(game="pictures"),
    "competition": COMPETITION,
}
