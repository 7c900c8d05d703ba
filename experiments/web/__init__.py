"""`cnlab serve`: play Duet, Codenames and Pictures in the browser (docs/web.md).

- `games.py`: the one adapter to the engines (dealing, seats, each seat's observation as JSON,
  moves from the page, bot turns, records);
- `tables.py`: games in play on the server (seats, tokens, bots, saving, resuming);
- `app.py`: the FastAPI application (pages, HTTP API, WebSockets);
- `botthread.py`: the one bot thread, with its time limit per move (`--bot-timeout`);
- `command.py`: the typer command.
"""
