"""Reading a word a closed-vocabulary model does not know through words it does.

Why: a partner on a user's own word list (a word2vec file of 20,000 words, say) cannot read about
one clue in ten that a spymaster on other models gives, and used to guess blind; a person who does
not know `scoreboard` reads it as score + board, `mammalian` as mammal. English only: the clue
filter's analyser gives each word's lemmas, the words it is derived from and its compound cuts
(docs/embeddings.md, "Words a model does not know").
"""

from __future__ import annotations

import numpy as np


def backoff_readings(word: str, language: str) -> list[tuple[str, ...]]:
    """Other readings of `word`, best first: its other lemmas (`mice` -> mouse), the words it is
    derived from (`frosty` -> frost) and its compound cuts (`scoreboard` -> score + board). Empty
    for a language without them here (Korean) or without the analyser's packages."""
    if language != "en":
        return []
    try:
        from engine.clues import FilterUnavailable, get_analyzer

        analyser = get_analyzer(language)
        w = word.lower()
        readings = [(x,) for x in sorted(analyser.lemmas(w) - {w})]
        readings += [(x,) for x in sorted(analyser.derivation_bases(w) - {w})]
        readings += [tuple(cut) for cut in analyser.compound_cuts(w)]
    except (ImportError, FilterUnavailable):
        return []
    return list(dict.fromkeys(readings))


def backoff_vector(emb, word: str, language: str) -> np.ndarray | None:
    """The unit vector of the first of `backoff_readings(word)` whose words `emb` all knows (the
    normalised mean of their unit vectors), or None."""
    for parts in backoff_readings(word, language):
        if emb.covers(list(parts)).all():
            v = np.asarray(emb.vectors(list(parts)), dtype=np.float64).mean(axis=0)
            n = float(np.linalg.norm(v))
            if n > 0:
                return (v / n).astype(np.float32)
    return None
