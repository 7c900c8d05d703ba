"""Reference records under tests/data/reference replay to their hand-checked summaries."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.records import record_from_dict, record_to_json, replay_summary
from experiments.cli import app

REFERENCE = sorted((Path(__file__).parent / "reference").glob("*.json"))


@pytest.mark.parametrize("path", REFERENCE, ids=lambda p: p.stem)
def test_reference_game_replays_to_its_summary(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    record = record_from_dict(data)
    assert replay_summary(record) == data["expected"]
    assert json.loads(record_to_json(record)) == data  # the record round-trips unchanged


@pytest.mark.parametrize("path", REFERENCE, ids=lambda p: p.stem)
def test_reference_game_through_the_command_line(path):
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == json.loads(path.read_text(encoding="utf-8"))["expected"]


def test_there_are_reference_games():
    assert len(REFERENCE) >= 4
