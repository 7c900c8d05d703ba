"""The browser tests' harness (fixtures in conftest.py): one `cnlab serve` app on a free port of 127.0.0.1 (in a thread of the
test process, stopped at the end), Debian's chromium driven by Playwright (no browser download),
and helpers that read the page's last view (`window.cnlabLastView`, the JSON the seat received).

The tests play as people who know the deal: they read the key from the server's record file, as
an omniscient referee would; the page itself never holds more than its seat's observation.
"""

from __future__ import annotations

import json
import shutil
import socket
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path


#: The bots' secret in every test server (`create_app(bot_secret=...)`): the same moves on every run.
TEST_SECRET = b"codenames-lab web tests"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
OUTPUT = Path(__file__).resolve().parent / "output"   # screenshots (git-ignored)
CHEAP = {"spymaster": "random", "guesser": "random"}  # bots that load no model
CLUE_CANDIDATES = ("zebra", "galaxy", "violin", "pyramid", "tornado", "penguin")
CLUE_CANDIDATES_KO = ("우주", "바이올린", "피라미드", "태풍", "펭귄", "사막")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """uvicorn serving `create_app(games_dir)` in a background thread."""

    def __init__(self, games_dir: Path, bot_delay: float = 0.0, **options):
        import uvicorn

        from experiments.web.app import WS_MAX_SIZE, create_app

        self.games_dir = Path(games_dir)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        options.setdefault("client_seeds", True)   # the tests name their deals
        # ... and their bots: with the secret a server draws at start, a random bot's guesses (and so
        # whether it meets the assassin before the person's turn) changed from run to run
        options.setdefault("bot_secret", TEST_SECRET)
        self.app = create_app(self.games_dir, bot_delay=bot_delay, **options)
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    ws_max_size=WS_MAX_SIZE))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> "Server":
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the web server did not start")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)

    # ----- HTTP helpers -------------------------------------------------------------------------
    def request(self, method: str, path: str, body=None) -> tuple[int, dict]:
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as res:
                return res.status, json.loads(res.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def get(self, path: str) -> tuple[int, dict]:
        return self.request("GET", path)

    def post(self, path: str, body) -> tuple[int, dict]:
        return self.request("POST", path, body)

    def record(self, game_id: str) -> dict:
        """The game's record as saved (the test's omniscient knowledge of the deal)."""
        return json.loads((self.games_dir / f"{game_id}.json").read_text(encoding="utf-8"))


def screenshot(page, name: str) -> Path:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    path = OUTPUT / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


# ----- the page's state ---------------------------------------------------------------------------
def view(page) -> dict:
    return page.evaluate("() => window.cnlabLastView")


def wait_view(page, condition: str, timeout: float = 20000) -> dict:
    """Wait until the seat's last view `v` satisfies a JavaScript condition; return it."""
    page.wait_for_function(f"() => {{ const v = window.cnlabLastView; return !!v && ({condition}); }}",
                           timeout=timeout)
    return view(page)


def wait_my_turn(page, timeout: float = 20000) -> dict:
    """The next view where this seat may act (and no bot is thinking), or the game is over."""
    return wait_view(page, "v.outcome.over || (!v.thinking && Object.keys(v.you).length > 0)", timeout)


def act(page, do, timeout: float = 15000) -> dict:
    """Do something on the page that is a move, wait until the server applied or refused it."""
    page.evaluate("() => { window.cnlabNotice = null; }")
    before = view(page)["moves"]
    version = page.evaluate("() => JSON.stringify(window.cnlabLastView)")
    do()
    page.wait_for_function(
        "([m, old]) => { const v = window.cnlabLastView; return window.cnlabNotice || v.moves > m "
        "|| JSON.stringify(v) !== old; }", arg=[before, version], timeout=timeout)
    return view(page)


def click_card(page, i: int) -> dict:
    return act(page, lambda: page.click(f"#board .card[data-i='{i}']"))


def give_clue(page, word: str, number) -> dict:
    def do():
        page.fill("#clue-word", word)
        page.select_option("#clue-number", str(number))
        page.click("#clue-send")
    return act(page, do)


def notice(page) -> dict | None:
    return page.evaluate("() => window.cnlabNotice")


def legal_clue(words, lang: str = "en", covered=()) -> str:
    from engine.clues import check_clue

    for word in (CLUE_CANDIDATES if lang == "en" else CLUE_CANDIDATES_KO):
        if check_clue(word, 2, board=list(words), language=lang, covered=list(covered)).legal:
            return word
    raise AssertionError("no candidate clue is legal on this board")


def new_game(page, server, ui: str = "en", **fields) -> str:
    """Fill the new-game form (select ids: game, lang, mode, setup, seat, first, variant, kind-SEAT;
    inputs: spymaster, guesser, seed) and start; returns the game id from the address."""
    page.goto(f"{server.base}/?ui={ui}#/")
    page.wait_for_selector("#new-game #create")
    for name in ("game", "lang", "mode", "variant"):  # these redraw the form
        if name in fields:
            page.select_option(f"#{name}", fields.pop(name))
    for name, value in fields.items():
        selector = f"#{name}"
        if page.eval_on_selector(selector, "e => e.tagName") == "SELECT":
            page.select_option(selector, value)
        else:
            page.fill(selector, str(value))
    page.click("#create")
    page.wait_for_function("() => location.hash.startsWith('#/play/')")
    page.wait_for_selector("#board .card")
    return page.url.split("#/play/")[1].split("/")[0]


# ----- what a page received -----------------------------------------------------------------------
def collect_frames(page) -> list[str]:
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    return frames


def strings(obj):
    """Every string in a JSON value (keys and values)."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from strings(v)
