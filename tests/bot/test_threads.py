"""Issue 24.2: a thread per game. Start moves the game into a thread made from the lobby
message where the bot may make one; the channel keeps the lobby (pointing to the thread) and
gets one result line at the end. Without the permissions, the game stays in the channel."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest
import simcord
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from bot import Settings
from bot.interactions.threads import thread_name
from engine.cards import Card, parse_cards

from .helpers import World, button_labels, custom_ids, open_table, text_of


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """This bot's default, as shipped: games move into threads."""
    return settings.model_copy(update={"threads": True})


async def start(world: World) -> None:
    """The host clicks Start on the lobby message in the channel."""
    result = await world.players[0].click(world.message(), label="Start")
    assert result.acknowledged


def thread_of(world: World) -> Any:
    threads = world.channel.threads
    assert len(threads) == 1, threads
    return threads[0]


def table_messages(channel: Any) -> list[discord.Message]:
    return [m for m in channel.history() if any(":hand:" in c for c in custom_ids(m))]


async def test_start_moves_the_game_into_a_thread_of_its_own(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    lobby_id = world.table_message.id if world.table_message else 0
    await start(world)
    thread = thread_of(world)
    table = world.service.for_channel(thread.id)
    assert table is not None and table.record.parent_channel_id == world.channel.id
    assert world.service.for_channel(world.channel.id) is None  # the channel is free again
    # The lobby message stays in the channel, says where the game is, and has no buttons.
    lobby = next(m for m in world.channel.history() if m.id == lobby_id)
    assert thread.mention in text_of(lobby) and not custom_ids(lobby)
    await env.advance_time(2)
    # The table message, the welcome (every person mentioned) and the first ping: the thread.
    assert len(table_messages(thread)) == 1 and not table_messages(world.channel)
    text = "\n".join(text_of(m) for m in thread.history())
    assert all(f"<@{p.id}>" in text for p in world.players)
    assert "your turn" in text
    # And the channel can host another table meanwhile.
    again = await world.players[0].slash(world.channel, "shanghai new")
    assert again.acknowledged and not again.ephemeral


async def test_a_hand_opened_in_the_thread_plays(env: simcord.Env) -> None:
    world = await open_table(env, 2)
    await start(world)
    thread = thread_of(world)
    await env.advance_time(2)
    table_message = table_messages(thread)[-1]
    game = world.service.for_channel(thread.id).game
    p = world.player(int(game.current_player))
    hand = await p.click(table_message, label="My hand")
    assert hand.acknowledged and hand.ephemeral
    drawn = await p.click(hand.response, label="Draw from stock")
    assert drawn.acknowledged and game.step == "play"


async def test_without_thread_permissions_the_game_stays_in_the_channel(
    env: simcord.Env,
) -> None:
    world = await open_table(env, 2)
    env.backend.set_overwrite(
        world.channel.id,
        Overwrite(
            env.bot.user.id,
            OverwriteType.MEMBER,
            deny=discord.Permissions(create_public_threads=True).value,
        ),
    )
    await start(world)
    assert not world.channel.threads
    assert world.service.for_channel(world.channel.id) is not None
    assert "My hand" in button_labels(world.message())


async def test_the_host_may_keep_the_game_in_the_channel(env: simcord.Env) -> None:
    world = await open_table(env, 2, thread=False)
    await start(world)
    assert not world.channel.threads
    assert world.service.for_channel(world.channel.id) is not None


async def test_a_game_in_a_thread_survives_a_restart(env: simcord.Env, make_bot: Any) -> None:
    world = await open_table(env, 2)
    await start(world)
    thread = thread_of(world)
    await env.advance_time(2)
    await env.restart_bot(make_bot())
    table = world.service.for_channel(thread.id)
    assert table is not None and table.record.parent_channel_id == world.channel.id
    await env.advance_time(2)
    table_message = table_messages(thread)[-1]
    p = world.player(int(table.game.current_player))
    hand = await p.click(table_message, label="My hand")
    assert hand.acknowledged and hand.ephemeral
    assert (await p.click(hand.response, label="Draw from stock")).acknowledged


async def a_one_deal_game_won_in_its_thread(env: simcord.Env) -> tuple[World, Any, Any, Any]:
    """A one-deal game in its thread that the player to move wins at once (lay down, then
    throw the drawn 3♣): the world, the thread, the table and the winner."""
    world = await open_table(env, 2, deals=1)
    await start(world)
    thread = thread_of(world)
    await env.advance_time(9)
    table = world.service.for_channel(thread.id)
    game = table.game
    seat = game.current
    p = world.player(int(game.current_player))
    game.hands[seat] = parse_cards("8H 8S 8C KD KC KS")
    game.stock[-1] = Card.parse("3C")
    hand = await p.click(table_messages(thread)[-1], label="My hand")
    await p.click(hand.response, label="Draw from stock")
    await env.advance_time(9)
    finish = next(cid for cid in custom_ids(hand.response) if ":finish" in cid)
    assert (await p.select(hand.response, ["d:3C"], custom_id=finish)).acknowledged
    assert game.is_over
    return world, thread, table, p


async def test_the_channel_gets_one_result_line_with_a_link(env: simcord.Env) -> None:
    world, thread, _, p = await a_one_deal_game_won_in_its_thread(env)
    await env.advance_time(5)
    results = [m for m in world.channel.history() if "is over" in m.content]
    assert len(results) == 1
    assert thread.mention in results[0].content and p.name in results[0].content
    # The thread has the whole result: its score sheet and the Play again button.
    assert any("sh:again:" in str(custom_ids(m)) for m in thread.history())


async def test_an_archived_thread_is_opened_again_for_the_next_post(env: simcord.Env) -> None:
    world = await open_table(env, 2)
    await start(world)
    thread = thread_of(world)
    await env.advance_time(2)
    env.inject_error("POST", f"/channels/{thread.id}/messages", status=400, code=50083, times=1)
    before = len(thread.history())
    await env.advance_time(95)  # the turn times out: the bot plays it, and posts about it
    assert any(
        r.method == "PATCH" and r.path == f"/channels/{thread.id}" for r in env.http_requests
    )
    assert len(thread.history()) > before


async def test_a_deleted_thread_ends_its_game(env: simcord.Env) -> None:
    world = await open_table(env, 2)
    await start(world)
    thread = thread_of(world)
    table_id = world.service.for_channel(thread.id).id
    env.backend.delete_channel(thread.id)
    await env.advance_time(2)
    assert world.service.for_channel(thread.id) is None
    assert table_id not in world.service.tables


def test_thread_names_fit_and_end_at_a_name() -> None:
    names = [f"player number {n}" for n in range(8)]
    name = thread_name("Shanghai", 12, names)
    assert len(name) <= 100 and name.endswith(", …") and name.startswith("Shanghai #12 · ")
    assert thread_name("Rummy", 3, ["alice", "bob"]) == "Rummy #3 · alice, bob"


async def test_play_again_in_the_thread_opens_the_lobby_in_the_channel(env: simcord.Env) -> None:
    world, thread, table, p = await a_one_deal_game_won_in_its_thread(env)
    await env.advance_time(5)
    over = next(m for m in thread.history() if "sh:again:" in str(custom_ids(m)))
    again = await p.click(over, custom_id=f"sh:again:{table.id}")
    assert again.acknowledged and again.ephemeral
    lobby = world.service.for_channel(world.channel.id)
    assert lobby is not None and lobby.record.status == "lobby"
    assert {s.user_id for s in lobby.record.seats} == {q.id for q in world.players}
    assert any(m.id == lobby.record.message_id for m in world.channel.history())


async def test_deleting_the_channel_ends_the_games_in_its_threads(env: simcord.Env) -> None:
    """Only the channel's own delete event reaches the bot (simcord would also send one per
    thread, which would end the game by another path): the game in its thread ends too."""
    world = await open_table(env, 2)
    await start(world)
    thread = thread_of(world)
    table_id = world.service.for_channel(thread.id).id
    watch = env.bot.get_cog("ChannelWatch")
    await watch.on_guild_channel_delete(SimpleNamespace(id=world.channel.id))
    assert table_id not in world.service.tables
