"""What every page may send over its WebSocket: one JSON object with a "type", at most MAX_MESSAGE
bytes. Anything else is answered with an error frame and changes nothing. And how the server
sends its frames, for both WebSocket endpoints."""

from __future__ import annotations

import json
from typing import Any

MAX_MESSAGE = 4096  # bytes of one WebSocket message from a page; larger ones are refused
#: open sockets of one seat (its tabs and devices): each frame goes to every one of them, so a link
#: holder opening thousands would make every move of the game cost thousands of sends
MAX_SEAT_SOCKETS = 8


def decode_message(message: dict, example: str) -> tuple[dict | None, dict | None]:
    """(the message, None) or (None, the error frame to send back); `example` is a valid message."""
    text = message.get("text")
    if text is None:
        return None, {"type": "error", "code": "malformed", "message": "messages are JSON text frames"}
    if len(text.encode("utf-8")) > MAX_MESSAGE:
        return None, {"type": "error", "code": "too_large", "message": f"a message is at most {MAX_MESSAGE} bytes"}
    try:
        msg: Any = json.loads(text)
    except (json.JSONDecodeError, RecursionError):  # RecursionError: "[" * 4000 fits in a message
        msg = None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        return None, {"type": "error", "code": "malformed",
                      "message": f'a message is a JSON object with a "type", e.g. {example}'}
    try:  # JSON may escape a lone surrogate ("\ud800"): kept, it broke the record and every frame after
        json.dumps(msg, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return None, {"type": "error", "code": "malformed",
                      "message": "a message holds text that is not Unicode (a lone surrogate such as \\ud800)"}
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
