"""Spy's Word on `cnlab serve`: the page, the HTTP API and the rooms' WebSocket (docs/spyword_web.md).

`mount_spyword(app, server, ...)` adds the routes to the FastAPI app of `experiments.web.app`
and returns the `RoomStore`; the app's lifespan calls its `start(loop)` and `stop()`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse
from starlette.websockets import WebSocketDisconnect

from experiments.web.clock import Clock, LoopClock
from experiments.web.messages import decode_message, error_frame, read_body, refuse_extra_socket, send
from experiments.web.profiles import (TITLES, XP_GHOST_ALONE, XP_PLAYED, XP_SPIES_SIDE, XP_SURVIVED, XP_VOTE_RIGHT,
                                      XP_WIN, ProfileError, ProfilesFull, level_threshold)
from experiments.web.spyword_rooms import (LANGS, MULTI, SINGLE, RoomError, RoomStore, check_request_fields,
                                           frame_settings)

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 4096


def _error(status: int, message: str, code: str | None = None, kind: str | None = None, fields: dict | None = None
           ) -> JSONResponse:
    """An HTTP error; `kind` and its `fields` (messages.REFUSALS) let a page word it in its own language
    (spyword.js, x_KIND)."""
    body = {"error": message}
    if code:
        body["code"] = code
    if kind:
        body.update(kind=kind, fields=fields or {})
    return JSONResponse(body, status_code=status)


def _refused(exc: RoomError | ProfileError, status: int | None = None, code: str | None = None) -> JSONResponse:
    return _error(status or exc.status, str(exc) if isinstance(exc, ProfileError) else exc.message,
                  code or exc.code, exc.kind, exc.fields)


async def _body(request: Request) -> Any:
    raw = await read_body(request, MAX_BODY)
    if raw is None:
        raise RoomError("room_too_large", "too_large", 413, most=MAX_BODY)
    try:
        return json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):  # RecursionError: "[" * 4000
        raise RoomError("room_not_json", "malformed", 400) from None


def page_config(store: RoomStore) -> dict:
    """What the page needs: bot kinds, languages, the default settings, the XP and titles table."""
    from engine.spyword import SpyWordSettings

    return {
        "bots": list(store.bot_kinds), "languages": list(LANGS), "devices": [MULTI, SINGLE],
        "settings": frame_settings(SpyWordSettings()),
        "xp": {"played": XP_PLAYED, "win": XP_WIN, "spies_side": XP_SPIES_SIDE, "ghost_alone": XP_GHOST_ALONE,
               "survived": XP_SURVIVED, "vote_right": XP_VOTE_RIGHT},
        "levels": [level_threshold(n) for n in range(1, 21)],
        "titles": [{"id": t.id, "en": t.en, "ko": t.ko, "rule_en": t.rule_en, "rule_ko": t.rule_ko,
                    "stat": t.stat, "need": t.need} for t in TITLES],
    }


def mount_spyword(app: FastAPI, server, games_dir: str | Path, clock: Clock | None = None,
                  bot_kinds: dict[str, str] | None = None, packs: dict[str, list[dict]] | None = None,
                  client_seeds: bool = False) -> RoomStore:
    store = RoomStore(games_dir, clock or LoopClock(), server.bots, server.bot_delay, bot_kinds, packs, client_seeds,
                      server.bot_secret)

    @app.get("/spyword")
    async def page():
        return FileResponse(STATIC / "spyword.html", headers={"Cache-Control": "no-cache"})

    @app.get("/api/spyword/config")
    async def config():
        return page_config(store)

    @app.post("/api/spyword/rooms")
    async def create_room(request: Request):
        try:
            room, member, token = store.create(await _body(request))
        except RoomError as exc:
            return _refused(exc)
        return {"code": room.code, "member": member.id, "token": token, "link": f"/spyword#/room/{room.code}"}

    @app.get("/api/spyword/rooms/{code}")
    async def room_summary(code: str):
        room = store.get(code)
        if room is None:
            return _error(404, f"there is no room {code[:20]!r} on this server", "unknown_room", "room_unknown",
                          {"room": repr(code[:20])})
        return room.public_summary()

    @app.post("/api/spyword/rooms/{code}/join")
    async def join_room(code: str, request: Request):
        try:
            raw = await _body(request)
            room = store.get(code)
            if room is not None:
                async with room.lock:
                    room, member, token = store.join(code, raw)
            else:
                room, member, token = store.join(code, raw)
        except RoomError as exc:
            return _refused(exc)
        await store.broadcast(room)
        return {"code": room.code, "member": member.id, "token": token}

    @app.get("/api/spyword/games/{game_id}/record")
    async def game_record(game_id: str):
        status, body = store.finished_record(game_id)
        return JSONResponse(body, status_code=status)

    @app.post("/api/spyword/profiles")
    async def new_profile(request: Request):
        try:
            raw = await _body(request)
            if not isinstance(raw, dict):
                raise RoomError("room_profile_object")
            check_request_fields(raw, ("name",), "a new profile")
            pid, key = store.profiles.create(raw.get("name"))
        except RoomError as exc:
            return _refused(exc)
        except ProfilesFull as exc:
            return _refused(exc, 503, "full")
        except ProfileError as exc:
            return _refused(exc, 400, "bad_name")
        return {"id": pid, "key": key, "profile": store.profiles.profile(pid)}

    @app.get("/api/spyword/profiles/{pid}")
    async def profile(pid: str):
        p = store.profiles.profile(pid) if len(pid) <= 40 else None
        if p is None:
            return _error(404, f"there is no profile {pid[:40]!r} on this server", "unknown_profile",
                          "room_unknown_profile", {"pid": repr(pid[:40])})
        return p

    @app.websocket("/ws/spyword/{code}")
    async def socket(ws: WebSocket, code: str):
        await serve_socket(store, ws, code, ws.query_params.get("token"))

    app.state.spyword = store
    return store


async def serve_socket(store: RoomStore, ws: WebSocket, code: str, token: str | None) -> None:
    await ws.accept()
    room = store.get(code)
    if room is None:   # no room, no language: the page words it by its code
        await send(ws, error_frame("unknown_room", "room_unknown_link", "en", room=repr(code[:20])))
        await ws.close(code=4404)
        return
    member = room.member_for(token)
    if member is None:
        await send(ws, error_frame("bad_token", "room_bad_token", room.lang))
        await ws.close(code=4403)
        return
    if room.departed(member.id) and room.phase == "playing":
        kicked = any(e["seat"] == member.id and e["by"] == "kick" for e in room.state.eliminations)
        await send(ws, {"type": "gone", "reason": "kicked" if kicked else "left"})
        await ws.close(code=4410)
        return
    if not await store.connected(room, member, ws):
        await refuse_extra_socket(ws, room.lang)
        return
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            msg, refusal = decode_message(message, '{"type": "ready"}', room.lang)
            if refusal:
                await send(ws, refusal)
                continue
            if member.id not in room.members:  # removed meanwhile
                break
            if msg["type"] == "hello":
                await send(ws, {"type": "room", "room": room.frame(member.id if room.device == MULTI else None)})
                continue
            error = await store.handle(room, member, msg)
            if error:
                await send(ws, error)
    except WebSocketDisconnect:
        pass
    finally:
        await store.disconnected(room, member, ws)
