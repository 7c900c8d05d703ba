"""Games in play on the server: a `Table` per game (its record, engine state, seats, bots, sockets)
and the `TableStore` that deals new ones, saves each as a record after every change and resumes
the games of a folder after a restart.

A record is the engine's own (`engine.records.record_to_json`, replayable by `cnlab replay`) with
two added fields, kept on round trip: `intents` (the bots' intended targets, as the self-play
loops record them) and `web` (the seats, hashed seat tokens and what the engine does not hold:
who gives the first Duet clue, sudden-death passes, how an unfinished game ended).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from engine.records import record_from_json

from experiments.records import write_record
from experiments.web.games import (BOT, GAME_ID, PERSON, BadSetup, ServerFull, WebReferee, adapter_for, check_page_spec,
                                  check_settings, hash_token, is_token_hash)

log = logging.getLogger("cnlab.web")


def check_web_fields(web: Any, intents: Any, seats: list[str]) -> None:
    """ValueError unless a record's `web` and `intents` fields are what `Table.save` writes: a file
    edited by hand is skipped at load with one warning, never a server that answers 500 or drops a
    socket later."""
    def need(ok: bool, what: str) -> None:
        if not ok:
            raise ValueError(f"web record field {what}")

    def number(x) -> bool:
        return isinstance(x, (int, float)) and not isinstance(x, bool) and np.isfinite(x)

    need(isinstance(web, dict), "'web' is not an object")
    need(isinstance(web.get("seats", {}), dict), "'seats' is not an object")
    for seat, info in web.get("seats", {}).items():
        need(seat in seats and isinstance(info, dict) and info.get("kind") in (PERSON, BOT), f"seats.{seat!s:.20}")
        need(info["kind"] == PERSON or all(isinstance(info.get(r), str) for r in ("spymaster", "guesser")),
             f"seats.{seat}: a bot's specs")
    for seat in seats:   # a seat nobody holds: its game waited for ever for that seat's move
        need(seat in web.get("seats", {}), f"seats: seat {seat} is missing (the game plays {', '.join(seats)})")
    tokens = web.get("tokens", {})
    need(isinstance(tokens, dict) and all(s in seats and isinstance(t, str) for s, t in tokens.items()), "'tokens'")
    for seat, digest in tokens.items():   # hash_token's SHA-256: any other text no join link ever opens
        need(is_token_hash(digest), f"tokens: seat {seat}'s is no SHA-256 of a link")
    people = [s for s, info in web.get("seats", {}).items() if info["kind"] == PERSON]
    for seat in seats:   # a person's seat is its join link's: none, nobody plays it; one on a bot's, it moves for the bot
        need((seat in tokens) == (seat in people),
             f"tokens: seat {seat} " + ("is a person's and has no join link" if seat in people else
                                        "is a bot's and has a join link"))
    for key in ("first", "ended", "error"):
        need(web.get(key) is None or isinstance(web[key], str), f"'{key}'")
    need(isinstance(web.get("passes", []), list) and all(p in seats for p in web.get("passes", [])), "'passes'")
    bots = [s for s, info in web.get("seats", {}).items() if info["kind"] == BOT]
    need(web.get("first") in (None, "person", "bot") and (web.get("first") != "bot" or bots),
         "'first': the bot gives the first clue, and no seat is a bot's" if web.get("first") == "bot" else
         "'first' is person or bot")
    for key in ("created", "updated"):
        need(key not in web or number(web[key]), f"'{key}' is not a time")
    need(isinstance(intents, list) and all(isinstance(i, dict) and isinstance(i.get("action"), int)
                                           and not isinstance(i["action"], bool) and i["action"] >= 0
                                           and isinstance(i.get("targets", []), list)   # a view reads them
                                           and all(isinstance(t, str) for t in i.get("targets", []))
                                           for i in intents), "'intents'")



def text_kind(saved) -> dict | None:
    """A saved {kind, fields} of a game's English `ended` or `error` text, or None (a record of before, or
    one hand-edited: the page shows the English)."""
    if isinstance(saved, dict) and isinstance(saved.get("kind"), str) and isinstance(saved.get("fields"), dict):
        return {"kind": saved["kind"][:40], "fields": saved["fields"]}
    return None

class Table:
    """One game on the server. Every change happens in the event loop thread, under `lock`."""

    def __init__(self, game_id: str, record, path: Path):
        self.id = game_id
        self.record = record
        self.path = path
        self.adapter = adapter_for(record.to_dict()["game"])
        web = record.extra.setdefault("web", {})
        check_web_fields(web, record.extra.get("intents", []), self.adapter.seats_in_order(record))
        if getattr(record.config, "invalid_clue", "reject") != "reject":   # as TableStore.create deals every game
            raise ValueError(f"config.invalid_clue is {record.config.invalid_clue!r}: the web server refuses a clue "
                             "the filter refuses ('reject'), it neither allows nor penalizes it (RULES 1.6, 4.8)")
        self.seats: dict[str, dict] = web.get("seats", {})
        self.tokens: dict[str, str] = web.get("tokens", {})
        self.first: str | None = web.get("first")
        self.ended: str | None = web.get("ended")
        self.error: str | None = web.get("error")
        #: {kind, fields} of `ended` and `error` beside their English (a page words them by kind, app.js s_KIND)
        self.ended_kind: dict | None = text_kind(web.get("ended_kind")) if self.ended else None
        self.error_kind: dict | None = text_kind(web.get("error_kind")) if self.error else None
        self.passes: set[str] = set(web.get("passes", []))
        self.created: float = web.get("created", time.time())
        self.updated: float = web.get("updated", self.created)
        self.intents: list[dict] = list(record.extra.get("intents", []))
        self.referee = WebReferee()
        self.state = self.adapter.new_state(record, self.referee)
        for n, action in enumerate(record.actions):  # a game in progress resumes where it stopped
            try:
                self.state.apply(action)
            except Exception as exc:
                raise ValueError(f"action {n}: {exc}") from None
        self.referee.trust = False
        if self.passes:   # RULES 3.9: a seat holds back in sudden death only; all of them, and the game ended
            guessers = set(self.state.guessers()) if self.state.phase == "sudden_death" else set()
            if not self.passes <= guessers or (self.passes == guessers and self.ended is None):
                raise ValueError("web record field 'passes': a seat holds back only in sudden death (RULES 3.9)")
        if self.error and self.ended is None:  # saved by a server that left a stopped game in play
            self.ended, self.ended_kind = self.error, self.error_kind
        self.agents: dict[str, dict] = {}
        self.sockets: dict[str, set] = {seat: set() for seat in self.seats}
        self.lock = asyncio.Lock()
        self.thinking: str | None = None   # the bot seat whose move is being computed
        self.loading = False               # ... and it is loading its models first
        self.version = 0
        self.driving = False
        self.rng = np.random.default_rng([record.seed or 0, 0, 2])  # a bot's random covers

    # ----- seats ------------------------------------------------------------------------------------
    def is_bot(self, seat: str) -> bool:
        return self.seats.get(seat, {}).get("kind") == BOT

    def seat_for(self, token: Any) -> str | None:
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        digest = hash_token(token)
        for seat, known in self.tokens.items():
            if hmac.compare_digest(known, digest):
                return seat
        return None

    def person_seats(self) -> list[str]:
        return [s for s in self.adapter.seats_in_order(self.record) if self.seats.get(s, {}).get("kind") == PERSON]

    @property
    def over(self) -> bool:
        return self.adapter.over(self)

    @property
    def lang(self) -> str:
        return self.record.config.language or "en"

    # ----- changes ----------------------------------------------------------------------------------
    def apply(self, action) -> None:
        """An engine action: IllegalAction leaves everything unchanged."""
        self.state.apply(action)
        self.record.actions.append(action)
        self.adapter.after_action(self, action)
        self.changed()

    def stop(self, reason: str, kind: dict | None = None) -> None:
        """A bot failed: the game ends unfinished with `reason` (every seat and the listing read it; `kind`:
        its {kind, fields}, for a page to word it). No seat can move any more, so it is over: both keys on
        the end screen, its record open, and no place among the games in play held for good."""
        self.error, self.error_kind = reason, kind
        if not self.over:
            self.ended, self.ended_kind = reason, kind
        self.changed()

    def changed(self) -> None:
        self.version += 1
        self.updated = time.time()
        self.save()

    def save(self) -> None:
        self.record.extra["intents"] = [i for i in self.intents if i["action"] < len(self.record.actions)]
        self.record.extra["web"] = {
            "seats": self.seats, "tokens": self.tokens, "first": self.first, "ended": self.ended,
            "error": self.error, "passes": sorted(self.passes), "created": self.created, "updated": self.updated,
        }
        for key, kind in (("ended_kind", self.ended_kind), ("error_kind", self.error_kind)):
            if kind:   # beside the English (a record without one reads as before)
                self.record.extra["web"][key] = kind
        write_record(self.record, self.path)

    # ----- what goes out ----------------------------------------------------------------------------
    def public_seats(self) -> dict:
        out = {}
        for seat in self.adapter.seats_in_order(self.record):
            info = self.seats.get(seat)
            if info is None:
                continue
            entry = {"kind": info["kind"], "connected": bool(self.sockets.get(seat))}
            if info["kind"] == BOT:
                entry.update(spymaster=info.get("spymaster"), guesser=info.get("guesser"),
                             thinking=self.thinking == seat)
            out[seat] = entry
        return out

    def view(self, seat: str) -> dict:
        """What seat's browser receives: built from `state.observe(seat)` by the adapter."""
        view = self.adapter.seat_view(self, seat)
        view.update(id=self.id, title=self.adapter.title, lang=self.lang, seed=self.shown_seed(),
                    seats=self.public_seats(), thinking=self.thinking, loading=self.loading, error=self.error,
                    error_kind=self.error_kind,
                    moves=len(self.record.actions), mission=getattr(self.record.config, "mission", None))
        return view

    def shown_seed(self) -> int | None:
        """The deal's seed, once the game is over: during it the seed would deal the keys again."""
        return self.record.seed if self.adapter.over(self) else None

    def summary(self) -> dict:
        """One line of the games list (no hidden information)."""
        return {"id": self.id, "game": self.adapter.game, "title": self.adapter.title, "lang": self.lang,
                "variant": getattr(self.record.config, "variant", None), "seed": self.shown_seed(),
                "seats": {s: i["kind"] for s, i in self.seats.items()}, "moves": len(self.record.actions),
                "over": self.over, "result": self.adapter.result_text(self),
                "result_kind": self.adapter.result_kind(self), "outcome": self.adapter.outcome(self),
                "error": self.error, "error_kind": self.error_kind,
                "created": self.created, "updated": self.updated}

    def replay_frames(self) -> list[dict]:
        """The whole table after each action, for a finished game's replay page."""
        from engine import Clue

        referee = WebReferee()  # trusting: the recorded clues were judged when given
        state = self.adapter.new_state(self.record, referee)
        frames = [{"action": None, **self.adapter.spectator(self.record, state, [])}]
        for n, action in enumerate(self.record.actions):
            state.apply(action)
            so_far = SimpleNamespace(words=self.record.words, key=self.record.key, seed=self.record.seed,
                                     actions=self.record.actions[: n + 1])  # the record after action n
            frame = self.adapter.spectator(so_far, state, [i for i in self.intents if i["action"] <= n])
            frame["action"] = {"n": n, **action.to_dict(), "kind": type(action).__name__.lower()}
            if isinstance(action, Clue):
                frame["action"]["intent"] = next((i["targets"] for i in self.intents if i["action"] == n), None)
            frames.append(frame)
        return frames


#: Games in play (not over) a server keeps at once, as Spy's Word caps its rooms: each new game is a
#: file and a table in memory, and anyone who reaches the page can create one.
MAX_PLAYING = 500
#: a game in play that no page has open and nothing has changed for this long (seconds) ends unfinished
#: when the server is full (`TableStore.end_idle`): games never opened held their places for good
IDLE_END = 3600
#: finished games the listing shows, the newest first: every game stays on disk and at its address,
#: but a listing of all of them would grow with every game ever played
MAX_LISTED_FINISHED = 200


class TableStore:
    """Every game of one games folder, by id."""

    def __init__(self, games_dir: str | Path, client_seeds: bool = False, any_bot: bool = False):
        self.dir = Path(games_dir)
        self.tables: dict[str, Table] = {}
        self.client_seeds = client_seeds
        self.any_bot = any_bot   # a page may name any agent spec (games.check_page_spec): the operator's own server

    def load(self) -> list[str]:
        """Read the folder's records: games in progress resume; returns one line per skipped file."""
        skipped = []
        self.dir.mkdir(parents=True, exist_ok=True)
        for path in sorted(self.dir.glob("*.json")):
            game_id = path.stem
            if not GAME_ID.match(game_id):   # no link could name it
                skipped.append(f"{path.name[:100]}: not a game id (1 to 80 letters, digits, - and _)")
                continue
            try:
                record = record_from_json(path.read_text(encoding="utf-8"))
                if "web" not in record.extra or record.to_dict()["game"] not in ("duet", "codenames", "pictures"):
                    skipped.append(f"{path.name}: not a game of the web server")
                    continue
                self.tables[game_id] = Table(game_id, record, path)
            except Exception as exc:  # a damaged file must not stop the server
                skipped.append(f"{path.name}: {type(exc).__name__}: {exc}")
        for line in skipped:
            log.warning("skipped %s", line)
        return skipped

    def get(self, game_id: str) -> Table | None:
        return self.tables.get(game_id) if isinstance(game_id, str) else None

    def create(self, raw: Any) -> tuple[Table, dict[str, str]]:
        """A new game from the page's settings; returns it and the seat tokens (shown once)."""
        if not isinstance(raw, dict):
            raise BadSetup("the settings are a JSON object", "settings_object")
        if raw.get("seed") not in (None, "") and not self.client_seeds:
            raise BadSetup("seed: this server deals every game at random (a named seed lets its giver deal "
                           "the keys; cnlab serve --client-seeds allows it for research games)", "seed_named")
        if not self.any_bot:
            for role in ("spymaster", "guesser"):
                check_page_spec(raw.get(role), role)
        adapter = adapter_for(raw.get("game"))
        check_settings(adapter, raw)
        record, seats, first = adapter.setup(raw)
        if self.playing() >= MAX_PLAYING:
            self.end_idle()
            if self.playing() >= MAX_PLAYING:
                raise ServerFull(f"the server has {MAX_PLAYING} games in play; try again when some have ended",
                                 "server_full", n=MAX_PLAYING)
        game_id = f"{adapter.game}-{secrets.token_hex(6)}"   # never the seed: it deals the keys
        tokens = {seat: secrets.token_urlsafe(16) for seat, info in seats.items() if info["kind"] == PERSON}
        record.extra["web"] = {"seats": seats, "tokens": {s: hash_token(t) for s, t in tokens.items()},
                               "first": first, "created": time.time()}
        table = Table(game_id, record, self.dir / f"{game_id}.json")
        table.save()
        self.tables[game_id] = table
        return table, tokens

    def playing(self) -> int:
        return sum(not t.over for t in self.tables.values())

    def end_idle(self) -> None:
        """End unfinished (abandoned) every game in play that no page has open and nothing has changed
        for IDLE_END seconds: its seats' links still open its end screen and its record."""
        now = time.time()
        for t in self.tables.values():
            if not t.over and not t.thinking and not any(t.sockets.values()) and now - t.updated > IDLE_END:
                t.ended = f"abandoned: nobody played it for {IDLE_END // 60} minutes while the server was full"
                t.ended_kind = {"kind": "abandoned", "fields": {"n": IDLE_END // 60}}
                t.changed()

    def listing(self) -> list[dict]:
        """Every game in play and the MAX_LISTED_FINISHED newest finished ones, the newest first."""
        shown, finished = [], 0
        for t in sorted(self.tables.values(), key=lambda t: -t.updated):   # a summary only for a listed game
            over = t.over
            finished += over
            if not over or finished <= MAX_LISTED_FINISHED:
                shown.append(t.summary())
        return shown
