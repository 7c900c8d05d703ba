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


# ----- an attacker's walk over references (docs/isolation.md, part 2) -------------------------------
def _shared_constant(o) -> bool:
    """What one process cannot copy: None, bools, small ints, one-letter strings, empty tuples."""
    return (o is None or isinstance(o, bool) or (type(o) is int and -5 <= o <= 256)
            or (isinstance(o, str) and len(o) <= 1) or (isinstance(o, (tuple, frozenset)) and not o))


def _reachable(obs, depth: int = 12) -> dict:
    import gc
    import types

    stop = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType)
    seen, frontier = {id(obs): obs}, [obs]
    for _ in range(depth):
        nxt = [r for o in frontier for r in gc.get_referents(o) if not isinstance(r, stop)]
        nxt = [seen.setdefault(id(r), r) for r in nxt if id(r) not in seen]
        frontier = nxt
    return seen


def _assert_nothing_leads_to_the_state(obs, state) -> None:
    """From the observation, neither its referents nor the referrers of anything it holds reach the
    state or any object of the state (its key, words, history, roles ...)."""
    import gc
    import types

    seen = _reachable(obs)
    of_state = {id(state), id(vars(state))}
    for value in vars(state).values():
        if not _shared_constant(value):
            of_state.add(id(value))
            of_state.update(id(v) for v in getattr(value, "__dict__", {}).values() if not _shared_constant(v))
    assert not of_state & set(seen), "an observation holds an object of the state"
    held = [o for o in seen.values() if o is not obs and not _shared_constant(o)]
    outside = [r for r in gc.get_referrers(*held)
               if id(r) not in seen and r is not seen and r is not held and not isinstance(r, types.FrameType)]
    assert not outside, f"an object of the observation is also held by {type(outside[0]).__name__}"


def test_no_reference_walk_from_a_duet_observation_reaches_the_state():
    s = DuetState(BOARD, key_for_board())
    s.apply(Clue("A", "sea", 2))
    s.apply(s.legal_actions()[0])
    for seat in "AB":
        _assert_nothing_leads_to_the_state(s.observe(seat), s)


def test_no_reference_walk_from_a_codenames_guesser_reaches_the_key():  # RULES 1.1
    from engine import Guess
    from engine.codenames import CodenamesConfig, CodenamesKey, CodenamesState, card_counts

    for game, size in (("codenames", 25), ("pictures", 20)):
        words = [f"card{i:02d}" for i in range(size)] if game == "codenames" else None
        if words is None:
            from engine.codenames.pictures import load_cards
            words = sorted(load_cards())[:size]
        first, second, bystanders, assassins = card_counts(game, "two_player")
        key = CodenamesKey("R" * first + "B" * second + "N" * bystanders + "X" * assassins, "red")
        s = CodenamesState(words, key, CodenamesConfig(game=game, variant="two_player"))
        s.apply(Clue("red-spymaster", "zebra", 2))
        s.apply(Guess("red-guesser", words[0]))
        for seat in ("red-guesser", "blue-guesser", "red-spymaster"):
            _assert_nothing_leads_to_the_state(s.observe(seat), s)


def test_no_reference_walk_from_a_spyword_screen_reaches_the_roles_or_words():  # RULES 5.1
    from engine.spyword import GiveClue, Ready, SpyWordSettings, SpyWordState

    seats = [f"p{i}" for i in range(1, 7)]
    s = SpyWordState(seats, ["citizen", "citizen", "spy", "ghost", "citizen", "citizen"], "apple", "pear",
                     order=seats, settings=SpyWordSettings(spies=1, ghost=True), seed=0)
    for seat in seats:
        s.apply(Ready(seat))
    s.apply(GiveClue(s.speaker, "orchard"))
    for seat in seats:
        _assert_nothing_leads_to_the_state(s.observe(seat), s)
