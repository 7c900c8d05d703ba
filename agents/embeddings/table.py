"""Board x clue-vocabulary similarities, precomputed so that a turn is indexing."""
from __future__ import annotations

import os
from collections import OrderedDict
from typing import Iterable, Sequence

import numpy as np

from .base import Embeddings
from .cache import cached_vectors, vocab_hash
from .registry import get_backend


class EmbeddedVocabulary:
    """A clue vocabulary and its (disk-cached) unit vectors.

    Words the backend does not cover are dropped (``dropped`` lists them); ``words`` keeps
    the order of the input minus duplicates and dropped words. For a backend without
    vectors (``kiwi``) ``vectors`` is None and tables are filled pair by pair.
    """

    def __init__(self, emb: Embeddings | str, words: Iterable[str], *, cache: bool = True,
                 cache_dir: str | os.PathLike | None = None):
        self.emb = get_backend(emb)
        uniq = list(dict.fromkeys(words))
        mask = self.emb.covers(uniq)
        self.words = [w for w, ok in zip(uniq, mask) if ok]
        self.dropped = [w for w, ok in zip(uniq, mask) if not ok]
        self.index = {w: i for i, w in enumerate(self.words)}
        if not self.emb.has_vectors:
            self.vectors = None
        elif cache:
            self.vectors = cached_vectors(self.emb, self.words, cache_dir=cache_dir)
            self.emb.remember(self.words, self.vectors)
        else:
            self.vectors = self.emb.vectors(self.words)

    def __len__(self) -> int:
        return len(self.words)

    def table(self, board: Sequence[str]) -> "SimilarityTable":
        return SimilarityTable(self.emb, self, board)


_VOCABS: "OrderedDict[tuple, EmbeddedVocabulary]" = OrderedDict()
_VOCABS_MAX = 4


def embedded_vocabulary(emb: Embeddings | str, words: Sequence[str], *, cache: bool = True,
                        cache_dir: str | os.PathLike | None = None) -> EmbeddedVocabulary:
    """Process-level memo of ``EmbeddedVocabulary`` (a few, least recently used dropped)."""
    emb = get_backend(emb)
    key = (id(emb), emb.name, emb.version, vocab_hash(list(words)), cache, str(cache_dir))
    ev = _VOCABS.get(key)
    if ev is None:
        ev = EmbeddedVocabulary(emb, words, cache=cache, cache_dir=cache_dir)
        _VOCABS[key] = ev
        while len(_VOCABS) > _VOCABS_MAX:
            _VOCABS.popitem(last=False)
    else:
        _VOCABS.move_to_end(key)
    return ev


class SimilarityTable:
    """``matrix[i, j]`` = cosine(board[i], vocab[j]), float32, computed in one matmul.

    ``vocab`` is a word list (embedded and cached once per process and on disk) or an
    ``EmbeddedVocabulary``. A board word the backend does not cover gets a row of zeros
    and ``board_covered[i] = False``.
    """

    def __init__(self, emb: Embeddings | str, vocab: Sequence[str] | EmbeddedVocabulary,
                 board: Sequence[str], *, cache: bool = True, cache_dir: str | os.PathLike | None = None):
        self.emb = get_backend(emb)
        if not isinstance(vocab, EmbeddedVocabulary):
            vocab = embedded_vocabulary(self.emb, list(vocab), cache=cache, cache_dir=cache_dir)
        self.embedded = vocab
        self.vocab: list[str] = vocab.words
        self.vocab_index = vocab.index
        self.board: list[str] = list(board)
        self.board_index = {w: i for i, w in enumerate(self.board)}
        self.board_covered = self.emb.covers(self.board)
        covered = [w for w, ok in zip(self.board, self.board_covered) if ok]
        m = np.zeros((len(self.board), len(self.vocab)), dtype=np.float32)
        if covered and self.vocab:
            if vocab.vectors is not None:
                sims = self.emb.vectors(covered) @ vocab.vectors.T
            else:
                sims = self.emb.similarity(covered, self.vocab)
            m[self.board_covered] = sims
        self.matrix = m

    @property
    def shape(self) -> tuple[int, int]:
        return self.matrix.shape

    def row(self, board_word: str) -> np.ndarray:
        """Similarities of one board word to every vocabulary word (a view)."""
        return self.matrix[self.board_index[board_word]]

    def rows(self, board_words: Sequence[str]) -> np.ndarray:
        return self.matrix[[self.board_index[w] for w in board_words]]

    def column(self, clue: str) -> np.ndarray:
        """Similarities of one clue to every board word."""
        return self.matrix[:, self.vocab_index[clue]]

    def sim(self, board_word: str, clue: str) -> float:
        return float(self.matrix[self.board_index[board_word], self.vocab_index[clue]])

    def top(self, board_word: str, k: int = 10) -> list[tuple[str, float]]:
        r = self.row(board_word)
        k = max(0, min(k, len(r)))   # a negative k is none, not all but the last
        idx = np.argpartition(-r, k - 1)[:k] if k else np.array([], dtype=int)
        idx = idx[np.argsort(-r[idx], kind="stable")]
        return [(self.vocab[i], float(r[i])) for i in idx]
