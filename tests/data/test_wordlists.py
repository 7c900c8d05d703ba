"""Board word lists, clue vocabularies, their loader and the build script (data/words, data/vocab)."""

import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents.wordlists import LANGUAGES, ClueVocabulary, board_words, clue_vocabulary
from engine.paths import data_path

REPO = Path(__file__).resolve().parents[2]
RULEBOOK_KO = ("폭풍", "우비", "짜장면", "베트남", "스핑크스", "인형", "설탕", "사과", "뿌리", "아마존", "물", "거북", "눈사람")
VOCAB_SHAPE = {"en": re.compile(r"[a-z]{2,}"), "ko": re.compile(r"[가-힣]+")}


def _list_file(*parts):
    lines = data_path(*parts).read_text(encoding="utf-8").splitlines()
    return {w.strip() for w in lines if w.strip() and not w.startswith("#")}


def _banned(lang):
    return _list_file("vocab", f"stopwords_{lang}.txt") | _list_file("vocab", f"offensive_{lang}.txt")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_board_list_size_and_uniqueness(lang):
    words = board_words(lang)
    assert 400 <= len(words) <= 600
    assert len(set(words)) == len(words)
    assert all(w == w.strip() and w for w in words)


def test_english_board_words_are_single_lower_case_words():
    bad = [w for w in board_words("en") if not re.fullmatch(r"[a-z]{2,}", w)]
    assert not bad


def test_korean_board_words_are_short_hangul_words():
    bad = [w for w in board_words("ko") if not re.fullmatch(r"[가-힣]{1,4}", w)]
    assert not bad
    assert set(RULEBOOK_KO) <= set(board_words("ko"))


def test_korean_board_words_are_kiwi_nouns():
    kiwipiepy = pytest.importorskip("kiwipiepy")
    kiwi = kiwipiepy.Kiwi()
    bad = []
    for w in board_words("ko"):
        tokens = kiwi.tokenize(w)
        if not (len(tokens) == 1 and tokens[0].form == w and tokens[0].tag in ("NNG", "NNP")):
            bad.append((w, [(t.form, t.tag) for t in tokens]))
    assert not bad


@pytest.mark.parametrize("lang", LANGUAGES)
def test_board_words_are_in_the_vocabulary_and_not_banned(lang):
    vocab = clue_vocabulary(lang)
    assert [w for w in board_words(lang) if w not in vocab] == []
    assert set(board_words(lang)).isdisjoint(_banned(lang))


@pytest.mark.parametrize("lang, low, high", [("en", 20_000, 50_000), ("ko", 10_000, 50_000)])
def test_vocabulary_size_and_uniqueness(lang, low, high):
    vocab = clue_vocabulary(lang)
    assert low <= len(vocab) <= high
    assert len(set(vocab.words)) == len(vocab)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_vocabulary_has_no_stopwords_offensive_words_numbers_or_punctuation(lang):
    vocab = clue_vocabulary(lang)
    assert set(vocab.words).isdisjoint(_banned(lang))
    shape = VOCAB_SHAPE[lang]
    assert [w for w in vocab.words if not shape.fullmatch(w)] == []


def test_common_stopwords_and_slurs_are_absent():
    en = clue_vocabulary("en")
    for w in ("the", "and", "of", "you", "three", "fuck", "shit", "nigger"):
        assert w not in en
    ko = clue_vocabulary("ko")
    for w in ("우리", "그것", "씨발", "병신"):
        assert w not in ko
    assert "bank" in en and "사과" in ko


@pytest.mark.parametrize("lang", LANGUAGES)
def test_vocabulary_file_is_sorted_and_well_formed(lang):
    text = data_path("vocab", f"{lang}.tsv").read_text(encoding="utf-8")
    assert text.endswith("\n") and "\r" not in text
    lines = text.splitlines()
    assert lines[0] == "word\tfrequency"
    rows = [line.split("\t") for line in lines[1:]]
    assert all(len(r) == 2 for r in rows)
    keys = [(-float(f), w) for w, f in rows]
    assert keys == sorted(keys)
    for _, f in rows:
        assert f == f"{float(f):.6g}"
        assert 0 < float(f) < 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_loader_matches_file_and_is_cached_and_read_only(lang):
    vocab = clue_vocabulary(lang)
    assert isinstance(vocab, ClueVocabulary)
    assert vocab is clue_vocabulary(lang)
    assert board_words(lang) is board_words(lang)
    assert vocab.frequencies.dtype == np.float64
    assert len(vocab.frequencies) == len(vocab.words)
    assert np.all(np.diff(vocab.frequencies) <= 0)
    with pytest.raises(ValueError):
        vocab.frequencies[0] = 1.0
    first = vocab.words[0]
    assert vocab.index(first) == 0
    assert math.isclose(vocab.frequency(first), vocab.frequencies[0])
    assert vocab.frequency("not-a-word", 0.0) == 0.0
    with pytest.raises(KeyError):
        vocab.frequency("not-a-word")
    frame = vocab.to_frame()
    assert list(frame.columns) == ["word", "frequency"] and len(frame) == len(vocab)


@pytest.mark.parametrize("bad", ["fr", "EN", "", "english"])
def test_unknown_language_is_a_clear_error(bad):
    with pytest.raises(ValueError, match="unknown language"):
        board_words(bad)
    with pytest.raises(ValueError, match="unknown language"):
        clue_vocabulary(bad)


def test_build_script_is_deterministic(tmp_path):
    """Rebuilding from the pinned registry packages reproduces the shipped files byte for byte."""
    for module in ("wordfreq", "lemminflect", "kiwipiepy"):
        pytest.importorskip(module)
    subprocess.run(
        [sys.executable, "-m", "experiments.tools.build_vocab", "--lang", "all", "--out", str(tmp_path)],
        cwd=REPO,
        check=True,
        capture_output=True,
        timeout=300,
    )
    for lang in LANGUAGES:
        built = (tmp_path / f"{lang}.tsv").read_bytes()
        shipped = data_path("vocab", f"{lang}.tsv").read_bytes()
        assert built == shipped, f"data/vocab/{lang}.tsv is stale: run python -m experiments.tools.build_vocab"
