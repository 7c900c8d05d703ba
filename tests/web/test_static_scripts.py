"""The pages' scripts share what they have in common through common.js, which both load (pure text,
no browser): a function of common.js is defined nowhere else, and how a page words the server's
English and says that its seat has every place taken lives there once."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "experiments" / "web" / "static"
PAGES = ("app.js", "spyword.js")
DEFINED = re.compile(r"^(?:async\s+)?function\s+(\w+)\s*\(", re.M)


def test_both_pages_load_common_js_first():
    for html, script in (("index.html", "app.js"), ("spyword.html", "spyword.js")):
        text = (STATIC / html).read_text(encoding="utf-8")
        assert text.index("/static/common.js") < text.index(f"/static/{script}"), html


def test_a_function_of_common_js_is_not_defined_again_by_a_page():
    shared = set(DEFINED.findall((STATIC / "common.js").read_text(encoding="utf-8")))
    assert {"serverText", "seatIsFull"} <= shared
    for page in PAGES:
        text = (STATIC / page).read_text(encoding="utf-8")
        assert not shared & set(DEFINED.findall(text)), page
        assert "too_many_sockets" not in text, page   # seatIsFull handles it for both
