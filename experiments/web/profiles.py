"""Spy's Word player profiles (RULES 5.14): experience points, levels, titles and per-role
statistics, kept in SQLite (stdlib `sqlite3`; the file `profiles.sqlite3` in the server's games
folder) and updated from each finished game. The table below is the one docs/spyword_web.md
documents; `tests/web/test_spyword_profiles.py` checks scripted games against it.

A profile is local to a server: created from the page with a name, it gets a public id (shown in
links) and a secret key that only the browser that made it keeps (a seat is linked to a profile
only with both, so nobody plays on another's profile).

XP of one finished game (a game that ended with a winner; a game that ended without one, RULES
5.12, counts for nobody):

    left the room or was kicked before the end       0 (and it counts as a loss)
    played to the end (eliminated or not)           10
    your side won                                  +20
    ... on the spies' side (a spy, or the ghost)   +10
    ... as the ghost that guessed the word alone   +20 more (5.10: the ghost alone wins)
    never eliminated                                +5
    each vote of a citizen for a spy or the ghost   +3 (none in a game with counts-only votes, RULES 5.8)

Levels: level n needs 25 * n * (n - 1) XP in all (1: 0, 2: 50, 3: 150, 4: 300, 5: 500 ...).
Titles: `TITLES` (earned once and kept; the highest one earned is shown under the name).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import threading
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

ROLES = ("citizen", "spy", "ghost")
DB_NAME = "profiles.sqlite3"
MAX_NAME = 24
#: profiles one database holds: anyone may make one with a POST, so without a bound a script could
#: fill the disk; beyond it a new profile is refused (503) and every existing one works as before
MAX_PROFILES = 100_000
SCHEMA_VERSION = "1"

XP_PLAYED, XP_WIN, XP_SPIES_SIDE, XP_GHOST_ALONE, XP_SURVIVED, XP_VOTE_RIGHT = 10, 20, 10, 20, 5, 3


def level_threshold(level: int) -> int:
    """XP needed in all for `level` (level 1 at 0)."""
    return 25 * level * (level - 1)


def level_of(xp: int) -> int:
    level = 1
    while level_threshold(level + 1) <= xp:
        level += 1
    return level


@dataclass(frozen=True)
class Title:
    id: str
    en: str
    ko: str
    rule_en: str
    rule_ko: str
    stat: str      # the statistic it counts (see `Stats`)
    need: int


# In rank order (the last one earned in this list is the one shown under the name). The ids and
# names avoid the word "spy": a title travels in every player's frames.
TITLES: tuple[Title, ...] = (
    Title("first_game", "Newcomer", "새내기", "play a game to its end", "게임 한 판을 끝까지", "games", 1),
    Title("streak_3", "On a roll", "연승 행진", "3 wins in a row, whatever the roles", "역할과 상관없이 3연승",
          "best_streak", 3),
    Title("sharp_eye", "Sharp eye", "매의 눈", "10 votes as a citizen for a spy or the ghost",
          "시민으로서 스파이나 유령에게 10표", "votes_right", 10),
    Title("survivor", "Survivor", "생존자", "10 games to the end without being eliminated",
          "탈락하지 않고 끝까지 10판", "survived", 10),
    Title("citizen_10", "Pillar of the town", "마을의 기둥", "10 wins as a citizen", "시민으로 10승",
          "citizen_wins", 10),
    Title("disguise_5", "Master of disguise", "변장의 달인", "5 wins as a spy", "스파이로 5승", "spy_wins", 5),
    Title("mind_reader", "Mind reader", "독심술사", "guess the citizens' word as the ghost",
          "유령으로 시민의 단어 맞히기", "ghost_right", 1),
    Title("poltergeist", "Poltergeist", "폴터가이스트", "3 right guesses as the ghost", "유령으로 3번 맞히기",
          "ghost_right", 3),
    Title("regular_50", "Regular", "단골", "50 games played to the end", "끝까지 50판", "games", 50),
    Title("streak_10", "Unstoppable", "파죽지세", "10 wins in a row", "10연승", "best_streak", 10),
    Title("veteran", "Veteran", "베테랑", "reach level 10", "레벨 10 달성", "level", 10),
    Title("legend", "Legend", "전설", "35 wins in a row, whatever the roles (RULES 5.14)",
          "역할과 상관없이 35연승 (규칙 5.14)", "best_streak", 35),
)


#: Letters that show as nothing (Hangul fillers, the blank braille cell): a name of only these, or of
#: spaces, format characters and combining marks, would be an empty space under a seat.
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def visible(ch: str) -> bool:
    """Does `ch` show as something on its own?"""
    category = unicodedata.category(ch)
    return ch not in BLANKS and category[0] not in "ZC" and category != "Mn"


#: Zero-width (non-)joiners: part of what shows inside an emoji sequence (👩‍💻) or a word (Persian).
JOINERS = frozenset("\u200c\u200d")


def _joins(name: str, i: int) -> bool:
    """Is name[i] a joiner between two characters that show (not at an end, a space or another
    invisible one)?"""
    def shown(ch: str) -> bool:
        return not ch.isspace() and unicodedata.category(ch)[0] != "C"

    return name[i] in JOINERS and 0 < i < len(name) - 1 and shown(name[i - 1]) and shown(name[i + 1])


class BadName(ValueError):
    """A name `clean_name` refuses: `kind` and `fields` name it in the server's refusals table
    (`messages.REFUSALS`), so that a Korean room's page is told it in Korean; the message is its English."""

    def __init__(self, kind: str, **fields: Any):
        from experiments.web.messages import refusal_line

        self.kind, self.fields = kind, fields
        super().__init__(refusal_line(kind, "en", **fields))


def clean_name(name: Any) -> str:
    """A player's name: 1..24 characters, at least one of them visible, no control characters
    (BadName, a ValueError, otherwise)."""
    if not isinstance(name, str):
        raise BadName("name_text")
    name = " ".join(unicodedata.normalize("NFC", name).split())
    if not name or len(name) > MAX_NAME:
        raise BadName("name_length", most=MAX_NAME)
    if any(unicodedata.category(ch)[0] == "C" and not _joins(name, i) for i, ch in enumerate(name)):
        raise BadName("name_invisible")
    if not any(visible(ch) for ch in name):
        raise BadName("name_blank")
    return name


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


# ----- one seat's game -----------------------------------------------------------------------------
@dataclass(frozen=True)
class SeatResult:
    """What one seat did in one finished game (from the engine state)."""

    role: str
    outcome: str          # "win", "loss" or "left" (left or kicked before the end)
    eliminated: bool      # eliminated by a vote or lots
    survived: bool        # never eliminated, still in the room at the end
    votes: int            # votes cast
    votes_right: int      # votes of a citizen for a spy or the ghost
    ghost_guessed: bool
    ghost_right: bool

    @property
    def xp(self) -> int:
        return xp_for(self)


def xp_for(r: SeatResult) -> int:
    """The XP table of the module docstring."""
    if r.outcome == "left":
        return 0
    xp = XP_PLAYED
    if r.outcome == "win":
        xp += XP_WIN
        if r.role in ("spy", "ghost"):
            xp += XP_SPIES_SIDE
        if r.role == "ghost" and r.ghost_right:
            xp += XP_GHOST_ALONE
    if r.survived:
        xp += XP_SURVIVED
    return xp + XP_VOTE_RIGHT * r.votes_right


def seat_results(state) -> dict[str, SeatResult]:
    """Every seat's result of a finished game (empty when it ended without a winner)."""
    if state.winner is None:
        return {}
    winners = set(state.winners())
    out = {}
    for seat in state.seats:
        role = state.roles[seat]
        left = seat in state.departed
        votes = [entry.get("votes", {}).get(seat) for entry in state.vote_log]
        votes = [t for t in votes if t is not None]
        # RULES 5.8: a counts-only game keeps who voted for whom secret, so no XP or statistic may tell it
        right = sum(1 for t in votes if t in state.roles and state.roles[t] in ("spy", "ghost")) \
            if role == "citizen" and state.settings.vote_display != "counts" else 0
        guesses = [g for g in state.ghost_guesses if g["seat"] == seat and g.get("guess") is not None]
        out[seat] = SeatResult(
            role=role, outcome="left" if left else ("win" if seat in winners else "loss"),
            eliminated=seat in state.eliminated and not left, survived=seat not in state.eliminated,
            votes=len(votes), votes_right=right, ghost_guessed=bool(guesses),
            ghost_right=any(g.get("right") for g in guesses))
    return out


# ----- the store -----------------------------------------------------------------------------------
class ProfileError(ValueError):
    """A profile the store refuses; `kind` and `fields` as `BadName`'s where it has them."""

    def __init__(self, message: str, kind: str | None = None, **fields: Any):
        super().__init__(message)
        self.kind, self.fields = kind, fields


class ProfilesFull(ProfileError):
    """The database holds MAX_PROFILES profiles already."""


SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE profiles (
    id TEXT PRIMARY KEY, key_hash TEXT NOT NULL, name TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE results (
    game TEXT NOT NULL, profile TEXT NOT NULL REFERENCES profiles(id), finished REAL NOT NULL,
    role TEXT NOT NULL, outcome TEXT NOT NULL, eliminated INTEGER NOT NULL, survived INTEGER NOT NULL,
    votes INTEGER NOT NULL, votes_right INTEGER NOT NULL, ghost_guessed INTEGER NOT NULL,
    ghost_right INTEGER NOT NULL, xp INTEGER NOT NULL, PRIMARY KEY (game, profile));
CREATE TABLE titles (
    profile TEXT NOT NULL REFERENCES profiles(id), title TEXT NOT NULL, earned REAL NOT NULL,
    game TEXT, PRIMARY KEY (profile, title));
"""


def _columns(db: sqlite3.Connection, table: str) -> list[tuple[str, str]]:
    """A table's columns as (name, type); [] when there is no such table."""
    return [(row[1], row[2].upper()) for row in db.execute(f"PRAGMA table_info({table})")]


def _schema_columns() -> dict[str, list[tuple[str, str]]]:
    db = sqlite3.connect(":memory:")
    db.executescript(SCHEMA)
    tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    columns = {table: _columns(db, table) for table in tables}
    db.close()
    return columns


#: Every table of SCHEMA with its columns: what an existing database must have to be this store's.
COLUMNS = _schema_columns()


def check_database(path: str | Path) -> None:
    """Refuse (ProfileError) a profiles database a server could not use (damaged, read-only, another
    program's or another schema's), before the server starts rather than as it starts. A missing
    file is left for the server to make."""
    path = Path(path)
    if path.exists():
        ProfileStore(path).close()


class ProfileStore:
    """The profiles of one server, in `games_dir/profiles.sqlite3`. A missing or empty file is made;
    an existing one must be this store's, readable and writable (ProfileError otherwise, and a file
    that is not this store's is never written)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.lock = threading.Lock()
        try:
            self.db = sqlite3.connect(str(self.path), check_same_thread=False)
        except sqlite3.Error as exc:
            raise ProfileError(f"cannot open the profiles database {self.path}: {exc}") from None
        self.db.row_factory = sqlite3.Row
        try:
            if not self.db.execute("SELECT 1 FROM sqlite_master").fetchone():  # new: made in one transaction
                self.db.executescript(f"BEGIN; {SCHEMA} INSERT INTO meta VALUES ('schema', '{SCHEMA_VERSION}');"
                                      " COMMIT;")
            why = self._not_ours()
            if why:
                raise ProfileError(f"the profiles database {self.path} cannot be used ({why}); it was left as it "
                                   "is: move it away or use another --games-dir")
            with self.db:  # a write now, so a read-only file is refused at start, not after a game
                self.db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
        except sqlite3.Error as exc:  # damaged, not SQLite, read-only
            self.db.close()
            raise ProfileError(f"cannot use the profiles database {self.path}: {exc}") from None
        except ProfileError:
            self.db.close()
            raise

    def _not_ours(self) -> str | None:
        """Why an existing database is not this store's (None when it is): damaged, or another
        program's or another schema's tables (CREATE TABLE IF NOT EXISTS would take them as they are)."""
        check = self.db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            return f"damaged: {check}"
        for table, columns in COLUMNS.items():
            if _columns(self.db, table) != columns:
                return f"another program's or another version's: its table {table!r} is missing or has other columns"
        row = self.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None or row[0] != SCHEMA_VERSION:
            return f"another version's: schema version {None if row is None else row[0]!r}, not {SCHEMA_VERSION!r}"
        return None

    def close(self) -> None:
        with self.lock:
            self.db.close()

    # ----- profiles ------------------------------------------------------------------------------
    def create(self, name: Any) -> tuple[str, str]:
        """A new profile: (id, secret key). ProfileError on a bad name."""
        try:
            name = clean_name(name)
        except BadName as exc:
            raise ProfileError(str(exc), exc.kind, **exc.fields) from None
        key = secrets.token_urlsafe(18)
        with self.lock, self.db:
            if self.db.execute("SELECT COUNT(*) FROM profiles").fetchone()[0] >= MAX_PROFILES:
                raise ProfilesFull(f"this server holds {MAX_PROFILES:,} profiles already; play without one",
                                   "room_profiles_full", most=f"{MAX_PROFILES:,}")
            while True:
                pid = secrets.token_hex(5)
                if not self.db.execute("SELECT 1 FROM profiles WHERE id = ?", (pid,)).fetchone():
                    break
            self.db.execute("INSERT INTO profiles VALUES (?, ?, ?, ?)", (pid, hash_key(key), name, time.time()))
        return pid, key

    def exists(self, pid: Any) -> bool:
        if not isinstance(pid, str) or len(pid) > 40:
            return False
        with self.lock:
            return self.db.execute("SELECT 1 FROM profiles WHERE id = ?", (pid,)).fetchone() is not None

    def check(self, pid: Any, key: Any) -> bool:
        """Does `key` open profile `pid`?"""
        if not isinstance(pid, str) or not isinstance(key, str) or len(pid) > 40 or len(key) > 200:
            return False
        with self.lock:
            row = self.db.execute("SELECT key_hash FROM profiles WHERE id = ?", (pid,)).fetchone()
        return row is not None and hmac.compare_digest(row["key_hash"], hash_key(key))

    def _rows(self, pid: str) -> list[sqlite3.Row]:
        return self.db.execute("SELECT * FROM results WHERE profile = ? ORDER BY finished, rowid", (pid,)).fetchall()

    @staticmethod
    def stats_of(rows: Iterable[Any]) -> dict[str, Any]:
        """Cumulative statistics of a profile's results (oldest first)."""
        rows = list(rows)
        by_role = {role: {"games": 0, "wins": 0, "losses": 0, "left": 0, "eliminated": 0, "survived": 0,
                          "votes": 0, "votes_right": 0, "ghost_guesses": 0, "ghost_right": 0, "xp": 0}
                   for role in ROLES}
        streak = best = 0
        for r in rows:
            s = by_role[r["role"]]
            s["games"] += 1
            s["wins" if r["outcome"] == "win" else ("left" if r["outcome"] == "left" else "losses")] += 1
            for k in ("eliminated", "survived", "votes", "votes_right", "xp"):
                s[k] += int(r[k])
            s["ghost_guesses"] += int(r["ghost_guessed"])
            s["ghost_right"] += int(r["ghost_right"])
            streak = streak + 1 if r["outcome"] == "win" else 0
            best = max(best, streak)
        total = {k: sum(by_role[role][k] for role in ROLES) for k in by_role["citizen"]}
        xp = total["xp"]
        return {
            "xp": xp, "level": level_of(xp), "games": total["games"] - total["left"],
            "played": total["games"], "wins": total["wins"], "losses": total["losses"] + total["left"],
            "left": total["left"], "survived": total["survived"], "votes": total["votes"],
            "votes_right": total["votes_right"], "ghost_right": total["ghost_right"],
            "citizen_wins": by_role["citizen"]["wins"], "spy_wins": by_role["spy"]["wins"],
            "ghost_wins": by_role["ghost"]["wins"], "streak": streak, "best_streak": best,
            "win_rate": round(total["wins"] / total["games"], 4) if total["games"] else None,
            "by_role": by_role,
        }

    @staticmethod
    def titles_for(stats: dict[str, Any]) -> list[str]:
        """The titles these statistics earn, in rank order."""
        return [t.id for t in TITLES if stats.get(t.stat, 0) >= t.need]

    def profile(self, pid: str) -> dict[str, Any] | None:
        """The public profile (no key): name, XP, level, titles and statistics."""
        with self.lock:
            row = self.db.execute("SELECT id, name, created FROM profiles WHERE id = ?", (pid,)).fetchone()
            if row is None:
                return None
            stats = self.stats_of(self._rows(pid))
            titles = self.db.execute("SELECT title, earned, game FROM titles WHERE profile = ?", (pid,)).fetchall()
        earned = {t["title"]: {"id": t["title"], "earned": t["earned"], "game": t["game"]} for t in titles}
        ranked = [earned[t.id] for t in TITLES if t.id in earned]
        level = stats["level"]
        return {"id": row["id"], "name": row["name"], "created": row["created"], "xp": stats["xp"], "level": level,
                "level_xp": level_threshold(level), "next_level_xp": level_threshold(level + 1),
                "title": ranked[-1]["id"] if ranked else None, "titles": ranked, "stats": stats}

    def badge(self, pid: str | None) -> dict[str, Any] | None:
        """What goes under a player's name: {id, level, title}."""
        if not pid:
            return None
        p = self.profile(pid)
        return None if p is None else {"id": p["id"], "level": p["level"], "title": p["title"]}

    # ----- a finished game -----------------------------------------------------------------------
    def record_game(self, game_id: str, seats: dict[str, str], results: dict[str, SeatResult],
                    finished: float | None = None) -> dict[str, dict[str, Any]]:
        """Add one finished game: `seats` maps seat -> profile id. Idempotent per (game, profile).
        Returns per seat {"xp": gained, "level", "new_titles": [...], "level_up": bool}."""
        finished = time.time() if finished is None else finished
        out: dict[str, dict[str, Any]] = {}
        with self.lock, self.db:
            for seat, pid in seats.items():
                r = results.get(seat)
                if r is None or not pid:
                    continue
                if not self.db.execute("SELECT 1 FROM profiles WHERE id = ?", (pid,)).fetchone():
                    continue
                before = self.stats_of(self._rows(pid))
                cur = self.db.execute(
                    "INSERT OR IGNORE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (game_id, pid, finished, r.role, r.outcome, int(r.eliminated), int(r.survived), r.votes,
                     r.votes_right, int(r.ghost_guessed), int(r.ghost_right), r.xp))
                after = self.stats_of(self._rows(pid))
                have = {row["title"] for row in self.db.execute("SELECT title FROM titles WHERE profile = ?", (pid,))}
                new = [t for t in self.titles_for(after) if t not in have]
                for t in new:
                    self.db.execute("INSERT INTO titles VALUES (?, ?, ?, ?)", (pid, t, finished, game_id))
                out[seat] = {"xp": r.xp if cur.rowcount else 0, "total_xp": after["xp"], "level": after["level"],
                             "level_up": after["level"] > before["level"], "new_titles": new}
        return out
