"""A bot move that never returns (`cnlab serve --bot-timeout`): its game stops with the bot's failure,
the other games' bots go on in a fresh bot thread, a late answer changes nothing, and the server
stops without waiting for the stuck thread (experiments/web/botthread.py)."""

from __future__ import annotations

import asyncio
import threading

import websockets

from test_protocol import new_duet, recv_until, run, view_now
from web_harness import Server

LIMIT = 2.0   # seconds a bot's move may take in these tests


def test_a_bot_move_past_the_time_limit_stops_its_game_and_no_other(tmp_path, monkeypatch):
    """Bots think in one thread: a bot move that never returned (an operator's bot, a language-model
    service that hangs) held it for ever, so every game's bots waited for ever too, and the server's
    exit waited on it. Now the stuck game stops with the bot's failure once the limit is past, the
    games queued behind it are played by a fresh thread, an answer that comes late is dropped, and
    the stuck thread is a daemon (the server stops, the process exits)."""
    from agents.baselines import RandomSpymaster
    from experiments.web.games import deal

    quick = RandomSpymaster.give_clue
    never, late, answered = threading.Event(), threading.Event(), threading.Event()
    seeds = {"stuck": 5, "late": 8, "other": 12}
    boards = {frozenset(deal("duet", seed, "en").words): name for name, seed in seeds.items()}
    assert len(boards) == 3
    threads: dict[str, threading.Thread] = {}

    def held(self, obs):
        name = boards[frozenset(obs.words)]
        threads.setdefault(name, threading.current_thread())
        if name == "stuck":
            never.wait()          # the test never lets it go while the server runs
        elif name == "late":
            late.wait()           # let go once its game has stopped
            decision = quick(self, obs)
            answered.set()
            return decision
        return quick(self, obs)

    monkeypatch.setattr(RandomSpymaster, "give_clue", held)
    srv = Server(tmp_path, bot_timeout=LIMIT).start()
    try:
        async def scenario():
            ws = {}
            made = {}
            for name, seed in seeds.items():   # each bot gives the first clue; the stuck one's comes first
                made[name] = new_duet(srv, first="partner", seed=seed)
                ws[name] = await websockets.connect(f"{srv.ws_base}/ws/{made[name]['id']}?token={made[name]['token']}")
                if name == "stuck":
                    await recv_until(ws[name], lambda m: m["type"] == "state" and m["view"]["thinking"] == "B")
            try:
                stopped = {}
                for name in ("stuck", "late"):
                    stopped[name] = (await recv_until(ws[name], lambda m: m["type"] == "state" and m["view"]["error"],
                                                      timeout=10))["view"]
                    assert stopped[name]["error"] == "the bot on seat B failed (BotTimeout)", stopped[name]["error"]
                    assert stopped[name]["moves"] == 0 and stopped[name]["outcome"]["status"] == "unfinished"
                    assert not stopped[name]["thinking"]
                # the other game's bot played, in a thread the stuck one does not hold
                v = (await recv_until(ws["other"], lambda m: m["type"] == "state" and m["view"]["moves"] == 1))["view"]
                assert v["history"][0]["seat"] == "B" and not v["error"]
                assert threads["other"] is not threads["stuck"] and not never.is_set()
                # the late bot's answer comes after its game stopped: nothing changes
                late.set()
                assert await asyncio.to_thread(answered.wait, 10)
                threads["late"].join(10)
                assert not threads["late"].is_alive()   # its thread is gone, its answer dropped
                again = await view_now(ws["late"])
                assert again["moves"] == 0 and again["error"] == stopped["late"]["error"]
                assert srv.record(made["late"]["id"])["actions"] == []
                assert (await view_now(ws["other"]))["moves"] == 1
            finally:
                for socket in ws.values():
                    await socket.close()

        run(scenario())
        assert threads["stuck"].is_alive() and threads["stuck"].daemon   # the process's exit does not wait on it
        srv.stop()
        assert not srv.thread.is_alive()   # the server stopped with a bot still stuck
    finally:
        srv.stop()
        never.set()
        late.set()


def test_a_spyword_bot_past_the_time_limit_stops_its_room_and_no_other(tmp_path, monkeypatch):
    """Spy's Word's bots think in the same thread: a room whose bot never answers stops with the
    bot's failure, and another room's bots go on playing in a fresh thread."""
    from agents.spyword.bots import RandomSpyWordBot
    from spyword_harness import SpyServer, game, open_room, play

    quick = RandomSpyWordBot.act
    never, called = threading.Event(), threading.Event()
    stuck: list[threading.Thread] = []

    def held(self, obs, avoid=()):
        if not stuck:   # the first bot move of the server: it never returns while the server runs
            stuck.append(threading.current_thread())
            called.set()
            never.wait()
        return quick(self, obs, avoid)

    monkeypatch.setattr(RandomSpyWordBot, "act", held)
    packs = {"en": [{"id": "t-1", "category": "animal", "words": ["dog", "cat"]}]}
    srv = SpyServer(tmp_path, packs=packs, bot_timeout=LIMIT).start()
    try:
        async def scenario():
            code, first = await open_room(srv, ["Ann"], players=4, seed=9)
            await play(first, vote_for=lambda *a: None, until=lambda r: called.is_set() or bool(r.get("error")))
            assert await asyncio.to_thread(called.wait, 10)
            frame = await first["p1"].wait(lambda r: bool(r.get("error")), timeout=10)
            assert frame["error"].startswith("the bot on seat b") and frame["error"].endswith("failed (BotTimeout)")
            assert (await first["p1"].error(type="ready"))["code"] == "game_stopped"
            # another room: its bots play, people and bots, until a bot has given a clue
            _, other = await open_room(srv, ["Bob"], players=4, seed=11)
            bot_clue = lambda r: any(c["seat"].startswith("b") and c["clue"] for c in game(r)["clues"])  # noqa: E731
            done = lambda r: bool(r.get("error")) or bot_clue(r)  # noqa: E731
            room = other["p1"].last
            while not done(room):   # the person plays; when it is the bots' turn, their move comes
                room = await play(other, vote_for=lambda seat, choices, g: choices[0], until=done)
                version = room["version"]
                room = await other["p1"].wait(lambda r: r["version"] > version or done(r))
            assert not room.get("error") and bot_clue(room), room
            for c in [*first.values(), *other.values()]:
                await c.close()

        run(scenario())
        assert stuck[0].is_alive() and stuck[0].daemon and not never.is_set()
    finally:
        srv.stop()
        never.set()
    assert not srv.thread.is_alive()


def test_serve_passes_its_bot_timeout_to_the_server(tmp_path, monkeypatch):
    """`cnlab serve --bot-timeout SECONDS` is the bot thread's limit (default 180 s)."""
    import socket

    import uvicorn
    from typer.testing import CliRunner

    from experiments.cli import app

    limits = []
    monkeypatch.setattr(uvicorn, "run", lambda served, **k: limits.append(served.state.server.bots.limit))
    with socket.socket() as free:  # a port nobody listens on (the host check binds it)
        free.bind(("127.0.0.1", 0))
        port = str(free.getsockname()[1])
    serve = ["serve", "--port", port, "--games-dir", str(tmp_path)]
    for extra in ([], ["--bot-timeout", "2.5"]):
        result = CliRunner().invoke(app, [*serve, *extra])
        assert result.exit_code == 0, (result.output, result.exception)
    assert limits == [180.0, 2.5]
