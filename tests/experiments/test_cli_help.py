"""The command line a researcher expects: --version, a help line for every option, an example per command."""

from __future__ import annotations

import click
import pytest
import typer
from typer.testing import CliRunner

from experiments.cli import app

GROUP = typer.main.get_command(app)
COMMANDS = sorted(GROUP.commands)


def test_version():
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.startswith("codenames-lab ")


@pytest.mark.parametrize("name", COMMANDS)
def test_every_option_has_a_help_line(name):
    command = GROUP.commands[name]
    silent = [p.name for p in command.params if isinstance(p, click.Option) and not (p.help or "").strip()]
    assert not silent, f"cnlab {name}: options without help: {silent}"


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_shows_an_example(name):
    text = GROUP.commands[name].help or ""
    assert f"cnlab {name}" in text and "Example" in text, f"cnlab {name} --help shows no example"


def test_the_commands_are_there():
    assert {"deal", "replay", "simulate", "tournament", "crossplay", "check-clue", "play", "eval-human",
            "serve"} <= set(COMMANDS)
