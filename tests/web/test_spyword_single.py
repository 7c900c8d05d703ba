"""Spy's Word on one phone passed around (RULES 5), in Korean: the host adds the players at the
device, a bot fills the empty seat, each card is shown only after the "I am ..." step and hidden
again by "got it", clues are typed in turn with no speaking timer, anyone may start the vote, the
votes are secret and cast one at a time, and the game ends with its end screen and XP for every
player of the device. Every frame holds at most one player's card: the one who has the phone.
"""

from __future__ import annotations

import json

import pytest

from spyword_harness import Client, SpyServer, act, legal_clue, page_move, page_notice, run, view, wait_view
from web_harness import collect_frames, screenshot

PLAYERS = ["민지", "준호", "서연", "지훈"]


@pytest.fixture(scope="module")
def spy_server(tmp_path_factory):
    srv = SpyServer(tmp_path_factory.mktemp("spyword-single")).start()
    yield srv
    srv.stop()


def step(page, do) -> dict:
    """A move that the page must accept."""
    room = page_move(page, do)
    assert not page_notice(page), page_notice(page)
    return room


def test_one_phone_passed_around_in_korean(page, spy_server):
    srv = spy_server
    frames = collect_frames(page)
    page.goto(f"{srv.base}/spyword?ui=ko#/")
    assert page.inner_text("header .brand") == "스파이의 단어"
    page.fill("#profile-name", PLAYERS[0])
    page.select_option("#device", "single")
    page.select_option("#room-lang", "ko")
    page.click("#create-room")
    r = wait_view(page, "r.phase === 'lobby'")
    assert r["device"] == "single" and r["lang"] == "ko"
    for name in PLAYERS[1:]:
        page.fill("#add-name", name)
        step(page, lambda: page.click("#add-player"))
    r = wait_view(page, "r.members.length === 4")
    assert [m["name"] for m in r["members"]] == PLAYERS and all(m["badge"] for m in r["members"])
    step(page, lambda: page.select_option("#players", "5"))
    page.click("#start")
    r = wait_view(page, "r.phase === 'playing'")
    room = srv.room(r["code"])
    roles = dict(room.state.roles)
    spy = next(s for s, x in roles.items() if x == "spy")
    checks = {"pass_text": None, "clue_timer": [], "discussion_timer": None}
    for _ in range(300):
        r = view(page)
        if r["phase"] == "over":
            break
        g = r["game"]
        if r.get("private"):
            p = r["private"]
            you = p["you"]
            assert page.inner_text("#my-word") == (p["word"] or "?")
            if you.get("ready"):
                if p["seat"] == "p1":
                    screenshot(page, "spyword-single-card")
                step(page, lambda: page.click("#ready"))
            elif you.get("clue"):
                checks["clue_timer"].append(r["timer"])
                page.fill("#clue-text", legal_clue(p["word"], [c["clue"] for c in g["clues"] if c["clue"]], "ko"))
                step(page, lambda: page.click("#clue-send"))
            elif you.get("vote"):
                target = spy if spy in you["vote"] else you["vote"][0]
                step(page, lambda: page.click(f".vote-btn[data-target='{target}']"))
            elif you.get("guess"):
                page.fill("#guess-text", "비행선")
                step(page, lambda: page.click("#guess-send"))
            elif you.get("dismiss"):
                step(page, lambda: page.click("#dismiss"))
            else:  # a look at the word only
                step(page, lambda: page.click("#hide"))
        elif page.locator("#pass .show-btn").count():
            if checks["pass_text"] is None:
                checks["pass_text"] = page.inner_text("#pass-to")
                screenshot(page, "spyword-single-pass")
            step(page, lambda: page.click("#pass .show-btn"))
        elif g["phase"] == "discussion":
            checks["discussion_timer"] = r["timer"]
            step(page, lambda: page.click("#start-vote"))
        else:
            page.wait_for_timeout(50)
    else:
        raise AssertionError("the game did not end")
    assert "휴대폰을 넘기세요" in checks["pass_text"]
    assert checks["clue_timer"] and all(t is None for t in checks["clue_timer"])  # no speaking timer (5.4)
    assert checks["discussion_timer"]["kind"] == "discussion"
    page.wait_for_selector("#end #winner")
    record = srv.record(view(page)["game_id"])
    assert page.inner_text("#citizen-word") == record["citizen_word"]
    assert page.inner_text("#spy-word") == record["spy_word"]
    assert page.locator("#xp .xp-line").count() == 4  # every player of the device gets its XP

    # every frame: one card at most, the one of the player holding the phone
    shown = 0
    words = {record["citizen_word"], record["spy_word"]}
    for raw in frames:
        msg = json.loads(raw)
        if msg["type"] != "room" or not msg["room"].get("game") or msg["room"]["phase"] == "over":
            continue
        if msg["room"]["game"].get("report"):   # the game is over (RULES 5.13 shows both words) before the room is
            continue
        rr = msg["room"]
        assert "word" not in rr["game"] and "role" not in rr["game"]
        # the players' own names are the test's input, not the game's: 서연 holds the card word 연
        members = [dict(m, name=None) for m in rr["members"]]
        public = json.dumps(dict(rr, private=None, members=members, game=dict(rr["game"], clues=[])),
                            ensure_ascii=False)
        leaked = [w for w in words if w in public]
        assert not leaked, f"a word outside the holder's card: {leaked} in {public[:3000]}"
        if rr.get("private"):
            assert rr["holder"] == rr["private"]["seat"]
            shown += 1
        else:
            assert rr["holder"] is None
    assert shown >= 8


@pytest.mark.parametrize("lang, shown", [
    ("ko", "거절 (규칙 5.4): 자기 단어를 힌트로 말할 수 없습니다"),
    ("en", "Refused (RULES 5.4): a clue may not be the word itself")])
def test_a_korean_room_shows_a_refused_clue_in_korean(page, spy_server, lang, shown):  # RULES 5.4
    """The engine's refusal of a clue (the speaker's own word) reached a Korean room's page in English,
    turned into Korean by the page's regular expressions where one matched. Now the server words it in
    the room's language by its kind; an English room's page shows the English, unchanged."""
    srv = spy_server
    status, made = srv.post("/api/spyword/rooms", {"name": PLAYERS[0], "device": "single", "lang": lang})
    assert status == 200, made
    code = made["code"]

    async def cards_seen():   # the phone's other tab: four people, no bot, every card seen
        phone = await Client.open(srv, code, made["token"])
        for name in PLAYERS[1:]:
            await act(phone, type="add_player", name=name)
        await act(phone, type="settings", players=4)
        await act(phone, type="start")
        for seat in ("p1", "p2", "p3", "p4"):
            await act(phone, type="show", seat=seat)
            await act(phone, type="ready")
        await phone.close()

    run(cards_seen())
    page.goto(f"{srv.base}/spyword?ui={lang}#/")
    page.evaluate("([code, seat]) => localStorage.setItem('cnlab-sw-rooms', JSON.stringify({[code]: seat}))",
                  [code, {"member": made["member"], "token": made["token"]}])
    page.goto(f"{srv.base}/spyword?ui={lang}#/room/{code}")
    r = wait_view(page, "r.game && r.game.phase === 'clues'")
    speaker = r["game"]["speaker"]
    step(page, lambda: page.click(f".show-btn[data-seat='{speaker}']"))
    page.fill("#clue-text", srv.room(code).state.word_of(speaker))
    page_move(page, lambda: page.click("#clue-send"))
    notice = page_notice(page)
    assert notice["code"] == "illegal" and notice["kind"] == "sw_own_word", notice
    assert page.inner_text("#notice") == shown


def test_a_korean_page_words_the_join_errors_in_korean(page, spy_server):
    """Joining or creating a room answers in English ('Ann is taken in this room: choose another
    name', 'the room is full (12 players)', a bad name, an unknown room, a one-phone room), and the
    Korean home and join pages showed it as sent. Now each reply names its kind and the Korean page
    words it from its table (e_KIND); the English page shows the server's words."""
    post = spy_server.post
    status, made = post("/api/spyword/rooms", {"name": "Ann"})
    assert status == 200, made
    join = f"/api/spyword/rooms/{made['code']}/join"
    errors = [post(join, {"name": "ann"})[1], post(join, {"name": "   "})[1],
              post(join, {"name": "x" * 40})[1], post(join, {"name": "a\u200bb"})[1],
              post("/api/spyword/rooms/NOPE1/join", {"name": "Zed"})[1]]
    for n in range(2, 13):
        assert post(join, {"name": f"P{n}"})[0] == 200
    errors.append(post(join, {"name": "Late"})[1])
    single = post("/api/spyword/rooms", {"name": "Bo", "device": "single"})[1]
    errors.append(post(f"/api/spyword/rooms/{single['code']}/join", {"name": "Cy"})[1])
    assert all(e.get("kind") for e in errors), errors   # worded by its kind, not by its English
    page.goto(f"{spy_server.base}/spyword?ui=ko#/")
    page.wait_for_load_state()
    korean = page.evaluate("(rs) => rs.map(replyText)", errors)
    assert korean == [
        "이 방에서 이미 쓰는 이름입니다: ann. 다른 이름을 고르세요", "이름은 1~24자입니다",
        "이름은 1~24자입니다", "이름에 제어 문자나 보이지 않는 문자를 쓸 수 없습니다", "이 서버에 그런 방이 없습니다.",
        "방이 가득 찼습니다 (12명)", "이 방은 휴대폰 하나로 합니다: 방장이 그 휴대폰에서 플레이어를 추가합니다"], (errors, korean)
    page.goto(f"{spy_server.base}/spyword?ui=en#/")
    page.wait_for_load_state()
    assert page.evaluate("(rs) => rs.map(replyText)", errors) == [e["error"] for e in errors]   # the server's words
