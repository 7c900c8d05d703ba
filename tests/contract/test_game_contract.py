"""The one contract every registered game keeps (engine.game), in the spirit of PettingZoo's
api_test / seed_test and OpenSpiel's random_sim_test: parametrized over every game of
engine.game.GAMES and every variant its spec lists, in both board languages.

- random play (legal moves mixed with the harness's open-ended and illegal candidates) reaches
  the end without a crash; every refused move names a RULES section of docs/rules.md and leaves
  the state exactly as it was; a move legal_actions lists is never refused, and an accepted move
  of a kind legal_actions lists is listed (the open-ended kinds, clues, are never listed);
- the played record round-trips through JSON to the same bytes and replays to an equal state;
- the same seed deals the same bytes; different seeds deal different games;
- two records that differ only in what a seat may not see give that seat equal observations;
- every registered game has a reference record under tests/data/reference.
- in every state of played games, each move legal_actions lists is accepted and no other of its kinds;
- an observation changed by its holder (a field, a container inside) changes neither the state nor
  the next observation.
A new game (tests/contract/toy_game.py) runs through the same functions (test_new_game.py).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from pathlib import Path

import numpy as np
import pytest

from engine.errors import IllegalAction
from engine.game import GAMES, STATUSES, GameState, Outcome
from engine.records import record_from_dict, record_to_json, replay_summary
from experiments.games import harness

ROOT = Path(__file__).resolve().parents[2]
RULE_SECTIONS = set(re.findall(r"^#+\s+(\d+(?:\.\d+)?)\b", (ROOT / "docs" / "rules.md").read_text(encoding="utf-8"),
                               re.M))
REFERENCE = ROOT / "tests" / "data" / "reference"
MAX_STEPS = 4000

CASES = [pytest.param(name, lang, variant, id=f"{name}-{lang}-{'-'.join(map(str, variant.values())) or 'base'}")
         for name, spec in GAMES.items() for lang in spec.languages for variant in spec.variants]


def deal(name: str, lang: str, variant: dict, seed: int):
    return harness(name).deal_record(seed=seed, lang=lang, game=name, **variant)


def snapshot(state) -> object:
    """Everything a state holds, in comparable form (a numpy Generator by its bit state; the
    referee callables by name), so "unchanged" means unchanged."""
    def plain(value):
        if isinstance(value, np.random.Generator):
            return ("rng", json.dumps(value.bit_generator.state, sort_keys=True, default=str))
        if callable(value):
            return ("callable", getattr(value, "__qualname__", type(value).__name__))
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return (type(value).__name__, plain(dataclasses.asdict(value)))
        if isinstance(value, dict):
            return tuple(sorted(((repr(k), plain(v)) for k, v in value.items())))
        if isinstance(value, (list, tuple)):
            return tuple(plain(v) for v in value)
        if isinstance(value, (set, frozenset)):
            return ("set", tuple(sorted(map(repr, value))))
        return value
    return plain(vars(state))


def play_randomly(record, lang: str, seed: int):
    """Random moves until the end: returns the final state and how many refused moves were checked."""
    rng = np.random.default_rng(seed)
    module = harness(record.to_dict()["game"])
    weight = getattr(module, "action_weight", lambda action: 1.0)
    state = record.replay()
    refused = 0
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            break
        legal = list(state.legal_actions())
        # half the moves from the legal ones, half from the open-ended candidates (probes included)
        pool = legal if legal and rng.random() < 0.5 else module.open_actions(state, rng, lang) or legal
        weights = np.array([weight(a) for a in pool], dtype=float)
        pick = pool[int(rng.choice(len(pool), p=weights / weights.sum()))]
        before = snapshot(state)
        try:
            state.apply(pick)
        except IllegalAction as exc:
            assert pick not in legal, f"{pick} is in legal_actions but was refused: {exc}"
            refused += 1
            assert snapshot(state) == before, f"{pick} was refused but changed the state"
            assert exc.rule.split(".")[0] in RULE_SECTIONS and exc.rule in RULE_SECTIONS | {exc.rule.split(".")[0]}, \
                f"refusal cites RULES {exc.rule}, not a section of docs/rules.md"
            assert exc.message and "\n" not in exc.message
            continue
        # legal_actions lists every move of the kinds it lists (open-ended ones, clues, are never listed)
        assert pick in legal or type(pick) not in {type(a) for a in legal}, \
            f"{pick} was accepted but legal_actions does not list it"
        record.actions.append(pick)
    return state, refused


@pytest.mark.parametrize("name,lang,variant", CASES)
def test_random_play_ends_and_refusals_change_nothing(name, lang, variant):
    refusals = 0
    for seed in (1, 2, 3):
        record = deal(name, lang, variant, seed)
        state, refused = play_randomly(record, lang, seed)
        refusals += refused
        assert isinstance(state, GameState)
        assert state.is_terminal(), f"no end after {MAX_STEPS} random moves"
        outcome = state.outcome()
        assert isinstance(outcome, Outcome) and outcome.status in STATUSES and outcome.status != "playing"
        assert state.to_act() == () and state.legal_actions() == []
    assert refusals > 0, "the random player never probed an illegal move"


@pytest.mark.parametrize("name,lang,variant", CASES)
def test_played_records_round_trip_and_replay_to_equal_states(name, lang, variant):
    record = deal(name, lang, variant, 5)
    state, _ = play_randomly(record, lang, 5)
    text = record_to_json(record)
    again = record_from_dict(json.loads(text))
    assert record_to_json(again) == text
    assert snapshot(again.replay()) == snapshot(state)
    summary = replay_summary(again)
    assert summary["game"] == name and summary["status"]
    for seat in state.seats:  # observations of a replayed game equal the live game's
        assert again.replay().observe(seat) == state.observe(seat)


@pytest.mark.parametrize("name,lang,variant", CASES)
def test_same_seed_same_bytes(name, lang, variant):
    first = [record_to_json(deal(name, lang, variant, s)) for s in range(4)]
    assert first == [record_to_json(deal(name, lang, variant, s)) for s in range(4)]
    assert len(set(first)) == 4
    record_a, record_b = deal(name, lang, variant, 9), deal(name, lang, variant, 9)
    assert snapshot(play_randomly(record_a, lang, 3)[0]) == snapshot(play_randomly(record_b, lang, 3)[0])
    assert record_to_json(record_a) == record_to_json(record_b)


@pytest.mark.parametrize("name,lang,variant", CASES)
def test_secrets_a_seat_may_not_see_do_not_reach_its_observation(name, lang, variant):
    rng = np.random.default_rng(11)
    data = deal(name, lang, variant, 13).to_dict()
    state = record_from_dict(data).replay()
    checked = 0
    for seat in state.seats:
        for other in harness(name).hidden_variants(data, seat, rng):
            twin = record_from_dict(other).replay()
            assert snapshot(twin) != snapshot(state)
            assert twin.observe(seat) == state.observe(seat), f"{seat} can tell the variants apart"
            checked += 1
    assert checked > 0


def test_every_registered_game_has_a_reference_record():
    games = {json.loads(p.read_text(encoding="utf-8"))["game"] for p in REFERENCE.glob("*.json")}
    missing = set(GAMES) - games
    assert not missing, f"no reference record under tests/data/reference for {sorted(missing)}"


def test_the_registry_is_what_every_dispatch_reads():
    from agents.observations import observation_types

    for name, spec in GAMES.items():
        module = harness(name)
        for attr in ("deal_record", "simulate", "format_summary", "open_actions", "hidden_variants",
                     "DEAL_OPTIONS", "SIMULATE_OPTIONS", "PLAYABLE"):
            assert hasattr(module, attr), f"{spec.harness} lacks {attr}"
        record = deal(name, spec.languages[0], spec.variants[0], 0)
        obs = record.replay().observe(record.replay().seats[0])
        assert isinstance(obs, spec.observation_type())
    assert set(observation_types()) <= {spec.observation_type() for spec in GAMES.values()}


def _mutate_all(obj, seen: set) -> None:
    """Try to change everything reachable from an observation: set every field of a dataclass (a frozen
    one raises), change every list, dict and set in place."""
    if id(obj) in seen or isinstance(obj, (str, bytes, int, float, type(None))):
        return
    seen.add(id(obj))
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            _mutate_all(getattr(obj, f.name), seen)
            try:
                setattr(obj, f.name, None)
            except (AttributeError, TypeError):   # dataclasses.FrozenInstanceError is an AttributeError
                pass
    elif isinstance(obj, (list, tuple, frozenset, set)):
        for v in list(obj):
            _mutate_all(v, seen)
        if isinstance(obj, list):
            obj.append(None)
            obj.reverse()
        elif isinstance(obj, set):
            obj.add("?")
    elif isinstance(obj, dict):
        for v in list(obj.values()):
            _mutate_all(v, seen)
        obj["?"] = None
    elif isinstance(obj, np.ndarray) and obj.flags.writeable:
        obj[...] = 0


def _walk(name: str, lang: str, variant: dict, seed: int, steps: int = 400):
    """The states of one game played by random legal moves (open-ended ones where none is listed)."""
    module = harness(name)
    weight = getattr(module, "action_weight", lambda action: 1.0)
    rng = np.random.default_rng(seed)
    state = deal(name, lang, variant, seed).replay()
    for _ in range(steps):
        yield state
        if state.is_terminal():
            return
        legal = state.legal_actions()
        pool = legal if legal and rng.random() < 0.6 else (module.open_actions(state, rng, lang) or legal)
        weights = np.array([weight(a) for a in pool], dtype=float)
        for i in rng.choice(len(pool), size=len(pool), replace=False, p=weights / weights.sum()):
            try:
                state.apply(pool[int(i)])
                break
            except IllegalAction:
                continue
        else:
            state.apply(legal[0])


@pytest.mark.parametrize("name,lang,variant", CASES)
def test_observations_are_frozen_or_share_nothing_with_the_state(name, lang, variant):
    """An agent holds its observation: whatever it changes in it (a field, a list or dict inside) raises
    or reaches neither the state nor the next observation of any seat."""
    for n, state in enumerate(state for seed in range(4) for state in _walk(name, lang, variant, seed)):
        if n % 2:
            continue
        for seat in state.seats:
            before, obs = snapshot(state), state.observe(seat)
            reference = copy.deepcopy(obs)
            _mutate_all(obs, set())
            assert snapshot(state) == before, f"changing {seat}'s observation changed the state"
            assert state.observe(seat) == reference, f"changing {seat}'s observation changed the next one"


@pytest.mark.parametrize("name,lang,variant", CASES)
def test_every_listed_action_is_accepted_and_no_other_of_its_kind(name, lang, variant):
    """`legal_actions` is exactly the accepted set of its kinds, in every state of a played game: each
    listed move is accepted (on a copy), and an open-ended candidate of a listed kind that is not
    listed is refused."""
    rng = np.random.default_rng(3)
    module = harness(name)
    for state in (state for seed in range(4) for state in _walk(name, lang, variant, seed)):
        legal = state.legal_actions()
        for action in legal:
            copy.deepcopy(state).apply(action)   # raises IllegalAction if a listed move is refused
        kinds = {type(a) for a in legal}
        for action in module.open_actions(state, rng, lang):
            if type(action) in kinds and action not in legal:
                with pytest.raises(IllegalAction):
                    copy.deepcopy(state).apply(action)


@pytest.mark.parametrize("name,lang,variant", CASES)
def test_secrets_stay_hidden_in_every_state_of_a_played_game(name, lang, variant):
    """Not only at the deal: after any number of moves of a played game, two records that differ only in
    what a seat may not see (the harness's hidden_variants, which keeps what the moves so far showed)
    give that seat equal observations. A twin in which the same moves are not all legal (a clue refused
    for the other word it would hold) shows nothing and is skipped."""
    rng = np.random.default_rng(17)
    checked = 0
    for seed in (5, 6):
        record = deal(name, lang, variant, seed)
        play_randomly(record, lang, seed)
        data = json.loads(record_to_json(record))
        moves = len(data["actions"])
        for k in sorted({0, 1, moves // 3, 2 * moves // 3, max(moves - 1, 0), moves}):
            part = {**data, "actions": data["actions"][:k]}
            state = record_from_dict(part).replay()
            for seat in state.seats:
                for other in harness(name).hidden_variants(part, seat, rng):
                    try:
                        twin = record_from_dict(other).replay()
                    except IllegalAction:
                        continue
                    assert twin.observe(seat) == state.observe(seat), f"{seat} can tell the variants apart after {k} moves"
                    checked += 1
    assert checked > 0
