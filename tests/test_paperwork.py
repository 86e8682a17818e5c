"""The licence and the players' rules page: present, in the project's own words, and in step
with the engine's rules."""

from __future__ import annotations

import re
from pathlib import Path

from engine.rules import SCORE_TABLES, Rules

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "RULES.md"


def test_the_licence_is_mit() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "Permission is hereby granted" in text


def test_the_rules_page_lists_the_engines_contracts() -> None:
    text = RULES.read_text(encoding="utf-8")
    rules = Rules.preset("standard")
    rows = dict(re.findall(r"^\| (\d+) \| (.+?) \|$", text, re.MULTILINE))
    words = {1: "a", 2: "two", 3: "three"}
    for deal in range(1, 11):
        contract = rules.contract_for(deal)
        row = rows[str(deal)]
        for kind in ("set", "run"):
            sizes = [size for k, size in contract if k == kind]
            if sizes:
                count = words[len(sizes)]
                plural = "s" if len(sizes) > 1 else ""
                assert f"{count} {kind}{plural} of {sizes[0]}" in row, (deal, row)


def test_the_rules_page_scores_as_the_engine_does() -> None:
    text = RULES.read_text(encoding="utf-8")
    table = SCORE_TABLES[Rules.preset("standard").score_table]
    assert table[0] == 50 and "| Joker | 50 |" in text
    assert table[1] == table[2] == 20 and "| Ace, 2 | 20 |" in text
    assert {table[r] for r in range(3, 10)} == {5} and "| 3 to 9 | 5 |" in text
    assert {table[r] for r in range(10, 14)} == {10} and "| 10, J, Q, K | 10 |" in text


def test_the_rules_page_is_for_players_not_the_specification() -> None:
    text = RULES.read_text(encoding="utf-8")
    assert "PART A" not in text and not re.search(r"\bO\d{1,2}\b|\bS\d{2}\b", text)
    assert "docs/RULES.md" in (ROOT / "README.md").read_text(encoding="utf-8")
