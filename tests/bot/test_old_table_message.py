"""A table message nearly an hour old is never edited on the hot path: when something changes
it is posted anew at the bottom and the old one loses its controls (Discord limits edits of
older messages much more strictly), so a relaxed game over days keeps one live table message."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from .helpers import custom_ids, discard_id, open_hand, open_table, start

pytestmark = pytest.mark.simcord(settle_timeout=1)

EDIT = re.compile(r"/channels/(\d+)/messages/(\d+)$")


def edits_of(env: Any, since: int) -> list[tuple[int, Any]]:
    """The message edits (id, body) the bot sent since request ``since``."""
    found = []
    for entry in env.http_requests[since:]:
        match = EDIT.search(entry.path)
        if entry.method == "PATCH" and match:
            found.append((int(match.group(2)), entry.json))
    return found


def live_controls(message: Any) -> bool:
    return any(cid.startswith("sh:") for cid in custom_ids(message))


async def test_an_hour_old_table_message_is_posted_anew_not_edited(env: Any) -> None:
    world = await open_table(env, 2, pace="relaxed", turn_hours=24)
    await start(world)
    await env.advance_time(60)
    first = world.table.record.message_id
    hand = await open_hand(world, world.current())
    await env.advance_time(2 * 3600)  # the message is old now
    # Hours without a click: the table may rest out of memory; read it back to ask whose turn.
    await world.service.resident_in(world.channel.id)
    mark = len(env.http_requests)
    player = world.current()
    other = next(p for p in world.players if p is not player)
    await open_hand(world, other)  # followed: their turn reaches them without a ping
    hand = await open_hand(world, player)
    assert (await player.click(hand.response, label="Draw from stock")).acknowledged
    live = await world.service.resident_in(world.channel.id)
    card = live.game.hand_of(str(player.id))[-1]
    assert (
        await player.select(hand.response, [str(card)], custom_id=discard_id(hand.response))
    ).acknowledged
    await env.advance_time(30)
    now = (await world.service.resident_in(world.channel.id)).record.message_id
    assert now != first
    for message_id, body in edits_of(env, mark):
        age = discord.utils.utcnow() - discord.utils.snowflake_time(message_id)
        if age.total_seconds() >= 3600:  # only the strip of its controls
            assert message_id == first
            assert "sh:" not in repr(body)
    with_controls = [m for m in world.channel.history() if live_controls(m)]
    assert [m.id for m in with_controls] == [now]


async def test_a_fresh_table_message_is_still_edited_in_place(env: Any) -> None:
    world = await open_table(env, 2)
    await start(world)
    await env.advance_time(10)
    first = world.table.record.message_id
    player = world.current()
    hand = await open_hand(world, player)
    await player.click(hand.response, label="Draw from stock")
    await env.advance_time(10)
    assert world.table.record.message_id == first
