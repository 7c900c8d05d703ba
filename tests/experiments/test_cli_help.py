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


@pytest.mark.parametrize("args, message", [
    (["simulate", "duet", "--games", "2", "--seed", "-1"], "--seed must be"),
    (["deal", "duet", "--seed", "-3"], "--seed must be"),
    (["tournament", "--spymasters", "random", "--guessers", "random", "--seed", "-1"], "--seed must be"),
    (["simulate", "duet", "--games", "2", "--spymaster", "expected:fake?kmax=abc"], "kmax=abc must be a number"),
    (["simulate", "duet", "--games", "2", "--guesser", "duet-bayes:fake?unsure=yes"], "unsure=yes must be a number"),
    (["simulate", "codenames", "--games", "2", "--mission", "cairo"], "--mission does not apply"),
    (["deal", "spyword", "--variant", "teams"], "--variant does not apply"),
])
def test_bad_arguments_are_one_line_naming_what_is_wrong(tmp_path, args, message):
    result = CliRunner().invoke(app, [*args, *(["--out", str(tmp_path / "o")] if args[0] == "simulate" else [])])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in result.output
    assert not (tmp_path / "o").exists()


def test_an_empty_vectors_file_as_a_backend_is_one_line(tmp_path):
    empty = tmp_path / "vectors.txt"
    empty.write_text("")
    result = CliRunner().invoke(app, ["simulate", "duet", "--games", "1", "--spymaster", f"expected:{empty}",
                                      "--guesser", "random", "--no-progress"])
    assert result.exit_code == 2 and "is empty" in result.stderr and len(result.stderr.strip().splitlines()) == 1
