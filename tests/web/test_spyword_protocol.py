"""Spy's Word rooms over the WebSocket protocol, without a browser (RULES 5): bad input and an
unknown room get a clear error and change nothing; the timers run on the injected clock (no
sleeping: the test moves the fake clock); the host's disconnection is announced after 1 minute and
the host replaced after 2; leaving and kicking (RULES 5.12); people's clues go through the bots'
checker (the word itself, a part of it, a translation, a repeat: refused with the reason); a spy
is told "spy" only when the host turns the reveal on; a single device shows one card at a time.

The word pack here is dog / cat (the `fake` embeddings put 개 and 고양이 near them, so the
translation check has something to catch).
"""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets

from spyword_harness import Client, SpyServer, act, game, hello, open_room, play, run, sync

PACKS = {"en": [{"id": "t-1", "category": "animal", "words": ["dog", "cat"]}],
         "ko": [{"id": "t-ko-1", "category": "동물", "words": ["개", "고양이"]}]}
SIX = ["Ann", "Bob", "Cho", "Dan", "Eve", "Fay"]


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = SpyServer(tmp_path_factory.mktemp("spyword-protocol"), packs=PACKS).start()
    yield server
    server.stop()


def roles_of(srv, code) -> dict:
    return dict(srv.room(code).state.roles)


def test_bad_input_and_unknown_rooms_get_clear_errors(srv):
    # HTTP
    status, body = srv.get("/api/spyword/rooms/NOPE1")
    assert status == 404 and "no room" in body["error"] and body["code"] == "unknown_room"
    status, body = srv.post("/api/spyword/rooms/NOPE1/join", {"name": "Zed"})
    assert status == 404 and body["code"] == "unknown_room"
    assert srv.post("/api/spyword/rooms", b"{not json")[0] == 400
    status, body = srv.post("/api/spyword/rooms", {"name": "Ann", "device": "tablet"})
    assert status == 400 and "device" in body["error"]
    status, body = srv.post("/api/spyword/rooms", {"name": "   "})
    assert status == 400 and body["code"] == "bad_name"
    status, body = srv.post("/api/spyword/rooms", {"name": "Ann", "profile": {"id": "x", "key": "y"}})
    assert status == 403 and body["code"] == "bad_profile"
    assert srv.get("/api/spyword/profiles/nobody")[0] == 404
    assert srv.get("/api/spyword/games/NOPE-1-aaaa/record")[0] == 404
    status, made = srv.post("/api/spyword/rooms", {"name": "Ann", "seed": 1})
    assert status == 200
    code = made["code"]
    status, body = srv.post(f"/api/spyword/rooms/{code}/join", {"name": "ann"})
    assert status == 409 and body["code"] == "name_taken"
    status, bob = srv.post(f"/api/spyword/rooms/{code}/join", {"name": "Bob"})

    async def scenario():
        async with websockets.connect(f"{srv.ws_base}/ws/spyword/NOPE1?token=x") as ws:
            msg = json.loads(await ws.recv())
            assert msg["code"] == "unknown_room" and "NOPE1" in msg["message"]
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd.code == 4404
        async with websockets.connect(f"{srv.ws_base}/ws/spyword/{code}?token=wrong") as ws:
            assert json.loads(await ws.recv())["code"] == "bad_token"
        host = await Client.open(srv, code, made["token"])
        guest = await Client.open(srv, code, bob["token"])
        await sync([host, guest])
        before = host.last["version"]
        for raw, expected in [("{not json", "malformed"), (json.dumps([1, 2]), "malformed"),
                              (json.dumps({"no": "type"}), "malformed"), (b"\x00\x01", "malformed"),
                              (json.dumps({"type": "x" * 5000}), "too_large")]:
            n = len(host.errors)
            await host.ws.send(raw)
            while len(host.errors) == n:
                await host.recv()
            assert host.errors[-1]["code"] == expected and host.errors[-1]["message"]
        bad = [({"type": "teleport"}, "bad_move"),
               ({"type": "settings", "settings": {"vote_display": "secret"}}, "bad_settings"),
               ({"type": "settings", "settings": {"minority": "two"}}, "bad_settings"),
               ({"type": "settings", "settings": {"speaker_seconds": 5}}, "bad_settings"),
               ({"type": "settings", "players": 3}, "bad_settings"),
               ({"type": "settings", "players": 13}, "bad_settings"),
               ({"type": "settings", "bot": "genius"}, "bad_settings"),
               ({"type": "kick", "target": "p9"}, "bad_move")]
        for msg, expected in bad:
            err = await host.error(**msg)
            assert err["code"] == expected and err["message"], (msg, err)
        err = await host.error(type="settings", settings={"vote_display": "secret"})
        assert "vote_display" in err["message"]
        assert (await guest.error(type="start"))["code"] == "not_host"
        assert (await guest.error(type="settings", players=8))["code"] == "not_host"
        # 4 seats and a ghost: the rulebook's reason (RULES 5.2), shown in the lobby and at the start
        r = await act(host, type="settings", players=4, settings={"ghost": True})
        assert "ghost" in r["role_problem"]
        err = await host.error(type="start")
        assert err["code"] == "bad_settings" and "RULES 5.2" in err["message"]
        r = await act(host, type="settings", players=5)
        assert r["role_problem"] is None
        await sync([host, guest])
        assert host.last["phase"] == "lobby" and host.last["version"] > before
        # in the game: moves out of turn, of another seat, of the wrong shape
        r = await act(host, type="start")
        await sync([host, guest])
        assert r["phase"] == "playing"
        for c in (host, guest):
            await act(c, type="ready")
        await sync([host, guest])
        v = host.last["version"]
        assert (await host.error(type="vote", target="p9"))["code"] == "bad_move"
        assert (await host.error(type="vote", target="p2"))["rule"] == "5.6"
        assert (await host.error(type="ready", seat="p2"))["code"] == "not_your_seat"
        assert (await host.error(type="show", seat="p2"))["code"] == "bad_move"
        assert (await host.error(type="clue", text=""))["code"] == "bad_clue"
        speaker = game(host.last)["speaker"]
        other = guest if speaker == "p1" else host
        if speaker in ("p1", "p2"):
            err = await other.error(type="clue", text="zebra")
            assert err["code"] == "illegal" and err["rule"] == "5.4" and "turn" in err["message"]
        await sync([host, guest])  # nothing of theirs changed (the bots may have spoken meanwhile)
        assert not any(c["seat"] in ("p1", "p2") for c in game(host.last)["clues"]) and v
        # joining a game under way is refused
        status, body = srv.post(f"/api/spyword/rooms/{code}/join", {"name": "Late"})
        assert status == 409 and body["code"] == "started"
        await host.close()
        await guest.close()

    run(scenario())


@pytest.mark.parametrize("data", [b"{not json", b'{"web": {"status": "over"}, "x": "\\ud800"}', b"[1, 2]",
                                  b'{"web": ["over"]}', b"\xff\xfe"])
def test_a_damaged_record_file_is_a_clear_error_not_a_500(srv, data):
    """A record file the server skipped as damaged when it started (not JSON, a lone surrogate, not
    an object, bytes that are not UTF-8): its download is one JSON error, never an Internal Server
    Error with a traceback in the log."""
    folder = srv.games_dir / "spyword"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "DMGD-1-abcd.json").write_bytes(data)
    status, body = srv.get("/api/spyword/games/DMGD-1-abcd/record")
    assert status == 404 and "damaged" in body["error"], body


def test_timers_run_on_the_injected_clock(srv):
    async def scenario():
        code, clients = await open_room(srv, SIX, seed=11)
        roles = roles_of(srv, code)
        host = clients["p1"]
        room = await play(clients, vote_for=lambda *a: None, until=lambda r: game(r)["phase"] == "clues")
        assert room["timer"] is None or room["timer"]["kind"] == "speaker"
        await sync(clients.values())
        g = game(host.last)
        first = g["speaker"]
        assert host.last["timer"] == {"kind": "speaker", "seconds": 30, "left": 30.0}  # RULES 5.4: 30 s a speaker
        srv.advance(29)
        await sync(clients.values())
        now = await hello(host)
        assert game(now)["speaker"] == first and now["timer"]["left"] == 1.0
        srv.advance(1)  # time is up: the game moves on by itself
        await sync(clients.values())
        g = game(host.last)
        assert g["clues"][0] == {"round": 1, "seat": first, "clue": None, "duel": False, "timed_out": True}
        assert g["speaker"] != first and host.last["timer"]["left"] == 30.0
        room = await play(clients, vote_for=lambda *a: None, until=lambda r: game(r)["phase"] == "discussion")
        # the discussion: 90 s by default, then the vote begins (RULES 5.5)
        assert room["timer"]["kind"] == "discussion" and room["timer"]["seconds"] == 90
        srv.advance(89.5)
        await sync(clients.values())
        assert game(host.last)["phase"] == "discussion"
        srv.advance(0.5)
        await sync(clients.values())
        assert game(host.last)["phase"] == "vote" and host.last["timer"]["kind"] == "vote"
        # the vote: 30 s; who has not voted then cast no vote (RULES 5.6)
        ghost = next(s for s, r in roles.items() if r == "ghost")
        silent = next(s for s in clients if s != ghost)
        for seat, c in clients.items():
            if seat not in (ghost, silent):
                await act(c, type="vote", target=ghost)
        await sync(clients.values())
        assert game(host.last)["phase"] == "vote"
        srv.advance(30)
        await sync(clients.values())
        g = game(host.last)
        assert g["votes"][-1]["outcome"] == "eliminated" and g["votes"][-1]["eliminated"] == ghost
        assert silent not in g["votes"][-1]["votes"]
        # the ghost's guess: 45 s with roles revealed; the time running out is a wrong guess (RULES 5.10)
        assert g["phase"] == "ghost_guess"
        assert host.last["timer"] == {"kind": "ghost_guess", "seconds": 45, "left": 45.0}
        assert game(clients[ghost].last)["you"].get("guess")
        srv.advance(45)
        await sync(clients.values())
        g = game(host.last)
        assert g["phase"] == "clues" and g["round"] == 2
        assert g["ghost_guesses"] == [{"seat": ghost, "round": 1, "guess": None, "timed_out": True}]
        for c in clients.values():
            await c.close()

    run(scenario())


def test_hidden_roles_give_the_ghost_60_seconds(srv):
    async def scenario():
        code, clients = await open_room(srv, SIX, seed=12, settings={"reveal_eliminated_role": False,
                                                                      "discussion_seconds": "unlimited"})
        roles = roles_of(srv, code)
        ghost = next(s for s, r in roles.items() if r == "ghost")
        watcher = clients[next(s for s in clients if s != ghost)]
        room = await play(clients, vote_for=lambda seat, choices, g: ghost if ghost in choices else choices[0],
                          until=lambda r: game(r)["phase"] == "private_screen")
        assert room["timer"] == {"kind": "ghost_guess", "seconds": 60, "left": 60.0}
        # everyone sees the same phase whoever is out (RULES 5.9); only the ghost gets the guess screen
        assert game(clients[ghost].last)["private_screen"] == {"kind": "ghost_guess"}
        assert all(game(c.last)["private_screen"] is None for s, c in clients.items() if s != ghost)
        assert game(watcher.last)["eliminated"][0] == {"seat": ghost, "round": 1, "by": "vote"}  # no role
        srv.advance(59)
        await sync(clients.values())
        assert game(watcher.last)["phase"] == "private_screen"
        srv.advance(1)
        await sync(clients.values())
        assert game(watcher.last)["phase"] == "clues"
        # the wrong (timed-out) guess stays secret with hidden roles, except to the ghost
        assert game(watcher.last)["ghost_guesses"] == []
        assert len(game(clients[ghost].last)["ghost_guesses"]) == 1
        for c in clients.values():
            await c.close()

    run(scenario())


def test_a_ghost_guess_holding_a_lone_surrogate_is_refused(srv):
    """Audit 9: the ghost's guess is kept as typed, and JSON may escape a lone surrogate ("\\ud800"):
    the guess was applied, then writing the record failed (UnicodeEncodeError), the ghost's socket
    closed with a traceback, every later save failed and the frames holding the guess reached nobody,
    so the room was stuck for everyone. A message holding such text is malformed; nothing changes."""
    async def scenario():
        code, clients = await open_room(srv, SIX, seed=12, settings={"discussion_seconds": "unlimited"})
        ghost = next(s for s, r in roles_of(srv, code).items() if r == "ghost")
        await play(clients, vote_for=lambda seat, choices, g: ghost if ghost in choices else choices[0],
                   until=lambda r: game(r)["phase"] == "ghost_guess")
        moves = len(srv.room(code).record.actions)
        for raw in ('{"type": "guess", "word": "\\ud800"}', "[" * 4000):
            n = len(clients[ghost].errors)
            await clients[ghost].ws.send(raw)
            while len(clients[ghost].errors) == n:
                await clients[ghost].recv()
            assert clients[ghost].errors[-1]["code"] == "malformed", clients[ghost].errors[-1]
        assert len(srv.room(code).record.actions) == moves
        r = await act(clients[ghost], type="guess", word="zeppelin")   # the socket still serves
        assert game(r)["phase"] != "ghost_guess"
        await sync(clients.values())
        assert all(game(c.last)["ghost_guesses"] for c in clients.values())   # everyone got the frame
        for c in clients.values():
            await c.close()

    run(scenario())


def test_host_disconnection_leaving_and_kicking(srv):
    async def scenario():
        code, clients = await open_room(srv, SIX, seed=13)
        await play(clients, vote_for=lambda *a: None, until=lambda r: game(r)["phase"] == "clues")
        # the host's connection drops: told after 1 minute, replaced after 2 (RULES 5.12)
        await clients.pop("p1").close()
        await sync(clients.values())
        bob = clients["p2"]
        assert game(bob.last)["host"] == "p1" and bob.last["host_offline"] is None
        assert "p1" in srv.room(code).state.disconnected
        p1 = next(m for m in bob.last["members"] if m["id"] == "p1")
        assert p1["connected"] is True  # not told before the minute
        pending = srv.clock.pending()
        assert 60.0 in pending and 30.0 in pending
        srv.advance(30)  # the speaker's timer on the way: the game goes on without the host
        srv.advance(30)
        await sync(clients.values())
        assert bob.last["host_offline"]["host"] == "p1" and bob.last["host_offline"]["replaced_in"] == 60.0
        assert not next(m for m in bob.last["members"] if m["id"] == "p1")["connected"]
        srv.advance(60)
        await sync(clients.values())
        assert game(bob.last)["host"] == "p2" and bob.last["host_offline"] is None
        assert srv.room(code).state.host_changes[-1] == {"from": "p1", "to": "p2", "why": "disconnected",
                                                        "round": 1}
        assert game(bob.last)["you"]["kick"]
        # the new host kicks Fay, Eve leaves: each counts as eliminated (RULES 5.12)
        r = await act(bob, type="kick", target="p6")
        assert r.get("type") != "error", r
        gone = await clients["p6"].recv()
        while gone["type"] != "gone":
            gone = await clients["p6"].recv()
        assert gone["reason"] == "kicked"
        fay = clients.pop("p6")
        async with websockets.connect(f"{srv.ws_base}/ws/spyword/{code}?token={fay.token}") as ws:
            assert json.loads(await ws.recv()) == {"type": "gone", "reason": "kicked"}  # the link opens nothing
        await act(clients["p5"], type="leave")
        clients.pop("p5")
        await sync(clients.values())
        g = game(bob.last)
        assert [e["by"] for e in g["eliminated"]] == ["kick", "leave"] and set(g["departed"]) == {"p5", "p6"}
        status, body = srv.post(f"/api/spyword/rooms/{code}/join", {"name": "Fay"})
        assert status == 409
        s = srv.room(code).state
        if not s.is_terminal():
            # two more leave: fewer than 4 in the room ends the game without a winner (unless decided)
            await act(clients["p4"], type="leave")
            clients.pop("p4")
            await sync(clients.values())
            room = bob.last
            assert room["phase"] == "over"
            assert game(room)["report"]["status"] in ("aborted", "finished")
            if game(room)["report"]["status"] == "aborted":
                assert game(room)["report"]["winner"] is None and room["result"] == {}
        for c in clients.values():
            await c.close()

    run(scenario())


def test_reconnecting_and_the_host_coming_back(srv):
    async def scenario():
        code, clients = await open_room(srv, SIX, seed=14)
        await play(clients, vote_for=lambda *a: None, until=lambda r: game(r)["phase"] == "clues")
        room = srv.room(code)
        # a player's connection drops: it stays in the game, the timers do not wait (RULES 5.12)
        cho = clients.pop("p3")
        await cho.close()
        await sync(clients.values())
        assert "p3" in room.state.disconnected and "p3" in room.state.remaining()
        assert not next(m for m in clients["p1"].last["members"] if m["id"] == "p3")["connected"]
        back = await Client.open(srv, code, cho.token)  # the same link: back in its seat
        clients["p3"] = back
        await sync(clients.values())
        assert "p3" not in room.state.disconnected and game(back.last)["word"] == room.state.word_of("p3")
        # the host drops and comes back within the minute: nobody is told, no new host
        host = clients.pop("p1")
        await host.close()
        await sync(clients.values())
        assert 60.0 in srv.clock.pending()
        srv.advance(20)
        clients["p1"] = await Client.open(srv, code, host.token)
        await sync(clients.values())
        assert room.timers.get("host") is None and room.state.host == "p1"
        srv.advance(100)
        await sync(clients.values())
        assert room.state.host == "p1" and not room.state.host_changes
        kinds = [next(iter(set(a.to_dict()) - {"seat"})) for a in room.record.actions]
        assert kinds.count("disconnect") == 2 and kinds.count("reconnect") == 2
        for c in clients.values():
            await c.close()

    run(scenario())


def test_peoples_clues_go_through_the_bots_checker(srv):
    async def scenario():
        code, clients = await open_room(srv, ["Ann", "Bob", "Cho", "Dan"], seed=3)
        roles = roles_of(srv, code)
        await play(clients, vote_for=lambda *a: None, until=lambda r: game(r)["phase"] == "clues")
        speaker = game(clients["p1"].last)["speaker"]
        c = clients[speaker]
        word = game(c.last)["word"]
        assert word in ("dog", "cat")
        v = c.last["version"]
        refusals = {}
        for text in (word, word.upper() + "!", "hot" + word, {"dog": "개", "cat": "고양이"}[word]):
            err = await c.error(type="clue", text=text)
            assert err["code"] == "illegal" and err["rule"] == "5.4", err
            refusals[text] = err["message"]
        assert "word itself" in refusals[word]
        assert "contains" in refusals["hot" + word] and "RULES 4.3" in refusals["hot" + word]
        assert "translation" in refusals[{"dog": "개", "cat": "고양이"}[word]]
        assert c.last["version"] == v
        await act(c, type="clue", text="meadow")
        await sync(clients.values())
        nxt = clients[game(c.last)["speaker"]]
        err = await nxt.error(type="clue", text="Meadow")
        assert "repeats an earlier clue" in err["message"]
        assert roles
        for c in clients.values():
            await c.close()

    run(scenario())


def test_a_clue_checker_that_fails_leaves_the_plain_checks_not_a_dropped_socket(srv):
    """When the translation check of the bots' embeddings fails (a model that cannot be loaded or
    raises), a person's clue crashed that person's socket: no error frame, the connection closed and
    the seat disconnected (RULES 5.12), every later clue the same. As Codenames' referee does without
    its filter, the engine's own checks (not the word, not a part of it) judge the clue then."""
    async def scenario():
        code, clients = await open_room(srv, ["Ann", "Bob", "Cho", "Dan"], seed=3)
        await play(clients, vote_for=lambda *a: None, until=lambda r: game(r)["phase"] == "clues")
        room = srv.room(code)

        def broken(*args):
            raise RuntimeError("the embeddings could not be loaded")

        room.checker._check = broken
        speaker = game(clients["p1"].last)["speaker"]
        c = clients[speaker]
        word = game(c.last)["word"]
        err = await c.error(type="clue", text="hot" + word)
        assert err["code"] == "illegal" and err["rule"] == "5.4" and "RULES 4.3" in err["message"], err
        r = await act(c, type="clue", text="meadow")
        assert r.get("type") != "error" and "meadow" in [x["clue"] for x in game(r)["clues"]], r
        assert speaker not in room.state.disconnected
        for c in clients.values():
            await c.close()

    run(scenario())


def test_a_spy_is_told_only_when_the_host_turns_the_reveal_on(srv):
    async def scenario():
        for tell in (False, True):
            code, clients = await open_room(srv, ["Ann", "Bob", "Cho", "Dan"], seed=21,
                                            settings={"tell_minority": tell})
            roles = roles_of(srv, code)
            spy = next(s for s, r in roles.items() if r == "spy")
            await play(clients, vote_for=lambda *a: None, until=lambda r: game(r)["phase"] == "clues")
            g = game(clients[spy].last)
            said = "spy" in json.dumps(clients[spy].last).lower()
            assert g["role"] == ("spy" if tell else None) and said == tell
            for s, c in clients.items():
                if s != spy:
                    assert game(c.last)["role"] is None and "spy" not in json.dumps(c.last).lower()
            for c in clients.values():
                await c.close()

    run(scenario())


def test_a_seat_holds_at_most_a_few_sockets(srv):
    """As in the Duet server: one socket more than MAX_SEAT_SOCKETS for a seat is refused (4429) and
    changes nothing; closing one lets a new one in."""
    from experiments.web.messages import MAX_SEAT_SOCKETS

    async def scenario():
        code, clients = await open_room(srv, SIX, seed=21)
        room = srv.room(code)
        host = clients["p1"]
        extra = [await Client.open(srv, code, host.token) for _ in range(MAX_SEAT_SOCKETS - 1)]
        assert len(room.sockets["p1"]) == MAX_SEAT_SOCKETS
        async with websockets.connect(f"{srv.ws_base}/ws/spyword/{code}?token={host.token}") as ws:
            msg = json.loads(await ws.recv())
            assert msg["type"] == "error" and msg["code"] == "too_many_sockets", msg
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd.code == 4429
        assert len(room.sockets["p1"]) == MAX_SEAT_SOCKETS
        await extra.pop().close()
        for _ in range(100):   # the server lets the closed socket go as soon as it reads the close
            if len(room.sockets["p1"]) < MAX_SEAT_SOCKETS:
                break
            await asyncio.sleep(0.05)
        extra.append(await Client.open(srv, code, host.token))
        assert extra[-1].last is not None and len(room.sockets["p1"]) == MAX_SEAT_SOCKETS
        for c in [*clients.values(), *extra]:
            await c.close()

    run(scenario())


def test_seats_and_bots_named_by_a_list_or_an_object_are_refused(srv):
    """Audit 9: a kick's target, the bot kind and the seat shown on a single device were looked up in a
    dict before their type was checked: a list (unhashable) raised TypeError, which closed the socket
    with a traceback in the server's log instead of an error frame."""
    async def scenario():
        status, made = srv.post("/api/spyword/rooms", {"name": "Ann", "device": "single"})
        assert status == 200
        phone = await Client.open(srv, made["code"], made["token"])
        for msg in ({"type": "kick", "target": []}, {"type": "kick", "target": {"p1": 1}},
                    {"type": "settings", "bot": []}, {"type": "settings", "bot": {}}):
            err = await phone.error(**msg)
            assert err["code"] in ("bad_move", "bad_settings"), (msg, err)
        for name in ("Bob", "Cho", "Dan"):
            await act(phone, type="add_player", name=name)
        await act(phone, type="start")
        for seat in ([], {"p1": 1}, ["p1"]):
            assert (await phone.error(type="show", seat=seat))["code"] == "bad_move", seat
        await phone.send(type="show", seat="p2")   # the socket still serves: wait for the frame of the
        r = await phone.wait(lambda room: room["holder"] is not None)   # move, not a frame sent before it
        assert r["holder"] == "p2"
        await phone.close()

    run(scenario())


def test_a_single_device_shows_one_card_at_a_time(srv):
    async def scenario():
        status, made = srv.post("/api/spyword/rooms", {"name": "Ann", "device": "single", "seed": 5})
        assert status == 200
        code = made["code"]
        status, body = srv.post(f"/api/spyword/rooms/{code}/join", {"name": "Bob"})
        assert status == 409 and body["code"] == "single_device"
        phone = await Client.open(srv, code, made["token"])
        for name in ("Bob", "Cho", "Dan"):
            await act(phone, type="add_player", name=name)
        r = await act(phone, type="settings", players=5)  # one bot
        assert [m["kind"] for m in r["members"]] == ["person"] * 4
        r = await act(phone, type="start")
        roles = roles_of(srv, code)
        await phone.drain()
        r = phone.last
        assert r["me"] is None and "word" not in r["game"] and r["holder"] is None and "private" not in r
        assert set(r["waiting"]) == {"p1", "p2", "p3", "p4"}
        # each card behind a "got it" step: show -> the card of that player only -> ready hides it
        assert (await phone.error(type="ready"))["code"] == "not_shown"
        for seat in ("p1", "p2", "p3", "p4"):   # the bot readies itself meanwhile: wait for the frame of the move
            await phone.send(type="show", seat=seat)
            r = await phone.wait(lambda room: room["holder"] is not None)
            assert r["holder"] == seat and r["private"]["seat"] == seat and r["private"]["you"]["ready"]
            assert (await phone.error(type="ready", seat="p9"))["code"] == "not_your_seat"
            await phone.send(type="ready")
            r = await phone.wait(lambda room: room["holder"] is None)
            assert "private" not in r
        await phone.drain()
        r = phone.last
        g = r["game"]
        assert g["phase"] in ("clues", "discussion", "vote")
        # no speaking timer on one device (RULES 5.4); no leaving or kicking
        assert r["timer"] is None or r["timer"]["kind"] != "speaker"
        assert (await phone.error(type="leave"))["rule"] == "5.12"
        words = {}
        while phone.last["game"]["phase"] == "clues":
            speaker = phone.last["game"]["speaker"]
            if speaker is None or speaker.startswith("b"):
                await phone.recv()
                continue
            r = await act(phone, type="show", seat=speaker)
            words[speaker] = r["private"]["word"]
            used = [c["clue"] for c in r["game"]["clues"] if c["clue"]]
            from spyword_harness import legal_clue

            await act(phone, type="clue", text=legal_clue(words[speaker], used))
            await phone.drain(0.1)
        r = phone.last
        assert r["game"]["phase"] == "discussion" and r["timer"]["kind"] == "discussion"
        await act(phone, type="start_vote")  # anyone may start it on one device (RULES 5.5)
        await phone.drain(0.1)
        assert phone.last["game"]["phase"] == "vote" and phone.last["timer"] is None  # no vote timer
        # secret voting in turn: one player at a time, nobody's vote shown to the next
        voted = []
        while phone.last["game"]["phase"] == "vote" and phone.last["waiting"]:
            seat = phone.last["waiting"][0]
            r = await act(phone, type="show", seat=seat)
            assert r["private"]["my_vote"] is None
            target = r["private"]["you"]["vote"][0]
            r = await act(phone, type="vote", target=target)
            voted.append(seat)
            assert "private" not in r and all("votes" not in v or v["round"] < 1 for v in [])
            await phone.drain(0.1)
        assert set(voted) == {"p1", "p2", "p3", "p4"} - {e["seat"] for e in phone.last["game"]["eliminated"]
                                                          if e["round"] < 1}
        assert phone.last["game"]["votes"]  # the vote is shown once it is over
        assert roles
        await phone.close()

    run(scenario())


def test_a_restarted_server_resumes_the_game(tmp_path):
    first = SpyServer(tmp_path, packs=PACKS).start()
    tokens = {}
    try:
        async def before():
            code, clients = await open_room(first, ["Ann", "Bob", "Cho", "Dan"], seed=41, players=5)
            await play(clients, vote_for=lambda *a: None, until=lambda r: game(r)["phase"] != "ready")
            await clients["p1"].wait(lambda r: game(r)["phase"] == "clues" and game(r)["speaker"].startswith("p"))
            await sync(clients.values())
            tokens.update({s: c.token for s, c in clients.items()})
            state = first.room(code).state
            snapshot = (state.phase, state.round, list(state.clues), state.word_of("p2"))
            for c in clients.values():
                await c.close()
            return code, snapshot

        code, snapshot = run(before())
    finally:
        first.stop()
    again = SpyServer(tmp_path, packs=PACKS).start()
    try:
        room = again.room(code)
        s = room.state
        assert (s.phase, s.round, list(s.clues), s.word_of("p2")) == snapshot
        assert {"p1", "p2", "p3", "p4"} <= s.disconnected  # nobody is connected after a restart (5.12)

        async def after():
            bob = await Client.open(again, code, tokens["p2"])
            await bob.wait(lambda r: r["game"] is not None and "p2" not in room.state.disconnected)
            assert game(bob.last)["word"] == snapshot[3] and bob.last["phase"] == "playing"
            await bob.close()

        run(after())
    finally:
        again.stop()


def test_a_stopped_game_stays_stopped_after_a_restart(tmp_path):
    """The record of a game a bot stopped keeps the error ('web': {'error'}), but a restarted server
    resumed it as a running game: the error gone, the timers armed again and the people's moves
    taken, the failed bot driven again. It stays stopped, as the Codenames tables do."""
    first = SpyServer(tmp_path, packs=PACKS).start()
    try:
        async def before():
            code, clients = await open_room(first, ["Ann", "Bob", "Cho", "Dan"], seed=41, players=5)
            await play(clients, vote_for=lambda *a: None, until=lambda r: game(r)["phase"] != "ready")
            for c in clients.values():
                await c.close()
            return code, clients["p1"].token

        code, token = run(before())
    finally:
        first.stop()
    path = next((tmp_path / "spyword").glob(f"{code}-*.json"))
    record = json.loads(path.read_text(encoding="utf-8"))
    record["web"]["error"] = "the bot on seat b1 failed (ValueError)"
    path.write_text(json.dumps(record), encoding="utf-8")
    actions = len(record["actions"])
    again = SpyServer(tmp_path, packs=PACKS).start()
    try:
        room = again.room(code)
        assert room.error == record["web"]["error"] and again.clock.pending() == []

        async def after():
            ann = await Client.open(again, code, token)
            frame = await hello(ann)
            assert frame["error"] == record["web"]["error"] and frame["timer"] is None
            assert (await ann.error(type="ready"))["code"] == "game_stopped"
            await ann.close()

        run(after())
        again.advance(600)
        assert not room.state.is_terminal() and room.phase == "playing"
        # only the Disconnect / Reconnect of the people's pages were added
        added = room.record.actions[actions:]
        assert all(type(a).__name__ in ("Disconnect", "Reconnect") for a in added), added
    finally:
        again.stop()


def test_a_bot_stopped_for_illegal_clues_names_no_word(tmp_path):
    """A bot whose clues the checker keeps refusing stops the game; the reason the whole room sees
    names the rule, never the refusal's text, which quotes the bot's secret word (RULES 5.4)."""
    bots = {"easy": "tests.agents.hostile_agent:OwnWordBot+fake?vocab=400"}
    server = SpyServer(tmp_path, packs=PACKS, bot_kinds=bots).start()
    try:
        async def scenario():
            code, clients = await open_room(server, ["Ann"], players=4, seed=9)
            room = server.room(code)
            ann = clients["p1"]
            bot_words = {s: room.state.word_of(s) for s in room.state.roles if s.startswith("b")}
            await play(clients, vote_for=lambda *a: None, until=lambda r: bool(r.get("error")))  # up to the bots
            frame = await ann.wait(lambda r: bool(r.get("error")), timeout=60)
            assert "bot" in frame["error"] and "RULES 5.4" in frame["error"], frame["error"]
            for seat, word in bot_words.items():  # even the word a person shares tells them the bot's side
                assert not word or word not in frame["error"], (seat, word, frame["error"])
            assert (await ann.error(type="clue", text="meadow"))["code"] == "game_stopped"
            await ann.close()

        run(scenario())
    finally:
        server.stop()


def test_a_game_stopped_by_a_bot_stops_its_clock(tmp_path):
    """A bot that keeps making illegal moves stops the game ('The game stopped'), and the people's
    moves are refused from then on; the room's timers (RULES 5.4-5.6: speaker, vote, discussion)
    went on applying their Timeouts to the stopped game, which moved on without anyone and could
    end with XP for the profiles (a game nobody could play). A stopped game's clock stops too."""
    bots = {"easy": "tests.agents.hostile_agent:OwnWordBot+fake?vocab=400"}
    server = SpyServer(tmp_path, packs=PACKS, bot_kinds=bots).start()
    try:
        ann_profile = server.profile("Ann")

        async def scenario():
            code, clients = await open_room(server, ["Ann"], players=4, seed=9,
                                            profiles={"Ann": {"id": ann_profile["id"], "key": ann_profile["key"]}})
            room = server.room(code)
            ann = clients["p1"]
            await play(clients, vote_for=lambda *a: None, until=lambda r: bool(r.get("error")))
            await ann.wait(lambda r: bool(r.get("error")), timeout=60)
            actions, phase = len(room.record.actions), room.state.phase
            assert server.clock.pending() == []   # nothing armed on a stopped game
            for _ in range(20):
                await asyncio.get_running_loop().run_in_executor(None, server.advance, 200)
            assert len(room.record.actions) == actions and room.state.phase == phase
            assert room.phase == "playing" and not room.state.is_terminal()
            frame = await hello(ann)
            assert frame["timer"] is None and frame["error"]
            await ann.close()

        run(scenario())
        status, p = server.get(f"/api/spyword/profiles/{ann_profile['id']}")
        assert status == 200 and p["xp"] == 0 and p["stats"]["played"] == 0, p
    finally:
        server.stop()


def test_after_the_game_a_person_present_hosts_the_next_one(srv):
    """Audit: once a game was over, the room's host was still the game's last host, even after it
    left the room (its own 'leave' in the end screen moved the room's host, but the check and the
    frames read the game's), or when the game had passed the host to a bot (RULES 5.12: a host who
    leaves when the players after it are gone or disconnected): nobody could start another game, and
    the frames named a host who was not there."""
    async def scenario():
        # the host leaves the end screen: the next person present starts the next game
        code, clients = await open_room(srv, ["Ann", "Bob", "Cho", "Dan"], seed=31)
        roles = roles_of(srv, code)
        spy = next(s for s, r in roles.items() if r == "spy")
        citizen = next(s for s in roles if roles[s] == "citizen")
        room = await play(clients, vote_for=lambda seat, ch, g: citizen if seat == spy else spy)
        assert room["phase"] == "over" and room["host"] == "p1"
        await act(clients.pop("p1"), type="leave")
        await sync(clients.values())
        assert all(c.last["host"] == "p2" for c in clients.values())
        r = await act(clients["p2"], type="again")
        assert r.get("type") != "error" and r["phase"] == "lobby" and r["host"] == "p2", r
        for c in clients.values():
            await c.close()
        # the game passed the host to a bot (the people after the host had dropped), then ended
        code, clients = await open_room(srv, ["Ann", "Bob", "Cho", "Dan"], players=6, seed=5)
        state = srv.room(code).state
        for seat in ("p2", "p3", "p4"):
            tokens = clients[seat].token
            await clients[seat].close()
            clients[seat] = tokens
        for _ in range(100):
            if {"p2", "p3", "p4"} <= state.disconnected:
                break
            await asyncio.sleep(0.05)
        await clients["p1"].drain()
        await act(clients.pop("p1"), type="leave")
        assert state.host == "b1"
        back = {s: await Client.open(srv, code, clients[s]) for s in ("p2", "p3", "p4")}
        await sync(back.values())
        for seat in ("p2", "p3"):   # then 3 left in the room: no winner (RULES 5.12)
            await back[seat].drain()
            await act(back.pop(seat), type="leave")
        await sync(back.values())
        room = back["p4"].last
        assert room["phase"] == "over" and state.host == "b1" and room["host"] == "p4", room["host"]
        r = await act(back["p4"], type="again")
        assert r.get("type") != "error" and r["phase"] == "lobby", r
        for c in back.values():
            await c.close()

    run(scenario())


def test_the_host_is_replaced_once_someone_is_back(srv):
    """Audit: when the host's 2 minutes ran out while nobody else was connected, the replacement was
    refused (no connected player) and its timer kept as spent; a player coming back did not arm it
    again, so the gone host stayed host for good and, with an unlimited discussion, nobody could start
    the vote (RULES 5.5, 5.12): the room was stuck. The first player back takes over at once."""
    async def scenario():
        code, clients = await open_room(srv, ["Ann", "Bob", "Cho", "Dan"], seed=3,
                                        settings={"discussion_seconds": "unlimited"})
        room = srv.room(code)
        await play(clients, vote_for=lambda *a: None, until=lambda r: game(r)["phase"] == "discussion")
        for c in clients.values():
            await c.close()
        for _ in range(100):
            if len(room.state.disconnected) == 4:
                break
            await asyncio.sleep(0.05)
        srv.advance(60)
        srv.advance(60)   # the 2 minutes are up: nobody connected can take over
        assert room.state.host == "p1"
        bob = await Client.open(srv, code, clients["p2"].token)
        srv.advance(0)
        await bob.wait(lambda r: game(r)["host"] == "p2")
        assert room.state.host_changes[-1]["to"] == "p2" and bob.last["host"] == "p2"
        r = await act(bob, type="start_vote")
        assert r.get("type") != "error" and game(r)["phase"] == "vote", r
        await bob.close()

    run(scenario())


def test_a_move_naming_another_seat_is_refused_whatever_its_type(srv):
    """Audit: on many devices a move naming another seat than the socket's is refused (not_your_seat,
    docs/spyword_web.md), but 'leave', 'kick' and 'start_vote' ignored the seat they named: Cho's
    {"type": "leave", "seat": "p2"} took Cho out of the game (RULES 5.12), where nothing may change."""
    async def scenario():
        code, clients = await open_room(srv, SIX, seed=3, settings={"discussion_seconds": "unlimited"})
        room = srv.room(code)
        await play(clients, vote_for=lambda *a: None, until=lambda r: game(r)["phase"] == "discussion")
        await sync(clients.values())
        moves = len(room.record.actions)
        for c, msg in ((clients["p3"], {"type": "leave", "seat": "p2"}),
                       (clients["p1"], {"type": "kick", "target": "p4", "seat": "p2"}),
                       (clients["p1"], {"type": "start_vote", "seat": "p2"})):
            err = await c.error(**msg)
            assert err["code"] == "not_your_seat", (msg, err)
        assert len(room.record.actions) == moves and not room.state.departed
        assert room.state.phase == "discussion"
        for c in clients.values():
            await c.close()
        # in the lobby and on the end screen too: a 'leave' for another seat changes nothing
        status, made = srv.post("/api/spyword/rooms", {"name": "Ann"})
        status, bob = srv.post(f"/api/spyword/rooms/{made['code']}/join", {"name": "Bob"})
        ann = await Client.open(srv, made["code"], made["token"])
        assert (await ann.error(type="leave", seat="p2"))["code"] == "not_your_seat"
        assert set(srv.room(made["code"]).members) == {"p1", "p2"}
        await ann.close()

    run(scenario())


def test_hide_is_a_single_device_message(srv):
    """Audit: on many devices 'show' was refused but 'hide' (a single device's: the phone's card
    hidden) was taken: it changed nothing but the room's version, and sent every player a new frame.
    It is refused with its reason, to that socket only."""
    async def scenario():
        code, clients = await open_room(srv, ["Ann", "Bob", "Cho", "Dan"], seed=3)
        await sync(clients.values())
        v = srv.room(code).version
        err = await clients["p2"].error(type="hide")
        assert err["code"] == "bad_move" and "single device" in err["message"], err
        await clients["p1"].drain(0.2)
        assert srv.room(code).version == v and clients["p1"].last["version"] == v
        for c in clients.values():
            await c.close()

    run(scenario())


def test_a_host_gone_from_the_lobby_or_the_end_screen_is_replaced(srv):
    """Audit: only the host starts a game (and another one after the end), but the host's dropped
    connection was handled in a game only: a host who closed its page in the lobby or on the end
    screen left a room where nobody could ever start. As in the game (RULES 5.12), after 2 minutes
    the first person connected becomes host; a host back in time stays host."""
    async def scenario():
        status, made = srv.post("/api/spyword/rooms", {"name": "Ann"})
        code = made["code"]
        tokens = {"p1": made["token"]}
        for name in ("Bob", "Cho", "Dan"):
            status, joined = srv.post(f"/api/spyword/rooms/{code}/join", {"name": name})
            tokens[joined["member"]] = joined["token"]
        clients = {s: await Client.open(srv, code, t) for s, t in tokens.items()}
        await sync(clients.values())
        await clients.pop("p1").close()
        await clients["p2"].wait(lambda r: not next(m for m in r["members"] if m["id"] == "p1")["connected"])
        srv.advance(100)
        clients["p1"] = await Client.open(srv, code, tokens["p1"])   # back in time: still the host
        srv.advance(100)
        await sync(clients.values())
        assert clients["p2"].last["host"] == "p1"
        await clients.pop("p1").close()
        await clients["p2"].wait(lambda r: not next(m for m in r["members"] if m["id"] == "p1")["connected"])
        srv.advance(119)
        await sync(clients.values())
        assert clients["p2"].last["host"] == "p1"
        srv.advance(1)
        await clients["p2"].wait(lambda r: r["host"] == "p2")
        r = await act(clients["p2"], type="kick", target="p1")   # the new host's controls: the lobby's
        assert r.get("type") != "error" and "p1" not in [m["id"] for m in r["members"]], r
        r = await act(clients["p2"], type="start")
        assert r.get("type") != "error" and r["phase"] == "playing", r
        await sync(clients.values())
        # the end screen: Bob's page closes, Cho takes over after 2 minutes and starts another game
        room = await play(clients, vote_for=lambda seat, choices, g: choices[0])
        assert room["phase"] == "over" and room["host"] == "p2"
        await clients.pop("p2").close()
        srv.advance(120)
        await clients["p3"].wait(lambda r: r["host"] == "p3")
        r = await act(clients["p3"], type="again")
        assert r.get("type") != "error" and r["phase"] == "lobby", r
        for c in clients.values():
            await c.close()

    run(scenario())


def test_a_refused_settings_message_changes_nothing(srv):
    """RULES 5.14 (host settings): a settings message with one bad part is refused whole; its good
    parts (a setting, the seats, the bot kind, the packs' language) were applied before the bad one
    was found, so the host's error frame came with a lobby already changed."""
    async def scenario():
        status, made = srv.post("/api/spyword/rooms", {"name": "Ann"})
        host = await Client.open(srv, made["code"], made["token"])
        await sync([host])
        for msg in [{"settings": {"allow_pass": True}, "players": 3},
                    {"settings": {"vote_display": "counts"}, "bot": "genius"},
                    {"players": 9, "lang": "fr"},
                    {"bot": "easy", "players": 13}]:
            before = {k: host.last[k] for k in ("settings", "players", "bot", "lang", "version")}
            err = await host.error(type="settings", **msg)
            assert err["code"] == "bad_settings", (msg, err)
            assert {k: (await hello(host))[k] for k in before} == before, msg
        await host.close()

    run(scenario())


def test_a_settings_message_with_an_unknown_part_is_refused(srv):
    """RULES 5.14 (host settings): a misspelt part of a settings message ('playrs', 'language') was
    ignored: the host's change was silently lost and the lobby answered as if it had been made."""
    async def scenario():
        status, made = srv.post("/api/spyword/rooms", {"name": "Ann"})
        host = await Client.open(srv, made["code"], made["token"])
        await sync([host])
        for msg in [{"playrs": 8}, {"players": 8, "language": "ko"}, {"settings": {"allow_pass": True}, "x": 1}]:
            before = {k: host.last[k] for k in ("settings", "players", "bot", "lang", "version")}
            err = await host.error(type="settings", **msg)
            assert err["code"] == "bad_settings" and "unknown part" in err["message"], (msg, err)
            assert {k: (await hello(host))[k] for k in before} == before, msg
        r = await act(host, type="settings", players=8, seat="p1")
        assert r.get("type") != "error" and r["players"] == 8, r
        await host.close()

    run(scenario())


@pytest.mark.parametrize("display, status", [("counts", 403), ("public", 200)])
def test_a_counts_only_games_record_is_not_served(srv, display, status):  # RULES 5.8
    """A counts-only game keeps who voted for whom secret (docs/spyword.md), in its end report too,
    but its record, which holds every vote with its target, was served to anyone with its link."""
    from engine.records import record_to_json
    from engine.spyword import GiveClue, Ready, SpyWordSettings, Vote, action_from_dict, deal_spyword

    packs = [{"id": f"t-{i}", "category": "x", "words": [f"a{i}", f"b{i}"]} for i in range(3)]
    rec = deal_spyword(2, packs, 4, settings=SpyWordSettings(vote_display=display), lang="en")
    rec.clue_filter = False
    spy = next(s for s, r in rec.roles.items() if r == "spy")
    other = next(s for s in rec.seats if s != spy)
    rec.actions += [Ready(s) for s in rec.seats] + [GiveClue(s, f"c{i}") for i, s in enumerate(rec.order)]
    rec.actions += [action_from_dict({"seat": "host", "start_vote": True})]
    rec.actions += [Vote(v, spy if v != spy else other) for v in rec.seats]
    assert rec.replay().phase == "finished"
    data = json.loads(record_to_json(rec)) | {"web": {"status": "over", "members": []}}
    folder = srv.games_dir / "spyword"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"VOTE-1-{display}.json").write_text(json.dumps(data), encoding="utf-8")
    got, body = srv.get(f"/api/spyword/games/VOTE-1-{display}/record")
    assert got == status, body
    assert (spy in json.dumps(body)) == (display == "public")   # a counts-only answer names no vote's target


@pytest.mark.parametrize("taken, name", [("Ann", "ann"), ("Ann", "\uff21\uff4e\uff4e"), ("fina", "\ufb01na"),
                                         ("Dan", "DAN"), ("\ud55c", "\u1112\u1161\u11ab")])
def test_a_name_that_reads_as_one_taken_in_the_room_is_refused(srv, taken, name):
    """Two players of a room whose names read the same are told apart by nothing on the table: the
    room compared names case-folded only, so 'Ann' and full-width 'Ａｎｎ' (or the ligature 'ﬁ' for
    'fi') both joined. Names are compared as the clue filter compares words (NFKC, case folded)."""
    status, made = srv.post("/api/spyword/rooms", {"name": taken})
    assert status == 200, made
    status, body = srv.post(f"/api/spyword/rooms/{made['code']}/join", {"name": name})
    assert status == 409 and body["code"] == "name_taken", body
    status, body = srv.post(f"/api/spyword/rooms/{made['code']}/join", {"name": taken + "2"})
    assert status == 200, body


@pytest.mark.parametrize("move", [{"type": "ready"}, {"type": "clue", "text": "meadow"}, {"type": "vote", "target": "p1"},
                                  {"type": "start_vote"}, {"type": "guess", "word": "dog"}, {"type": "dismiss"}])
def test_a_game_move_in_the_lobby_says_the_game_has_not_started(srv, move):
    """A game move before the start was answered, for anyone but the host, 'only the host changes
    the room (settings, players, start)' (not_host), which the player had not tried; for the host
    'unknown lobby message'. Both now say the game has not started, and nothing changes."""
    async def scenario():
        status, made = srv.post("/api/spyword/rooms", {"name": "Ann"})
        code = made["code"]
        status, joined = srv.post(f"/api/spyword/rooms/{code}/join", {"name": "Bob"})
        ann = await Client.open(srv, code, made["token"])
        bob = await Client.open(srv, code, joined["token"])
        await sync([ann, bob])
        version = srv.room(code).version
        for c in (ann, bob):
            err = await c.error(**move)
            assert err["code"] == "bad_move" and "has not started" in err["message"], err
        assert srv.room(code).version == version and srv.room(code).phase == "lobby"
        await ann.close()
        await bob.close()

    run(scenario())


@pytest.mark.parametrize("path, body, field", [("/api/spyword/rooms", {"name": "Ann", "devce": "single"}, "devce"),
                                               ("/api/spyword/rooms", {"name": "Ann", "language": "ko"}, "language"),
                                               ("/api/spyword/profiles", {"name": "Ann", "nick": "A"}, "nick")])
def test_a_request_with_an_unknown_field_is_refused_not_dropped(srv, path, body, field):
    """RULES 5.14 (the room's table mode and packs, chosen at its creation): a misspelt field of a new
    room ('devce': 'single', 'language': 'ko') was dropped, and a multi-device English room made with
    200, as if the host had asked for it. 400 naming the field now, as a settings message's unknown part."""
    status, reply = srv.post(path, body)
    assert status == 400 and field in reply["error"], reply


def test_a_join_with_an_unknown_field_is_refused_not_dropped(srv):
    status, made = srv.post("/api/spyword/rooms", {"name": "Ann"})
    assert status == 200, made
    status, reply = srv.post(f"/api/spyword/rooms/{made['code']}/join", {"name": "Bob", "profil": {"id": "x"}})
    assert status == 400 and "profil" in reply["error"], reply


def test_custom_packs_with_a_word_no_screen_can_show_are_refused_when_the_server_is_made(tmp_path):  # RULES 5.3
    """create_app(packs=...) took any packs; one whose word ends in a CR (a CRLF file) or a space was
    dealt into a room's game and that record refused as malformed when the server started again."""
    from experiments.web.clock import FakeClock
    from experiments.web.spyword_rooms import RoomStore

    bad = {"en": [{"id": "t-1", "words": ["dog", "cat"]}, {"id": "t-2", "words": ["tea\r", "coffee"]}]}
    with pytest.raises(ValueError, match=r"packs\['en'\]\[1\]: RULES 5.3"):
        RoomStore(tmp_path, FakeClock(), None, packs=bad)
    with pytest.raises(ValueError, match="non-empty list"):
        RoomStore(tmp_path, FakeClock(), None, packs={"en": []})
    RoomStore(tmp_path, FakeClock(), None, packs=PACKS)


def test_a_room_may_name_any_seed_cnlab_deal_takes(srv):
    """A room's named seed was refused past 2^31-1, though `cnlab deal spyword` takes 0..2^64-1 and the
    server draws among 2^63; game n of the room is dealt from seed + n - 1, past 2^64-1 round to 0."""
    for seed in (2**64 - 1, 2**40):
        status, made = srv.post("/api/spyword/rooms", {"name": "Ann", "seed": seed})
        assert status == 200, made
        assert srv.room(made["code"]).seed == seed
    for seed in (2**64, -1):
        status, body = srv.post("/api/spyword/rooms", {"name": "Ann", "seed": seed})
        assert status == 400 and "0..2^64-1" in body["error"], body


    async def scenario():
        code, _ = await open_room(srv, ["Ann", "Bob", "Cho", "Dan"], seed=2**64 - 1)
        return srv.room(code).record.seed

    assert run(scenario()) == 2**64 - 1   # the room's first game: its seed, a record cnlab replay reads


def test_a_server_given_the_packs_of_one_language_deals_the_other_from_the_shipped_packs(tmp_path):  # RULES 5.3
    """create_app(packs={"en": [...]}) left Korean rooms no packs: starting one raised KeyError."""
    from experiments.games.spyword.dealing import load_packs
    from experiments.web.clock import FakeClock
    from experiments.web.spyword_rooms import RoomStore

    store = RoomStore(tmp_path, FakeClock(), None, packs={"en": PACKS["en"]})
    assert store.packs("en") == PACKS["en"] and store.packs("ko") == load_packs("ko")
def test_a_message_with_a_field_it_does_not_have_is_refused_not_dropped(srv):
    """A message's fields are its type's (docs/spyword_web.md; any may name its seat): a misspelt one was
    dropped and the message played without it. It is refused, naming the field, and nothing changes."""
    async def scenario():
        code, clients = await open_room(srv, SIX, seed=13)
        host = clients["p1"]
        await sync(clients.values())
        before = host.last["version"]
        for msg, named in [({"type": "ready", "ready": False}, "ready"),
                           ({"type": "start_vote", "now": True}, "now"),
                           ({"type": "leave", "reason": "x"}, "reason"),
                           ({"type": "vote", "target": "p2", "targets": ["p3"]}, "targets"),
                           ({"type": "again", "x": 1}, "'x'")]:
            error = await host.error(**msg)
            assert error["code"] == "bad_move" and named in error["message"], (msg, error)
        assert (await hello(host))["version"] == before
        assert "p1" in srv.room(code).members and srv.room(code).phase == "playing"
        r = await act(host, type="ready", seat="p1")   # its own fields: played
        assert r.get("type") != "error", r
        for c in clients.values():
            await c.close()

    run(scenario())


@pytest.mark.parametrize("edit, named", [
    (lambda w: w.__setitem__("members", [m for m in w["members"] if m["id"] != "p3"]), "p3"),   # a seat nobody holds
    (lambda w: w["members"][1].__setitem__("kind", "alien"), "p2"),
    (lambda w: w["members"].append(dict(w["members"][0])), "p1"),                                 # one seat twice
    (lambda w: w.__setitem__("host", "p9"), "p9"),
    (lambda w: w.__setitem__("lang", "fr"), "fr"),
    (lambda w: w["members"][1].__setitem__("token_hash", "bob's link"), "p2"),   # no link opens the seat again
])
def test_a_saved_game_with_a_missing_or_unknown_member_is_refused_at_restart(tmp_path, caplog, edit, named):
    """A hand-edited or damaged record whose members are not the game's seats (one dropped, one of no
    kind, one twice), whose host is no member or whose packs' language is neither en nor ko was resumed:
    a seat of the game that no member holds, a host nobody is. It is skipped with one line naming it."""
    first = SpyServer(tmp_path, packs=PACKS).start()
    try:
        async def before():
            code, clients = await open_room(first, ["Ann", "Bob", "Cho", "Dan"], seed=41)
            for c in clients.values():
                await c.close()
            return code

        code = run(before())
    finally:
        first.stop()
    path = next((tmp_path / "spyword").glob(f"{code}-*.json"))
    record = json.loads(path.read_text(encoding="utf-8"))
    edit(record["web"])
    path.write_text(json.dumps(record), encoding="utf-8")
    with caplog.at_level("WARNING", logger="cnlab.web"):
        again = SpyServer(tmp_path, packs=PACKS).start()
    try:
        assert code not in again.rooms.rooms and again.get(f"/api/spyword/rooms/{code}")[0] == 404
        lines = [r.getMessage() for r in caplog.records if path.name in r.getMessage()]
        assert len(lines) == 1 and named in lines[0] and "\n" not in lines[0], lines
    finally:
        again.stop()
