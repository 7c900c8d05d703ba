"""`--words FILE`: deals, simulations, tournaments and cross-play on a researcher's own word list."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from experiments.cli import app
from experiments.games.codenames.batch import CodenamesRun, simulate_codenames
from experiments.games.duet.batch import DuetRun, simulate

#: 30 words, some of them off the shipped English list (harp, kiwi, glacier, ...)
WORDS = ["harp", "kiwi", "glacier", "saxophone", "tulip", "walrus", "canyon", "lantern", "river", "ocean",
         "mountain", "forest", "desert", "castle", "bridge", "tower", "engine", "rocket", "planet", "comet",
         "moon", "cloud", "storm", "thunder", "violin", "piano", "guitar", "drum", "trumpet", "flute"]
FAKE = dict(spymaster="margin:fake?vocab=300", guesser="duet-bayes:fake")


def word_file(path: Path, words=WORDS, head: str = "# my cards\n\n") -> Path:
    path.write_text(head + "\n".join(words) + "\n", encoding="utf-8")
    return path


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def cli(*args: str):
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.mark.parametrize("game", ["duet", "codenames"])
def test_deal_draws_every_card_from_the_file(tmp_path, game):
    path = word_file(tmp_path / "cards.txt")
    result = cli("deal", game, "--words", path, "--seed", 4, "--count", 5)
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(records) == 5 and all(set(r["words"]) <= set(WORDS) and len(set(r["words"])) == 25 for r in records)
    assert len({tuple(r["words"]) for r in records}) == 5
    shipped = json.loads(cli("deal", game, "--seed", 4).stdout)   # without --words: the shipped list
    assert not set(shipped["words"]) <= set(WORDS)


def test_a_simulated_duet_run_plays_on_the_file_alike_on_one_and_two_workers(tmp_path):
    path = word_file(tmp_path / "cards.txt")
    run = DuetRun(games=4, seed=3, words=str(path), **FAKE)
    summary = simulate(run, out=tmp_path / "w1", workers=1, progress=False)
    simulate(run, out=tmp_path / "w2", workers=2, progress=False)
    for name in ("records.jsonl", "games.jsonl"):
        assert (tmp_path / "w1" / name).read_bytes() == (tmp_path / "w2" / name).read_bytes()
    records = [json.loads(line) for line in lines(tmp_path / "w1" / "records.jsonl")]
    assert len(records) == 4 and all(set(r["words"]) <= set(WORDS) for r in records)
    assert all(r["actions"] for r in records)   # the bots played on those boards
    assert summary["config"]["run"]["words"] == str(path) and summary["config"]["words_sha256"]
    meta = json.loads((tmp_path / "w1" / "run.json").read_text(encoding="utf-8"))
    assert meta["run"]["words"] == str(path) and meta["words_sha256"] == summary["config"]["words_sha256"]
    # the records hold their words: they replay as they are
    replayed = cli("replay", tmp_path / "w1" / "records.jsonl")
    assert replayed.exit_code == 0 and len(replayed.stdout.splitlines()) == 4


def test_a_simulated_codenames_run_plays_on_the_file(tmp_path):
    path = word_file(tmp_path / "cards.txt")
    result = cli("simulate", "codenames", "--games", 3, "--seed", 2, "--words", path, "--spymaster",
                 "margin:fake?vocab=300", "--guesser", "nearest:fake", "--out", tmp_path / "run", "--no-progress")
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in lines(tmp_path / "run" / "records.jsonl")]
    assert len(records) == 3 and all(set(r["words"]) <= set(WORDS) and r["actions"] for r in records)
    again = CodenamesRun(games=3, seed=2, words=str(path), spymaster="margin:fake?vocab=300", guesser="nearest:fake")
    simulate_codenames(again, out=tmp_path / "w2", workers=2, progress=False)
    assert (tmp_path / "w2" / "records.jsonl").read_bytes() == (tmp_path / "run" / "records.jsonl").read_bytes()


def test_a_resume_from_another_list_or_the_shipped_one_is_refused_naming_words(tmp_path):
    path = word_file(tmp_path / "cards.txt")
    out = tmp_path / "run"
    base = ["simulate", "duet", "--seed", 1, "--spymaster", "random", "--guesser", "random", "--out", out,
            "--no-progress"]
    assert cli(*base, "--games", 2, "--words", path).exit_code == 0
    held = (out / "records.jsonl").read_bytes()
    moved = word_file(tmp_path / "same.txt", head="# the same words, another file\n")
    assert cli(*base, "--games", 3, "--words", moved).exit_code == 0   # the same words resume
    other = word_file(tmp_path / "other.txt", WORDS[1:] + ["zebra"])
    for extra in (["--words", other], []):
        result = cli(*base, "--games", 4, *extra)
        assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
        assert "--words" in result.stderr and ("shipped" in result.stderr) == (not extra)
    word_file(path, WORDS[:-1] + ["zebra"])   # the first file, edited
    result = cli(*base, "--games", 4, "--words", path)
    assert result.exit_code == 2 and "--words" in result.stderr
    assert (out / "records.jsonl").read_bytes()[:len(held)] == held and len(lines(out / "records.jsonl")) == 3
    # and a folder played on the shipped list refuses a --words run
    plain = tmp_path / "plain"
    assert cli(*[a if a != out else plain for a in base], "--games", 2).exit_code == 0
    result = cli(*[a if a != out else plain for a in base], "--games", 3, "--words", moved)
    assert result.exit_code == 2 and "the shipped word list" in result.stderr and "--words" in result.stderr


def test_without_words_a_run_keeps_its_key_and_files():
    """The key a run had before --words existed (a folder played then resumes), and no `words` in
    what it writes."""
    from experiments.runs.stats import run_dict

    duet = DuetRun(games=3, seed=5, spymaster="random", guesser="random")
    codenames = CodenamesRun(games=3, seed=5, spymaster="random", guesser="random")
    assert duet.fingerprint() == "4b8c94d95d0cb5c6" and codenames.fingerprint() == "07519f7239213051"
    assert "words" not in run_dict(duet) and "words" not in run_dict(codenames)


BAD = {
    "short": (WORDS[:24], "24 words; a board needs 25"),
    "duplicate": (WORDS + ["Harp"], "line 33: 'Harp' is the word of line 3 again"),
    "korean": (WORDS + ["사과"], "line 33: '사과' is not an English word (--lang en)"),
    "invisible": (WORDS + ["ice\u200bcream"], "line 33: 'ice\\u200bcream' holds the invisible"),
    "too long": (WORDS + ["x" * 80], "line 33:"),
    "no letter": (WORDS + ["!!!"], "line 33: '!!!' is not a word"),
}


@pytest.mark.parametrize("case", sorted(BAD))
@pytest.mark.parametrize("command", [["deal", "duet"], ["deal", "codenames"], ["simulate", "duet"],
                                     ["simulate", "codenames"], ["tournament", "--spymasters", "random",
                                                                 "--guessers", "random"]])
def test_a_bad_word_file_is_one_line_naming_the_file_and_line_before_any_folder(tmp_path, case, command):
    words, said = BAD[case]
    path = word_file(tmp_path / "bad.txt", words)
    out = ["--out", tmp_path / "out"] if command[0] != "deal" else []
    result = cli(*command, "--words", path, *out)
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
    assert result.stderr.startswith(f"error: --words {path}: ") and said in result.stderr, result.stderr
    assert not (tmp_path / "out").exists() and not result.stdout


def test_other_bad_word_files_and_games_without_words(tmp_path):
    path = word_file(tmp_path / "cards.txt")
    korean = word_file(tmp_path / "ko.txt", [f"단어{i}" for i in range(30)])
    (tmp_path / "latin1.txt").write_bytes("\n".join(WORDS).encode() + b"\ncaf\xe9\n")
    cases = {
        ("deal", "duet", "--words", tmp_path / "missing.txt"): "cannot read it",
        ("deal", "duet", "--words", tmp_path): "cannot read it",
        ("deal", "duet", "--words", tmp_path / "latin1.txt"): "line 31: not UTF-8",
        ("deal", "duet", "--lang", "ko", "--words", path): "line 3: 'harp' is not a Korean word (--lang ko)",
        ("deal", "duet", "--words", korean): "line 3: '단어0' is not an English word",
        ("deal", "pictures", "--words", path): "--words does not apply to `deal pictures`",
        ("deal", "spyword", "--words", path): "--words does not apply to `deal spyword`",
        ("simulate", "spyword", "--words", path): "--words does not apply to `simulate spyword`",
    }
    for args, said in cases.items():
        result = cli(*args)
        assert result.exit_code == 2 and result.stderr.count("\n") == 1 and said in result.stderr, (args, result.output)
    ko = cli("deal", "duet", "--lang", "ko", "--words", korean)   # a Korean list on Korean boards
    assert ko.exit_code == 0 and set(json.loads(ko.stdout)["words"]) <= {f"단어{i}" for i in range(30)}


def test_a_tournament_and_a_crossplay_on_the_file(tmp_path):
    from agents.embeddings import FakeEmbeddings, register_backend
    from agents.embeddings import registry as embedding_registry

    path = word_file(tmp_path / "cards.txt")
    result = cli("tournament", "--spymasters", "random,margin:fake?vocab=300", "--guessers", "nearest:fake",
                 "--games", 2, "--words", path, "--out", tmp_path / "t", "--no-progress")
    assert result.exit_code == 0, result.output
    folders = [p for p in (tmp_path / "t").iterdir() if p.is_dir()]
    assert len(folders) == 2
    for folder in folders:
        assert all(set(json.loads(r)["words"]) <= set(WORDS) for r in lines(folder / "records.jsonl"))
    setup = json.loads((tmp_path / "t" / "tournament.setup.json").read_text(encoding="utf-8"))
    assert {s["words"] for s in setup} == {str(path)}
    again = cli("tournament", "--spymasters", "random,margin:fake?vocab=300", "--guessers", "nearest:fake",
                "--games", 2, "--out", tmp_path / "t", "--no-progress")   # the shipped list: another setup
    assert again.exit_code == 2 and "--words" in again.stderr
    for name in ("fake-a", "fake-b"):
        register_backend(name, lambda name=name: FakeEmbeddings(name=name), overwrite=True)
    try:
        result = cli("crossplay", "--spymasters", "random", "--panel", "fake-a,fake-b", "--noise", "none",
                     "--no-human", "--games", 2, "--words", path, "--out", tmp_path / "c", "--no-progress")
    finally:
        for name in ("fake-a", "fake-b"):
            embedding_registry._REGISTRY.pop(name, None)
        embedding_registry.get_backend.cache_clear()
    assert result.exit_code == 0, result.output
    records = [json.loads(r) for f in (tmp_path / "c").iterdir() if f.is_dir() for r in lines(f / "records.jsonl")]
    assert len(records) == 4 and all(set(r["words"]) <= set(WORDS) for r in records)
