"""experiments/tools/build_pictures.py rebuilds the card set from an npm package (a tiny fake one here)."""

from __future__ import annotations

import json

import pytest

from experiments.tools.build_pictures import build, read_selection
from engine.paths import data_path

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 40


def fake_package(root):
    pkg = root / "package"
    (pkg / "img" / "twitter" / "64").mkdir(parents=True)
    (pkg / "package.json").write_text(json.dumps({"version": "16.0.0"}))
    emoji = [{"short_name": "apple", "short_names": ["apple"], "unified": "1F34E", "name": "RED APPLE",
              "image": "1f34e.png", "subcategory": "food-fruit", "has_img_twitter": True}]
    (pkg / "emoji.json").write_text(json.dumps(emoji))
    (pkg / "img" / "twitter" / "64" / "1f34e.png").write_bytes(PNG)
    return root


def test_build_copies_images_and_writes_the_catalogue(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "selection.psv").write_text("# comment\napple|apple|a red apple|apple,fruit,red|사과,과일\n",
                                       encoding="utf-8")
    catalogue = build(fake_package(tmp_path / "npm"), out)
    (card,) = catalogue["cards"]
    assert card["id"] == "apple" and card["tags_ko"] == ["사과", "과일"] and card["category"] == "food-fruit"
    assert (out / "img" / "apple.png").read_bytes() == PNG
    assert json.loads((out / "cards.json").read_text(encoding="utf-8")) == catalogue
    assert catalogue["license"] == "CC-BY-4.0"


def test_a_selection_naming_a_missing_emoji_fails(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "selection.psv").write_text("pear|pear|a pear|pear,fruit,green|배\n", encoding="utf-8")
    with pytest.raises(ValueError, match="pear"):
        build(fake_package(tmp_path / "npm"), out)


def test_the_shipped_selection_matches_the_shipped_catalogue():
    rows = read_selection(data_path("pictures", "selection.psv"))
    cards = json.loads(data_path("pictures", "cards.json").read_text(encoding="utf-8"))["cards"]
    assert [r["id"] for r in rows] == [c["id"] for c in cards]
    assert [r["description"] for r in rows] == [c["description"] for c in cards]
