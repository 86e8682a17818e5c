"""The channel is told each deal's shuffle commitment before anyone plays: the SHA-256 of the
deal's seed (``engine/shuffle.py``), so that the seeds revealed with the game's record can be
checked against what was announced."""

from __future__ import annotations

import hashlib
from typing import Any

from .helpers import text_of
from .test_deal_pause import end_deal_one, two_deal_table
from .test_languages import flush_outboxes


def announced(world: Any) -> list[str]:
    """The commitments the channel shows, oldest first (their first 16 digits: the channel's
    line stays short; the seeds' list shows each whole)."""
    found = []
    for message in reversed(list(world.channel.history())):
        for line in text_of(message).splitlines():
            if "🔒 Seed hash" in line:
                found.append(line.split("`")[1])
    return found


async def test_each_deal_announces_the_hash_of_its_seed_before_play(env: Any) -> None:
    world = await two_deal_table(env)
    await flush_outboxes(env)
    game = world.table.game
    first = game.deal_seed(game.deal_attempt)
    assert first is not None
    assert announced(world) == [hashlib.sha256(first).hexdigest()[:16]]
    await end_deal_one(world, env)
    await env.advance_time(6)
    await flush_outboxes(env)
    second = game.deal_seed(game.deal_attempt)
    assert second is not None and second != first
    assert announced(world) == [
        hashlib.sha256(first).hexdigest()[:16],
        hashlib.sha256(second).hexdigest()[:16],
    ]
