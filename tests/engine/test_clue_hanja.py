"""Korean parts by meaning through word origins (RULES 4.3: 강 is not a part of 강아지 by meaning;
4.4: parts that stand on their own), read from HanDic's Hanja spellings (engine/clues/hanja.py).

The words below are not in the case table: each pair is a Sino-Korean syllable that is, or is
not, the visible word's own meaning.
"""

from __future__ import annotations

import pytest

from engine.clues import check_clue
from engine.clues.hanja import Hanja

pytest.importorskip("kiwipiepy")
pytest.importorskip("MeCab")


@pytest.fixture(scope="module")
def hanja():
    return Hanja()


@pytest.mark.parametrize("part, word, expected", [
    ("산", "등산", True),        # 登山: the mountain itself (RULES 4.3)
    ("산", "산업", False),       # 産業: 산 said alone is 山
    ("차", "녹차", True),        # 綠茶: 차 alone is 茶 or 車
    ("차", "차례", False),       # 次例
    ("불", "불만", False),       # 不滿: 불 alone is the native word (fire)
    ("물", "동물", False),       # 動物: 물 alone is native water
    ("강", "강아지", False),     # native 강아지, 강 alone is 江 (the rules' own example)
    ("공", "축구공", True),      # 蹴球공: the native 공 is written as a piece of it
    ("눈", "눈썹", None),        # native in native: the Hanja say nothing
])
def test_a_syllable_is_a_part_where_its_meaning_is(hanja, part, word, expected):  # RULES 4.3
    assert hanja.is_part(part, word) is expected


def test_homographs_of_two_syllables_are_the_same_word(hanja):  # RULES 4.3: same spelling
    assert hanja.is_part("사과", "사과문") is True      # 謝過文 (an apology) has 사과 = 謝過
    assert hanja.is_part("도시", "도시락") is False     # native 도시락; 도시 is 都市 or 圖示


def test_a_loanword_has_the_loanwords_of_its_source_words_as_parts(hanja):  # RULES 4.4
    assert hanja.is_part("폰", "스마트폰") is True       # smart phone: phone
    assert hanja.is_part("핫", "핫도그") is True         # hot dog: hot
    assert hanja.is_part("나", "바나나") is False        # banana: letters only (RULES 4.3)
    assert hanja.is_part("턱", "턱시도") is False        # tuxedo: not the chin


def test_a_root_is_spelled_too(hanja):  # 솔직하다's root 솔직 = 率直
    assert hanja.is_part("솔", "솔직") is False


def test_a_word_the_dictionary_does_not_know_has_no_origin(hanja):
    assert hanja.spellings("뷁뷁") == frozenset()
    assert hanja.is_part("뷁", "뷁뷁") is None


@pytest.mark.parametrize("board, clue, legal", [
    (["산"], "등산", False),     # 登山 contains the mountain (RULES 4.3)
    (["산"], "산업", True),      # 産業 only shares the syllable
    (["차"], "녹차", False),     # 綠茶 contains 차 (tea)
    (["녹차"], "차", False),     # and 차 is a part of the visible 녹차 (RULES 4.4)
    (["불"], "불만", True),      # 不滿 is not fire
    (["물"], "동물", True),      # 動物 is not water
    (["폰"], "스마트폰", False),  # smart phone contains phone
    (["나"], "바나나", True),    # banana does not contain 나
])
def test_the_filter_reads_parts_by_origin(board, clue, legal):  # RULES 4.3 / 4.4
    v = check_clue(clue, 1, board=board, language="ko")
    assert v.legal is legal, v
    if not legal:
        assert v.rule in ("4.1", "4.3", "4.4")
