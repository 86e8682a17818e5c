"""``tools.screen_searcher --set``: a screened variant keeps its strategy's name and differs
from it only in the settings given."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from engine.players.search_expert import RolloutBudget
from tools.screen_searcher import main, merged_setting, parse_setting


def test_a_setting_is_a_name_an_attribute_and_a_python_literal() -> None:
    parser = argparse.ArgumentParser()
    assert parse_setting(parser, "Searcher.down_left=4") == ("searcher", "down_left", 4)
    assert parse_setting(parser, "expert-classic.chase=True") == ("expert-classic", "chase", True)
    with pytest.raises(SystemExit):
        parse_setting(parser, "searcher.down_left=four")
    with pytest.raises(SystemExit):
        parse_setting(parser, "down_left=4")


def test_a_dict_replaces_fields_of_a_budget_and_keeps_the_others() -> None:
    budget = RolloutBudget()
    merged = merged_setting(budget, {"samples": 20})
    assert merged == RolloutBudget(samples=20, first=budget.first, actions=budget.actions)
    assert merged_setting(3, 4) == 4


def test_a_variant_keeps_its_name_and_plays_other_games(tmp_path: Path) -> None:
    """Normal players that never buy (``buy_close=-9``, and none are short of cards in deal
    1) play other games than normal players, under the same name."""
    runs = {}
    for label, extra in (("plain", []), ("variant", ["--set", "normal.buy_close=-9"])):
        records, changes = tmp_path / f"{label}.jsonl", tmp_path / f"{label}.json"
        main(
            [
                "--games",
                "1",
                "--seed",
                "3",
                "--seats",
                "normal,normal,normal,normal",
                "--records",
                str(records),
                "--changes",
                str(changes),
                *extra,
            ]
        )
        runs[label] = json.loads(records.read_text(encoding="utf-8"))
    assert runs["plain"]["strategies"] == runs["variant"]["strategies"]
    assert runs["plain"]["totals"] != runs["variant"]["totals"]
    with pytest.raises(SystemExit):
        main(
            [
                "--games",
                "1",
                "--seats",
                "normal,normal,normal,normal",
                "--records",
                str(tmp_path / "x.jsonl"),
                "--changes",
                str(tmp_path / "x.json"),
                "--set",
                "normal.no_such_setting=1",
            ]
        )
