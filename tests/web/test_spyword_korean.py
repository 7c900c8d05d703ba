"""A Korean Spy's Word room's pages are told every refusal and notice in Korean, by kind, as a Korean
Duet or Codenames board's are (experiments/web/messages.py REFUSALS, engine/refusals.py): rooms
played over the WebSocket by pages that try every message a page can send at every step (each
refusal collected), in the lobby, in the game, after it, on one phone; a room in English is told the
same refusals in the same English as before.

The word pack is 개 / 고양이 (dog and cat are their listed translations); the people have Korean
names, so that a Latin word in a message is one the server wrote, not a player's name."""

from __future__ import annotations

import json

import numpy as np
import pytest
import websockets

from spyword_harness import Client, SpyServer, act, game, legal_clue, open_room, run, sync
from test_korean_refusals import latin_words

PACKS = {"en": [{"id": "t-1", "category": "animal", "words": ["dog", "cat"]}],
         "ko": [{"id": "t-ko-1", "category": "동물", "words": ["개", "고양이"]}]}
POOL = {"ko": ("우주", "바이올린", "피라미드", "태풍", "펭귄", "사막", "등대", "빙하", "나침반", "초원", "항구", "천둥",
               "대리석", "협곡", "과수원", "호루라기", "리본", "선인장", "구름", "나무", "기차", "연필", "의자", "책상",
               "시계", "우산", "모자", "신발", "가방", "편지", "사진", "음악", "영화", "축구", "야구", "농구", "수박",
               "딸기", "포도", "감자", "당근", "호박", "거울", "양초", "반지", "지도", "열쇠", "창문", "소금", "설탕"),
        "en": ("zebra", "galaxy", "violin", "pyramid", "tornado", "penguin", "lantern", "glacier", "compass", "meadow",
               "harbor", "thunder", "marble", "velvet", "canyon", "orchard", "whistle", "saddle", "ribbon", "cactus",
               "cloud", "train", "pencil", "chair", "clock", "umbrella", "shoe", "letter", "movie", "soccer", "melon",
               "grape", "potato", "carrot", "pumpkin", "mirror", "candle", "ring", "map", "key", "window", "salt")}
KOREAN = ["민수", "지영", "서연", "도윤", "하준", "수아"]
ENGLISH = ["Ann", "Bob", "Cho", "Dan", "Eve", "Fay"]


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = SpyServer(tmp_path_factory.mktemp("spyword-korean"), packs=PACKS, client_seeds=True).start()
    yield server
    server.stop()


def foreign(message: str) -> list[str]:
    """The Latin words of a refusal outside what it quotes ('PASS' included): none on a Korean page."""
    return latin_words(message)


async def raw(client: Client, text) -> dict:
    """A message as a hand at the socket sends it (not JSON, binary, too large); its error frame."""
    n = len(client.errors)
    await client.ws.send(text)
    while len(client.errors) == n:
        await client.recv()
    return client.errors[-1]


async def lobby_refusals(srv, lang: str, names: list[str]) -> tuple[list[dict], str, dict]:
    """Every refusal of the lobby: bad messages, a guest's host actions, bad settings, role counts that
    do not fit, a bad link and a seat with every place taken. Returns (frames, code, clients)."""
    from experiments.web.messages import MAX_SEAT_SOCKETS

    status, made = srv.post("/api/spyword/rooms", {"name": names[0], "lang": lang, "seed": 11})
    assert status == 200, made
    code, tokens = made["code"], {made["member"]: made["token"]}
    for name in names[1:]:
        status, joined = srv.post(f"/api/spyword/rooms/{code}/join", {"name": name})
        assert status == 200, joined
        tokens[joined["member"]] = joined["token"]
    clients = {seat: await Client.open(srv, code, token) for seat, token in tokens.items()}
    await sync(clients.values())
    host, guest = clients["p1"], clients["p2"]
    frames = [await raw(host, "{not json"), await raw(host, b"\x00\x01"), await raw(host, "x" * 9000),
              await raw(host, '{"type": "ready", "x": "a\\ud800"}')]
    for msg in ({"type": "settings", "players": 6}, {"type": "start"}):
        frames.append(await act(guest, **msg))
    for msg in ({"type": "ready"}, {"type": "clue", "text": "우주"}, {"type": "settings", "playrs": 8},
                {"type": "settings", "settings": 5}, {"type": "settings", "settings": {"spys": 1}},
                {"type": "settings", "settings": {"ghost": "x"}}, {"type": "settings", "players": 99},
                {"type": "settings", "players": 4}, {"type": "settings", "bot": "x"}, {"type": "settings", "lang": "fr"},
                {"type": "kick", "target": "p1"}, {"type": "add_player", "name": "예준"}, {"type": "teleport"},
                {"type": "start", "colour": 1}, {"type": "start", "stage": 5}, {"type": "start", "stage": "0:x"},
                {"type": "ready", "seat": "p2"}):
        frames.append(await act(host, **msg))
    r = await act(host, type="settings", settings={"minority": 3})   # 3 spies of 6: refused at the start
    assert r.get("type") == "room" or "role_problem" in r, r
    await sync(clients.values())
    notice = guest.last["role_problem"]
    frames.append({"type": "notice", "code": "role_problem", "message": notice, **guest.last["role_problem_kind"]})
    frames.append(await act(host, type="start"))
    r = await act(host, type="settings", settings={"minority": None})
    assert r.get("role_problem") is None, r
    async with websockets.connect(f"{srv.ws_base}/ws/spyword/{code}?token=wrong") as ws:
        frames.append(json.loads(await ws.recv()))
    extra = [await Client.open(srv, code, tokens["p1"]) for _ in range(MAX_SEAT_SOCKETS - 1)]
    async with websockets.connect(f"{srv.ws_base}/ws/spyword/{code}?token={tokens['p1']}") as ws:
        frames.append(json.loads(await ws.recv()))
    for c in extra:
        await c.close()
    await sync(clients.values())
    return frames, code, clients


def tries(seat: str, g: dict, seats: list[str]) -> list[dict]:
    """Every message a page of `seat` may send in the game: the good ones and the bad."""
    word = g.get("word")
    used = [c["clue"] for c in g.get("clues", []) if c["clue"]]
    lang = "ko" if word in ("개", "고양이") or word is None else "en"
    other = next(s for s in seats if s != seat)
    out = [{"type": "ready"}, {"type": "clue", "text": legal_clue(word, used, lang, POOL[lang])}, {"type": "clue", "text": ""},
           {"type": "clue", "text": 5}, {"type": "clue", "text": "가" * 201}, {"type": "clue", "text": "가" * 70},
           {"type": "clue", "text": "우\u200b주"}, {"type": "clue", "text": "하늘 바다"}, {"type": "clue", "text": "dog"},
           {"type": "clue", "text": "cat"}, {"type": "start_vote"}, {"type": "vote", "target": seat},
           {"type": "vote", "target": other}, {"type": "vote", "target": "PASS"}, {"type": "vote", "target": "nobody"},
           {"type": "guess", "word": "사과"}, {"type": "guess", "word": ""}, {"type": "dismiss"},
           {"type": "show", "seat": seat}, {"type": "hide"}, {"type": "kick", "target": "p99"},
           {"type": "kick", "target": seat}, {"type": "kick", "target": 5}, {"type": "teleport"},
           {"type": "ready", "seat": other}, {"type": "ready", "stage": "0:x"}]
    if word:   # the word itself, and a word holding it (the clue filter's verdict)
        out += [{"type": "clue", "text": word}, {"type": "clue", "text": word + ("집" if lang == "ko" else "house")}]
    out += [{"type": "clue", "text": u} for u in used[:1]]
    out += [{"type": "vote", "target": t} for t in (g.get("you") or {}).get("vote", []) if t != "PASS"]
    return out


async def play_every_message(clients: dict, rng, steps: int = 400) -> list[dict]:
    """The people play on, each step every page trying its messages in a random order until one is
    played (no bots: every frame comes from these pages); every refusal is returned."""
    frames = []
    seats = list(clients)
    for _ in range(steps):
        await sync(clients.values())
        room = clients["p1"].last
        if room["phase"] != "playing":
            return frames
        options = [(seat, msg) for seat, c in clients.items() for msg in tries(seat, game(c.last), seats)]
        rng.shuffle(options)
        for seat, msg in options:
            r = await act(clients[seat], **msg)
            if r.get("type") == "error":
                frames.append(r)
                continue
            break
        else:
            raise AssertionError(f"no message was played at {room['stage']}")
    raise AssertionError("the game did not end")


async def after_the_game(clients: dict) -> list[dict]:
    await sync(clients.values())
    frames = [await act(clients["p2"], type="again"), await act(clients["p2"], type="ready"),
              await act(clients["p1"], type="start")]
    return frames


async def one_phone(srv, lang: str, names: list[str]) -> list[dict]:
    """A single device's refusals: a move before a card is shown, another seat's move, leaving and
    kicking (many-device rules), a card of nobody."""
    status, made = srv.post("/api/spyword/rooms", {"name": names[0], "device": "single", "lang": lang, "seed": 5})
    assert status == 200, made
    phone = await Client.open(srv, made["code"], made["token"])
    for name in names[1:4]:
        await act(phone, type="add_player", name=name)
    await act(phone, type="settings", players=4)   # no bot: every frame comes from this phone
    await act(phone, type="start")
    frames = [await act(phone, type="ready"), await act(phone, type="show", seat="p99")]
    await act(phone, type="show", seat="p1")
    frames += [await act(phone, type="ready", seat="p2"), await act(phone, type="leave"),
               await act(phone, type="kick", target="p2")]
    await phone.close()
    return frames


async def stopped(srv, lang: str, names: list[str]) -> list[dict]:
    """A game a bot stopped: every seat reads why, and a move is refused with it."""
    code, clients = await open_room(srv, names[:4], seed=3, lang=lang)
    room = srv.room(code)
    async with room.lock:
        room.stop("bot_failed", seat="p4", error="BotTimeout")
    await clients["p1"].send(type="hello")
    r = await clients["p1"].wait(lambda r: r["error"] is not None)
    frames = [{"type": "notice", "code": "game_stopped", "message": r["error"], **r["error_kind"]},
              await act(clients["p2"], type="ready")]
    for c in clients.values():
        await c.close()
    return frames


def every_refusal(srv, lang: str, names: list[str], seeds=(11, 12, 13)) -> list[dict]:
    async def scenario():
        frames, code, clients = await lobby_refusals(srv, lang, names)
        for c in clients.values():
            await c.close()
        rng = np.random.default_rng(5)
        for seed in seeds:
            code, clients = await open_room(srv, names, seed=seed, lang=lang)
            frames += await play_every_message(clients, rng)
            frames += await after_the_game(clients)
            for c in clients.values():
                await c.close()
        frames += await one_phone(srv, lang, names)
        frames += await stopped(srv, lang, names)
        return frames

    return run(scenario())


#: what the pages' messages meet in these rooms (the rest: a duel, a timer, the host's drop, ...
#: depend on the votes; the table test fills every kind in)
REACHED = {
    "not_an_object", "not_text", "too_large", "not_unicode", "room_not_host", "room_not_started", "room_settings_part",
    "room_settings_object", "room_unknown_setting", "room_bad_setting", "room_players", "room_seats", "room_bot",
    "room_lang", "room_kick_target", "room_join_code", "room_unknown_lobby", "room_message_field", "room_stage_field",
    "room_stale", "room_not_your_seat", "roles_spies", "room_bad_token", "too_many_sockets",
    "sw_confirmed", "clue_turn", "room_clue_text", "room_clue_long", "sw_too_long", "sw_invisible", "sw_one_word",
    "sw_own_word", "sw_checked", "sw_no_clues", "sw_vote_not_yet", "sw_host_starts_vote", "sw_no_vote",
    "sw_self_vote", "sw_pass_off", "room_target_vote", "sw_guess_who", "room_guess_word", "sw_no_screen", "room_show",
    "room_hide", "sw_kick_host", "sw_kick_self", "sw_not_in_room", "room_target_seat", "room_unknown_move",
    "sw_voted", "sw_repeat", "room_not_host_again", "game_over", "room_not_shown", "room_show_seat", "room_phone",
    "sw_single_room", "bot_failed"}


def test_every_refusal_in_a_korean_room_is_korean_by_kind(srv):
    """Before, a Korean room's pages were told the server's and the engine's English ('a player
    never votes for itself', 'it is p3's turn to give a clue', 'only the host changes the room') and
    the page turned some of it into Korean by regular expression, a seat by its id. Now each comes
    worded in the room's language with its kind and fields, a seat by its player's name."""
    frames = every_refusal(srv, "ko", KOREAN)
    assert all(f.get("type") in ("error", "notice") for f in frames), [f for f in frames if f.get("type") not in
                                                                       ("error", "notice")][:3]
    english = sorted({f["message"] for f in frames if foreign(f["message"])})
    assert not english, english[:10]
    assert all(f.get("kind") for f in frames), [f for f in frames if not f.get("kind")][:3]
    kinds = {f["kind"] for f in frames}
    assert REACHED <= kinds, sorted(REACHED - kinds)
    checked = {f["message"] for f in frames if f["kind"] == "sw_checked"}   # the checker's verdicts, in Korean
    assert any("번역" in m for m in checked) and all(m.endswith("(규칙 5.4)") or "(규칙 4." in m for m in checked), checked
    named = [f["message"] for f in frames if f["kind"] in ("clue_turn", "sw_voted")]
    assert named and all(any(n in m for n in KOREAN) for m in named), named[:5]   # a seat by its name


def test_an_english_room_is_told_the_same_english_as_before(srv):
    frames = every_refusal(srv, "en", ENGLISH, seeds=(11,))
    assert all("message" in f for f in frames), [str(f)[:300] for f in frames if "message" not in f]
    said = {f["message"] for f in frames}
    assert {"a message is a JSON object with a \"type\", e.g. {\"type\": \"ready\"}", "messages are JSON text frames",
            "only the host changes the room (settings, players, start)",
            "the game has not started: 'ready' is a move of the game (the host starts it)",
            "unknown part 'playrs' of a settings message; it holds settings, players, bot, lang",
            "'settings' is an object of host settings", "unknown setting 'spys'", "'players' is 4..12 (RULES 5.1)",
            "6 people are in the room: at least as many seats", "'bot' is one of easy, standard",
            "'lang' (the word packs) is en or ko", "'target' is another player of the room",
            "on many devices players join with the room's code",
            "unknown lobby message 'teleport'; lobby: settings, start, kick, add_player, leave",
            "unknown field 'colour' of a start message; its fields are type, seat, stage",
            "'stage' is the room's stage the message was sent at (the room frame's stage)",
            "this message was sent at stage 0:x and the room is at stage 0:lobby: it is not played (look at the room again)",
            "you hold seat p1; a move for p2 is not yours to make",
            "RULES 5.2: 6 players allow 1-2 spies, not 3",
            "this link holds no seat of the room: join with the room's code",
            "this seat has 8 pages open: close one first", "a clue needs a text", "a clue is at most 200 characters",
            "a one-word clue is at most 64 characters, not 70",
            "a one-word clue may not hold an invisible character (U+200B)",
            "the clue mode is one word: say one word, not a phrase", "a clue may not be the word itself",
            "a player never votes for itself", "'target' is a seat or PASS", "a guess is a word",
            "'show' is for a single device (your own screen shows your card)",
            "'hide' is for a single device (your own screen hides your word)", "the host leaves rather than kicking itself",
            "'p99' is not in the room", "'target' is a seat", "unknown move type 'teleport'",
            "only the host starts another game", "the game is over",
            "pass the phone: the player whose turn it is shows their card first", "'seat' is a player at this device",
            "the phone is with p1, not p2", "leaving and kicking are many-device rules (RULES 5.12)",
            "PASS is not allowed (host setting)",
            "the bot on seat p4 failed (BotTimeout)"} <= said, sorted(said)
    assert any(m.startswith("it is p") and m.endswith("'s turn to give a clue") for m in said)
    # a page in the Korean interface words them in Korean (common.js frameText reads message_ko): the
    # frame carries the Korean line of every kind it knows (a Korean page showed this one in English)
    own = [f for f in frames if f.get("kind") == "sw_own_word"]
    assert own and all(f["message_ko"] == "자기 단어를 힌트로 말할 수 없습니다" for f in own), own
    assert sum("message_ko" in f for f in frames) > 30
    assert all(f["message_ko"] != f["message"] for f in frames if "message_ko" in f and f["kind"] != "too_many_sockets")


def test_the_engines_and_the_servers_refusals_share_no_kind():
    """A room words a refusal by its kind from either table (Room.refusal_text): a kind in both would
    word an engine refusal with the server's line."""
    from engine.refusals import _REFUSALS
    from experiments.web.messages import REFUSALS

    assert not set(_REFUSALS) & set(REFUSALS)
