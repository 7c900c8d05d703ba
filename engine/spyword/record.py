"""Spy's Word game records: the plain-JSON interchange format, dealing and replay (RULES 5)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from ..errors import MalformedRecord
from ..record_fields import (LANGUAGES, RECORD_VERSION, added_fields, check_header, parse_actions, parse_seed,
                             replay_actions, shown, word_problem, check_deal_seed)
from .actions import SpyWordAction, action_from_dict
from .matching import same_clue
from .settings import SpyWordSettings, check_player_count
from .state import CITIZEN, GHOST, ROLES, SPY, ClueChecker, SpyWordState

#: A Spy's Word record's own fields; any other top-level field is an added one (`extra`).
FIELDS = ("game", "version", "seed", "lang", "pack", "citizen_word", "spy_word", "seats", "roles", "order", "host",
          "settings", "clue_filter", "actions")


@dataclass
class SpyWordRecord:
    """A dealt game and its actions. `pack` is the pack as dealt ({"id", "category", "words",
    "pictures"}); `citizen_word` / `spy_word` say which of its words went to which side (5.3)."""

    seats: list[str]
    roles: dict[str, str]
    citizen_word: str
    spy_word: str
    order: list[str]
    settings: SpyWordSettings = field(default_factory=SpyWordSettings)
    host: str | None = None
    seed: int | None = None
    lang: str | None = None
    pack: dict[str, Any] = field(default_factory=dict)
    clue_filter: bool = True
    actions: list[SpyWordAction] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)  # added fields, kept on round trip

    def pictures(self) -> tuple[str | None, str | None]:
        words, pics = self.pack.get("words") or [], self.pack.get("pictures") or []
        pic = dict(zip(words, pics))
        return pic.get(self.citizen_word), pic.get(self.spy_word)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "spyword", "version": RECORD_VERSION, "seed": self.seed, "lang": self.lang,
            "pack": dict(self.pack), "citizen_word": self.citizen_word, "spy_word": self.spy_word,
            "seats": list(self.seats), "roles": {s: self.roles[s] for s in self.seats}, "order": list(self.order),
            "host": self.host if self.host is not None else self.seats[0], "settings": self.settings.to_dict(),
            "clue_filter": self.clue_filter, "actions": [a.to_dict() for a in self.actions], **self.extra,
        }

    @classmethod
    def from_dict(cls, data: Any) -> "SpyWordRecord":
        check_header(data, ("spyword",), "Spy's Word")
        extra = added_fields(data, FIELDS)
        seats = data.get("seats")
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise MalformedRecord("'seats' must be a list of strings")
        roles = data.get("roles")
        if not isinstance(roles, dict) or not all(isinstance(r, str) for r in roles.values()):
            raise MalformedRecord("'roles' must be an object seat -> citizen / spy / ghost")
        order = data.get("order")
        if not isinstance(order, list) or not all(isinstance(s, str) for s in order):
            raise MalformedRecord("'order' must be a list of seats")
        for k in ("citizen_word", "spy_word"):
            if not isinstance(data.get(k), str):
                raise MalformedRecord(f"'{k}' must be a string")
            problem = word_problem(data[k])
            if problem is not None:
                raise MalformedRecord(f"RULES 5.3: '{k}' {shown(data[k])} {problem}")
        seed = parse_seed(data, lists=False)   # the lots are drawn from [seed, i] (engine.spyword.state)
        lang, host, pack = data.get("lang"), data.get("host"), data.get("pack", {})
        if lang is not None and (not isinstance(lang, str) or lang not in LANGUAGES):
            raise MalformedRecord(f"'lang' must be null or one of {', '.join(LANGUAGES)} (the languages Spy's Word "
                                  f"has packs in, RULES 5.3), not {shown(lang)}")
        if host is not None and not isinstance(host, str):
            raise MalformedRecord("'host' must be a seat")
        pack = _parse_pack(pack)
        if "words" in pack and sorted(pack["words"]) != sorted((data["citizen_word"], data["spy_word"])):
            raise MalformedRecord(f"RULES 5.3: the citizens' and the spies' words are the pack's two words, one each: "
                                  f"citizen_word {shown(data['citizen_word'])} and spy_word {shown(data['spy_word'])}"
                                  f" are not the pack's {shown(list(pack['words']))}")
        clue_filter = data.get("clue_filter", True)
        if not isinstance(clue_filter, bool):
            raise MalformedRecord("'clue_filter' must be true or false")
        parsed = parse_actions(data, action_from_dict)
        record = cls(
            seats=list(seats), roles=dict(roles), citizen_word=data["citizen_word"], spy_word=data["spy_word"],
            order=list(order), settings=SpyWordSettings.from_dict(data.get("settings", {})), host=host, seed=seed,
            lang=lang, pack=dict(pack), clue_filter=clue_filter, actions=parsed,
            extra=extra,
        )
        record.new_state()  # validate the deal itself (RULES 5.1-5.4)
        return record

    def new_state(self, clue_checker: ClueChecker | None = None) -> SpyWordState:
        return SpyWordState(self.seats, self.roles, self.citizen_word, self.spy_word, self.order, self.settings,
                            host=self.host, seed=self.seed or 0, language=self.lang, pictures=self.pictures(),
                            clue_checker=clue_checker, clue_filter=self.clue_filter)

    def replay(self, upto: int | None = None, clue_checker: ClueChecker | None = None) -> SpyWordState:
        """Apply the actions in order; an illegal one raises IllegalAction carrying its index."""
        return replay_actions(self.new_state(clue_checker), self.actions[:upto])


def _parse_pack(pack: Any) -> dict[str, Any]:
    """A record's pack: an object; when it names its words, a pack as `check_pack` wants it, with
    string ids, category and pictures (null for a word without one)."""
    if not isinstance(pack, dict):
        raise MalformedRecord("'pack' must be an object")
    for k in ("id", "category"):
        if pack.get(k) is not None and not isinstance(pack[k], str):
            raise MalformedRecord(f"'pack.{k}' must be a string")
    if "words" in pack or "pictures" in pack:
        try:
            check_pack(pack)
        except ValueError as exc:
            raise MalformedRecord(f"'pack': {exc}") from None
        for i, w in enumerate(pack["words"]):
            problem = word_problem(w)
            if problem is not None:
                raise MalformedRecord(f"RULES 5.3: pack.words[{i}] {shown(w)} {problem}")
        if not all(p is None or isinstance(p, str) for p in pack.get("pictures") or ()):
            raise MalformedRecord("'pack.pictures' names one picture (a string, or null) per word")
    return pack


def check_pack(pack: Any) -> dict[str, Any]:
    """A pack: two different words of one kind, each one a player's screen can show (`word_problem`),
    optional category, id and pictures (5.3)."""
    if not isinstance(pack, Mapping):
        raise ValueError("a pack must be an object")
    words = pack.get("words")
    if not (isinstance(words, (list, tuple)) and len(words) == 2 and all(isinstance(w, str) and w.strip() for w in words)
            and not same_clue(words[0], words[1])):  # "Tea" / "tea" is one word twice, as the game sees it
        raise ValueError(f"RULES 5.3: a pack holds two different words, not {shown(words)}")
    for w in words:  # what a record may hold (and the ghost can name, 5.10)
        problem = word_problem(w)
        if problem is not None:
            raise ValueError(f"RULES 5.3: the pack word {shown(w)} {problem}")
    pictures = pack.get("pictures")
    if pictures is not None and not (isinstance(pictures, (list, tuple)) and len(pictures) == 2
                                     and all(p is None or isinstance(p, str) for p in pictures)):
        raise ValueError("'pack.pictures' names one picture (a string, or null) per word")
    for k in ("id", "category"):   # as a record reads them (_parse_pack)
        if pack.get(k) is not None and not isinstance(pack[k], str):
            raise ValueError(f"'pack.{k}' must be a string, not {shown(pack[k])}")
    return {k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in pack.items()}


def deal_spyword(seed: int, packs: Sequence[Mapping[str, Any]], players: int = 6,
                 settings: SpyWordSettings = SpyWordSettings(), lang: str | None = None,
                 seats: Sequence[str] | None = None) -> SpyWordRecord:
    """A new game from a seed (RULES 5.2-5.4): a pack, which word the citizens get, the roles at
    random, and the shuffled clue order with the ghost never first in round 1.
    Raises ValueError on a bad player count or role setting (the CLI exits 2)."""
    check_deal_seed(seed, lists=False)
    check_player_count(players)
    if not packs:
        raise ValueError("no word packs to deal from")
    seats = list(seats) if seats is not None else [f"p{i}" for i in range(1, players + 1)]
    if len(seats) != players:
        raise ValueError("give one seat name per player")
    spies, ghost = settings.role_counts(players)
    rng = np.random.default_rng(seed)
    pack = check_pack(packs[int(rng.integers(len(packs)))])
    flip = int(rng.integers(2))
    citizen_word, spy_word = pack["words"][flip], pack["words"][1 - flip]
    deck = [SPY] * spies + [GHOST] * int(ghost) + [CITIZEN] * (players - spies - int(ghost))
    roles = {s: deck[i] for s, i in zip(seats, rng.permutation(players))}
    while True:  # uniform over the orders whose first speaker is not the ghost
        order = [seats[i] for i in rng.permutation(players)]
        if roles[order[0]] != GHOST:
            break
    return SpyWordRecord(seats=seats, roles=roles, citizen_word=citizen_word, spy_word=spy_word, order=order,
                         settings=settings, host=seats[0], seed=seed, lang=lang, pack=pack)


def replay_summary(state: SpyWordState) -> dict[str, Any]:
    """The one-object summary `cnlab replay` prints for a Spy's Word game."""
    return {
        "game": "spyword", "status": state.status(), "winner": state.winner, "winners": list(state.winners()),
        "rounds": state.round, "phase": state.phase, "eliminated": list(state.eliminated),
        "departed": list(state.departed), "citizen_word": state.citizen_word, "spy_word": state.spy_word,
        "roles": {s: state.roles[s] for s in state.seats}, "clues": sum(c["clue"] is not None for c in state.clues),
        "votes": len(state.vote_log), "host": state.host,
    }


def record_from_dict(data: Any) -> SpyWordRecord:
    return SpyWordRecord.from_dict(data)


__all__ = ["RECORD_VERSION", "ROLES", "SpyWordRecord", "check_pack", "deal_spyword", "record_from_dict",
           "replay_summary"]
