"""The public side's files stay readable in one sitting: none in ``bot/screens`` or
``bot/views`` runs past about 800 lines. Files are sized by idea (the developer guide): one
idea stays whole in one file, so this catches only a file grown into two ideas, never a
cohesive one held under a lower figure by a satellite."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 800


def long_files(folders: tuple[str, ...], limit: int = LIMIT) -> list[str]:
    found = []
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > limit:
                found.append(f"{path.relative_to(ROOT).as_posix()}: {lines} lines")
    return found


def test_no_screen_or_view_file_is_two_ideas_long() -> None:
    assert long_files(("bot/screens", "bot/views")) == []


def test_a_long_file_is_found() -> None:
    """The check above can fail: at a lower limit the longest files are reported."""
    assert "bot/views/hand.py" in " ".join(long_files(("bot/views",), limit=100))
