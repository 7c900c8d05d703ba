"""Spy's Word in the browser, many devices (RULES 5): five people in five browser contexts and two
bots play a whole game over the server: the host creates the room, the others join with its link,
the host's settings (RULES 5.14) are set before the start, a clue that is the player's own word is
refused with its reason, the end screen shows both words, every role and each round's votes, the
XP lands on the profiles and shows under the names, and the record replays with `cnlab replay`.

Hidden information, on every WebSocket frame each page received before the end: a citizen's
frames never hold the spies' word or anyone's role, a spy's never say "spy" (the host did not turn
the reveal on) until it is eliminated, the ghost's never hold a word. Other players' clue texts and
the ghost's typed guess are left out of the check: they are what the players themselves typed.
"""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from spyword_harness import SpyServer, legal_clue, page_move as act, page_notice as notice, view, wait_view
from web_harness import collect_frames, screenshot, strings

NAMES = ["Ann", "Bob", "Cho", "Dan", "Eve"]
INFILTRATORS = ("spy", "ghost")


@pytest.fixture(scope="module")
def spy_server(tmp_path_factory):
    srv = SpyServer(tmp_path_factory.mktemp("spyword-game")).start()
    yield srv
    srv.stop()


def without_typed_text(room: dict) -> dict:
    """The frame minus what players typed (clues, the ghost's guess)."""
    room = json.loads(json.dumps(room))
    for part in (room.get("game"), room.get("private")):
        if part:
            for c in part.get("clues", []):
                c["clue"] = None
            for g in part.get("ghost_guesses", []):
                g["guess"] = None
    return room


def role_values(obj, path=()):
    """(path, value) of every string value that names a role."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from role_values(v, path + (k,))
    elif isinstance(obj, list):
        for v in obj:
            yield from role_values(v, path + ("[]",))
    elif obj in ("citizen", "spy", "ghost"):
        yield path, obj


def holds(obj, word: str) -> bool:
    """Does any string of a frame (keys and values) hold `word`, not inside a longer Latin-letter
    word? (The spies' word "star" is not in the key "start_vote"; a Korean word counts with a
    particle attached.)"""
    pattern = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(word)}(?![A-Za-z0-9_])", re.IGNORECASE)
    return any(pattern.search(s) for s in strings(obj))


def check_frames(frames: list[str], seat: str, record: dict) -> int:
    role = record["roles"][seat]
    citizen_word, spy_word = record["citizen_word"].lower(), record["spy_word"].lower()
    checked = 0
    for raw in frames:
        msg = json.loads(raw)
        if msg["type"] != "room" or not msg["room"].get("game"):
            continue
        room = msg["room"]
        g = room["game"]
        if g["report"] is not None or room["phase"] == "over":
            continue
        assert room["me"] == seat and g["seat"] == seat
        out = g["spectator"]
        stripped = without_typed_text(room)
        text = json.dumps(stripped, ensure_ascii=False).lower()
        # a role is named only as the seat's own, once it is eliminated (RULES 5.9, roles hidden)
        named = list(role_values(stripped))
        for path, value in named:  # the ghost knows it is the ghost (RULES 5.1)
            told = out or (role == "ghost" and path == ("game", "role"))
            assert told and value == role and path in (("game", "role"), ("game", "private_screen", "role")), \
                f"{seat} ({role}) was told a role at {path}"
        if role == "citizen":
            assert not holds(stripped, spy_word), "a citizen's frame holds the spies' word"
            assert g["word"] == record["citizen_word"]
        elif role == "spy":
            assert g["word"] == record["spy_word"] and not holds(stripped, citizen_word)
            if not out:
                assert "spy" not in text and "스파이" not in text, "a spy's frame says spy"
                assert g["role"] is None
        else:
            assert g["word"] is None and g["role"] == "ghost"
            assert not holds(stripped, citizen_word) and not holds(stripped, spy_word), "the ghost's frame holds a word"
        assert all(s not in ("roles", "citizen_word", "spy_word") for s in strings(stripped))
        checked += 1
    return checked


def test_five_people_and_bots_play_a_game_to_its_end(browser, spy_server):
    srv = spy_server
    contexts = [browser.new_context(viewport={"width": 1100, "height": 900}) for _ in NAMES]
    pages = [c.new_page() for c in contexts]
    errors: list[str] = []
    for p in pages:
        p.on("pageerror", lambda e: errors.append(str(e)))
    frames = [collect_frames(p) for p in pages]
    try:
        host = pages[0]
        host.goto(f"{srv.base}/spyword?ui=en#/")
        host.fill("#profile-name", "Ann")
        host.select_option("#device", "multi")
        host.select_option("#room-lang", "en")
        host.click("#create-room")
        r = wait_view(host, "r.phase === 'lobby'")
        code = r["code"]
        assert host.inner_text("#room-code") == code
        link = host.input_value("#join-link")
        assert link.endswith(f"/spyword#/room/{code}")
        for page, name in zip(pages[1:], NAMES[1:]):
            page.goto(link.replace("/spyword#", f"/spyword?ui={'ko' if name == 'Eve' else 'en'}#"))
            page.fill("#join-name", name)
            page.click("#join-send")
            wait_view(page, "r.phase === 'lobby'")
        r = wait_view(host, "r.members.length === 5")
        assert [m["name"] for m in r["members"]] == NAMES
        # a player who is not the host cannot change the settings
        assert pages[1].is_disabled("#players")
        # the host's settings before the start (RULES 5.14): 7 seats (2 bots), roles hidden once out
        act(host, lambda: host.select_option("#players", "7"))
        act(host, lambda: host.select_option("#bot", "easy"))
        act(host, lambda: host.select_option("#set-reveal_eliminated_role", "false"))
        r = wait_view(pages[1], "r.players === 7 && r.settings.reveal_eliminated_role === false")
        assert r["settings"]["tell_minority"] is False and r["settings"]["discussion_seconds"] == 90
        host.click("#start")
        for page in pages:
            wait_view(page, "r.phase === 'playing' && !!r.game")
        room = srv.room(code)
        record = srv.record(room.game_id)
        roles = record["roles"]
        assert sorted(roles.values()) == sorted(["spy", "ghost"] + ["citizen"] * 5)  # 7 players: RULES 5.2
        seat_of = {page: f"p{i + 1}" for i, page in enumerate(pages)}

        checks = {"own_word": None, "korean": None}
        for _ in range(400):
            views = {page: view(page) for page in pages}
            if all(v["phase"] == "over" for v in views.values()):
                break
            moved = False
            for page in pages:
                v = view(page)
                g = v.get("game")
                if v["phase"] != "playing" or not g:
                    continue
                you = g.get("you", {})
                if you.get("ready"):
                    assert page.inner_text("#my-word") == (g["word"] or "?")
                    act(page, lambda: page.click("#ready"))
                elif you.get("clue"):
                    if page is pages[1]:
                        screenshot(page, "spyword-clue")
                    used = [c["clue"] for c in g["clues"] if c["clue"]]
                    if checks["own_word"] is None and g["word"]:
                        # the clue checker refuses the player's own word, with the reason (RULES 5.4)
                        page.fill("#clue-text", g["word"])
                        after = act(page, lambda: page.click("#clue-send"))
                        n = notice(page)
                        assert n and n["code"] == "illegal" and n["rule"] == "5.4", n
                        assert "word itself" in n["message"] and after["game"]["clues"] == g["clues"]
                        # ... worded in the page's language (a Korean page words the engine's refusal, 86d5291)
                        shown = "자기 단어를 힌트로 말할 수 없습니다" if "ui=ko" in page.url else n["message"]
                        assert shown in page.inner_text("#notice") and "5.4" in page.inner_text("#notice")
                        checks["own_word"] = n["message"]
                    page.fill("#clue-text", legal_clue(g["word"], used))
                    act(page, lambda: page.click("#clue-send"))
                    assert not notice(page), notice(page)
                elif you.get("start_vote"):
                    act(page, lambda: page.click("#start-vote"))
                elif you.get("vote"):
                    # the people vote together for a spy or the ghost (the test knows the deal)
                    targets = [c for c in you["vote"] if roles.get(c) in INFILTRATORS] or you["vote"]
                    act(page, lambda: page.click(f".vote-btn[data-target='{targets[0]}']"))
                elif you.get("guess"):
                    page.fill("#guess-text", "zeppelin")
                    act(page, lambda: page.click("#guess-send"))
                elif you.get("dismiss"):
                    assert page.inner_text("#screen-role")
                    act(page, lambda: page.click("#dismiss"))
                else:
                    continue
                moved = True
                if page is pages[4] and checks["korean"] is None:
                    checks["korean"] = page.inner_text("#phase")
            if not moved:
                pages[0].wait_for_timeout(60)
        else:
            raise AssertionError("the game did not end")
        assert checks["own_word"]
        assert any("라운드" in (checks["korean"] or "") or x in (checks["korean"] or "")
                   for x in ("카드 확인", "힌트", "투표", "토론")), checks["korean"]

        # the end screen (RULES 5.13): the winning side, both words, every role, each round's votes
        record = srv.record(room.game_id)
        state_report = view(host)["game"]["report"]
        assert state_report["winner"] in ("citizens", "spies", "ghost")
        for page in pages:
            page.wait_for_selector("#end #winner")
            assert page.inner_text("#citizen-word") == record["citizen_word"]
            assert page.inner_text("#spy-word") == record["spy_word"]
            shown = page.eval_on_selector_all("#roles li", "ls => ls.map(l => [l.dataset.seat, l.dataset.role])")
            assert dict(shown) == record["roles"]
            assert page.locator("#votes .vote-entry[data-round]").count() == len(state_report["votes"])
        screenshot(pages[4], "spyword-end-ko")
        said = {"citizens": "The citizens win!", "spies": "The spies and the ghost win!",
                "ghost": "The ghost guessed the word and wins alone!"}
        assert host.inner_text("#winner") == said[state_report["winner"]]

        # XP on the profiles (docs/spyword_web.md), shown on the end screen and under the names
        result = view(host)["result"]
        assert set(result) == {f"p{i}" for i in range(1, 6)}
        for i, page in enumerate(pages):
            gained = result[f"p{i + 1}"]
            assert f"+{gained['xp']} XP" in page.inner_text("#xp")
            assert gained["new_titles"][0] == "first_game"
        host.wait_for_function("() => window.cnlabSpyView.members[0].badge.title === 'first_game'")
        assert "Newcomer" in host.inner_text("#members li[data-id='p1'] .badge")
        pid = view(host)["members"][0]["badge"]["id"]
        status, prof = srv.get(f"/api/spyword/profiles/{pid}")
        assert status == 200 and prof["xp"] == result["p1"]["xp"] and prof["stats"]["games"] == 1
        host.goto(f"{srv.base}/spyword?ui=en#/me")
        host.wait_for_selector("#profile-page #p-xp")
        assert host.get_attribute("#p-xp", "data-xp") == str(prof["xp"])
        screenshot(host, "spyword-profile")
        assert host.get_attribute("#p-titles li[data-title='first_game']", "class") == "earned"
        role = record["roles"]["p1"]
        assert host.inner_text(f"#p-stats tr[data-stat='games'] td[data-role='{role}']") == "1"

        # hidden information over every frame each page received before the end
        for page, seen in zip(pages, frames):
            assert check_frames(seen, seat_of[page], record) > 5

        # the record: the engine's own, replayable with `cnlab replay`
        from experiments.cli import app

        path = srv.games_dir / "spyword" / f"{room.game_id}.json"
        res = CliRunner().invoke(app, ["replay", str(path)])
        assert res.exit_code == 0, res.output
        summary = json.loads(res.output)
        assert summary["status"] == "finished" and summary["winner"] == state_report["winner"]
        status, body = srv.get(f"/api/spyword/games/{room.game_id}/record")
        assert status == 200 and body["game"] == "spyword"
        assert all("token_hash" not in m for m in body["web"]["members"])
        assert not errors, errors
    finally:
        for c in contexts:
            c.close()


def test_a_room_page_of_a_seat_with_every_place_taken_says_so(page, spy_server):
    srv = spy_server
    """A seat holds MAX_SEAT_SOCKETS sockets; the next page was refused (too_many_sockets, 4429) but, with
    no room shown yet, it showed nothing and tried again every second. It shows the server's reason in
    the page's language and stops trying."""
    from contextlib import ExitStack

    from websockets.sync.client import connect

    from experiments.web.messages import MAX_SEAT_SOCKETS

    status, made = srv.post("/api/spyword/rooms", {"name": "Ann"})
    assert status == 200, made
    url = f"{srv.ws_base}/ws/spyword/{made['code']}?token={made['token']}"
    with ExitStack() as stack:
        for _ in range(MAX_SEAT_SOCKETS):
            stack.enter_context(connect(url)).recv(timeout=10)
        opened = []
        page.on("websocket", lambda ws: opened.append(ws))
        page.goto(f"{srv.base}/spyword?ui=ko#/")
        page.evaluate("([code, seat]) => localStorage.setItem('cnlab-sw-rooms', JSON.stringify({[code]: seat}))",
                      [made["code"], {"member": made["member"], "token": made["token"]}])
        page.goto(f"{srv.base}/spyword?ui=ko#/room/{made['code']}")
        page.wait_for_selector("#notice.error", timeout=10000)
        assert f"페이지 {MAX_SEAT_SOCKETS}개가 열려 있습니다" in page.inner_text("#notice")
        page.wait_for_timeout(2500)
        assert len(opened) == 1   # no new try every second
