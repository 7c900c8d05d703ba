"""Agents see observations only: no key of another seat, and never a game state (RULES 3.1, 3.12)."""

from __future__ import annotations

import dataclasses

import pytest

from agents.guessers import DuetBayesGuesser, MemoryGuesser, NearestGuesser, RandomGuesser
from agents.spec import parse_spec
from agents.spymasters import ExpectedValueSpymaster, Kim2019Spymaster, MarginSpymaster
from agents.spymasters.robust import RobustSpymaster
from engine.actions import Clue
from engine.duet import DuetKey, DuetState
from tests.agents.test_spymasters import BOARD, VOCAB, key_for_board, make_emb

SPYMASTERS = [(Kim2019Spymaster, "kim2019:fake"), (MarginSpymaster, "margin:fake"),
              (ExpectedValueSpymaster, "expected:fake"), (RobustSpymaster, "robust:fake")]
GUESSERS = [(NearestGuesser, "nearest:fake"), (MemoryGuesser, "memory:fake"),
            (DuetBayesGuesser, "duet-bayes:fake"), (RandomGuesser, "random")]


def make_spymaster(cls, spec):
    return cls(parse_spec(spec), "en", vocabulary=VOCAB, embeddings={"fake": make_emb()})


def make_guesser(cls, spec):
    g = cls(parse_spec(spec), "en", embeddings={"fake": make_emb()})
    g.begin_game(0)
    return g


def test_a_duet_observation_carries_only_its_own_side():
    s = DuetState(BOARD, key_for_board())
    for seat, other in (("A", "b"), ("B", "a")):
        obs = s.observe(seat)
        assert obs.own_key == getattr(s.key, seat.lower())
        values = [getattr(obs, f.name) for f in dataclasses.fields(obs)]
        assert getattr(s.key, other) not in values
        assert not any(isinstance(v, (DuetKey, DuetState)) for v in values)
        assert "key" not in {f.name for f in dataclasses.fields(obs)}


@pytest.mark.parametrize("cls,spec", SPYMASTERS)
def test_a_spymaster_refuses_a_game_state(cls, spec):
    with pytest.raises(TypeError, match="observation"):
        make_spymaster(cls, spec).give_clue(DuetState(BOARD, key_for_board()))


@pytest.mark.parametrize("cls,spec", GUESSERS)
def test_a_guesser_refuses_a_game_state(cls, spec):
    s = DuetState(BOARD, key_for_board())
    s.apply(Clue("A", "sea", 1))
    with pytest.raises(TypeError, match="observation"):
        make_guesser(cls, spec).next_guess(s)


def _same_a_side_other_b_side() -> tuple[DuetKey, DuetKey]:
    """Two valid keys with the same side A and different sides B (RULES 3.2)."""
    base = key_for_board()
    b = list(base.b)
    # swap two B cells whose A cells are the same letter: the pair counts stay valid
    pairs = [(i, j) for i in range(25) for j in range(i + 1, 25)
             if base.a[i] == base.a[j] and b[i] != b[j]]
    i, j = pairs[0]
    b[i], b[j] = b[j], b[i]
    return base, DuetKey(base.a, "".join(b))


@pytest.mark.parametrize("cls,spec", SPYMASTERS)
def test_a_spymaster_cannot_depend_on_the_partner_side(cls, spec):
    k1, k2 = _same_a_side_other_b_side()
    assert k1.a == k2.a and k1.b != k2.b
    d1 = make_spymaster(cls, spec).give_clue(DuetState(BOARD, k1).observe("A"))
    d2 = make_spymaster(cls, spec).give_clue(DuetState(BOARD, k2).observe("A"))
    assert (d1.word, d1.number, d1.targets) == (d2.word, d2.number, d2.targets)


@pytest.mark.parametrize("cls,spec", GUESSERS)
def test_a_guesser_cannot_depend_on_the_clue_giver_side(cls, spec):
    # the guesser B is judged by A's side; changing what B cannot see (side A) changes nothing
    base = key_for_board()
    a = list(base.a)
    pairs = [(i, j) for i in range(25) for j in range(i + 1, 25) if base.b[i] == base.b[j] and a[i] != a[j]]
    i, j = pairs[0]
    a[i], a[j] = a[j], a[i]
    k2 = DuetKey("".join(a), base.b)
    out = []
    for key in (base, k2):
        s = DuetState(BOARD, key)
        s.apply(Clue("A", "sea", 2))
        out.append(make_guesser(cls, spec).next_guess(s.observe("B")))
    assert out[0] == out[1]


def test_codenames_guessers_get_no_key():
    codenames = pytest.importorskip("engine.codenames")
    rec = codenames.deal_codenames(3, [f"w{i}" for i in range(40)])
    state = rec.new_state() if hasattr(rec, "new_state") else None
    if state is None:
        pytest.skip("Codenames engine has no new_state yet")
    seats = [s for s in codenames.SEATS if "guess" in s or "operative" in s]
    for seat in seats:
        assert state.observe(seat).key is None
