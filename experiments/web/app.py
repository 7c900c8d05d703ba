"""The FastAPI application behind `cnlab serve`: the page, a small HTTP API and one WebSocket per
seat (protocol in docs/web.md).

The server holds every state. A browser joins a game's seat with that seat's token and receives
only that seat's view (`Table.view`, built from `state.observe(seat)`), again after every change.
Bots think in a worker thread (one at a time, so models are never used by two threads at once);
the event loop keeps serving pages, moves and other games meanwhile. A bot move past the server's
time limit (`bot_timeout`) fails its game and the thread is replaced (`botthread.BotThread`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect

from engine import IllegalAction
from engine.actions import Clue
from engine.refusals import refusal_text

from experiments.web.botthread import BOT_TIMEOUT, BotThread, BotTimeout
from experiments.web.games import (BOT_CLUE_RETRIES, BadMove, BadSetup, ServerFull, bot_failed, judge_clue, page_config,
                                   text)
from experiments.web.messages import (MAX_SEAT_SOCKETS, decode_message, error_frame, read_body, refuse,
                                      refuse_extra_socket, refusal_line, send)
from experiments.web.tables import Table, TableStore

STATIC = Path(__file__).resolve().parent / "static"
WS_MAX_SIZE = 64 * 1024   # uvicorn closes the connection (1009) beyond this
MAX_BODY = 16 * 1024      # bytes of a new game's settings
log = logging.getLogger("cnlab.web")
#: the fields of each move a page sends (docs/web.md); any move may name its seat and game too, and the
#: view it was made on (`moves`: a move sent again, or late, is refused once the game has moved on)
MOVE_FIELDS = {kind: ("type", *fields, "seat", "id", "game", "moves") for kind, fields in {
    "clue": ("word", "number"), "guess": ("card",), "cover": ("card",), "stop": (), "pass": (), "first": ()}.items()}


class GameServer:
    """The tables, the bot and referee threads, and the sockets of each seat."""

    def __init__(self, games_dir: str | Path, bot_delay: float = 0.6, client_seeds: bool = False,
                 bot_secret: bytes | None = None, any_bot: bool = False, bot_timeout: float = BOT_TIMEOUT):
        self.store = TableStore(games_dir, client_seeds, any_bot)
        self.bot_delay = bot_delay
        self.bot_secret = bot_secret or secrets.token_bytes(16)  # keys the bots' seeds (games.bot_seed)
        self.bots = BotThread(bot_timeout)   # one move at a time; a move past the limit fails its game
        self.referee = ThreadPoolExecutor(1, thread_name_prefix="cnlab-referee")
        self.tasks: set[asyncio.Task] = set()

    def start(self) -> None:
        self.store.load()
        for lang in ("en", "ko"):  # load the clue filter (Korean morphology) before the first clue
            self.referee.submit(judge_clue, "test", 1, ["board"], [], lang)
        for table in self.store.tables.values():
            self.kick(table)

    def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        self.bots.shutdown(wait=False, cancel_futures=True)
        self.referee.shutdown(wait=False, cancel_futures=True)

    # ----- sending --------------------------------------------------------------------------------
    async def broadcast(self, table: Table) -> None:
        for seat, sockets in table.sockets.items():
            if sockets:
                payload = {"type": "state", "view": table.view(seat)}
                for ws in list(sockets):
                    await send(ws, payload)

    # ----- bots -----------------------------------------------------------------------------------
    def kick(self, table: Table) -> None:
        """Let the bots move if it is their turn (one driver per table)."""
        if not table.driving and not table.over and not table.error:
            task = asyncio.get_running_loop().create_task(self.drive(table))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def drive(self, table: Table) -> None:
        table.driving = True
        refused = 0
        try:
            while True:
                async with table.lock:
                    job = None if table.error else table.adapter.bot_job(table)
                    if job is None:
                        return
                    version, table.thinking = table.version, job.seat
                    agents = table.agents.get(job.seat)
                    table.loading = agents is None  # the first move loads the bot's models
                await self.broadcast(table)
                started = time.monotonic()
                adapter, rng = table.adapter, table.rng

                def think():
                    loaded = agents or adapter.make_agents(table, job.seat, self.bot_secret)
                    return loaded, adapter.run_job(job, loaded, table.referee, rng)

                try:
                    loaded, result = await asyncio.get_running_loop().run_in_executor(self.bots, think)
                except (Exception, SystemExit) as exc:  # a bot's sys.exit ends its game, not the server
                    async with table.lock:
                        table.thinking = None
                        if isinstance(exc, BotTimeout):   # its thread is abandoned: its answer, if any, goes nowhere
                            log.warning("bot of seat %s in %s stopped: %s", job.seat, table.id, exc)
                        else:
                            log.exception("bot failed in %s", table.id)
                        table.stop(bot_failed(job.seat, exc), failed(job.seat, exc))
                    await self.broadcast(table)
                    return
                table.agents[job.seat], table.loading = loaded, False
                wait = self.bot_delay - (time.monotonic() - started)
                if wait > 0:
                    await asyncio.sleep(wait)
                async with table.lock:
                    table.thinking = None
                    if table.version != version or table.over:
                        continue  # a person moved meanwhile: think again on the new state
                    try:
                        action, decision = table.adapter.bot_action(table, job, result)
                        if isinstance(action, Clue) and decision is not None:
                            table.intents.append(decision.intent(len(table.record.actions)))
                        if hasattr(action, "seat"):
                            table.apply(action)
                        else:
                            table.adapter.apply_special(table, job.seat, action)
                            table.changed()
                        refused = 0
                    except IllegalAction as exc:
                        table.intents = [i for i in table.intents if i["action"] < len(table.record.actions)]
                        refused += 1
                        if refused > BOT_CLUE_RETRIES:
                            # the rule only: the refusal quotes the bot's clue, which points at its cards
                            log.warning("bot stopped in %s: %s", table.id, exc)
                            table.stop(f"the bot on seat {job.seat} keeps making illegal moves (RULES {exc.rule})",
                                       text("bot_illegal", seat=job.seat, rule=exc.rule))
                    except Exception as exc:
                        log.exception("bot failed in %s", table.id)
                        table.stop(bot_failed(job.seat, exc), failed(job.seat, exc))
                await self.broadcast(table)
        finally:
            table.thinking, table.loading = None, False
            table.driving = False

    # ----- a person's move --------------------------------------------------------------------------
    async def person_move(self, table: Table, seat: str, msg: dict) -> dict | None:
        """Apply one move of `seat`; an error payload (the state unchanged) or None. Every refusal is
        worded in the board's language (`messages.REFUSALS`, `engine.refusals`)."""
        lang = table.lang
        claimed = msg.get("seat")
        if claimed is not None and claimed != seat:
            return error_frame("not_your_seat", "not_your_seat", lang, seat=seat, claimed=str(claimed)[:30])
        for key in ("id", "game"):   # its game's id ("game" may be its kind of game too, as the view says)
            named = msg.get(key)
            if named is not None and named != table.id and (key == "id" or named != table.adapter.game):
                return error_frame("not_your_game", "not_your_game", lang, id=table.id, named=str(named)[:80])
        unknown = [str(k)[:30] for k in msg if k not in MOVE_FIELDS.get(msg["type"], msg)]
        if unknown:   # a misspelt field was dropped and the move played without it
            return error_frame("bad_move", "unknown_field", lang, field=repr(unknown[0]), type=msg["type"],
                               fields=", ".join(MOVE_FIELDS[msg["type"]]))
        made_on = msg.get("moves")
        if made_on is not None and (isinstance(made_on, bool) or not isinstance(made_on, int)):
            return error_frame("bad_move", "moves_field", lang)
        async with table.lock:
            if table.error:
                return {"type": "error", "code": "game_stopped", "message": table.error}
            if table.over:
                return error_frame("game_over", "game_over", lang)
            played = len(table.record.actions)
            if made_on is not None and made_on != played:   # a double click, a page re-sending after a reconnect
                return error_frame("stale", "stale", lang, made=made_on, now=played)
            try:
                move = table.adapter.parse(table, seat, msg)
                if isinstance(move, Clue):  # the clue filter, in its thread (the first Korean load takes seconds)
                    state = table.state
                    covered = (state.covered_words() if hasattr(state, "covered_words")
                               else [w for i, w in enumerate(state.words) if state.covered_for_both(i)])
                    await asyncio.get_running_loop().run_in_executor(
                        self.referee, table.referee.prejudge, move.word, move.number, state.visible_words(),
                        covered, state.config.language)
                if hasattr(move, "seat"):
                    table.apply(move)
                else:
                    table.adapter.apply_special(table, seat, move)
                    table.changed()
            except IllegalAction as exc:   # worded in the board's language, as the clue filter's refusals
                return {"type": "error", "code": "illegal", "rule": exc.rule, "message": refusal_text(exc, table.lang)}
            except BadMove as exc:
                return {"type": "error", "code": exc.code, "message": exc.text(table.lang)}
        await self.broadcast(table)
        self.kick(table)
        return None

    # ----- a seat's socket --------------------------------------------------------------------------
    async def serve_socket(self, ws: WebSocket, game_id: str, token: str | None) -> None:
        await ws.accept()
        table = self.store.get(game_id)
        if table is None:
            await refuse(ws, "unknown_game", f"there is no game {game_id[:80]!r} on this server", 4404)
            return
        seat = table.seat_for(token)
        if seat is None:
            await refuse(ws, "bad_token", refusal_line("bad_token", table.lang), 4403)
            return
        if len(table.sockets.get(seat, ())) >= MAX_SEAT_SOCKETS:
            await refuse_extra_socket(ws)
            return
        table.sockets.setdefault(seat, set()).add(ws)
        try:
            await self.broadcast(table)  # the new seat's view, and "connected" for the others
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                msg, refusal = decode_message(message, '{"type": "stop"}', table.lang)
                if refusal:
                    await send(ws, refusal)
                    continue
                if msg["type"] == "hello":
                    await send(ws, {"type": "state", "view": table.view(seat)})
                    continue
                error = await self.person_move(table, seat, msg)
                if error:
                    await send(ws, error)
        except WebSocketDisconnect:
            pass
        finally:
            table.sockets.get(seat, set()).discard(ws)
            await self.broadcast(table)


def failed(seat: str, exc: BaseException) -> dict:
    """The kind of `games.bot_failed`'s text (a page words it from its table)."""
    return text("bot_failed", seat=seat, error=type(exc).__name__)


def _error(status: int, message: str, kind: str | None = None, **fields) -> JSONResponse:
    """An HTTP error; `kind` and its `fields` let a page word it in its own language (app.js, e_KIND)."""
    body = {"error": message} if kind is None else {"error": message, "kind": kind, "fields": fields}
    return JSONResponse(body, status_code=status)


def create_app(games_dir: str | Path = "runs/web", bot_delay: float = 0.6, client_seeds: bool = False,
               bot_secret: bytes | None = None, any_bot: bool = False, bot_timeout: float = BOT_TIMEOUT,
               **spyword) -> FastAPI:
    """`client_seeds`: a new game or room may name its deal's seed (reproducible research games; whoever
    names it can deal the keys, so off by default). `bot_secret`: keys the bots' seeds (drawn at start
    unless given; a fixed one makes the bots' moves the same on every run, as the tests need). `any_bot`:
    a page may name any agent spec, third-party and language-model bots too (games.check_page_spec).
    `bot_timeout`: the seconds a bot's move may take (Spy's Word's too); past it the bot's game stops
    with its failure and the other games' bots go on in a fresh thread (`botthread.BotThread`).
    `spyword`: options of the Spy's Word rooms (`spyword_app.mount_spyword`: clock, bot_kinds, packs)."""
    server = GameServer(games_dir, bot_delay, client_seeds, bot_secret, any_bot, bot_timeout)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        server.start()
        rooms.start(asyncio.get_running_loop())
        yield
        rooms.stop()
        server.stop()

    app = FastAPI(title="codenames-lab", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.server = server
    from experiments.web.spyword_app import mount_spyword  # Spy's Word rooms (docs/spyword_web.md)

    rooms = mount_spyword(app, server, games_dir, client_seeds=client_seeds, **spyword)

    @app.get("/")
    async def index():
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/api/config")
    async def config():
        return {**page_config(), "client_seeds": client_seeds}

    @app.get("/api/games")
    async def games():
        return {"games": server.store.listing()}

    @app.post("/api/games")
    async def new_game(request: Request):
        body = await read_body(request, MAX_BODY)
        if body is None:
            return _error(413, f"the settings are at most {MAX_BODY} bytes", "settings_large", most=MAX_BODY)
        try:
            raw = json.loads(body or b"{}")
        except (ValueError, RecursionError):  # not JSON, not UTF-8, an integer of more digits than Python
            return _error(400, "the settings are not JSON", "settings_json")  # reads (4300), nested too deep
        try:
            table, tokens = server.store.create(raw)
        except BadSetup as exc:
            return _error(503 if isinstance(exc, ServerFull) else 400, str(exc), exc.kind, **exc.fields)
        server.kick(table)
        links = {seat: f"/#/play/{table.id}/{token}" for seat, token in tokens.items()}
        people = table.person_seats()   # the seat the page named (Duet's A or B, in either mode), else the first
        me = raw.get("seat") if raw.get("seat") in people else people[0]
        return {"id": table.id, "seat": me, "token": tokens[me], "links": links, "summary": table.summary()}

    def _table(game_id: str) -> Table | JSONResponse:
        table = server.store.get(game_id)
        return table if table is not None else _error(404, f"there is no game {game_id[:80]!r} on this server",
                                                                  "unknown_game")

    @app.get("/api/games/{game_id}")
    async def game(game_id: str):
        table = _table(game_id)
        return table if isinstance(table, JSONResponse) else table.summary()

    def _finished(game_id: str):
        table = _table(game_id)
        if isinstance(table, JSONResponse):
            return table
        if not table.over:
            return _error(409, "the game is still being played: its record (with the key) opens when it ends",
                          "still_playing")
        return table

    @app.get("/api/games/{game_id}/replay")
    async def replay(game_id: str):
        table = _finished(game_id)
        if isinstance(table, JSONResponse):
            return table
        return {"summary": table.summary(), "frames": table.replay_frames()}

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str):
        table = _finished(game_id)
        if isinstance(table, JSONResponse):
            return table
        data = table.record.to_dict()
        if isinstance(data.get("web"), dict):  # the seats' token hashes stay on the server (join links' secrets)
            data["web"] = {k: v for k, v in data["web"].items() if k != "tokens"}
        return JSONResponse(data)

    @app.websocket("/ws/{game_id}")
    async def socket(ws: WebSocket, game_id: str):
        await server.serve_socket(ws, game_id, ws.query_params.get("token"))

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    from engine.paths import data_path

    app.mount("/pictures/img", StaticFiles(directory=data_path("pictures", "img")), name="pictures")
    return app
