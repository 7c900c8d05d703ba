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
        assert np.array_equal(pool.base_legal & ~pool.blocks[rows].any(axis=0), direct)
        sims = pool.board_sims(tuple(board))
        fresh = FakeEmbeddings().vectors(board) @ pool.vectors[0].T
        assert np.allclose(sims.raw[0], fresh, atol=1e-5)
