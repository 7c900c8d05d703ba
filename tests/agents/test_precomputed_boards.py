"""Precomputed per-board-word tables give exactly what computing them per game gives (RULES 4.5)."""

import numpy as np
import pytest

from agents.clue_problem import CandidatePool, legal_mask
from agents.embeddings import FakeEmbeddings
from agents.wordlists import board_words, clue_vocabulary

pytest.importorskip("kiwipiepy")


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_precomputed_legality_and_similarity_equal_the_direct_ones(lang):
    words = list(board_words(lang))[:120]
    vocab = clue_vocabulary(lang)
    pool = CandidatePool([FakeEmbeddings()], list(vocab.words[:3000]), list(vocab.frequencies[:3000]))
    pool.precompute_boards(words, lang)
    rng = np.random.default_rng(1)
    for _ in range(8):
        board = [words[i] for i in rng.choice(len(words), 25, replace=False)]
        covered = board[: int(rng.integers(0, 8))]
        visible = [w for w in board if w not in covered]
        direct = legal_mask(pool.words, board, covered, lang)
        rows = [pool.board_rows[w] for w in visible]
        assert np.array_equal(pool.listed_legal(rows), direct)
        sims = pool.board_sims(tuple(board))
        fresh = FakeEmbeddings().vectors(board) @ pool.vectors[0].T
        assert np.allclose(sims.raw[0], fresh, atol=1e-5)


@pytest.mark.parametrize("lang, board, tied", [("en", ["hat", "rabbit", "magic"], "top"),
                                               ("ko", ["손가락", "장갑", "반지"], "가운데")])
def test_a_position_word_tied_to_a_listed_word_is_legal_only_beside_it(lang, board, tied):
    """RULES 4.1: TOP beside HAT (a top hat), 가운데 beside 손가락: legal on that board, not on
    others; the precomputed legality (one row per listed word) agrees with the filter either way."""
    words = list(dict.fromkeys(list(board_words(lang))[:60] + board))
    vocab = list(clue_vocabulary(lang).words[:3000])
    pool = CandidatePool([FakeEmbeddings()], vocab + ([tied] if tied not in vocab else []))
    pool.precompute_boards(words, lang)
    j = pool.words.index(tied)
    with_it = [pool.board_rows[w] for w in board]
    without = [pool.board_rows[w] for w in board[1:]]
    assert pool.listed_legal(with_it)[j] and not pool.listed_legal(without)[j]
    for rows in (with_it, without):
        assert np.array_equal(pool.listed_legal(rows), legal_mask(pool.words, [words[r] for r in rows], [], lang))


def test_an_agent_given_a_runs_own_word_list_builds_its_tables_for_that_list():
    """A run dealt from a researcher's list (--words) gives its agents that list before prepare():
    the spymaster's per-word tables and the guesser's listed cards are built for its words (some of
    them off the shipped list), not the shipped list's; an agent given none keeps the shipped list."""
    from agents.registry import make_guesser, make_spymaster

    words = ("harp", "kiwi", "glacier", "saxophone", "tulip", "walrus", "canyon", "lantern", "river", "ocean")
    spymaster, guesser = make_spymaster("margin:fake?vocab=300", "en"), make_guesser("duet-bayes:fake", "en")
    for agent in (spymaster, guesser):
        assert agent.listed_words() == board_words("en")
        agent.board_list = words
        agent.prepare()
    assert list(spymaster.pool.board_rows) == list(words)
    assert [list(c.index) for c in guesser._listed] == [list(words)]
    shipped = make_spymaster("margin:fake?vocab=300", "en")
    shipped.prepare()
    assert list(shipped.pool.board_rows) == list(dict.fromkeys(board_words("en")))
