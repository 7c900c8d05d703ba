"""Spy's Word bots: observation only, seeded, legal never-repeated clues, self-role inference, the
ghost's guess and the translation check (fake embeddings: no model is loaded)."""

from __future__ import annotations

import numpy as np
import pytest

from agents.embeddings import FakeEmbeddings
from agents.spyword import (RandomSpyWordBot, SpyWordBot, check_spyword_spec, make_spyword_bot, translation_checker,
                            with_translation_check)
from engine.errors import IllegalAction
from engine.spyword import GiveClue, Ready, SpyWordState

SEA = ["wave", "beach", "salt", "shark", "tide", "coral", "sailor", "harbor"]
POND = ["frog", "reed", "duck", "lily", "swamp", "fishing", "canoe", "muddy"]
OTHER = ["pencil", "school", "book", "teacher", "fire", "sun", "desert", "horse", "lion", "table", "chair",
         "guitar", "music", "bread", "cheese", "train", "road", "king", "castle", "cloud"]
TOPICS = {**{w: ["sea", "water"] for w in SEA}, **{w: ["pond", "water"] for w in POND},
          "ocean": ["sea", "water"], "lake": ["pond", "water"]}
VOCAB = SEA + POND + OTHER + ["ocean", "lake"]


@pytest.fixture(scope="module")
def emb():
    return FakeEmbeddings(dim=48, topics=TOPICS, own_weight=0.6, name="fake-sw")


def bot(emb, cls=SpyWordBot, spec="spyword:fake-sw", seed=0):
    b = cls(spec, "en", vocabulary=VOCAB, embeddings={"fake-sw": emb})
    b.begin_game(seed)
    return b


def new_state(roles=None, order=None, spy_word="lake", citizen_word="ocean"):
    seats = [f"p{i}" for i in range(1, 7)]
    roles = roles or {"p1": "spy", "p2": "citizen", "p3": "citizen", "p4": "citizen", "p5": "citizen", "p6": "ghost"}
    state = SpyWordState(seats, roles, citizen_word, spy_word, order or ["p2", "p3", "p4", "p5", "p1", "p6"],
                         clue_filter=False, language="en")
    for s in seats:
        state.apply(Ready(s))
    return state


def give(state, *clues):
    for text in clues:
        state.apply(GiveClue(state.speaker, text))


def test_bots_take_observations_never_the_state(emb):
    state = new_state()
    b = bot(emb)
    with pytest.raises(TypeError):
        b.give_clue(state)
    with pytest.raises(TypeError):
        b.act(state)
    # two games that differ only in what p2 cannot see give p2 the same observation and the same clue
    other = new_state(roles={"p1": "citizen", "p2": "citizen", "p3": "spy", "p4": "citizen", "p5": "ghost",
                             "p6": "citizen"}, spy_word="pond")
    assert state.observe("p2") == other.observe("p2")
    assert bot(emb, seed=5).act(state.observe("p2")) == bot(emb, seed=5).act(other.observe("p2"))


def test_same_seed_same_decisions(emb):
    def play(seed):
        state = new_state()
        bots = {s: bot(emb, seed=[seed, k]) for k, s in enumerate(state.seats)}
        acts = []
        while not state.is_terminal() and len(acts) < 200:
            if state.phase == "discussion":
                from engine.spyword import HOST, StartVote
                action = StartVote(HOST)
            else:
                seat = state.to_act()[0]
                action = bots[seat].act(state.observe(seat))
            state.apply(action)
            acts.append(action)
        assert state.is_terminal()
        return acts

    assert play(3) == play(3)


def test_clues_are_legal_and_never_repeated(emb):
    state = new_state()
    b = bot(emb)
    give(state, "wave", "beach", "salt", "shark")  # p2..p5; p1 (spy, lake) speaks next
    said = {c["clue"] for c in state.clues}
    clue = b.give_clue(state.observe("p1"))
    assert clue not in said and clue not in ("lake",)
    state.apply(GiveClue("p1", clue))  # the engine accepts it
    # the ghost never repeats either, and a refused text is avoided on request
    ghost_clue = b.give_clue(state.observe("p6"))
    assert ghost_clue not in said | {clue}
    assert b.give_clue(state.observe("p6"), avoid=[ghost_clue]) != ghost_clue
    # the random bot too
    rb = bot(emb, RandomSpyWordBot, "spyword-random:fake-sw")
    for _ in range(20):
        assert rb.give_clue(state.observe("p6")) not in said | {clue}


def test_a_bot_with_the_minority_word_comes_to_suspect_it(emb):
    state = new_state()
    b = bot(emb)
    prior = b.belief(state.observe("p1"))
    assert prior == pytest.approx(0.2)  # 1 spy among the 5 players with a word
    give(state, "wave", "beach", "salt", "shark")
    assert b.belief(state.observe("p1")) > 0.5  # p1 holds "lake": the others' clues point at "ocean"
    assert b.belief(state.observe("p1")) > prior
    # a citizen hearing clues for its own word grows surer it is a citizen
    state2 = new_state()
    give(state2, "wave", "beach", "salt")
    assert b.belief(state2.observe("p5")) < prior
    # believing it holds the minority word, the spy blends in: a clue for the majority word
    clue = b.give_clue(state.observe("p1"))
    assert clue in SEA
    # ... and, when the vote comes, a citizen votes for the player whose clue fits its word least
    give(state, clue)
    give(state, b.give_clue(state.observe("p6")))
    from engine.spyword import HOST, StartVote
    state3 = new_state()
    give(state3, "wave", "beach", "salt", "shark", "frog", "tide")
    state3.apply(StartVote(HOST))
    assert b.vote(state3.observe("p2")) == "p1"


def test_the_eliminated_ghost_guesses_what_the_clues_share(emb):
    state = new_state()
    give(state, "wave", "beach", "salt", "shark", "frog")
    assert bot(emb).ghost_guess(state.observe("p6")) == "ocean"


def test_specs(emb):
    assert check_spyword_spec("spyword:use-m3?beta=10").params == {"beta": 10.0}
    assert check_spyword_spec("spyword-random:use-m3").name == "spyword-random"
    with pytest.raises(ValueError):
        check_spyword_spec("nearest:use-m3")
    with pytest.raises(ValueError):
        check_spyword_spec("spyword:use-m3?bogus=1")
    b = make_spyword_bot("spyword-random:fake-sw", "en", vocabulary=VOCAB, embeddings={"fake-sw": emb})
    assert isinstance(b, RandomSpyWordBot)


def test_translation_check():
    v = np.eye(8, dtype=np.float32)
    emb = FakeEmbeddings(dim=8, vectors={"dog": v[0], "개": v[0] + 0.1 * v[1], "고양이": v[2], "puppy": v[0]},
                         name="fake-tr")
    assert translation_checker("개", "dog", backend=emb)
    assert not translation_checker("고양이", "dog", backend=emb)
    assert not translation_checker("puppy", "dog", backend=emb)  # same script: a synonym, not a translation
    check = with_translation_check(base=lambda *a: None, backend=emb)
    assert check("개", "dog", "en", "word")[0] == "5.4"
    assert check("고양이", "dog", "en", "word") is None
    seats = [f"p{i}" for i in range(1, 7)]
    roles = dict(zip(seats, ["citizen", "citizen", "citizen", "citizen", "spy", "ghost"]))
    state = SpyWordState(seats, roles, "dog", "wolf", seats, clue_checker=check)
    for s in seats:
        state.apply(Ready(s))
    with pytest.raises(IllegalAction):
        state.apply(GiveClue("p1", "개"))
    state.apply(GiveClue("p1", "고양이"))


@pytest.mark.parametrize("clue, mode", [("“개”", "word"), ("«개»", "word"), ("개…", "word"), ("「개」", "word"),
                                        ("it barks,개", "sentence"), ("a “개” barks", "sentence")])
def test_translation_check_sees_through_any_punctuation(clue, mode):  # RULES 5.4
    # the check stripped ASCII punctuation and split sentences at spaces only, unlike the engine's
    # own checker: a translation in curly quotes or after a comma was let through
    v = np.eye(8, dtype=np.float32)
    emb = FakeEmbeddings(dim=8, vectors={"dog": v[0], "개": v[0] + 0.1 * v[1]}, name="fake-tr2")
    check = with_translation_check(base=lambda *a: None, backend=emb)
    assert check(clue, "dog", "en", mode) == ("5.4", "'개' is a translation of the word")


def test_word_views_are_cached_on_disk_and_load_equal(emb, tmp_path, monkeypatch):
    """Preparing the pack words' views takes a minute on the real vocabulary: a second run loads them
    from the cache (keyed by the backend, the vocabulary, the parameters and the words) unchanged."""
    from agents.spyword.model import SpyWordModel

    path = tmp_path / "views.npz"
    monkeypatch.setattr(SpyWordModel, "_views_cache", lambda self, words: path)
    words = ["ocean", "lake", "wave", "frog"]
    built = SpyWordModel(emb, "en", words=VOCAB)
    built.prepare(words)
    assert path.exists()
    loaded = SpyWordModel(emb, "en", words=VOCAB)
    monkeypatch.setattr(SpyWordModel, "word_view", lambda self, w: pytest.fail("rebuilt a cached view"))
    loaded.prepare(words)
    for w in words:
        a, b = built._views[w], loaded._views[w]
        for field in a.__dataclass_fields__:
            x, y = getattr(a, field), getattr(b, field)
            assert np.array_equal(x, y) and np.asarray(x).dtype == np.asarray(y).dtype, (w, field)
    path.write_bytes(b"damaged")  # a damaged cache is rebuilt, never trusted
    monkeypatch.undo()
    monkeypatch.setattr(SpyWordModel, "_views_cache", lambda self, words: path)
    again = SpyWordModel(emb, "en", words=VOCAB)
    again.prepare(words)
    assert np.array_equal(again._views["lake"].legal, built._views["lake"].legal)


def test_with_the_spy_role_revealed_a_player_told_nothing_knows_it_is_a_citizen(emb):
    """RULES 5.1/5.14 "reveal role to spy": the spies see "spy" next to their word, so a player with a
    word and no role shown is a citizen. The bot inferred its role from the clues as if it could not
    tell, and a citizen that heard clues for another word came to believe it held the spy word (and
    blended in with a clue for that other word)."""
    from engine.spyword import SpyWordSettings

    seats = [f"p{i}" for i in range(1, 7)]
    roles = {"p1": "spy", "p2": "citizen", "p3": "citizen", "p4": "citizen", "p5": "citizen", "p6": "ghost"}
    for reveal in (False, True):
        state = SpyWordState(seats, roles, "ocean", "lake", ["p2", "p3", "p4", "p5", "p1", "p6"],
                             settings=SpyWordSettings(reveal_spy_role=reveal), clue_filter=False, language="en")
        for s in seats:
            state.apply(Ready(s))
        give(state, "frog", "reed", "duck")   # the others' clues point at the other word
        obs = state.observe("p5")
        assert obs.role is None
        if not reveal:   # it cannot tell: the clues make it suspect its word
            assert bot(emb).belief(obs) > 0.5
            continue
        assert bot(emb).belief(obs) == 0.0
        assert bot(emb, cls=RandomSpyWordBot, spec="spyword-random:fake-sw").belief(obs) == 0.0
        assert bot(emb).give_clue(obs) in SEA   # a clue for its own word, ocean
        assert state.observe("p1").role == "spy"
        assert bot(emb).belief(state.observe("p1")) == 1.0


def test_the_ghosts_clue_keeps_to_the_clues_it_was_told_to_avoid(emb):
    """RULES 5.4 and the loop's re-ask: a clue the engine refused is passed back in `avoid`. When the
    only words left were among the ghost's own top guesses, its fallback took every unused word again,
    the refused ones included, and gave a refused clue back (the loop asks 20 times, then stops)."""
    state = new_state()
    give(state, "wave", "beach", "salt", "shark", "frog")
    obs = state.observe("p6")   # the ghost (no word)
    b = bot(emb)
    ranking = b._ghost_ranking(obs)
    keep = ranking[1]           # the one word left: among its top-3 guesses
    avoid = [w for w in VOCAB if w != keep]
    assert b.give_clue(obs, avoid) == keep


@pytest.mark.parametrize("eps", [0, 1])
def test_the_ends_of_eps_are_played_without_warnings(emb, eps):
    """`eps` may be 0..1 (agents.spec limits): at either end one term of the clue likelihood is log 0.
    That is -inf by design (no noise; all noise), but numpy printed a divide-by-zero RuntimeWarning
    with a source line on every clue of a `cnlab simulate spyword --bot spyword:...?eps=0` run."""
    import warnings

    state = new_state()
    give(state, "wave", "beach", "salt")
    b = bot(emb, spec=f"spyword:fake-sw?eps={eps}")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        belief = b.belief(state.observe("p1"))
        b.give_clue(state.observe("p5"))
    assert 0.0 <= belief <= 1.0


def test_the_shared_model_of_one_word_list_with_other_frequencies_is_its_own():
    """spyword_model's process-wide cache was keyed by the words, not their frequencies: a bot given
    the same words with other frequencies (its clues pay for rarity) read the first one's rarity."""
    import numpy as np

    from agents.spyword.model import spyword_model
    from agents.wordlists import clue_vocabulary

    words = list(clue_vocabulary("en").top(80))
    flat = spyword_model("fake", "en", 60, words=words, frequencies=[1.0] * len(words))
    steep = spyword_model("fake", "en", 60, words=words, frequencies=[10.0 ** -i for i in range(len(words))])
    assert not flat.rarity.any() and steep.rarity.any()
    assert spyword_model("fake", "en", 60, words=words, frequencies=[1.0] * len(words)) is flat
