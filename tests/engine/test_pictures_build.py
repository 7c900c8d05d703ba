"""experiments/tools/build_pictures.py rebuilds the card set from an npm package (a tiny fake one here)."""

from __future__ import annotations

import json
import shutil

import pytest

from experiments.tools.build_pictures import build, main, read_selection
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
    catalogue = build(fake_package(tmp_path / "npm"), out, out / "selection.psv")
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
        build(fake_package(tmp_path / "npm"), out, out / "selection.psv")


def test_the_shipped_selection_matches_the_shipped_catalogue():
    rows = read_selection(data_path("pictures", "selection.psv"))
    cards = json.loads(data_path("pictures", "cards.json").read_text(encoding="utf-8"))["cards"]
    assert [r["id"] for r in rows] == [c["id"] for c in cards]
    assert [r["description"] for r in rows] == [c["description"] for c in cards]


def shipped_package(root, drop=()):
    """A fake package with every emoji the shipped selection names (bar `drop`), one PNG each."""
    pkg = fake_package(root) / "package"
    emoji = []
    for row in read_selection(data_path("pictures", "selection.psv")):
        if row["short_name"] not in drop:
            image = f"{row['id']}.png"
            emoji.append({"short_names": [row["short_name"]], "unified": "1F000", "name": row["id"].upper(),
                          "image": image, "subcategory": "test", "has_img_twitter": True})
            (pkg / "img" / "twitter" / "64" / image).write_bytes(PNG)
    (pkg / "emoji.json").write_text(json.dumps(emoji))
    return root


def test_a_partial_package_leaves_the_cards_as_they_were(tmp_path, capsys):
    """Every emoji is checked before anything is written: the old images and cards.json stay."""
    pics = tmp_path / "pics"
    shutil.copytree(data_path("pictures"), pics)
    before = {p.name: p.read_bytes() for p in (pics / "img").iterdir()}
    cards = (pics / "cards.json").read_bytes()
    with pytest.raises(SystemExit) as exc:
        main([str(shipped_package(tmp_path / "npm", drop={"dog"})), "--out", str(pics)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and "'dog'" in err
    assert {p.name: p.read_bytes() for p in (pics / "img").iterdir()} == before
    assert (pics / "cards.json").read_bytes() == cards
    assert sorted(p.name for p in pics.iterdir()) == sorted(p.name for p in data_path("pictures").iterdir())


def test_a_new_out_folder_reads_the_shipped_selection(tmp_path):
    """`--out NEWDIR` builds from data/pictures/selection.psv (the new folder has none)."""
    out = tmp_path / "new"
    main([str(shipped_package(tmp_path / "npm")), "--out", str(out)])
    catalogue = json.loads((out / "cards.json").read_text(encoding="utf-8"))
    shipped = read_selection(data_path("pictures", "selection.psv"))
    assert [c["id"] for c in catalogue["cards"]] == [r["id"] for r in shipped]
    assert sorted(p.name for p in (out / "img").iterdir()) == sorted(f"{r['id']}.png" for r in shipped)
    assert sorted(p.name for p in out.iterdir()) == ["cards.json", "img"]
