"""The Korean clue filter keeps working in a forked worker (the simulator forks after loading)."""

import multiprocessing

import pytest

pytest.importorskip("kiwipiepy")

from engine.clues import ClueFilter  # noqa: E402

BOARD = ["눈사람", "강", "거북", "사과", "바다"]
WORDS = ["첫눈", "한강", "거북이", "파도", "연필", "강아지", "사과나무", "하늘", "구름", "바람"] * 30


def _fresh_words():
    from agents.wordlists import clue_vocabulary

    return list(clue_vocabulary("ko").words[5000:5600])  # words nobody analysed before the fork


def _mask_in_child(_):
    return ClueFilter(board=BOARD, language="ko").legal_mask(_fresh_words()).tolist()


def test_korean_filter_in_a_forked_worker():  # RULES 4.3, 4.4
    assert ClueFilter(board=BOARD, language="ko").legal_mask(WORDS).any()  # the parent uses it first
    with multiprocessing.get_context("fork").Pool(2) as pool:
        children = pool.map_async(_mask_in_child, range(2)).get(timeout=60)
    expected = ClueFilter(board=BOARD, language="ko").legal_mask(_fresh_words()).tolist()
    assert all(child == expected for child in children)
