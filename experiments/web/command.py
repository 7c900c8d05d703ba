"""The typer command behind `cnlab serve` (registered in experiments/cli.py)."""

from __future__ import annotations

import math
from pathlib import Path

import typer

from experiments.exits import fail, path_option, writable_folder
from experiments.web.botthread import BOT_TIMEOUT   # the standard library only: --help needs no web extra

#: The longest --bot-delay: a bot slower than this between moves is not playing any more.
MAX_BOT_DELAY = 60.0


def _check_host(host: str, port: int) -> None:
    """An address this machine can listen on, checked before the server starts: an empty one (which
    would listen on every interface), an unknown name, another machine's address or a port in use
    is one line, exit 2."""
    import socket

    if not host.strip():
        fail("--host is empty: give an address, e.g. 127.0.0.1 (this machine) or 0.0.0.0 (every device)")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except (OSError, UnicodeError) as exc:
        fail(f"--host {host!r} is not an address to listen on ({getattr(exc, 'strerror', None) or exc})")
    try:  # what the server does first: a name of another machine, or a port in use, is said here
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        fail(f"cannot listen on {host}:{port} ({exc.strerror or exc})")


def _check_profiles(games_dir: Path) -> None:
    """The Spy's Word profiles database of the folder (profiles.py), if there is one: a damaged or
    read-only file, or another program's, would stop the server as it starts."""
    from experiments.web.profiles import DB_NAME, ProfileError, check_database

    try:
        check_database(games_dir / DB_NAME)
    except ProfileError as exc:
        fail(str(exc))


def serve_command(
    host: str = typer.Option("127.0.0.1", help="address to listen on (0.0.0.0: every device of the network)"),
    port: int = typer.Option(8000, help="TCP port"),
    games_dir: str = typer.Option("runs/web", "--games-dir", metavar="PATH",
                                  help="where every game is saved as a record (games in progress resume from it)"),
    bot_delay: float = typer.Option(0.6, help=f"seconds a bot's move takes at least, 0..{MAX_BOT_DELAY:g} "
                                    "(so a person sees it)"),
    client_seeds: bool = typer.Option(False, "--client-seeds",
                                      help="let a new game or room name its deal's seed (reproducible research "
                                           "games; whoever names it can deal the keys)"),
    bot_timeout: float = typer.Option(BOT_TIMEOUT, metavar="SECONDS",
                                      help="the longest a bot's move may take (its first loads its models); past "
                                           "it the bot's game stops with its failure and other games' bots go on"),
    any_bot: bool = typer.Option(False, "--any-bot",
                                 help="let a new game name any bot spec: third-party import paths, language-model "
                                      "bots (a spec names the service the bot's key is sent to), model files "
                                      "(only on a server nobody else reaches)"),
) -> None:
    """Play Duet, Codenames and Pictures in the browser, with bots or other people.

    Example: cnlab serve --port 8000 --games-dir runs/web"""
    try:
        import uvicorn

        from experiments.web.app import WS_MAX_SIZE, create_app
    except ImportError as exc:
        fail(f"the web server needs the web extra: pip install 'codenames-lab[web]' ({exc})")
    if not 0 < port < 65536:
        fail("--port must be 1..65535")
    if not 0 <= bot_delay <= MAX_BOT_DELAY:  # NaN too
        fail(f"--bot-delay must be 0..{MAX_BOT_DELAY:g} seconds, not {bot_delay}")
    if not (math.isfinite(bot_timeout) and bot_timeout > 0):
        fail(f"--bot-timeout must be a positive number of seconds, not {bot_timeout}")
    games_dir = path_option(games_dir, "--games-dir", "a folder for the games")
    _check_host(host, port)
    writable_folder(games_dir, "--games-dir")  # made now: the server would make it as it starts
    _check_profiles(games_dir)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(f"codenames-lab: open http://{shown}:{port}/ in a browser (games saved in {games_dir}; Ctrl-C stops)")
    uvicorn.run(create_app(games_dir, bot_delay=bot_delay, client_seeds=client_seeds, any_bot=any_bot,
                           bot_timeout=bot_timeout), host=host, port=port, log_level="warning",
                ws_max_size=WS_MAX_SIZE)
