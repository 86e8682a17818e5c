"""The table message rides on people's clicks: posted as the public follow-up of a click in a
hand and edited through that click's webhook while its token is young, so a busy table spends
none of the bot token's budget on it; without a click for 15 minutes it goes the REST way."""

from __future__ import annotations

import asyncio
import re

import discord
import pytest
import simcord

from bot import Settings
from bot.channel.budget import STRIP
from bot.i18n import t
from bot.views.table import render_table
from engine.cards import parse_cards
from tools.discord_api import DEFAULT_SPEC, ApiDescription, check_requests

from .helpers import (
    World,
    container_text,
    controls,
    custom_ids,
    discard_id,
    open_hand,
    open_table,
    patient,
    start,
    text_of,
)

#: A few seconds to settle: each turn draws the table picture, slow on a loaded machine.
pytestmark = pytest.mark.simcord(settle_timeout=3)


def table_calls(env: simcord.Env, since: int) -> list[tuple[str, str]]:
    """The calls since request ``since`` that post or edit a message: (method, path)."""
    return [
        (r.method, r.path)
        for r in env.http_requests[since:]
        if (r.method in ("POST", "PATCH") and "/messages" in r.path and "/channels/" in r.path)
        or (r.path.startswith("/webhooks/") and not r.path.endswith("@original"))
    ]


def is_webhook(path: str) -> bool:
    return path.startswith("/webhooks/")


def table_message(world: World) -> discord.Message:
    """The table message as a person finds it: the one message of the channel with live
    controls (read from the channel, so whether the table is in memory does not matter)."""
    live = [m for m in world.channel.history() if controls(m)]
    assert len(live) == 1, "exactly one message has live table controls"
    return live[0]


async def recorded_message(world: World, table_id: int) -> int | None:
    """Where the store says the table message is."""
    record = await world.env.bot.store.get_table(table_id)
    assert record is not None
    return record.message_id


async def play_turn(world: World) -> None:
    """The person whose turn the table message names draws and discards through their hand,
    as a person would: the last card of the discard list their hand offers."""
    turn = re.search(r"Turn: \*\*(.+?)\*\*", container_text(table_message(world)))
    assert turn is not None
    player = next(p for p in world.players if p.name == turn.group(1))
    hand = await player.click(table_message(world), label="My hand")
    assert hand.acknowledged and hand.ephemeral
    await player.click(hand.response, label="Draw from stock")
    select = discard_id(hand.response)
    [discard] = [c for c in controls(hand.response) if c.get("custom_id") == select]
    card = discard["options"][-1]["value"]
    await player.select(hand.response, [card], custom_id=select)
    await world.env.advance_time(9)  # the buy window


def assert_valid_requests(env: simcord.Env) -> None:
    """Every request the bot made (follow-ups and their edits through clicks' webhooks too)
    is one Discord's API description documents, where the description is on the machine."""
    if DEFAULT_SPEC.exists():  # Discord's description is on development machines, not in CI
        checked = check_requests(env.http_requests, ApiDescription.load())
        assert checked.count > 10 and checked.invalid == []


def shows_the_game(world: World) -> None:
    """The table message shows the game as the bot last told the channel of it (the
    publisher's latest snapshot, held whether or not the table is in memory)."""
    alt = t("picture.alt_table", "en")
    latest = world.env.bot.publisher.boxes[world.channel.id].last
    assert latest is not None
    drawn = render_table(latest, picture=alt).to_components()
    assert container_text(table_message(world)) == container_text(drawn)


async def test_clicks_in_the_hand_carry_the_table_message_through_their_webhook(
    env: simcord.Env,
) -> None:
    """After a click in a hand, the table message is posted anew as that click's public
    follow-up, and only then the old one is stripped by REST (the one call on the token); from
    then on it is edited through the click's webhook: everyone sees it, it shows the game, its
    id is recorded."""
    world = await open_table(env, 2)
    await start(world)
    table_id = world.table.id  # just started: in play, in memory
    await env.advance_time(9)
    first = table_message(world).id
    since = len(env.http_requests)
    for _ in range(4):
        await play_turn(world)
    calls = table_calls(env, since)
    rest = [call for call in calls if not is_webhook(call[1])]
    assert rest == [("PATCH", f"/channels/{world.channel.id}/messages/{first}")]  # the strip
    app = env.bot.application_id
    assert calls[0][0] == "POST" and calls[0][1].startswith(f"/webhooks/{app}/")  # new first
    assert calls.index(rest[0]) > 0
    posts = [path for method, path in calls if method == "POST"]
    assert len(posts) == 1 and posts[0].startswith(f"/webhooks/{app}/")
    message = table_message(world)
    edits = [path for method, path in calls if method == "PATCH" and is_webhook(path)]
    assert len(edits) >= 2
    assert all(path == f"{posts[0]}/messages/{message.id}" for path in edits)
    assert message.id != first and await recorded_message(world, table_id) == message.id
    bob = world.players[1]
    public = [m.id for m in world.channel.history(viewer=bob)]
    assert message.id in public and first in public
    assert not message.flags.ephemeral
    old = next(m for m in world.channel.history() if m.id == first)
    assert not controls(old), "the old table message keeps its buttons"
    shows_the_game(world)
    assert env.bot.courier.carried >= 3
    assert_valid_requests(env)


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """A turn's clock that runs out a minute after the clicks' tokens (16 minutes)."""
    return settings.model_copy(update={"turn_seconds": 16 * 60})


async def test_without_a_click_for_fifteen_minutes_the_table_message_goes_by_rest(
    env: simcord.Env,
) -> None:
    """A click's token is not used after 14 minutes: a change then (a move made without a
    click in a hand, as a timer's or a computer's) edits the table message by REST as before,
    and the next click carries it again, posted anew through its own webhook."""
    world = await open_table(env, 2)
    await start(world)
    await env.advance_time(9)
    await play_turn(world)
    await play_turn(world)
    carried = table_message(world).id
    assert any(is_webhook(path) for _, path in table_calls(env, 0))
    with patient(env, 5):  # a loaded machine may take a while over the timed-out turn
        for _ in range(15):
            await env.advance_time(60)
        since = len(env.http_requests)
        for _ in range(3):  # the turn's clock runs out: the bot moves for its person
            await env.advance_time(60)
    calls = table_calls(env, since)
    # The next person's hand went to sleep with its token: their turn's ping moves the table
    # message, all by REST, the old one stripped by REST too (its token is past its life).
    assert calls and not [path for _, path in calls if is_webhook(path)]
    assert ("PATCH", f"/channels/{world.channel.id}/messages/{carried}") in calls
    shows_the_game(world)
    carried = table_message(world).id
    since = len(env.http_requests)
    await play_turn(world)
    calls = table_calls(env, since)
    assert ("PATCH", f"/channels/{world.channel.id}/messages/{carried}") in calls  # stripped
    posts = [path for method, path in calls if method == "POST"]
    assert len(posts) == 1 and is_webhook(posts[0])
    assert table_message(world).id != carried
    shows_the_game(world)
    assert_valid_requests(env)


async def test_a_webhook_that_refuses_hands_the_table_message_to_rest(env: simcord.Env) -> None:
    """A click's webhook that refuses (its token revoked: 401) carries nothing more: the
    table message is edited by REST at once, and a refused follow-up post is made by REST."""
    world = await open_table(env, 2)
    await start(world)
    await env.advance_time(9)
    await play_turn(world)
    carried = table_message(world).id
    assert env.bot.courier.editor(carried) is not None
    env.inject_error("PATCH", "/webhooks/*/*/messages/1*", status=401, code=50027, times=None)
    env.inject_error("POST", "/webhooks/*/*", status=403, code=50013, times=None)
    since = len(env.http_requests)
    await play_turn(world)
    await play_turn(world)
    calls = table_calls(env, since)
    rest = f"/channels/{world.channel.id}/messages/{carried}"
    rest = f"/channels/{world.channel.id}/messages"
    # The refused edit is made by REST in the same round.
    assert calls[0][0] == "PATCH" and is_webhook(calls[0][1])
    assert calls[1] == ("PATCH", f"{rest}/{carried}")
    # The next click's token is offered; its post is refused too, and REST posts the table.
    posts = [(method, path) for method, path in calls if method == "POST"]
    assert len(posts) == 2 and is_webhook(posts[0][1]) and posts[1] == ("POST", rest)
    assert env.bot.courier.failed == 2 and env.bot.courier.editor(carried) is None
    shows_the_game(world)
    live = [m.id for m in world.channel.history() if controls(m)]
    assert live == [table_message(world).id] and table_message(world).id != carried
    assert_valid_requests(env)


async def test_a_table_message_near_its_tokens_end_moves_onto_a_fresher_click(
    env: simcord.Env,
) -> None:
    """A click's token edits only what it posted: 13 minutes on, the next click posts the
    table message anew through its own webhook, and the old one loses its buttons through
    the old click's webhook, which still lives; the token makes no call for either."""
    world = await open_table(env, 2)
    await start(world)
    table_id = world.table.id  # just started: in play, in memory
    await env.advance_time(9)
    await play_turn(world)
    carried = table_message(world).id
    with patient(env, 5):
        for _ in range(13):
            await env.advance_time(60)
    since = len(env.http_requests)
    await play_turn(world)
    calls = table_calls(env, since)
    assert calls and all(is_webhook(path) for _, path in calls)
    strip = next(path for method, path in calls if method == "PATCH")
    assert strip.endswith(f"/messages/{carried}")
    post = next(path for method, path in calls if method == "POST")
    assert not strip.startswith(post + "/")  # a fresher click's webhook posted it
    message = table_message(world)
    assert message.id != carried and await recorded_message(world, table_id) == message.id
    old = next(m for m in world.channel.history() if m.id == carried)
    assert not controls(old)
    shows_the_game(world)
    assert_valid_requests(env)


async def test_a_carried_edit_keeps_its_own_pace_and_brings_the_changed_picture_along(
    env: simcord.Env,
) -> None:
    """Carried on a click while everyone follows their hand, the table message is redrawn at
    the carried pace (``carried_interval``), not at once: a lay-down shows nothing new before
    it, then one edit through the same webhook brings the words (who went down) and the
    changed picture together, not a second edit for the picture."""
    env.bot.publisher.interval = 1.5  # paced as a live bot is (the tests' bot is not)
    env.bot.publisher.carried_interval = 60.0  # long enough to see the wait
    world = await open_table(env, 2)
    await start(world)
    await env.advance_time(9)
    await play_turn(world)  # the table message moves onto this click, its picture uploaded
    carried = table_message(world).id
    game = world.table.game
    player = world.current()
    hands = {p.id: await open_hand(world, p) for p in world.players}  # everyone follows
    game.hands[game.current] = parse_cards("8H 8S 8C 5H 5S 5C KC")
    hand = hands[player.id]
    since = len(env.http_requests)
    assert (await player.click(hand.response, label="Draw from stock")).acknowledged
    assert (await player.click(hand.response, label="Lay down these melds")).acknowledged
    await env.advance_time(5)
    assert "went down" not in text_of(table_message(world))  # waiting out the carried pace
    assert not [r for r in env.http_requests[since:] if r.path.endswith(f"/messages/{carried}")]
    await env.advance_time(60)
    edits = [r for r in env.http_requests[since:] if r.path.endswith(f"/messages/{carried}")]
    assert len(edits) == 1 and all(is_webhook(r.path) and r.method == "PATCH" for r in edits)
    assert "attachments" in (edits[-1].json or {})  # the melds' picture, with the words
    assert "went down" in text_of(table_message(world))
    assert table_message(world).id == carried
    shows_the_game(world)
    assert_valid_requests(env)


async def test_the_old_copy_is_stripped_after_the_new_one_and_its_clicks_still_play(
    env: simcord.Env,
) -> None:
    """Moving onto a click, the new copy is posted first, and the old copy waits for the
    token's room before it loses its controls. Meanwhile a click on the old copy is answered
    like any click (its buttons act on the table, not the message: the hand it opens plays);
    once the token has room, exactly one message has live controls."""
    publisher = env.bot.publisher
    room: list[bool] = []
    asked: list[int] = []
    wait_room = publisher.budget.wait_room

    async def full(priority: int) -> None:  # the token has no room for spectators' calls
        asked.append(priority)
        while not room:
            await asyncio.sleep(1.0)
        await wait_room(priority)

    publisher.budget.wait_room = full  # type: ignore[method-assign]
    world = await open_table(env, 2)
    await start(world)
    await env.advance_time(9)
    first = table_message(world).id
    since = len(env.http_requests)
    player = world.current()
    hand = await player.click(table_message(world), label="My hand")
    await player.click(hand.response, label="Draw from stock")
    select = discard_id(hand.response)
    [discard] = [c for c in controls(hand.response) if c.get("custom_id") == select]
    await player.select(hand.response, [discard["options"][-1]["value"]], custom_id=select)
    await env.advance_time(3)
    live = [m.id for m in world.channel.history() if controls(m)]
    assert len(live) == 2 and first in live  # the new copy is out, the old one waits
    new = max(live)
    calls = table_calls(env, since)
    assert all(is_webhook(path) for _, path in calls)  # no call on the token yet
    assert asked == [STRIP]
    old = next(m for m in world.channel.history() if m.id == first)
    other = world.players[1]
    again = await other.click(old, label="My hand")  # a click on the old copy
    assert again.acknowledged and again.ephemeral
    table_id = world.table.id
    assert any(cid.startswith(f"sh:h:{table_id}:") for cid in custom_ids(again.response))
    room.append(True)
    await env.advance_time(9)  # the buy window closes: it is the other person's turn
    assert world.current() is other
    drawn = await other.click(again.response, label="Draw from stock")  # the hand plays
    assert drawn.acknowledged
    select = discard_id(again.response)
    [discard] = [c for c in controls(again.response) if c.get("custom_id") == select]
    await other.select(again.response, [discard["options"][-1]["value"]], custom_id=select)
    await env.advance_time(9)
    assert world.current() is player
    assert table_message(world).id == new  # exactly one message with live controls
    strip = table_calls(env, since)
    assert ("PATCH", f"/channels/{world.channel.id}/messages/{first}") in strip
    assert not controls(next(m for m in world.channel.history() if m.id == first))
    shows_the_game(world)
    assert_valid_requests(env)
