"""A Korean board's page is told every engine refusal in Korean (engine/refusals.py), as the clue
filter's verdicts are: games played over the WebSocket by pages that try every move a page can
send at every turn (each refusal collected), on Korean Duet, Codenames and Pictures boards."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re

import numpy as np
import websockets

from engine.refusals import _REFUSALS, refusal, refusal_text
from test_protocol import held_bot_clues, recv, recv_until, run
from web_harness import CHEAP

QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")   # a board or clue word, as repr quotes it


def latin_words(message: str) -> list[str]:
    """The Latin words of a message outside the words it quotes (a seat letter A or B is no word)."""
    return re.findall(r"[A-Za-z]{2,}", QUOTED.sub("", message))


def moves(game: str, cards: int) -> list[dict]:
    """Every kind of move a page may send, with a good and a bad clue number, on every card."""
    out = [{"type": "clue", "word": "우주", "number": 2}, {"type": "clue", "word": "우주", "number": 10},
           {"type": "clue", "word": "우주", "number": "무제한"}, {"type": "stop"}]
    out += [{"type": "guess", "card": i} for i in range(cards)]
    if game == "duet":
        out += [{"type": "pass"}]
    else:
        out += [{"type": "clue", "word": "우주 바다", "number": 1}, {"type": "clue", "word": "바다", "number": 0}]
        out += [{"type": "cover", "card": i} for i in range(cards)]
    return out


def card_key(record: dict, view: dict, msg: dict) -> str | None:
    """The key of the card a guess names, as the guess is judged (the test knows the key)."""
    if msg["type"] != "guess":
        return None
    key, i = record["key"], msg["card"]
    if record["game"] == "duet":   # RULES 3.5: by the side of the last clue's giver
        giver = next((e["seat"] for e in reversed(view.get("history") or []) if e["kind"] == "clue"), None)
        return None if giver is None else key[giver][i]
    return {"R": "red", "B": "blue", "N": "N", "X": "X"}[key[i]] if view.get("turn_team") else None


def order(tries: list, record: dict, view: dict, rng) -> list:
    """The moves in the order the pages send them: at random, the assassin last (a game that lasts
    meets more rules); half the time an agent-finding guess first, else the few moves that are no
    card (clues, stop, pass) before the cards."""
    rng.shuffle(tries)
    own = ("G", view.get("turn_team"))
    if rng.random() < 0.5:
        tries.sort(key=lambda t: card_key(record, view, t[1]) not in own)
    else:
        tries.sort(key=lambda t: "card" in t[1])
    return sorted(tries, key=lambda t: card_key(record, view, t[1]) == "X")


async def play_every_move(server, made: dict, rng, steps: int = 80) -> list[dict]:
    """Play one game from every person's seat: at each turn the pages send moves in a random order
    until one is played; every refusal frame is returned."""
    record = server.record(made["id"])
    tokens = {seat: link.rsplit("/", 1)[1] for seat, link in made["links"].items()}
    refusals, views = [], {}
    async with contextlib.AsyncExitStack() as stack:
        sockets = {}
        for seat, token in tokens.items():   # one at a time: each connection is a frame to those before it
            sockets[seat] = await stack.enter_async_context(
                websockets.connect(f"{server.ws_base}/ws/{made['id']}?token={token}"))
            views[seat] = (await recv(sockets[seat]))["view"]
        for n, seat in enumerate(sockets):
            for _ in range(len(sockets) - 1 - n):
                views[seat] = (await recv(sockets[seat]))["view"]
        for _ in range(steps):
            view = next(iter(views.values()))
            if view["outcome"]["over"]:
                break
            tries = [(seat, msg) for seat in sockets for msg in moves(record["game"], len(record["words"]))]
            for seat, msg in order(tries, record, view, rng):
                await sockets[seat].send(json.dumps(msg, ensure_ascii=False))
                frame = await recv(sockets[seat])
                if frame["type"] == "error":
                    refusals.append(frame)
                    continue
                views[seat] = frame["view"]
                for other, ws in sockets.items():
                    if other != seat:
                        views[other] = (await recv_until(ws, lambda m: m["type"] == "state"))["view"]
                break
    return refusals


def test_every_engine_refusal_on_a_korean_board_is_korean(server, monkeypatch):
    """Before, an illegal move's refusal reached a Korean board's page in the engine's English (`no
    clues in sudden death`, `it is A's turn to give a clue`) while the clue filter's were Korean."""
    kinds = []
    from experiments.web import app

    def wording(exc, language):
        kinds.append(exc.kind)
        return refusal_text(exc, language)

    monkeypatch.setattr(app, "refusal_text", wording)
    monkeypatch.setattr("experiments.web.games.judge_clue", lambda *a: None)   # its verdicts are Korean already
    rng = np.random.default_rng(7)
    games = [{"game": "duet", "mode": "people", "tokens": t, "seed": s} for t, s in ((9, 1), (4, 2), (2, 3), (9, 4))]
    games += [{"game": g, "variant": v, "seats": seats, "seed": s}
              for g in ("codenames", "pictures") for s in (1, 2)
              for v, seats in (("two_player", {"spymaster": "person", "guesser": "person"}),
                               ("teams", {x: "person" for x in ("red-spymaster", "red-guesser", "blue-spymaster",
                                                                 "blue-guesser")}))]
    frames = []
    for settings in games:
        status, made = server.post("/api/games", {"lang": "ko", **CHEAP, **settings})
        assert status == 200, made
        frames += run(play_every_move(server, made, rng))

    release = held_bot_clues(monkeypatch)   # the bot partner gives the first clue: a person's is refused
    status, made = server.post("/api/games", {"game": "duet", "lang": "ko", "seed": 5, "first": "partner", **CHEAP})
    assert status == 200, made

    async def before_the_bots_clue():
        async with websockets.connect(f"{server.ws_base}/ws/{made['id']}?token={made['token']}") as ws:
            await recv(ws)
            for msg in ({"type": "clue", "word": "우주", "number": 2}, {"type": "pass"}):
                await ws.send(json.dumps(msg, ensure_ascii=False))
                frames.append(await recv_until(ws, lambda m: m["type"] == "error"))

    try:
        run(before_the_bots_clue())
    finally:
        release.set()

    illegal = [f for f in frames if f["code"] == "illegal"]
    assert illegal and all(f["rule"] for f in illegal)
    english = {f["message"] for f in illegal if latin_words(f["message"])}
    assert not english, sorted(english)[:10]
    reachable = {   # what the pages' moves met; the rest (an unknown seat, a word that is no text) a page never sends
        "clue_turn", "clue_turn_not", "guessing", "duet_number", "codenames_number", "sudden_death_clue",
        "sudden_death_stop", "guess_first", "duet_guesser", "covered_agent", "known_bystander", "stop_no_turn",
        "duet_stopper", "duet_stop_early", "hold_back_outside", "bot_first", "needs_clue", "team_guesser",
        "already_covered", "team_stopper", "team_stop_early", "nothing_to_cover", "must_cover", "cover_turn",
        "not_their_agent", "not_one_word"}
    assert reachable <= set(kinds), sorted(reachable - set(kinds))


def test_every_refusal_has_a_korean_line_without_english_words():
    """Every kind of the table, with English names in its fields (teams, seats, what was tried), is
    worded in Korean on a Korean board and in the engine's own English elsewhere."""
    names = {"result": "won", "team": "red", "givers": ("A", "B"), "giver": "red-spymaster", "seat": "blue-guesser",
             "guesser": "red-guesser", "type": "list", "word": "'우주'", "what": "a guess", "spelled": "'A'",
             "board": "'a'", "seats": "seats are red-spymaster", "action": "Cover", "game": "Duet", "moves": "",
             "most": 9, "number": "'unlimited'", "other": "B", "mover": "red-guesser",
             # Spy's Word: a seat's id as the engine says it (a room names the player), what was typed quoted
             "actor": "p1", "host": "p2", "speaker": "p3", "tied": "p1, p2", "target": "'p9'", "text": "'red'",
             "phase": "duel_vote", "limit": 64, "length": 300, "code": "U+200B", "round": 2, "token": "'apple'",
             "translation": "'사과'", "timeout": "'speaker'", "message": "힌트는 단어의 일부일 수 없습니다",
             "cited": "RULES", "section": "4.3"}
    for kind, (_ko, en) in _REFUSALS.items():
        fields = {k: v for k, v in names.items() if "{" + k + "}" in en}
        exc = refusal("3.4", kind, **fields)
        assert latin_words(refusal_text(exc, "ko")) == [], (kind, refusal_text(exc, "ko"))
        assert refusal_text(exc, "en") == exc.message and "{" not in exc.message


def bad_messages(game: str) -> list[str]:
    """Every kind of message a page (or a hand at its socket) may send that the web server itself
    refuses before the engine sees a move: not JSON, too large, no move, a bad field, another seat."""
    messages = ["{not json", json.dumps([1, 2]), b"\x00\x01", json.dumps({"type": "clue", "word": "x" * 9000}),
                '{"type": "clue", "word": "zebra\\ud800", "number": 1}', json.dumps({"type": "teleport"})]
    messages += [json.dumps(m, ensure_ascii=False) for m in (
        {"type": "clue", "word": "우주", "number": "two"}, {"type": "clue", "word": "", "number": 1},
        {"type": "clue", "word": "가" * 41, "number": 1}, {"type": "guess", "card": 99},
        {"type": "guess", "card": "3"}, {"type": "clue", "seat": "zz", "word": "우주", "number": 1},
        {"type": "clue", "seat": "blue-guesser", "word": "우주", "number": 1}, {"type": "stop", "id": "other"},
        {"type": "stop", "game": "chess"}, {"type": "stop", "numbr": 1}, {"type": "stop", "moves": "x"},
        {"type": "stop", "moves": 99}, {"type": "first"} if game == "duet" else {"type": "cover", "card": -1})]
    return messages


async def refuse_everything(server, made: dict, guesser: str, assassin: int) -> list[dict]:
    """The error frames of a game of two people: every bad message before and after the first clue,
    a wrong link, and a move after the guesser touched the assassin."""
    game = server.record(made["id"])["game"]
    tokens = {seat: link.rsplit("/", 1)[1] for seat, link in made["links"].items()}
    giver = next(seat for seat in tokens if seat != guesser)
    frames = []
    async with websockets.connect(f"{server.ws_base}/ws/{made['id']}?token=wrong") as ws:
        frames.append(await recv(ws))
    async with websockets.connect(f"{server.ws_base}/ws/{made['id']}?token={tokens[giver]}") as ws, \
            websockets.connect(f"{server.ws_base}/ws/{made['id']}?token={tokens[guesser]}") as other:
        await recv_until(ws, lambda m: m["type"] == "state")
        for clue_given in (False, True):
            for message in bad_messages(game):
                await ws.send(message)
                frames.append(await recv_until(ws, lambda m: m["type"] == "error"))
            if not clue_given:
                await ws.send(json.dumps({"type": "clue", "word": "우주", "number": 1}, ensure_ascii=False))
                await recv_until(other, lambda m: m["type"] == "state" and m["view"]["moves"] == 1)
        await other.send(json.dumps({"type": "guess", "card": assassin}))
        await recv_until(ws, lambda m: m["type"] == "state" and m["view"]["outcome"]["over"])
        await ws.send(json.dumps({"type": "stop"}))
        frames.append(await recv_until(ws, lambda m: m["type"] == "error"))
    return frames


def web_refusals(server, lang: str) -> list[dict]:
    """Every web server refusal of Duet, Codenames and Pictures games on `lang` boards."""
    frames = []
    status, made = server.post("/api/games", {"game": "duet", "lang": lang, "mode": "people", "seed": 3, **CHEAP})
    assert status == 200, made
    frames += run(refuse_everything(server, made, "B", server.record(made["id"])["key"]["A"].index("X")))
    for game in ("codenames", "pictures"):
        status, made = server.post("/api/games", {"game": game, "lang": lang, "seed": 3, **CHEAP,
                                                  "seats": {"spymaster": "person", "guesser": "person"}})
        assert status == 200, made
        guesser = next(seat for seat in made["links"] if seat.endswith("guesser"))
        frames += run(refuse_everything(server, made, guesser, server.record(made["id"])["key"].index("X")))
    return frames


def test_every_refusal_of_the_web_server_on_a_korean_board_is_korean(server, monkeypatch):
    """Before, what the web server refuses itself reached a Korean board's page in English ('card'
    must be a card number 0..24, the first clue has been given already, a message is a JSON object,
    you hold seat A, the game is over); the engine's refusals were Korean. English boards unchanged."""
    monkeypatch.setattr("experiments.web.games.judge_clue", lambda *a: None)
    korean = web_refusals(server, "ko")
    assert {f["code"] for f in korean} >= {"malformed", "too_large", "bad_move", "bad_clue", "not_your_seat",
                                           "not_your_game", "stale", "game_over", "bad_token"}, korean
    english = {f["message"] for f in korean if f["code"] != "illegal" and latin_words(f["message"])}
    assert not english, sorted(english)
    said = {f["message"] for f in web_refusals(server, "en")}
    assert {"'card' must be a card number 0..24", "the first clue has been given already", "a clue needs a word",
            "there is no bot partner here: either of you may give the first clue", "the game is over",
            "a clue is one word (at most 40 characters)", "a clue needs a number (0..9)",
            "a clue needs a number (0..9 or unlimited)", "messages are JSON text frames",
            "a message is at most 4096 bytes", 'a message is a JSON object with a "type", e.g. {"type": "stop"}',
            "a message holds text that is not Unicode (a lone surrogate such as \\ud800)",
            "unknown move type 'teleport'; Duet moves: clue, guess, stop, pass, first",
            "unknown move type 'teleport'; Codenames moves: clue, guess, stop, cover",
            "you hold seat A; a move for seat zz is not yours to make",
            "unknown field 'numbr' of a stop move; its fields are type, seat, id, game, moves",
            "'moves' is the number of moves of the view the move was made on (the view's moves)",
            "this move was made after move 99 and the game is at move 0: it is not played (look at the table again)",
            "this link does not hold a seat of the game (check the join link)"} <= said


def test_an_unlimited_duet_clue_is_refused_in_korean_naming_the_number_in_korean():
    """RULES 3.4: a Duet clue has no UNLIMITED. A Korean page sending 무제한 was told
    "듀엣의 힌트 숫자는 0~9입니다('unlimited'은(는) 안 됩니다)", the engine's English word for it."""
    from engine import UNLIMITED, Clue, IllegalAction
    from experiments.games.duet.dealing import deal_duet_record

    from engine.duet import DuetState

    record = deal_duet_record(4, "ko")
    state = DuetState(record.words, record.key, record.config, referee=lambda *a: None)
    try:
        state.apply(Clue(state.to_act()[0], "우주", UNLIMITED))
    except IllegalAction as exc:
        assert exc.rule == "3.4" and exc.kind == "duet_number"
        assert refusal_text(exc, "ko") == "듀엣의 힌트 숫자는 0~9입니다(무제한은(는) 안 됩니다)"
        assert refusal_text(exc, "en") == "a Duet clue number is 0..9, not 'unlimited'"
    else:
        raise AssertionError("an UNLIMITED Duet clue was played")


BAD_SETTINGS = [
    {"game": "chess"}, {"game": ["duet"]}, {"game": "duet", "lang": "fr"}, {"game": "duet", "seed": "x"},
    {"game": "duet", "seed": -1}, {"game": "duet", "tokens": 0}, {"game": "duet", "mission": "x" * 50},
    {"game": "duet", "mission": "atlantis"}, {"game": "duet", "mission": "cairo", "tokens": 3},
    {"game": "duet", "mode": "x"}, {"game": "duet", "seat": "C"}, {"game": "duet", "first": "x"},
    {"game": "codenames", "variant": "x"}, {"game": "codenames", "seats": ["spymaster"]},
    {"game": "codenames", "seats": {"captain": "person"}}, {"game": "codenames", "seats": {"spymaster": "alien"}},
    {"game": "pictures", "seats": {"spymaster": "bot"}}, {"game": "duet", "tokns": 1},
    {"game": "duet", "spymaster": "nope:x"}, {"game": "duet", "lang": "ko", "spymaster": "robust:glove-50"},
    {"game": "duet", "spymaster": "llm"}, {"game": "duet", "spymaster": "x" * 300},
    {"game": "duet", "spymaster": "robust:nosuch"}, {"game": "duet", "guesser": "human?weights=/etc/passwd"},
    {"game": "duet", "spymaster": "my.mod:Cls"}, {"game": "codenames", "guesser": "a b ??"},
    b"{nope", b"[1, 2]", b"x" * 20_000]


def test_every_setting_the_server_refuses_is_worded_in_korean_on_a_korean_page(page, server):
    """A new game's settings the server refused were shown on the Korean new-game page in the server's
    English ('spymaster: unknown spymaster 'nope'; known: ...', 'seed: a whole number'). Now the reply
    names its kind and the page words it from its own table (e_KIND); the English page shows the
    server's words, unchanged."""
    replies = []
    for body in BAD_SETTINGS:
        status, reply = server.post("/api/games", body)
        assert status in (400, 413) and reply.get("kind"), (body, reply)
        replies.append(reply)
    page.goto(f"{server.base}/?ui=ko#/")
    page.wait_for_selector("#new-game")
    korean = page.evaluate("(rs) => rs.map(replyText)", replies)
    known = page.evaluate("(rs) => rs.map((r) => 'e_' + r.kind in TEXT.ko)", replies)
    assert all(known), [r["kind"] for r, k in zip(replies, known) if not k]
    english = [(r["error"], k) for r, k in zip(replies, korean) if latin_words(k) or "{" in k]
    assert not english, english
    page.goto(f"{server.base}/?ui=en#/")
    page.wait_for_selector("#new-game")
    assert page.evaluate("(rs) => rs.map(replyText)", replies) == [r["error"] for r in replies]


def test_a_korean_new_game_form_shows_a_refused_bot_in_korean(page, server):
    """The form itself: a bot spec the server refuses, said in Korean under the form."""
    page.goto(f"{server.base}/?ui=ko#/")
    page.wait_for_selector("#new-game #spymaster")
    page.fill("#spymaster", "nope:x")
    page.click("#create")
    page.wait_for_selector("#setup-error:not([hidden])")
    shown = page.inner_text("#setup-error")
    assert shown.startswith("봇 스파이마스터: 'nope:x'") and not latin_words(shown), shown


def test_the_plain_clue_checks_without_the_filter_are_worded_in_the_boards_language(monkeypatch):
    """Without the clue filter's packages the web referee keeps two plain checks (RULES 4.7, 4.3);
    their verdicts were English on a Korean board ('A clue is one word: 우주 바다.')."""
    import engine.clues
    from experiments.web.games import judge_clue

    def unavailable(*args, **kwargs):
        raise engine.clues.FilterUnavailable("no morphology model")

    monkeypatch.setattr(engine.clues, "check_clue", unavailable)
    board = ["우주선", "바다"]
    assert judge_clue("하늘 구름", 1, board, [], "ko") == ("4.7", "힌트는 한 단어여야 합니다: 하늘 구름")
    assert judge_clue("우주", 1, board, [], "ko") == (
        "4.3", "공개된 코드네임이나 그것이 들어 있는 단어는 힌트로 줄 수 없습니다: 우주선")
    assert judge_clue("two words", 1, ["owl"], [], "en") == ("4.7", "A clue is one word: two words.")
    assert judge_clue("owls", 1, ["owl"], [], "en") == (
        "4.3", "A visible code word, or a word containing one, may not be the clue: owl.")


def test_a_korean_page_says_in_korean_that_a_game_or_its_replay_is_not_there(page, server):
    """A link to no game, a wrong seat link, the replay of a game still played and of no game showed
    the server's English on a Korean page ('there is no game ...', 'the game is still being played:
    ...'), and a replay's result line its English ('unfinished (both held back in sudden death)')."""
    status, made = server.post("/api/games", {"game": "duet", "lang": "ko", "seed": 5, "first": "me", **CHEAP})
    assert status == 200, made
    shown = []
    for path in ("#/play/no-such-game/x", f"#/play/{made['id']}/wrong", "#/replay/no-such-game",
                 f"#/replay/{made['id']}"):
        page.goto(f"{server.base}/?ui=ko{path}")
        page.wait_for_selector("#fatal")
        shown.append(page.inner_text("#fatal"))
    assert shown[0] == "이 서버에 그런 게임이 없습니다." and shown[2] == shown[0], shown
    assert shown[1] == "이 링크로는 게임 자리에 앉을 수 없습니다.", shown
    assert shown[3].startswith("아직 진행 중인 게임입니다"), shown
    table = server.app.state.server.store.get(made["id"])
    table.ended, table.ended_kind = "both held back in sudden death", {"kind": "both_held_back", "fields": {}}
    table.changed()
    page.goto(f"{server.base}/?ui=ko#/replay/{made['id']}")
    page.reload()   # the same address: the page reads it again
    page.wait_for_selector("#replay h2")
    assert "끝나지 않음 (서든데스에서 둘 다 추측하지 않았습니다)" in page.inner_text("#replay h2")
    page.goto(f"{server.base}/?ui=en#/replay/no-such-game")
    page.wait_for_selector("#fatal")
    assert page.inner_text("#fatal") == "there is no game 'no-such-game' on this server"   # the server's words
    page.goto(f"{server.base}/?ui=en#/play/no-such-game/x")
    page.wait_for_selector("#fatal")
    assert page.inner_text("#fatal") == "There is no such game on this server. there is no game 'no-such-game' on this server"


def test_a_korean_page_names_a_duet_mission_in_korean(page, server):
    """The game page's title named a mission by its id ('코드네임 듀엣 · cairo') on a Korean page; now
    by its Korean name (카이로), as the new-game form does. The English page keeps the id."""
    status, made = server.post("/api/games", {"game": "duet", "lang": "ko", "seed": 5, "first": "me",
                                              "mission": "cairo", **CHEAP})
    assert status == 200, made
    page.goto(f"{server.base}/?ui=ko#/play/{made['id']}/{made['token']}")
    page.wait_for_function("() => document.querySelector('#game h2') && "
                           "document.querySelector('#game h2').textContent.includes('카이로')")
    assert "cairo" not in page.inner_text("#game h2")
    page.goto(f"{server.base}/?ui=en#/play/{made['id']}/{made['token']}")
    page.wait_for_selector("#game h2")
    assert page.inner_text("#game h2").startswith("Codenames Duet · cairo")


def test_every_refusal_of_the_web_servers_table_has_a_korean_line_without_english_words():
    """Each kind of the server's own refusals (messages.REFUSALS), those no page test reaches too (the
    bot partner asked twice to give the first clue), fills in Korean without English words, the
    English fields (seats, moves, quoted input) as the server passes them."""
    import string

    from experiments.web.messages import REFUSALS, refusal_line

    names = {"most": 40, "example": '{"type": "stop"}', "seat": "red-guesser", "claimed": "blue-guesser",
             "id": "duet-0a1b2c", "named": "chess", "field": "'numbr'", "type": "'teleport'", "fields": "type, seat",
             "made": 3, "now": 4, "last": 24, "game": "Duet", "moves": "clue, guess", "word": "zebra words",
             # Spy's Word rooms: a seat's id (a room names the player), a stage, what was typed quoted
             "n": 12, "error": "BotTimeout", "room": "'NOPE1'", "what": "a join request", "pid": "'ab12'",
             "name": "민수", "holder": "p2", "rule": "5.4", "part": "'playrs'", "setting": "'spys'",
             "detail": "settings.ghost must be true, false or null, not 'x' (RULES 5.14)", "lo": 4, "hi": 12,
             "bots": "easy, standard", "players": 4, "spies": 2, "ghost": 1, "citizens": 1}
    for kind, (ko, en) in REFUSALS.items():
        wanted = {f for _, f, _, _ in string.Formatter().parse(en) if f}
        assert {f for _, f, _, _ in string.Formatter().parse(ko) if f} <= wanted <= set(names), kind
        fields = {k: names[k] for k in wanted}
        korean = refusal_line(kind, "ko", **fields)
        assert not latin_words(korean.replace(names["word"], "")), (kind, korean)   # a clue as typed stays


def test_a_games_result_and_end_come_with_their_kind_beside_the_english(server):
    """How a game ended, a stopped bot and a listed game's result were sent in English only, and a
    Korean page read them back into Korean by regular expressions. Now each comes with its kind and
    fields beside the unchanged English (the record keeps both), and the kind survives a restart."""
    from experiments.web.games import text
    from experiments.web.tables import TableStore

    status, made = server.post("/api/games", {"game": "duet", "lang": "ko", "mode": "people", "seed": 4, **CHEAP})
    assert status == 200, made
    summary = server.get(f"/api/games/{made['id']}")[1]
    assert summary["result"] == "playing, 0/15 agents"
    assert summary["result_kind"] == text("duet_playing", status="playing", found=0)
    store = server.app.state.server.store
    english, stopped = "the bot on seat B failed (ValueError)", text("bot_failed", seat="B", error="ValueError")
    store.get(made["id"]).stop(english, stopped)
    summary = server.get(f"/api/games/{made['id']}")[1]
    assert summary["result"] == f"unfinished ({english})"
    assert summary["result_kind"] == text("unfinished", ended=english, ended_kind=stopped)
    assert summary["error_kind"] == stopped and summary["outcome"]["ended_kind"] == stopped
    again = TableStore(server.games_dir)   # the server started again on the same folder
    again.load()
    table = again.get(made["id"])
    assert table.error_kind == stopped and table.ended_kind == stopped
    assert table.view("A")["error_kind"] == stopped and table.error == "the bot on seat B failed (ValueError)"
