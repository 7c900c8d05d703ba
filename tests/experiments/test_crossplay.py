"""`cnlab crossplay`: spymaster algorithms against a partner panel, leave-one-out, on the same deals."""

import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import agents.human_model as human_model
from agents.embeddings import FakeEmbeddings, MissingBackendError, register_backend
from agents.embeddings import registry as embedding_registry
from agents.spec import parse_spec
from engine.actions import Clue, Guess
from engine.duet.record import DuetRecord
from experiments.evaluation import crossplay as cp
from experiments.runs.stats import wilson_interval
from experiments.cli import app

PANEL = ["fake-a", "fake-b", "fake-c"]
ALGORITHMS = ["margin?vocab=300", "random"]


@pytest.fixture(autouse=True)
def fake_panel():
    """Three cheap backends: fake-a and fake-b read words alike (the same vectors), fake-c differently."""
    register_backend("fake-a", lambda: FakeEmbeddings(name="fake-a"), overwrite=True)
    register_backend("fake-b", lambda: FakeEmbeddings(name="fake-b"), overwrite=True)
    register_backend("fake-c", lambda: FakeEmbeddings(seed=7, name="fake-c"), overwrite=True)
    yield
    for name in PANEL:
        embedding_registry._REGISTRY.pop(name, None)
    embedding_registry.get_backend.cache_clear()


def backends(spec: str) -> set[str]:
    return set(parse_spec(spec).backends)


def small_run(out, **options):
    args = dict(games=3, seed=1, panel=PANEL, noise="0.05", human=False, out=out, progress=False)
    return cp.crossplay(ALGORITHMS, **{**args, **options})


def test_leave_one_out_table_folders_and_files(tmp_path):
    table = small_run(tmp_path)
    assert list(table.columns) == cp.COLUMNS
    assert len(table) == len(ALGORITHMS) * len(PANEL) * 2  # plain and noisy partner per model
    for row in table.itertuples():
        # the spymaster never reads the partner's model, and reads every other panel model
        assert backends(row.spymaster) == set(PANEL) - {row.partner_model}
        assert row.partner == f"duet-bayes:{row.partner_model}" + ("?noise=0.05" if row.kind == "noisy" else "")
        assert row.pairing == ("no model" if row.algorithm == "random" else "cross-model") and row.games == 3
        assert row.spymaster.startswith(row.algorithm.partition("?")[0] + ":")
    margin = table[table["algorithm"] == "margin?vocab=300"]
    assert set(margin["spymaster"]) == {"margin:fake-b+fake-c?vocab=300", "margin:fake-a+fake-c?vocab=300",
                                        "margin:fake-a+fake-b?vocab=300"}
    # what was played: each pairing's folder records the exact specs
    folders = [p for p in tmp_path.iterdir() if p.is_dir()]
    assert len(folders) == len(table)
    played = set()
    for folder in folders:
        run = json.loads((folder / "run.json").read_text())["run"]
        guesser = parse_spec(run["guesser"])
        assert not backends(run["spymaster"]) & set(guesser.backends)
        assert json.loads((folder / "summary.json").read_text())["config"]["run"]["spymaster"] == run["spymaster"]
        played.add((run["spymaster"], run["guesser"]))
    assert played == set(zip(table["spymaster"], table["partner"]))
    # greens per clue from the games' rows
    row = table.iloc[0]
    folder = cp.pairing_folder(tmp_path, cp.DuetRun(3, seed=1, spymaster=row.spymaster, guesser=row.partner))
    rows = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
    assert row.greens_per_clue == pytest.approx(sum(r["greens_found"] for r in rows) / sum(r["clues"] for r in rows))
    # the first guess of each clue, judged on the clue giver's key (RULES 3.5) in the replayed records
    firsts = []
    for line in (folder / "records.jsonl").read_text().splitlines():
        record = DuetRecord.from_dict(json.loads(line))
        state, giver = record.new_state(), None
        for action in record.actions:
            if giver and isinstance(action, Guess):
                firsts.append(state.key.side(giver)[state.words.index(action.word)] == "G")
            giver = action.seat if isinstance(action, Clue) else None
            state.apply(action)
    assert firsts and row.first_green == pytest.approx(sum(firsts) / len(firsts), abs=1e-6)
    # per-algorithm means: plain partners (leave-one-out) and all partners
    for algorithm, group in table.groupby("algorithm"):
        plain = group[group["kind"] == "model"]
        assert group["loo_win_rate"].iloc[0] == pytest.approx(plain["win_rate"].mean(), abs=1e-6)
        assert group["loo_assassin_rate"].iloc[0] == pytest.approx(plain["assassin_rate"].mean(), abs=1e-6)
        assert group["all_win_rate"].iloc[0] == pytest.approx(group["win_rate"].mean(), abs=1e-6)
        # its interval over the deals, from the plain partners' games in their folders
        won = []
        for r in plain.itertuples():
            f = cp.pairing_folder(tmp_path, cp.DuetRun(3, seed=1, spymaster=r.spymaster, guesser=r.partner))
            won.append([json.loads(line)["won"] for line in (f / "games.jsonl").read_text().splitlines()])
        low, high = cp.paired_interval([np.array(w, dtype=float) for w in won])
        assert (group["loo_ci95_low"].iloc[0], group["loo_ci95_high"].iloc[0]) == (low, high)
        assert low <= group["loo_win_rate"].iloc[0] <= high
    assert table["loo_win_rate"].is_monotonic_decreasing
    assert table["rank"].is_monotonic_increasing and set(table["rank"]) == {1, 2}
    # the files
    back = pd.read_parquet(tmp_path / "crossplay.parquet")
    pd.testing.assert_frame_equal(back, table, check_dtype=False)
    assert list(pd.read_csv(tmp_path / "crossplay.csv")["spymaster"]) == list(table["spymaster"])
    assert (tmp_path / "crossplay_heatmap.png").stat().st_size > 0


def test_a_rerun_plays_no_new_game(tmp_path, monkeypatch):
    first = small_run(tmp_path, noise="none")
    lines = {p.name: (p / "games.jsonl").read_text() for p in tmp_path.iterdir() if p.is_dir()}

    def no_games(run):
        raise AssertionError(f"a game of {run.spymaster} / {run.guesser} was played again")

    monkeypatch.setattr("experiments.games.duet.batch.load_players", no_games)
    again = small_run(tmp_path, noise="none")
    pd.testing.assert_frame_equal(first, again)
    assert lines == {p.name: (p / "games.jsonl").read_text() for p in tmp_path.iterdir() if p.is_dir()}


def test_ranking_by_leave_one_out_mean_win_rate():
    pairs = pd.DataFrame([
        {"algorithm": algo, "spymaster": f"{algo}:x", "partner": partner, "partner_model": model, "noise": 0.0,
         "kind": kind, "pairing": "cross-model", "games": 10, "wins": int(10 * w), "win_rate": w, "ci95_low": 0.0,
         "ci95_high": 1.0, "assassin_rate": 1 - w, "sudden_death_rate": 0.0, "mean_score_wins": None,
         "mean_score_all": 0.0, "greens_per_clue": 1.0, "first_green": 0.9, "mean_clue_number": 2.0}
        for algo, rates in [("weak", (0.2, 0.4, 0.9)), ("strong", (0.6, 0.8, 0.0))]
        for (partner, model, kind), w in zip([("duet-bayes:p", "p", "model"), ("duet-bayes:q", "q", "model"),
                                              ("human", None, "human")], rates)])
    table = cp.rank(pairs)
    assert list(dict.fromkeys(table["algorithm"])) == ["strong", "weak"]  # 0.7 > 0.3, whatever the human row says
    assert list(table["rank"]) == [1, 1, 1, 2, 2, 2]
    means = cp.algorithm_means(table)
    assert list(means.columns) == cp.ALGORITHM_COLUMNS
    assert means.set_index("algorithm")["loo_win_rate"].to_dict() == pytest.approx({"strong": 0.7, "weak": 0.3})
    assert means.set_index("algorithm")["all_win_rate"].to_dict() == pytest.approx({"strong": 1.4 / 3, "weak": 0.5})


def test_the_leave_one_out_interval_is_over_deals():
    """The partners play the same deals, so a deal is one draw: identical partners give the interval of
    one partner's games, not of twice as many independent ones."""
    a, b = np.array([1.0, 1.0, 0.0, 0.0]), np.array([1.0, 0.0, 1.0, 0.0])
    assert cp.paired_interval([a, b]) == pytest.approx((0.1, 0.9), abs=1e-3)   # deal means 1, .5, .5, 0
    c = np.array([1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0])
    same = cp.paired_interval([c, c])
    pooled = wilson_interval(2 * int(c.sum()), 2 * len(c))      # 8 of 24, as if 24 independent games
    assert same == cp.paired_interval([c]) and same[1] - same[0] > (pooled[1] - pooled[0]) * 1.2
    assert cp.paired_interval([a, b[:3]]) == (None, None) and cp.paired_interval([a[:1]]) == (None, None)
    assert cp.paired_interval([np.ones(5)]) == (1.0, 1.0)


def planned_default_human(monkeypatch, backends) -> None:
    """The plain `human` spec reading `backends` (the fake ones have no fitted model: planning, which
    checks each spec, is what these tests are about, not the model file)."""
    monkeypatch.setattr(human_model, "DEFAULT_BACKENDS", backends)
    monkeypatch.setattr(human_model.HumanLikeGuesser, "check_setup", classmethod(lambda cls, spec, language: None))


def test_human_pairing_excludes_the_human_guessers_models(monkeypatch):
    pairings = cp.plan(["margin?vocab=300"], games=2, panel=PANEL, noise="none",
                       human_spec="human:fake-a+fake-b?model=nearest")
    human = [p for p in pairings if p.partner.kind == "human"]
    assert [p.run.spymaster for p in human] == ["margin:fake-c?vocab=300"]
    assert human[0].run.guesser == "human:fake-a+fake-b?model=nearest"
    # the plain `human` spec: the models it reads come from agents.human_model at the time of the run
    planned_default_human(monkeypatch, ("fake-b",))
    [human] = [p for p in cp.plan(["expected"], 2, panel=PANEL, noise="none", human=True) if p.partner.kind == "human"]
    assert human.run.spymaster == "expected:fake-a+fake-c" and human.run.guesser == "human"
    # it reads every panel model: the spymaster gets the whole panel
    planned_default_human(monkeypatch, tuple(PANEL))
    [human] = [p for p in cp.plan(["expected"], 2, panel=PANEL, noise="none", human=True) if p.partner.kind == "human"]
    assert human.run.spymaster == "expected:fake-a+fake-b+fake-c"


def test_default_human_joins_only_where_it_can_read_the_boards(monkeypatch):
    planned_default_human(monkeypatch, ("fake-a",))
    assert [p.partner.kind for p in cp.plan(["random"], 2, panel=PANEL, noise="none")][-1] == "human"
    assert "human" not in [p.partner.kind for p in cp.plan(["random"], 2, panel=PANEL, noise="none", human=False)]
    planned_default_human(monkeypatch, ("use-m3", "glove-50"))  # glove-50: English only
    assert "human" not in [p.partner.kind for p in cp.plan(["random"], 2, lang="ko", panel=["fake-a", "fake-b"])]
    with pytest.raises(ValueError, match="human guesser cannot play"):
        cp.plan(["random"], 2, lang="ko", panel=["fake-a", "fake-b"], human=True)


def test_the_human_partner_plays(tmp_path):
    table = small_run(tmp_path, panel=["fake-a", "fake-c"], noise="none", human=True,
                      human_spec="human:fake-a?model=nearest", games=2)
    row = table[table["kind"] == "human"].iloc[0]
    assert row.partner == "human:fake-a?model=nearest" and backends(row.spymaster) == {"fake-c"}


def test_without_leave_one_out_and_fixed_spymasters():
    pairings = cp.plan(["margin?kmax=3", "random:fake-a"], 2, panel=PANEL, noise="0.02,0.06", human=False,
                       leave_one_out=False)
    assert {p.run.spymaster for p in pairings if p.algorithm == "margin?kmax=3"} == {"margin:fake-a+fake-b+fake-c?kmax=3"}
    assert {p.run.spymaster for p in pairings if p.algorithm == "random:fake-a"} == {"random:fake-a"}
    assert [p.partner.spec for p in pairings[:3]] == ["duet-bayes:fake-a", "duet-bayes:fake-a?noise=0.02",
                                                      "duet-bayes:fake-a?noise=0.06"]
    # a fixed spymaster stays fixed in leave-one-out mode too
    fixed = cp.plan(["random:fake-a"], 2, panel=PANEL, noise="none", human=False)
    assert {p.run.spymaster for p in fixed} == {"random:fake-a"}


def test_another_partner_algorithm_reads_each_panel_model_alone():
    pairings = cp.plan(["margin"], 2, panel=PANEL, noise="0.02", human=False, partner="duet-bayes?hub=1")
    assert [p.partner.spec for p in pairings[:2]] == ["duet-bayes:fake-a?hub=1", "duet-bayes:fake-a?hub=1&noise=0.02"]
    assert [p.partner.spec for p in cp.plan(["margin"], 2, panel=PANEL, noise="none", human=False,
                                            partner="nearest")] == ["nearest:fake-a", "nearest:fake-b", "nearest:fake-c"]
    for bad, says in [("nearest:fake-a", "without backends"), ("duet-bayes?noise=0.1", "its own noise"),
                      ("no-such-guesser", "no-such-guesser")]:
        with pytest.raises(ValueError, match=says):
            cp.plan(["margin"], 2, panel=PANEL, noise="0.02", human=False, partner=bad)


def test_default_panels_are_what_is_installed(monkeypatch):
    import agents.embeddings.mpnet as mpnet

    def missing(*args, **kwargs):
        raise MissingBackendError("mpnet", "pip install ...")

    monkeypatch.setattr(mpnet, "find_split_parts", missing)
    assert "mpnet" not in cp.default_panel("en")
    monkeypatch.setattr(mpnet, "find_split_parts", lambda *a, **k: [])
    monkeypatch.setattr(cp, "MODULES", {})  # every backend's packages "installed"
    assert cp.default_panel("en") == ["use-m3", "glove-50", "minilm", "e5-small", "mpnet", "wordllama"]
    assert cp.default_panel("ko") == ["use-m3", "e5-small", "kiwi"]


@pytest.mark.parametrize("args, message", [
    (["--panel", "fake-a,no-such-model"], "unknown embedding backend 'no-such-model'"),
    (["--panel", ","], "the partner panel is empty"),
    (["--panel", "fake-a"], "leave-one-out needs at least two panel models"),
    (["--spymasters", "psychic"], "unknown spymaster 'psychic'"),
    (["--spymasters", "expected?risk"], "needs a value"),
    (["--spymasters", "expected:no-such-model"], "unknown embedding backend 'no-such-model'"),
    (["--games", "0"], "--games must be a positive number"),
    (["--noise", "loud"], "--noise takes numbers"),
    (["--lang", "fr"], "unknown language"),
    (["--lang", "ko", "--panel", "fake-a,glove-50"], "does not cover language 'ko'"),
    (["--human", "--human-spec", "nearest:fake-a"], "must be a human guesser spec"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, message):
    base = ["crossplay", "--panel", ",".join(PANEL), "--games", "2", "--no-human", "--no-progress",
            "--out", str(tmp_path / "x")]
    result = CliRunner().invoke(app, base + args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("error: ")
    assert not (tmp_path / "x").exists()  # nothing was played


def test_the_command_prints_the_ranked_table(tmp_path):
    result = CliRunner().invoke(app, ["crossplay", "--spymasters", "random", "--panel", "fake-a,fake-c",
                                      "--noise", "none", "--no-human", "--games", "2", "--no-progress",
                                      "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "random:fake-c" in result.stdout and "duet-bayes:fake-a" in result.stdout
    assert "loo_win_rate" in result.stdout
    assert len(pd.read_parquet(tmp_path / "crossplay.parquet")) == 2


def test_pairing_kind_sees_what_the_partner_reads():
    plain = cp.Partner("duet-bayes:use-m3", "use-m3", 0.0, "model", ("use-m3",))
    human = cp.Partner("human", None, 0.0, "human", ("use-m3", "glove-50"))
    assert cp.pairing_kind("expected:glove-50+minilm", plain) == "cross-model"
    assert cp.pairing_kind("expected:use+minilm", plain) == "self-play"  # aliases resolved
    assert cp.pairing_kind("expected:glove-50", human) == "self-play"
    assert cp.pairing_kind("expected:e5-small", human) == "cross-model"
    assert cp.pairing_kind("random:use-m3", plain) == "no model"   # random reads none of its backends


def test_a_smaller_rerun_rewrites_neither_table_nor_heatmap(tmp_path, capsys):  # nothing lost
    small_run(tmp_path, games=3, noise="none")
    files = [f for f in ("crossplay.csv", "crossplay.parquet", "crossplay_heatmap.png") if (tmp_path / f).exists()]
    before = {f: (tmp_path / f).read_bytes() for f in files}
    table = small_run(tmp_path, games=2, noise="none")
    assert set(table["games"]) == {2} and "not rewritten" in capsys.readouterr().err
    assert {f: (tmp_path / f).read_bytes() for f in files} == before and "crossplay.csv" in before


def test_algorithms_that_parse_alike_are_one(tmp_path):  # not a "different run" after the first's games
    pairings = cp.plan(["margin?kmax=3", "margin?kmax=+3", "margin?kmax=3.0"], 2, panel=PANEL, noise="none",
                       human=False)
    assert {p.algorithm for p in pairings} == {"margin?kmax=3"} and len(pairings) == len(PANEL)


def test_two_pairings_sharing_a_folder_are_refused_before_any_game(tmp_path):
    (tmp_path / "m").mkdir()
    a, b = tmp_path / "m" / "x.kv", tmp_path / "m_x.kv"   # both slug to ..._m_x.kv
    a.touch()
    b.touch()
    result = CliRunner().invoke(app, ["crossplay", "--spymasters", f"random:{a},random:{b}", "--panel", ",".join(PANEL),
                                      "--games", "2", "--no-human", "--no-progress", "--out", str(tmp_path / "x")])
    assert result.exit_code == 2 and "would share the results folder" in result.stderr, result.output
    assert len(result.stderr.strip().splitlines()) == 1 and not (tmp_path / "x").exists()


def test_a_missing_mean_prints_as_a_dash(tmp_path):  # RULES 3.11: only 9-token games are scored
    table = small_run(tmp_path, noise="none", games=2)
    table["mean_score_wins"] = None
    table["mean_score_all"] = None
    table.loc[0, "greens_per_clue"] = None
    table.loc[0, "first_green"] = None      # a pairing played without a results folder has no records
    printed = cp.format_table(table)
    assert "None" not in printed and "NaN" not in printed and "nan" not in printed
    header, first = printed.splitlines()[:2]
    names, figures = header.split(), first.split()
    assert [figures[names.index(c) - len(names)]
            for c in ("mean_score_wins", "mean_score_all", "greens_per_clue", "first_green")] == ["-", "-", "-", "-"]


def test_the_parquet_table_keeps_float_figures_where_none_exists(tmp_path):
    """RULES 3.11 scores 9-token games only, and one deal has no interval: those columns are empty, but
    still float in crossplay.parquet (they were untyped nulls, read back as object, unlike the CSV)."""
    table = small_run(tmp_path, noise="none", games=1, tokens=10)
    assert table["mean_score_wins"].isna().all() and table["loo_ci95_low"].isna().all()
    back, csv = pd.read_parquet(tmp_path / "crossplay.parquet"), pd.read_csv(tmp_path / "crossplay.csv")
    for column in cp.FLOAT_COLUMNS:
        assert back[column].dtype == csv[column].dtype == table[column].dtype == np.float64, column
    pd.testing.assert_frame_equal(back, table)


def test_a_noisy_partner_plays_the_noise_the_table_names():
    """`--noise 0.1234567` was played as `noise=0.123457` (six digits) while the table said 0.1234567, and
    0.04 and 0.04000001 were one partner (the same spec) listed twice."""
    pairings = cp.plan(["random"], 2, panel=PANEL[:2], human=False, noise="0.04,0.04000001,0.1234567,1")
    noisy = [p.partner for p in pairings if p.partner.kind == "noisy"]
    assert len({p.spec for p in noisy}) == len(noisy) == 8
    for partner in noisy:
        assert float(parse_spec(partner.spec).params["noise"]) == partner.noise
    assert {p.spec.partition("?")[2] for p in noisy} == {"noise=0.04", "noise=0.04000001", "noise=0.1234567", "noise=1"}


def test_a_table_or_heatmap_that_cannot_be_written_is_one_line(tmp_path):  # bad input: exit 2, no traceback
    args = ["crossplay", "--spymasters", "random", "--panel", ",".join(PANEL), "--noise", "none", "--games", "2",
            "--no-human", "--no-progress", "--out", str(tmp_path)]
    assert CliRunner().invoke(app, args).exit_code == 0
    for name, what in (("crossplay_heatmap.png", "heatmap"), ("crossplay.csv", "crossplay table")):
        (tmp_path / name).unlink()
        (tmp_path / name).mkdir()
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
        assert f"cannot write the {what}" in result.stderr and result.stderr.count("\n") == 1


def test_a_spymaster_class_by_import_path_is_an_algorithm(tmp_path, monkeypatch):
    """docs/agents.md: a third party's class goes by import path wherever a spec goes. In crossplay
    `pkg.bots:Mine` (no backend after the class) is an algorithm like `margin`: leave-one-out gives it
    the other panel models after the class; `pkg.bots:Mine+fake-a` is fixed. It was refused as an
    unknown embedding backend 'Mine' (the class read as a backend), and a guesser class as `--partner`
    as one naming backends."""
    pkg = tmp_path / "crossbots"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "bots.py").write_text(
        "from agents.base import ClueDecision, Guesser, Spymaster\n"
        "class Mine(Spymaster):\n"
        "    def __init__(self, spec, language='en'):\n"
        "        super().__init__()\n"
        "    def give_clue(self, obs):\n"
        "        return ClueDecision('animal', 1)\n"
        "class Reader(Guesser):\n"
        "    def __init__(self, spec, language='en'):\n"
        "        super().__init__()\n"
        "    def next_guess(self, obs):\n"
        "        return None if obs.correct_this_turn else next(w for i, w in enumerate(obs.words) if obs.can_guess(i))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    pairings = cp.plan(["crossbots.bots:Mine?x=1", "crossbots.bots:Mine+fake-a"], 2, panel=PANEL, noise="none",
                       human=False)
    assert [p.run.spymaster for p in pairings] == [
        "crossbots.bots:Mine+fake-b+fake-c?x=1", "crossbots.bots:Mine+fake-a+fake-c?x=1",
        "crossbots.bots:Mine+fake-a+fake-b?x=1"] + ["crossbots.bots:Mine+fake-a"] * 3
    mates = cp.plan(["random"], 2, panel=PANEL, noise="none", human=False, partner="crossbots.bots:Reader")
    assert [p.run.guesser for p in mates] == [f"crossbots.bots:Reader+{m}" for m in PANEL]
    with pytest.raises(ValueError, match="without backends"):
        cp.plan(["random"], 2, panel=PANEL, noise="none", human=False, partner="crossbots.bots:Reader+fake-a")


def test_a_panel_model_given_twice_by_path_is_one_model(tmp_path, monkeypatch):
    """Leave-one-out: the spymaster never reads its partner's model. A model file named two ways
    (`m.txt`, `./m.txt`, its absolute path) was two panel models, so partner `duet-bayes:m.txt` met a
    spymaster reading `./m.txt`, the same file; it is one model, as an alias and its name are."""
    (tmp_path / "m.txt").write_text("apple 0.1 0.2 0.3\npear 0.2 0.1 0.4\n")
    monkeypatch.chdir(tmp_path)
    pairings = cp.plan(["random"], 2, panel=["m.txt", "./m.txt", str(tmp_path / "m.txt"), "fake-a"], noise="none",
                       human=False)
    assert [(p.run.spymaster, p.run.guesser) for p in pairings] == [("random:fake-a", "duet-bayes:m.txt"),
                                                                    ("random:m.txt", "duet-bayes:fake-a")]


def test_first_green_counts_the_first_guess_of_a_clue_of_0(tmp_path):
    """RULES 3.4: a Duet clue may be 0, and the guesser still guesses at least once. `first_green` is the
    share of clues whose first guess found a green (RULES 3.5); a clue of 0 was left out (its guesses
    are all past its number, `spare` in the guess table), so its first guess never counted."""
    from tests.conftest import make_key
    from engine.duet import DuetConfig
    from engine.records import record_to_json

    words = [f"w{i}" for i in range(25)]
    key = make_key({0: ("G", "N"), 1: ("G", "G"), 2: ("G", "X"), 3: ("N", "G"), 4: ("X", "N"), 5: ("N", "N")})
    rec = DuetRecord(words=words, key=key, config=DuetConfig(), actions=[
        Clue("A", "none", 0), Guess("B", "w5"),                      # 0: a bystander first
        Clue("B", "pet", 1), Guess("A", "w3")])                     # 1: a green first
    rec.extra["game_index"] = 0
    (tmp_path / "run.json").write_text(json.dumps({"run": {"spymaster": "s", "guesser": "g"}}))
    (tmp_path / "records.jsonl").write_text(record_to_json(rec) + "\n", encoding="utf-8")
    assert cp.first_green(tmp_path, 1) == 0.5


def test_a_pairings_rows_leave_out_a_torn_last_line(tmp_path):
    """A pairing's games.jsonl read for greens per clue and the deals' wins: a last line without its
    newline (a run killed while writing it, which the run folder cuts and plays again) raised
    JSONDecodeError; the whole lines are the rows, as for the folder."""
    rows = [{"game_index": i, "won": i == 1, "clues": 2, "greens_found": 3} for i in range(3)]
    text = "".join(json.dumps(r) + "\n" for r in rows[:2]) + json.dumps(rows[2])[:20]
    (tmp_path / "games.jsonl").write_text(text, encoding="utf-8")
    assert cp._rows(tmp_path, [], 5) == rows[:2]
    (tmp_path / "games.jsonl").write_text(text + json.dumps(rows[2])[20:], encoding="utf-8")   # whole but for "\n"
    assert cp._rows(tmp_path, [], 5) == rows[:2]
