"""What every page may send over its WebSocket: one JSON object with a "type", at most MAX_MESSAGE
bytes. Anything else is answered with an error frame and changes nothing."""

from __future__ import annotations

import json
from typing import Any

MAX_MESSAGE = 4096  # bytes of one WebSocket message from a page; larger ones are refused


def decode_message(message: dict, example: str) -> tuple[dict | None, dict | None]:
    """(the message, None) or (None, the error frame to send back); `example` is a valid message."""
    text = message.get("text")
    if text is None:
        return None, {"type": "error", "code": "malformed", "message": "messages are JSON text frames"}
    if len(text.encode("utf-8")) > MAX_MESSAGE:
        return None, {"type": "error", "code": "too_large", "message": f"a message is at most {MAX_MESSAGE} bytes"}
    try:
        msg: Any = json.loads(text)
    except json.JSONDecodeError:
        msg = None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        return None, {"type": "error", "code": "malformed",
                      "message": f'a message is a JSON object with a "type", e.g. {example}'}
    return msg, None
