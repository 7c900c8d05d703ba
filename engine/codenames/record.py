"""Codenames / Pictures game records: the plain-JSON interchange format, dealing and replay.

{"game": "codenames" | "pictures", "version": 1, "seed": 7, "words": [...25 words or 20 card ids],
 "key": "RRBN...", "starts": "red", "config": {"variant": ..., "invalid_clue": ..., ...},
 "actions": [{"seat": "red-spymaster", "clue": "tree", "number": 2}, {"seat": "red-guesser",
 "guess": "apple"}, {"seat": "red-guesser", "stop": true}, {"seat": "red-spymaster", "cover": "x"}]}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ..actions import Action, action_from_dict
from ..record_fields import (RECORD_VERSION, board_language, check_header, check_words, parse_actions, parse_seed,
                             replay_actions)
from .config import GAMES, CodenamesConfig
from .key import CodenamesKey, generate_key
from .labels import two_player_label
from .state import CodenamesState, Referee


def _language_of(game: str, data: dict) -> str:
    """The language a record's clues are judged in when its config does not say: the board's
    script (Hangul -> 'ko', otherwise 'en'); a Pictures board is picture card ids, so there the
    script of the record's clues decides."""
    if game == "codenames":
        words = data.get("words")
        return board_language(words if isinstance(words, list) else ())
    actions = data.get("actions")
    return board_language(a.get("clue") for a in (actions if isinstance(actions, list) else ()) if isinstance(a, dict))


@dataclass
class CodenamesRecord:
    words: list[str]
    key: CodenamesKey
    config: CodenamesConfig = field(default_factory=CodenamesConfig)
    seed: int | list[int] | None = None  # what the board and key were dealt from
    actions: list[Action] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)  # added fields, kept on round trip

    @property
    def game(self) -> str:
        return self.config.game

    def to_dict(self) -> dict[str, Any]:
        config = {k: v for k, v in self.config.to_dict().items() if k != "game"}
        return {
            "game": self.game, "version": RECORD_VERSION, "seed": self.seed, "words": list(self.words),
            "key": self.key.letters, "starts": self.key.starts, "config": config,
            "actions": [a.to_dict() for a in self.actions], **self.extra,
        }

    @classmethod
    def from_dict(cls, data: Any) -> "CodenamesRecord":
        game = check_header(data, GAMES, "Codenames or Pictures")
        config = CodenamesConfig.from_dict(data.get("config", {}), game=game,
                                           board_language=_language_of(game, data))
        words = check_words(data.get("words"), config.board_size)
        key = CodenamesKey.parse(data.get("key"), data.get("starts"))
        key.validate(game, config.variant)
        seed = parse_seed(data)
        parsed = parse_actions(data, action_from_dict)
        known = {"game", "version", "seed", "words", "key", "starts", "config", "actions"}
        return cls(words=list(words), key=key, config=config, seed=seed, actions=parsed,
                   extra={k: v for k, v in data.items() if k not in known})

    def new_state(self, referee: Referee | None = None) -> CodenamesState:
        return CodenamesState(self.words, self.key, self.config, referee=referee)

    def replay(self, upto: int | None = None, referee: Referee | None = None) -> CodenamesState:
        """Apply the actions in order; an illegal one raises IllegalAction carrying its index."""
        return replay_actions(self.new_state(referee), self.actions[:upto])


def deal_codenames(seed: int | Sequence[int], board: Sequence[str],
                   config: CodenamesConfig = CodenamesConfig()) -> CodenamesRecord:
    """A new game from a seed: distinct board words (or picture card ids) and a uniform key."""
    pool = sorted(set(board))
    size = config.board_size
    if len(pool) < size:
        raise ValueError(f"need at least {size} distinct board cards, got {len(pool)}")
    rng = np.random.default_rng(seed)
    words = [pool[i] for i in rng.choice(len(pool), size=size, replace=False)]
    key = generate_key(rng, config.game, config.variant)
    return CodenamesRecord(words=words, key=key, config=config, seed=seed if isinstance(seed, int) else None)


def replay_summary(state: CodenamesState) -> dict[str, Any]:
    """The one-object summary `cnlab replay` prints for a Codenames or Pictures game."""
    outcome = state.outcome()
    return {
        "game": state.config.game, "variant": state.config.variant, "status": outcome.status,
        "winner": outcome.winner, "loss_reason": outcome.loss_reason, "turns_used": outcome.turns_used,
        "score": outcome.score, "score_label": two_player_label(outcome.score),
        "competition_score": outcome.competition_score,
        "agents_left": {t: state.agents_left(t) for t in ("red", "blue")},
    }


def record_from_dict(data: Any) -> CodenamesRecord:
    return CodenamesRecord.from_dict(data)
