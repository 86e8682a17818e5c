"""The table message moves while Discord fails: one message keeps live table controls.

Discord's 500 to a post does not mean nothing was posted: the message may be in the channel
all the same, with the table's buttons on it, and the bot posts it again at the retry. Only
the newest table message may keep live controls, so the retry finds and strips the stray."""

from __future__ import annotations

from typing import Any

import pytest
import simcord
from simcord.backend.errors import BackendError
from simcord.http import router

from .helpers import World, open_table, start
from .test_publisher_faults import live_table_messages, play_a_turn, turn_pings

# Retries are a few seconds apart: keep every sleep on the virtual clock.
pytestmark = pytest.mark.simcord(settle_timeout=1)


def posted_then_500(monkeypatch: pytest.MonkeyPatch, channel_id: int) -> None:
    """The next post to ``channel_id`` lands, and Discord answers 500 all the same."""
    real = router.dispatch
    left = [1]

    def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        result = real(backend, method, path, **kwargs)
        if left and method == "POST" and path == f"/channels/{channel_id}/messages":
            left.clear()
            raise BackendError(500, 0, "Internal Server Error (after the post landed)")
        return result

    monkeypatch.setattr(router, "dispatch", dispatch)


async def test_a_post_that_landed_despite_a_500_loses_its_controls_at_the_retry(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    world: World = await open_table(env, 2)
    await start(world)
    await env.advance_time(9)
    old = world.message().id
    pings = turn_pings(world)
    # 429 to the old message's strip, and 500 to the move's post (which landed).
    env.inject_error("PATCH", f"/channels/*/messages/{old}", status=429, times=1)
    posted_then_500(monkeypatch, world.channel.id)
    nxt = await play_a_turn(world)
    await env.advance_time(5)  # the back-off's first retry, and the strip's own
    live = live_table_messages(world)
    assert [m.id for m in live] == [world.message().id] != [old]
    assert world.table.record.message_id == live[0].id
    assert turn_pings(world)[: len(pings) + 1] == [*pings, f"▶️ <@{nxt.id}>, your turn (deal 1)."]
