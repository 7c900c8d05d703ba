"""Guessers on small hand-made boards with the fake backend (RULES 3.5-3.9)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.guessers import DuetBayesGuesser, MemoryGuesser, NearestGuesser, RandomGuesser
from agents.guessers.base import GuessView as GuessViewFor, may_hold_back
from agents.embeddings import Embeddings
from agents.partner_model import duet_partner_prior, temperature_for
from agents.spec import parse_spec
from engine.actions import Clue, Guess, Stop
from engine.duet import DuetConfig, DuetState
from tests.agents.test_spymasters import BOARD, HAND, key_for_board, vec
from tests.conftest import make_key

EXTRA = dict(HAND, surf=vec(a12=1, a0=.3))


def guesser(cls, spec: str, seed=0):
    from agents.embeddings import FakeEmbeddings

    g = cls(parse_spec(spec), "en", embeddings={"fake": FakeEmbeddings(dim=64, vectors=EXTRA, seed=7)})
    g.begin_game([seed, 1, 1])
    return g


def play(state, g, seat="B", limit=10):
    """Let guesser `g` act for `seat` until it stops or the turn ends; returns its guesses."""
    out = []
    while state.phase == "guess" and len(out) < limit:
        w = g.next_guess(state.observe(seat))
        if w is None:
            state.apply(Stop(seat))
            break
        out.append(w)
        state.apply(Guess(seat, w))
    return out


def test_nearest_guesses_the_most_similar_and_stops_after_the_number():
    s = DuetState(BOARD, key_for_board())
    s.apply(Clue("A", "sea", 2))
    got = play(s, guesser(NearestGuesser, "nearest:fake"))
    assert got == ["ocean", "water"] and s.phase == "clue"


def test_nearest_stops_below_its_threshold_after_one_correct_guess():
    s = DuetState(BOARD, key_for_board())
    s.apply(Clue("A", "sea", 3))
    g = guesser(NearestGuesser, "nearest:fake?threshold=0.7")
    assert play(s, g) == ["ocean"]  # the first guess is owed (RULES 3.4), then 0.59 < 0.7


def test_noise_is_seeded_and_consistent_within_a_game():
    a = guesser(NearestGuesser, "nearest:fake?noise=0.3", seed=1)
    b = guesser(NearestGuesser, "nearest:fake?noise=0.3", seed=1)
    c = guesser(NearestGuesser, "nearest:fake?noise=0.3", seed=2)
    words = tuple(BOARD)
    sa = a.similarities(words, "sea")
    assert np.array_equal(sa, a.similarities(words, "sea"))
    assert np.array_equal(sa, b.similarities(words, "sea"))
    assert not np.allclose(sa, c.similarities(words, "sea"))
    clean = guesser(NearestGuesser, "nearest:fake").similarities(words, "sea")
    assert 0.15 < np.std(sa - clean) < 0.5
    a.begin_game([1, 1, 1])  # a new game draws the same stream again from the same seed
    assert np.array_equal(sa, a.similarities(words, "sea"))


def test_noise_must_be_a_standard_deviation():
    with pytest.raises(ValueError):
        guesser(NearestGuesser, "nearest:fake?noise=-1")


def test_duet_bayes_takes_a_card_black_on_its_own_side_when_the_clue_points_to_it():
    # wave: green for A, black for B (RULES 3.2: one of B's blacks is green for A)
    key = make_key({0: ("G", "N"), 1: ("G", "N"), 2: ("G", "X"), 3: ("G", "N"), 4: ("G", "G"), 5: ("X", "N")})
    s = DuetState(BOARD, key)
    s.apply(Clue("A", "surf", 1))
    g = guesser(DuetBayesGuesser, "duet-bayes:fake")
    obs = s.observe("B")
    assert obs.own_key[2] == "X"
    assert g.next_guess(obs) == "wave"
    s.apply(Guess("B", "wave"))
    assert s.green_covered[2]


def test_duet_bayes_reads_the_key_structure():
    key = make_key({0: ("G", "N"), 1: ("G", "N"), 2: ("G", "X"), 3: ("G", "N"), 4: ("G", "G"), 5: ("X", "N")})
    prior = duet_partner_prior(DuetState(BOARD, key).observe("B"))
    side = key.b
    assert np.allclose(prior.sum(axis=1), 1)
    g, x, n = ([prior[i] for i, c in enumerate(side) if c == t][0] for t in "GXN")
    assert g[0] == pytest.approx(3 / 9) and x[0] == pytest.approx(1 / 3) and n[0] == pytest.approx(5 / 13)
    assert x[1] > g[1] > n[1]  # a card black on my side is the likeliest partner assassin


def test_memory_returns_to_an_unresolved_earlier_clue():
    s = DuetState(BOARD, key_for_board())
    s.apply(Clue("A", "sea", 2))
    s.apply(Guess("B", "ocean"))
    s.apply(Stop("B"))                      # one target of "sea" left unresolved
    s.apply(Clue("B", "zebra", 1))
    s.apply(Guess("A", "book"))             # green on B's side (cell 4 is G/G)
    s.apply(Stop("A"))
    s.apply(Clue("A", "school", 1))
    mem = guesser(MemoryGuesser, "memory:fake?spare_confidence=0.4")
    near = guesser(NearestGuesser, "nearest:fake")
    assert mem.next_guess(s.observe("B")) == "pencil"
    s.apply(Guess("B", "pencil"))
    assert near.next_guess(s.observe("B")) is None
    assert mem.next_guess(s.observe("B")) in ("water", "wave")


# "sea 2" found one of its targets, then "drip 1", a hair nearer card07 than water; water (cell 1)
# and card07 (cell 7) are both beige on B's own side, so the key prior is level between them
DRIP = dict(EXTRA, card07=vec(a30=1), drip=vec(a0=.5, a11=.1, a30=.53))


def sea_then_drip() -> DuetState:
    key = make_key({0: ("G", "N"), 1: ("G", "N"), 2: ("G", "G"), 3: ("G", "N"), 4: ("G", "G"),
                    5: ("X", "N"), 7: ("N", "N")})
    s = DuetState(BOARD, key)
    s.apply(Clue("A", "sea", 2))
    s.apply(Guess("B", "ocean"))
    s.apply(Stop("B"))                      # water or wave: one target of "sea" left
    s.apply(Clue("B", "zebra", 1))
    s.apply(Guess("A", "book"))             # green on B's side
    s.apply(Stop("A"))
    s.apply(Clue("A", "drip", 1))
    return s


def drip_guesser(spec: str) -> DuetBayesGuesser:
    from agents.embeddings import FakeEmbeddings

    g = DuetBayesGuesser(parse_spec(spec), "en", embeddings={"fake": FakeEmbeddings(dim=64, vectors=DRIP, seed=7)})
    g.begin_game([0, 1, 1])
    return g


def test_duet_bayes_recalls_an_unresolved_earlier_clue_when_reading_a_new_one():
    """`recall`: a card that an unresolved earlier clue also points at is green for that reason
    too, so of two cards the new clue reads almost alike it goes first (Duet: any green of the
    giver counts); `recall=0` reads the new clue alone and takes the bystander it is a hair nearer."""
    obs = sea_then_drip().observe("B")
    assert obs.own_key[1] == obs.own_key[7] == "N"
    assert drip_guesser("duet-bayes:fake?hub=0&recall=0").next_guess(obs) == "card07"
    assert drip_guesser("duet-bayes:fake?hub=0").next_guess(obs) == "water"
    assert drip_guesser("duet-bayes:fake").next_guess(obs) == "water"


def test_a_green_found_through_an_earlier_clue_resolves_that_clue():
    """The memory's bookkeeping: a green found on a later clue's turn that an earlier clue points
    at more strongly is that clue's target found, so the earlier clue is resolved (its chances no
    longer pull toward the card it did not mean) and the clue on the table stays open."""
    s = sea_then_drip()
    s.apply(Guess("B", "water"))            # green: "sea" points at water more than "drip" does
    g = drip_guesser("duet-bayes:fake?hub=0")
    view = GuessViewFor(s.observe("B"))
    assert [f for _, _, f in view.turn_finds()] == [[0], [1]]
    words = view.words
    old = g.target_chances(view, include_current=False)
    assert old[words.index("wave")] == 0           # "sea" is resolved: no pull toward wave
    now = g.target_chances(view)
    assert now[words.index("card07")] > 0.3        # "drip" is still open, and card07 is its likeliest target


def test_sudden_death_holds_back_unless_confident():
    s = DuetState(BOARD, key_for_board(), DuetConfig(timer_tokens=1))
    s.apply(Clue("A", "sea", 2))
    beige = next(w for i, w in enumerate(BOARD) if i > 5 and s.key.a[i] == "N")
    s.apply(Guess("B", beige))           # a bystander uses the last token: sudden death (RULES 3.9)
    assert s.phase == "sudden_death" and set(s.guessers()) == {"A", "B"}
    shy = guesser(NearestGuesser, "nearest:fake?sd_confidence=0.99")
    bold = guesser(NearestGuesser, "nearest:fake?sd_confidence=0.2")
    # both seats have all their greens left: neither may wait (if both waited the game is lost)
    assert not may_hold_back(s.observe("A")) and not may_hold_back(s.observe("B"))
    assert shy.next_guess(s.observe("B")) is not None
    assert bold.next_guess(s.observe("B")) in ("ocean", "water", "wave")
    # once most of A's greens are found, A (who has more left to find than B) waits for B
    only_a = [i for i in range(25) if s.key.a[i] == "G" and s.key.b[i] != "G"][:6]
    views = {seat: dataclasses.replace(s.observe(seat), greens_found=6,
                                       green_covered=tuple(i in only_a for i in range(25))) for seat in "AB"}
    assert may_hold_back(views["A"]) and not may_hold_back(views["B"])
    assert shy.next_guess(views["A"]) is None and shy.next_guess(views["B"]) is not None


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 14))
def test_sudden_death_never_both_seats_wait(seed, found):
    """RULES 3.9: whatever the key and the greens found, at most one seat may hold back."""
    import numpy as np

    from engine.duet import generate_key

    key = generate_key(np.random.default_rng(seed))
    s = DuetState(BOARD, key, DuetConfig(timer_tokens=1))
    greens = [i for i in range(25) if key.a[i] == "G" or key.b[i] == "G"]
    covered = set(np.random.default_rng(seed + 1).choice(greens, size=min(found, len(greens) - 1), replace=False))
    obs = {seat: s.observe(seat) for seat in "AB"}
    obs = {seat: dataclasses.replace(o, green_covered=tuple(i in covered for i in range(25)),
                                     greens_found=len(covered), to_act=("A", "B"))
           for seat, o in obs.items()}
    assert not (may_hold_back(obs["A"]) and may_hold_back(obs["B"]))


def test_random_guesser_is_seeded_and_stops_after_the_number():
    picks = []
    for _ in range(2):
        s = DuetState(BOARD, key_for_board())
        s.apply(Clue("A", "sea", 1))
        g = RandomGuesser(parse_spec("random"), "en")
        g.begin_game(5)
        picks.append(play(s, g))
    assert picks[0] == picks[1] and 1 <= len(picks[0]) <= 1


def test_registry_builds_every_guesser():
    from agents.registry import make_guesser

    for spec in ("nearest:fake", "memory:fake?noise=0.1", "duet-bayes:fake", "random"):
        assert make_guesser(spec).next_guess is not None


def test_duet_bayes_stops_when_unsure_after_a_correct_guess():
    """`unsure`: after a correct guess, stop rather than touch a card it doubts (the assassin costs the game)."""
    def after_one(spec):
        s = DuetState(BOARD, key_for_board())
        s.apply(Clue("A", "sea", 3))
        s.apply(Guess("B", "ocean"))
        return guesser(DuetBayesGuesser, spec).next_guess(s.observe("B"))

    assert after_one("duet-bayes:fake") in ("water", "wave")
    assert after_one("duet-bayes:fake?unsure=0.999") is None


def test_on_the_last_clue_it_receives_the_guesser_guesses_on_past_the_number():
    """`last`: in the base game a beige ends the turn for one token, as a stop does (RULES 3.5, 3.6),
    and once no clue is to come what is left goes to sudden death, where a beige loses (RULES 3.9).
    So on the last clue its partner gives it, the guesser guesses on past the number (the card
    sudden death would take first); with a clue still to come (and `beyond=0`, which weighs going on
    there), with `last=1`, or when a beige costs more than a stop (a mission's check-side tokens,
    RULES 3.10), it stops there."""
    def after_number(config, spec="duet-bayes:fake"):
        s = DuetState(BOARD, key_for_board(), config)
        s.apply(Clue("A", "sea", 1))
        s.apply(Guess("B", "ocean"))
        return guesser(DuetBayesGuesser, spec).next_guess(s.observe("B"))

    # two tokens: B's own clue and then sudden death follow this one
    assert after_number(DuetConfig(timer_tokens=2)) is not None
    assert after_number(DuetConfig(timer_tokens=2), "duet-bayes:fake?last=1") is None
    assert after_number(DuetConfig(timer_tokens=3), "duet-bayes:fake?beyond=0") is None   # A clues again after B
    assert after_number(DuetConfig(timer_tokens=2, mistakes=1)) is None


def test_past_the_number_it_guesses_on_while_a_green_is_worth_the_risk():
    """`beyond`: in the base game a beige ends the turn for the token a stop takes (RULES 3.6) and
    the assassin loses (3.5), so past the number the guesser weighs a green's worth against the
    assassin's cost at the game's state: with few tokens for the greens left it goes on even on a
    weak card, with many only on a near-sure one; `beyond=0` stops at the number, as before."""
    s = DuetState(BOARD, key_for_board(), DuetConfig(timer_tokens=9))
    s.apply(Clue("A", "sea", 3))          # B finds one of the three sea cards and stops
    s.apply(Guess("B", "ocean"))
    s.apply(Stop("B"))
    s.apply(Clue("B", "school", 1))
    s.apply(Guess("A", "book"))
    s.apply(Stop("A"))
    s.apply(Clue("A", "school", 1))
    s.apply(Guess("B", "pencil"))         # the number reached; water and wave are still open
    obs = s.observe("B")
    behind = dataclasses.replace(obs, bystander_tokens=3, greens_found=3)   # 12 greens, 2 tokens after
    ahead = dataclasses.replace(obs, bystander_tokens=7, greens_found=12)   # 3 greens, 6 tokens after
    g = guesser(DuetBayesGuesser, "duet-bayes:fake")
    water = BOARD.index("water")

    def worth(o, chance):
        return g.worth_going_on(GuessViewFor(o), water, chance)

    assert worth(behind, 0.2)
    assert not worth(ahead, 0.2) and not worth(ahead, 0.5) and worth(ahead, 0.8)
    assert not guesser(DuetBayesGuesser, "duet-bayes:fake?beyond=0").worth_going_on(GuessViewFor(behind), water, 0.8)
    # in play (`spare=0`: no return to earlier clues on their own confidence)
    assert guesser(DuetBayesGuesser, "duet-bayes:fake?spare=0").next_guess(behind) in ("water", "wave")
    assert guesser(DuetBayesGuesser, "duet-bayes:fake?spare=0&beyond=0").next_guess(behind) is None
    # the same tokens in a mission, two check side up: a beige takes a mistake a stop would not (3.10)
    mission = dataclasses.replace(behind, bystander_tokens=1, check_tokens=2)
    assert guesser(DuetBayesGuesser, "duet-bayes:fake?spare=0").next_guess(mission) is None


def test_the_last_clue_is_told_by_the_tokens_the_turn_order_and_a_finished_side():
    """RULES 3.4, 3.8: after this turn's token the givers alternate, and a side with no green left
    gives no more clues, so its partner gives every one."""
    from agents.guessers.base import last_clue_for_me

    s = DuetState(BOARD, key_for_board(), DuetConfig(timer_tokens=9))
    s.apply(Clue("A", "sea", 1))
    obs = s.observe("B")
    done = tuple(c == "G" for c in obs.own_key)              # B's own greens all covered

    def last(tokens, covered=obs.green_covered, check=0):
        return last_clue_for_me(dataclasses.replace(obs, bystander_tokens=tokens, check_tokens=check,
                                                    green_covered=covered))

    assert [last(t) for t in (1, 2, 3)] == [True, True, False]   # B clues once more at 2, then A at 3
    assert [last(t, done) for t in (1, 2)] == [True, False]      # B gives no clue: A clues again at 2
    assert not last(0, check=1)           # one check-side token: a beige would need two (RULES 3.10)


def test_hub_reads_a_card_in_its_own_units():
    """`hub`: a card that sits near every word (a hub of this model) needs a clue that singles it
    out; a card the clue alone points at wins over it even at a lower raw cosine."""
    from agents.embeddings import FakeEmbeddings

    e = np.eye(4, dtype=np.float32)
    refs = ["apple", "river", "money", "house", "table", "garden"]
    vectors = {w: e[0] + 0.2 * np.roll(e[2], i) for i, w in enumerate(refs)}
    vectors.update(king=e[0], queen=e[1] + 0.1 * e[3], bread=e[2], night=e[3],
                   crown=0.8 * e[0] + 0.6 * e[1])
    emb = FakeEmbeddings(dim=4, vectors=vectors, vocabulary=list(vectors))
    words = ("king", "queen", "bread", "night")

    def pick(spec):
        g = NearestGuesser(parse_spec(spec), "en", embeddings={"fake": emb})
        g.begin_game([0, 1, 1])
        return words[int(np.argmax(g.similarities(words, "crown")))]

    assert pick("nearest:fake") == "king"          # raw cosine 0.8 against 0.6
    assert pick("nearest:fake?hub=1") == "queen"   # king is near every word; queen only near crown


def test_bayes_guesser_comes_to_read_clues_with_the_model_the_spymaster_thinks_like():
    """`combine=bayes`: my guesses' results on earlier clues say which of my backends reads clues
    like this spymaster; the next clue is read with that backend (the issue's "infer the
    spymaster's model from its earlier clues"), where the plain mean stays undecided."""
    from agents.embeddings import FakeEmbeddings

    key = key_for_board()
    a_bystanders = [BOARD[i] for i in range(6, 25) if key.a[i] == "N"]
    bx, by = a_bystanders[:2]
    e = np.eye(32, dtype=np.float32)
    # fa and fb disagree on both clues; the spymaster (side A) reads like fb
    fa = {"sea": e[0], bx: e[0], "ocean": e[1], "school": e[2], by: e[2], "pencil": e[3]}
    fb = {"sea": e[0], "ocean": e[0], bx: e[1], "school": e[2], "pencil": e[2], by: e[3]}
    backends = {"fa": FakeEmbeddings(dim=32, vectors=fa, seed=1, name="fa"),
                "fb": FakeEmbeddings(dim=32, vectors=fb, seed=1, name="fb")}

    def make(spec):
        g = DuetBayesGuesser(parse_spec(spec), "en", embeddings=backends)
        g.begin_game([0, 1, 1])
        return g

    s = DuetState(BOARD, key)
    s.apply(Clue("A", "sea", 2))
    s.apply(Guess("B", "ocean"))        # fb's reading: the giver's green
    s.apply(Guess("B", bx))             # fa's reading: a bystander, the turn ends
    s.apply(Clue("B", "zebra", 1))
    s.apply(Guess("A", next(BOARD[i] for i in range(6, 25) if key.b[i] == "G")))
    s.apply(Stop("A"))
    s.apply(Clue("A", "school", 1))
    obs = s.observe("B")
    bayes = make("duet-bayes:fa+fb?learn=1")
    weights = bayes.model_weights(GuessViewFor(obs))
    assert weights[1] > 0.9 > weights[0]
    assert bayes.next_guess(obs) == "pencil"
    assert make("duet-bayes:fa").next_guess(obs) == by          # the other reading, alone
    assert make("duet-bayes:fa+fb").model_weights(GuessViewFor(obs))[1] > 0.6   # tempered (learn 0.25)
    assert make("duet-bayes:fa+fb?learn=0").model_weights(GuessViewFor(obs))[1] == pytest.approx(0.5)
    mean = make("duet-bayes:fa+fb?combine=mean").similarities(tuple(obs.words), "school")
    assert mean[BOARD.index("pencil")] == pytest.approx(mean[BOARD.index(by)], abs=0.01)
    with pytest.raises(ValueError, match="combine"):
        make("duet-bayes:fa+fb?combine=max")


def test_a_backend_that_does_not_know_a_clue_is_weighed_by_the_other_clues_only():
    """`model_weights` with a backend that lacks the clue word: that clue's guesses move the others'
    weights exactly as without it, and its own log-likelihood stays where the other clues leave it."""
    from agents.embeddings import FakeEmbeddings

    key = key_for_board()
    bx = [BOARD[i] for i in range(6, 25) if key.a[i] == "N"][0]
    e = np.eye(32, dtype=np.float32)
    backends = {"fa": FakeEmbeddings(dim=32, vectors={"sea": e[0], bx: e[0], "ocean": e[1]}, seed=1, name="fa"),
                "fb": FakeEmbeddings(dim=32, vectors={"sea": e[0], "ocean": e[0], bx: e[1]}, seed=1, name="fb"),
                "fc": FakeEmbeddings(dim=32, vocabulary=BOARD, seed=2, name="fc")}   # knows no clue

    s = DuetState(BOARD, key)
    s.apply(Clue("A", "sea", 2))
    s.apply(Guess("B", "ocean"))
    s.apply(Guess("B", bx))
    s.apply(Clue("B", "zebra", 1))
    s.apply(Guess("A", next(BOARD[i] for i in range(6, 25) if key.b[i] == "G")))
    s.apply(Stop("A"))
    s.apply(Clue("A", "school", 1))
    obs = s.observe("B")

    def weights(spec):
        g = DuetBayesGuesser(parse_spec(spec), "en", embeddings=backends)
        g.begin_game([0, 1, 1])
        return g.model_weights(GuessViewFor(obs))

    three, ab, bc = (weights(f"duet-bayes:{m}?learn=1") for m in ("fa+fb+fc", "fa+fb", "fb+fc"))
    assert three[0] / three[1] == pytest.approx(ab[0] / ab[1])
    assert three[2] / three[1] == pytest.approx(bc[1] / bc[0])
    assert three[1] > three[0]      # the guesses read like fb


class Squeezed(Embeddings):
    """The same model with every cosine squeezed into a narrow band, cos' = (cos + c^2) / (1 + c^2),
    as some encoders' cosines all sit between 0.8 and 0.95."""

    languages = ("en", "ko")

    def __init__(self, inner: Embeddings, c: float = 2.0):
        self.inner, self.c = inner, c
        self.name, self.dim, self.version = "squeezed", inner.dim + 1, f"{inner.version}-sq{c}"
        self.open_vocabulary = inner.open_vocabulary

    def _covers_one(self, word: str) -> bool:
        return self.inner._covers_one(word)

    def _encode(self, words: list[str]) -> np.ndarray:
        v = self.inner.vectors(words)
        return np.hstack([v, np.full((len(v), 1), self.c, np.float32)])


def test_a_model_without_a_fitted_temperature_is_read_at_its_own_spread():
    from agents.embeddings import FakeEmbeddings

    plain = FakeEmbeddings(dim=64, vectors=EXTRA, seed=7, name="plain")
    squeezed = Squeezed(plain)
    a = DuetBayesGuesser(parse_spec("duet-bayes:plain"), "en", embeddings={"plain": plain})
    b = DuetBayesGuesser(parse_spec("duet-bayes:squeezed"), "en", embeddings={"squeezed": squeezed})
    assert b._temps[0] == pytest.approx(a._temps[0] / 5, rel=1e-3)   # cosines squeezed 5-fold
    s = DuetState(BOARD, key_for_board())
    s.apply(Clue("A", "sea", 2))
    view = GuessViewFor(s.observe("B"))
    got = []
    for g in (a, b):
        g.begin_game([0, 1, 1])
        got.append(g.posterior(view, g._evidence(view, "sea"))[0])
    assert np.allclose(got[0], got[1], atol=1e-4)       # the same reading of the clue
    assert got[0].max() > 0.6                            # and a sure one: "sea" points at ocean
    # at the table's one default temperature the squeezed model would hardly read the clue at all
    flat = DuetBayesGuesser(parse_spec(f"duet-bayes:squeezed?temp={temperature_for('no-such-model')}"), "en",
                            embeddings={"squeezed": squeezed})
    flat.begin_game([0, 1, 1])
    assert flat.posterior(view, flat._evidence(view, "sea"))[0].max() < got[0].max() - 0.2


def test_a_fitted_temperature_is_kept_and_an_unfitted_one_follows_the_spread():
    params = {"temperature": {"mine": 0.05, "default": 0.09}, "spread_ratio": 0.8}
    assert temperature_for("mine", params, spread=0.5) == 0.05
    assert temperature_for("yours", params, spread=0.02) == pytest.approx(0.016)
    assert temperature_for("yours", params) == 0.09                                   # no spread known
    assert temperature_for("yours", {"temperature": {"default": 0.09}}, spread=0.02) == 0.09   # no ratio fitted


def test_the_spread_is_read_over_the_cards_a_model_knows():
    from agents.embeddings import FakeEmbeddings
    from agents.partner_model import card_spread, partner_temperature
    from agents.wordlists import board_words, clue_vocabulary

    clues = list(clue_vocabulary("en").words[:3000])
    full = FakeEmbeddings(dim=16, seed=3, vocabulary=list(board_words("en")) + clues, name="full")
    half = FakeEmbeddings(dim=16, seed=3, vocabulary=list(board_words("en"))[:200] + clues, name="half")
    # an unknown card has no cosines to spread: it must not count (as a spread of 1, say)
    assert card_spread(half, "en") == pytest.approx(card_spread(full, "en"), rel=0.1)
    none = FakeEmbeddings(dim=16, seed=3, vocabulary=["zzqa", "zzqb"], name="none")
    assert card_spread(none, "en") is None                          # it knows no card: nothing to say
    assert partner_temperature("none", none, "en") == temperature_for("none")   # the table's default


def test_a_card_the_model_does_not_know_leaves_the_reading_of_the_others_alone():
    """A partner on a closed vocabulary (a user's word2vec file) may lack a card. The board's mean
    spread and mean, which put every card in its own units (`hub`), are over the cards it knows:
    an unknown card (no cosines, a spread of 1 by default) must not sharpen the whole board."""
    from agents.embeddings import FakeEmbeddings
    from agents.wordlists import board_words, clue_vocabulary

    words = tuple(board_words("en")[:25])
    clues = [w for w in clue_vocabulary("en").words[:3000] if w not in words]
    emb = FakeEmbeddings(dim=16, seed=3, vocabulary=list(words[1:]) + clues, name="closed")
    assert not emb.covers([words[0]])[0]
    g = DuetBayesGuesser(parse_spec("duet-bayes:closed"), "en", embeddings={"closed": emb})
    g.begin_game([0, 1, 1])
    clue = clues[0]
    with_unknown = g._rows(words, clue)[0]
    without = g._rows(words[1:], clue)[0]
    assert np.allclose(with_unknown[1:], without, atol=1e-6)


def test_a_clue_the_model_does_not_know_is_read_through_its_parts():
    """A partner on a closed vocabulary reads a clue it lacks through words it has (`backoff_vector`:
    the compound's parts, the word it is derived from), not blind; a word with no such reading stays
    unread (a blind guess)."""
    from agents.embeddings import FakeEmbeddings
    from agents.embeddings.backoff import backoff_readings, backoff_vector

    assert ("score", "board") in backoff_readings("scoreboard", "en")
    assert ("frost",) in backoff_readings("frosty", "en") and backoff_readings("눈사람", "ko") == []
    cards = ("score", "board", "river", "tiger", "piano", "cloud")
    emb = FakeEmbeddings(dim=64, seed=5, vocabulary=list(cards) + ["frost", "ocean"], name="closed",
                         topics={"score": "game", "board": "game", "frost": "cold", "cloud": "cold"})
    assert not emb.covers(["scoreboard", "frosty", "xyzzy"]).any()
    want = emb.vectors(["score", "board"]).mean(axis=0)
    assert np.allclose(backoff_vector(emb, "scoreboard", "en"), want / np.linalg.norm(want), atol=1e-6)
    g = DuetBayesGuesser(parse_spec("duet-bayes:closed?hub=0"), "en", embeddings={"closed": emb})
    g.begin_game([0, 1, 1])
    row = g._rows(cards, "scoreboard")[0]
    assert row is not None and set(np.argsort(-row)[:2]) == {0, 1}
    assert int(np.argmax(g._rows(cards, "frosty")[0])) == cards.index("cloud")
    assert g._rows(cards, "xyzzy")[0] is None


@pytest.mark.parametrize("cls,spec", [(NearestGuesser, "nearest:fake"), (MemoryGuesser, "memory:fake"),
                                      (DuetBayesGuesser, "duet-bayes:fake")])
def test_a_zero_clue_warns_off_the_cards_it_relates_to(cls, spec):
    """Audit 3: a clue of 0 says "none of ours relates to this" (RULES 1.7; at least one guess still owed). Every
    guesser read 0 as 1 and took the card nearest the clue: STEAM 0, the spymaster warning off the
    assassin FIRE, had the guesser touch FIRE. Nor does a 0 clue leave a target for later turns."""
    from engine.codenames import CodenamesState
    from engine.codenames.key import CodenamesKey

    key = CodenamesKey("NNNRRX" + "R" * 7 + "B" * 8 + "N" * 4, "red")   # fire the assassin, the sea cards bystanders
    s = CodenamesState(BOARD, key)
    s.apply(Clue("red-spymaster", "steam", 0))
    g = guesser(cls, spec)
    obs = s.observe("red-guesser")
    assert guesser(cls, spec).next_guess(obs) not in ("fire", "ocean", "water", "wave")
    assert [n for _, n, _ in GuessViewFor(obs).turn_finds()] == [0]
    s.apply(Guess("red-guesser", "pencil"))
    assert g.next_guess(s.observe("red-guesser")) is None      # one guess owed, nothing left to find


@pytest.mark.parametrize("game", ["duet", "codenames"])
def test_every_guesser_asked_with_no_clue_on_the_table_stops(game):
    """A guesser guesses on a clue (RULES 1.3, 3.5). Asked with none on the table (a seat asked out of
    turn), every similarity guesser said None, but `random` named a card."""
    from agents.registry import make_guesser
    from experiments.games.codenames.dealing import deal_record
    from experiments.games.duet.dealing import deal_duet_record

    state = (deal_duet_record(1, "en") if game == "duet" else deal_record(1, "en")).new_state()
    for spec in ["random", "random?stop=1", "nearest:fake", "memory:fake", "duet-bayes:fake"]:
        guesser = make_guesser(spec, "en")
        guesser.begin_game(3)
        for seat in (["A", "B"] if game == "duet" else ["red-guesser", "blue-guesser"]):
            assert guesser.next_guess(state.observe(seat)) is None, (spec, seat)
