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


@pytest.mark.parametrize("bad", ["tea ", "tea\r", "\ufefftea", "te\ta", "🍵", "t" * 65])
def test_a_pack_word_no_screen_can_show_is_refused_before_the_deal(bad):  # RULES 5.3
    """A custom pack's word of a CRLF file, with a byte-order mark, a trailing space or a tab was
    dealt (deal_spyword took it), and the record then refused as malformed: the game could not be
    replayed nor resumed. check_pack, which the dealer and the web's packs use, refuses it now."""
    from engine.spyword import deal_spyword

    with pytest.raises(ValueError, match="RULES 5.3: the pack word"):
        check_pack({"words": [bad, "coffee"]})
    with pytest.raises(ValueError, match="RULES 5.3"):
        deal_spyword(0, [{"words": ["coffee", bad]}], players=5)
    check_pack({"words": ["ice cream", "gelato"]})   # a space inside a word is fine


@pytest.mark.parametrize("pack", [{"words": ["tea", "coffee"], "pictures": [1, 2]},
                                  {"words": ["tea", "coffee"], "category": 7}, {"words": ["tea", "coffee"], "id": ["x"]}])
def test_a_pack_whose_pictures_category_or_id_a_record_refuses_is_refused_before_the_deal(pack):  # RULES 5.3
    from engine.spyword import deal_spyword

    with pytest.raises(ValueError, match="'pack[.]"):
        deal_spyword(0, [pack], players=5)


@pytest.mark.parametrize("seed", [2**64, -1, True, 1.5, [1, 2]])
def test_a_spyword_seed_no_record_can_hold_is_refused_before_the_deal(seed):  # RULES 5.2 (records hold 0..2**64-1)
    from engine.spyword import deal_spyword

    with pytest.raises(ValueError, match="a deal's seed is a whole number 0..2[*][*]64-1"):
        deal_spyword(seed, [{"words": ["tea", "coffee"]}], players=5)
    deal_spyword(2**64 - 1, [{"words": ["tea", "coffee"]}], players=5)
