"""Open hands never go quiet without a word: after a restart they are followed again while
Discord still lets the bot edit them; a player whose hand can't be is told once, in one line
that later table posts do not repeat; and a hand about to outlive its interaction token says
in its last update that it has gone to sleep and how to wake it."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import pytest
import simcord

from bot import Settings
from bot.channel.hand_follower import STORE_KEY

from .helpers import button_labels, discard_id, open_hand, open_table, start, text_of

# The follower's saves and timers are a few seconds apart: keep sleeps on the virtual clock.
pytestmark = pytest.mark.simcord(settle_timeout=3)


async def draw_and_discard(p: Any, hand: Any, world: Any) -> None:
    await p.click(hand.response, label="Draw from stock")
    card = world.table.game.hand_of(str(p.id))[-1]
    done = await p.select(hand.response, [str(card)], custom_id=discard_id(hand.response))
    assert done.acknowledged


async def test_open_hands_are_followed_again_after_a_restart(
    env: simcord.Env, make_bot: Callable[[], Any], caplog: pytest.LogCaptureFixture
) -> None:
    world = await open_table(env, 2)
    await start(world)
    await env.advance_time(9)
    p = world.current()
    bob = next(q for q in world.players if q.id != p.id)
    hands = {q.id: await open_hand(world, q) for q in world.players}
    await env.advance_time(31)  # the follower has saved what it follows
    before = len(world.channel.history())
    with caplog.at_level(logging.DEBUG):
        await env.restart_bot(make_bot())
        await env.advance_time(2)
        await draw_and_discard(p, hands[p.id], world)
        await env.advance_time(10)
    # Bob's hand, opened before the restart, shows his turn without a click of his.
    assert world.current().id == bob.id
    assert "Draw from stock" in button_labels(hands[bob.id].response)
    said = "\n".join(
        text_of(m) for m in world.channel.history()[: len(world.channel.history()) - before]
    )
    assert "the bot restarted" not in said
    assert f"<@{bob.id}>" not in said  # followed: no ping for his turn
    tokens = [i.token for i in (hands[p.id], hands[bob.id]) for i in [i._interaction]]
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert not any(token in logged for token in tokens)


async def test_hands_opened_just_before_a_shutdown_are_saved_by_it(env: simcord.Env) -> None:
    # The second hand opens within the save interval of the first: only the flush that a
    # shutdown runs (``HandFollower.save``, called by the bot's close) writes it in time.
    world = await open_table(env, 2)
    await start(world)
    for q in world.players:
        await open_hand(world, q)
    await env.bot.hands.save()
    rows = json.loads(await env.bot.store.get_meta(STORE_KEY) or "[]")
    assert sorted(row["user"] for row in rows) == sorted(q.id for q in world.players)


async def test_the_restart_line_is_posted_once_and_not_repeated(
    env: simcord.Env, make_bot: Callable[[], Any]
) -> None:
    world = await open_table(env, 3)
    await start(world)
    await env.advance_time(9)
    before = {m.id for m in world.channel.history()}
    await env.restart_bot(make_bot())
    await env.advance_time(2)
    for _ in range(3):  # later turns move the table message: each move is a new post
        p = world.current()
        await draw_and_discard(p, await open_hand(world, p), world)
        await env.advance_time(9)
    new = [m for m in world.channel.history() if m.id not in before]
    told = [text_of(m) for m in new if "the bot restarted" in text_of(m)]
    assert len(told) == 1
    line = next(x for x in told[0].splitlines() if "the bot restarted" in x)
    # Each person is mentioned once in that message (the player to move by their ping).
    for q in world.players:
        assert told[0].count(f"<@{q.id}>") <= 1
    assert sum(f"<@{q.id}>" in told[0] for q in world.players) == 3
    assert "<@" in line


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Turns long enough that nobody times out while a hand waits 14 minutes."""
    return settings.model_copy(update={"turn_seconds": 3600})


async def test_a_hand_about_to_expire_says_it_has_gone_to_sleep(env: simcord.Env) -> None:
    world = await open_table(env, 2)
    await start(world)
    await env.advance_time(9)
    p = world.current()
    table_id = world.table.id  # nobody follows it once the hand sleeps: it may leave memory
    hand = await open_hand(world, p)
    assert "gone to sleep" not in text_of(hand.response)
    for _ in range(14):
        await env.advance_time(60)
    assert "gone to sleep" in text_of(hand.response)
    assert "My hand" in text_of(hand.response)
    assert not env.bot.hands.follows(table_id, p.id)


async def test_a_hand_too_old_to_follow_after_a_restart_is_named_in_the_restart_line(
    env: simcord.Env, make_bot: Callable[[], Any]
) -> None:
    world = await open_table(env, 3)
    await start(world)
    await env.advance_time(9)
    p = world.current()
    q = next(x for x in world.players if x.id != p.id)
    hand = await open_hand(world, q)
    for _ in range(14):  # its token is too old to edit the message by now
        await env.advance_time(60)
    assert "gone to sleep" in text_of(hand.response)
    before = {m.id for m in world.channel.history()}
    await env.restart_bot(make_bot())
    await env.advance_time(2)
    new = "\n".join(text_of(m) for m in world.channel.history() if m.id not in before)
    line = next(x for x in new.splitlines() if "the bot restarted" in x)
    assert line.count(f"<@{q.id}>") == 1 and f"<@{p.id}>" not in line
    assert new.count(f"<@{p.id}>") == 1  # the player to move: their turn's ping
