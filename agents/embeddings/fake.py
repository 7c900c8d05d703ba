"""A tiny deterministic backend for tests.

Every word gets a vector from a seeded SHA-256 of the word (stable across processes
and platforms; never Python's ``hash()``). Tests can pull words together on purpose:

    FakeEmbeddings(topics={"ocean": "sea", "water": "sea", "wave": "sea"})

puts the three words near one another (cosine ~0.9) and far from everything else
(cosine ~0 +- 1/sqrt(dim)). ``vectors={"x": [...]}`` sets a word's vector by hand.
"""
from __future__ import annotations

import hashlib
from typing import Iterable, Mapping, Sequence

import numpy as np

from .base import Embeddings

#: topics of the registered ``fake`` backend, handy in other modules' tests
DEFAULT_TOPICS: dict[str, str] = {
    "ocean": "sea", "water": "sea", "wave": "sea", "sea": "sea", "beach": "sea", "fish": "sea",
    "바다": "sea", "파도": "sea", "물": "sea",
    "pencil": "school", "school": "school", "book": "school", "teacher": "school",
    "연필": "school", "학교": "school", "책": "school",
    "dog": "animal", "cat": "animal", "horse": "animal", "lion": "animal",
    "개": "animal", "고양이": "animal", "말": "animal",
    "fire": "heat", "sun": "heat", "desert": "heat", "불": "heat", "태양": "heat",
}


def hash_vector(text: str, dim: int, seed: int = 0) -> np.ndarray:
    """Standard-normal-looking vector derived from SHA-256 (deterministic everywhere)."""
    out = bytearray()
    counter = 0
    need = dim * 4
    while len(out) < need:
        out += hashlib.sha256(f"{seed}\x00{counter}\x00{text}".encode("utf-8")).digest()
        counter += 1
    u = np.frombuffer(bytes(out[:need]), dtype="<u4").astype(np.float64)
    u = (u + 0.5) / 2.0**32  # uniform (0, 1)
    # Box-Muller on pairs, then trim to dim
    half = (dim + 1) // 2
    u1, u2 = np.resize(u, 2 * half)[:half], np.resize(u, 2 * half)[half:]
    u2 = np.where(u2 <= 0, 0.5, u2)
    r = np.sqrt(-2.0 * np.log(u1))
    z = np.concatenate([r * np.cos(2 * np.pi * u2), r * np.sin(2 * np.pi * u2)])[:dim]
    return z.astype(np.float32)


class FakeEmbeddings(Embeddings):
    def __init__(
        self,
        dim: int = 32,
        *,
        topics: Mapping[str, str | Sequence[str]] | None = None,
        vectors: Mapping[str, Sequence[float]] | None = None,
        vocabulary: Iterable[str] | None = None,
        seed: int = 0,
        own_weight: float = 0.3,
        name: str = "fake",
        languages: tuple[str, ...] = ("en", "ko"),
    ):
        self.name = name
        self.dim = int(dim)
        self.languages = tuple(languages)
        self.seed = int(seed)
        self.own_weight = float(own_weight)
        self.topics = {w: ([t] if isinstance(t, str) else list(t)) for w, t in (topics or {}).items()}
        self.fixed = {w: np.asarray(v, dtype=np.float32) for w, v in (vectors or {}).items()}
        for w, v in self.fixed.items():
            if v.shape != (self.dim,):
                raise ValueError(f"hand-set vector for {w!r} has shape {v.shape}, expected ({self.dim},)")
        self.vocabulary = None if vocabulary is None else frozenset(vocabulary) | frozenset(self.fixed) | frozenset(self.topics)
        self.open_vocabulary = self.vocabulary is None
        h = hashlib.sha256(repr((self.dim, self.seed, self.own_weight, sorted(self.topics.items()),
                                 sorted((w, v.tobytes()) for w, v in self.fixed.items()))).encode()).hexdigest()
        self.version = f"fake-{h[:16]}"

    def _covers_one(self, word: str) -> bool:
        if word in self.fixed:
            return True
        if self.vocabulary is not None:
            return word in self.vocabulary
        return bool(word and word.strip())

    def _one(self, word: str) -> np.ndarray:
        if word in self.fixed:
            return self.fixed[word]
        v = hash_vector(word, self.dim, self.seed)
        topics = self.topics.get(word)
        if topics:
            v = self.own_weight * v / np.linalg.norm(v)
            for t in topics:
                tv = hash_vector("topic\x00" + t, self.dim, self.seed)
                v = v + tv / np.linalg.norm(tv)
        return v

    def _encode(self, words: list[str]) -> np.ndarray:
        return np.stack([self._one(w) for w in words]).astype(np.float32)


def default_fake() -> FakeEmbeddings:
    return FakeEmbeddings(topics=DEFAULT_TOPICS)
