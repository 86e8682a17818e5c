"""Restarts in the middle of a buy window and of a turn; a short game to its results."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from typing import Any

import simcord

from engine.players.strategy import EasyStrategy

from .helpers import (
    World,
    button_labels,
    decide_in_hand,
    discard_id,
    gallery_urls,
    heading_of,
    is_layout,
    old_table_click,
    open_hand,
    open_table,
    start,
    text_of,
    window_tag,
)


def seat_after(world: World, steps: int) -> Any:
    game = world.table.game
    return world.player(int(game.players[(game.current + steps) % len(game.players)]))


async def test_restart_during_buy_window(env: simcord.Env, make_bot: Callable[[], Any]) -> None:
    world = await open_table(env, 3)
    await start(world)
    p, first, second = world.current(), seat_after(world, 1), seat_after(world, 2)
    second_hand = await open_hand(world, second)
    buy = next(b for b in button_labels(second_hand.response) if b.startswith("Buy "))
    assert (await second.click(second_hand.response, label=buy)).acknowledged
    await env.restart_bot(make_bot())
    # Same table message, new bot: My hand still offers Buy and the request survived.
    first_hand, result = await decide_in_hand(world, first)
    assert result.acknowledged and "Buy request for" in text_of(first_hand.response)
    assert sorted(world.table.game.buy_requests) == sorted(
        world.table.game.seat_of(str(u.id)) for u in (first, second)
    )
    hand = await open_hand(world, p)
    await p.click(hand.response, label="Draw from stock")
    game = world.table.game
    assert game.step == "play"
    assert len(game.hand_of(str(first.id))) == 13  # seat priority, not click order
    assert len(game.hand_of(str(second.id))) == 11


async def test_window_that_ends_after_restart_is_resolved(
    env: simcord.Env, make_bot: Callable[[], Any]
) -> None:
    world = await open_table(env, 3)
    await start(world)
    p = world.current()
    tag = window_tag(world)
    hand = await open_hand(world, p)
    await p.click(hand.response, label="Draw from stock")  # held for the window
    await env.restart_bot(make_bot())
    assert world.table.game.step == "draw" and world.table.window.held is not None
    await env.advance_time(9)
    late = await old_table_click(world, seat_after(world, 1), "buy", tag)
    simcord.assert_responded(late, contains="window has closed", ephemeral=True)
    # The held draw survived the restart (issue 9): it ran when the window closed.
    game = world.table.game
    assert game.step == "play" and len(game.hand_of(str(p.id))) == 12


async def test_restart_during_turn(env: simcord.Env, make_bot: Callable[[], Any]) -> None:
    world = await open_table(env, 2)
    await start(world)
    p = world.current()
    hand = await open_hand(world, p)
    await p.click(hand.response, label="Draw from stock")
    assert world.table.game.step == "play"
    await env.restart_bot(make_bot())
    # The controls of the message sent before the restart still work.
    card = world.table.game.hand_of(str(p.id))[-1]
    result = await p.select(hand.response, [str(card)], custom_id=discard_id(hand.response))
    assert result.acknowledged and "You discarded" in text_of(hand.response)
    nxt = world.current()
    assert nxt.id != p.id
    # The re-armed turn timer plays for the next player when it runs out.
    await env.advance_time(91)
    assert world.current().id == p.id
    assert f"Out of time, **{nxt.name}**" in "\n".join(text_of(m) for m in world.channel.history())


async def play_to_the_end(world: World, env: simcord.Env, max_steps: int = 3000) -> None:
    """Play legal actions through the service (the greedy computer strategy) until it ends."""
    rng = random.Random(5)
    strategy = EasyStrategy(buy_chance=0)
    service = world.service
    table = world.table
    for _ in range(max_steps):
        game = table.game
        if table.closed or game.is_over:
            return
        player = game.current_player
        legal = service.legal_actions(table.id, int(player))
        action = strategy.choose(game.view(player), legal, rng)
        result = await service.act(table.id, int(player), action)
        if result.pending is not None:
            await env.advance_time(8)
        await env.settle()
    raise AssertionError("the game did not end")


async def flush_outboxes(world: World, env: simcord.Env) -> None:
    """Let the channel's outbox post what it coalesced.

    This test drives the service directly, outside any interaction, so simcord does not see
    the picture threads the outbox waits on: give them real time, then advance the clock.
    """
    publisher = env.bot.publisher  # type: ignore[attr-defined]
    for _ in range(100):
        if all(box.task is None or box.task.done() for box in publisher.boxes.values()):
            return
        await asyncio.to_thread(time.sleep, 0.05)
        await env.advance_time(2)
    raise AssertionError("the channel outbox never drained")


async def test_short_game_to_leaderboard_and_stats(env: simcord.Env) -> None:
    world = await open_table(env, 3, deals=1)
    await start(world)
    # The first turn through the controls, the rest by the service.
    p = world.current()
    hand = await open_hand(world, p)
    await p.click(hand.response, label="Draw from stock")
    await env.advance_time(8)
    card = world.table.game.hand_of(str(p.id))[-1]
    assert (
        await p.select(hand.response, [str(card)], custom_id=discard_id(hand.response))
    ).acknowledged
    table = world.table
    await flush_outboxes(world, env)
    live = world.message()  # the table message (moved to the bottom when a turn pings)
    assert [a.filename for a in live.attachments] == ["table.webp"]  # issue 6: the table picture
    assert gallery_urls(live) == [live.attachments[0].url] and is_layout(live)
    await play_to_the_end(world, env)
    game = table.game
    assert game.is_over and world.table is None  # the channel is free again
    await flush_outboxes(world, env)
    history = world.channel.history()
    notices = "\n".join(text_of(m) for m in history)
    assert "Game over!" in notices and "Score sheet after deal 1" in notices
    sheets = [a for m in history for a in m.attachments if a.filename == "scores.png"]
    assert len(sheets) == 1  # issue 6: the score sheet as a picture after the deal
    # Issue 23.2: who went out, the deal's scores and the standings, with that picture.
    [sheet_message] = [m for m in history if any(a.filename == "scores.png" for a in m.attachments)]
    said = text_of(sheet_message)
    assert "went out" in said and "Score sheet after deal 1" in said and "Game over!" in said
    tables = [m for m in history if heading_of(m).startswith("Shanghai")]
    assert len(tables) == 1  # moved, never duplicated
    final = tables[0]
    assert heading_of(final) == "Shanghai: game over"
    # The game's end is told once: the table message keeps a line, the recap the buttons.
    assert button_labels(final) == [] and "Score sheet" not in text_of(final)
    assert button_labels(sheet_message)[0] == "🔁 Play again"
    winners = {int(game.players[s]) for s in game.winner_seats}
    # A one-deal game is casual (issue 26): nothing on the board, all of it in the stats.
    board = await p.slash(world.channel, "shanghai leaderboard")
    assert board.acknowledged
    assert "Nobody is on the Shanghai leaderboard of season 1 yet" in text_of(board.response)
    winner = world.player(next(iter(winners)))
    stats = await p.slash(world.channel, "shanghai stats", member=winner)
    simcord.assert_responded(stats, contains="1 game (0 ranked, 1 casual), 1 win")
    assert [a.filename for a in stats.response.attachments] == ["stats.png"]
    mine = await world.players[1].slash(world.channel, "shanghai stats")
    assert mine.acknowledged and "1 game" in text_of(mine.response)
    total = game.totals[game.seat_of(str(winner.id))]
    assert f"🏆({total})" in text_of(stats.response)  # the casual game, marked, in the history
    assert "Best ranked game: —" in text_of(stats.response)


async def test_after_a_restart_the_hands_not_followed_again_are_told_once(
    env: simcord.Env, make_bot: Callable[[], Any]
) -> None:
    """The hand opened before the restart is followed again (its token is young): its player
    is not pinged; the others, whose hands the bot cannot reach, are named once, in one line."""
    world = await open_table(env, 3)
    await start(world)
    await env.advance_time(9)
    p = world.current()
    await open_hand(world, p)  # followed: no ping for their turn before the restart
    before = [text_of(m) for m in world.channel.history()]
    await env.restart_bot(make_bot())
    await env.advance_time(2)
    after = [text_of(m) for m in world.channel.history()][len(before) :]
    said = "\n".join(after)
    assert said.count("the bot restarted") == 1
    restarted = next(line for line in said.splitlines() if "the bot restarted" in line)
    others = [q for q in world.players if q.id != p.id]
    assert all(restarted.count(f"<@{q.id}>") == 1 for q in others)
    assert f"<@{p.id}>" not in said
    assert "My hand" in button_labels(world.message())


async def test_play_again_opens_a_lobby_with_the_same_rules_and_people(env: simcord.Env) -> None:
    """Issue 24.3: the game-over message offers Play again; one click opens a new lobby with
    the same rules, the clicker hosting and everyone else seated again."""
    world = await open_table(env, 3, deals=1)
    await start(world)
    old = world.table
    old_options = dict(old.record.options)
    await play_to_the_end(world, env)
    await flush_outboxes(world, env)
    final = next(m for m in world.channel.history() if "🔁 Play again" in button_labels(m))
    bob = world.players[1]
    again = await bob.click(final, label="🔁 Play again")
    assert again.acknowledged and not again.ephemeral
    table = world.table
    assert table is not None and table.id != old.id and table.game is None
    assert table.record.host_id == bob.id
    assert sorted(s.user_id for s in table.record.seats) == sorted(p.id for p in world.players)
    assert table.record.options.get("rules") == old_options.get("rules")
    assert "Join" in button_labels(again.response.message)
    # A second click is refused politely: the channel has its table again.
    twice = await world.players[2].click(final, label="🔁 Play again")
    simcord.assert_responded(twice, contains="already has an open", ephemeral=True)
