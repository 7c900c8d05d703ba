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
}


def refusal_line(kind: str, language: str | None, **fields) -> str:
    """A refusal of the table in `language` ("ko": Korean; else English)."""
    return worded(REFUSALS[kind], language, fields)


def error_frame(code: str, kind: str, language: str | None = "en", **fields) -> dict:
    """The error frame of a refused message, its message in the board's `language`."""
    return {"type": "error", "code": code, "message": refusal_line(kind, language, **fields)}


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


async def refuse_extra_socket(ws) -> None:
    """A socket of a seat that has MAX_SEAT_SOCKETS open already: an error frame, closed with 4429."""
    await refuse(ws, "too_many_sockets", f"this seat has {MAX_SEAT_SOCKETS} pages open: close one first", 4429)
