"""Every table of words a person reads has an English and a Korean wording of each line, with the
same placeholders ({word}, {number}, ...) and the same RULES citations: a line missing in one
language shows a raw key (or raises KeyError), a placeholder missing in one raises KeyError when it
is filled in or shows '{word}' as it is. The play harness's own table: test_play_session.py."""

from __future__ import annotations

import json
import re
import shutil
import string
import subprocess
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "experiments" / "web" / "static"
CITED = re.compile(r"(?<![\d.])\d+\.\d+(?![\d.])")   # a rule's number: 4.3, 1.2


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def check_pair(name: str, en: dict, ko: dict, placeholders=fields) -> None:
    assert set(en) == set(ko), f"{name}: only in one language: {sorted(set(en) ^ set(ko))}"
    for key, english in en.items():
        korean = ko[key]
        assert isinstance(english, str) and isinstance(korean, str) and english and korean, (name, key)
        assert placeholders(english) == placeholders(korean), (name, key, english, korean)
        assert sorted(CITED.findall(english)) == sorted(CITED.findall(korean)), (name, key, english, korean)
        assert "RULES" not in korean, (name, key, korean)   # a Korean line cites 규칙 4.1, as every other


def test_the_clue_filters_messages():
    from engine.clues.messages import _MESSAGES, message

    check_pair("engine.clues.messages", {k: en for k, (_, en) in _MESSAGES.items()},
               {k: ko for k, (ko, _) in _MESSAGES.items()})
    for key, (ko, en) in _MESSAGES.items():   # every line fills in with its own fields, in both languages
        filled = {f: "x" for f in fields(en)}
        assert "{" not in message(key, "ko", **filled) and "{" not in message(key, "en", **filled)


def test_the_language_model_prompts():
    from agents.llm.prompts import RESULTS, ROLES, TEAMS, TEXT

    check_pair("agents.llm.prompts.TEXT", TEXT["en"], TEXT["ko"])
    check_pair("agents.llm.prompts.RESULTS", RESULTS["en"], RESULTS["ko"])
    check_pair("agents.llm.prompts.TEAMS", TEAMS["en"], TEAMS["ko"])
    check_pair("agents.llm.prompts.ROLES", ROLES["en"], ROLES["ko"])


def test_the_spyword_titles():
    from experiments.web.profiles import TITLES

    for title in TITLES:
        assert title.en and title.ko and title.rule_en and title.rule_ko, title.id
        assert CITED.findall(title.rule_en) == CITED.findall(title.rule_ko), title.id


def js_table(page: str) -> dict:
    """A page's TEXT table, read by node (the page's own JavaScript object)."""
    script = f"""
const src = require("fs").readFileSync({json.dumps(str(STATIC / page))}, "utf8");
const start = src.indexOf("const TEXT = {{");
let i = src.indexOf("{{", start), depth = 0, j = i;
for (; j < src.length; j++) {{
  if (src[j] === "{{") depth++;
  else if (src[j] === "}}" && --depth === 0) break;
}}
console.log(JSON.stringify(eval("(" + src.slice(i, j + 1) + ")")));
"""
    return json.loads(subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True).stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="reading the pages' tables needs node")
@pytest.mark.parametrize("page", ["app.js", "spyword.js"])
def test_the_web_pages_tables(page):
    table = js_table(page)
    # the page's t() fills in {name} itself (common.js), so a placeholder is any {word}
    check_pair(page, table["en"], table["ko"], placeholders=lambda s: set(re.findall(r"\{(\w+)\}", s)))
