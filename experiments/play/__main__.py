"""`python -m experiments.play duet --partner random --partner-guesser random --seed 3`."""

import typer

from experiments.play.command import play_command

app = typer.Typer(add_completion=False)
app.command()(play_command)

if __name__ == "__main__":
    app()
