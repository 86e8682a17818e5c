"""The channel sees every change even when Discord refuses a send or an edit for a while
(issue 16.6), the host hears once that a permission is missing, and an outbox goes when its
table has closed and everything it held is out (issue 16.9)."""

from __future__ import annotations

import logging
import sqlite3
from types import SimpleNamespace
from typing import Any

import discord
import pytest
import simcord
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from bot.i18n import t
from bot.views.table import render_table

from .helpers import (
    World,
    container_text,
    custom_ids,
    discard_id,
    gallery_alts,
    open_hand,
    open_table,
    start,
    text_of,
)

# Retries are a few seconds apart: keep every sleep on the virtual clock.
pytestmark = pytest.mark.simcord(settle_timeout=1)


def turn_pings(world: World) -> list[str]:
    """The "your turn" lines posted so far, in order (several may share a message)."""
    lines = (line for m in world.channel.history() for line in text_of(m).splitlines())
    return [line for line in lines if "your turn" in line]


async def play_a_turn(world: World) -> Any:
    """The in-turn player draws and discards: the turn passes (a table edit and a ping)."""
    p = world.current()
    hand = await open_hand(world, p)
    await p.click(hand.response, label="Draw from stock")
    card = world.table.game.hand_of(str(p.id))[-1]
    assert (
        await p.select(hand.response, [str(card)], custom_id=discard_id(hand.response))
    ).acknowledged
    return world.current()


def shown(world: World) -> tuple[str | None, list[str]]:
    """The table message's text and what its picture says in words (the seats, the melds)."""
    message = world.message()
    return container_text(message), gallery_alts(message)


def expected(world: World) -> tuple[str | None, list[str]]:
    """The table message as the publisher draws the table now, with its picture attached."""
    alt = t("picture.alt_table", "en")
    layout = render_table(world.service.public(world.table.id), picture=alt).to_components()
    return container_text(layout), gallery_alts(SimpleNamespace(components=layout))


async def test_a_failed_edit_and_ping_are_retried_in_order(env: simcord.Env) -> None:
    world = await open_table(env, 2)
    await start(world)
    await env.advance_time(9)  # the first buy window closes
    pings = turn_pings(world)
    env.inject_error("*", "/channels/*/messages*", status=503, times=None)
    env.inject_error("*", "/webhooks/*", status=503, times=None)  # clicks' follow-ups too
    nxt = await play_a_turn(world)
    assert turn_pings(world) == pings  # Discord is down: nothing got through yet
    env.backend.faults.clear()
    await env.advance_time(61)  # the back-off never waits longer than a minute
    assert turn_pings(world) == [*pings, f"▶️ <@{nxt.id}>, your turn (deal 1)."]
    assert shown(world) == expected(world)


async def test_a_revoked_permission_tells_the_host_once_and_nothing_is_lost(
    env: simcord.Env,
) -> None:
    world = await open_table(env, 3)
    await start(world)
    await env.advance_time(9)
    pings = turn_pings(world)
    bot_id = env.bot.user.id
    env.backend.set_overwrite(
        world.channel.id,
        Overwrite(bot_id, OverwriteType.MEMBER, deny=discord.Permissions(send_messages=True).value),
    )
    first = await play_a_turn(world)
    await env.advance_time(9)
    second = await play_a_turn(world)
    await env.advance_time(9)
    assert turn_pings(world) == pings
    host = world.players[0]
    told = [m.content for m in host.user.dm_channel.history()]
    assert len(told) == 1 and "Send Messages" in told[0]

    env.backend.delete_overwrite(world.channel.id, bot_id)
    await env.advance_time(61)
    assert turn_pings(world) == [
        *pings,
        f"▶️ <@{first.id}>, your turn (deal 1).",
        f"▶️ <@{second.id}>, your turn (deal 1).",
    ]
    assert len(host.user.dm_channel.history()) == 1
    assert shown(world) == expected(world)


async def test_an_outbox_goes_when_its_table_has_closed_and_drained(env: simcord.Env) -> None:
    world = await open_table(env, 2)
    await start(world)
    publisher = env.bot.publisher
    assert world.channel.id in publisher.boxes
    ask = await world.players[0].slash(world.channel, "shanghai end")
    await world.players[0].click(ask.response, label="End the table")
    await env.advance_time(5)
    assert world.channel.id not in publisher.boxes


async def test_a_click_the_database_refuses_is_explained_without_a_traceback(
    env: simcord.Env, caplog: pytest.LogCaptureFixture
) -> None:
    world = await open_table(env, 2)
    await start(world)
    store = world.service.store

    async def disk_full(*args: object, **kwargs: object) -> int:
        raise sqlite3.OperationalError("database or disk is full")

    store.save_action = disk_full
    p = world.current()
    hand = await open_hand(world, p)
    with caplog.at_level(logging.INFO):
        result = await p.click(hand.response, label="Draw from stock")
    simcord.assert_responded(result, contains="can't save", ephemeral=True)
    assert not [r for r in caplog.records if r.exc_info]
    assert env.bot.unexpected_errors == []


def live_table_messages(world: World) -> list[Any]:
    """Messages in the channel that still carry buttons."""
    return [m for m in world.channel.history() if custom_ids(m)]


async def test_a_failed_strip_of_the_old_message_posts_nothing_twice(env: simcord.Env) -> None:
    """Issue 25.3: the move posts the new table message, then the old one's strip fails once:
    the ping is not posted again, and the old message loses its buttons on the retry, so only
    one table message is live."""
    world = await open_table(env, 2)
    await start(world)
    await env.advance_time(9)
    old = world.message().id
    pings = turn_pings(world)
    env.inject_error("PATCH", f"/channels/*/messages/{old}", status=503, times=1)
    nxt = await play_a_turn(world)
    await env.advance_time(61)
    assert turn_pings(world) == [*pings, f"▶️ <@{nxt.id}>, your turn (deal 1)."]
    assert [m.id for m in live_table_messages(world)] == [world.message().id]
    assert world.message().id != old


async def test_no_message_is_ever_left_empty(env: simcord.Env) -> None:
    """Issue 24.5: real Discord refuses an edit that leaves a message with no text, embed,
    attachment or component (50006): the lobby message, moved away from, keeps one line."""
    world = await open_table(env, 2)
    await start(world)
    for _ in range(3):
        await env.advance_time(9)
        await play_a_turn(world)
    await env.advance_time(30)
    for message in world.channel.history():
        assert message.content or message.embeds or message.attachments or message.components


async def test_a_deleted_table_message_is_posted_anew_at_the_next_change(
    env: simcord.Env,
) -> None:
    """Issue 24.5: someone deletes the table message mid-game; the next change posts it again
    (before, nothing showed the table until someone ran ``/shanghai table``). Both players
    follow their open hands, so the turn is an edit of the table message, not a move."""
    world = await open_table(env, 2)
    await start(world)
    await env.advance_time(9)
    hands = {p.id: await open_hand(world, p) for p in world.players}
    gone = world.message().id
    env.backend.delete_message(world.channel.id, gone)
    p = world.current()
    hand = hands[p.id]
    await p.click(hand.response, label="Draw from stock")
    card = world.table.game.hand_of(str(p.id))[-1]
    await p.select(hand.response, [str(card)], custom_id=discard_id(hand.response))
    await env.advance_time(30)
    live = live_table_messages(world)
    assert len(live) == 1 and live[0].id != gone
    assert world.table.record.message_id == live[0].id
