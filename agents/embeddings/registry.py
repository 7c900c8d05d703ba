"""Backends registered by name; ``get_backend`` also accepts a path to a user's own model."""
from __future__ import annotations

import functools
import os
import pickle
from pathlib import Path
from typing import Callable, Iterable

from .base import Embeddings

DEFAULT_BACKEND = "use-m3"

_REGISTRY: dict[str, Callable[[], Embeddings]] = {}
_ALIASES = {"e5": "e5-small", "use": "use-m3", "usem3": "use-m3", "glove": "glove-50", "glove50": "glove-50"}


def register_backend(name: str, factory: Callable[[], Embeddings] | None = None, *, overwrite: bool = False):
    """Register ``factory`` (a no-argument callable returning an ``Embeddings``) under ``name``.

    Usable as a call or a decorator::

        register_backend("my-model", lambda: load_keyed_vectors_file("/models/my.kv", name="my-model"))

        @register_backend("my-other")
        def _load(): ...
    """
    def _do(f: Callable[[], Embeddings]):
        if name in _REGISTRY and not overwrite:
            raise ValueError(f"embedding backend {name!r} is already registered (pass overwrite=True)")
        _REGISTRY[name] = f
        _load.cache_clear()
        return f

    return _do if factory is None else _do(factory)


def available_backends() -> list[str]:
    """Names that ``get_backend`` accepts (besides paths). Listing does not import anything."""
    return list(_REGISTRY)


def canonical_backend(name: str) -> str:
    """A backend's registered name, aliases such as `glove` resolved (anything else as given), so
    that `glove` and `glove-50` count as one model."""
    return _ALIASES.get(name, name)


#: The languages of the built-in backends, known without loading them (a path or a backend registered
#: later is judged when it loads).
LANGUAGES = {"use-m3": ("en", "ko"), "glove-50": ("en",), "minilm": ("en",), "mpnet": ("en",),
             "e5-small": ("en", "ko"), "wordllama": ("en",), "kiwi": ("ko",), "syllables": ("ko",)}


def check_language(names: Iterable[str], language: str) -> None:
    """ValueError for the first of `names` that is a built-in backend that does not read `language`
    (glove-50 on a Korean board: every card a stranger), said before any model loads."""
    for name in names:
        key = canonical_backend(name)
        if key in LANGUAGES and language not in LANGUAGES[key]:
            raise ValueError(f"embedding backend {key!r} does not cover language {language!r} "
                             f"(it covers {', '.join(LANGUAGES[key])})")


def is_registered(name: str) -> bool:
    """Whether `name` is a registered backend (or an alias of one), not a model's path."""
    return canonical_backend(name) in _REGISTRY


@functools.lru_cache(maxsize=None)
def _load(key: str) -> Embeddings:
    if key.startswith("path:"):
        return load_path(key[5:])
    emb = _REGISTRY[key]()
    if not isinstance(emb, Embeddings):
        raise TypeError(f"factory for {key!r} returned {type(emb).__name__}, not Embeddings")
    return emb


def load_path(path: str | os.PathLike) -> Embeddings:
    """A user's own model: a gensim/word2vec file, or a local sentence-transformers folder."""
    from .backends import SentenceTransformerEmbeddings, load_keyed_vectors_file

    p = Path(path).expanduser()
    check_model_path(p)
    if p.is_dir():
        try:
            return SentenceTransformerEmbeddings(p, name=str(path))
        except ImportError:   # the package missing (MissingBackendError names the pip line)
            raise
        except Exception as exc:   # its own files broken: a JSON, a KeyError, a weights file, ...
            raise ValueError(f"{p} is not a sentence-transformers model it can load "
                             f"({type(exc).__name__}: {exc})") from None
    try:
        return load_keyed_vectors_file(p, name=str(path))
    except (ValueError, TypeError, EOFError, UnicodeDecodeError, KeyError, IndexError, AttributeError,
            pickle.UnpicklingError, OSError) as exc:   # OSError: a .gz/.bz2 that is none (BadGzipFile)
        raise ValueError(f"{p} is not a vectors file gensim can read ({type(exc).__name__}: {exc})") from None


def check_model_path(p: Path) -> None:
    """What a model's path shows without loading it: ValueError for a folder without a
    sentence-transformers model, an empty file, or neither a file nor a folder (/dev/null, a pipe);
    FileNotFoundError where nothing is."""
    from .backends import is_sentence_transformers_dir

    if p.is_dir():
        if not is_sentence_transformers_dir(p):
            raise ValueError(f"{p} is a folder but holds no sentence-transformers model (modules.json/config.json)")
    elif p.is_file():
        if p.stat().st_size == 0:
            raise ValueError(f"{p} is empty: a vectors file holds one word and its numbers a line")
    elif p.exists():
        raise ValueError(f"{p} is neither a vectors file nor a sentence-transformers folder")
    else:
        raise FileNotFoundError(f"no embedding model at {p}")


def get_backend(name: str | os.PathLike | Embeddings = DEFAULT_BACKEND) -> Embeddings:
    """The backend called ``name`` (loaded once per process), or the model at a path."""
    if isinstance(name, Embeddings):
        return name
    return _load(backend_key(name))


def backend_key(name: str | os.PathLike) -> str:
    """What ``get_backend(name)`` loads (a registered name, or "path:" and a model's path), without
    loading it; ValueError for a name that is neither."""
    key = canonical_backend(str(name))
    if key in _REGISTRY:
        return key
    p = Path(key).expanduser()
    try:
        found = p.exists()
    except OSError as exc:   # a name too long for the file system: no model there
        raise ValueError(f"embedding backend {key[:80]!r}: {exc.strerror or exc}") from None
    if found:
        return "path:" + str(p.resolve())
    raise ValueError(
        f"unknown embedding backend {key!r}: use one of {', '.join(available_backends())}, "
        "or a path to a .kv/.model/.bin/.txt/.vec word2vec/KeyedVectors file or a sentence-transformers folder"
    )


get_backend.cache_clear = _load.cache_clear  # type: ignore[attr-defined]


def _exists(path: str) -> bool:
    try:
        return Path(path).expanduser().exists()
    except OSError:   # a name too long for the file system
        return False


def check_backends(names) -> None:
    """ValueError for the first of `names` that `backend_key` does not know: an agent that loads no
    model still refuses a spec naming an unknown one, as every other agent does. A model's path
    holding `+` (which joins a spec's backends) is named as such, not as its first piece; one model
    named twice, however spelled, is refused as the spec parser refuses one name given twice."""
    names = [str(n) for n in names]
    seen: dict[str, str] = {}
    for i, name in enumerate(names):
        try:
            key = backend_key(name)
        except ValueError:
            for j in range(i + 1):
                for k in range(i + 1, len(names) + 1):
                    joined = "+".join(names[j:k])
                    if k - j > 1 and _exists(joined):
                        raise ValueError(f"the model path {joined!r} holds '+', which joins the backends of "
                                         "an agent spec: rename or link it, or register it under a name") from None
            raise
        if seen.setdefault(key, name) != name:   # one model twice: `glove` and `glove-50`, `m.kv` and `./m.kv`
            raise ValueError(f"backend {name!r} is {seen[key]!r} named again (one model, named once)")


def check_model_paths(names) -> None:
    """ValueError for the first of `names` that is a path holding no model (an empty file, a folder
    without one, /dev/null), without loading any: for an agent that will load them."""
    for name in names:
        key = backend_key(name)
        if key.startswith("path:"):
            check_model_path(Path(key[5:]))


def _builtin() -> None:
    from . import backends as b
    from .fake import default_fake

    register_backend("use-m3", lambda: b.UseM3Embeddings())
    register_backend("glove-50", lambda: b.load_glove50())
    register_backend("minilm", lambda: b.load_minilm())
    register_backend("mpnet", lambda: b.load_mpnet())
    register_backend("e5-small", lambda: b.load_e5_small())
    register_backend("wordllama", lambda: b.WordLlamaEmbeddings())
    register_backend("kiwi", lambda: b.KiwiEmbeddings())
    register_backend("syllables", lambda: b.SyllableEmbeddings())
    register_backend("fake", default_fake)


_builtin()
