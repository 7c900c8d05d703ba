"""What every page may send over its WebSocket: one JSON object with a "type", at most MAX_MESSAGE
bytes. Anything else is answered with an error frame and changes nothing. And how the server
sends its frames, for both WebSocket endpoints."""

from __future__ import annotations

import json
from typing import Any

from engine.refusals import worded

MAX_MESSAGE = 4096  # bytes of one WebSocket message from a page; larger ones are refused
#: open sockets of one seat (its tabs and devices): each frame goes to every one of them, so a link
#: holder opening thousands would make every move of the game cost thousands of sends
MAX_SEAT_SOCKETS = 8


#: The game server's own refusals of a message (not the engines': `engine.refusals`) by kind, in
#: Korean and English: a Korean board's page is told them in Korean (`error_frame`), as the engines'.
#: Fields in braces; a field quoted from the message is quoted in the Korean line too.
REFUSALS = {
    # what any page may send (decode_message)
    "not_text": ("메시지는 텍스트 프레임으로 보내야 합니다", "messages are JSON text frames"),
    "too_large": ("메시지는 {most}바이트를 넘을 수 없습니다", "a message is at most {most} bytes"),
    "not_an_object": ("메시지는 \"type\"이 있는 객체입니다. 예: {example}",
                      'a message is a JSON object with a "type", e.g. {example}'),
    "not_unicode": ("메시지에 유니코드가 아닌 글자(짝 없는 서로게이트, 예: '\\ud800')가 들어 있습니다",
                    "a message holds text that is not Unicode (a lone surrogate such as \\ud800)"),
    # a seat's socket and its moves (app.GameServer)
    "bad_token": ("이 링크로는 게임 자리에 앉을 수 없습니다(참가 링크를 확인하세요)",
                  "this link does not hold a seat of the game (check the join link)"),
    "not_your_seat": ("이 연결의 자리는 {seat}입니다: '{claimed}' 자리의 수는 둘 수 없습니다",
                      "you hold seat {seat}; a move for seat {claimed} is not yours to make"),
    "not_your_game": ("이 연결은 게임 '{id}'의 것입니다: 게임 '{named}'의 수는 둘 수 없습니다",
                      "this socket plays game {id}; a move for game {named} is not for it"),
    "unknown_field": ("{field}은(는) 이 수에 없는 칸입니다(잘못 쓴 칸은 빼고 두지 않습니다)",
                      "unknown field {field} of a {type} move; its fields are {fields}"),
    "moves_field": ("'moves'는 수를 둔 화면까지 둔 수의 개수(정수)입니다",
                    "'moves' is the number of moves of the view the move was made on (the view's moves)"),
    "game_over": ("게임이 끝났습니다", "the game is over"),
    "stale": ("{made}번째 수 뒤에 둔 수인데 게임은 {now}번째 수까지 왔습니다: 두지 않았습니다 (테이블을 다시 보세요)",
              "this move was made after move {made} and the game is at move {now}: it is not played "
              "(look at the table again)"),
    # a move as the adapters read it (games.BadMove)
    "card": ("카드는 0~{last}의 카드 번호로 짚습니다", "'card' must be a card number 0..{last}"),
    "clue_word": ("힌트에는 단어가 있어야 합니다", "a clue needs a word"),
    "clue_long": ("힌트는 한 단어입니다({most}자 이하)", "a clue is one word (at most {most} characters)"),
    "clue_number": ("힌트에는 숫자가 있어야 합니다(0~9)", "a clue needs a number (0..9)"),
    "clue_number_unlimited": ("힌트에는 숫자가 있어야 합니다(0~9 또는 무제한)", "a clue needs a number (0..9 or unlimited)"),
    "first_given": ("첫 힌트는 이미 나왔습니다", "the first clue has been given already"),
    "no_bot_partner": ("여기에는 봇 파트너가 없습니다: 두 사람 중 누구나 첫 힌트를 줄 수 있습니다",
                       "there is no bot partner here: either of you may give the first clue"),
    "bot_first_already": ("이미 봇 파트너가 첫 힌트를 주기로 했습니다", "the bot partner gives the first clue already"),
    "unknown_move": ("{type}은(는) 이 게임의 수가 아닙니다", "unknown move type {type}; {game} moves: {moves}"),
    "not_codenames": ("코드네임의 수가 아닙니다", "not a Codenames move"),
    # the plain clue checks when the clue filter's packages are missing (games.judge_clue)
    "basic_one_word": ("힌트는 한 단어여야 합니다: {word}", "A clue is one word: {word}."),
    "basic_visible": ("공개된 코드네임이나 그것이 들어 있는 단어는 힌트로 줄 수 없습니다: {word}",
                      "A visible code word, or a word containing one, may not be the clue: {word}."),
    # both servers: a seat's sockets, a stopped bot (its game's notice, `games.bot_failed`)
    "too_many_sockets": ("이 자리는 페이지 {n}개가 열려 있습니다: 하나를 먼저 닫으세요", "this seat has {n} pages open: close one first"),
    "bot_failed": ("{seat} 자리의 봇이 멈췄습니다('{error}')", "the bot on seat {seat} failed ({error})"),
    "game_stopped": ("게임이 멈췄습니다", "{error}"),   # a stopped game whose reason has no kind (an older record)
    # Spy's Word rooms (spyword_rooms, spyword_app); a seat's id ({seat}, {holder}) is named by the room
    "room_unknown": ("이 서버에 그런 방이 없습니다: {room}", "there is no room {room} on this server"),
    "room_unknown_link": ("이 서버에 그런 방이 없습니다: {room} (방 코드를 확인하세요)",
                          "there is no room {room} on this server (check the code)"),
    "room_bad_token": ("이 링크로는 방에 앉을 수 없습니다: 방 코드로 들어오세요",
                       "this link holds no seat of the room: join with the room's code"),
    "room_too_large": ("요청은 {most}바이트를 넘을 수 없습니다", "a request is at most {most} bytes"),
    "room_not_json": ("요청을 읽을 수 없습니다", "the request is not JSON"),
    "room_request_field": ("{field}은(는) {what}에 없는 칸입니다(잘못 쓴 칸은 빼고 두지 않습니다)",
                           "unknown field {field} of {what}; its fields are {fields}"),
    "room_new_object": ("새 방의 설정은 이름과 값의 객체입니다", "a new room's settings are a JSON object"),
    "room_join_object": ("참가 요청은 'name'이 있는 객체입니다", "a join request is a JSON object with a 'name'"),
    "room_profile_object": ("새 프로필은 'name'이 있는 객체입니다", "a new profile is a JSON object with a 'name'"),
    "room_device": ("기기는 '각자 자기 기기로' 또는 '휴대폰 하나를 돌려 가며'입니다",
                    "'device' is multi (each player on their own device) or single (one phone passed around)"),
    "room_lang": ("단어 묶음은 영어나 한국어입니다", "'lang' (the word packs) is en or ko"),
    "room_seed_named": ("이 서버는 모든 방을 무작위로 나눕니다: 딜 시드를 정할 수 없습니다",
                        "'seed': this server deals every room at random (a named seed lets the host deal the roles; "
                        "cnlab serve --client-seeds allows it for research games)"),
    "room_seed": ("딜 시드는 0부터 2^64-1까지의 정수입니다(또는 비워 둡니다)", "'seed' is a whole number 0..2^64-1, or null"),
    "room_rooms_full": ("서버에 열린 방이 너무 많습니다", "the server has too many rooms open"),
    "room_bad_profile": ("알 수 없는 프로필이거나 키가 틀렸습니다(먼저 이 서버에서 프로필을 만드세요)",
                         "unknown profile or wrong key (create a profile on this server first)"),
    "room_profiles_full": ("이 서버에는 프로필이 {most}개 있습니다: 프로필 없이 하세요",
                           "this server holds {most} profiles already; play without one"),
    "room_unknown_profile": ("이 서버에 그런 프로필이 없습니다: {pid}", "there is no profile {pid} on this server"),
    "room_single_device": ("이 방은 휴대폰 하나로 합니다: 방장이 그 휴대폰에서 플레이어를 추가합니다",
                           "this room plays on one device: the host adds the players there"),
    "room_started": ("게임이 이미 시작되었습니다: 이 방의 다음 게임에 참여할 수 있습니다",
                     "the game has started: a new player can join the next game in this room"),
    "room_full": ("방이 가득 찼습니다({n}명)", "the room is full ({n} players)"),
    "room_name_taken": ("이 방에서 이미 쓰는 이름입니다: {name}. 다른 이름을 고르세요",
                        "{name} is taken in this room: choose another name"),
    "room_profile_taken": ("이 프로필은 이미 방에 있습니다", "this profile is already in the room"),
    "name_text": ("이름은 1~24자의 글입니다", "a name is a text of 1 to 24 characters"),
    "name_length": ("이름은 1~{most}자입니다", "a name is 1 to {most} characters"),
    "name_invisible": ("이름에 제어 문자나 보이지 않는 문자를 쓸 수 없습니다", "a name may not hold control or invisible characters"),
    "name_blank": ("이름에 보이는 글자가 하나 이상 있어야 합니다(공백만은 안 됩니다)",
                   "a name needs at least one visible character (not only blank ones)"),
    # a room's messages (RoomStore.handle)
    "room_message_field": ("{field}은(는) 이 메시지에 없는 칸입니다(잘못 쓴 칸은 빼고 두지 않습니다)",
                           "unknown field {field} of a {type} message; its fields are {fields}"),
    "room_stage_field": ("'stage'는 메시지를 보낸 때의 방 단계(방 프레임의 'stage')입니다",
                         "'stage' is the room's stage the message was sent at (the room frame's stage)"),
    "room_stale": ("방이 바뀐 뒤에 도착한 메시지입니다: 두지 않았습니다(방을 다시 보세요)",
                   "this message was sent at stage {made} and the room is at stage {now}: it is not played "
                   "(look at the room again)"),
    "room_not_your_seat": ("이 연결의 자리는 {seat}입니다: {claimed}의 수는 둘 수 없습니다",
                           "you hold seat {seat}; a move for {claimed} is not yours to make"),
    "room_not_shown": ("휴대폰을 넘기세요: 차례인 사람이 먼저 자기 카드를 봅니다",
                       "pass the phone: the player whose turn it is shows their card first"),
    "room_phone": ("휴대폰은 {holder}에게 있습니다({claimed}이(가) 아닙니다)", "the phone is with {holder}, not {claimed}"),
    "room_not_started": ("게임이 아직 시작되지 않았습니다: 게임의 수는 방장이 게임을 시작한 뒤에 둡니다",
                         "the game has not started: {type} is a move of the game (the host starts it)"),
    "room_not_host": ("방장만 방을 바꿀 수 있습니다(설정, 플레이어, 시작)", "only the host changes the room (settings, players, start)"),
    "room_not_host_again": ("방장만 다음 게임을 시작합니다", "only the host starts another game"),
    "room_kick_target": ("'target'은(는) 방의 다른 플레이어입니다", "'target' is another player of the room"),
    "room_join_code": ("여러 기기로 할 때는 방 코드로 들어옵니다", "on many devices players join with the room's code"),
    "room_unknown_lobby": ("대기실에서 보낼 수 없는 메시지입니다", "unknown lobby message {type}; lobby: settings, start, kick, "
                           "add_player, leave"),
    "room_not_over": ("게임이 아직 끝나지 않았습니다", "the game is not over"),
    "room_show": ("'show'는 휴대폰 하나로 할 때의 메시지입니다(내 화면에 내 카드가 나옵니다)",
                  "'show' is for a single device (your own screen shows your card)"),
    "room_show_seat": ("'seat'은(는) 이 기기의 플레이어입니다", "'seat' is a player at this device"),
    "room_hide": ("'hide'는 휴대폰 하나로 할 때의 메시지입니다(내 화면은 내가 가립니다)",
                  "'hide' is for a single device (your own screen hides your word)"),
    "room_target_seat": ("'target'은(는) 자리입니다", "'target' is a seat"),
    "room_target_vote": ("'target'은(는) 자리 또는 'PASS'입니다", "'target' is a seat or PASS"),
    "room_clue_text": ("힌트에는 글이 있어야 합니다", "a clue needs a text"),
    "room_clue_long": ("힌트는 {most}자를 넘을 수 없습니다", "a clue is at most {most} characters"),
    "room_guess_word": ("추측은 단어입니다", "a guess is a word"),
    "room_unknown_move": ("이 게임의 수가 아닙니다", "unknown move type {type}"),
    "room_bot_illegal": ("{seat} 자리의 봇이 규칙에 어긋난 수를 두었습니다(규칙 {rule})",
                         "the bot on seat {seat} made an illegal move (RULES {rule})"),
    # the host's settings (Room.set_settings, RULES 5.1, 5.2, 5.14)
    "room_settings_part": ("설정 메시지에 없는 칸입니다: {part}", "unknown part {part} of a settings message; it holds "
                           "settings, players, bot, lang"),
    "room_settings_object": ("'settings'는 방장 설정의 객체입니다", "'settings' is an object of host settings"),
    "room_unknown_setting": ("알 수 없는 설정입니다: {setting}", "unknown setting {setting}"),
    "room_bad_setting": ("쓸 수 없는 방장 설정 값입니다(규칙 5.14)", "{detail}"),
    "room_players": ("자리 수는 {lo}~{hi}입니다(규칙 5.1)", "'players' is {lo}..{hi} (RULES 5.1)"),
    "room_seats": ("방에 {n}명이 있습니다: 자리는 그 이상이어야 합니다", "{n} people are in the room: at least as many seats"),
    "room_bot": ("알 수 없는 봇 종류입니다", "'bot' is one of {bots}"),
    "roles_players": ("규칙 5.1: 스파이의 단어는 {lo}~{hi}명이 합니다({players}명은 안 됩니다)",
                      "RULES 5.1: Spy's Word is for {lo}-{hi} players, not {players}"),
    "roles_spies": ("규칙 5.2: {players}명이면 스파이는 {lo}~{hi}명입니다({spies}명은 안 됩니다)",
                    "RULES 5.2: {players} players allow {lo}-{hi} spies, not {spies}"),
    "roles_ghost": ("규칙 5.2: 유령은 5명 이상일 때만 있습니다({players}명은 안 됩니다)",
                    "RULES 5.2: a ghost needs at least 5 players, not {players}"),
    "roles_outnumber": ("규칙 5.2: 처음에는 시민이 스파이와 유령을 합친 수보다 많아야 합니다({players}명: 시민 {citizens}, "
                        "스파이 {spies}, 유령 {ghost})",
                        "RULES 5.2: citizens must outnumber spies + ghost at the start ({players} players: {citizens} "
                        "citizens vs {spies} spies + {ghost} ghost)"),
}


def refusal_line(kind: str, language: str | None, **fields) -> str:
    """A refusal of the table in `language` ("ko": Korean; else English)."""
    return worded(REFUSALS[kind], language, fields)


def error_frame(code: str, kind: str, language: str | None = "en", **fields) -> dict:
    """The error frame of a refused message, its message in the board's `language`; its `kind` and
    `fields` let a page tell it apart without reading the words."""
    return {"type": "error", "code": code, "message": refusal_line(kind, language, **fields), "kind": kind,
            "fields": fields}


def decode_message(message: dict, example: str, language: str | None = "en") -> tuple[dict | None, dict | None]:
    """(the message, None) or (None, the error frame to send back, in the board's `language`);
    `example` is a valid message."""
    text = message.get("text")
    if text is None:
        return None, error_frame("malformed", "not_text", language)
    if len(text.encode("utf-8")) > MAX_MESSAGE:
        return None, error_frame("too_large", "too_large", language, most=MAX_MESSAGE)
    try:
        msg: Any = json.loads(text)
    except (json.JSONDecodeError, RecursionError):  # RecursionError: "[" * 4000 fits in a message
        msg = None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        return None, error_frame("malformed", "not_an_object", language, example=example)
    try:  # JSON may escape a lone surrogate ("\ud800"): kept, it broke the record and every frame after
        json.dumps(msg, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return None, error_frame("malformed", "not_unicode", language)
    return msg, None


async def read_body(request, limit: int) -> bytes | None:
    """An HTTP request's body, or None when it is larger than `limit` bytes: declared so, or sent so,
    and then no more of it is read (uvicorn bounds no body: `request.body()` held all of it)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return None
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


async def send(ws, payload: dict) -> None:
    """One JSON frame to a socket that is still open (a socket closing meanwhile is let go)."""
    from starlette.websockets import WebSocketState

    if ws.client_state == WebSocketState.CONNECTED:
        try:
            await ws.send_text(json.dumps(payload, ensure_ascii=False))
        except Exception:  # a socket closing meanwhile
            pass


async def refuse(ws, code: str, message: str, close_code: int) -> None:
    """An error frame, then the socket closed with `close_code` (an unknown game, a bad link)."""
    await send(ws, {"type": "error", "code": code, "message": message})
    await ws.close(code=close_code)


async def refuse_extra_socket(ws, language: str | None = "en") -> None:
    """A socket of a seat that has MAX_SEAT_SOCKETS open already: an error frame in the board's
    `language`, closed with 4429."""
    await send(ws, error_frame("too_many_sockets", "too_many_sockets", language, n=MAX_SEAT_SOCKETS))
    await ws.close(code=4429)
