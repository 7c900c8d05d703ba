"""The ghost's forgiving match (RULES 5.10) and clue repeats (RULES 5.4)."""

import pytest

from engine.spyword import ghost_guess_is_right, matches, normalize, same_clue


@pytest.mark.parametrize("guess, word", [
    ("apple", "Apple"), ("  APPLE ", "apple"), ("café", "cafe"), ("Cafe", "café"), ("ice-cream", "ice cream"),
    ("icecream", "Ice Cream!"), ("crème brûlée", "creme brulee"), ("straße", "strasse"),
    ("아이스 크림", "아이스크림"), ("ＡＰＰＬＥ", "apple"), ("사과.", "사과"),
])
def test_case_accents_punctuation_spacing_are_ignored(guess, word):  # RULES 5.10
    assert matches(guess, word)


@pytest.mark.parametrize("guess, word", [
    ("strawbery", "strawberry"), ("elephnat", "elephant"), ("helicopterr", "helicopter"), ("pinapple", "pineapple"),
    ("badmington", "badminton"), ("아이스크린", "아이스크림"), ("우주비헹사", "우주비행사"),
])
def test_a_minor_typo_in_a_long_word_is_forgiven(guess, word):  # RULES 5.10
    assert matches(guess, word)


@pytest.mark.parametrize("guess, word", [
    ("pear", "bear"), ("tea", "sea"), ("사고", "사과"), ("stwbery", "strawberry"), ("", "apple"), ("!!", "apple"),
    ("배", "뱀"), ("orange", "apple"),
])
def test_short_words_and_bigger_typos_must_match(guess, word):  # RULES 5.10
    assert not matches(guess, word)


@pytest.mark.parametrize("guess, word", [("house", "horse"), ("latter", "later"), ("stare", "start"), ("프로젝터", "프로젝트")])
def test_a_typo_is_no_other_word(guess, word):  # RULES 5.10: minor typos, not other words
    assert not matches(guess, word)


@pytest.mark.parametrize("guess, word", [("horses", "horse"), ("hoarse", "horse"), ("rabbits", "rabbit")])
def test_an_inflection_or_a_rare_lookalike_still_names_the_word(guess, word):  # RULES 5.10
    assert matches(guess, word)


def test_a_guess_that_also_matches_the_spy_word_is_refused():  # RULES 5.10
    assert ghost_guess_is_right("coffee", "coffee", "toffee")  # exactly the citizens' word
    assert not ghost_guess_is_right("toffee", "coffee", "toffee")
    assert not ghost_guess_is_right("Xoffee", "coffee", "toffee")  # one typo from both
    assert ghost_guess_is_right("cofee", "coffee", "tea")
    assert not ghost_guess_is_right("tea", "coffee", "tea")


def test_normalize_keeps_hangul_and_drops_the_rest():
    assert normalize("Hello, World!") == "helloworld"
    assert normalize("떡 볶 이") == "떡볶이"


def test_repeated_clues_compare_case_and_space_insensitively():  # RULES 5.4
    assert same_clue("Red", " red ") and same_clue("ice cream", "Ice-Cream")
    assert not same_clue("red", "reds") and not same_clue("", "")


def test_default_checker_uses_the_project_clue_filter_when_installed():  # RULES 5.4 with RULES 4.3
    from engine.spyword import default_clue_checker

    clues = pytest.importorskip("engine.clues")
    try:
        clues.check_clue("fruit", 1, board=["apple"], language="en")
    except clues.FilterUnavailable:
        pytest.skip("the clue filter's morphology is not installed")
    assert default_clue_checker("applepie", "apple", "en", "word")[0] == "4.3"
    assert default_clue_checker("fruit", "apple", "en", "word") is None
    assert default_clue_checker("we love apples", "apple", "en", "sentence") is not None


@pytest.mark.parametrize("clue, word, mode", [
    ("“snow”", "snowman", "word"), ("«snow»", "snowman", "word"), ("snow~", "snowman", "word"),
    ("「눈」", "눈사람", "word"), ("눈…", "눈사람", "word"),
    ("it is cold “snow”", "snowman", "sentence"), ("it melts…snow", "snowman", "sentence"),
    ("“apple”", "사과", "word"),
])
def test_default_checker_sees_a_part_inside_any_punctuation(clue, word, mode):  # RULES 5.4
    # a part of the word (or a translation) in curly quotes, guillemets, CJK brackets, after an
    # ellipsis or before a tilde is still a part of it
    from engine.spyword import default_clue_checker

    clues = pytest.importorskip("engine.clues")
    try:
        clues.check_clue("fruit", 1, board=["apple"], language="en")
    except clues.FilterUnavailable:
        pytest.skip("the clue filter's morphology is not installed")
    assert default_clue_checker(clue, word, None, mode) is not None
    assert default_clue_checker("“winter”", word, None, mode) is None


@pytest.mark.parametrize("clue, word, game_language", [
    ("snow", "snowman", "ko"), ("snowballs", "snowball", "ko"), ("coat", "raincoat", "ko"), ("눈", "눈사람", "en"),
    ("눈", "눈사람", "en"),   # 눈 / 눈사람 decomposed (NFD)
])
def test_a_word_in_the_other_script_is_read_in_its_own_language(clue, word, game_language):  # RULES 5.4, 4.4
    """A custom pack mixing Korean and English (or a Korean game's Latin word): the checker read the word
    in the game's language, whose filter refuses every clue of the other script alike with the word and
    without it (4.6), so "snow" passed as no part of "snowman" in a Korean game. Now refused (4.3/4.4)."""
    from engine.spyword import default_clue_checker

    clues = pytest.importorskip("engine.clues")
    try:
        clues.check_clue("fruit", 1, board=["apple"], language="en")
        clues.check_clue("과일", 1, board=["사과"], language="ko")
    except clues.FilterUnavailable:
        pytest.skip("the clue filter's morphology is not installed")
    verdict = default_clue_checker(clue, word, game_language, "word")
    assert verdict is not None and verdict[0] in ("4.3", "4.4"), verdict
    assert default_clue_checker("winter" if word.isascii() else "겨울", word, game_language, "word") is None
