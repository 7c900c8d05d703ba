"""Duet game records: the plain-JSON interchange format, dealing and replay."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ..actions import Action, action_from_dict
from ..errors import MalformedRecord
from ..record_fields import (RECORD_VERSION, added_fields, board_language, check_board, check_header, parse_actions,
                             parse_seed, replay_actions, distinct_words, check_deal_seed)
from .config import DuetConfig
from .key import BOARD_SIZE, DuetKey, generate_key
from .state import DuetState

#: A Duet record's own fields; any other top-level field is an added one (`extra`).
FIELDS = ("game", "version", "seed", "words", "key", "config", "actions")


@dataclass
class DuetRecord:
    words: list[str]
    key: DuetKey
    config: DuetConfig = field(default_factory=DuetConfig)
    seed: int | list[int] | None = None  # what the board and key were dealt from
    actions: list[Action] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)  # added fields, kept on round trip

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "duet", "version": RECORD_VERSION, "seed": self.seed,
            "words": list(self.words), "key": self.key.to_dict(), "config": self.config.to_dict(),
            "actions": [a.to_dict() for a in self.actions], **self.extra,
        }

    @classmethod
    def from_dict(cls, data: Any) -> "DuetRecord":
        check_header(data, ("duet",), "Duet")
        extra = added_fields(data, FIELDS)
        words = check_board(data.get("words"), BOARD_SIZE, "3.1", "a Duet board")
        key = data.get("key")
        if not isinstance(key, dict) or set(key) != {"A", "B"}:
            raise MalformedRecord("'key' must be an object with sides 'A' and 'B'")
        seed = parse_seed(data)
        parsed = parse_actions(data, action_from_dict)
        return cls(
            words=list(words), key=DuetKey(key["A"], key["B"]),
            config=DuetConfig.from_dict(data.get("config", {}), board_language=board_language(words)),
            seed=seed, actions=parsed,
            extra=extra,
        )

    def new_state(self) -> DuetState:
        return DuetState(self.words, self.key, self.config)

    def replay(self, upto: int | None = None) -> DuetState:
        """Apply the actions in order; an illegal one raises IllegalAction carrying its index."""
        return replay_actions(self.new_state(), self.actions[:upto])


def deal_duet(seed: int | Sequence[int], board_words: Sequence[str], config: DuetConfig = DuetConfig()) -> DuetRecord:
    """A new game from a seed: 25 distinct board words and a uniformly drawn key (RULES 3.1, 3.2).
    Words that are one word as 3.1 reads them (CRANE, Crane, crane) count once: the first in order."""
    check_deal_seed(seed)
    pool = distinct_words(board_words)
    if len(pool) < BOARD_SIZE:
        raise ValueError(f"need at least {BOARD_SIZE} distinct board words, got {len(pool)}")
    rng = np.random.default_rng(seed)
    words = [pool[i] for i in rng.choice(len(pool), size=BOARD_SIZE, replace=False)]
    key = generate_key(rng)
    return DuetRecord(words=words, key=key, config=config, seed=seed if isinstance(seed, int) else None)


def replay_summary(state: DuetState) -> dict[str, Any]:
    """The one-object summary `cnlab replay` prints for a Duet game."""
    outcome = state.outcome()
    return {
        "game": "duet", "status": outcome.phase, "greens_found": state.greens_found,
        "tokens_left": state.tokens_left, "turns_used": len(state.clue_seats),
        "mistakes": state.mistakes, "score": outcome.score, "loss_reason": outcome.loss_reason,
    }


def record_from_dict(data: Any) -> DuetRecord:
    return DuetRecord.from_dict(data)
