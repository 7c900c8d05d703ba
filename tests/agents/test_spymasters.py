"""Spymasters on small hand-made boards with the fake backend (RULES 3, 4)."""

from __future__ import annotations

import numpy as np
import pytest

from agents.base import ClueDecision
from agents.clue_problem import duet_problem, legal_mask
from agents.embeddings import FakeEmbeddings
from agents.spec import parse_spec
from agents.spymasters import ExpectedValueSpymaster, Kim2019Spymaster, MarginSpymaster
from engine.actions import Clue, Guess, Stop
from engine.clues import ClueFilter
from engine.duet import DuetKey, DuetState

DIM = 64


def vec(**axes: float) -> list[float]:
    """A hand-set vector: vec(a0=1, a1=.8) puts weight on axes 0 and 1."""
    v = [0.0] * DIM
    for name, x in axes.items():
        v[int(name[1:])] = x
    return v


# Board: side A's greens include ocean, water, wave (a "sea" topic) and pencil, book (school);
# fire is black on side A (the partner's guess on A's clue would lose). Other cards are random.
BOARD = ["ocean", "water", "wave", "pencil", "book", "fire"] + [f"card{i:02d}" for i in range(19)]
HAND = {
    "ocean": vec(a0=1, a10=.2), "water": vec(a0=1, a11=.2), "wave": vec(a0=1, a12=.25),
    "pencil": vec(a2=1, a14=.2), "book": vec(a2=1, a15=.2), "fire": vec(a1=1, a13=.2),
    # candidate clues
    "steam": vec(a0=1, a1=1.05),      # near the sea cards, and a bit nearer the assassin fire
    "sea": vec(a0=.6, a20=.8),        # near the sea cards only
    "oceans": vec(a0=1, a10=.2),      # the best possible clue, but RULES 4.3 forbids it
    "school": vec(a2=.6, a21=.8),
}
VOCAB = ["steam", "oceans", "sea", "school", "zebra", "quartz", "violin", "tundra", "pepper"]


def make_emb() -> FakeEmbeddings:
    return FakeEmbeddings(dim=DIM, vectors=HAND, seed=7)


def key_for_board() -> DuetKey:
    # side A: G on cells 0..4 (+ 4 more), X on cell 5; side B arbitrary but RULES 3.2-valid
    from tests.conftest import make_key

    cells = {0: ("G", "N"), 1: ("G", "N"), 2: ("G", "G"), 3: ("G", "N"), 4: ("G", "G"), 5: ("X", "N")}
    return make_key(cells)


def state() -> DuetState:
    return DuetState(BOARD, key_for_board())


def spymaster(cls, spec: str, emb=None):
    return cls(parse_spec(spec), "en", vocabulary=VOCAB, frequencies=np.linspace(1e-3, 1e-5, len(VOCAB)),
               embeddings={"fake": emb or make_emb()})


ALL = [(Kim2019Spymaster, "kim2019:fake"), (MarginSpymaster, "margin:fake"),
       (ExpectedValueSpymaster, "expected:fake?temp=0.05")]


@pytest.mark.parametrize("cls,spec", ALL)
def test_avoids_the_assassin_and_refused_clues(cls, spec):
    d = spymaster(cls, spec).give_clue(state().observe("A"))
    assert isinstance(d, ClueDecision)
    assert d.word not in ("steam", "oceans")  # steam is as near fire as the sea; oceans is illegal
    assert d.word in ("sea", "school")
    assert d.number >= 1 and set(d.targets) <= {"ocean", "water", "wave", "pencil", "book"}


@pytest.mark.parametrize("cls,spec", ALL)
def test_sea_clue_targets_the_sea_cards(cls, spec):
    d = spymaster(cls, spec).give_clue(state().observe("A"))
    if d.word == "sea":
        assert set(d.targets) <= {"ocean", "water", "wave"} and d.number == len(d.targets)


@pytest.mark.parametrize("typed", [str, str.upper], ids=["as-given", "upper-case"])
@pytest.mark.parametrize("cls,spec", ALL)
def test_never_repeats_a_clue_and_every_clue_is_legal(cls, spec, typed):
    """A clue given before is no candidate, however it was typed: the record keeps 'SEA' as typed (a
    person at the table, the web page), which did not exclude the candidate 'sea'."""
    s = state()
    agent = spymaster(cls, spec)
    given = []
    for _ in range(3):
        obs = s.observe("A")
        d = agent.give_clue(obs)
        assert ClueFilter(board=BOARD, language="en", covered=[]).check(d.word, d.number).legal
        assert d.word not in given
        given.append(d.word)
        # pretend the turn went by: A's clue, B hits a green, B gives a clue, A guesses a bystander
        s.apply(Clue("A", typed(d.word), d.number))
        s.apply(Guess("B", next(w for i, w in enumerate(BOARD) if s.key.a[i] == "N" and s.key.b[i] != "X"
                                 and "B" not in s.marks[i])))
        if s.phase == "clue":
            s.apply(Clue("B", "zebra", 1))
            a_target = next(i for i, c in enumerate(s.key.a) if c == "N" and s.key.b[i] == "N" and "A" not in s.marks[i])
            s.apply(Guess("A", BOARD[a_target]))


def test_legal_mask_uses_the_clue_filter():
    mask = legal_mask(VOCAB, BOARD, [], "en")
    assert not mask[VOCAB.index("oceans")] and mask[VOCAB.index("sea")]


def test_duet_problem_reads_the_seat_side_only():
    s = state()
    p = duet_problem(s.observe("A"))
    assert p.targets.sum() == 9 and p.assassin.sum() == 3
    assert p.targets[:5].all() and p.assassin[5]
    assert p.avoid[p.assassin].min() > p.avoid[~p.targets & ~p.assassin & p.guessable].max() > 0


def test_kim2019_threshold_changes_the_group_size():
    strict = spymaster(Kim2019Spymaster, "kim2019:fake?threshold=0.3").give_clue(state().observe("A"))
    loose = spymaster(Kim2019Spymaster, "kim2019:fake?threshold=0.7").give_clue(state().observe("A"))
    assert strict.number <= loose.number


def test_multi_backend_restricts_candidates_to_common_words():
    a = make_emb()
    hand = {w: v for w, v in HAND.items() if w not in ("oceans", "school")}
    b = FakeEmbeddings(dim=DIM, vectors=hand, seed=8, vocabulary=set(BOARD) | {"sea", "steam", "zebra"}, name="fake2")
    sm = ExpectedValueSpymaster(parse_spec("expected:fake+fake2?temp=0.05"), "en", vocabulary=VOCAB,
                                embeddings={"fake": a, "fake2": b})
    d = sm.give_clue(state().observe("A"))
    assert set(sm.pool.words) == {"sea", "steam", "zebra"}
    assert d.word == "sea" and len(d.details["per_backend"]) == 2


def test_unknown_parameter_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown parameter"):
        spymaster(MarginSpymaster, "margin:fake?treshold=0.3")


def test_registry_builds_every_spymaster():
    from agents.registry import make_spymaster

    for name in ("kim2019", "margin", "expected"):
        assert make_spymaster(f"{name}:fake?vocab=50").spec.startswith(name)


@pytest.mark.parametrize("index", [4, 117, 191, 289])
def test_random_spymaster_clues_pass_the_clue_filter(index):
    """Audit 3: `random` drew any common word not on the board, so positions (BOTTOM, NEAR, CENTRE),
    forms of a visible word (FACING with FACE, DRIVING with DRIVER) and spelled abbreviations (NFL)
    went out as clues (13 of 300 `cnlab simulate codenames --seed 7 --variant two_player` games).
    Every clue of these games (the run's own deals) must pass the filter on the words then visible."""
    from agents.registry import make_guesser, make_spymaster
    from engine.codenames.state import SEATS
    from experiments.games.codenames.dealing import deal_record
    from experiments.games.codenames.loop import play_codenames
    from experiments.runs.seeds import deal_seed

    seed, variant = 7, "two_player"
    spymaster, guesser = make_spymaster("random", "en"), make_guesser("random", "en")
    agents = {s: spymaster if s.endswith("spymaster") else guesser for s in SEATS}
    record = play_codenames(deal_record(deal_seed(seed, index), lang="en", variant=variant), agents,
                            seed=(seed, index))
    state = record.new_state()
    for action in record.actions:
        if isinstance(action, Clue):
            verdict = ClueFilter(board=state.visible_words(), language="en",
                                 covered=state.covered_words()).check(action.word, action.number)
            assert verdict.legal, (action, verdict.message)
        state.apply(action)


def pictures_with_red_agents_all_found():
    """A Pictures assassin-ending game (RULES 2.3) where red has found every agent, on red's clue."""
    from engine.codenames import CodenamesConfig, CodenamesKey, CodenamesState

    words = ["shark", "ocean", "water", "wave", "pencil", "book"] + [f"pic{i:02d}" for i in range(14)]
    key = CodenamesKey("XBBBBB" + "R" * 8 + "NNNN" + "BB", "red")
    s = CodenamesState(words, key, CodenamesConfig(game="pictures", variant="assassin_ending"))
    reds = [w for w, c in zip(words, key.letters) if c == "R"]
    s.apply(Clue("red-spymaster", "zebra", 8))
    for w in reds:
        s.apply(Guess("red-guesser", w))
    s.apply(Stop("red-guesser"))     # the game goes on until the assassin is found
    s.apply(Clue("blue-spymaster", "quartz", 1))
    s.apply(Guess("blue-guesser", "pic10"))   # a bystander: red's turn again
    assert s.agents_left("red") == 0 and s.to_act() == ("red-spymaster",) and not s.is_terminal()
    return s


@pytest.mark.parametrize("cls,spec", ALL)
def test_an_assassin_ending_team_with_its_agents_found_clues_the_assassin(cls, spec):
    """RULES 2.3: a team that has found all its agents and then touches the assassin wins; it can win
    no other way. The spymasters' clue problem kept the assassin as the card to avoid most and had no
    target left, so give_clue fell back to 'nothing to point at': a clue of 0 for no card, which the
    guessers read as 'not these cards' and steered away from the assassin (the opponent, not the
    finished team, won most such games). Now the assassin is that team's one target."""
    emb_vectors = dict(HAND, shark=vec(a5=1, a16=.2), fin=vec(a5=1, a22=.3))
    emb = FakeEmbeddings(dim=DIM, vectors=emb_vectors, seed=7)
    sm = cls(parse_spec(spec), "en", vocabulary=VOCAB + ["fin"], frequencies=np.linspace(1e-3, 1e-5, len(VOCAB) + 1),
             embeddings={"fake": emb})
    d = sm.give_clue(pictures_with_red_agents_all_found().observe("red-spymaster"))
    assert d.targets == ("shark",) and d.number == 1 and d.word == "fin"
