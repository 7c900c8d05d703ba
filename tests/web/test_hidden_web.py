"""What the web server must not hand out (the hidden-information boundary, attacked from a seat):
the deal's seed while the game is played (it deals the keys again), the deal's seed inside a
bot's generator, and a bot's intended targets that are still face down (its key side)."""

from __future__ import annotations

import json

import pytest
import websockets

from engine import Clue, Guess, Stop
from experiments.web.games import bot_seed, deal, resolved_intents
from test_protocol import new_duet, recv_until, run, view_now


def test_no_seed_in_a_playing_games_id_view_or_list(server):
    made = new_duet(server, first="me", seed=123457)
    assert "123457" not in made["id"]
    status, listed = server.get("/api/games")
    assert status == 200
    mine = [g for g in (listed["games"] if isinstance(listed, dict) else listed) if g["id"] == made["id"]]
    assert mine and mine[0]["seed"] is None

    async def scenario():
        async with websockets.connect(f"{server.ws_base}/ws/{made['id']}?token={made['token']}") as ws:
            view = await view_now(ws)
            assert view["seed"] is None and "123457" not in json.dumps(view)
    run(scenario())


def test_a_web_bots_seed_leads_nowhere_near_the_deal():
    key = b"server secret"
    a, b = bot_seed(key, 5, "A", "spymaster"), bot_seed(key, 5, "A", "guesser")
    assert a == bot_seed(key, 5, "A", "spymaster") and a != b != bot_seed(key, 5, "B", "guesser")
    assert a.bit_length() > 64 and a != 5          # not the deal's seed, not a small number to search
    assert bot_seed(b"another server", 5, "A", "spymaster") != a   # without the secret, no way to the seed


def test_a_bots_targets_still_face_down_are_only_counted_until_the_end():  # RULES 3.12
    record = deal("duet", 7, "en", mission=None, tokens=None, invalid_clue="allow")
    greens_b = [w for w, c in zip(record.words, record.key.b) if c == "G"]
    found_first = next(w for w in greens_b if record.key.a[record.words.index(w)] != "X")
    targets = [found_first] + [w for w in greens_b if w != found_first][:1]
    record.actions = [Clue("B", "zebra", 2), Guess("A", found_first), Stop("A")]
    state = record.replay()
    intents = [{"action": 0, "targets": targets, "score": 0.5}]

    def shown(over):
        return resolved_intents(record, state, intents, lambda i: state.green_covered[i], False,
                                lambda _s: True, lambda i: None, over)[0]

    playing, ended = shown(False), shown(True)
    assert [t["word"] for t in playing["targets"]] == [found_first] and playing["hidden"] == 1
    assert targets[1] not in json.dumps(playing)
    assert [t["word"] for t in ended["targets"]] == targets and ended["hidden"] == 0


def test_a_target_the_bot_covered_itself_is_only_counted_until_the_end():  # RULES 3.5, 3.12
    # B (the bot) meant two cards; A finds one and stops. Later B, guessing on A's clue, covers the
    # other one: the table shows it green on A's side only. Naming it as B's target would tell A it is
    # green on B's side too.
    from types import SimpleNamespace

    from experiments.web.games import ADAPTERS

    record = deal("duet", 7, "en", mission=None, tokens=None, invalid_clue="allow")
    words, a, b = record.words, record.key.a, record.key.b
    found = next(w for i, w in enumerate(words) if b[i] == "G" and a[i] == "N")
    both = next(w for i, w in enumerate(words) if a[i] == "G" and b[i] == "G")
    record.actions = [Clue("B", "zebra", 2), Guess("A", found), Stop("A"), Clue("A", "yak", 1), Guess("B", both)]
    table = SimpleNamespace(record=record, state=record.replay(), ended=None, is_bot=lambda seat: seat == "B",
                            intents=[{"action": 0, "targets": [found, both], "score": 0.5}])
    (shown,) = ADAPTERS["duet"].intents(table, lambda _seat: True)
    assert [t["word"] for t in shown["targets"]] == [found] and shown["hidden"] == 1
    assert both not in json.dumps(shown)
    table.ended = "both held back in sudden death"   # over: every target, as the end screen shows both keys
    (ended,) = ADAPTERS["duet"].intents(table, lambda _seat: True)
    assert [t["word"] for t in ended["targets"]] == [found, both] and ended["targets"][1]["later"]


def test_a_named_seed_is_refused_unless_the_server_allows_it(tmp_path):
    from web_harness import CHEAP, Server

    srv = Server(tmp_path / "g", client_seeds=False).start()
    try:
        status, made = srv.post("/api/games", {"game": "duet", "lang": "en", "seed": 5, **CHEAP})
        assert status == 400 and "client-seeds" in made["error"]
        status, made = srv.post("/api/spyword/rooms", {"name": "Ann", "seed": 5})
        assert status == 400 and "client-seeds" in made["error"]
        status, made = srv.post("/api/games", {"game": "duet", "lang": "en", "seed": None, **CHEAP})
        assert status == 200, made                       # dealt at random
        assert srv.get("/api/config")[1]["client_seeds"] is False
    finally:
        srv.stop()


def test_a_page_cannot_name_a_bot_that_reaches_past_the_game(tmp_path):
    """An attacker's new game: a language-model bot whose spec sends the bot's prompt (its key side)
    and any server variable to the attacker's address, a module the server would import to check
    it, a model file or a file to read on the server's disk. Each is refused before anything is
    imported or built, and no game is made; `cnlab serve --any-bot` leaves them to the operator."""
    import sys

    from web_harness import Server

    attacks = {
        "spymaster": ["llm:openai?model=x&base_url=http://127.0.0.1:9/v1&key_env=HOME&retries=0",
                      "xml.dom.pulldom:Spymaster", "expected:/etc/hostname"],
        "guesser": ["human?weights=/etc/passwd", "llm:local", "nearest:./model.kv"],
    }
    assert "xml.dom.pulldom" not in sys.modules
    srv = Server(tmp_path / "g").start()
    try:
        for role, specs in attacks.items():
            for spec in specs:
                other = {"guesser": "random"} if role == "spymaster" else {"spymaster": "random"}
                status, made = srv.post("/api/games", {"game": "duet", "lang": "en", role: spec, **other})
                assert status == 400 and role in made["error"], (spec, made)
                status, made = srv.post("/api/games", {"game": "codenames", "lang": "en", "variant": "two_player",
                                                       "seats": {"spymaster": "bot", "guesser": "person"},
                                                       role: spec, **other})
                assert status == 400, (spec, made)
        assert "xml.dom.pulldom" not in sys.modules           # never imported
        assert not list((tmp_path / "g").glob("*.json"))       # no game made
        status, made = srv.post("/api/games", {"game": "duet", "lang": "en", "spymaster": "random",
                                               "guesser": "human?model=nearest"})
        assert status == 200, made                              # a named choice is a page's to make
    finally:
        srv.stop()
    srv = Server(tmp_path / "h", any_bot=True).start()
    try:   # the operator's server: the spec is judged as on the command line (here: no such class)
        status, made = srv.post("/api/games", {"game": "duet", "lang": "en", "spymaster": "xml.dom.pulldom:Spymaster",
                                               "guesser": "random"})
        assert status == 400 and "not offered" not in made["error"], made
    finally:
        srv.stop()


@pytest.mark.parametrize("how", ["clue", "raise"])
def test_a_stopped_bot_names_no_card_of_its_key_to_the_table_or_the_listing(tmp_path, how):
    """A bot partner whose clues the filter keeps refusing (hot + one of its greens, RULES 4.3), or
    one that raises naming its greens, stops the game. The reason goes to every seat's view and to the
    public games listing: it names the rule or the exception's type, never the refusal's or the
    exception's text, which quote the bot's clue or its cards (its key side, RULES 3.1); the log has it."""
    from web_harness import Server

    srv = Server(tmp_path / "g", any_bot=True).start()
    try:
        status, made = srv.post("/api/games", {
            "game": "duet", "lang": "en", "seed": 11, "first": "partner", "seat": "A", "guesser": "random",
            "spymaster": f"tests.agents.hostile_agent:OwnTargetSpymaster?how={how}"})
        assert status == 200, made
        record = json.loads((tmp_path / "g" / f"{made['id']}.json").read_text())
        bot_greens = [w for w, c in zip(record["words"], record["key"]["B"]) if c == "G"]

        async def scenario():
            async with websockets.connect(f"{srv.ws_base}/ws/{made['id']}?token={made['token']}") as ws:
                return await recv_until(ws, lambda m: m["type"] == "state" and m["view"].get("error"), timeout=60)

        view = run(scenario())["view"]
        listed = [g for g in srv.get("/api/games")[1]["games"] if g["id"] == made["id"]]
        assert listed and listed[0]["error"] == view["error"] and listed[0]["over"]   # ended unfinished
        assert listed[0]["result"] == f"unfinished ({view['error']})"
        assert "bot" in view["error"] and ("RULES 4.3" if how == "clue" else "ValueError") in view["error"], view
        for word in bot_greens:
            assert word.casefold() not in view["error"].casefold(), (word, view["error"])
    finally:
        srv.stop()


def test_an_unlimited_bot_clue_does_not_count_its_hidden_targets_until_the_end():  # RULES 1.7, 3.12
    """An UNLIMITED clue does not tell its guessers how many cards it is for: the web's intents of one,
    resolved while the game is played, named the found target and counted the others still face down."""
    from engine.actions import UNLIMITED

    record = deal("codenames", 7, "en", variant="two_player")
    red = [w for w, c in zip(record.words, record.key.letters) if c == "R"]
    record.actions = [Clue("red-spymaster", "zebra", UNLIMITED), Guess("red-guesser", red[0]), Stop("red-guesser")]
    state = record.replay()
    intents = [{"action": 0, "targets": red[:3], "score": 0.5}]

    def shown(over):
        return resolved_intents(record, state, intents, lambda i: bool(state.revealed[i]), False,
                                lambda _s: True, lambda i: None, over)[0]

    playing, ended = shown(False), shown(True)
    assert [t["word"] for t in playing["targets"]] == [red[0]]
    assert (playing["hidden"], playing["uncounted"]) == (0, True)
    assert not any(w in json.dumps(playing) for w in red[1:3])
    assert [t["word"] for t in ended["targets"]] == red[:3] and not ended["uncounted"]
    record.actions[0] = Clue("red-spymaster", "zebra", 3)   # a numbered clue: its hidden targets are counted
    state = record.replay()
    assert (shown(False)["hidden"], shown(False)["uncounted"]) == (2, False)


def test_a_finished_games_downloaded_record_holds_no_seat_token_hash(server):
    """The record download (`GET /api/games/ID/record`, open to anyone once the game is over) sent
    the 'web' field as saved, with every seat's token hash ('tokens'): the join links' secrets, as
    the Spy's Word record download leaves them out. The download now leaves them out; the file on
    the server keeps them (a restart still knows the seats)."""
    import hashlib

    status, made = server.post("/api/games", {"game": "duet", "lang": "en", "seed": 5, "mode": "people"})
    assert status == 200, made
    game_id, tokens = made["id"], {s: link.rsplit("/", 1)[1] for s, link in made["links"].items()}
    assassin = server.record(game_id)["key"]["A"].index("X")

    async def play():
        async with websockets.connect(f"{server.ws_base}/ws/{game_id}?token={tokens['A']}") as a, \
                websockets.connect(f"{server.ws_base}/ws/{game_id}?token={tokens['B']}") as b:
            await a.send(json.dumps({"type": "clue", "word": "zebra", "number": 1}))
            await recv_until(b, lambda m: m["type"] == "state" and m["view"]["phase"] == "guess")
            await b.send(json.dumps({"type": "guess", "card": assassin}))
            await recv_until(b, lambda m: m["type"] == "state" and "reveal" in m["view"])

    run(play())
    status, record = server.get(f"/api/games/{game_id}/record")
    assert status == 200 and record["web"]["seats"]
    text = json.dumps(record)
    for token in tokens.values():
        assert token not in text and hashlib.sha256(token.encode()).hexdigest() not in text
    assert "tokens" not in record["web"]
    assert server.record(game_id)["web"]["tokens"]   # kept on the server
    status, replay = server.get(f"/api/games/{game_id}/replay")
    assert status == 200 and not any(hashlib.sha256(t.encode()).hexdigest() in json.dumps(replay)
                                     for t in tokens.values())


def test_a_won_duet_without_a_score_is_listed_as_won_not_score_none():  # RULES 3.11
    """RULES 3.11 scores the 9-token game only: a won game of 11 tokens (a mission, --tokens) has
    score None, and the games list read 'won, score None'. Now 'won'; a scored game keeps its score."""
    from types import SimpleNamespace

    from experiments.web.games import ADAPTERS

    for tokens, expected in ((11, "won"), (9, "won, score ")):
        record = deal("duet", 7, "en", mission=None, tokens=tokens, invalid_clue="allow")
        words, a, b = record.words, record.key.a, record.key.b
        record.actions = ([Clue("A", "zebra", 9)] + [Guess("B", w) for i, w in enumerate(words) if a[i] == "G"]
                          + [Clue("B", "yak", 9)]
                          + [Guess("A", w) for i, w in enumerate(words) if b[i] == "G" and a[i] != "G"])
        table = SimpleNamespace(record=record, state=record.replay(), ended=None, ended_kind=None)
        assert table.state.phase == "won"
        text = ADAPTERS["duet"].result_text(table)
        assert text.startswith(expected) and "None" not in text, text
