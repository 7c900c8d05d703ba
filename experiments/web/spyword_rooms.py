"""Spy's Word rooms of the web server (RULES 5; docs/spyword_web.md).

A host creates a room (a join code and link); players join from other browsers (many devices), or
the host adds the players around one phone (single device). The host's settings (RULES 5.14) are
set before the start; bots fill the empty seats. The server holds the game (`SpyWordState`); every
move is an engine action and the engine is the only judge. A browser receives only its own seat's
observation (`state.observe(seat)`), on a single device only the observation of the player who
has taken the phone (the "show my card" step), never anyone else's.

Timers run on the room's clock (`experiments.web.clock`): speaking 30 s, the discussion setting,
voting 30 s, the ghost's guess 45 / 60 s, the host's disconnection notice (1 min) and replacement
(2 min); when one runs out the room applies the engine's `Timeout`. A single device has no speaking,
vote or guess timer (the engine's `SpyWordSettings.timer_seconds`).

People's clues go through the same checker as the bots' in `cnlab simulate spyword`: the engine's
own checks, the project clue filter and the translation check of the bots' embeddings
(`agents.spyword.with_translation_check`) when they are multilingual.

The frames never say "spy" to a player who is not told so (RULES 5.1): the settings travel under
neutral names (`FRAME_KEYS`), titles and bot kinds have neutral ids, nothing of a frame names the
game; the role "spy" appears only where the rules tell it (the host's reveal setting, an eliminated
player's role, the end screen).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import secrets
import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from engine.errors import IllegalAction
from engine.refusals import _REFUSALS as REFUSAL_KINDS, refusal, wording
from engine.record_fields import MAX_SEED
from engine.records import record_from_json
from engine.spyword import (PASS, Disconnect, Dismiss, GhostGuess, GiveClue, Kick, Leave, Ready, Reconnect,
                            SpyWordSettings, StartVote, Timeout, Vote, deal_spyword)
from engine.spyword.settings import MAX_PLAYERS, MIN_PLAYERS, UNLIMITED

from experiments.records import write_record
from experiments.web.botthread import BotTimeout
from experiments.web.clock import Clock, Handle
from experiments.web.games import bot_seed, draw_seed, hash_token, is_token_hash, keep_ready
from experiments.web.messages import MAX_SEAT_SOCKETS, refusal_line, send
from experiments.web.profiles import DB_NAME, BadName, ProfileStore, check_database, clean_name, seat_results

log = logging.getLogger("cnlab.web.spyword")

PERSON, BOT = "person", "bot"
MULTI, SINGLE = "multi", "single"
LANGS = ("en", "ko")
CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ23456789"  # no vowels (and no Y): a code spells no word
CODE_LENGTH = 5
MAX_ROOMS = 500
MAX_CLUE_TEXT = 200
BOT_RETRIES = 20
DEFAULT_BOTS = {"standard": "spyword:use-m3", "easy": "spyword-random:use-m3"}
# the host settings the page sets (RULES 5.14); the timer lengths are the rulebook's
PAGE_SETTINGS = ("spies", "ghost", "reveal_spy_role", "reveal_eliminated_role", "vote_display", "allow_pass",
                 "clue_mode", "discussion_seconds", "tie_break")
FRAME_KEYS = {"spies": "minority", "reveal_spy_role": "tell_minority"}  # the frames' neutral names
PAGE_KEYS = {v: k for k, v in FRAME_KEYS.items()}
SETTINGS_MESSAGE = ("type", "seat", "stage", "settings", "players", "bot", "lang")  # a settings message's parts
GAME_MOVES = ("ready", "clue", "start_vote", "vote", "guess", "dismiss", "show", "hide")  # refused in the lobby
#: the fields of each message a page sends (docs/spyword_web.md), besides its type, seat and stage ('settings'
#: checks its own)
MESSAGE_FIELDS = {"start": (), "again": (), "leave": (), "kick": ("target",), "add_player": ("name", "profile"),
                  "ready": (), "clue": ("text",), "start_vote": (), "vote": ("target",), "guess": ("word",),
                  "dismiss": (), "show": (), "hide": ()}
CLUE_PHASES, VOTE_PHASES, SCREEN_PHASES = ("clues", "duel_clues"), ("vote", "duel_vote"), \
    ("ghost_guess", "private_screen")


class RoomError(ValueError):
    """A message or request the room refuses; nothing changes. `kind` and `fields` name it in the
    server's refusals table (`messages.REFUSALS`): `message` is its English, `text(language)` the line
    a page of a room in that language is told."""

    def __init__(self, kind: str, code: str = "bad_move", status: int = 400, **fields: Any):
        self.kind, self.fields = kind, fields
        self.message, self.code, self.status = refusal_line(kind, "en", **fields), code, status
        super().__init__(self.message)

    def text(self, language: str | None, names: Callable[[Any], Any] = lambda v: v) -> str:
        """The refusal in `language`; `names` words a seat's id in it (Korean: the player's name)."""
        if language != "ko":
            return self.message
        return refusal_line(self.kind, language, **{k: names(v) for k, v in self.fields.items()})


def check_request_fields(raw: dict, known: tuple[str, ...], what: str) -> None:
    """RoomError naming a field the request does not have: a misspelt one ('devce') would otherwise be
    dropped and its default played."""
    unknown = [str(k)[:30] for k in raw if k not in known]
    if unknown:
        raise RoomError("room_request_field", field=repr(unknown[0]), what=what, fields=", ".join(known))


def same_name(a: str, b: str) -> bool:
    """Do two names read the same (compared as the clue filter compares words: NFKC, case folded;
    'Ann', 'ann' and full-width 'Ａｎｎ')?"""
    return unicodedata.normalize("NFKC", a).casefold() == unicodedata.normalize("NFKC", b).casefold()


def frame_settings(settings: SpyWordSettings) -> dict:
    d = settings.to_dict()
    out = {FRAME_KEYS.get(k, k): d[k] for k in PAGE_SETTINGS}
    out["device"] = d["device"]
    return out


def parse_page_settings(current: SpyWordSettings, raw: Any) -> SpyWordSettings:
    """The host's settings from the page (frame names), on top of the current ones."""
    if not isinstance(raw, dict):
        raise RoomError("room_settings_object", "bad_settings")
    data = current.to_dict()
    for k, v in raw.items():
        name = PAGE_KEYS.get(k, k)
        if name not in PAGE_SETTINGS:
            raise RoomError("room_unknown_setting", "bad_settings", setting=repr(str(k)[:30]))
        data[name] = v
    try:
        return SpyWordSettings.from_dict(data)
    except Exception as exc:  # MalformedRecord: the engine's own message
        raise RoomError("room_bad_setting", "bad_settings", detail=str(exc)) from None


def role_problem(settings: SpyWordSettings, players: int) -> RoomError | None:
    """Why the host's role counts do not fit `players` seats (RULES 5.1, 5.2: the engine's
    `role_counts`), by kind; None when they fit."""
    from engine.spyword.settings import ghost_allowed, recommended_roles, spy_range

    try:
        settings.role_counts(players)
        return None
    except ValueError as exc:
        english = str(exc)
    spies, ghost = recommended_roles(players)
    spies = spies if settings.spies is None else settings.spies
    ghost = ghost if settings.ghost is None else settings.ghost
    lo, hi = spy_range(players)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        problem = RoomError("roles_players", "bad_settings", lo=MIN_PLAYERS, hi=MAX_PLAYERS, players=repr(players))
    elif not lo <= spies <= hi:
        problem = RoomError("roles_spies", "bad_settings", players=players, lo=lo, hi=hi, spies=repr(spies))
    elif ghost and not ghost_allowed(players):
        problem = RoomError("roles_ghost", "bad_settings", players=players)
    else:
        problem = RoomError("roles_outnumber", "bad_settings", players=players, citizens=players - spies - int(ghost),
                            spies=spies, ghost=int(ghost))
    # the engine's own words stay the English: a check added there and not here is still refused
    return problem if problem.message == english else RoomError("room_bad_setting", "bad_settings", detail=english)


# ----- the clue checker ------------------------------------------------------------------------------
class RoomChecker:
    """The engine's `clue_checker` of a room: the clue filter plus the translation check of the bots'
    backend (as `cnlab simulate spyword`). `prejudge` runs it in a worker thread (the first call loads
    the models); the engine's call in the event loop then finds the verdict ready. `trust`: while a
    record is replayed to resume it (its clues were judged when given)."""

    def __init__(self, backend: str):
        self.backend = backend
        self.trust = False
        self._check: Callable | None = None
        self._ready: dict[tuple, Any] = {}

    def base(self) -> Callable:
        if self._check is None:
            from agents.embeddings import get_backend
            from engine.spyword import default_clue_checker

            emb = get_backend(self.backend)
            if len(getattr(emb, "languages", ())) > 1:
                from agents.spyword import with_translation_check

                self._check = with_translation_check(backend=emb)
            else:
                self._check = default_clue_checker
        return self._check

    def judge(self, clue: str, word: str, language: str | None, mode: str):
        """The verdict; when the translation check fails (a model that cannot be loaded or raises),
        the engine's own checks judge the clue, as Codenames' referee does without its filter."""
        try:
            return self.base()(clue, word, language, mode)
        except Exception:  # noqa: BLE001 - logged; a person's clue must not drop the socket
            from engine.spyword import default_clue_checker

            log.exception("the clue checker of %s failed: the engine's checks judge this clue", self.backend)
            return default_clue_checker(clue, word, language, mode)

    def prejudge(self, clue: str, word: str, language: str | None, mode: str) -> None:
        keep_ready(self._ready, (clue, word, language, mode), self.judge(clue, word, language, mode))

    def __call__(self, clue: str, word: str, language: str | None, mode: str):
        if self.trust:
            return None
        key = (clue, word, language, mode)
        if key in self._ready:
            return self._ready.pop(key)
        return self.judge(clue, word, language, mode)


def engine_text(text: str, mode: str) -> str | None:
    """The clue as the engine will see it (its normalisation), or None when it refuses the text."""
    from engine.clues.normalize import MAX_CLUE_LENGTH, MAX_SENTENCE_LENGTH, ClueTextError, normalize_clue

    try:
        return normalize_clue(text, MAX_CLUE_LENGTH if mode == "word" else MAX_SENTENCE_LENGTH)
    except ClueTextError:
        return None


# ----- members and timers ----------------------------------------------------------------------------
@dataclass
class Member:
    id: str                      # the engine seat: p1, p2, ... for people, b1, b2, ... for bots
    kind: str
    name: str | None = None      # bots: None (the page names them "Bot n")
    token_hash: str | None = None
    profile: str | None = None
    n: int = 0                   # a bot's number

    def to_dict(self) -> dict:
        return {"id": self.id, "kind": self.kind, "name": self.name, "token_hash": self.token_hash,
                "profile": self.profile, "n": self.n}

    @classmethod
    def from_dict(cls, d: dict) -> "Member":
        return cls(d["id"], d["kind"], d.get("name"), d.get("token_hash"), d.get("profile"), int(d.get("n", 0)))


@dataclass
class Armed:
    kind: str
    key: tuple
    deadline: float
    total: float
    handle: Handle = field(repr=False, default=None)


# ----- a room ----------------------------------------------------------------------------------------
class Room:
    """One room: its members, the host's settings and, once started, the game. Every change happens
    in the event loop thread under `lock`."""

    def __init__(self, rooms: "RoomStore", code: str, device: str, lang: str, seed: int | None = None):
        self.rooms = rooms
        self.code = code
        self.device = device
        self.lang = lang
        self.seed = seed
        self.members: dict[str, Member] = {}
        self.host: str | None = None
        self.players = 6
        self.bot = next(iter(rooms.bot_kinds))
        self.settings = SpyWordSettings(device=device)
        self.phase = "lobby"        # lobby, playing, over
        self.games = 0
        self.game_id: str | None = None
        self.record = None
        self.state = None
        self.checker: RoomChecker | None = None
        self.result: dict | None = None
        self.error: str | None = None
        self.error_kind: dict | None = None   # {kind, fields} of `error` (messages.REFUSALS)
        self.sockets: dict[str, set] = {}
        self.lock = asyncio.Lock()
        self.version = 0
        self.timers: dict[str, Armed] = {}
        self.host_dropped: tuple[str, float] | None = None
        self.room_host_timer: Armed | None = None  # the lobby's and end screen's host gone (rearm_room_host)
        self.holder: str | None = None      # single device: the player who has the phone now
        self.agents: dict[str, Any] = {}
        self.bot_avoid: dict[str, list[str]] = {}
        self.driving = False
        self.thinking: str | None = None
        self.next_person = 1
        self.created = time.time()
        self.updated = self.created

    # ----- members -------------------------------------------------------------------------------
    def add_person(self, name: Any, profile: str | None = None, token: bool = True) -> tuple[Member, str | None]:
        if self.phase == "playing":
            raise RoomError("room_started", "started", 409)
        try:
            name = clean_name(name)
        except BadName as exc:
            raise RoomError(exc.kind, "bad_name", **exc.fields) from None
        persons = self.persons()
        if len(persons) >= MAX_PLAYERS:
            raise RoomError("room_full", "full", 409, n=MAX_PLAYERS)
        if any(same_name(m.name, name) for m in persons):
            raise RoomError("room_name_taken", "name_taken", 409, name=name)
        if profile and any(m.profile == profile for m in persons):
            raise RoomError("room_profile_taken", "profile_taken", 409)
        secret = secrets.token_urlsafe(16) if token else None
        member = Member(f"p{self.next_person}", PERSON, name, hash_token(secret) if secret else None, profile)
        self.next_person += 1
        self.members[member.id] = member
        if self.host is None:
            self.host = member.id
        self.players = max(self.players, len(self.persons()), MIN_PLAYERS)
        self.changed()
        return member, secret

    def persons(self) -> list[Member]:
        return [m for m in self.members.values() if m.kind == PERSON]

    def is_bot(self, seat: str) -> bool:
        m = self.members.get(seat)
        return m is not None and m.kind == BOT

    def member_for(self, token: Any) -> Member | None:
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        digest = hash_token(token)
        for m in self.members.values():
            if m.token_hash and hmac.compare_digest(m.token_hash, digest):
                return m
        return None

    def current_host(self) -> str | None:
        """The game's host while it is played (the engine moves it, RULES 5.12); the room's in the lobby
        and on the end screen."""
        return self.state.host if self.phase == "playing" and self.state is not None else self.host

    def present_host(self, prefer: str | None) -> str | None:
        """`prefer` when it is a person still in the room, else the first such person (never a bot,
        nor someone who left the game: they cannot start the next one)."""
        present = [m.id for m in self.persons() if not self.departed(m.id)]
        return prefer if prefer in present else next(iter(present), None)

    def departed(self, seat: str) -> bool:
        return self.state is not None and seat in self.state.departed

    def in_game(self) -> bool:
        return self.phase == "playing" and self.state is not None and not self.state.is_terminal()

    # ----- changes -------------------------------------------------------------------------------
    def changed(self) -> None:
        self.version += 1
        self.updated = time.time()

    def stage(self) -> str:
        """Where the room is, as a page's message names it (`"stage"`): the room's game, its round and
        phase and the clues given so far. It moves on with the game, not with another player's vote or
        a socket coming and going: a message sent again or late (a double click, a page re-sending after
        a reconnect, a vote of an earlier round) is refused, moves made side by side (a vote each) are not."""
        s = self.state
        if self.phase != "playing" or s is None:
            return f"{self.games}:{self.phase}"
        return f"{self.games}:{s.round}:{s.phase}:{len(s.clues)}"

    def apply(self, action) -> None:
        """An engine action: IllegalAction leaves everything unchanged."""
        self.state.apply(action)
        self.record.actions.append(action)
        self.after_action()

    def after_action(self) -> None:
        self.changed()
        if self.state.is_terminal() and self.phase == "playing":
            self.finish()
        self.save()
        self.rearm()
        self.rearm_room_host()

    def stop(self, kind: str, **fields: Any) -> None:
        """A bot failed: the game stops with the reason of `kind` (every seat reads it: `error` in English
        as the record keeps it, `error_kind` for a page to word it); no move is taken any more, its
        timers' time-outs neither."""
        self.error, self.error_kind = refusal_line(kind, "en", **fields), {"kind": kind, "fields": fields}
        self.changed()
        self.save()
        self.rearm()

    def finish(self) -> None:
        """The game is over (RULES 5.11-5.13): the profiles learn the result once."""
        self.phase = "over"
        self.holder = None
        self.host = self.present_host(self.state.host)
        self.result = {}
        seats = {m.id: m.profile for m in self.members.values() if m.kind == PERSON and m.profile}
        try:
            self.result = self.rooms.profiles.record_game(self.game_id, seats, seat_results(self.state))
        except Exception:  # a profile database problem must not lose the game
            log.exception("profiles not updated for %s", self.game_id)
        for pid in seats.values():
            self.rooms._badges.pop(pid, None)
        for armed in self.timers.values():
            armed.handle.cancel()
        self.timers.clear()

    def save(self) -> None:
        if self.record is None:
            return
        self.record.extra["web"] = {
            "room": self.code, "device": self.device, "lang": self.lang, "host": self.host,
            "members": [m.to_dict() for m in self.members.values()], "bots": self.bot_specs(),
            "status": "over" if self.phase == "over" else "playing", "result": self.result,
            "error": self.error, "created": self.created, "updated": self.updated, "game_number": self.games,
        }
        if self.error_kind:   # beside the English `error`: how a page words it (a record without one reads as before)
            self.record.extra["web"]["error_kind"] = self.error_kind
        write_record(self.record, self.rooms.records_dir / f"{self.game_id}.json")

    def bot_specs(self) -> dict[str, str]:
        return {m.id: self.rooms.bot_kinds[self.bot] for m in self.members.values() if m.kind == BOT}

    # ----- the lobby -----------------------------------------------------------------------------
    def set_settings(self, msg: dict) -> None:
        """Every part of the message is checked before any is applied: a refused one changes nothing."""
        unknown = [str(k)[:30] for k in msg if k not in SETTINGS_MESSAGE]
        if unknown:
            raise RoomError("room_settings_part", "bad_settings", part=repr(unknown[0]))
        settings, players, bot, lang = self.settings, self.players, self.bot, self.lang
        if "settings" in msg:
            settings = parse_page_settings(self.settings, msg["settings"])
        if "players" in msg:
            n = msg["players"]
            if isinstance(n, bool) or not isinstance(n, int) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
                raise RoomError("room_players", "bad_settings", lo=MIN_PLAYERS, hi=MAX_PLAYERS)
            if n < len(self.persons()):
                raise RoomError("room_seats", "bad_settings", n=len(self.persons()))
            players = n
        if "bot" in msg:
            if not isinstance(msg["bot"], str) or msg["bot"] not in self.rooms.bot_kinds:  # a list: unhashable
                raise RoomError("room_bot", "bad_settings", bots=", ".join(self.rooms.bot_kinds))
            bot = msg["bot"]
        if "lang" in msg:
            if msg["lang"] not in LANGS:
                raise RoomError("room_lang", "bad_settings")
            lang = msg["lang"]
        self.settings, self.players, self.bot, self.lang = settings, players, bot, lang
        self.changed()

    def role_problem(self) -> RoomError | None:
        """Why the host's role settings do not fit the seats (RULES 5.1, 5.2), or None."""
        return role_problem(self.settings, self.players)

    def start(self) -> None:
        """Deal (RULES 5.2-5.4): the people in joining order, then the bots."""
        persons = self.persons()
        n = max(self.players, len(persons))
        problem = role_problem(self.settings, n)
        if problem is not None:
            raise problem
        for m in [m for m in self.members.values() if m.kind == BOT]:
            del self.members[m.id]
        bots = []
        for k in range(1, n - len(persons) + 1):
            bot = Member(f"b{k}", BOT, None, n=k)
            self.members[bot.id] = bot
            bots.append(bot)
        seats = [m.id for m in persons] + [b.id for b in bots]
        self.games += 1
        seed = (self.seed + self.games - 1) % (MAX_SEED + 1) if self.seed is not None else draw_seed()
        record = deal_spyword(seed, self.rooms.packs(self.lang), n, self.settings, lang=self.lang, seats=seats)
        if self.host in seats:
            record.host = self.host
        self.checker = RoomChecker(self.rooms.backend_of(self.rooms.bot_kinds[self.bot]))
        self.state = record.new_state(clue_checker=self.checker)
        self.record = record
        self.game_id = self.rooms.new_game_id(self.code, self.games)
        self.phase, self.result, self.error, self.error_kind, self.holder = "playing", None, None, None, None
        self.agents, self.bot_avoid = {}, {}
        self.host_dropped = None
        for armed in self.timers.values():
            armed.handle.cancel()
        self.timers.clear()
        if self.device == MULTI:  # a person already gone from the room's sockets starts disconnected
            for m in persons:
                if not self.sockets.get(m.id):
                    self.state.apply(Disconnect(m.id))
                    record.actions.append(Disconnect(m.id))
        self.after_action()

    def again(self) -> None:
        """Back to the lobby after a game: the same people (not those who left), new bots at the start."""
        if self.phase != "over":
            raise RoomError("room_not_over", "not_over", 409)
        gone = set(self.state.departed) if self.state is not None else set()
        for seat in list(self.members):
            if self.members[seat].kind == BOT or seat in gone:
                del self.members[seat]
        if self.host not in self.members:
            self.host = next(iter(self.members), None)
        self.phase, self.state, self.record, self.game_id, self.result = "lobby", None, None, None, None
        self.players = max(self.players, len(self.persons()), MIN_PLAYERS)
        self.changed()
        self.rearm_room_host()

    def remove(self, seat: str) -> None:
        """A person leaves the lobby (or is removed by the host)."""
        self.members.pop(seat, None)
        if self.host == seat:
            self.host = self.present_host(None)
        self.changed()
        self.rearm_room_host()

    # ----- timers (RULES 5.4-5.6, 5.10, 5.12) ----------------------------------------------------
    def wanted_timers(self) -> dict[str, tuple[str, tuple, float, float]]:
        """slot -> (kind, key, deadline, seconds) of the timers that should run now."""
        s = self.state
        out: dict[str, tuple[str, tuple, float, float]] = {}
        if s is None or s.is_terminal() or self.error:  # a game a bot stopped: its clock stops too
            return out
        kind = ("speaker" if s.phase in CLUE_PHASES else "discussion" if s.phase == "discussion"
                else "vote" if s.phase in VOTE_PHASES else "ghost_guess" if s.phase in SCREEN_PHASES else None)
        now = self.rooms.clock.now()
        if kind is not None:
            secs = s.settings.timer_seconds(kind)
            if secs is not None:
                key = (kind, s.phase, s.round, len(s.clues), len(s.vote_log), len(s.eliminations),
                       tuple(s.speakers[:1]), s.pending)
                current = self.timers.get("phase")
                deadline = current.deadline if current and current.key == key else now + secs
                out["phase"] = (kind, key, deadline, secs)
        if s.settings.multi_device and s.host in s.disconnected:
            if self.host_dropped is None or self.host_dropped[0] != s.host:
                self.host_dropped = (s.host, now)
            since = self.host_dropped[1]
            kind = "host_replace" if s.host_notice_given else "host_notice"
            secs = s.settings.timer_seconds(kind)
            # a replacement refused for want of a connected player is spent until one is back: then it
            # is armed again, at its deadline already passed (the first player back takes over)
            heir = any(x != s.host and x not in s.disconnected for x in s.room())
            out["host"] = (kind, (kind, s.host, since, heir), since + secs, secs)
        else:
            self.host_dropped = None
        return out

    def rearm(self) -> None:
        wanted = self.wanted_timers()
        for slot in list(self.timers):
            if slot not in wanted or wanted[slot][1] != self.timers[slot].key:
                self.timers.pop(slot).handle.cancel()
        for slot, (kind, key, deadline, secs) in wanted.items():
            if slot in self.timers:
                continue
            armed = Armed(kind, key, deadline, secs)
            armed.handle = self.rooms.clock.call_at(deadline, lambda slot=slot, key=key: self.fire(slot, key))
            self.timers[slot] = armed

    async def fire(self, slot: str, key: tuple) -> None:
        async with self.lock:
            armed = self.timers.get(slot)
            if armed is None or armed.key != key or not self.in_game() or self.error:
                return
            self.timers.pop(slot)
            try:
                self.apply(Timeout(armed.kind))
            except IllegalAction as exc:  # e.g. nobody connected can take over as host
                log.info("time-out %s in %s not applied: %s", armed.kind, self.code, exc)
                self.timers[slot] = armed  # spent: not armed again until the situation changes
                self.rearm()
        await self.rooms.broadcast(self)
        self.rooms.kick_bots(self)

    def room_heir(self) -> str | None:
        """The first person connected who could take over from the room's host (not the host, not
        someone who left the game)."""
        return next((m.id for m in self.persons() if m.id != self.host and self.sockets.get(m.id)
                     and not self.departed(m.id)), None)

    def rearm_room_host(self) -> None:
        """The lobby and the end screen on many devices: only the host starts a game, so a host whose
        every page closed is replaced, as in the game (RULES 5.12), after the rulebook's 2 minutes by
        the first person connected; a host back in time stays host. Called after each change of the
        host or of the sockets."""
        due = (self.device == MULTI and self.phase != "playing" and self.host is not None
               and not self.sockets.get(self.host) and self.room_heir() is not None)
        armed = self.room_host_timer
        if armed is not None and (not due or armed.key != ("room_host", self.host)):
            armed.handle.cancel()
            self.room_host_timer = armed = None
        if due and armed is None:
            secs = self.settings.timer_seconds("host_replace")
            key = ("room_host", self.host)
            armed = Armed("room_host", key, self.rooms.clock.now() + secs, secs)
            armed.handle = self.rooms.clock.call_at(armed.deadline, lambda: self.fire_room_host(key))
            self.room_host_timer = armed

    async def fire_room_host(self, key: tuple) -> None:
        async with self.lock:
            armed = self.room_host_timer
            if armed is None or armed.key != key:
                return
            self.room_host_timer = None
            heir = self.room_heir()
            if self.phase == "playing" or self.sockets.get(self.host) or heir is None:
                return
            self.host = heir
            self.changed()
        await self.rooms.broadcast(self)

    def timer_view(self) -> dict | None:
        armed = self.timers.get("phase")
        if armed is None:
            return None
        left = max(0.0, armed.deadline - self.rooms.clock.now())
        return {"kind": armed.kind, "seconds": armed.total, "left": round(left, 1)}

    def host_offline_view(self) -> dict | None:
        """RULES 5.12: everyone is told of the host's dropped connection after the 1-minute notice."""
        s = self.state
        if not self.in_game() or s.host not in s.disconnected or not s.host_notice_given:
            return None
        armed = self.timers.get("host")
        left = max(0.0, armed.deadline - self.rooms.clock.now()) if armed else None
        return {"host": s.host, "replaced_in": None if left is None else round(left, 1)}

    # ----- what a browser receives ----------------------------------------------------------------
    def member_view(self, m: Member) -> dict:
        s = self.state
        if m.kind == BOT:
            connected = True
        elif self.device == SINGLE:  # every player is at the host's device
            connected = any(self.sockets.values())
        else:
            connected = bool(self.sockets.get(m.id))
        if self.in_game() and s.settings.multi_device and m.id == s.host and not s.host_notice_given:
            connected = True  # RULES 5.12: the host's drop is told after the notice only
        return {"id": m.id, "kind": m.kind, "name": m.name, "n": m.n, "connected": connected,
                "badge": self.rooms.badge(m.profile),
                "departed": self.departed(m.id)}

    def frame(self, viewer: str | None) -> dict:
        """The room as `viewer` sees it: on many devices the viewer's seat; on a single device the
        device (viewer None), with the private part of the player holding the phone only."""
        room = {
            "code": self.code, "phase": self.phase, "device": self.device, "lang": self.lang,
            "me": viewer, "host": self.current_host(), "version": self.version, "stage": self.stage(),
            "members": [self.member_view(m) for m in self.members.values()],
            "settings": frame_settings(self.settings), "players": self.players, "bot": self.bot,
            "role_problem": None, "role_problem_kind": None,
            "error": self.error if self.lang != "ko" or not self.error_kind else self.refusal_text(
                self.error_kind["kind"], self.error_kind["fields"]),
            "error_kind": self.error_kind, "thinking": self.thinking, "timer": self.timer_view(),
            "host_offline": self.host_offline_view(), "game": None, "holder": None,
        }
        problem = self.role_problem() if self.phase == "lobby" else None
        if problem is not None:   # in the room's language, as its refusals
            room["role_problem"] = problem.text(self.lang, self.name_of)
            room["role_problem_kind"] = {"kind": problem.kind, "fields": problem.fields}
        if self.state is not None:
            s = self.state
            if self.device == MULTI:
                if viewer in s.roles and viewer not in s.departed:
                    room["game"] = self.game_view(viewer, private=True)
            else:
                pub = next(x for x in s.seats if s.roles[x] != "ghost")  # a neutral public view
                room["game"] = self.game_view(pub, private=False)
                room["holder"] = self.holder
                if self.holder is not None:
                    room["private"] = self.game_view(self.holder, private=True)
                room["waiting"] = [x for x in s.to_act() if not self.is_bot(x)] if not s.is_terminal() else []
            if self.phase == "over":
                room["result"] = self.result or {}
                room["game_id"] = self.game_id
                room["category"] = self.record.pack.get("category")
        return room

    def game_view(self, seat: str, private: bool) -> dict:
        s = self.state
        o = s.observe(seat)
        public = {
            "phase": o.phase, "round": o.round, "host": o.host, "order": list(o.order), "to_act": list(o.to_act),
            "speaker": s.speaker, "clues": [dict(c) for c in o.clues], "eliminated": [dict(e) for e in o.eliminated],
            "departed": list(o.departed), "votes": [dict(v) for v in o.votes], "voted": list(o.voted),
            "candidates": list(o.vote_candidates), "pass_allowed": o.pass_allowed, "duel": list(o.duel),
            "ghost_guesses": [dict(g) for g in o.ghost_guesses], "report": o.report,
        }
        if not private:
            if not s.is_terminal():  # another seat's own wrong guess (hidden roles) stays with that seat
                public["ghost_guesses"] = [g for g in public["ghost_guesses"] if s.settings.reveal_eliminated_role]
            return public
        public.update(seat=o.seat, word=o.word, picture=o.picture, role=o.role, spectator=o.is_spectator,
                      my_vote=o.my_vote, private_screen=o.private_screen, you=self.you(seat, o))
        return public

    def you(self, seat: str, o) -> dict:
        """What `seat` may do now."""
        s = self.state
        if s.is_terminal() or seat in s.departed:
            return {}
        multi = s.settings.multi_device
        out: dict[str, Any] = {}
        if o.phase == "ready" and seat in o.to_act:
            out["ready"] = True
        if s.speaker == seat:
            out["clue"] = s.settings.clue_mode
        if o.phase == "discussion" and (seat == s.host or not multi):
            out["start_vote"] = True
        if o.phase in VOTE_PHASES and seat in o.to_act:
            out["vote"] = [c for c in o.vote_candidates if c != seat] + ([PASS] if o.pass_allowed else [])
        if o.private_screen:
            out["guess" if o.private_screen.get("kind") == "ghost_guess" else "dismiss"] = True
        if multi:
            out["leave"] = True
            if seat == s.host:
                out["kick"] = [x for x in s.room() if x != seat]
        return out

    def public_summary(self) -> dict:
        return {"code": self.code, "phase": self.phase, "device": self.device, "lang": self.lang,
                "people": len(self.persons()), "players": self.players,
                "host": (self.members[self.host].name if self.host in self.members else None)}

    # ----- refusals ------------------------------------------------------------------------------
    def name_of(self, value: Any) -> Any:
        """A seat's id (or ids joined by ', ') as a Korean page names it: the player's name, a bot's
        number; any other value as it is."""
        def one(seat: str) -> str | None:
            m = self.members.get(seat)
            if m is None:
                return None
            return m.name if m.kind == PERSON else f"봇 {m.n}"

        if not isinstance(value, str):
            return value
        names = [one(x) for x in value.split(", ")]
        return ", ".join(names) if all(names) else value

    def refusal_text(self, kind: str, fields: dict, lang: str | None = None) -> str:
        """A refusal or notice of either table (the server's, `messages.REFUSALS`; the engine's,
        `engine.refusals`) in the room's language (or `lang`), a seat named as its players know it."""
        from experiments.web.messages import REFUSALS

        lang = lang or self.lang
        named = {k: self.name_of(v) for k, v in fields.items()} if lang == "ko" else fields
        return refusal_line(kind, lang, **named) if kind in REFUSALS else wording(kind, lang, **named)

    def refusal(self, exc: IllegalAction | RoomError) -> dict:
        """The error frame of a refused message, worded in the room's language (a Korean room's pages are
        told in Korean, as a Korean board's); `kind` and `fields` name it. English unchanged."""
        frame = {"type": "error", "code": "illegal" if isinstance(exc, IllegalAction) else exc.code}
        if isinstance(exc, IllegalAction):
            frame["rule"] = exc.rule
        known = exc.kind is not None and (not isinstance(exc, IllegalAction) or exc.kind in REFUSAL_KINDS)
        text = self.refusal_text(exc.kind, exc.fields) if known and self.lang == "ko" else exc.message
        frame = {**frame, "message": text, "kind": exc.kind, "fields": exc.fields}
        if known:   # a Korean interface in a room of English words is told in Korean too (spyword.js)
            frame["message_ko"] = text if self.lang == "ko" else self.refusal_text(exc.kind, exc.fields, "ko")
        return frame

    # ----- moves from a browser ------------------------------------------------------------------
    def actor(self, member: Member, msg: dict) -> str:
        """The seat a game move is for: the socket's own (many devices), or the player holding the
        phone (single device; a move for another seat is refused)."""
        claimed = msg.get("seat")
        if self.device == MULTI:
            if claimed is not None and claimed != member.id:
                raise RoomError("room_not_your_seat", "not_your_seat", seat=member.id, claimed=str(claimed)[:30])
            return member.id
        if self.holder is None:
            raise RoomError("room_not_shown", "not_shown")
        if claimed is not None and claimed != self.holder:
            raise RoomError("room_phone", "not_your_seat", holder=self.holder, claimed=str(claimed)[:30])
        return self.holder

    def game_action(self, member: Member, msg: dict):
        """The engine action of a page's game move (the engine judges it)."""
        kind = msg["type"]
        s = self.state
        if kind == "start_vote":
            if self.device == SINGLE:
                return StartVote(self.holder or self.host)
            return StartVote(member.id)
        if kind in ("leave", "kick") and self.device == SINGLE:
            raise refusal("5.12", "sw_single_room")
        if kind == "leave":
            return Leave(member.id)
        if kind == "kick":
            target = msg.get("target")
            if not isinstance(target, str):
                raise RoomError("room_target_seat")
            return Kick(member.id, target)
        seat = self.actor(member, msg)
        if kind == "ready":
            return Ready(seat)
        if kind == "clue":
            text = msg.get("text")
            if not isinstance(text, str) or not text.strip():
                raise RoomError("room_clue_text", "bad_clue")
            if len(text) > MAX_CLUE_TEXT:
                raise RoomError("room_clue_long", "bad_clue", most=MAX_CLUE_TEXT)
            return GiveClue(seat, text)
        if kind == "vote":
            target = msg.get("target")
            if not isinstance(target, str) or not (target == PASS or target in s.roles):
                raise RoomError("room_target_vote")
            return Vote(seat, target)
        if kind == "guess":
            word = msg.get("word")
            if not isinstance(word, str) or not word.strip() or len(word) > MAX_CLUE_TEXT:
                raise RoomError("room_guess_word")
            return GhostGuess(seat, word)
        if kind == "dismiss":
            return Dismiss(seat)
        raise RoomError("room_unknown_move", type=repr(str(kind)[:20]))


def saved_error_kind(web: dict) -> dict | None:
    """The kind of a stopped game's error as `Room.save` writes it, or None (a record of before, or one
    hand-edited: the page is told the English, `game_stopped`)."""
    from experiments.web.messages import REFUSALS

    saved = web.get("error_kind")
    if not isinstance(saved, dict) or saved.get("kind") not in REFUSALS or not isinstance(saved.get("fields"), dict):
        return None
    try:
        refusal_line(saved["kind"], "ko", **saved["fields"])
        refusal_line(saved["kind"], "en", **saved["fields"])
    except (KeyError, IndexError, ValueError, TypeError):
        return None
    return {"kind": saved["kind"], "fields": saved["fields"]}


def check_members(web: dict, seats) -> None:
    """ValueError unless a saved game's room is what `Room.save` writes: each seat of the game one member
    of a known kind, a host among them, the packs' language known. A hand-edited or damaged file is skipped
    at restart with one line, never a game resumed with a seat nobody holds."""
    members = web.get("members")
    if not isinstance(members, list) or not all(isinstance(m, dict) and isinstance(m.get("id"), str)
                                                 for m in members):
        raise ValueError("web record field 'members' is not a list of members")
    ids = [m["id"] for m in members]
    for m in members:
        if ids.count(m["id"]) > 1 or m.get("kind") not in (PERSON, BOT):
            raise ValueError(f"web record field members.{m['id'][:20]}: "
                             + ("twice" if ids.count(m["id"]) > 1 else "its kind is person or bot"))
        digest = m.get("token_hash")   # hash_token's SHA-256 (none for a single device's players)
        if digest is not None and not is_token_hash(digest):
            raise ValueError(f"web record field members.{m['id'][:20]}: its token_hash is no SHA-256 of a link")
    missing = [str(seat)[:20] for seat in seats if seat not in ids]
    if missing:
        raise ValueError(f"web record field 'members': seat {missing[0]} of the game is no member")
    if web.get("host") is not None and web["host"] not in ids:
        raise ValueError(f"web record field 'host': {str(web['host'])[:20]} is no member")
    if web.get("lang") not in LANGS:
        raise ValueError(f"web record field 'lang': {str(web.get('lang'))[:20]} is not {' or '.join(LANGS)}")


# ----- every room of the server ----------------------------------------------------------------------
def _checked_packs(packs: dict[str, list[dict]] | None) -> dict[str, list[dict]] | None:
    """The word packs given to the server (RULES 5.3), each checked as the dealer wants it: a bad one
    (a word with a trailing space or a CR, one word twice) is a ValueError now, naming it, not a room
    whose game fails to start (or is dealt, then refused on the server's next start)."""
    if packs is None:
        return None
    from engine.spyword import check_pack

    for lang, given in packs.items():
        if lang not in LANGS:
            raise ValueError(f"packs: unknown language {lang!r} (en or ko)")
        if not isinstance(given, (list, tuple)) or not given:
            raise ValueError(f"packs[{lang!r}]: a non-empty list of word packs")
        for i, pack in enumerate(given):
            try:
                check_pack(pack)
            except ValueError as exc:
                raise ValueError(f"packs[{lang!r}][{i}]: {exc}") from None
    return packs


class RoomStore:
    """The rooms, the profiles, the bots and the timers of one server (`games_dir/spyword/` holds the
    records, `games_dir/profiles.sqlite3` the profiles)."""

    def __init__(self, games_dir: str | Path, clock: Clock, executor, bot_delay: float = 0.6,
                 bot_kinds: dict[str, str] | None = None, packs: dict[str, list[dict]] | None = None,
                 client_seeds: bool = False, bot_secret: bytes | None = None):
        self.dir = Path(games_dir)
        self.bot_secret = bot_secret or secrets.token_bytes(16)  # keys the bots' seeds (games.bot_seed)
        self.client_seeds = client_seeds  # a host may name the room's seed (and so deal its roles): research only
        self.records_dir = self.dir / "spyword"
        self.clock = clock
        self.executor = executor      # the server's one bot thread (models are never used by two threads;
        #                               a job past its time limit fails with BotTimeout: botthread.py)
        self.bot_delay = bot_delay
        self.bot_kinds = dict(bot_kinds or DEFAULT_BOTS)
        self._packs = _checked_packs(packs)
        self.rooms: dict[str, Room] = {}
        self.profiles: ProfileStore | None = None
        self.tasks: set[asyncio.Task] = set()
        self.warmed: set[tuple[str, str]] = set()
        self._badges: dict[str, dict | None] = {}   # profile -> its badge, until its next game
        check_database(self.dir / DB_NAME)  # a bad profiles file: a ValueError now, not a failed start

    # ----- life ----------------------------------------------------------------------------------
    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.clock.attach(loop)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.profiles = ProfileStore(self.dir / DB_NAME)
        self.resume()

    def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for room in self.rooms.values():
            for armed in [*room.timers.values(), *filter(None, [room.room_host_timer])]:
                armed.handle.cancel()
        if self.profiles is not None:
            self.profiles.close()

    def packs(self, lang: str) -> list[dict]:
        """The word packs of `lang`: the server's own where it was given them, else the shipped ones
        (a server given English packs only dealt its Korean rooms from nothing: a KeyError at the start)."""
        if self._packs is not None and lang in self._packs:
            return self._packs[lang]
        from experiments.games.spyword.dealing import load_packs

        return load_packs(lang)

    @staticmethod
    def backend_of(spec: str) -> str:
        from agents.registry import agent_backends

        return (agent_backends(spec) or ("use-m3",))[0]  # a bot by import path: the backend after its class

    def badge(self, pid: str | None) -> dict | None:
        """Level and title under a player's name (read once per profile until its next game)."""
        if not pid:
            return None
        if pid not in self._badges:
            self._badges[pid] = self.profiles.badge(pid)
        return self._badges[pid]

    def warm(self, room: Room) -> None:
        """Load the room's bot model and clue checker in the bot thread while the host is in the
        lobby (the default bot's first load takes a while); once per (bot, language)."""
        spec = self.bot_kinds[room.bot]
        key = (spec, room.lang)
        if key in self.warmed:
            return
        self.warmed.add(key)

        def load() -> None:
            try:
                from agents.registry import make_agent

                agent = make_agent("spyword", spec, room.lang)
                agent.model  # noqa: B018 - builds the shared vocabulary model
                RoomChecker(self.backend_of(spec)).base()
            except Exception:  # the first bot move reports it
                log.exception("warming %s (%s) failed", spec, room.lang)

        self.executor.submit(load)

    def new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms:
                return code

    def new_game_id(self, code: str, n: int) -> str:
        while True:
            game_id = f"{code}-{n}-{secrets.token_hex(2)}"
            if not (self.records_dir / f"{game_id}.json").exists():
                return game_id

    def get(self, code: Any) -> Room | None:
        return self.rooms.get(code.upper()) if isinstance(code, str) and len(code) <= 20 else None

    def create(self, raw: Any) -> tuple[Room, Member, str]:
        if not isinstance(raw, dict):
            raise RoomError("room_new_object")
        check_request_fields(raw, ("name", "device", "lang", "profile", "seed"), "a new room")
        device = raw.get("device", MULTI)
        if device not in (MULTI, SINGLE):
            raise RoomError("room_device")
        lang = raw.get("lang", "en")
        if lang not in LANGS:
            raise RoomError("room_lang")
        seed = raw.get("seed")
        if seed is not None and not self.client_seeds:
            raise RoomError("room_seed_named")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED):
            raise RoomError("room_seed")
        if len(self.rooms) >= MAX_ROOMS:
            self.forget_idle()
            if len(self.rooms) >= MAX_ROOMS:
                raise RoomError("room_rooms_full", "full", 503)
        profile = self.profile_of(raw.get("profile"))
        room = Room(self, self.new_code(), device, lang, seed)
        member, token = room.add_person(raw.get("name"), profile)
        self.rooms[room.code] = room
        self.warm(room)
        return room, member, token

    def profile_of(self, raw: Any) -> str | None:
        """A profile {id, key} of the request, checked; None when none is given."""
        if raw is None:
            return None
        if not isinstance(raw, dict) or not self.profiles.check(raw.get("id"), raw.get("key")):
            raise RoomError("room_bad_profile", "bad_profile", 403)
        return raw["id"]

    def join(self, code: Any, raw: Any) -> tuple[Room, Member, str]:
        room = self.get(code)
        if room is None:
            raise RoomError("room_unknown", "unknown_room", 404, room=repr(str(code)[:20]))
        if not isinstance(raw, dict):
            raise RoomError("room_join_object")
        check_request_fields(raw, ("name", "profile"), "a join request")
        if room.device == SINGLE:
            raise RoomError("room_single_device", "single_device", 409)
        member, token = room.add_person(raw.get("name"), self.profile_of(raw.get("profile")))
        return room, member, token

    def forget_idle(self, older: float = 6 * 3600) -> None:
        now = time.time()
        for code, room in list(self.rooms.items()):
            if room.phase != "playing" and not any(room.sockets.values()) and now - room.updated > older:
                del self.rooms[code]

    def finished_record(self, game_id: str) -> tuple[int, dict]:
        if not isinstance(game_id, str) or not all(c.isalnum() or c == "-" for c in game_id) or len(game_id) > 60:
            return 404, {"error": "no such game"}
        path = self.records_dir / f"{game_id}.json"
        if not path.exists():
            return 404, {"error": f"there is no game {game_id!r} on this server"}
        try:  # read as resume() reads it: strict JSON, UTF-8, no lone surrogate (a JSON answer could not hold one)
            text = path.read_text(encoding="utf-8")
            record_from_json(text)
            data = json.loads(text)
            web = data.get("web", {})
            if not isinstance(web, dict):
                raise ValueError("'web' is not an object")
        except Exception as exc:  # noqa: BLE001 - a damaged file is the server's to log, one error for the page
            log.warning("record %s is damaged: %s: %s", path.name, type(exc).__name__, exc)
            return 404, {"error": f"the record of game {game_id!r} on this server is damaged (it is not served)"}
        if web.get("status") != "over":
            return 409, {"error": "the game is still being played: its record opens when it ends"}
        if (data.get("settings") or {}).get("vote_display") == "counts":   # RULES 5.8: the votes stay secret
            return 403, {"error": "a counts-only game's record holds who voted for whom: it stays on the server, "
                                  "not served"}
        for m in web.get("members", []):
            m.pop("token_hash", None)
        return 200, data

    # ----- resuming after a restart --------------------------------------------------------------
    def resume(self) -> None:
        """Games in progress in the records folder go on (their timers start again); people come
        back with their links (a seat's token is kept hashed in the record)."""
        if not self.records_dir.exists():
            return
        for path in sorted(self.records_dir.glob("*.json")):
            try:
                record = record_from_json(path.read_text(encoding="utf-8"))
                web = record.extra.get("web") or {}
                if web.get("status") != "playing" or web.get("room") in self.rooms:
                    continue
                check_members(web, record.seats)
                room = Room(self, web["room"], web["device"], web["lang"])
                room.members = {d["id"]: Member.from_dict(d) for d in web["members"]}
                room.next_person = 1 + max((int(m.id[1:]) for m in room.persons()), default=0)
                room.host, room.games, room.created = web.get("host"), int(web.get("game_number", 1)), web["created"]
                specs = web.get("bots") or {}
                spec = next(iter(specs.values()), self.bot_kinds[room.bot])
                room.bot = next((k for k, v in self.bot_kinds.items() if v == spec), room.bot)
                room.players = len(record.seats)
                room.settings = record.settings
                room.checker = RoomChecker(self.backend_of(spec))
                room.checker.trust = True
                room.state = record.replay(clue_checker=room.checker)
                room.checker.trust = False
                room.record, room.game_id, room.phase = record, path.stem, "playing"
                room.error = web.get("error") or None  # a game a bot stopped stays stopped
                room.error_kind = saved_error_kind(web) if room.error else None
                if room.state.is_terminal():
                    continue
                if room.device == MULTI:  # nobody is connected after a restart (RULES 5.12)
                    for seat in room.state.room():
                        if not room.is_bot(seat) and seat not in room.state.disconnected:
                            room.apply(Disconnect(seat))
                room.save()
                room.rearm()
                self.rooms[room.code] = room
            except Exception as exc:  # a damaged file must not stop the server
                log.warning("skipped %s: %s: %s", path.name, type(exc).__name__, exc)
        for room in self.rooms.values():
            self.kick_bots(room)

    # ----- sending -------------------------------------------------------------------------------
    async def broadcast(self, room: Room) -> None:
        for seat, sockets in list(room.sockets.items()):
            if not sockets:
                continue
            if seat not in room.members or room.departed(seat):
                continue
            payload = {"type": "room", "room": room.frame(seat if room.device == MULTI else None)}
            for ws in list(sockets):
                await send(ws, payload)

    async def say_gone(self, room: Room, seat: str, reason: str) -> None:
        """A person who left or was removed: one last frame, then the sockets close."""
        for ws in list(room.sockets.pop(seat, set())):
            await send(ws, {"type": "gone", "reason": reason})
            try:
                await ws.close(code=4410)
            except Exception:
                pass

    # ----- bots ----------------------------------------------------------------------------------
    def kick_bots(self, room: Room) -> None:
        if not room.driving and room.in_game() and not room.error:
            task = asyncio.get_running_loop().create_task(self.drive(room))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    @staticmethod
    def bot_job(room: Room) -> tuple[str, Any] | None:
        s = room.state
        if not room.in_game() or room.error:
            return None
        for seat in s.to_act():
            if not room.is_bot(seat):
                continue
            if s.phase == "discussion":  # a bot starts the vote only as host of an unlimited discussion
                if not (s.settings.multi_device and s.settings.discussion_seconds == UNLIMITED and seat == s.host):
                    continue
            return seat, s.observe(seat)
        return None

    def make_agent(self, room: Room, seat: str):
        from agents.registry import make_agent

        agent = make_agent("spyword", room.rooms.bot_kinds[room.bot], room.lang)
        agent.begin_game(bot_seed(self.bot_secret, room.record.seed, seat, "bot", room.games))  # no way back to the deal
        return agent

    async def drive(self, room: Room) -> None:
        room.driving = True
        loop = asyncio.get_running_loop()
        try:
            while True:
                async with room.lock:
                    job = self.bot_job(room)
                    if job is None:
                        return
                    seat, obs = job
                    version, room.thinking = room.version, seat
                    agent = room.agents.get(seat)
                    avoid = list(room.bot_avoid.get(seat, []))
                    checker, mode, word = room.checker, room.state.settings.clue_mode, room.state.word_of(seat)
                await self.broadcast(room)
                started = time.monotonic()

                def think():
                    bot = agent or self.make_agent(room, seat)
                    action = bot.act(obs, avoid)
                    if isinstance(action, GiveClue) and word is not None:
                        text = engine_text(action.text, mode)
                        if text:
                            checker.prejudge(text, word, room.lang, mode)
                    return bot, action

                try:
                    bot, action = await loop.run_in_executor(self.executor, think)
                except (Exception, SystemExit) as exc:  # a bot's sys.exit ends its game, not the server
                    async with room.lock:
                        room.thinking = None
                        room.agents.pop(seat, None)   # a bot past the time limit may still be running in its thread
                        if isinstance(exc, BotTimeout):
                            log.warning("bot of seat %s in %s stopped: %s", seat, room.code, exc)
                        else:
                            log.exception("bot failed in %s", room.code)
                        room.stop("bot_failed", seat=seat, error=type(exc).__name__)   # as games.bot_failed
                    await self.broadcast(room)
                    return
                room.agents[seat] = bot
                wait = self.bot_delay - (time.monotonic() - started)
                if wait > 0:
                    await asyncio.sleep(wait)
                async with room.lock:
                    room.thinking = None
                    if room.version != version or not room.in_game() or action is None:
                        continue  # something changed meanwhile: think again on the new state
                    try:
                        room.apply(action)
                        room.bot_avoid.pop(seat, None)
                    except IllegalAction as exc:
                        tried = room.bot_avoid.setdefault(seat, [])
                        if isinstance(action, GiveClue) and len(tried) < BOT_RETRIES:
                            tried.append(action.text)  # refused by the checker: another clue
                        else:
                            # the rule only: the refusal quotes the clue, which holds the bot's word
                            room.stop("room_bot_illegal", seat=seat, rule=exc.rule)
                await self.broadcast(room)
        finally:
            room.thinking = None
            room.driving = False

    # ----- a socket's messages -------------------------------------------------------------------
    async def handle(self, room: Room, member: Member, msg: dict) -> dict | None:
        """One message of `member`'s page; an error payload (nothing changed) or None."""
        kind = msg["type"]
        gone: list[tuple[str, str]] = []
        fields = MESSAGE_FIELDS.get(kind)
        unknown = [str(k)[:30] for k in msg if fields is not None and k not in ("type", "seat", "stage", *fields)]
        if unknown:   # a misspelt field was dropped and the message played without it
            return room.refusal(RoomError("room_message_field", field=repr(unknown[0]), type=kind[:20],
                                          fields=", ".join(("type", "seat", "stage", *fields))))
        made_at = msg.get("stage")
        if made_at is not None and not isinstance(made_at, str):
            return room.refusal(RoomError("room_stage_field"))
        try:
            if kind == "clue" and room.in_game():  # the checker in the bot thread (it may load models)
                await self.prejudge(room, member, msg)
            async with room.lock:
                if room.error and room.in_game():
                    stopped = room.error_kind or {"kind": "game_stopped", "fields": {"error": room.error}}
                    raise RoomError(stopped["kind"], "game_stopped", 409, **stopped["fields"])
                if made_at is not None and made_at != room.stage():
                    raise RoomError("room_stale", "stale", 409, made=made_at[:40], now=room.stage())
                gone = self.handle_locked(room, member, msg)
        except (IllegalAction, RoomError) as exc:
            return room.refusal(exc)
        for seat, reason in gone:
            await self.say_gone(room, seat, reason)
        if not room.members:
            self.rooms.pop(room.code, None)
        await self.broadcast(room)
        self.kick_bots(room)
        return None

    async def prejudge(self, room: Room, member: Member, msg: dict) -> None:
        text = msg.get("text")
        try:
            seat = room.actor(member, msg)
        except RoomError:
            return
        s = room.state
        if not isinstance(text, str) or s.speaker != seat or s.word_of(seat) is None:
            return
        mode = s.settings.clue_mode
        norm = engine_text(text, mode)
        if norm:
            try:
                await asyncio.get_running_loop().run_in_executor(
                    self.executor, room.checker.prejudge, norm, s.word_of(seat), room.lang, mode)
            except BotTimeout:   # past the bot thread's limit: the clue is judged when it is played
                log.warning("clue check of %s in %s ran past the bot thread's limit", seat, room.code)

    def handle_locked(self, room: Room, member: Member, msg: dict) -> list[tuple[str, str]]:
        kind = msg["type"]
        is_host = member.id == room.current_host()
        if room.device == MULTI and kind != "show":  # a move for another seat changes nothing ('show' is
            room.actor(member, msg)                  # a single device's, refused below with its reason)
        if room.phase == "lobby":
            if kind == "leave":
                room.remove(member.id)
                return [(member.id, "left")]
            if kind in GAME_MOVES:
                raise RoomError("room_not_started", type=repr(str(kind)[:20]))
            if not is_host:
                raise RoomError("room_not_host", "not_host", 403)
            if kind == "settings":
                room.set_settings(msg)
                self.warm(room)
                return []
            if kind == "start":
                room.start()
                return []
            if kind == "kick":
                target = msg.get("target")
                if not isinstance(target, str) or target == member.id or target not in room.members:
                    raise RoomError("room_kick_target")
                room.remove(target)
                return [(target, "kicked")]
            if kind == "add_player":
                if room.device != SINGLE:
                    raise RoomError("room_join_code")
                profile = self.profile_of(msg.get("profile"))
                room.add_person(msg.get("name"), profile, token=False)
                return []
            raise RoomError("room_unknown_lobby", type=repr(str(kind)[:20]))
        if room.phase == "over":
            if kind == "again":
                if not is_host:
                    raise RoomError("room_not_host_again", "not_host", 403)
                room.again()
                return []
            if kind == "leave":
                room.remove(member.id)
                return [(member.id, "left")]
            raise RoomError("game_over", "game_over", 409)
        # playing
        if kind == "show":
            if room.device != SINGLE:
                raise RoomError("room_show")
            seat = msg.get("seat")
            if not isinstance(seat, str) or seat not in room.members or room.is_bot(seat) \
                    or seat not in room.state.roles:  # a list is no seat (and unhashable)
                raise RoomError("room_show_seat")
            room.holder = seat
            room.changed()
            return []
        if kind == "hide":
            if room.device != SINGLE:
                raise RoomError("room_hide")
            room.holder = None
            room.changed()
            return []
        action = room.game_action(member, msg)
        before = set(room.state.departed)
        room.apply(action)
        if room.device == SINGLE and not isinstance(action, StartVote):
            room.holder = None  # the player's turn is done: the phone goes on, the card hidden
        new = [x for x in room.state.departed if x not in before]
        return [(x, "kicked" if isinstance(action, Kick) else "left") for x in new if not room.is_bot(x)]

    async def connected(self, room: Room, member: Member, ws) -> bool:
        """A socket of `member` opened: a disconnected seat reconnects (RULES 5.12). False (nothing
        changed) when the seat already has MAX_SEAT_SOCKETS open."""
        async with room.lock:
            if len(room.sockets.get(member.id, ())) >= MAX_SEAT_SOCKETS:
                return False
            room.sockets.setdefault(member.id, set()).add(ws)
            s = room.state
            if room.device == MULTI and room.in_game() and member.id in s.disconnected:
                room.apply(Reconnect(member.id))
            else:
                room.changed()
            room.rearm_room_host()
        await self.broadcast(room)
        self.kick_bots(room)
        return True

    async def disconnected(self, room: Room, member: Member, ws) -> None:
        """A socket closed: the last one of a seat in a game on many devices is a Disconnect."""
        async with room.lock:
            sockets = room.sockets.get(member.id, set())
            sockets.discard(ws)
            s = room.state
            if (not sockets and room.device == MULTI and room.in_game() and member.id in s.roles
                    and member.id in s.room() and member.id not in s.disconnected):
                try:
                    room.apply(Disconnect(member.id))
                except IllegalAction:
                    pass
            else:
                room.changed()
            room.rearm_room_host()
        await self.broadcast(room)
