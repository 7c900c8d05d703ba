"""The clue filter's on-disk stores (engine/clues/store.py): what keeps a single check fast from a
cold start without changing a verdict (docs/clue_filter.md, Speed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.clues.store import InfoStore, Lookup, analyser_fingerprint, cache_dir
from engine.clues.wordinfo import WordInfo

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CNLAB_CACHE", str(tmp_path))
    monkeypatch.delenv("CNLAB_CLUE_CACHE", raising=False)
    return tmp_path


def test_info_store_round_trip(cache):
    info = WordInfo("눈사람", "눈사람", frozenset({"눈사람"}), {"눈": True, "사람": True, "카네기": None}, True, False)
    store = InfoStore("ko", "test")
    store.put_many([info])
    again = InfoStore("ko", "test")  # a new connection reads what the first wrote
    assert again.get_many(["눈사람", "없는말"]) == {"눈사람": info}
    again.put_extra({"chien": "fr"})
    assert InfoStore("ko", "test").get_extra(["chien", "dog"]) == {"chien": "fr"}
    assert (cache / "clues").is_dir()


def test_lookup_is_built_once_then_read_row_by_row(cache):
    builds = []

    def build():
        builds.append(1)
        return {"rain": 1e-5, "coat": 2e-5}

    first = Lookup("test-freq", ("json",), build)
    assert first.get("rain") == 1e-5 and first.get("nope", 0.0) == 0.0 and bool(first)
    second = Lookup("test-freq", ("json",), build)  # another process: no build, rows from the file
    assert second.get("coat") == 2e-5 and "rain" in second and "nope" not in second
    assert builds == [1]
    second.preload()
    assert second.get("rain") == 1e-5
    blobs = Lookup("test-lemmas", ("json",), lambda: {"mice": {"NOUN": ("mouse",)}}, kind="marshal")
    assert blobs.get("mice") == {"NOUN": ("mouse",)}
    assert Lookup("test-lemmas", ("json",), dict, kind="marshal").get("mice") == {"NOUN": ("mouse",)}


def test_cache_can_be_turned_off_and_damage_is_ignored(cache, monkeypatch):
    store = InfoStore("en", "damaged")
    store.path.parent.mkdir(parents=True, exist_ok=True)
    store.path.write_bytes(b"not a database" * 100)
    assert store.get_many(["rain"]) == {}  # a damaged file: analyse again, never an error
    store.put_many([WordInfo("rain", "rain", frozenset({"rain"}), {}, True)])
    monkeypatch.setenv("CNLAB_CLUE_CACHE", "off")
    assert cache_dir() is None
    memory = Lookup("test-off", ("json",), lambda: {"a": 1.0})
    assert memory.get("a") == 1.0
    assert InfoStore("en", "off").get_many(["a"]) == {}


@pytest.mark.parametrize("damage", ["overwritten", "truncated"])
def test_a_damaged_store_is_made_again(cache, damage):
    """A store file that is no database (overwritten) or cut short was read as nothing for ever: every
    later check computed in memory (a cold start each time, Kiwi loaded again in Korean), never
    rebuilt. Now it is removed and made anew by the next process that opens it."""
    builds = []

    def build():
        builds.append(1)
        return {f"w{i}": float(i) for i in range(5000)}

    def spoil(path):   # as a crash or another program leaves it: no write-ahead log beside it
        for suffix in ("-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
        if damage == "overwritten":
            path.write_bytes(b"not a database" * 100)
        else:
            with open(path, "r+b") as f:
                f.truncate(path.stat().st_size // 3)

    Lookup("test-damaged", ("json",), build).get("w1")
    spoil(next((cache / "clues").glob("test-damaged-*.sqlite")))
    assert Lookup("test-damaged", ("json",), build).get("w7") == 7.0 and builds == [1, 1]
    assert Lookup("test-damaged", ("json",), build).get("w9") == 9.0 and builds == [1, 1]  # read from the new file
    store = InfoStore("en", "damaged-store")
    rain = WordInfo("rain", "rain", frozenset({"rain"}), {}, True)
    store.put_many([rain])
    store._db.conn().close()
    spoil(store.path)
    again = InfoStore("en", "damaged-store")
    assert again.get_many(["rain"]) == {}
    again.put_many([rain])
    assert InfoStore("en", "damaged-store").get_many(["rain"]) == {"rain": rain}


def test_fingerprint_follows_the_analyser_sources_and_tables():
    assert analyser_fingerprint("ko", ("kiwipiepy",)) == analyser_fingerprint("ko", ("kiwipiepy",))
    assert analyser_fingerprint("ko", ("kiwipiepy",)) != analyser_fingerprint("en", ("kiwipiepy",))
    assert analyser_fingerprint("ko", ("kiwipiepy",), "a") != analyser_fingerprint("ko", ("kiwipiepy",), "b")


CHECK = """
import json, sys
from engine.clues import check_clue
out = [check_clue(c, 1, board=b, language=l).as_dict() for l, b, c in json.loads(sys.argv[1])]
out.append(sorted(m for m in ("kiwipiepy", "lemminflect", "wordfreq", "numpy") if m in sys.modules))
print(json.dumps(out, ensure_ascii=False))
"""
CASES = [["ko", ["눈사람", "강"], "눈"], ["ko", ["거북"], "거북이"], ["en", ["snowman", "river"], "snowmen"],
         ["en", ["RAINCOAT"], "raindrop"], ["en", ["DOG"], "chien"]]


def _run(env_extra: dict) -> list:
    env = {**os.environ, **env_extra}
    r = subprocess.run([sys.executable, "-c", CHECK, json.dumps(CASES, ensure_ascii=False)], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_a_stored_word_needs_no_analyser_and_keeps_its_verdict(tmp_path):  # RULES 4 (speed, same verdicts)
    pytest.importorskip("kiwipiepy")
    pytest.importorskip("lemminflect")
    env = {"CNLAB_CACHE": str(tmp_path), "CNLAB_CLUE_CACHE": ""}
    first = _run(env)
    second = _run(env)
    fresh = _run({"CNLAB_CLUE_CACHE": "off"})
    assert first[:-1] == second[:-1] == fresh[:-1]
    assert second[-1] == []  # every word from the store: no Kiwi, lemminflect, wordfreq or numpy import
    assert [v["rule"] for v in second[:-1]] == ["4.4", "4.3", "4.3", "4.4", "4.6"]


def test_the_command_line_imports_no_other_command(tmp_path):  # cold start of `cnlab check-clue`
    # agents.defaults (the default pair the help names) imports nothing; no other agents module may load
    code = ("import sys; from experiments.cli import app; "
            "print(sorted(m for m in sys.modules if m in ('numpy', 'experiments.play', 'experiments.web.command', "
            "'engine.clues') or (m.startswith('agents.') and m != 'agents.defaults')))")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"
