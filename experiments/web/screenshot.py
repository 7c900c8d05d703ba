"""The README's screenshot: a Duet game in the browser with the default bot partner, mid-game.

    python -m experiments.web.screenshot docs/img/web-duet.png [--lang en] [--seed 7]

Starts the server on a free port of 127.0.0.1 (games in a temporary folder), lets the bot give the
first clue, touches the bot's intended cards (the script reads the deal from the record, as an
omniscient demo would), stops, and photographs the board with "what the bot meant" shown.
Needs the web extra and Debian's chromium (`apt-get install chromium fonts-nanum`).
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import tempfile
import threading
import time
import urllib.request
from pathlib import Path


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--lang", default="en", choices=("en", "ko"))
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)

    import uvicorn
    from playwright.sync_api import sync_playwright

    from experiments.web.app import create_app

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("error: needs Debian's chromium (apt-get install chromium fonts-nanum)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    games = Path(tempfile.mkdtemp(prefix="cnlab-web-"))
    app = create_app(games, bot_delay=0.2, client_seeds=True)   # its --seed names the deal
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    try:
        body = json.dumps({"game": "duet", "lang": args.lang, "seed": args.seed, "first": "partner"}).encode()
        req = urllib.request.Request(base + "/api/games", data=body, headers={"Content-Type": "application/json"})
        made = json.loads(urllib.request.urlopen(req).read())
        key_b = json.loads((games / f"{made['id']}.json").read_text())["key"]["B"]
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, headless=True)
            page = browser.new_page(viewport={"width": 1100, "height": 720})
            page.goto(f"{base}/?ui={args.lang}#/play/{made['id']}/{made['token']}")
            wait = "() => { const v = window.cnlabLastView; return v && v.you && v.you.guess && !v.thinking; }"
            page.wait_for_function(wait, timeout=180_000)
            view = page.evaluate("() => window.cnlabLastView")
            record = json.loads((games / f"{made['id']}.json").read_text())
            meant = record["intents"][0]["targets"] if record.get("intents") else []
            for word in meant:  # the cards the bot meant, when they are its greens
                i = view["cards"][[c["word"] for c in view["cards"]].index(word)]["i"]
                if key_b[i] != "G":
                    break
                before = page.evaluate("() => window.cnlabLastView.moves")
                page.click(f"#board .card[data-i='{i}']")
                page.wait_for_function(f"() => window.cnlabLastView.moves > {before}")
            if page.evaluate("() => window.cnlabLastView.you.stop"):
                page.click("#stop")
            page.wait_for_selector("#intents .intent")
            page.wait_for_function("() => window.cnlabLastView.you.clue")
            page.fill("#clue-word", "")
            args.out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(args.out))
            browser.close()
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        shutil.rmtree(games, ignore_errors=True)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
