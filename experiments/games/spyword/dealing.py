"""Dealing new Spy's Word records from the project's word packs (data/spyword/)."""

from __future__ import annotations

import json
from functools import lru_cache

from engine.paths import data_path
from engine.spyword import SpyWordRecord, SpyWordSettings, check_pack, deal_spyword

LANGS = ("en", "ko")


@lru_cache(maxsize=None)
def _load(lang: str) -> tuple[dict, ...]:
    path = data_path("spyword", f"packs_{lang}.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    return tuple(check_pack(p) for p in data["packs"])


def load_packs(lang: str = "en") -> list[dict]:
    """The word packs of a language (RULES 5.3), in file order."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; Spy's Word packs exist for {', '.join(LANGS)}")
    return [dict(p) for p in _load(lang)]


def deal_record(seed: int, lang: str = "en", game: str = "spyword", players: int | None = 6,
                settings: SpyWordSettings | None = None, **_ignored) -> SpyWordRecord:
    """One new record (no actions) for `cnlab deal spyword`; ValueError on a bad player count."""
    players = 6 if players is None else players
    return deal_spyword(seed, load_packs(lang), players, settings or SpyWordSettings(), lang=lang)
