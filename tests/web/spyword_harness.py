"""Helpers of the Spy's Word browser and protocol tests (tests/web/test_spyword_*.py): a server
with a fake clock (time moves only when a test says so) and cheap bots (`spyword-random` on the
`fake` embeddings, a small vocabulary: no model to load), WebSocket clients, and the page's state.

The tests read the deal from the server's record file, as an omniscient referee would; the
pages themselves never hold more than their seat's observation.
"""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import websockets

from web_harness import Server

CHEAP_BOTS = {"easy": "spyword-random:fake?vocab=400", "standard": "spyword-random:fake?vocab=400"}


class SpyServer(Server):
    """`Server` with a fake clock and cheap Spy's Word bots."""

    def __init__(self, games_dir: Path, packs=None, bot_kinds=None, **options):
        from experiments.web.clock import FakeClock

        self.clock = FakeClock()
        options.update({"clock": self.clock, "bot_kinds": bot_kinds or CHEAP_BOTS})
        if packs is not None:
            options["packs"] = packs
        super().__init__(games_dir, bot_delay=0.0, **options)

    @property
    def rooms(self):
        return self.app.state.spyword

    def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)

    def profile(self, name: str) -> dict:
        status, made = self.post("/api/spyword/profiles", {"name": name})
        assert status == 200, made
        return made

    def record(self, game_id: str) -> dict:
        return json.loads((self.games_dir / "spyword" / f"{game_id}.json").read_text(encoding="utf-8"))

    def room(self, code: str):
        return self.rooms.rooms[code]


def run(coro):
    """asyncio.run in a thread of its own (Playwright's sync API may hold this thread's loop)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


class Client:
    """One seat's WebSocket: every frame it receives is kept (`frames`, raw text)."""

    def __init__(self, ws):
        self.ws = ws
        self.frames: list[str] = []
        self.last: dict | None = None
        self.errors: list[dict] = []

    @classmethod
    async def open(cls, server: SpyServer, code: str, token: str) -> "Client":
        import websockets

        client = cls(await websockets.connect(f"{server.ws_base}/ws/spyword/{code}?token={token}"))
        await client.wait(lambda r: True)
        return client

    async def recv(self, timeout: float = 10) -> dict:
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        self.frames.append(raw)
        msg = json.loads(raw)
        if msg["type"] == "room":
            self.last = msg["room"]
        elif msg["type"] == "error":
            self.errors.append(msg)
        return msg

    async def wait(self, predicate, timeout: float = 10) -> dict:
        """Until the last room frame satisfies `predicate` (already true: at once)."""
        if self.last is not None and predicate(self.last):
            return self.last
        deadline = time.monotonic() + timeout
        while True:
            msg = await self.recv(max(0.05, deadline - time.monotonic()))
            if msg["type"] == "room" and predicate(msg["room"]):
                return msg["room"]

    async def send(self, **msg) -> None:
        await self.ws.send(json.dumps(msg))

    async def error(self, timeout: float = 10, **msg) -> dict:
        """Send a message that must be refused; returns the error frame."""
        n = len(self.errors)
        await self.send(**msg)
        deadline = time.monotonic() + timeout
        while len(self.errors) == n:
            await self.recv(max(0.05, deadline - time.monotonic()))
        return self.errors[-1]

    async def drain(self, quiet: float = 0.15) -> None:
        """Read frames until none comes for `quiet` seconds."""
        while True:
            try:
                await self.recv(quiet)
            except asyncio.TimeoutError:
                return

    async def close(self) -> None:
        await self.ws.close()


def game(room: dict) -> dict:
    return room.get("game") or {}


def legal_clue(word: str | None, used, lang: str = "en", candidates=None) -> str:
    """A clue word that is not the holder's word, part of it, or an earlier clue (tests know the deal)."""
    from engine.spyword import same_clue

    pool = candidates or (("zebra", "galaxy", "violin", "pyramid", "tornado", "penguin", "lantern", "glacier",
                           "compass", "meadow", "harbor", "thunder", "marble", "velvet", "canyon", "orchard",
                           "whistle", "saddle", "ribbon", "cactus") if lang == "en" else
                          ("우주", "바이올린", "피라미드", "태풍", "펭귄", "사막", "등대", "빙하", "나침반", "초원",
                           "항구", "천둥", "대리석", "협곡", "과수원", "호루라기", "리본", "선인장"))
    for w in pool:
        if word is not None and (same_clue(w, word) or word.lower() in w.lower() or w.lower() in word.lower()):
            continue
        if any(same_clue(w, u) for u in used):
            continue
        return w
    raise AssertionError("no candidate clue left")


# ----- the page ------------------------------------------------------------------------------------
def view(page) -> dict:
    return page.evaluate("() => window.cnlabSpyView")


def wait_view(page, condition: str, timeout: float = 15000) -> dict:
    """Wait until the page's last room frame `r` satisfies a JavaScript condition; return it."""
    page.wait_for_function(f"() => {{ const r = window.cnlabSpyView; return !!r && ({condition}); }}",
                           timeout=timeout)
    return view(page)


def page_move(page, do, timeout: float = 10000) -> dict:
    """Do something that is a move on the page; wait until the room frame changed or a refusal
    came (`page_notice`); return the page's room frame."""
    page.evaluate("() => { window.cnlabSpyNotice = null; }")
    before = view(page)["version"]
    do()
    page.wait_for_function("(v) => window.cnlabSpyNotice || window.cnlabSpyView.version > v", arg=before,
                           timeout=timeout)
    return view(page)


def page_notice(page):
    """The refusal the page showed for its last move, or None."""
    return page.evaluate("() => window.cnlabSpyNotice")


# ----- people over WebSockets (no browser) ---------------------------------------------------------
async def act(client: Client, timeout: float = 10, **msg) -> dict:
    """Send a move; wait for the frame that shows it (or the refusal). Returns the room or the error."""
    before = client.last["version"] if client.last else -1
    n = len(client.errors)
    await client.send(**msg)
    deadline = time.monotonic() + timeout
    while True:
        if len(client.errors) > n:
            return client.errors[-1]
        if client.last and client.last["version"] > before:
            return client.last
        try:
            msg = await client.recv(max(0.05, deadline - time.monotonic()))
        except websockets.ConnectionClosed:
            return {"type": "closed"}
        if msg["type"] == "gone":
            return msg


async def sync(clients) -> None:
    """Every client has seen the newest frame (every change is sent to every socket of the room)."""
    clients = list(clients)
    for c in clients:
        await c.drain(0.02)
    top = max(c.last["version"] for c in clients if c.last)
    for c in clients:
        await c.wait(lambda r: r["version"] >= top)


async def open_room(server: SpyServer, names, settings=None, players=None, seed=7, profiles=None, lang="en"):
    """A room on many devices with these people (the first is the host), started; returns
    (code, {seat: Client}). `profiles`: {name: {id, key}}."""
    profiles = profiles or {}
    body = {"name": names[0], "seed": seed, "lang": lang}
    if names[0] in profiles:
        body["profile"] = profiles[names[0]]
    status, made = server.post("/api/spyword/rooms", body)
    assert status == 200, made
    code, tokens = made["code"], {made["member"]: made["token"]}
    for name in names[1:]:
        body = {"name": name, **({"profile": profiles[name]} if name in profiles else {})}
        status, joined = server.post(f"/api/spyword/rooms/{code}/join", body)
        assert status == 200, joined
        tokens[joined["member"]] = joined["token"]
    clients = {seat: await Client.open(server, code, token) for seat, token in tokens.items()}
    for seat, c in clients.items():
        c.token = tokens[seat]
    host = clients["p1"]
    msg = {"players": players or len(names)}
    if settings:
        msg["settings"] = settings
    await sync(clients.values())
    r = await act(host, type="settings", **msg)
    assert r.get("type") != "error", r
    r = await act(host, type="start")
    assert r.get("type") != "error", r
    await host.wait(lambda room: room["phase"] == "playing")
    await sync(clients.values())
    return code, clients


async def play(clients: dict, vote_for, guess: str = "zeppelin", until=None, max_steps: int = 400) -> dict:
    """The people play: ready, legal clues, the host starts the vote, `vote_for(seat, choices, game)`,
    the ghost guesses `guess`, eliminated players close their screen. Stops at the end or when
    `until(room)` holds; returns the last room frame."""
    for _ in range(max_steps):
        await sync(c for c in clients.values() if c.last and c.last["game"] is not None)
        live = [c for c in clients.values() if c.last and c.last["game"] is not None]
        room = live[0].last
        if room["phase"] != "playing" or (until and until(room)):
            return room
        acted = False
        for seat, c in clients.items():
            g = game(c.last) if c.last else {}
            you = g.get("you") or {}
            if you.get("ready"):
                r = await act(c, type="ready")
            elif "clue" in you:
                r = await act(c, type="clue", text=legal_clue(g["word"], [x["clue"] for x in g["clues"] if x["clue"]]))
            elif you.get("start_vote"):
                r = await act(c, type="start_vote")
            elif "vote" in you:
                target = vote_for(seat, you["vote"], g)
                if target is None:
                    continue
                r = await act(c, type="vote", target=target)
            elif you.get("guess"):
                r = await act(c, type="guess", word=guess)
            elif you.get("dismiss"):
                r = await act(c, type="dismiss")
            else:
                continue
            assert r.get("type") != "error", r
            acted = True
            break
        if not acted:
            return room
    raise AssertionError("the game did not end")


async def hello(client: Client) -> dict:
    """The room as it is now (the timers' time left is computed when a frame is sent)."""
    await client.send(type="hello")
    while True:
        msg = await client.recv()
        if msg["type"] == "room":
            return msg["room"]
