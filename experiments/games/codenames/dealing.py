"""Dealing new Codenames and Codenames Pictures records (RULES 1.1, 2.1)."""

from __future__ import annotations

from typing import Sequence

from engine.codenames import CodenamesConfig, CodenamesRecord, deal_codenames


def board_pool(game: str, lang: str = "en") -> tuple[str, ...]:
    """The cards a board is drawn from: the board words of a language, or the picture card ids."""
    if game == "pictures":
        from engine.codenames.pictures import card_ids

        return card_ids()
    from agents.wordlists import board_words

    return tuple(board_words(lang))


def deal_record(seed: int, lang: str = "en", game: str = "codenames", variant: str | None = None,
                invalid_clue: str = "allow", words: Sequence[str] | None = None, **_ignored) -> CodenamesRecord:
    """One new game: `lang` is the board's language (Codenames) or the clues' language (Pictures).
    `words`: the words a Codenames board is dealt from instead of the shipped list (`--words`, read by
    experiments.games.words); a Pictures board is pictures."""
    if game not in ("codenames", "pictures"):
        raise ValueError(f"not a Codenames game: {game!r}")
    if lang not in ("en", "ko"):
        raise ValueError(f"unknown language {lang!r}: en or ko")
    if words is not None and game == "pictures":
        raise ValueError("--words does not apply to `pictures`: its cards are pictures, not words")
    config = CodenamesConfig(game=game, variant="teams" if variant is None else variant, invalid_clue=invalid_clue, language=lang)
    return deal_codenames(seed, board_pool(game, lang) if words is None else words, config)
