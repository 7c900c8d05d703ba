"""The typer command behind `cnlab serve` (registered in experiments/cli.py)."""

from __future__ import annotations

from pathlib import Path

import typer


def serve_command(
    host: str = typer.Option("127.0.0.1", help="address to listen on (0.0.0.0: every device of the network)"),
    port: int = typer.Option(8000, help="TCP port"),
    games_dir: Path = typer.Option(Path("runs/web"), "--games-dir",
                                   help="where every game is saved as a record (games in progress resume from it)"),
    bot_delay: float = typer.Option(0.6, help="seconds a bot's move takes at least (so a person sees it)"),
) -> None:
    """Play Duet, Codenames and Pictures in the browser, with bots or other people.

    Example: cnlab serve --port 8000 --games-dir runs/web"""
    try:
        import uvicorn

        from experiments.web.app import WS_MAX_SIZE, create_app
    except ImportError as exc:
        typer.echo(f"error: the web server needs the web extra: pip install 'codenames-lab[web]' ({exc})", err=True)
        raise typer.Exit(2)
    if not 0 < port < 65536:
        typer.echo("error: --port must be 1..65535", err=True)
        raise typer.Exit(2)
    if bot_delay < 0:
        typer.echo("error: --bot-delay must be >= 0", err=True)
        raise typer.Exit(2)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(f"codenames-lab: open http://{shown}:{port}/ in a browser (games saved in {games_dir}; Ctrl-C stops)")
    uvicorn.run(create_app(games_dir, bot_delay=bot_delay), host=host, port=port, log_level="warning",
                ws_max_size=WS_MAX_SIZE)
