"""Issue 25.6: a seated member who leaves the server costs the table one turn limit, not
three: at their first timed-out turn the bot asks Discord after them and, told they are gone,
plays their seat at once from then on."""

from __future__ import annotations

import simcord

from .helpers import discard_id, open_hand, open_table, start, text_of


async def test_a_member_who_left_the_server_is_played_at_once_after_one_timeout(
    env: simcord.Env,
) -> None:
    world = await open_table(env, 3)
    await start(world)
    leaver = world.current()
    seat = world.table.game.current
    world.guild.remove_member(leaver)
    await env.advance_time(91)  # their first turn runs out; the bot plays it and asks
    assert seat in world.table.removed
    text = "\n".join(text_of(m) for m in world.channel.history())
    assert f"**{leaver.name}** is no longer a member of this server" in text
    # Their next turn is played at once: no second turn limit is waited out.
    game = world.table.game
    while game.current != seat:  # the others play their turns as people do
        mover = world.current()
        hand = await open_hand(world, mover)
        await mover.click(hand.response, label="Draw from stock")
        await env.advance_time(9)  # the buy window; the held draw runs
        card = game.hand_of(str(mover.id))[-1]
        assert (
            await mover.select(hand.response, [str(card)], custom_id=discard_id(hand.response))
        ).acknowledged
    await env.advance_time(10)  # the buy window, then the bot plays the seat at once
    assert game.current != seat
    assert world.table.away[seat].timeouts == 1  # no second timeout was needed


async def test_a_member_still_in_the_server_only_times_out(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    await start(world)
    seat = world.table.game.current
    await env.advance_time(91)
    assert seat not in world.table.removed
    assert world.table.away[seat].timeouts == 1
