"""Duet in the browser with a bot partner, played to its end from the page (RULES 3): an illegal
clue shows its rule, a covered card says why, the end screen shows both keys and the 3.11 score,
the record replays with `cnlab replay`, and the games page lists and replays it move by move."""

from __future__ import annotations

import re

from engine.records import record_from_dict, replay_summary

from web_harness import CHEAP, act, click_card, give_clue, legal_clue, new_game, notice, screenshot, wait_my_turn


def play_duet_as(page, server, game_id: str, seat: str, lang: str = "en", checks: dict | None = None) -> dict:
    """Play seat `seat` to the end: on the partner's clues touch every green of the partner's side
    (the test knows the deal), give legal clues, guess or pass in sudden death."""
    checks = checks if checks is not None else {}
    partner = "B" if seat == "A" else "A"
    for _ in range(200):
        v = wait_my_turn(page)
        if v["outcome"]["over"]:
            return v
        record = server.record(game_id)
        side = record["key"][partner]
        todo = [c["i"] for c in v["cards"] if side[c["i"]] == "G" and not c["agent"] and c["guessable"]]
        you = v["you"]
        if you.get("clue"):
            covered = [c["word"] for c in v["cards"] if c["agent"] or len(c["marks"]) == 2]
            visible = [c["word"] for c in v["cards"] if c["word"] not in covered]
            if not checks.get("illegal_clue"):
                # a visible board word: the clue filter refuses it (RULES 4.3), the state does not change
                word = next(c["word"] for c in v["cards"] if c["word"] in visible)
                after = give_clue(page, word, 2)
                n = notice(page)
                assert n and n["code"] == "illegal" and n["rule"].startswith("4"), n
                assert after["moves"] == v["moves"] and after["history"] == v["history"]
                text = page.inner_text("#notice")
                assert f"RULES {n['rule']}" in text or f"규칙 {n['rule']}" in text
                assert n["message"] in text
                checks["illegal_clue"] = text
            give_clue(page, legal_clue(visible, lang, covered), 9)
        elif you.get("guess"):
            if todo:
                after = click_card(page, todo[0])
                if not checks.get("covered_card") and after["phase"] == "guess" and after["you"].get("guess"):
                    # the card just covered by an agent: the engine says why it cannot be touched again
                    again = click_card(page, todo[0])
                    n = notice(page)
                    assert n and n["rule"] == "3.7" and again["moves"] == after["moves"], n
                    checks["covered_card"] = page.inner_text("#notice")
            elif you.get("stop"):
                act(page, lambda: page.click("#stop"))
            elif you.get("pass"):
                act(page, lambda: page.click("#pass"))
            else:  # nothing of the partner's side left to find on a first guess: any guessable card
                click_card(page, next(c["i"] for c in v["cards"] if c["guessable"]))
        elif you.get("partner_first"):
            act(page, lambda: page.click("#partner-first"))
    raise AssertionError("the game did not end")


def test_duet_with_a_bot_partner_to_the_end(page, server):
    game_id = new_game(page, server, game="duet", lang="en", mode="bot", seat="A", first="partner",
                       seed=11, **CHEAP)
    checks: dict = {}
    v = play_duet_as(page, server, game_id, "A", checks=checks)
    assert checks.get("illegal_clue") and checks.get("covered_card")
    outcome = v["outcome"]
    assert outcome["over"] and outcome["status"] in ("won", "lost", "unfinished")

    # the end screen: the outcome, the score when won (RULES 3.11), both key sides
    page.wait_for_selector("#end #keys")
    record = server.record(game_id)
    keys = page.eval_on_selector_all("#keys .keygrid", "gs => gs.map(g => g.dataset.key)")
    assert keys == [record["key"]["A"], record["key"]["B"]]
    assert v["reveal"] == record["key"]
    if outcome["status"] == "won":
        assert page.inner_text("#score").startswith(f"Score {outcome['score']}")
    # what the bot meant: every resolved bot clue lists the targets it gave
    bot_clues = [n for n, a in enumerate(record["actions"]) if a["seat"] == "B" and "clue" in a]
    assert [i["action"] for i in v["intents"]] == bot_clues
    assert [i["action"] for i in record["intents"]] == bot_clues
    assert page.locator("#intents .intent").count() == len(bot_clues)
    screenshot(page, "duet-end")

    # the record replays with the engine (what `cnlab replay` prints)
    summary = replay_summary(record_from_dict(record))
    assert summary["greens_found"] == v["greens_found"] and summary["score"] == outcome["score"]

    # the games page lists it with its outcome; its replay steps through the moves
    page.click("#nav-games")
    row = page.locator(f"tr[data-id='{game_id}']")
    row.wait_for()
    assert row.locator(".result").inner_text() == server.get(f"/api/games/{game_id}")[1]["result"]
    row.locator("a.replay").click()
    page.wait_for_selector("#replay #board .card")
    assert page.inner_text("#replay-pos") == f"Move 0 of {len(record['actions'])}"
    page.click("#replay-next")
    first = record["actions"][0]
    assert first["clue"].upper() in page.inner_text("#replay-action")
    page.click("#replay-next")
    page.wait_for_function("() => document.querySelector('#replay-pos').textContent.startsWith('Move 2')")
    assert page.locator("#replay .card.agent").count() + page.locator("#replay .mark").count() >= 1
    screenshot(page, "duet-replay")


def test_korean_page_and_board(page, server):
    """A Korean board with the Korean interface: Hangul words and labels, a clue in English
    refused by the Korean filter (RULES 4.6) with its reason, a Korean clue accepted."""
    game_id = new_game(page, server, ui="ko", game="duet", lang="ko", mode="bot", seat="B", first="me",
                       seed=3, **CHEAP)
    v = wait_my_turn(page)
    assert v["lang"] == "ko" and v["seat"] == "B"
    assert all(re.search("[가-힣]", c["word"]) for c in v["cards"])
    assert page.inner_text("#nav-new") == "새 게임" and "힌트" in page.inner_text("#turn")
    after = give_clue(page, "zebra", 2)
    n = notice(page)
    assert n and n["rule"] == "4.6" and after["moves"] == 0
    assert "규칙 4.6" in page.inner_text("#notice")
    words = [c["word"] for c in v["cards"]]
    after = give_clue(page, legal_clue(words, "ko"), 2)
    assert after["moves"] >= 1 and after["history"][0]["kind"] == "clue"
    wait_my_turn(page)
    screenshot(page, "duet-ko")
    assert server.record(game_id)["config"]["language"] == "ko"


def test_a_korean_page_words_the_servers_end_reasons_and_results_in_korean(page, server):
    """The server words a game's end and a stopped bot in English (the record keeps those words);
    a Korean page showed them as they are: '게임이 끝나지 않은 채 멈췄습니다: both held back in
    sudden death.', '게임이 멈췄습니다: the bot on seat B failed (ValueError)', and the games list's
    result column 'won, score 7', 'lost (assassin)', 'unfinished (...)'. Now the Korean page words
    them in Korean, first by regular expressions over the English, now by the kind the server sends
    beside it (the English page shows the server's words, unchanged)."""
    from experiments.web.games import text

    store = server.app.state.server.store
    reasons = {"both held back in sudden death": "서든데스에서 둘 다 추측하지 않았습니다",
               "the bot on seat B failed (ValueError)": "B 자리의 봇이 멈췄습니다 (ValueError)"}
    for ended, korean in reasons.items():
        status, made = server.post("/api/games", {"game": "duet", "lang": "ko", "seed": 5, "first": "me", **CHEAP})
        assert status == 200, made
        table = store.get(made["id"])
        if ended.startswith("the bot"):
            table.stop(ended, text("bot_failed", seat="B", error="ValueError"))   # as the server stops it
        else:
            table.ended, table.ended_kind = ended, text("both_held_back")          # as games.py ends it
            table.changed()
        page.goto(f"{server.base}/?ui=ko#/play/{made['id']}/{made['token']}")
        page.wait_for_selector("#end h2")
        shown = page.inner_text("#end h2") + (page.inner_text("#stopped") if page.locator("#stopped").count() else "")
        assert korean in shown and not re.search("[A-Za-z]{4,}", shown.replace("ValueError", "")), shown
        page.goto(f"{server.base}/?ui=ko#/games")
        result = page.locator(f"tr[data-id='{made['id']}'] .result")
        result.wait_for()
        assert result.inner_text() == f"끝나지 않음 ({korean})"
        page.goto(f"{server.base}/?ui=en#/games")
        result = page.locator(f"tr[data-id='{made['id']}'] .result")
        result.wait_for()
        assert result.inner_text() == f"unfinished ({ended})"      # the server's words
    page.goto(f"{server.base}/?ui=ko#/games")
    page.wait_for_selector("#games")
    listed = [(text("won", score=7), "won, score 7"), (text("won_unscored"), "won"),
              (text("lost", reason="assassin"), "lost (assassin)"),
              (text("team_won", team="red", reason="opponent_finished"), "red won (opponent_finished)"),
              (text("duet_playing", status="playing", found=3), "playing, 3/15 agents"),
              (text("duet_playing", status="sudden_death", found=14), "sudden_death, 14/15 agents"),
              (text("playing"), "playing"), (text("something_new"), "something new"), (None, "no kind")]
    assert page.evaluate("(xs) => xs.map(([k, e]) => kindText(k, e))", listed) == [
        "승리, 점수 7", "승리", "패배 (암살자를 짚었습니다)", "빨강 팀 승리 (상대 요원이 모두 덮였습니다)",
        "진행 중, 요원 3/15", "서든데스, 요원 14/15", "진행 중", "something new", "no kind"]
    page.goto(f"{server.base}/?ui=en#/games")
    page.wait_for_selector("#games")
    assert page.evaluate("(xs) => xs.map(([k, e]) => kindText(k, e))", listed) == [e for _, e in listed]


def test_a_korean_page_words_the_servers_refusals_in_korean(page, server):
    """A full server ('the server has 500 games in play; ...'), a seat with too many pages open and a
    move after the end were shown in English on the Korean new-game form and game page; now in
    Korean, by their kind. The replies and frames are the server's own; the English page shows them as
    sent."""
    from experiments.web import tables
    from experiments.web.games import ServerFull
    from experiments.web.messages import MAX_SEAT_SOCKETS, error_frame

    store = tables.TableStore(server.games_dir / "full")
    full = tables.MAX_PLAYING
    try:
        tables.MAX_PLAYING = 0
        store.create({"game": "duet", "lang": "ko", "mode": "people"})
        raise AssertionError("not full")
    except ServerFull as exc:
        reply = {"error": str(exc), "kind": exc.kind, "fields": exc.fields}
    finally:
        tables.MAX_PLAYING = full
    frames = [error_frame("too_many_sockets", "too_many_sockets", "en", n=MAX_SEAT_SOCKETS),
              error_frame("game_over", "game_over", "en"), error_frame("stale", "stale", "en", made=3, now=4)]
    page.goto(f"{server.base}/?ui=ko#/games")
    page.wait_for_selector("#games")
    assert page.evaluate("(r) => replyText(r)", reply) == "서버에 진행 중인 게임이 0개입니다: 몇 게임이 끝난 뒤 다시 해 보세요"
    assert page.evaluate("(xs) => xs.map(frameText)", frames) == [
        f"이 자리는 페이지 {MAX_SEAT_SOCKETS}개가 열려 있습니다: 하나를 먼저 닫으세요", "게임이 끝났습니다",
        "3번째 수 뒤에 둔 수인데 게임은 4번째 수까지 왔습니다: 두지 않았습니다 (테이블을 다시 보세요)"]
    page.goto(f"{server.base}/?ui=en#/games")
    page.wait_for_selector("#games")
    assert page.evaluate("(r) => replyText(r)", reply) == reply["error"]
    assert page.evaluate("(xs) => xs.map(frameText)", frames) == [f["message"] for f in frames]


def test_a_page_of_a_seat_with_every_place_taken_says_so(page, server):
    """A seat holds MAX_SEAT_SOCKETS sockets; the next page was refused (too_many_sockets, 4429) but, with
    no view yet, showed 'loading' for ever and tried again every second. It shows the server's reason
    (in the page's language) and stops trying; a page with a view keeps trying, as after a network drop."""
    from contextlib import ExitStack

    from websockets.sync.client import connect

    from experiments.web.messages import MAX_SEAT_SOCKETS

    status, made = server.post("/api/games", {"game": "duet", "lang": "en", "seed": 5, "mode": "people"})
    assert status == 200, made
    url = f"{server.ws_base}/ws/{made['id']}?token={made['token']}"
    with ExitStack() as stack:
        for _ in range(MAX_SEAT_SOCKETS):
            stack.enter_context(connect(url)).recv(timeout=10)
        opened = []
        page.on("websocket", lambda ws: opened.append(ws))
        page.goto(f"{server.base}/?ui=ko#/play/{made['id']}/{made['token']}")
        page.wait_for_selector("#fatal", timeout=10000)
        assert f"페이지 {MAX_SEAT_SOCKETS}개가 열려 있습니다" in page.inner_text("#fatal")
        page.wait_for_timeout(2500)
        assert len(opened) == 1   # no new try every second
