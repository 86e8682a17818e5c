"""The table on a phone, measured in Chromium (``tools.phone_heights``): the try session's
table message at deal 1 stands at most about 550 px tall at 390 px wide, the game's end is
one message carrying Play again (the table message keeps its last lines and points to it),
and the game's offline HTML replay does not scroll sideways at 390 px.

Slow and in the browser marker like ``test_try_browser.py`` (a whole game in simcord and
Chromium, about half a minute); ``SHANGHAI_REQUIRE_BROWSER=1`` turns a missing browser into
a failure. The screenshots land in the test's folder.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from tools.phone_heights import CHROMIUM, PLAY_AGAIN, WIDTH, measure

pytestmark = [pytest.mark.slow, pytest.mark.browser]

#: The deal-1 table message's ceiling at 390 px wide: "about 550 px", a few px of fonts' leeway.
DEAL_ONE = 560


def _need(available: bool, what: str) -> None:
    if not available:
        if os.environ.get("SHANGHAI_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{what} is missing (SHANGHAI_REQUIRE_BROWSER=1)")
        pytest.skip(f"{what} is missing")


def test_the_table_reads_on_a_phone(tmp_path: Path) -> None:
    _need(CHROMIUM.exists(), "/usr/bin/chromium (apt-get install chromium)")
    try:
        import playwright.async_api  # noqa: F401
        import simcord.preview  # noqa: F401
    except ImportError:
        _need(False, "the try extra and playwright (pip install -e '.[try,dev]')")
    heights = asyncio.run(measure(1, tmp_path))
    assert "Deal 1 of 2" in heights.deal_one.text
    assert 0 < heights.deal_one.height <= DEAL_ONE, heights.deal_one
    assert (tmp_path / "deal-1-1.png").exists()
    # The end: one message offers Play again, with the final standings and the replay.
    ending = [shown for shown in heights.end if any(PLAY_AGAIN in b for b in shown.buttons)]
    assert len(ending) == 1, [shown.buttons for shown in heights.end]
    assert "Game over" in ending[0].text
    assert any("Replay" in label for label in ending[0].buttons), ending[0].buttons
    assert len(heights.end) <= 2
    assert heights.replay_width <= WIDTH, heights.replay_width
    assert heights.replay_height > 0
