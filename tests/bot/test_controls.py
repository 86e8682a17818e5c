"""Every control that outlives a restart is built on ``Control``, the one base that rebuilds
it from its custom_id and answers its click inside ``guard``."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BASE = "bot/interactions/controls.py"


def own_dynamic_items(source: str) -> Iterator[tuple[int, str]]:
    """(line, class) for each class that subclasses ``DynamicItem`` itself, not ``Control``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and any(
            "DynamicItem" in ast.unparse(base) for base in node.bases
        ):
            yield node.lineno, node.name


def test_every_dynamic_item_is_a_control() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in sorted((ROOT / "bot").rglob("*.py"))
        if path.relative_to(ROOT).as_posix() != BASE
        for line, name in own_dynamic_items(path.read_text("utf-8"))
    ]
    assert offenders == []


def test_the_finder_finds_a_control_written_the_old_way() -> None:
    old = (
        "class SeedsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=T):\n"
        "    pass\n"
        "class HandButton(Control[discord.ui.Button[Any]], template=T):\n"
        "    pass\n"
    )
    assert list(own_dynamic_items(old)) == [(1, "SeedsButton")]
