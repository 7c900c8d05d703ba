"""Hidden information in the browser (RULES 3.1, 1.1): a seat's page receives its own observation
only. Every WebSocket frame a page receives and the page itself are checked.

Duet: each seat sees its own key side; of the partner's side only what the table shows (agents
covered by a green guess, bystander tokens of the seat's own misses, the assassin that ends the
game). Codenames: a guesser sees no key, only the identities of revealed cards.
"""

from __future__ import annotations

import json

from web_harness import CHEAP, click_card, collect_frames, give_clue, legal_clue, new_game, strings, wait_view

DUET_CARD_FIELDS = {"i", "word", "mine", "agent", "marks", "guessable"}


def check_duet_frames(frames: list[str], seat: str, record: dict) -> int:
    """No frame of `seat` holds the other side of the key; returns how many views were checked."""
    other = "B" if seat == "A" else "A"
    own, hidden = record["key"][seat], record["key"][other]
    words = record["words"]
    checked = 0
    for raw in frames:
        assert hidden not in raw, "the partner's key side, as a string, reached the page"
        msg = json.loads(raw)
        if msg.get("type") != "state":
            continue
        v = msg["view"]
        assert v["seat"] == seat and "reveal" not in v and not v["outcome"]["over"]
        assert all(len(s) != 25 or set(s) - set("GNX") for s in strings(v)), "a 25-letter key string was sent"
        # the partner's side reaches this seat only through what the table shows (RULES 3.5-3.7)
        green_guesses = {e["word"] for e in v["history"] if e["kind"] == "guess" and e["result"] == "green"}
        for c in v["cards"]:
            assert set(c) == DUET_CARD_FIELDS
            assert c["mine"] == own[c["i"]] and c["word"] == words[c["i"]]
            assert c["agent"] == (c["word"] in green_guesses)
            misses = {e["seat"] for e in v["history"] if e["kind"] == "guess" and e["word"] == c["word"]
                      and e["result"] == "bystander"}
            assert set(c["marks"]) == misses
        checked += 1
    return checked


def test_two_people_on_two_devices_see_only_their_own_key_side(browser, server):
    ctx_a = browser.new_context(viewport={"width": 1200, "height": 860})
    ctx_b = browser.new_context(viewport={"width": 1200, "height": 860})
    try:
        a, b = ctx_a.new_page(), ctx_b.new_page()
        frames_a, frames_b = collect_frames(a), collect_frames(b)
        game_id = new_game(a, server, game="duet", lang="en", mode="people", seed=21)
        link = a.locator("#join .join-link[data-seat='B']").input_value()
        assert link.startswith(server.base) and game_id in link
        b.goto(link)
        wait_view(b, "v.seat === 'B'")
        wait_view(a, "v.seats.B.connected")
        record = server.record(game_id)
        key_a, key_b, words = record["key"]["A"], record["key"]["B"], record["words"]

        # A gives a clue; B touches one of A's greens, then a card beige on A's side (a miss ends the turn)
        give_clue(a, legal_clue(words), 3)
        wait_view(b, "v.you.guess")
        green_a = next(i for i in range(25) if key_a[i] == "G" and key_b[i] != "G")
        beige_a = next(i for i in range(25) if key_a[i] == "N" and key_b[i] == "N")
        assert click_card(b, green_a)["cards"][green_a]["agent"]
        click_card(b, beige_a)
        # B gives a clue; A touches one of B's greens and stops (one token taken)
        v = wait_view(b, "v.you.clue")
        covered = [c["word"] for c in v["cards"] if c["agent"]]
        give_clue(b, legal_clue([w for w in words if w not in covered], "en", covered), 2)
        wait_view(a, "v.you.guess")
        green_b = next(i for i in range(25) if key_b[i] == "G" and not v["cards"][i]["agent"])
        click_card(a, green_b)
        wait_view(a, "v.you.stop")
        a.click("#stop")
        wait_view(b, "v.phase === 'clue' && v.moves === 6")
        wait_view(a, "v.moves === 6")

        assert check_duet_frames(frames_b, "B", record) >= 5
        assert check_duet_frames(frames_a, "A", record) >= 5
        # the page of B: its own side on the cards, nothing of A's (no partner-side marks before the end)
        html = b.content()
        assert key_a not in html
        cards = b.eval_on_selector_all("#board .card", "cs => cs.map(c => c.className)")
        for i, classes in enumerate(cards):
            assert f"key-{key_b[i]}" in classes.split()
            assert not any(c.startswith(("other-", "ka-", "kb-")) for c in classes.split())
        # the replay (which shows both sides) stays closed while the game is played
        status, body = server.get(f"/api/games/{game_id}/replay")
        assert status == 409 and "still being played" in body["error"]
        assert server.get(f"/api/games/{game_id}/record")[0] == 409
    finally:
        ctx_a.close()
        ctx_b.close()


def test_a_codenames_guesser_receives_nothing_of_the_key(page, server):
    frames = collect_frames(page)
    game_id = new_game(page, server, game="codenames", lang="en", variant="two_player",
                       **{"kind-spymaster": "bot", "kind-guesser": "person"}, seed=8, **CHEAP)
    record = server.record(game_id)
    team = record["starts"]
    own = "R" if team == "red" else "B"
    # two guesses on the bot's first clue: one own agent, then a bystander (the turn ends)
    v = wait_view(page, "v.you.guess")
    agent = next(i for i, k in enumerate(record["key"]) if k == own)
    bystander = next(i for i, k in enumerate(record["key"]) if k == "N")
    click_card(page, agent)
    click_card(page, bystander)
    wait_view(page, "v.you.guess && v.moves >= 5")  # the bot covered, gave its next clue
    key = record["key"]
    checked = 0
    for raw in frames:
        assert key not in raw
        msg = json.loads(raw)
        if msg.get("type") != "state":
            continue
        v = msg["view"]
        assert v["role"] == "guesser" and "reveal" not in v
        assert all(len(s) != len(key) or set(s) - set("RBNX") for s in strings(v))
        touched = {e["word"] for e in v["history"] if e["kind"] in ("guess", "cover")}
        for c in v["cards"]:
            assert c["key"] is None
            assert (c["revealed"] is not None) == (c["word"] in touched)
            if c["revealed"]:
                assert c["revealed"] == key[c["i"]]
        checked += 1
    assert checked >= 4
    assert page.locator("#board .card[class*='key-']").count() == 0
