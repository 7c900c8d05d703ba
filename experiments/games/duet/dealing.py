"""Dealing new Duet records from the project's word lists and mission map."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from engine.duet import DuetConfig, DuetRecord, deal_duet

from experiments.games.duet.missions import load_mission_map


def duet_config(mission: str | None = None, missions_file: str | Path | None = None,
                tokens: int | None = None, lang: str = "en", invalid_clue: str = "allow") -> DuetConfig:
    """The config for a mission of the map, or the base game with 9/10/11 tokens."""
    if mission is not None and tokens is not None:
        raise ValueError("give either a mission or a number of timer tokens, not both")
    if mission is not None:
        return load_mission_map(missions_file).get(mission).config(language=lang, invalid_clue=invalid_clue)
    return DuetConfig(timer_tokens=9 if tokens is None else tokens, language=lang, invalid_clue=invalid_clue)


def deal_duet_record(seed: int, lang: str = "en", game: str = "duet", mission: str | None = None,
                     missions_file: str | Path | None = None, tokens: int | None = None,
                     invalid_clue: str = "allow", words: Sequence[str] | None = None) -> DuetRecord:
    """One new game; `words`: the words it is dealt from instead of the shipped list (`--words`, read
    by experiments.games.words)."""
    from agents.wordlists import board_words

    return deal_duet(seed, board_words(lang) if words is None else words,
                     duet_config(mission, missions_file, tokens, lang, invalid_clue))
