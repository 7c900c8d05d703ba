"""The project's clue-legality case table (RULES section 4), tests/engine/clue_cases.tsv.

Each row was written from the rules (RULES 4.1-4.7) with a one-line reason, not from the filter's
output. A row with a seventh column is a documented miss: an xfail marked `limitation`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.clues import check_clue

pytest.importorskip("kiwipiepy")
pytest.importorskip("lemminflect")

TABLE = Path(__file__).with_name("clue_cases.tsv")


def load_cases() -> list:
    rows = []
    for n, line in enumerate(TABLE.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        lang, board, clue, expect, rule, reason = cols[:6]
        known = cols[6].strip() if len(cols) > 6 else ""
        marks = [pytest.mark.limitation, pytest.mark.xfail(strict=True, reason=known)] if known else []
        rows.append(pytest.param(lang, board.split(","), clue, expect, rule, reason, marks=marks, id=f"{n}-{lang}-{clue}"))
    return rows


CASES = load_cases()


def test_table_size():  # the floor: 300 cases, 150 per language
    langs = [c.values[0] for c in CASES]
    assert langs.count("en") >= 150 and langs.count("ko") >= 150


@pytest.mark.parametrize("lang, board, clue, expect, rule, reason", CASES)
def test_clue_case(lang, board, clue, expect, rule, reason):  # RULES 4.1-4.7
    v = check_clue(clue, 1, board=board, language=lang)
    assert v.status == expect, f"{reason}: {v}"  # legal, illegal or undecidable
    assert v.legal == (expect != "illegal"), f"{reason}: {v}"  # a referee allows what it cannot decide
    if expect != "legal" and rule != "-":
        assert v.rule == rule, f"{reason}: {v}"


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_legal_mask_agrees_with_check_on_the_table(lang):  # RULES 4 (the bots' fast path)
    from engine.clues import ClueFilter

    rows = [c.values for c in CASES if c.values[0] == lang]
    clues = sorted({r[2] for r in rows})
    for board in sorted({tuple(r[1]) for r in rows}):
        f = ClueFilter(list(board), language=lang)
        mask = f.legal_mask(clues)
        for clue, ok in zip(clues, mask):
            assert bool(ok) == (f.check(clue, 1).status == "legal"), (board, clue)
