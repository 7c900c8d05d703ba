"""The rulebook's label for each two-player score (RULES 1.8, seed 004), read from data/codenames/."""

from __future__ import annotations

import json
from functools import lru_cache

from ..paths import data_path


@lru_cache(maxsize=1)
def two_player_labels() -> dict[int, dict[str, str]]:
    """{score: {"ko": rulebook text, "en": translation}} for scores 1..8."""
    data = json.loads(data_path("codenames", "two_player_scores.json").read_text(encoding="utf-8"))
    return {int(k): dict(v) for k, v in data["labels"].items()}


def two_player_label(score: int | None) -> dict[str, str] | None:
    return None if score is None else two_player_labels().get(score)
