"""Issue 10.5: leaving a running game, kicks announced, lobbies and idle games that close."""

from __future__ import annotations

from pathlib import Path

import pytest
import simcord
from pydantic import SecretStr

from bot import Settings

from .helpers import button_labels, discard_id, open_hand, open_table, start, text_of


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """As in conftest, but a seat is marked away only after 20 timeouts in a row."""
    return Settings(
        discord_token=SecretStr("x" * 24 + ".abcdef." + "y" * 27),
        database=tmp_path / "db.sqlite3",
        seed=1,
        edit_interval=0,
        away_after=20,
        threads=False,  # the table message stays in the channel these tests read
    )


def channel_text(world) -> str:
    return "\n".join(text_of(m) for m in world.channel.history())


async def test_a_player_leaves_a_running_game_and_a_computer_plays_the_seat(
    env: simcord.Env,
) -> None:
    world = await open_table(env, 3)
    await start(world)
    game = world.table.game
    leaver = world.player(int(game.players[(game.current + 1) % 3]))
    hand = await open_hand(world, leaver)
    assert "Leave game" not in button_labels(hand.response)  # not beside the turn's buttons
    options = await leaver.click(hand.response, label="⚙️ Options")
    assert options.acknowledged and "Only when it helps me" in button_labels(hand.response)
    asked = await leaver.click(hand.response, label="Leave game")
    assert asked.acknowledged and "Leave this game?" in text_of(hand.response)
    left = await leaver.click(hand.response, label="Yes, leave")
    assert left.acknowledged and "You left the game" in text_of(hand.response)
    seat = world.table.seat_of(leaver.id)
    assert seat in world.table.removed
    assert f"**{leaver.name}** left the game" in channel_text(world)
    # When the seat's turn comes, the computer plays it at once: no 90 s wait.
    p = world.current()
    mine = await open_hand(world, p)
    await p.click(mine.response, label="Draw from stock")
    await env.advance_time(8)
    card = game.hand_of(str(p.id))[0]
    await p.select(mine.response, [str(card)], custom_id=discard_id(mine.response))
    await env.advance_time(9)
    assert game.current != seat
    again = await leaver.click(world.message(), label="My hand")
    simcord.assert_responded(again, contains="computer plays your seat", ephemeral=True)


async def test_a_kick_is_announced(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    alice, _bob, carol = world.players
    await start(world)
    kicked = await alice.slash(world.channel, "shanghai kick", member=carol)
    assert kicked.acknowledged
    assert f"The host removed **{carol.name}**" in channel_text(world)


async def test_a_lobby_nobody_starts_closes_itself(env: simcord.Env) -> None:
    world = await open_table(env, 2)
    await env.advance_time(29 * 60)
    # Still open (out of memory meanwhile: nobody clicked it, and it expires only later).
    assert (await env.bot.store.get_table(1)).status == "lobby"
    await env.advance_time(2 * 60)
    assert world.table is None  # the channel is free again
    assert "Nobody started this table within 30 min" in channel_text(world)
    assert (await env.bot.store.get_table(1)).status == "abandoned"
    again = await world.players[1].slash(world.channel, "shanghai new")
    assert again.acknowledged and not again.ephemeral


async def test_a_game_nobody_plays_ends_as_abandoned(env: simcord.Env) -> None:
    # Hour-long turns: the bot plays each timed-out turn, but no person acts for 24 hours.
    world = await open_table(env, 2, turn_seconds=3600)
    await start(world)
    table = world.table
    for _ in range(23):
        await env.advance_time(3600)
    # Still open: between its hourly turns the table waits out of memory, and comes back
    # for each of them.
    live = await world.service.resident_in(world.channel.id)
    assert live is not None and live.id == table.id and not live.game.is_over
    await env.advance_time(3600)
    assert world.table is None
    assert "the game ends as abandoned" in channel_text(world)
    assert await env.bot.store.table_results(table.id) == []
    assert (await env.bot.store.get_table(table.id)).status == "abandoned"
    assert "Start" not in button_labels(world.channel.history()[-1])


async def test_a_kicked_players_open_hand_says_why_and_stops_following(env: simcord.Env) -> None:
    """Issue 23.5: a removed player's hand is not left with Draw / Take buttons that are then
    refused: it says the computer plays their seat, with no controls, and is not redrawn."""
    world = await open_table(env, 3)
    await start(world)
    host = world.players[0]
    kicked = world.players[1]
    hand = await open_hand(world, kicked)
    assert button_labels(hand.response)
    assert (await host.slash(world.channel, "shanghai kick", member=kicked)).acknowledged
    assert "computer plays your seat" in text_of(hand.response)
    assert button_labels(hand.response) == []
    assert not env.bot.hands.follows(world.table.id, kicked.id)
