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
from ..errors import MalformedRecord
from ..record_fields import (RECORD_VERSION, added_fields, board_language, check_board, check_header, parse_actions,
                             parse_seed, replay_actions, distinct_words, shown, check_deal_seed)
from .config import GAMES, CodenamesConfig
from .key import CodenamesKey, generate_key
from .labels import two_player_label
from .pictures import load_cards
from .state import CodenamesState, Referee

#: A Codenames or Pictures record's own fields; any other top-level field is an added one (`extra`).
FIELDS = ("game", "version", "seed", "words", "key", "starts", "config", "actions")


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
        extra = added_fields(data, FIELDS)
        config = CodenamesConfig.from_dict(data.get("config", {}), game=game,
                                           board_language=_language_of(game, data))
        if game == "codenames":
            words = check_board(data.get("words"), config.board_size, "1.1", "a Codenames board")
        else:
            words = check_board(data.get("words"), config.board_size, "2.1", "a Pictures board", "picture card ids")
            check_picture_cards(words)
        key = CodenamesKey.parse(data.get("key"), data.get("starts"))
        key.validate(game, config.variant)
        seed = parse_seed(data)
        parsed = parse_actions(data, action_from_dict)
        return cls(words=list(words), key=key, config=config, seed=seed, actions=parsed, extra=extra)

    def new_state(self, referee: Referee | None = None) -> CodenamesState:
        return CodenamesState(self.words, self.key, self.config, referee=referee)

    def replay(self, upto: int | None = None, referee: Referee | None = None) -> CodenamesState:
        """Apply the actions in order; an illegal one raises IllegalAction carrying its index."""
        return replay_actions(self.new_state(referee), self.actions[:upto])


def check_picture_cards(ids: Sequence[str]) -> None:
    """RULES 2.1: a Pictures board is picture cards, so every card id is one of the picture deck's
    (data/pictures/cards.json, `pictures.load_cards`)."""
    cards = load_cards()
    for i, card in enumerate(ids):
        if card not in cards:
            raise MalformedRecord(f"RULES 2.1: words[{i}] {shown(card)} is not a card of the picture deck "
                                  f"({len(cards)} cards, data/pictures/cards.json)")


def deal_codenames(seed: int | Sequence[int], board: Sequence[str],
                   config: CodenamesConfig = CodenamesConfig()) -> CodenamesRecord:
    """A new game from a seed: distinct board words (or picture card ids) and a uniform key. Words
    that are one word as RULES 1.1 reads them (CRANE, Crane, crane) count once: the first in order."""
    check_deal_seed(seed)
    pool = distinct_words(board)
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
