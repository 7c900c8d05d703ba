"""The project's Spy's Word word packs (RULES 5.3)."""

import json

import pytest

from engine.paths import data_path
from engine.spyword import check_pack


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_at_least_150_packs_of_two_similar_words(lang):  # RULES 5.3
    doc = json.loads(data_path("spyword", f"packs_{lang}.json").read_text(encoding="utf-8"))
    packs = doc["packs"]
    assert doc["language"] == lang and "CC0" in doc["license"] and len(packs) >= 150
    assert len({p["id"] for p in packs}) == len(packs)
    pairs = set()
    for p in packs:
        check_pack(p)
        a, b = p["words"]
        assert p["category"] and a not in b and b not in a, p
        pairs.add(frozenset(p["words"]))
    assert len(pairs) == len(packs)
    if lang == "ko":
        assert all(any("\uac00" <= ch <= "\ud7a3" for ch in w) for p in packs for w in p["words"])


def test_license_note_exists():
    text = data_path("spyword", "README.md").read_text(encoding="utf-8")
    assert "CC0" in text and "written by the codenames-lab project" in text.lower()
