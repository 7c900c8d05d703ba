"""The server's protocol without a browser: bad input gets a clear error and changes nothing, the
server keeps serving other games, bots think without blocking it, a restart resumes games from
their records, and the records replay with `cnlab replay`."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import websockets
from typer.testing import CliRunner

from web_harness import CHEAP, Server


def run(coro):
    """asyncio.run in a thread of its own (Playwright's sync API may hold this thread's loop)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def recv(ws, timeout: float = 10) -> dict:
    return json.loads(await asyncio.wait_for(ws.recv(), timeout))


async def recv_until(ws, predicate, timeout: float = 10) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        msg = await recv(ws, max(0.1, deadline - time.monotonic()))
        if predicate(msg):
            return msg


async def view_now(ws) -> dict:
    await ws.send(json.dumps({"type": "hello"}))
    return (await recv_until(ws, lambda m: m["type"] == "state"))["view"]


def new_duet(server, **options) -> dict:
    status, made = server.post("/api/games", {"game": "duet", "lang": "en", "seed": 5, **CHEAP, **options})
    assert status == 200, made
    return made


def test_bad_input_gets_a_clear_error_and_changes_nothing(server):
    made = new_duet(server, first="me")
    other = new_duet(server, first="me", seed=6)
    url = f"{server.ws_base}/ws/{made['id']}?token={made['token']}"

    async def scenario():
        # an unknown game, a wrong token: one error frame, then the server closes the socket
        async with websockets.connect(f"{server.ws_base}/ws/no-such-game?token=x") as ws:
            msg = await recv(ws)
            assert msg["code"] == "unknown_game" and "no-such-game" in msg["message"]
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await recv(ws)
            assert closed.value.rcvd.code == 4404
        async with websockets.connect(f"{server.ws_base}/ws/{made['id']}?token=wrong") as ws:
            assert (await recv(ws))["code"] == "bad_token"

        async with websockets.connect(url) as ws:
            before = (await recv_until(ws, lambda m: m["type"] == "state"))["view"]
            bad = [
                ("{not json", "malformed"),
                (json.dumps([1, 2]), "malformed"),
                (json.dumps({"no": "type"}), "malformed"),
                (b"\x00\x01", "malformed"),                              # a binary frame
                (json.dumps({"type": "clue", "word": "x" * 9000, "number": 1}), "too_large"),
                (json.dumps({"type": "teleport"}), "bad_move"),
                (json.dumps({"type": "clue", "word": "zebra", "number": "two"}), "bad_clue"),
                (json.dumps({"type": "clue", "word": "zebra", "number": "\u00b3"}), "bad_clue"),   # ³: a digit int() cannot read
                (json.dumps({"type": "clue", "word": "", "number": 1}), "bad_clue"),
                (json.dumps({"type": "guess", "card": 99}), "bad_move"),
                (json.dumps({"type": "guess", "card": "3"}), "bad_move"),
                (json.dumps({"type": "clue", "seat": "B", "word": "zebra", "number": 1}), "not_your_seat"),
                (json.dumps({"type": "guess", "card": 0}), "illegal"),     # a guess needs a clue first (3.4)
                (json.dumps({"type": "stop"}), "illegal"),
                (json.dumps({"type": "pass"}), "illegal"),                 # only in sudden death (3.9)
                (json.dumps({"type": "clue", "word": "zebra", "number": 12}), "illegal"),  # 0..9 (3.4)
            ]
            for message, code in bad:
                await ws.send(message)
                msg = await recv_until(ws, lambda m: m["type"] == "error")
                assert msg["code"] == code, (message[:40], msg)
                assert msg["message"]
                if code == "illegal":
                    assert msg["rule"][0] in "34"
            after = await view_now(ws)
            assert after == before  # the state unchanged, for this seat's eyes

        # beyond the WebSocket limit uvicorn closes the connection (1009); the server goes on
        async with websockets.connect(url, max_size=None) as ws:
            await recv(ws)
            await ws.send("x" * 70_000)
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    await recv(ws)

        # the other game is served meanwhile, and this one still is
        async with websockets.connect(f"{server.ws_base}/ws/{other['id']}?token={other['token']}") as ws:
            assert (await recv(ws))["view"]["id"] == other["id"]
        async with websockets.connect(url) as ws:
            await recv(ws)
            await ws.send(json.dumps({"type": "clue", "word": "zebra", "number": 2}))
            v = await recv_until(ws, lambda m: m["type"] == "state" and m["view"]["moves"] >= 1)
            assert v["view"]["history"][0] == {"kind": "clue", "seat": "A", "word": "zebra", "number": 2}

    run(scenario())

    assert server.get("/api/games/no-such-game")[0] == 404
    assert "no-such-game" in server.get("/api/games/no-such-game")[1]["error"]
    for body, words in [({"game": "chess"}, "game"), ({"game": "duet", "spymaster": "nope:x"}, "unknown spymaster"),
                        ({"game": "duet", "lang": "fr"}, "lang"), ({"game": "duet", "mission": "atlantis"}, "atlantis"),
                        ({"game": "codenames", "seats": {"spymaster": "bot", "guesser": "bot"}}, "person"),
                        (b"{nope", "not JSON"), (b"x" * 20_000, "at most"),
                        (b'{"game": "duet", "seed": ' + b"1" * 5000 + b"}", "not JSON")]:   # was a 500 (audit 8)
        status, reply = server.post("/api/games", body)
        assert status in (400, 413) and words in reply["error"], (body, reply)


def test_a_game_named_by_a_list_or_an_object_is_refused(server):
    """Audit 9: the game's name was looked up in a dict before its type was checked: a list or object
    (unhashable) answered 500 with a traceback in the log."""
    for game in ([], {}, ["duet"]):
        status, reply = server.post("/api/games", {"game": game})
        assert status == 400 and "game: one of" in reply["error"], (game, status, reply)


def test_messages_nested_too_deeply_or_holding_a_lone_surrogate_are_malformed(server):
    """Audit 9: '[' * 4000 (it fits in 4 KiB) raised RecursionError in the message decoder, and the
    socket closed with a traceback; a text escaping a lone surrogate ("\\ud800", which JSON allows and
    no record file can hold) went on to the moves. Both are malformed now, and the socket still serves."""
    made = new_duet(server, first="me")

    async def scenario():
        async with websockets.connect(f"{server.ws_base}/ws/{made['id']}?token={made['token']}") as ws:
            await recv_until(ws, lambda m: m["type"] == "state")
            for raw in ("[" * 4000, '{"type": "hello", "x": ' + "[" * 2000 + "]" * 2000 + "}",
                        '{"type": "clue", "word": "zebra\\ud800", "number": 1}', '{"type": "\\udc80"}',
                        '{"type": "clue", "seat": "\\ud800", "word": "zebra", "number": 1}'):
                await ws.send(raw)
                msg = await recv_until(ws, lambda m: m["type"] == "error")
                assert msg["code"] == "malformed", (raw[:60], msg)
            assert (await view_now(ws))["moves"] == 0

    run(scenario())


def test_a_seat_holds_at_most_a_few_sockets_and_a_closed_one_frees_its_place(server):
    """Every frame of a game goes to each socket of each seat: a link holder opening thousands of them
    would make every move cost thousands of sends. One more than MAX_SEAT_SOCKETS is refused (4429);
    the seat's open pages keep being served, and closing one lets a new one in."""
    from experiments.web.messages import MAX_SEAT_SOCKETS

    made = new_duet(server, first="me")
    url = f"{server.ws_base}/ws/{made['id']}?token={made['token']}"

    async def scenario():
        pages = [await websockets.connect(url) for _ in range(MAX_SEAT_SOCKETS)]
        for ws in pages:
            await recv_until(ws, lambda m: m["type"] == "state")
        async with websockets.connect(url) as extra:
            msg = await recv(extra)
            assert msg["type"] == "error" and msg["code"] == "too_many_sockets", msg
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await recv(extra)
            assert closed.value.rcvd.code == 4429
        assert (await view_now(pages[0]))["id"] == made["id"]     # the open pages are still served
        await pages.pop().close()
        for _ in range(100):   # the server lets the closed socket go as soon as it reads the close
            async with websockets.connect(url) as again:
                first = await recv(again)
                if first["type"] == "state":
                    assert first["view"]["id"] == made["id"]
                    break
                assert first["code"] == "too_many_sockets"
            await asyncio.sleep(0.05)
        else:
            pytest.fail("a closed page never freed its place")
        for ws in pages:
            await ws.close()

    run(scenario())


def test_request_bodies_nested_deeper_than_json_reads_are_400(server):
    """Audit 9: '[' * 4000 fits in a request's size limit and raised RecursionError in the JSON reader:
    the new game, Spy's Word room, join and profile requests answered 500 with a traceback."""
    for url, limit in [("/api/games", 16_000), ("/api/spyword/rooms", 4000), ("/api/spyword/profiles", 4000),
                       ("/api/spyword/rooms/BCDFG/join", 4000)]:
        status, reply = server.post(url, b"[" * limit)
        assert status == 400 and "not JSON" in reply["error"], (url, status, reply)


def test_a_move_for_the_other_seat_in_a_two_person_game(server):
    made = new_duet(server, mode="people")
    link_b = made["links"]["B"]
    token_b = link_b.rsplit("/", 1)[1]

    async def scenario():
        async with websockets.connect(f"{server.ws_base}/ws/{made['id']}?token={made['token']}") as a, \
                websockets.connect(f"{server.ws_base}/ws/{made['id']}?token={token_b}") as b:
            await recv(a)
            assert (await recv_until(b, lambda m: m["type"] == "state"))["view"]["seat"] == "B"
            await a.send(json.dumps({"type": "clue", "word": "zebra", "number": 1}))
            await recv_until(b, lambda m: m["type"] == "state" and m["view"]["moves"] == 1)
            # A may not guess on its own clue (RULES 3.5), nor send B's move
            await a.send(json.dumps({"type": "guess", "card": 0}))
            msg = await recv_until(a, lambda m: m["type"] == "error")
            assert msg["rule"] == "3.5" and "only B guesses" in msg["message"]
            await a.send(json.dumps({"type": "guess", "card": 0, "seat": "B"}))
            assert (await recv_until(a, lambda m: m["type"] == "error"))["code"] == "not_your_seat"
            assert (await view_now(b))["moves"] == 1

    run(scenario())


def test_clues_the_engine_refuses_first_leave_no_verdict_behind(server):
    """Audit 8: the clue filter's verdict on a page's clue is computed before the engine sees the clue,
    and kept for the engine's call; a clue the engine refuses first (a bad number, out of turn) never
    collects it. Every such message grew the server's memory (thousands a second from one socket)."""
    from experiments.web.games import MAX_READY
    from experiments.web.spyword_rooms import RoomChecker

    made = new_duet(server, first="me")
    table = server.app.state.server.store.tables[made["id"]]

    async def scenario():
        async with websockets.connect(f"{server.ws_base}/ws/{made['id']}?token={made['token']}") as ws:
            await recv(ws)
            for k in range(3 * MAX_READY):
                await ws.send(json.dumps({"type": "clue", "word": f"zebra{k}", "number": 10}))
                assert (await recv_until(ws, lambda m: m["type"] == "error"))["rule"] == "3.4"
            assert (await view_now(ws))["moves"] == 0

    run(scenario())
    assert len(table.referee._ready) <= MAX_READY
    checker = RoomChecker("fake")   # Spy's Word's checker keeps its verdicts the same way
    checker._check = lambda clue, word, language, mode: None
    for k in range(3 * MAX_READY):
        checker.prejudge(f"hint{k}", "dog", "en", "word")
    assert len(checker._ready) <= MAX_READY and checker("hint47", "dog", "en", "word") is None


def test_a_mission_sets_the_timer_tokens_and_mistakes(server):
    """Cairo 9-5 (RULES 3.10): 9 tokens, 5 of them bystander side up, 5 mistakes allowed."""
    made = new_duet(server, mission="cairo")

    async def scenario():
        async with websockets.connect(f"{server.ws_base}/ws/{made['id']}?token={made['token']}") as ws:
            return (await recv(ws))["view"]

    v = run(scenario())
    assert v["mission"] == "cairo"
    assert v["tokens"] == {"check": 4, "bystander": 5, "timer": 9, "left": 9, "mistakes_allowed": 5, "mistakes": 0}


def test_the_person_lets_the_bot_give_the_first_clue(server):
    made = new_duet(server, first="me", seat="B")

    async def scenario():
        async with websockets.connect(f"{server.ws_base}/ws/{made['id']}?token={made['token']}") as ws:
            v = (await recv(ws))["view"]
            assert v["seat"] == "B" and v["you"] == {"clue": True, "partner_first": True}
            await ws.send(json.dumps({"type": "first"}))
            v = (await recv_until(ws, lambda m: m["type"] == "state" and m["view"]["moves"] == 1))["view"]
            assert v["history"][0]["seat"] == "A" and v["history"][0]["kind"] == "clue"
            await ws.send(json.dumps({"type": "first"}))
            assert (await recv_until(ws, lambda m: m["type"] == "error"))["code"] == "bad_move"

    run(scenario())


def held_bot_clues(monkeypatch) -> threading.Event:
    """The random bot spymaster thinks until the returned event is set (the test sets it, also on
    failure, so no bot thread is left waiting)."""
    from agents.baselines import RandomSpymaster

    quick = RandomSpymaster.give_clue
    release = threading.Event()

    def slow_clue(self, obs):
        release.wait(timeout=60)
        return quick(self, obs)

    monkeypatch.setattr(RandomSpymaster, "give_clue", slow_clue)
    return release


def test_bots_think_without_blocking_the_server(server, monkeypatch):
    """A bot that thinks until the test lets it: meanwhile the server answers the list of games and
    another game's moves (bots think in a worker thread). Causal, not timed: had the bot blocked the
    server, none of it would come before the bot was let go, and the waits below would time out."""
    release = held_bot_clues(monkeypatch)
    slow = new_duet(server, first="partner")
    fast = new_duet(server, first="me", seed=8)

    async def scenario():
        async with websockets.connect(f"{server.ws_base}/ws/{slow['id']}?token={slow['token']}") as ws:
            msg = await recv_until(ws, lambda m: m["type"] == "state" and m["view"]["thinking"] == "B")
            assert msg["view"]["seats"]["B"]["thinking"]
            async with websockets.connect(f"{server.ws_base}/ws/{fast['id']}?token={fast['token']}") as other:
                await recv(other)
                await other.send(json.dumps({"type": "clue", "word": "zebra", "number": 1}))
                await recv_until(other, lambda m: m["type"] == "state" and m["view"]["moves"] == 1)
            status, _ = await asyncio.to_thread(server.get, "/api/games")
            assert status == 200
            assert not release.is_set()   # all of it while the slow bot still thinks
            release.set()
            msg = await recv_until(ws, lambda m: m["type"] == "state" and m["view"]["moves"] == 1, timeout=15)
            assert msg["view"]["history"][0]["seat"] == "B"

    try:
        run(scenario())
    finally:
        release.set()   # never leave a bot thread waiting


def test_a_restart_resumes_games_from_their_records(tmp_path):
    first = Server(tmp_path).start()
    try:
        made = new_duet(first, first="me")
        url = f"{first.ws_base}/ws/{made['id']}?token={made['token']}"

        async def before_restart():
            async with websockets.connect(url) as ws:
                await recv(ws)
                await ws.send(json.dumps({"type": "clue", "word": "zebra", "number": 2}))
                # the random bot guesses on it, then gives its clue: wait until the person is to act
                return (await recv_until(ws, lambda m: m["type"] == "state" and m["view"]["moves"] >= 2
                                         and not m["view"]["thinking"] and m["view"]["you"]))["view"]

        seen = run(before_restart())
    finally:
        first.stop()

    saved = json.loads((tmp_path / f"{made['id']}.json").read_text())
    assert len(saved["actions"]) == seen["moves"] and made["token"] not in json.dumps(saved)
    second = Server(tmp_path).start()
    try:
        url = f"{second.ws_base}/ws/{made['id']}?token={made['token']}"

        async def after_restart():
            async with websockets.connect(url) as ws:
                v = (await recv_until(ws, lambda m: m["type"] == "state"))["view"]
                return v

        resumed = run(after_restart())
        assert resumed["history"] == seen["history"] and resumed["cards"] == seen["cards"]
        assert resumed["tokens"] == seen["tokens"]
        listed = {g["id"]: g for g in second.get("/api/games")[1]["games"]}
        assert listed[made["id"]]["moves"] == seen["moves"] and not listed[made["id"]]["over"]
    finally:
        second.stop()

    # the record is the engine's: `cnlab replay` reads it
    from experiments.cli import app

    result = CliRunner().invoke(app, ["replay", str(tmp_path / f"{made['id']}.json")])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["game"] == "duet" and summary["turns_used"] == len(
        [e for e in seen["history"] if e["kind"] == "clue"])


@pytest.mark.parametrize("edit", [
    lambda r: r["web"].__setitem__("updated", "yesterday"),
    lambda r: r["web"]["seats"].__setitem__("A", 5),
    lambda r: r["web"].__setitem__("tokens", 7),
    lambda r: r["web"]["seats"].__setitem__("Z", {"kind": "bot", "spymaster": "random", "guesser": "random"}),
    lambda r: r.__setitem__("intents", [{"action": "x"}]),
    lambda r: r.__setitem__("intents", [{"action": 0, "targets": 5}]),      # every view of the game failed (500)
    lambda r: r.__setitem__("intents", [{"action": 0, "targets": None}]),
    lambda r: r.__setitem__("intents", [{"action": -1, "targets": []}]),
    lambda r: r["config"].__setitem__("invalid_clue", "allow"),      # the clue filter off (RULES 4)
    lambda r: r["config"].__setitem__("invalid_clue", "penalize"),   # penalties the server leaves out (4.8)
])
def test_a_record_edited_by_hand_is_skipped_and_the_server_serves_the_rest(tmp_path, edit):  # nothing lost
    first = Server(tmp_path).start()
    try:
        made = new_duet(first, first="me")
    finally:
        first.stop()
    record = json.loads((tmp_path / f"{made['id']}.json").read_text())
    edit(record)
    (tmp_path / "duet-edited0000.json").write_text(json.dumps(record))
    second = Server(tmp_path).start()
    try:
        status, listed = second.get("/api/games")
        assert status == 200 and [g["id"] for g in listed["games"]] == [made["id"]]
        assert second.get("/api/games/duet-edited0000")[0] == 404
        assert second.get(f"/api/games/{made['id']}")[0] == 200
    finally:
        second.stop()


def test_the_new_game_page_offers_the_guesser_that_reads_people():
    """English Duet and Codenames: the human-data guesser reads the person's clues (agents.defaults);
    Korean and Pictures keep the embedding guessers."""
    from experiments.web.games import page_config

    defaults = page_config()["defaults"]
    assert defaults["en"]["duet"]["guesser"] == defaults["en"]["codenames"]["guesser"] == "human"
    assert defaults["ko"]["duet"]["guesser"] == "duet-bayes:use-m3"
    assert defaults["en"]["pictures"]["guesser"] == "nearest:use-m3"


def test_games_in_play_are_capped_and_a_finished_one_frees_a_place(tmp_path, monkeypatch):
    """Anyone who reaches the page may create games, each a file and a table: at most MAX_PLAYING are
    in play at once (the server answers 503, as for Spy's Word's rooms); finished games do not count."""
    from experiments.web import tables
    from experiments.web.games import ServerFull

    monkeypatch.setattr(tables, "MAX_PLAYING", 2)
    store = tables.TableStore(tmp_path)
    settings = {"game": "duet", "lang": "en", "mode": "people"}
    first, _ = store.create(settings)
    store.create(settings)
    with pytest.raises(ServerFull, match="2 games in play"):
        store.create(settings)
    assert len(list(tmp_path.glob("*.json"))) == 2                      # nothing written for the refused one
    monkeypatch.setattr(type(first), "over", property(lambda t: t is first))   # the first game has ended
    store.create(settings)


def test_the_listing_shows_every_game_in_play_and_only_the_newest_finished(tmp_path, monkeypatch):
    """Every game stays on disk and at its address, but the listing (the games page) would grow with
    every game ever played: it shows the games in play and the MAX_LISTED_FINISHED newest finished."""
    from experiments.web import tables

    monkeypatch.setattr(tables, "MAX_LISTED_FINISHED", 2)
    store = tables.TableStore(tmp_path)
    made = [store.create({"game": "duet", "lang": "en", "mode": "people"})[0] for _ in range(6)]
    for i, t in enumerate(made):
        t.updated = 1000.0 + i          # made[5] is the newest
    playing = {made[0], made[3]}        # the oldest is still in play
    monkeypatch.setattr(type(made[0]), "over", property(lambda t: t not in playing))
    listed = [s["id"] for s in store.listing()]
    assert listed == [made[5].id, made[4].id, made[3].id, made[0].id], listed
    assert all(store.get(t.id) is t for t in made)          # the unlisted ones are still served


def test_a_full_server_answers_503(server, monkeypatch):
    from experiments.web import tables

    monkeypatch.setattr(tables, "MAX_PLAYING", 0)
    status, reply = server.post("/api/games", {"game": "duet", "lang": "en", "mode": "people"})
    assert status == 503 and "games in play" in reply["error"]


def test_holding_back_twice_or_handing_the_first_clue_twice_is_refused(server, monkeypatch):
    """A seat that has let its partner guess in sudden death (RULES 3.9), or has let the bot give the
    first clue, sending it again: the second was taken as a move (the record saved again, a frame to
    every seat, and a bot thinking on the first clue started over). It is refused to that socket only."""
    made = new_duet(server, mode="people", tokens=1)
    words_a = server.record(made["id"])["key"]["A"]
    token_b = made["links"]["B"].rsplit("/", 1)[1]

    async def quiet(ws, seconds=0.5):
        with pytest.raises(asyncio.TimeoutError):
            await recv(ws, seconds)

    async def sudden_death():
        async with websockets.connect(f"{server.ws_base}/ws/{made['id']}?token={made['token']}") as a, \
                websockets.connect(f"{server.ws_base}/ws/{made['id']}?token={token_b}") as b:
            await recv_until(b, lambda m: m["type"] == "state" and m["view"]["seats"]["A"]["connected"])
            await a.send(json.dumps({"type": "clue", "word": "zebra", "number": 1}))
            await recv_until(b, lambda m: m["type"] == "state" and m["view"]["moves"] == 1)
            await b.send(json.dumps({"type": "guess", "card": words_a.index("N")}))   # the last token: 3.9
            await recv_until(a, lambda m: m["type"] == "state" and m["view"]["phase"] == "sudden_death")
            await a.send(json.dumps({"type": "pass"}))
            await recv_until(b, lambda m: m["type"] == "state" and m["view"]["passed"] == ["A"])
            await recv_until(a, lambda m: m["type"] == "state" and m["view"]["passed"] == ["A"])
            saved = (server.games_dir / f"{made['id']}.json").read_text()
            await a.send(json.dumps({"type": "pass"}))
            msg = await recv_until(a, lambda m: m["type"] == "error")
            assert msg["code"] == "illegal" and msg["rule"] == "3.9", msg
            await quiet(b)                                                   # no frame to the partner
            assert (server.games_dir / f"{made['id']}.json").read_text() == saved
            assert (await view_now(a))["passed"] == ["A"]

    run(sudden_death())

    release = held_bot_clues(monkeypatch)
    bot = new_duet(server, first="me", seed=9)

    async def first_twice():
        async with websockets.connect(f"{server.ws_base}/ws/{bot['id']}?token={bot['token']}") as ws:
            await recv(ws)
            await ws.send(json.dumps({"type": "first"}))
            await recv_until(ws, lambda m: m["type"] == "state" and m["view"]["thinking"] == "B")
            await ws.send(json.dumps({"type": "first"}))
            msg = await recv_until(ws, lambda m: m["type"] == "error")
            assert msg["code"] == "bad_move" and "first clue" in msg["message"], msg
            assert server.app.state.server.store.tables[bot["id"]].version == 1   # one change: the first "first"
            release.set()
            v = (await recv_until(ws, lambda m: m["type"] == "state" and m["view"]["moves"] == 1))["view"]
            assert v["history"][0]["seat"] == "B"

    try:
        run(first_twice())
    finally:
        release.set()


def test_a_bot_that_fails_mid_game_ends_it_unfinished(server, monkeypatch):
    """A bot partner that raises on its guess stops the game. It stayed stopped and in play for ever:
    no seat could move, its record and replay answered 409 ('still being played') for good, even
    after a restart, and it held one of the MAX_PLAYING places. It ends unfinished now, naming the
    failure: the end screen shows both keys, the record opens, and its place is free."""
    from agents.guessers import RandomGuesser
    from experiments.web import tables

    def broken(self, obs):
        raise ValueError("a model went missing")

    monkeypatch.setattr(RandomGuesser, "next_guess", broken)
    made = new_duet(server, first="me", seed=12)

    async def scenario():
        async with websockets.connect(f"{server.ws_base}/ws/{made['id']}?token={made['token']}") as ws:
            await recv(ws)
            await ws.send(json.dumps({"type": "clue", "word": "zebra", "number": 1}))
            v = (await recv_until(ws, lambda m: m["type"] == "state" and m["view"]["error"]))["view"]
            await ws.send(json.dumps({"type": "stop"}))
            refused = await recv_until(ws, lambda m: m["type"] == "error")
            return v, refused

    view, refused = run(scenario())
    assert view["error"] == "the bot on seat B failed (ValueError)" and view["moves"] == 1
    assert refused["code"] == "game_stopped"
    assert view["outcome"]["over"] and view["outcome"]["status"] == "unfinished", view["outcome"]
    assert view["outcome"]["ended"] == view["error"] and set(view["reveal"]) == {"A", "B"}
    summary = server.get(f"/api/games/{made['id']}")[1]
    assert summary["over"] and summary["result"] == f"unfinished ({view['error']})", summary
    assert server.get(f"/api/games/{made['id']}/record")[0] == 200
    assert server.get(f"/api/games/{made['id']}/replay")[0] == 200
    store = server.app.state.server.store
    monkeypatch.setattr(tables, "MAX_PLAYING", sum(not t.over for t in store.tables.values()) + 1)
    status, _ = server.post("/api/games", {"game": "duet", "lang": "en", "mode": "people"})
    assert status == 200                                      # the stopped game holds no place


def test_a_record_stopped_by_a_bot_before_this_server_loads_as_ended(tmp_path):
    """Records saved with a bot's error and no end (servers before the fix) load as ended unfinished."""
    first = Server(tmp_path).start()
    try:
        made = new_duet(first, mode="people")
    finally:
        first.stop()
    path = tmp_path / f"{made['id']}.json"
    record = json.loads(path.read_text())
    record["web"]["error"] = "the bot on seat B failed (ValueError)"
    path.write_text(json.dumps(record))
    second = Server(tmp_path).start()
    try:
        summary = second.get(f"/api/games/{made['id']}")[1]
        assert summary["over"] and summary["outcome"]["ended"] == record["web"]["error"], summary
        assert second.get(f"/api/games/{made['id']}/record")[0] == 200
    finally:
        second.stop()


def test_a_full_server_ends_the_games_nobody_plays_to_make_room(tmp_path, monkeypatch):
    """Anyone who reaches the page can create games: MAX_PLAYING of them, never opened, refused every
    new game (503) for good, across restarts. When the server is full, a game in play with no page
    open and no change for IDLE_END seconds ends unfinished (abandoned) and frees its place; a game
    with a page open, or played lately, keeps its place."""
    from experiments.web import tables
    from experiments.web.games import ServerFull

    monkeypatch.setattr(tables, "MAX_PLAYING", 3)
    store = tables.TableStore(tmp_path)
    settings = {"game": "duet", "lang": "en", "mode": "people"}
    idle, watched, recent = (store.create(settings)[0] for _ in range(3))
    long_ago = time.time() - tables.IDLE_END - 60
    idle.updated = watched.updated = long_ago
    watched.sockets["A"].add(object())        # a page still open on it
    store.create(settings)                    # the idle game made room
    assert idle.over and idle.ended.startswith("abandoned") and not watched.over and not recent.over
    assert json.loads(idle.path.read_text())["web"]["ended"] == idle.ended      # saved
    with pytest.raises(ServerFull):
        store.create(settings)


@pytest.mark.parametrize("number", ["unlimited", 0])
def test_a_bot_spymasters_expert_clue_number_is_played_as_given(server, monkeypatch, number):
    """RULES 1.2, 1.7: a Codenames clue number is 0..9 or "unlimited". A bot spymaster's "unlimited"
    clue failed on the web path (`int(decision.number)`: ValueError), stopping the game; the server
    now hands the number to the engine as given, as the simulators do (experiments.games.moves)."""
    from agents.base import ClueDecision
    from agents.baselines import RandomSpymaster

    quick = RandomSpymaster.give_clue

    def expert(self, obs):
        decision = quick(self, obs)
        return ClueDecision(decision.word, number, decision.targets)

    monkeypatch.setattr(RandomSpymaster, "give_clue", expert)
    status, made = server.post("/api/games", {"game": "codenames", "lang": "en", "seed": 21, **CHEAP,
                                              "seats": {"spymaster": "bot", "guesser": "person"}})
    assert status == 200, made

    async def scenario():
        async with websockets.connect(f"{server.ws_base}/ws/{made['id']}?token={made['token']}") as ws:
            return (await recv_until(ws, lambda m: m["type"] == "state" and (m["view"]["current_clue"]
                                                                             or m["view"]["error"])))["view"]

    view = run(scenario())
    assert view["error"] is None, view["error"]
    assert view["current_clue"]["number"] == number and view["you"].get("guess"), view
    assert view["guesses_left"] is None   # no limit while correct (RULES 1.4)


@pytest.mark.parametrize("number", ["unlimited", 2.5])
def test_a_duet_bots_clue_number_out_of_the_rules_is_the_rules_refusal(server, monkeypatch, number):
    """RULES 3.4: a Duet clue number is 0..9 (no "unlimited"). A bot's number the rules refuse was
    int()-ed: "unlimited" stopped the game as a ValueError, 2.5 was played as 2. The engine judges it
    as given now: refused each time, the game stops naming the rule."""
    from agents.base import ClueDecision
    from agents.baselines import RandomSpymaster

    quick = RandomSpymaster.give_clue
    monkeypatch.setattr(RandomSpymaster, "give_clue",
                        lambda self, obs: ClueDecision(quick(self, obs).word, number))
    made = new_duet(server, first="partner", seed=23)

    async def scenario():
        async with websockets.connect(f"{server.ws_base}/ws/{made['id']}?token={made['token']}") as ws:
            return (await recv_until(ws, lambda m: m["type"] == "state" and m["view"]["error"], timeout=30))["view"]

    view = run(scenario())
    assert view["moves"] == 0 and "(RULES 3.4)" in view["error"], view["error"]


@pytest.mark.parametrize("seed", [True, 1.5, 2.0, "1e3", "١٢", [5]])
def test_a_seed_that_is_no_whole_number_is_refused(server, seed):
    """A named seed (serve --client-seeds) is a whole number: true was dealt as seed 1 and 1.5 as 1."""
    status, reply = server.post("/api/games", {"game": "duet", "lang": "en", "mode": "people", "seed": seed})
    assert status == 400 and reply["error"] == "seed: a whole number", (seed, reply)


def test_a_seed_beyond_what_json_numbers_hold_is_400_not_500(server):
    """1e400 reads as infinity: int() of it raised OverflowError, a 500."""
    status, reply = server.post("/api/games", b'{"game": "duet", "mode": "people", "seed": 1e400}')
    assert status == 400 and "seed" in reply["error"], reply
    status, made = server.post("/api/games", {"game": "duet", "mode": "people", "seed": " 17 "})
    assert status == 200 and made["summary"]["moves"] == 0, made   # the page's seed field sends text


@pytest.mark.parametrize("seed", [2**64 - 1, "18446744073709551615", 2**32, 2**63 + 5, 0])
def test_a_named_seed_may_be_any_seed_cnlab_deal_takes(server, seed):
    """A named seed was refused past 2^32-1 ("seed: 0 .. 2^32-1"), though `cnlab deal` takes 0..2^64-1
    and the server itself draws its seeds among 2^63 (shown when a game is over): such a deal could
    not be played again on the page. It deals the same board and key as `cnlab deal duet --seed S`."""
    from experiments.games.duet.dealing import deal_duet_record

    status, made = server.post("/api/games", {"game": "duet", "lang": "en", "mode": "people", "seed": seed})
    assert status == 200, made
    saved, dealt = server.record(made["id"]), deal_duet_record(int(seed), "en").to_dict()
    assert (saved["seed"], saved["words"], saved["key"]) == (int(seed), dealt["words"], dealt["key"])


@pytest.mark.parametrize("seed", [2**64, "18446744073709551616", -1, "-1"])
def test_a_seed_past_2_64_or_below_0_is_refused(server, seed):
    status, reply = server.post("/api/games", {"game": "duet", "lang": "en", "mode": "people", "seed": seed})
    assert status == 400 and reply["error"] == "seed: 0 .. 2^64-1", (seed, reply)


@pytest.mark.parametrize("tokens", [0, False, "", []])
def test_zero_timer_tokens_is_refused_not_the_base_game(server, tokens):
    """RULES 3.3: 9 timer tokens in the base game (10 or 11 easier). `tokens: 0` (or another empty
    value) was read as no choice and dealt 9 tokens; it is settings that cannot be played: 400."""
    status, reply = server.post("/api/games", {"game": "duet", "lang": "en", "mode": "people", "tokens": tokens})
    assert status == 400 and "tokens" in reply["error"], (tokens, reply)


def test_unlimited_as_a_person_writes_it(server):
    """RULES 1.2, 1.7: "unlimited" is a Codenames clue number, also written Unlimited or 무제한 (as
    terminal play reads it, engine.actions.UNLIMITED_WORDS): those were 'a clue needs a number'. In
    Duet it is a number the rules refuse (3.4: 0..9), so it is the engine's refusal naming 3.4, as a
    10 is, not 'a clue needs a number'."""
    duet = new_duet(server, mode="people", seed=31)
    status, cn = server.post("/api/games", {"game": "codenames", "lang": "en", "seed": 31,
                                            "seats": {"spymaster": "person", "guesser": "person"}})
    assert status == 200, cn

    async def scenario():
        async with websockets.connect(f"{server.ws_base}/ws/{duet['id']}?token={duet['token']}") as ws:
            await recv(ws)
            for number in ("unlimited", "Unlimited", "무제한"):
                await ws.send(json.dumps({"type": "clue", "word": "zebra", "number": number}))
                error = await recv_until(ws, lambda m: m["type"] == "error")
                assert error["code"] == "illegal" and error["rule"] == "3.4", (number, error)
            assert (await view_now(ws))["moves"] == 0
        async with websockets.connect(f"{server.ws_base}/ws/{cn['id']}?token={cn['token']}") as ws:
            await recv(ws)
            await ws.send(json.dumps({"type": "clue", "word": "zebra", "number": " UNLIMITED "}))
            view = (await recv_until(ws, lambda m: m["type"] == "state" and m["view"]["moves"] == 1))["view"]
            assert view["current_clue"] == {"word": "zebra", "number": "unlimited"}, view["current_clue"]

    run(scenario())


@pytest.mark.parametrize("path", ["/api/games", "/api/spyword/profiles"])
def test_a_request_body_over_the_limit_is_refused_before_it_is_read(server, path):
    """The new-game and Spy's Word bodies are at most a few KiB, but the server read the whole body
    first (`request.body()`), however large (uvicorn sets no bound): one request of gigabytes held as
    many in memory. A body declared or sent over the limit is 413 now, with no more of it read: here
    a Content-Length of 1 GB with 10 bytes sent is answered at once (it waited for the rest)."""
    import socket

    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {10**9}\r\n\r\n{{\"game\": 1".encode())
        reply = sock.recv(4096).decode("latin-1")
    assert reply.startswith("HTTP/1.1 413"), reply[:200]
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:   # no length: chunks
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".encode())
        chunk = b"[" * 8000
        for _ in range(4):
            sock.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
        reply = sock.recv(4096).decode("latin-1")
    assert reply.startswith("HTTP/1.1 413"), reply[:200]


@pytest.mark.parametrize("game", ["duet", "codenames"])
def test_a_bot_whose_backend_does_not_read_the_boards_language_is_refused(server, game):
    """glove-50 reads English only: on a Korean board every card is a stranger to it. `cnlab play`
    refuses such a bot (check_spec with the language); the server checked the spec without the board's
    language and dealt the game (200). It is settings that cannot be played: 400 naming the backend."""
    for role, spec in (("spymaster", "expected:glove-50"), ("guesser", "nearest:glove-50")):
        body = {"game": game, "lang": "ko", **CHEAP, role: spec}
        status, reply = server.post("/api/games", body)
        assert status == 400 and "glove-50" in reply["error"] and "'ko'" in reply["error"], (body, reply)
    status, made = server.post("/api/games", {"game": game, "lang": "en", **CHEAP, "spymaster": "expected:glove-50"})
    assert status == 200, made


@pytest.mark.parametrize("variant, seats", [("teams", {"red-guesser": "person", "blue-spymster": "person"}),
                                            ("two_player", {"spymaster": "bot", "guessr": "person"}),
                                            ("two_player", {"red-guesser": "person"})])
def test_a_misspelt_seat_is_refused_not_made_a_bot(server, variant, seats):
    """A seat name the variant does not have was ignored: the seat it meant was dealt to a bot (or the
    game refused as having no person) without a word about the name. 400 naming it now."""
    status, reply = server.post("/api/games", {"game": "codenames", "lang": "en", **CHEAP, "variant": variant,
                                               "seats": seats})
    assert status == 400 and "unknown seat" in reply["error"], reply


@pytest.mark.parametrize("body, field", [({"game": "duet", "tokns": 11}, "tokns"),
                                         ({"game": "duet", "mode": "bot", "frist": "partner"}, "frist"),
                                         ({"game": "duet", "variant": "teams"}, "variant"),
                                         ({"game": "codenames", "varient": "teams"}, "varient"),
                                         ({"game": "pictures", "mission": "cairo"}, "mission")])
def test_a_new_game_with_an_unknown_setting_is_refused_not_dropped(server, body, field):
    """A setting of POST /api/games that the game does not have was dropped and its default dealt:
    `"tokns": 11` dealt 9 timer tokens (RULES 3.3), `"varient": "teams"` the two-player variant (RULES
    1.8), without a word (docs/web.md: 400 for settings that cannot be played). 400 naming it now, as a
    misspelt seat or a Spy's Word room's settings part is."""
    status, reply = server.post("/api/games", {"lang": "en", **CHEAP, **body})
    assert status == 400 and field in reply["error"], reply
@pytest.mark.parametrize("game, name, value", [
    ("duet", "mission", 0), ("duet", "mission", False), ("duet", "mission", []), ("duet", "mission", {}),
    ("duet", "spymaster", 0), ("duet", "guesser", False), ("duet", "guesser", []),
    ("codenames", "spymaster", {}), ("codenames", "seats", 0), ("codenames", "seats", False),
    ("codenames", "seats", ""), ("codenames", "seats", []), ("pictures", "guesser", 0)])
def test_an_empty_setting_of_the_wrong_type_is_refused_not_the_default(server, game, name, value):
    """A setting of the wrong type is settings that cannot be played (400 naming it), as `tokens: 0` and
    `seed: true` are: `mission: 0`, `spymaster: false` or `seats: []` were read as not named (`x or
    default`) and dealt the base game, the default bot or the default seats without a word."""
    status, reply = server.post("/api/games", {"game": game, "lang": "en", **CHEAP, name: value})
    assert status == 400 and reply["error"].startswith(name), (name, value, reply)
    for empty in (None, ""):   # not named, or the page's empty field: the default
        if name != "seats" or empty is None:
            status, made = server.post("/api/games", {"game": game, "lang": "en", **CHEAP, name: empty})
            assert status == 200, (name, empty, made)


def test_timer_tokens_and_a_mission_together_are_refused_not_one_dropped(server):
    """RULES 3.10: a mission T-M sets the supply (Cairo 9-5: 9 tokens). Tokens named with it were
    dropped without a word: `tokens: 11, mission: cairo` dealt 9 tokens (200). One or the other: 400."""
    status, reply = server.post("/api/games", {"game": "duet", "lang": "en", **CHEAP, "mission": "cairo", "tokens": 11})
    assert status == 400 and reply["error"].startswith("tokens") and "mission" in reply["error"], reply
    status, made = server.post("/api/games", {"game": "duet", "lang": "en", **CHEAP, "mission": "cairo", "tokens": None})
    assert status == 200 and made["summary"]["outcome"]["tokens_left"] == 9, made


@pytest.mark.parametrize("body", [{"seat": "Z"}, {"seat": ["A"]}, {"first": "x"}, {"first": 1}])
def test_a_bad_seat_or_first_is_refused_in_a_two_person_duet_too(server, body):
    """`seat` and `first` were checked only with a bot partner: `mode: people` with `seat: Z` or
    `first: x` dealt a game (200) as if they were fine. A bad value is 400 in either mode."""
    status, reply = server.post("/api/games", {"game": "duet", "lang": "en", "mode": "people", **body})
    assert status == 400 and reply["error"].startswith(next(iter(body))), (body, reply)
    status, made = server.post("/api/games", {"game": "duet", "lang": "en", "mode": "people", "seat": None, "first": None})
    assert status == 200, made   # null: not named


@pytest.mark.parametrize("game, name", [("duet", "toknes"), ("duet", "variant"), ("duet", "seats"),
                                        ("codenames", "tokens"), ("codenames", "mode"), ("pictures", "varient"),
                                        ("pictures", "mission")])
def test_a_setting_the_game_does_not_have_is_refused_not_dropped(server, game, name):
    """A misspelt setting (`toknes`, `varient`) or another game's (`tokens` of a Codenames game) was
    dropped without a word and the game dealt with its default (200), as a misspelt seat was made a bot.
    400 naming it now."""
    value = {"variant": "teams", "seats": {}, "mode": "people", "mission": "cairo"}.get(name, 10)
    status, reply = server.post("/api/games", {"game": game, "lang": "en", **CHEAP, name: value})
    assert status == 400 and f"unknown setting {name!r}" in reply["error"], (name, reply)


def test_the_screenshot_scripts_server_deals_its_named_seed(tmp_path, monkeypatch):
    """`python -m experiments.web.screenshot OUT --seed 7` (docs/web.md) names its deal's seed, but its
    server was started without client_seeds: the new game was refused (400, 'seed: this server deals
    every game at random') and the script died with an HTTPError traceback before the browser opened.
    The browser is replaced here by a stop right after the game is dealt."""
    import playwright.sync_api

    from experiments.web import screenshot

    class Dealt(Exception):
        pass

    def no_browser():
        raise Dealt

    monkeypatch.setattr(playwright.sync_api, "sync_playwright", no_browser)
    monkeypatch.setattr(screenshot.shutil, "which", lambda name: "/usr/bin/chromium")
    monkeypatch.setattr("agents.registry.default_spymaster", lambda lang: "random")   # no model loads
    monkeypatch.setattr("experiments.web.games.guesser_for_people", lambda game, lang: "random")
    with pytest.raises(Dealt):
        screenshot.main([str(tmp_path / "shot.png"), "--seed", "7"])


def test_a_bot_that_calls_sys_exit_ends_its_game_not_the_server(tmp_path, monkeypatch):
    """A bot whose own code calls sys.exit (an operator's `--any-bot` class, a stray exit()) ran in the
    bots' thread; its SystemExit, no Exception, came back through the executor into the event loop
    and stopped uvicorn: every game of the server ended with it. It is that bot's failure like any
    other now: its game ends unfinished naming it, and the server goes on."""
    from agents.guessers import RandomGuesser

    def exits(self, obs):
        raise SystemExit(3)

    monkeypatch.setattr(RandomGuesser, "next_guess", exits)
    srv = Server(tmp_path).start()
    try:
        made = new_duet(srv, first="me", seed=12)

        async def scenario():
            async with websockets.connect(f"{srv.ws_base}/ws/{made['id']}?token={made['token']}") as ws:
                await recv(ws)
                await ws.send(json.dumps({"type": "clue", "word": "zebra", "number": 1}))
                return (await recv_until(ws, lambda m: m["type"] == "state" and m["view"]["error"]))["view"]

        view = run(scenario())
        assert view["error"] == "the bot on seat B failed (SystemExit)" and view["outcome"]["over"]
        assert srv.thread.is_alive() and srv.get(f"/api/games/{made['id']}")[0] == 200
    finally:
        srv.stop()
_TWO_PLAYER = {"game": "codenames", "seed": 5, **CHEAP}          # blue starts: blue-spymaster (person), blue-guesser
_TEAMS = {"game": "codenames", "variant": "teams", "seats": {"red-spymaster": "person"}, "seed": 5, **CHEAP}
_DUET = {"game": "duet", "seed": 5, **CHEAP}                     # A person, B bot


@pytest.mark.parametrize("settings, edit, named", [
    (_DUET, lambda r: r["web"]["seats"].pop("B"), "B"),                      # the bot partner gone
    (_DUET, lambda r: r["web"]["seats"].pop("A"), "A"),                      # the person's seat gone
    (_DUET, lambda r: r["web"].pop("seats"), "A"),
    (_TWO_PLAYER, lambda r: r["web"]["seats"].pop("blue-guesser"), "blue-guesser"),
    (_TEAMS, lambda r: r["web"]["seats"].pop("blue-spymaster"), "blue-spymaster"),
    (_TWO_PLAYER, lambda r: r["config"].__setitem__("variant", "teams"), "red-spymaster"),  # 4 seats wanted, 2 held
    (_TEAMS, lambda r: r["config"].__setitem__("variant", "two_player"), "red-spymaster"),  # a seat that never acts
    (_DUET, lambda r: r["web"]["tokens"].pop("A"), "A"),                     # a person's seat no link joins
    (_DUET, lambda r: r["web"]["tokens"].__setitem__("B", "0" * 64), "B"),   # a link to the bot's seat
    (_DUET, lambda r: r["web"]["tokens"].__setitem__("A", "my-token"), "A"),  # no SHA-256: no link opens it
    (_DUET, lambda r: r["web"]["tokens"].__setitem__("A", r["web"]["tokens"]["A"].upper()), "A"),
])
def test_a_saved_game_missing_a_seat_is_refused_at_load_not_left_waiting_for_ever(tmp_path, settings, edit, named):
    """A hand-edited or damaged record whose seats are not those of its game (RULES 1.8: the two-player
    variant plays the starting team's two seats; teams: all four; Duet 3.1: A and B), or a person's seat
    no join link holds, loaded and then waited for ever: nobody could move for the missing seat. It is
    skipped at load with one line naming the seat; the other games are served."""
    from experiments.web.tables import TableStore

    store = TableStore(tmp_path, client_seeds=True)
    table, _ = store.create(settings)
    kept, _ = store.create(_DUET)
    record = json.loads(table.path.read_text())
    edit(record)
    table.path.write_text(json.dumps(record))
    loaded = TableStore(tmp_path, client_seeds=True)
    skipped = loaded.load()
    assert loaded.get(table.id) is None and loaded.get(kept.id) is not None
    assert len(skipped) == 1 and table.id in skipped[0] and named in skipped[0], skipped
    assert "\n" not in skipped[0]


@pytest.mark.parametrize("settings, edit, named", [
    ({"game": "duet", "mode": "people", "seed": 5}, lambda r: r["web"].__setitem__("first", "bot"), "first"),
    (_DUET, lambda r: r["web"].__setitem__("first", "robot"), "first"),
    (_DUET, lambda r: r["web"].__setitem__("passes", ["A"]), "passes"),      # no sudden death (RULES 3.9)
    (_DUET, lambda r: r["web"].__setitem__("passes", ["Q"]), "passes"),
    (_TWO_PLAYER, lambda r: r["web"].__setitem__("passes", ["blue-guesser"]), "passes"),
])
def test_a_saved_game_whose_turn_nobody_may_take_is_refused_at_load(tmp_path, settings, edit, named):
    """A record edited so that the first Duet clue is the bot's in a game of two people (the page refuses
    the person's clue: the bot gives it, and there is none), or a seat held back (RULES 3.9) outside
    sudden death, loaded and waited for ever. It is skipped with one line naming the field."""
    from experiments.web.tables import TableStore

    store = TableStore(tmp_path, client_seeds=True)
    table, _ = store.create(settings)
    record = json.loads(table.path.read_text())
    edit(record)
    table.path.write_text(json.dumps(record))
    loaded = TableStore(tmp_path, client_seeds=True)
    skipped = loaded.load()
    assert loaded.get(table.id) is None
    assert len(skipped) == 1 and table.id in skipped[0] and named in skipped[0], skipped


def test_a_move_with_a_field_it_does_not_have_or_for_another_game_is_refused(server):
    """A move's fields are its type's (docs/web.md) and may name its seat and game: a misspelt field
    ('numbr') was dropped and the move played without it, and a move naming another game's id was
    played in this socket's game. Both are refused, naming the field or the game, and change nothing."""
    made = new_duet(server, mode="people")
    other = new_duet(server, mode="people", seed=6)
    url = f"{server.ws_base}/ws/{made['id']}?token={made['token']}"

    async def scenario():
        async with websockets.connect(url) as ws:
            before = (await recv_until(ws, lambda m: m["type"] == "state"))["view"]
            for message, code, named in [
                ({"type": "clue", "word": "zebra", "number": 1, "numbr": 2}, "bad_move", "numbr"),
                ({"type": "clue", "word": "zebra", "number": 1, "card": 3}, "bad_move", "card"),
                ({"type": "stop", "force": True}, "bad_move", "force"),
                ({"type": "clue", "word": "zebra", "number": 1, "id": other["id"]}, "not_your_game", other["id"]),
                ({"type": "clue", "word": "zebra", "number": 1, "game": other["id"]}, "not_your_game", other["id"]),
                ({"type": "clue", "word": "zebra", "number": 1, "id": ["x"]}, "not_your_game", made["id"]),
            ]:
                await ws.send(json.dumps(message))
                msg = await recv_until(ws, lambda m: m["type"] == "error")
                assert msg["code"] == code and named in msg["message"], (message, msg)
            assert await view_now(ws) == before
            # its own id, its kind of game and its seat named: played
            await ws.send(json.dumps({"type": "clue", "word": "zebra", "number": 1, "id": made["id"], "game": "duet",
                                      "seat": "A"}))
            assert (await recv_until(ws, lambda m: m["type"] == "state"))["view"]["moves"] == 1

    run(scenario())


def test_the_seat_named_in_a_two_person_duet_is_the_creators(server):
    """`seat` is checked in either mode (A or B), but in a game of two people the creator was given A's
    link whatever it named: B asked for, A held. The reply's seat and token are the named seat's now."""
    made = new_duet(server, mode="people", seat="B")
    assert made["seat"] == "B" and made["links"]["B"].endswith("/" + made["token"])
    assert new_duet(server, mode="people")["seat"] == "A"

    async def scenario():
        async with websockets.connect(f"{server.ws_base}/ws/{made['id']}?token={made['token']}") as ws:
            return (await recv_until(ws, lambda m: m["type"] == "state"))["view"]["seat"]

    assert run(scenario()) == "B"


@pytest.mark.parametrize("spec", ["x" * 5000, "nearest:use-m3?" + "a" * 3000])
def test_a_bot_spec_too_long_is_one_short_line(server, spec):
    """A spec is at most 200 characters (games._spec), but the page's spec check ran first and echoed the
    whole name it did not know: a 5000-character spec gave a 5 KB error. Now it is refused as too long."""
    status, reply = server.post("/api/games", {"game": "duet", "guesser": spec, "spymaster": "random"})
    assert status == 400 and "guesser" in reply["error"] and len(reply["error"]) < 200, (status, reply["error"][:300])


@pytest.mark.parametrize("any_bot", [False, True])
@pytest.mark.parametrize("role", ["spymaster", "guesser"])
def test_a_too_long_spec_is_refused_in_the_same_words_with_or_without_any_bot(tmp_path, any_bot, role):
    """The 200-character bound is one check (games._spec_text) for the page's spec check and for the
    seat's spec, which is all `--any-bot` runs: the same line either way, and 200 characters pass it."""
    from experiments.web.games import BadSetup
    from experiments.web.tables import TableStore

    store = TableStore(tmp_path, client_seeds=True, any_bot=any_bot)
    with pytest.raises(BadSetup) as refused:
        store.create({**_DUET, role: "n" * 201})
    assert str(refused.value) == f"{role}: an agent spec string of at most 200 characters"
    with pytest.raises(BadSetup) as unknown:
        store.create({**_DUET, role: "n" * 200})
    assert str(unknown.value).startswith(f"{role}: ") and "at most 200" not in str(unknown.value), str(unknown.value)


@pytest.mark.parametrize("name, value", [("lang", "x" * 5000), ("lang", ["ko"] * 2000), ("mission", "x" * 5000)])
def test_a_long_unknown_language_or_mission_is_one_short_line(server, name, value):
    """An unknown language or mission was quoted whole in the 400 error (a 15 KB line for a list of 2000
    'ko'); it is cut, as the other settings' refusals are."""
    status, reply = server.post("/api/games", {"game": "duet", name: value, **CHEAP})
    assert status == 400 and name in reply["error"] and len(reply["error"]) < 200, (status, reply["error"][:300])


def test_a_saved_game_whose_file_name_is_no_game_id_is_skipped_with_a_line(tmp_path):
    """A record renamed by hand ('my game.json': a space, no id a link can name) was skipped without a
    word, where every other file the server does not load is named in one line."""
    from experiments.web.tables import TableStore

    store = TableStore(tmp_path, client_seeds=True)
    table, _ = store.create(_DUET)
    table.path.rename(tmp_path / "my game.json")
    loaded = TableStore(tmp_path)
    skipped = loaded.load()
    assert not loaded.tables and len(skipped) == 1 and "my game.json" in skipped[0] and "id" in skipped[0], skipped
