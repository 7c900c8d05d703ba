"""A move names the view it was made on (`moves`, docs/web.md): a flaky or hostile client that sends
one move twice (a double click, a page re-sending after a reconnect) or a move meant for an earlier
turn gets it refused, not played on a later turn; a client that does not name it still plays."""

from __future__ import annotations

import json

import pytest
import websockets

from test_protocol import recv, recv_until, run
from web_harness import CHEAP


async def played(ws, n: int) -> dict:
    return (await recv_until(ws, lambda m: m["type"] == "state" and m["view"]["moves"] == n))["view"]


async def refused(ws) -> dict:
    return await recv_until(ws, lambda m: m["type"] == "error")


def first_of(key: str, letter: str) -> int:
    return key.index(letter)


@pytest.mark.parametrize("game", ["duet", "codenames", "pictures"])
def test_a_clue_sent_again_or_late_is_refused_not_played_on_a_later_turn(server, game):
    if game == "duet":
        settings = {"game": "duet", "mode": "people", "seed": 11}
    else:
        settings = {"game": game, "variant": "two_player", "seed": 11,
                    "seats": {"spymaster": "person", "guesser": "person"}}
    status, made = server.post("/api/games", {"lang": "en", **CHEAP, **settings})
    assert status == 200, made
    record = server.record(made["id"])
    giver, other = list(made["links"])   # Duet: A and B; two-player Codenames: the spymaster and the guesser
    tokens = {seat: link.rsplit("/", 1)[1] for seat, link in made["links"].items()}
    clue = {"type": "clue", "word": "zebra", "number": 1, "moves": 0}

    async def scenario():
        url = f"{server.ws_base}/ws/{made['id']}?token="
        async with websockets.connect(url + tokens[giver]) as g, websockets.connect(url + tokens[other]) as o:
            await recv_until(o, lambda m: m["type"] == "state"
                             and all(s["connected"] for s in m["view"]["seats"].values()))
            await g.send(json.dumps(clue))
            await g.send(json.dumps(clue))                        # a double click: both sent before any answer
            await played(g, 1)
            msg = await refused(g)
            assert msg["code"] == "stale" and "after move 0" in msg["message"] and "at move 1" in msg["message"], msg
            # the turn goes round to the same clue giver again
            if game == "duet":
                await o.send(json.dumps({"type": "guess", "card": first_of(record["key"]["A"], "N"), "moves": 1}))
                await played(o, 2)
                await o.send(json.dumps({"type": "clue", "word": "galaxy", "number": 1, "moves": 2}))
                await played(g, 3)
                await g.send(json.dumps({"type": "guess", "card": first_of(record["key"]["B"], "N"), "moves": 3}))
            else:
                await o.send(json.dumps({"type": "guess", "card": first_of(record["key"], "N"), "moves": 1}))
                await played(g, 2)
                opponent = "B" if record["key"].count("R") > record["key"].count("B") else "R"
                await g.send(json.dumps({"type": "cover", "card": first_of(record["key"], opponent), "moves": 2}))
            view = await played(g, 4 if game == "duet" else 3)
            assert view["you"].get("clue"), view["you"]
            for old in (clue, {**clue, "moves": 1}, {**clue, "moves": 99}):   # an old clue, one from the future
                await g.send(json.dumps(old))
                assert (await refused(g))["code"] == "stale"
            await g.send(json.dumps({**clue, "moves": "4"}))
            assert (await refused(g))["code"] == "bad_move"
            await g.send(json.dumps({**clue, "moves": True}))
            assert (await refused(g))["code"] == "bad_move"
            now = view["moves"]
            assert len(server.record(made["id"])["actions"]) == now   # none of them played
            # a client that names no view still plays (the field is optional)
            await g.send(json.dumps({k: v for k, v in clue.items() if k != "moves"}))
            assert (await played(g, now + 1))["history"][-1]["word"] == "zebra"

    run(scenario())


def test_the_page_names_the_view_of_its_moves_and_says_why_a_second_click_was_not_played(page, server):
    """The page sends its view's `moves` with every move: its own double click (the page's send, twice
    before the server answers) plays once, and the Korean interface says why the second was not."""
    from web_harness import wait_view

    status, made = server.post("/api/games", {"game": "duet", "lang": "en", "mode": "people", "seed": 12, **CHEAP})
    assert status == 200, made
    sent = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
    page.goto(f"{server.base}/?ui=ko#/play/{made['id']}/{made['token']}")
    wait_view(page, "v.you.clue")
    page.evaluate("() => { send({type: 'clue', word: 'zebra', number: 1}); send({type: 'clue', word: 'zebra', "
                  "number: 1}); }")
    page.wait_for_function("() => window.cnlabNotice && window.cnlabLastView.moves === 1")
    assert page.evaluate("() => window.cnlabNotice.code") == "stale"
    assert "0번째 수 뒤에 둔 수" in page.inner_text("#notice")
    clues = [json.loads(f) for f in sent if '"clue"' in f]
    assert [c.get("moves") for c in clues] == [0, 0]
    assert len(server.record(made["id"])["actions"]) == 1


def test_a_spyword_vote_sent_again_in_a_later_round_is_refused_not_counted(tmp_path):
    """Spy's Word rooms had the same hole: a vote message carries no round, so one re-sent by a flaky
    page in the next round's vote was that round's vote. A message may name the room's stage (the
    frame's `stage`); a later stage refuses it (`stale`), other players' votes meanwhile do not."""
    from spyword_harness import SpyServer, act, game, open_room, play, run as spy_run, sync

    packs = {"en": [{"id": "t-1", "category": "animal", "words": ["dog", "cat"]}],
             "ko": [{"id": "t-ko-1", "category": "동물", "words": ["개", "고양이"]}]}
    srv = SpyServer(tmp_path, packs=packs).start()

    async def scenario():
        code, clients = await open_room(srv, ["Ann", "Bob", "Cho", "Dan", "Eve", "Fay"], seed=11)
        roles = dict(srv.room(code).state.roles)
        citizens = [s for s, r in roles.items() if r == "citizen"]
        voter, out, kept = citizens[0], citizens[1], citizens[2]
        round_one = await play(clients, vote_for=lambda *a: None, until=lambda r: game(r)["phase"] == "vote")
        await sync(clients.values())
        stage = clients[voter].last["stage"]
        assert stage == round_one["stage"] and game(round_one)["round"] == 1
        old = {"type": "vote", "target": kept, "stage": stage}
        assert (await act(clients[voter], **old)).get("type") != "error"
        await sync(clients.values())
        assert clients[voter].last["stage"] == stage   # a vote moves no stage: the others still vote
        room = await play(clients, vote_for=lambda seat, choices, g: out if out in choices and seat != out else
                          next(c for c in choices if c not in (seat, "PASS")),
                          until=lambda r: game(r)["phase"] == "vote" and game(r)["round"] == 2)
        assert game(room)["round"] == 2 and [e["seat"] for e in game(room)["eliminated"]] == [out]
        await sync(clients.values())
        error = await clients[voter].error(**old)
        assert error["code"] == "stale" and stage in error["message"], error
        assert srv.room(code).state.votes.get(voter) is None
        bad = await clients[voter].error(**{**old, "stage": 3})
        assert bad["code"] == "bad_move"
        # without a stage (a client of before) the message still plays: the vote of this round
        assert (await act(clients[voter], type="vote", target=kept)).get("type") != "error"
        assert srv.room(code).state.votes.get(voter) == kept
        for c in clients.values():
            await c.close()

    try:
        spy_run(scenario())
    finally:
        srv.stop()
