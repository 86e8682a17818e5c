"""Issue 25.4: a click Discord delivers twice (40060) or one answered after its 3 s (10062)
is one informative log line, not a bug with a traceback, and the user gets nothing twice."""

from __future__ import annotations

import logging

import pytest
import simcord

from .helpers import open_table, start


@pytest.mark.parametrize(("code", "words"), [(40060, "delivered twice"), (10062, "too late")])
async def test_an_unanswerable_click_is_one_line_not_a_bug(
    env: simcord.Env, caplog: pytest.LogCaptureFixture, code: int, words: str
) -> None:
    world = await open_table(env, 2)
    await start(world)
    sent_before = len(env.http_requests)
    env.inject_error("POST", "/interactions/*/callback", status=400, code=code, times=1)
    with caplog.at_level(logging.INFO):
        result = await world.players[1].click(world.message(), label="My hand")
    assert not result.acknowledged  # Discord refused the answer: nothing reached the user
    lines = [r for r in caplog.records if words in r.getMessage()]
    assert len(lines) == 1 and lines[0].exc_info is None
    assert not [r for r in caplog.records if "unexpected error" in r.getMessage()]
    assert env.bot.unexpected_errors == []
    # nothing was sent in its place either (no follow-up apology)
    later = env.http_requests[sent_before:]
    assert not [r for r in later if r.method == "POST" and "/webhooks/" in r.path]
