"""The picture cards of Codenames Pictures (RULES 2.1): real images with a written description.

The catalogue is data (`data/pictures/cards.json`, Twemoji images, CC-BY-4.0): each card has an
id (what records put in "words"), an image file, an English description and tags (English and
Korean) that text-only agents can embed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..paths import data_path


@dataclass(frozen=True)
class PictureCard:
    id: str
    file: str                      # relative to data/pictures/
    description: str               # what the picture shows, in English
    tags: tuple[str, ...]          # English tags
    tags_ko: tuple[str, ...]       # Korean tags
    source: str                    # the Twemoji code point(s) it was made from

    @property
    def path(self) -> Path:
        return data_path("pictures", self.file)

    def text(self) -> str:
        """One line an agent can embed: the description and the tags."""
        return f"{self.description} ({', '.join(self.tags)})"


@lru_cache(maxsize=1)
def load_cards() -> dict[str, PictureCard]:
    """Every picture card of the catalogue, by id (in catalogue order)."""
    data = json.loads(data_path("pictures", "cards.json").read_text(encoding="utf-8"))
    return {c["id"]: PictureCard(c["id"], c["file"], c["description"], tuple(c["tags"]),
                                 tuple(c.get("tags_ko", ())), c.get("source", ""))
            for c in data["cards"]}


def card_ids() -> tuple[str, ...]:
    return tuple(load_cards())


def describe(card_id: str) -> PictureCard:
    """The card of an id; KeyError for an id the catalogue does not have."""
    return load_cards()[card_id]
