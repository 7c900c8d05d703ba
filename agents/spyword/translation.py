"""The translation check of RULES 5.4 ("a clue may not be ... a translation of it") with the
multilingual use-m3 embeddings, injectable into the engine as its `clue_checker`.

A clue is a translation of the word when it is written in another script (Hangul vs Latin) and its
cross-language cosine to the word is above `threshold`. Calibrated on use-m3 (docs/spyword_bots.md):
true translations score 0.75-0.94 (dog/개 0.87, water/물 0.92, apple/사과 0.77, moon/달 0.75,
tea/차 0.70), related non-translations at most 0.62 (fruit/사과 0.62, cat/개 0.61, nurse/의사 0.51);
0.7 separates them (bread/빵 0.44 is a missed translation). Same-script clues are synonyms or
relatives, never translations: the engine's own checks and the clue filter judge those.
"""

from __future__ import annotations

from typing import Callable

from agents.embeddings import Embeddings, get_backend

from .model import script_of

DEFAULT_THRESHOLD = 0.7


def translation_checker(clue: str, word: str, backend: str | Embeddings = "use-m3",
                        threshold: float = DEFAULT_THRESHOLD) -> bool:
    """True when `clue` is a translation of `word` (other script, cosine above `threshold`)."""
    clue, word = clue.strip(), word.strip()
    if not clue or not word or script_of(clue) == script_of(word):
        return False
    emb = get_backend(backend)
    if not emb.covers([clue, word]).all():
        return False
    return float(emb.similarity([clue], [word])[0, 0]) > threshold


def with_translation_check(base: Callable | None = None, backend: str | Embeddings = "use-m3",
                           threshold: float = DEFAULT_THRESHOLD) -> Callable:
    """An engine `clue_checker` (clue, word, language, mode) -> (rule, message) | None: the `base`
    checker (default: the engine's `default_clue_checker`, the clue filter) and then the translation
    check on the clue (each word of it in sentence mode).

        state = SpyWordState(..., clue_checker=with_translation_check())
        record.replay(clue_checker=with_translation_check())
    """
    from engine.refusals import wording
    from engine.spyword.state import clue_tokens

    if base is None:
        from engine.spyword import default_clue_checker as base
    memo: dict[tuple[str, str], bool] = {}

    def check(clue: str, word: str, language: str | None, mode: str):
        verdict = base(clue, word, language, mode) if base else None
        if verdict:
            return verdict
        for token in clue_tokens(clue, mode):  # as the engine's checker reads it: “개”, "it barks,개"
            key = (token, word)
            if key not in memo:
                memo[key] = bool(token) and translation_checker(token, word, backend, threshold)
            if memo[key]:
                return ("5.4", wording("sw_translation", language, token=repr(token)))   # the game's language
        return None

    return check
