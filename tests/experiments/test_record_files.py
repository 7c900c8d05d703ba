"""The one writer of a game's record file outside the run folders (experiments.records): terminal
play and the web server's games and Spy's Word rooms each had their own copy of it."""

from __future__ import annotations

import pytest

from engine.records import record_from_json, record_to_json
from experiments.games.duet.dealing import deal_duet_record
from experiments.records import write_record


def test_write_record_makes_the_folder_replaces_the_file_whole_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "new" / "game.json"
    first, second = deal_duet_record(1, "en"), deal_duet_record(2, "en")
    write_record(first, path)
    write_record(second, path)
    assert path.read_text(encoding="utf-8") == record_to_json(second) + "\n"
    assert record_from_json(path.read_text(encoding="utf-8")).seed == 2
    assert [p.name for p in path.parent.iterdir()] == ["game.json"]


@pytest.mark.parametrize("module", ["experiments.play.terminal", "experiments.web.tables",
                                    "experiments.web.spyword_rooms"])
def test_every_record_saver_writes_through_the_one_writer(module):
    """Terminal sessions, web games and Spy's Word rooms save through write_record, so how a record
    file is written (its temporary, its encoding) is the same for all three."""
    import importlib

    assert importlib.import_module(module).write_record is write_record


def test_a_terminal_session_is_saved_by_the_one_writer(tmp_path, monkeypatch):
    from agents.registry import make_guesser, make_spymaster
    from experiments.play import duet, terminal

    written = []
    monkeypatch.setattr(terminal, "write_record", lambda record, path: written.append((record, path)))
    session = duet.DuetSession(deal_duet_record(3, "en"), make_spymaster("random", "en"), make_guesser("random", "en"),
                               tmp_path / "s3.json", io=None, pause=0)
    session.save()
    assert written == [(session.record, tmp_path / "s3.json")]


def test_a_web_game_is_saved_by_the_one_writer(tmp_path, monkeypatch):
    from experiments.web import tables

    written = []
    monkeypatch.setattr(tables, "write_record", lambda record, path: written.append((record, path)))
    table, _ = tables.TableStore(tmp_path, client_seeds=True).create(
        {"game": "duet", "seed": 5, "spymaster": "random", "guesser": "random"})
    assert written and written[-1] == (table.record, table.path)
