"""/shanghai games: every open table a member sits at in this server, those waiting on them
first, with whose turn it is, the time left and a link; other servers' tables are not named."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from .helpers import open_table, start

pytestmark = pytest.mark.simcord(settle_timeout=1)


async def test_the_table_waiting_on_me_comes_first_with_its_link(env: Any) -> None:
    guild = env.create_guild()
    first, second, third = (guild.create_text_channel(n) for n in ("one", "two", "three"))
    alice, bob = (
        guild.add_member(env.create_user("alice")),
        guild.add_member(env.create_user("bob")),
    )
    tables = []
    for channel, host, other in ((first, alice, bob), (second, bob, alice)):
        opened = await host.slash(channel, "shanghai new", pace="relaxed", turn_hours=10)
        await other.click(opened.response.message, label="Join")
        await host.click(opened.response.message, label="Start")
        tables.append(env.bot.service.for_channel(channel.id))
    await bob.slash(third, "shanghai new")  # a lobby alice does not sit at
    elsewhere = env.create_guild()
    far = elsewhere.create_text_channel("far")
    carol = elsewhere.add_member(env.create_user("carol"))
    await carol.slash(far, "shanghai new")
    listed = await alice.slash(first, "shanghai games")
    simcord.assert_responded(listed, ephemeral=True)
    text = listed.response.content
    lines = text.splitlines()
    assert "Your 2 tables in this server" in lines[0]
    assert len(lines) == 3
    mine = [t for t in tables if t.game.players[t.game.current] == str(alice.id)]
    waiting = len(mine)
    assert f"({waiting} waiting on you)" in lines[0]
    for table in tables:
        record = table.record
        link = f"https://discord.com/channels/{record.guild_id}/{record.channel_id}/"
        assert link in text
    first_line = lines[1]
    if mine:
        assert "your turn" in first_line and first_line.startswith("- **")
        assert f"#{mine[0].id}" in first_line
    assert "relaxed" in first_line and "left" in first_line
    assert any(f"{hours} h " in first_line for hours in range(9, 11))  # of a 10-hour turn
    turns = [("your turn" in line, line) for line in lines[1:]]
    assert turns == sorted(turns, key=lambda pair: not pair[0])  # waiting on me first
    assert sum(mine_line for mine_line, _ in turns) == waiting


async def test_nothing_to_list(env: Any) -> None:
    world = await open_table(env, 2)
    await start(world)
    stranger = world.guild.add_member(env.create_user("zed"))
    listed = await stranger.slash(world.channel, "shanghai games")
    simcord.assert_responded(listed, contains="no open table", ephemeral=True)
