"""The one reader of a clue number written as text (RULES 1.2, 3.4: a number 0..9; 4.2)."""

import pytest

from engine.actions import written_number


@pytest.mark.parametrize("text,value", [("0", 0), ("9", 9), ("02", 2), (" 3 ", 3), ("-3", -3), ("12", 12), ("9999", 9999)])
def test_ascii_digits_are_read(text, value):
    assert written_number(text) == value


@pytest.mark.parametrize("text", ["", " ", "-", "+3", "3.0", "three", "\u00b3", "\u2460", "\uff13", "\u0663",
                                  "\U0001d7d8", "12345", "9" * 5000, "0" * 4999 + "2", "3 4", "3\n4"])
def test_anything_else_is_not_a_number(text):
    # other scripts' digits pass str.isdigit (int() fails on some, reads others); long runs int() refuses
    assert written_number(text) is None
