"""Codenames (RULES 1) and Codenames Pictures (RULES 2) in the browser, played to their end."""

from __future__ import annotations

from web_harness import CHEAP, click_card, give_clue, new_game, notice, screenshot, wait_my_turn


def test_codenames_two_player_as_the_guesser(page, server):
    """The bot spymaster clues and covers the virtual opponent's agents (RULES 1.8); the person
    guesses only the team's agents, so the team wins with a score (opponent agents left)."""
    game_id = new_game(page, server, game="codenames", lang="en", variant="two_player",
                       **{"kind-spymaster": "bot", "kind-guesser": "person"}, seed=4, **CHEAP)
    record = server.record(game_id)
    own = "R" if record["starts"] == "red" else "B"
    checked_intent = False
    for _ in range(100):
        v = wait_my_turn(page)
        if v["outcome"]["over"]:
            break
        if v["intents"] and not checked_intent:  # the bot's first clue is resolved: what it meant
            assert page.locator("#intents .intent").count() == len(v["intents"])
            checked_intent = True
        todo = [c["i"] for c in v["cards"] if record["key"][c["i"]] == own and not c["revealed"]]
        click_card(page, todo[0])
    else:
        raise AssertionError("the game did not end")
    assert checked_intent
    o = v["outcome"]
    assert o["status"] == "finished" and o["winner"] == o["ours"] == record["starts"]
    record = server.record(game_id)
    assert o["score"] == 8 - sum(1 for a in record["actions"] if "cover" in a)
    assert page.inner_text("#score").startswith(f"Score {o['score']}")
    assert page.eval_on_selector("#keys .keygrid", "g => g.dataset.key") == record["key"]
    screenshot(page, "codenames-end")


def test_codenames_teams_one_person_three_bots(page, server):
    """Four seats, a person on one of them: the bots play the other three to the end."""
    new_game(page, server, game="codenames", lang="en", variant="teams",
             **{"kind-red-spymaster": "bot", "kind-red-guesser": "bot", "kind-blue-spymaster": "bot",
                "kind-blue-guesser": "person"}, seed=9, **CHEAP)
    for _ in range(120):
        v = wait_my_turn(page)
        if v["outcome"]["over"]:
            break
        assert v["seat"] == "blue-guesser" and v["you"].get("guess")
        # what a bot meant is shown to its own team only: red's targets are red agents
        assert all(i["seat"] == "blue-spymaster" for i in v["intents"])
        click_card(page, next(c["i"] for c in v["cards"] if not c["revealed"]))
    else:
        raise AssertionError("the game did not end")
    assert v["outcome"]["winner"] in ("red", "blue")
    assert all(i["seat"] == "blue-spymaster" for i in v["intents"])
    assert set(v["seats"]) == {"red-spymaster", "red-guesser", "blue-spymaster", "blue-guesser"}


def test_pictures_as_the_spymaster(page, server):
    """Pictures with the Twemoji cards and their credit: the person gives clues (one word, RULES
    2.2) and covers an opponent agent after each turn; a bot guesses."""
    game_id = new_game(page, server, game="pictures", lang="en", variant="two_player",
                       **{"kind-spymaster": "person", "kind-guesser": "bot"}, seed=6, **CHEAP)
    page.wait_for_function("() => [...document.querySelectorAll('#board img')].every(i => i.complete && i.naturalWidth > 0)")
    assert page.locator("#board img").count() == 20
    assert "Twemoji" in page.inner_text("#pictures-credit") and "CC-BY 4.0" in page.inner_text("#pictures-credit")
    record = server.record(game_id)
    team_letter = "R" if record["starts"] == "red" else "B"
    opponent = "B" if team_letter == "R" else "R"
    checked = {}
    for _ in range(100):
        v = wait_my_turn(page)
        if v["outcome"]["over"]:
            break
        assert all(c["key"] for c in v["cards"]) and all(c["img"] for c in v["cards"])  # a spymaster sees the key
        if v["you"].get("clue"):
            if not checked.get("two_words"):
                give_clue(page, "two words", 1)
                n = notice(page)
                assert n and n["rule"] == "2.2" and "RULES 2.2" in page.inner_text("#notice")
                checked["two_words"] = True
            give_clue(page, "tree", 1)
        elif v["you"].get("cover"):
            if not checked.get("wrong_cover"):  # one of the team's own agents: not the opponent's (RULES 1.8)
                own = next(c["i"] for c in v["cards"] if c["key"] == team_letter and not c["revealed"])
                after = click_card(page, own)
                assert notice(page)["rule"] == "1.8" and after["moves"] == v["moves"]
                checked["wrong_cover"] = True
            click_card(page, next(c["i"] for c in v["cards"] if c["key"] == opponent and not c["revealed"]))
    else:
        raise AssertionError("the game did not end")
    assert checked.get("two_words")
    assert v["outcome"]["status"] == "finished"
    assert page.locator("#end #keys").count() == 1
    screenshot(page, "pictures-end")
