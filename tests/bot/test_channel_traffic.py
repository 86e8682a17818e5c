"""Issue 10.1-10.2: the controls stay in the last three messages, and the channel gets few
calls: no edit that shows nothing new, one table message moved rather than many notices."""

from __future__ import annotations

import simcord

from .helpers import World, button_labels, custom_ids, open_hand, open_table, start, text_of


def channel_calls(env: simcord.Env, world: World) -> list[str]:
    prefix = f"/channels/{world.channel.id}/messages"
    return [f"{r.method} {r.path}" for r in env.http_requests if r.path.startswith(prefix)]


def discard_id(message) -> str:
    return next(cid for cid in custom_ids(message) if ":discard" in cid)


async def test_a_buy_request_or_a_pass_costs_the_channel_nothing(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    await start(world)
    game = world.table.game
    first = world.player(int(game.players[(game.current + 1) % 3]))
    second = world.player(int(game.players[(game.current + 2) % 3]))
    first_hand, second_hand = await open_hand(world, first), await open_hand(world, second)
    buy = next(b for b in button_labels(first_hand.response) if b.startswith("Buy "))
    before = len(channel_calls(env, world))
    assert (await first.click(first_hand.response, label=buy)).acknowledged
    assert (await second.click(second_hand.response, label="Pass")).acknowledged
    assert len(channel_calls(env, world)) == before  # nothing visible changed on the table


async def test_chat_never_buries_the_controls(env: simcord.Env) -> None:
    # Three seats: at two the only other seat is the discarder, who may not buy, so the
    # window closes at once and the table message rightly says nothing of a buy.
    world = await open_table(env, 3)
    await start(world)
    p = world.current()
    other = next(m for m in world.players if m.id != p.id)
    hand = await open_hand(world, p)
    await open_hand(world, other)  # both follow their hands: no pings needed
    for text in ("nice hand", "hurry up", "brb"):
        await other.send(world.channel, text)
    assert world.channel.history()[-1].id != world.message().id
    await p.click(hand.response, label="Draw from stock")
    await env.advance_time(9)  # the third seat may buy: the draw waits out the window
    card = world.table.game.hand_of(str(p.id))[0]
    await p.select(hand.response, [str(card)], custom_id=discard_id(hand.response))
    # The turn passed: the table message moved below the chat, with My hand on it and the
    # upcard on offer in its text (Buy / Pass are in the hands).
    last_three = [m.id for m in world.channel.history()[-3:]]
    assert world.message().id in last_three
    assert "My hand" in button_labels(world.message())
    assert "closes <t:" in text_of(world.message())


async def test_a_turn_is_one_edit_when_everyone_follows_their_hand(env: simcord.Env) -> None:
    world = await open_table(env, 2)
    await start(world)
    p = world.current()
    other = next(m for m in world.players if m.id != p.id)
    hand = await open_hand(world, p)
    await open_hand(world, other)
    before = channel_calls(env, world)
    await p.click(hand.response, label="Draw from stock")
    card = world.table.game.hand_of(str(p.id))[0]
    await p.select(hand.response, [str(card)], custom_id=discard_id(hand.response))
    calls = channel_calls(env, world)[len(before) :]
    assert [c.split()[0] for c in calls] == ["PATCH"], calls
    assert f"Upcard: **{card.pretty()}**" in text_of(world.message())
