"""Every guess of a Duet run placed in its turn (experiments/evaluation/guesses.py)."""

import json

import pytest

from conftest import make_key
from engine import Clue, Guess, IllegalAction, Stop
from engine.duet import DuetConfig
from engine.duet.record import DuetRecord
from engine.records import record_to_json
from experiments.evaluation.guesses import assassin_profile, folder_guesses, guess_rows

WORDS = ["rain", "snow", "cat", "dog", "bank", "river", "apple", "tree", "ice", "cream",
         "moon", "star", "car", "train", "ship", "piano", "guitar", "drum", "bread", "cheese",
         "king", "queen", "castle", "bridge", "tower"]
# (side A, side B): rain G/N, snow G/G, cat G/X, dog N/G, bank X/N
KEY = make_key({0: ("G", "N"), 1: ("G", "G"), 2: ("G", "X"), 3: ("N", "G"), 4: ("X", "N")})


def record() -> DuetRecord:
    """Two tokens: a turn of two in the number and two spare guesses (the last a bystander), a turn of
    one ended by a stop, then sudden death (RULES 3.9) ended by an assassin of the clue giver's key."""
    return DuetRecord(words=list(WORDS), key=KEY, config=DuetConfig(timer_tokens=2), actions=[
        Clue("A", "weather", 2), Guess("B", "rain"), Guess("B", "cat"), Guess("B", "snow"), Guess("B", "dog"),
        Clue("B", "pet", 1), Guess("A", "dog"), Stop("A"),
        Guess("B", "bank")])


def test_each_guess_is_placed_in_its_turn():  # RULES 3.4-3.6, 3.9; judged by the giver's key (3.5)
    rows = guess_rows(record(), game_index=7)
    assert [(r["seat"], r["place"], r["position"], r["last_of_number"], r["result"], r["own"]) for r in rows] == [
        ("B", "1st", 1, False, "green", "bystander"),
        ("B", "2nd", 2, True, "green", "assassin"),    # a green of A that is B's own assassin (3.2)
        ("B", "spare", 3, False, "green", "green"),
        ("B", "spare", 4, False, "bystander", "green"),
        ("A", "1st", 1, True, "green", "bystander"),
        ("B", "sudden death", None, False, "assassin", "bystander"),
    ]
    assert {r["game_index"] for r in rows} == {7}
    assert [(r["clue"], r["number"]) for r in rows][3:] == [("weather", 2), ("pet", 1), (None, None)]


def test_a_guess_that_finishes_the_givers_side_keeps_its_result():  # RULES 3.8: the engine then stops the turn
    from engine.duet.key import GREEN

    greens = [w for w, c in zip(WORDS, KEY.side("A")) if c == GREEN]
    rec = DuetRecord(words=list(WORDS), key=KEY, config=DuetConfig(),
                     actions=[Clue("A", "all", 9)] + [Guess("B", w) for w in greens])
    state = rec.new_state()
    for action in rec.actions:
        state.apply(action)
    assert state.history[-1].kind == "stop"          # the turn ended by the rule, after the last guess
    rows = guess_rows(rec)
    assert [r["result"] for r in rows] == ["green"] * 9
    assert rows[-1]["place"] == "4th+" and rows[-1]["last_of_number"]


def test_the_profile_counts_where_the_assassin_came():
    import pandas as pd

    guesses = pd.DataFrame(guess_rows(record()) * 2).assign(guesser=["x"] * 6 + ["y"] * 6)
    profile = assassin_profile(guesses)
    assert list(profile.index) == ["1st", "2nd", "spare", "sudden death"]
    assert profile.loc["1st", "guesses"] == 4 and profile.loc["spare", "green_rate"] == 0.5
    assert profile.loc["sudden death", "assassin_rate"] == 1.0
    assert profile["assassins"].tolist() == [0, 0, 0, 2] and profile["assassin_share"].tolist() == [0, 0, 0, 1]
    by = assassin_profile(guesses, by=["guesser"])
    assert list(by.index.get_level_values("guesser").unique()) == ["x", "y"]
    assert by.loc[("y", "sudden death"), "assassin_share"] == 1.0


def test_a_results_folder_is_read_with_its_run(tmp_path):
    (tmp_path / "run.json").write_text(json.dumps({"run": {"spymaster": "robust:mpnet", "guesser": "duet-bayes:glove-50"}}))
    data = json.loads(record_to_json(record()))
    (tmp_path / "records.jsonl").write_text(
        "".join(json.dumps({**data, "game_index": i}) + "\n" for i in (0, 1)), encoding="utf-8")
    table = folder_guesses(tmp_path)
    assert len(table) == 12 and table["game_index"].tolist() == [0] * 6 + [1] * 6
    assert set(table["spymaster"]) == {"robust:mpnet"} and set(table["guesser"]) == {"duet-bayes:glove-50"}


def test_a_folder_that_is_not_a_duet_run_is_one_line(tmp_path):
    with pytest.raises(ValueError, match="not a Duet results folder"):
        folder_guesses(tmp_path)
    (tmp_path / "run.json").write_text(json.dumps({"run": {"spymaster": "s", "guesser": "g"}}))
    bad = json.loads(record_to_json(record()))
    bad["actions"][1]["guess"] = "snow"   # B may guess snow, then...
    bad["actions"][2]["guess"] = "snow"   # ...not again: covered by an agent (RULES 3.7)
    (tmp_path / "records.jsonl").write_text(json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"records.jsonl line 1: not a Duet record that replays") as err:
        folder_guesses(tmp_path)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("damage, fragments", [
    (lambda d: d["actions"][2].update(guess="snow"), ("action 2", "RULES 3.7", "snow")),  # covered twice
    (lambda d: d.update(game="codenames"), ("not a Duet record (game='codenames')",)),
    (lambda d: d["key"].update(A=d["key"]["B"].lower()), ("RULES 3.2", "side A")),
    (lambda d: d.update(version=2), ("unsupported record version 2",)),
])
def test_a_record_that_does_not_replay_names_its_problem(tmp_path, damage, fragments):
    """`cnlab crossplay` reads a pairing's records.jsonl (first_green): a record that does not replay
    was named by its line and its exception's class only ("(IllegalAction)"), never the rule broken
    nor the action; the line now says what the record's replay says (`cnlab replay`)."""
    (tmp_path / "run.json").write_text(json.dumps({"run": {"spymaster": "s", "guesser": "g"}}))
    bad = json.loads(record_to_json(record()))
    bad["actions"][1]["guess"] = "snow"
    damage(bad)
    (tmp_path / "records.jsonl").write_text(json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"records.jsonl line 1: not a Duet record that replays") as err:
        folder_guesses(tmp_path)
    assert "\n" not in str(err.value)
    for fragment in fragments:
        assert fragment in str(err.value)


def test_a_record_that_is_not_strict_json_is_refused(tmp_path):
    """The records are read as `cnlab replay` reads them: NaN (or a key twice) is not JSON."""
    (tmp_path / "run.json").write_text(json.dumps({"run": {"spymaster": "s", "guesser": "g"}}))
    line = record_to_json(record())
    (tmp_path / "records.jsonl").write_text(line[:-1] + ',"score":NaN}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="line 1: .*NaN is not a JSON number"):
        folder_guesses(tmp_path)


def test_a_guess_off_the_board_is_the_engines_error():  # RULES 3.1
    bad = record()
    bad.actions[1] = Guess("B", "zebra")
    with pytest.raises(IllegalAction) as err:
        guess_rows(bad)
    assert err.value.rule == "3.1"


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_a_record_holding_a_unicode_line_separator_is_one_line(tmp_path, separator):
    """records.jsonl is JSON lines split at "\\n" only, as the run folder reads it: a record's text (a
    language model's reply kept in `llm`, a forfeit's reason) may hold U+2028, U+2029 or NEL, which
    record_to_json writes as they are. str.splitlines cut such a record in two, so `cnlab crossplay`
    (first_green) failed on a folder the run had written and resumed without complaint."""
    (tmp_path / "run.json").write_text(json.dumps({"run": {"spymaster": "s", "guesser": "g"}}))
    rec = record()
    rec.extra["llm"] = [{"reply": f"weather{separator}2"}]
    line = record_to_json(rec)
    assert separator in line
    (tmp_path / "records.jsonl").write_text(line + "\n" + line + "\n", encoding="utf-8")
    assert len(folder_guesses(tmp_path)) == 12


def test_a_torn_last_line_is_no_record(tmp_path):
    """A run killed while writing a record leaves a last line without its newline; the run folder cuts
    it on resume and plays that game again (experiments/runs/folder.py). folder_guesses (the partner
    notebook's assassin section) refused the whole folder as 'not a Duet record that replays'; it now
    reads the whole lines only, as the folder does."""
    (tmp_path / "run.json").write_text(json.dumps({"run": {"spymaster": "s", "guesser": "g"}}))
    data = json.loads(record_to_json(record()))
    whole = json.dumps({**data, "game_index": 0}) + "\n"
    torn = json.dumps({**data, "game_index": 1})
    for cut in (len(torn) // 2, len(torn)):   # torn mid-record, or whole but for its newline
        (tmp_path / "records.jsonl").write_text(whole + torn[:cut], encoding="utf-8")
        table = folder_guesses(tmp_path)
        assert len(table) == 6 and set(table["game_index"]) == {0}


def test_a_guess_is_its_seats_guesser_on_the_other_seats_clue(tmp_path):
    """RULES 3.5: a guess answers the other player's clue. A run whose seat B plays other agents
    (`--spymaster-b`, `--guesser-b`) had every guess labelled with seat A's spymaster and guesser:
    seat A's guesses on seat B's clues too. Now each row names the guesser of its seat and the
    spymaster of the other seat (seat A's where the run names no seat B agent)."""
    run = {"spymaster": "sa", "guesser": "ga", "spymaster_b": "sb", "guesser_b": "gb"}
    (tmp_path / "run.json").write_text(json.dumps({"run": run}))
    (tmp_path / "records.jsonl").write_text(record_to_json(record()) + "\n", encoding="utf-8")
    table = folder_guesses(tmp_path)
    assert table[["seat", "spymaster", "guesser"]].drop_duplicates().values.tolist() == [
        ["B", "sa", "gb"], ["A", "sb", "ga"]]
    (tmp_path / "run.json").write_text(json.dumps({"run": {**run, "spymaster_b": None, "guesser_b": None}}))
    assert set(folder_guesses(tmp_path)["spymaster"]) == {"sa"} and set(folder_guesses(tmp_path)["guesser"]) == {"ga"}
