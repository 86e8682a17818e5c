"""engine/ is a pure library: no discord, no database, no event loop (DEVELOPERS.md)."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = {"discord", "aiosqlite", "asyncio", "sqlite3", "socket", "time"}


def test_engine_imports_nothing_impure() -> None:
    offenders: list[str] = []
    files = sorted(ENGINE.rglob("*.py"))
    assert files, "engine/ should contain modules"
    for path in files:
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert offenders == []


def test_the_rules_stand_alone_without_the_players() -> None:
    """The computer players, hints and simulator live in ``engine/players/`` and use the
    rules; no rules module imports them."""
    offenders: list[str] = []
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            modules: list[str] = []
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                modules = [("." * node.level) + (node.module or "")]
            offenders += [
                f"{path.name}: {m}" for m in modules if m.startswith((".players", "engine.players"))
            ]
    assert (ENGINE / "players" / "strategy.py").exists()
    assert offenders == []
