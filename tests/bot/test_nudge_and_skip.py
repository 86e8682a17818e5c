"""Issue 24.4: the host can nudge an absent player (one ping a turn), and the others can vote
to let the bot play the absent seat's turn now; a skipped turn counts as a timed-out one."""

from __future__ import annotations

import simcord

from .helpers import World, open_table, start, text_of


def absent_and_others(world: World) -> tuple[object, list[object]]:
    game = world.table.game
    absent = world.player(int(game.current_player))
    return absent, [p for p in world.players if p.id != absent.id]


async def test_the_host_nudges_once_a_turn_after_a_moment(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    await start(world)
    host = world.players[0]
    game = world.table.game
    if int(game.current_player) == host.id:  # the host must not be the one to move
        await env.advance_time(95)
    absent = world.player(int(game.current_player))
    early = await host.click(world.message(), label="⏰ Nudge")
    assert early.ephemeral and "moment" in early.response.content
    await env.advance_time(21)
    nudged = await host.click(world.message(), label="⏰ Nudge")
    assert nudged.acknowledged and not nudged.ephemeral
    assert f"<@{absent.id}>" in nudged.response.content
    again = await host.click(world.message(), label="⏰ Nudge")
    assert again.ephemeral and "already" in again.response.content
    other = next(p for p in world.players if p.id not in (host.id, absent.id))
    refused = await other.click(world.message(), label="⏰ Nudge")
    assert refused.ephemeral and "Only the host" in refused.response.content


async def test_the_others_vote_to_skip_and_the_bot_plays_the_turn(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    await start(world)
    game = world.table.game
    seat = game.current
    absent, others = absent_and_others(world)
    too_soon = await others[0].click(world.message(), label="⏭️ Vote to skip")
    assert too_soon.ephemeral and "moment" in too_soon.response.content
    await env.advance_time(31)
    own = await absent.click(world.message(), label="⏭️ Vote to skip")
    assert own.ephemeral and "your own turn" in own.response.content
    first = await others[0].click(world.message(), label="⏭️ Vote to skip")
    assert first.ephemeral and "1 of 2" in first.response.content
    assert game.current == seat  # one vote of two: nothing happens yet
    twice = await others[0].click(world.message(), label="⏭️ Vote to skip")
    assert "already" in twice.response.content
    second = await others[1].click(world.message(), label="⏭️ Vote to skip")
    assert second.ephemeral and "played that turn" in second.response.content
    assert game.current != seat  # played at once, long before its 90 s
    assert world.table.away[seat].timeouts == 1  # and it counts as a timed-out turn
    notices = "\n".join(text_of(m) for m in world.channel.history())
    assert "Out of time" in notices


async def test_with_two_people_one_vote_is_enough(env: simcord.Env) -> None:
    world = await open_table(env, 2)
    await start(world)
    game = world.table.game
    seat = game.current
    _, others = absent_and_others(world)
    await env.advance_time(31)
    vote = await others[0].click(world.message(), label="⏭️ Vote to skip")
    assert "played that turn" in vote.response.content and game.current != seat
