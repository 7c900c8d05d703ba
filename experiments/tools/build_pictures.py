"""Rebuild the Codenames Pictures card set (RULES 2.1) from the Twemoji npm package.

    npm pack emoji-datasource-twitter@16.0.0          # or: npm install it anywhere
    python -m experiments.tools.build_pictures emoji-datasource-twitter-16.0.0.tgz

The selection (which emoji, and each card's id, description and tags) is hand-written data in
`data/pictures/selection.psv`; this script checks it against the package's `emoji.json`, copies
the 64x64 PNG of each chosen emoji to `data/pictures/img/<id>.png` and writes
`data/pictures/cards.json`. The images are Twemoji, CC-BY-4.0 (see data/pictures/README.md).
Every selected emoji is checked first: a package that lacks one changes nothing (exit 2). `--out DIR`
builds elsewhere, still from the shipped selection unless `--selection FILE` names another.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tarfile
import tempfile
from pathlib import Path

from engine.paths import data_path
from experiments.tools.cli import one_line_errors

PACKAGE = "emoji-datasource-twitter"
VERSION = "16.0.0"
IMAGE_SIZE = 64
LICENSE = "CC-BY-4.0"
LICENSE_URL = "https://creativecommons.org/licenses/by/4.0/"
CREDIT = ("Twemoji graphics by Twitter, Inc. and other contributors (jdecked/twemoji fork), "
          "licensed under CC-BY 4.0, taken from the npm package emoji-datasource-twitter@16.0.0")


def read_selection(path: Path) -> list[dict]:
    """The hand-written selection: short_name|id|description|tags|Korean tags per line."""
    rows, seen = [], set()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("|")
        if len(parts) != 5:
            raise ValueError(f"{path}:{n}: expected 5 fields separated by |, got {len(parts)}")
        short, card_id, description, tags, tags_ko = (p.strip() for p in parts)
        if card_id in seen:
            raise ValueError(f"{path}:{n}: duplicate card id {card_id!r}")
        seen.add(card_id)
        rows.append({"short_name": short, "id": card_id, "description": description,
                     "tags": [t.strip() for t in tags.split(",") if t.strip()],
                     "tags_ko": [t.strip() for t in tags_ko.split(",") if t.strip()]})
    return rows


def package_root(path: Path, workdir: Path) -> Path:
    """The `package/` folder of an unpacked npm package, a node_modules install, or a .tgz."""
    if path.is_file():
        try:
            tar = tarfile.open(path)
        except tarfile.TarError as exc:
            raise ValueError(f"{path} is not an npm package .tgz ({exc})") from exc
        with tar:
            members = [m for m in tar.getmembers()
                       if m.name in ("package/emoji.json", "package/package.json")
                       or m.name.startswith(f"package/img/twitter/{IMAGE_SIZE}/")]
            tar.extractall(workdir, members=members)  # noqa: S202 - a package the user chose
        return workdir / "package"
    for candidate in (path, path / "package", path / "node_modules" / PACKAGE):
        if (candidate / "emoji.json").exists():
            return candidate
    raise FileNotFoundError(f"no {PACKAGE} package (emoji.json) under {path}")


def build(package: Path, out_dir: Path | None = None, selection: Path | None = None) -> dict:
    """Check every selected emoji against the package, then build the images in a folder beside
    `out_dir/img` and swap it in: a bad or partial package leaves the shipped cards as they were.
    The selection is the shipped one unless given (a new `--out` folder has none)."""
    out_dir = Path(out_dir) if out_dir else data_path("pictures")
    rows = read_selection(Path(selection) if selection else data_path("pictures", "selection.psv"))
    with tempfile.TemporaryDirectory() as tmp:
        root = package_root(Path(package), Path(tmp))
        meta = json.loads((root / "package.json").read_text(encoding="utf-8"))
        if meta.get("version") != VERSION:
            print(f"warning: {PACKAGE} version {meta.get('version')} (the cards were chosen from {VERSION})")
        emoji = {}
        for e in json.loads((root / "emoji.json").read_text(encoding="utf-8")):
            for name in e["short_names"]:
                emoji.setdefault(name, e)
        images = root / "img" / "twitter" / str(IMAGE_SIZE)
        missing = [row["short_name"] for row in rows
                   if not emoji.get(row["short_name"], {}).get("has_img_twitter")
                   or not (images / emoji[row["short_name"]].get("image", "")).is_file()]
        if missing:
            more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
            raise ValueError(f"{len(missing)} selected emoji have no Twemoji image in the package: "
                             f"{', '.join(map(repr, missing[:5]))}{more}")
        out_dir.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".img-new-", dir=out_dir))
        try:
            cards = []
            for row in rows:
                e = emoji[row["short_name"]]
                shutil.copyfile(images / e["image"], staging / f"{row['id']}.png")
                cards.append({"id": row["id"], "file": f"img/{row['id']}.png", "description": row["description"],
                              "tags": row["tags"], "tags_ko": row["tags_ko"], "category": e["subcategory"],
                              "source": f"U+{e['unified']} {e['name'].lower()}"})
            catalogue = {"source": f"{PACKAGE}@{VERSION}", "license": LICENSE, "license_url": LICENSE_URL,
                         "credit": CREDIT, "image_size": IMAGE_SIZE, "cards": cards}
            (staging / "cards.json").write_text(catalogue_json(catalogue), encoding="utf-8")
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    img_dir = out_dir / "img"
    old = Path(tempfile.mkdtemp(prefix=".img-old-", dir=out_dir))
    if img_dir.exists():
        img_dir.rename(old / "img")
    (staging / "cards.json").replace(out_dir / "cards.json")
    staging.rename(img_dir)
    shutil.rmtree(old)
    return catalogue


def catalogue_json(catalogue: dict) -> str:
    """The catalogue as JSON with one card per line (small, and readable in a diff)."""
    head = {k: v for k, v in catalogue.items() if k != "cards"}
    lines = [json.dumps(head, ensure_ascii=False)[:-1] + ', "cards": [']
    cards = [json.dumps(c, ensure_ascii=False) for c in catalogue["cards"]]
    lines += [c + ("," if i < len(cards) - 1 else "") for i, c in enumerate(cards)]
    return "\n".join(lines) + "\n]}\n"


@one_line_errors
def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("package", type=Path, help=f"{PACKAGE} .tgz, unpacked folder or npm install folder")
    parser.add_argument("--out", type=Path, default=None, help="output folder (default data/pictures)")
    parser.add_argument("--selection", type=Path, default=None,
                        help="the hand-written selection (default data/pictures/selection.psv)")
    args = parser.parse_args(argv)
    catalogue = build(args.package, args.out, args.selection)
    size = sum((args.out or data_path("pictures")).joinpath(c["file"]).stat().st_size for c in catalogue["cards"])
    print(f"{len(catalogue['cards'])} cards, {size / 1e6:.2f} MB of images")


if __name__ == "__main__":  # pragma: no cover
    main()
