"""Initialisms told by pronunciation (RULES 4.7: common abbreviations are an option, off by default)."""

from __future__ import annotations

from engine.clues.abbreviations import build_rows, english_initialism, korean_initialism, spelled_out


def test_a_pronunciation_of_letter_names_is_an_initialism():  # RULES 4.7
    assert spelled_out("fbi", ["EH1", "F", "B", "IY1", "AY1"])
    assert spelled_out("www", ["D", "AH1", "B", "AH0", "L", "Y", "UW0"] * 3)
    assert not spelled_out("bee", ["B", "IY1"])          # a word, not B + E + E
    assert not spelled_out("nato", ["N", "EY1", "T", "OW0"])


def test_the_table_marks_initialisms_by_their_first_pronunciation():  # RULES 4.7
    rows = build_rows({
        "tv": [["T", "IY1", "V", "IY1"], ["T", "EH1", "L", "AH0", "V", "IH1", "ZH", "AH0", "N"]],
        "us": [["AH1", "S"], ["Y", "UW2", "EH1", "S"]],
        "cat": [["K", "AE1", "T"]],
        "x": [["EH1", "K", "S"]],
    })
    assert rows == ["tv\tmain", "us\tother"]


def test_the_shipped_table_reads_both_languages():  # RULES 4.7
    assert english_initialism("FBI") and not english_initialism("us")
    assert english_initialism("CDs") and english_initialism("fbi's")     # plural, possessive
    assert not english_initialism("bus") and not english_initialism("its")
    assert korean_initialism("유엔") == "UN"            # U + N: "un" is said Y UW EH N second
    assert korean_initialism("티비") == "TB/TV"          # 비 names both B and V
    assert korean_initialism("이유") is None            # 이 and 유 alone: a Korean word
