"""The pack words' translations (RULES 5.4: a clue may not be a translation of the word).

Which words translate which needs a dictionary, and the engine imports no model. The project's
own packs are known in advance, so their Korean and English words come with their translations
as data (`data/spyword/translations.tsv`, written by hand): a Korean game's 사과 refuses apple,
an English game's taxi refuses 택시. A word outside the packs has no listed translation; the
agents layer can add the embedding check (`agents.spyword.translation.with_translation_check`).
"""

from __future__ import annotations

from functools import lru_cache

from ..paths import data_path
from .matching import normalize

FILE = ("spyword", "translations.tsv")


@lru_cache(maxsize=1)
def table() -> dict[str, frozenset[str]]:
    """normalised word -> its normalised translations (both directions: apple -> 사과 and
    사과 -> apple, whichever of the two the file lists)."""
    return {w: frozenset(normalize(t) for t in ts) for w, ts in _written().items()}


def translations_of(word: str) -> frozenset[str]:
    """The listed translations of `word` as the file writes them ("green tea", not "greentea"),
    so that a form of one ("apples", "사과를") can be judged like a form of the word itself."""
    return _written().get(normalize(word), frozenset())


@lru_cache(maxsize=1)
def _written() -> dict[str, frozenset[str]]:
    """normalised word -> its translations as written, both directions."""
    out: dict[str, set[str]] = {}
    path = data_path(*FILE)
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    for line in lines:
        if not line.strip() or line.startswith("#"):
            continue
        word, _lang, translations = line.split("\t")
        w = normalize(word)
        for t in translations.split("|"):
            t = t.strip()
            if normalize(t) and normalize(t) != w:
                out.setdefault(w, set()).add(t)
                out.setdefault(normalize(t), set()).add(word.strip())
    return {w: frozenset(ts) for w, ts in out.items()}


def is_translation(clue: str, word: str) -> bool:
    """Whether `clue` is a listed translation of `word` (case, accents and spacing ignored)."""
    return normalize(clue) in table().get(normalize(word), ())
