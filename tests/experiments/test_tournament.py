"""`cnlab tournament`: every pairing on the same deals, a ranked table, CSV and Parquet."""

import pandas as pd
from typer.testing import CliRunner

from experiments.cli import app
from experiments.evaluation.tournament import format_table, pairing_kind, tournament


def test_every_pairing_is_ranked_and_written(tmp_path):
    table = tournament(["random"], ["random", "random?stop=0.5"], games=6, seed=2, out=tmp_path,
                       progress=False)
    assert len(table) == 2 and list(table["rank"]) == [1, 2]
    assert table["win_rate"].is_monotonic_decreasing
    saved = pd.read_csv(tmp_path / "tournament.csv")
    assert list(saved["guesser"]) == list(table["guesser"])
    assert len(pd.read_parquet(tmp_path / "tournament.parquet")) == 2


def test_pairing_kind():
    assert pairing_kind("margin:use-m3", "nearest:use-m3") == "self-play"
    assert pairing_kind("margin:use-m3", "nearest:glove-50") == "cross-model"
    assert pairing_kind("expected:glove", "nearest:glove-50") == "self-play"  # an alias is the same model
    assert pairing_kind("expected:usem3+minilm", "nearest:use-m3") == "self-play"


def test_pairing_kind_knows_the_default_backends_and_agents_that_read_none():
    """`robust` and `nearest` both read use-m3 when their specs name nothing (it said cross-model);
    the human-data guesser reads use-m3, glove-50 and minilm; random reads no model at all."""
    assert pairing_kind("robust", "nearest") == "self-play"
    assert pairing_kind("robust:glove-50", "human") == "self-play"
    assert pairing_kind("robust:e5-small", "human") == "cross-model"
    assert pairing_kind("random", "random") == "no model"
    assert pairing_kind("random:use-m3", "nearest:use-m3") == "no model"   # its backends are not read
    assert pairing_kind("robust", "random") == "no model"


def test_bad_spec_fails_before_any_game(tmp_path):
    result = CliRunner().invoke(app, ["tournament", "--spymasters", "random,psychic", "--guessers", "random",
                                      "--out", str(tmp_path / "t")])
    assert result.exit_code == 2 and "unknown spymaster" in result.stderr
    assert not (tmp_path / "t").exists()


def test_the_printed_table_fits_80_columns_and_the_files_keep_full_precision(tmp_path):
    specs = ["random", "random?stop=0.3333333333"]
    result = CliRunner().invoke(app, ["tournament", "--spymasters", "random", "--guessers", ",".join(specs),
                                      "--games", "7", "--out", str(tmp_path), "--no-progress"])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines and max(map(len, lines)) <= 80
    assert all(spec in result.stdout for spec in specs)
    saved = pd.read_csv(tmp_path / "tournament.csv")
    shown = {f"{w:5.3f}" for w in saved["win_rate"]}
    assert shown <= {part for line in lines for part in line.split()}  # fixed precision on screen
    assert any(len(repr(w)) > 6 for w in saved["ci95_high"])  # full precision in the file


def test_the_empty_spymaster_list_is_refused():
    result = CliRunner().invoke(app, ["tournament", "--spymasters", "", "--guessers", "random"])
    assert result.exit_code == 2 and "--spymasters" in result.stderr


def test_another_experiment_never_overwrites_the_table(tmp_path):  # nothing lost
    tournament(["random"], ["random", "random?stop=0.5"], games=3, seed=2, out=tmp_path, progress=False)
    before = (tmp_path / "tournament.csv").read_bytes()
    tournament(["random"], ["random", "random?stop=0.5"], games=4, seed=2, out=tmp_path, progress=False)  # resumed, extended
    assert pd.read_csv(tmp_path / "tournament.csv")["games"].tolist() == [4, 4]
    after = (tmp_path / "tournament.csv").read_bytes()
    for change in (["random"], ["random", "random?stop=0.5", "random?stop=0.9"]):
        result = CliRunner().invoke(app, ["tournament", "--spymasters", "random", "--guessers", ",".join(change),
                                          "--games", "3", "--seed", "2", "--out", str(tmp_path), "--no-progress"])
        assert result.exit_code == 2 and "another setup" in result.stderr
        assert result.stderr.count("\n") == 1
    result = CliRunner().invoke(app, ["tournament", "--spymasters", "random", "--guessers", "random,random?stop=0.5",
                                      "--games", "3", "--seed", "3", "--out", str(tmp_path), "--no-progress"])
    assert result.exit_code == 2                     # another seed
    assert (tmp_path / "tournament.csv").read_bytes() == after != before


def test_a_table_written_before_setups_were_kept_is_protected_too(tmp_path):
    tournament(["random"], ["random"], games=2, seed=1, out=tmp_path, progress=False)
    (tmp_path / "tournament.setup.json").unlink()
    result = CliRunner().invoke(app, ["tournament", "--spymasters", "random", "--guessers", "random?stop=0.5",
                                      "--games", "2", "--seed", "1", "--out", str(tmp_path), "--no-progress"])
    assert result.exit_code == 2 and "other pairings" in result.stderr
    tournament(["random"], ["random"], games=2, seed=1, out=tmp_path, progress=False)   # the same one resumes


def test_a_setup_file_nested_deeper_than_json_reads_is_one_line(tmp_path):
    """Audit 9: a tournament.setup.json of 100,000 nested brackets raised RecursionError (a traceback);
    it is unreadable like one that is not JSON, and the table stays as it is."""
    tournament(["random"], ["random"], games=2, seed=1, out=tmp_path, progress=False)
    (tmp_path / "tournament.setup.json").write_text("[" * 100_000 + "]" * 100_000)
    before = (tmp_path / "tournament.csv").read_bytes()
    result = CliRunner().invoke(app, ["tournament", "--spymasters", "random", "--guessers", "random",
                                      "--games", "2", "--seed", "1", "--out", str(tmp_path), "--no-progress"])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
    assert "tournament.setup.json is unreadable" in result.stderr and result.stderr.count("\n") == 1
    assert (tmp_path / "tournament.csv").read_bytes() == before


def test_a_smaller_rerun_reports_its_games_and_rewrites_no_table(tmp_path):  # nothing lost
    tournament(["random"], ["random"], games=4, seed=2, out=tmp_path, progress=False)
    before = {f: (tmp_path / f).read_bytes() for f in ("tournament.csv", "tournament.parquet")}
    result = CliRunner().invoke(app, ["tournament", "--spymasters", "random", "--guessers", "random",
                                      "--games", "2", "--seed", "2", "--out", str(tmp_path), "--no-progress"])
    assert result.exit_code == 0 and "not rewritten" in result.stderr
    assert {f: (tmp_path / f).read_bytes() for f in before} == before
    assert pd.read_csv(tmp_path / "tournament.csv")["games"].tolist() == [4]


def test_an_out_that_is_no_tournament_folder_is_one_line(tmp_path):  # bad input: exit 2, no traceback
    (tmp_path / "a-file").write_text("keep me")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "todo.txt").write_text("keep me too")
    for out, words in ((tmp_path / "a-file", "is a file"), (tmp_path / "a-file" / "sub", "cannot write"),
                       (tmp_path / "notes", "not empty")):
        result = CliRunner().invoke(app, ["tournament", "--spymasters", "random", "--guessers", "random",
                                          "--games", "2", "--out", str(out), "--no-progress"])
        assert result.exit_code == 2 and words in result.stderr, result.stderr
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert (tmp_path / "a-file").read_text() == "keep me" and sorted(p.name for p in (tmp_path / "notes").iterdir()) == ["todo.txt"]


def test_a_spec_named_twice_is_one_pairing(tmp_path):
    table = tournament(["random", "random"], ["random", "random?stop=0.5", "random"], games=2, seed=1, out=tmp_path,
                       progress=False)
    assert sorted(table["guesser"]) == ["random", "random?stop=0.5"] and len(table) == 2


def test_specs_that_parse_alike_are_one_pairing(tmp_path):  # not a "different run" after the first's games
    table = tournament(["random"], ["random?stop=0.5", "random?stop=+0.5", "random?stop=.50"], games=2, seed=1,
                       out=tmp_path, progress=False)
    assert list(table["guesser"]) == ["random?stop=0.5"]


def test_two_pairings_sharing_a_folder_are_refused_before_any_game(tmp_path):
    (tmp_path / "m").mkdir()
    a, b = tmp_path / "m" / "x.kv", tmp_path / "m_x.kv"   # both slug to ..._m_x.kv
    a.write_text("cat 0.1 0.2\n")            # a model file (an empty one is refused as no model first)
    b.write_text("cat 0.1 0.2\n")
    result = CliRunner().invoke(app, ["tournament", "--spymasters", "random", "--guessers", f"nearest:{a},nearest:{b}",
                                      "--games", "2", "--out", str(tmp_path / "t"), "--no-progress"])
    assert result.exit_code == 2 and "would share the results folder" in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert not (tmp_path / "t").exists()


def test_a_missing_score_prints_as_a_dash_not_zero():  # RULES 3.11: only 9-token games are scored
    table = tournament(["random"], ["random", "random?stop=0.5"], games=2, seed=1, progress=False)
    table["mean_score_all"] = [None, 1.5]
    table.loc[0, "mean_clue_number"] = None
    figures = lambda: [line.split() for line in format_table(table).splitlines() if line[:4].strip().isdigit()]
    assert figures()[0][5:7] == ["-", "-"] and figures()[1][5] == "1.50"
    table["mean_score_all"] = [None, None]   # every pairing unscored: an object column of None
    assert [row[5] for row in figures()] == ["-", "-"]


def test_the_parquet_table_keeps_float_figures_where_none_exists(tmp_path):
    """RULES 3.11 scores 9-token games only: with 10 tokens the score columns are empty, but still float
    in tournament.parquet (they were untyped nulls, read back as object, unlike the CSV)."""
    table = tournament(["random"], ["random"], games=2, seed=0, tokens=10, out=tmp_path, progress=False)
    back, csv = pd.read_parquet(tmp_path / "tournament.parquet"), pd.read_csv(tmp_path / "tournament.csv")
    assert back["mean_score_all"].isna().all()
    for column in ("win_rate", "mean_score_wins", "mean_score_all", "mean_clue_number"):
        assert back[column].dtype == csv[column].dtype == table[column].dtype == "float64", column
    pd.testing.assert_frame_equal(back, table)


def test_an_experiment_that_played_no_game_is_not_kept_from_the_corrected_one(tmp_path):
    """A spymaster whose model file does not load fails after the setup is kept: the corrected
    command into the same --out was refused as "another setup" though no game had been played."""
    bad = tmp_path.parent / f"{tmp_path.name}-vectors.txt"
    bad.write_text("not a vectors file\n")
    args = ["--guessers", "random", "--games", "2", "--out", str(tmp_path), "--no-progress"]
    result = CliRunner().invoke(app, ["tournament", "--spymasters", f"expected:{bad}", *args])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
    assert (tmp_path / "tournament.setup.json").exists()
    result = CliRunner().invoke(app, ["tournament", "--spymasters", "random", *args])
    assert result.exit_code == 0, result.output
    assert pd.read_csv(tmp_path / "tournament.csv")["spymaster"].tolist() == ["random"]
    result = CliRunner().invoke(app, ["tournament", "--spymasters", "random", "--seed", "1", *args])
    assert result.exit_code == 2 and "another setup" in result.stderr   # a played experiment stays protected


def test_a_table_that_cannot_be_written_is_one_line(tmp_path):  # bad input: exit 2, no traceback
    """A folder where tournament.csv goes (or a full disk) raised IsADirectoryError, a traceback."""
    args = ["tournament", "--spymasters", "random", "--guessers", "random", "--games", "2", "--out", str(tmp_path),
            "--no-progress"]
    assert CliRunner().invoke(app, args).exit_code == 0
    (tmp_path / "tournament.csv").unlink()
    (tmp_path / "tournament.csv").mkdir()
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
    assert "cannot write the tournament table" in result.stderr and result.stderr.count("\n") == 1


def test_specs_naming_a_deep_model_path_get_a_folder_the_file_system_takes(tmp_path):
    """A pairing's folder is SPYMASTER__GUESSER: two specs naming a model under a deep folder made a
    name over the file system's 255 bytes, and the run ended in a traceback (Errno 36) after the
    pairings before it had played. A name too long keeps its start and ends with a hash of the whole."""
    deep = tmp_path / ("d" * 120) / ("e" * 100)
    deep.mkdir(parents=True)
    model = deep / "m.txt"
    model.write_text("cat 0.1 0.2\ndog 0.2 0.1\n")
    args = ["tournament", "--spymasters", f"random,random:{model}", "--guessers", f"nearest:{model},random",
            "--games", "2", "--no-progress", "--out", str(tmp_path / "t")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    folders = sorted(p.name for p in (tmp_path / "t").iterdir() if p.is_dir())
    assert len(folders) == 4 and all(len(name) <= 255 for name in folders)
    lines = {name: (tmp_path / "t" / name / "games.jsonl").read_text() for name in folders}
    again = CliRunner().invoke(app, args)   # each pairing resumes its own folder
    assert again.exit_code == 0 and sorted(p.name for p in (tmp_path / "t").iterdir() if p.is_dir()) == folders
    assert lines == {name: (tmp_path / "t" / name / "games.jsonl").read_text() for name in folders}


def test_pairing_kind_knows_a_model_file_however_its_path_is_written(tmp_path, monkeypatch):
    """The `pairing` column: a spymaster reading `./m.txt` and a guesser reading `m.txt` (or its absolute
    path) read the same model file: self-play, not cross-model."""
    (tmp_path / "m.txt").write_text("cat 0.1 0.2\ndog 0.2 0.1\n")
    (tmp_path / "n.txt").write_text("cat 0.1 0.2\ndog 0.2 0.1\n")
    monkeypatch.chdir(tmp_path)
    assert pairing_kind("margin:./m.txt", "nearest:m.txt") == "self-play"
    assert pairing_kind(f"margin:{tmp_path / 'm.txt'}+use-m3", "nearest:m.txt") == "self-play"
    assert pairing_kind("margin:m.txt", "nearest:n.txt") == "cross-model"
