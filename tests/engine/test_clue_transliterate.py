"""English words written in Hangul (RULES 4.6: a loanword only where Korean has no word for it;
브레드 for 빵 is not a clue), from engine/clues/transliterate.py."""

from __future__ import annotations

import pytest

from engine.clues import check_clue
from engine.clues.transliterate import FILE, hangul, key, source
from engine.paths import data_path


@pytest.mark.parametrize("phones, written", [
    ("S AA1 K S", "삭스"),              # a stop after a short vowel closes the syllable
    ("B AH0 L UW1 N", "벌룬"),          # l between vowels: ㄹㄹ
    ("AE1 P AH0 L", "애플"),            # a final schwa + l: 플
    ("B UH1 K", "북"),
    ("K W IY1 N", "퀸"),                # consonant + w + vowel in one syllable
    ("K AH0 M P Y UW1 T ER0", "컴퓨터"),
    ("S OW1 P", "소프"),                # a stop after a long vowel: 프
    ("SH AA1 P", "샵"),
    ("B AE1 T ER0 IY0", "배터리"),      # after ER the r is said again before a vowel
    ("S AH1 M ER0 IY0", "서머리"),
])
def test_english_pronunciations_are_written_as_loanwords(phones, written):  # 외래어 표기법
    assert hangul(phones.split()) == written


@pytest.mark.parametrize("a, b", [("솝", "소프"), ("캣", "캐트"), ("스노우", "스노"), ("벌룬", "벌룬")])
def test_spellings_of_one_transliteration_share_a_key(a, b):
    assert key(a) == key(b)


def test_different_words_have_different_keys():
    assert key("사과") != key("사고")
    assert key("벌룬") != key("벌레")


def test_the_table_is_built_with_this_key():
    rows = [line.split("\t") for line in data_path(*FILE).read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]
    assert len(rows) > 5000
    assert all(k == key(h) for h, k, _ in rows)


def test_a_transliteration_names_its_english_word():
    assert source("삭스") == "socks"
    assert source("브레드") == "bread"
    assert source("사과") == ""


@pytest.mark.parametrize("clue, legal", [
    ("삭스", False),      # socks: Korean has 양말 (RULES 4.6)
    ("벌룬", False),      # balloon: 풍선
    ("솝", False),        # soap: 비누
    ("서머리", False),    # summary: 요약 (the r of ER before a vowel)
    ("버터", True),       # the rules' own loanword without a native word
    ("컴퓨터", True),     # a loanword the dictionary lists
    ("블로그", True),     # the rules' example of a legal clue (RULES 4.4)
    ("양말", True),
])
def test_the_filter_refuses_unlisted_transliterations(clue, legal):  # RULES 4.6
    v = check_clue(clue, 1, board=["바다", "산"], language="ko")
    assert v.legal is legal, v
    if not legal:
        assert v.rule == "4.6" and "영어" in v.message
