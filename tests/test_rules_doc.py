"""Every `RULES x.y` citation in the code resolves to a heading of docs/rules.md (pure text, fast).

Citations are collected from the .py and .tsv files of engine/, agents/, experiments/ and tests/
in every form the code uses: `RULES 3.9`, `RULES 3`, `RULES 3.9/3.10`, `RULES 4.1, 4.3`,
`RULES 4.3 / 4.4 / 4.6`, ranges `RULES 4.1-4.7` (every section in between is checked),
`RULES section 4`, `RULES.md section 4`, and regex-escaped `RULES 4\\.3` in tests. The rule codes
that engines raise (`IllegalAction("5.4", ...)`, `refusal("3.9", ...)`, shown to people as
"RULES 5.4") and the expected-rule column of the clue-case table are checked too.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rules.md"
SCANNED = ("engine", "agents", "experiments", "tests")
SUFFIXES = (".py", ".tsv")
CLUE_CASES = ROOT / "tests" / "engine" / "clue_cases.tsv"

NUM = r"\d+(?:\.\d+)?(?!\d)"
ITEM = rf"{NUM}(?:\s*[-\u2013]\s*{NUM})?"
CITATION = re.compile(rf"\bRULES(?:\.md)?(?:\s+sections?)?\s+({ITEM}(?:\s*[,/]\s*{ITEM})*)")
RAISED = re.compile(rf"\b(?:IllegalAction|refusal|off_board)\(\s*[\"']({NUM})[\"']")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
NUMBERED = re.compile(r"^(\d+(?:\.\d+)?)\.?\s")


def _key(number: str) -> tuple[int, ...]:
    return tuple(int(part) for part in number.split("."))


def _expand(item: str) -> list[str]:
    """`4.3` -> [4.3]; `4.1-4.7` -> [4.1, ..., 4.7]; `1-2` -> [1, 2]; a cross-section range -> its ends."""
    ends = re.findall(NUM, item)
    if len(ends) == 1:
        return ends
    lo, hi = _key(ends[0]), _key(ends[1])
    if len(lo) == len(hi) and lo[:-1] == hi[:-1] and lo[-1] <= hi[-1]:
        prefix = ".".join(str(p) for p in lo[:-1])
        return [f"{prefix}.{n}" if prefix else str(n) for n in range(lo[-1], hi[-1] + 1)]
    return ends


def cited_numbers(text: str) -> list[tuple[str, int]]:
    """(section number, line) for every section a text cites with `RULES ...`."""
    text = text.replace("\\.", ".")  # regex-escaped citations in tests: RULES 4\.3
    found = []
    for match in CITATION.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        for item in re.split(r"\s*[,/]\s*", match.group(1)):
            found.extend((number, line) for number in _expand(item))
    return found


def _scanned_files() -> list[Path]:
    me = Path(__file__).resolve()
    files = []
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file() and path.resolve() != me \
                    and "__pycache__" not in path.parts:
                files.append(path)
    return files


def _citations() -> dict[str, list[str]]:
    """section number -> ['file:line', ...] over the scanned code."""
    where = defaultdict(list)
    for path in _scanned_files():
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(ROOT).as_posix()
        for number, line in cited_numbers(text):
            where[number].append(f"{rel}:{line}")
        for match in RAISED.finditer(text):
            where[match.group(1)].append(f"{rel}:{text.count(chr(10), 0, match.start()) + 1}")
    return where


def _headings() -> list[tuple[int, str]]:
    """(level, text) of every Markdown heading of docs/rules.md outside code fences."""
    out, fenced = [], False
    for raw in DOC.read_text(encoding="utf-8").splitlines():
        if raw.lstrip().startswith("```"):
            fenced = not fenced
            continue
        match = None if fenced else HEADING.match(raw)
        if match:
            out.append((len(match.group(1)), match.group(2)))
    return out


def _section_numbers() -> list[tuple[int, str]]:
    """(level, number) of every numbered heading: `## 3. Codenames Duet`, `### 3.9 ...`."""
    out = []
    for level, text in _headings():
        match = NUMBERED.match(text)
        if match:
            out.append((level, match.group(1)))
    return out


def _unresolved(where: dict[str, list[str]], sections: set[str]) -> str:
    return "\n".join(f"RULES {n}: {', '.join(where[n][:5])}{' ...' if len(where[n]) > 5 else ''}"
                     for n in sorted(where, key=_key) if n not in sections)


def test_the_collector_reads_every_citation_form():
    def numbers(text):
        return [n for n, _ in cited_numbers(text)]

    assert numbers("# RULES 3.9") == ["3.9"]
    assert numbers('"""Codenames (RULES 1) and Pictures (RULES 2)."""') == ["1", "2"]
    assert numbers("RULES 3.9/3.10 and RULES 4.1, 4.3") == ["3.9", "3.10", "4.1", "4.3"]
    assert numbers("(RULES 4.3 / 4.4 / 4.6)") == ["4.3", "4.4", "4.6"]
    assert numbers("RULES 4.1-4.4, 4.8") == ["4.1", "4.2", "4.3", "4.4", "4.8"]
    assert numbers("RULES 1, 2, 4") == ["1", "2", "4"]
    assert numbers("RULES section 4; RULES.md section 5") == ["4", "5"]
    assert numbers(r'term.expect(r"Refused \(RULES 4\.3\)")') == ["4.3"]
    # what follows a colon, a semicolon or a word is not a section
    assert numbers("RULES 5.2: 4-5 players 1 spy") == ["5.2"]
    assert numbers("RULES 1.1: 9/8/7/1; RULES 2.1: 8/7/4/1") == ["1.1", "2.1"]
    assert numbers("(RULES 3; 9 tokens by default)") == ["3"]
    assert numbers("side B arbitrary but RULES 3.2-valid") == ["3.2"]
    assert numbers("see RULES.md, f'(RULES {rule})', RULES = (...)") == []
    assert numbers("RULES 3.10 and RULES 1.10.") == ["3.10", "1.10"]


def test_the_code_cites_rules():
    where = _citations()
    assert sum(len(v) for v in where.values()) > 300, "the collector found almost no citations"
    assert {"1.1", "3.9", "4.3", "5.4"} <= set(where)


def test_every_cited_section_is_a_heading_of_docs_rules():
    sections = {number for _, number in _section_numbers()}
    missing = _unresolved(_citations(), sections)
    assert not missing, f"cited in the code but not a heading of docs/rules.md:\n{missing}"


def test_clue_case_table_rule_column_resolves():
    sections = {number for _, number in _section_numbers()}
    where = defaultdict(list)
    for i, line in enumerate(CLUE_CASES.read_text(encoding="utf-8").splitlines(), 1):
        fields = line.split("\t")
        if line.startswith("#") or len(fields) < 5:
            continue
        if re.fullmatch(NUM, fields[4].strip()):
            where[fields[4].strip()].append(f"{CLUE_CASES.relative_to(ROOT).as_posix()}:{i}")
    assert where, "no rule column found in the clue-case table"
    missing = _unresolved(where, sections)
    assert not missing, f"clue cases name rules docs/rules.md lacks:\n{missing}"


def test_headings_are_unique():
    texts = [text for _, text in _headings()]
    repeated = sorted({t for t in texts if texts.count(t) > 1})
    assert not repeated, f"repeated headings in docs/rules.md: {repeated}"
    numbers = [number for _, number in _section_numbers()]
    repeated = sorted({n for n in numbers if numbers.count(n) > 1}, key=_key)
    assert not repeated, f"section numbers used twice in docs/rules.md: {repeated}"


def test_sections_are_nested_and_in_order():
    top, last = None, None
    for level, number in _section_numbers():
        parts = _key(number)
        if len(parts) == 1:
            assert level == 2, f"section {number} should be a `##` heading"
            assert top is None or parts[0] == top + 1, f"section {number} follows section {top}"
            top, last = parts[0], 0
        else:
            assert level == 3, f"section {number} should be a `###` heading"
            assert parts[0] == top, f"section {number} sits under section {top}"
            assert parts[1] == last + 1, f"section {number} follows {top}.{last}"
            last = parts[1]
    assert top == 5, "docs/rules.md should number sections 1 to 5"
