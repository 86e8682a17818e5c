"""/shanghai games: every open table a member sits at in this server, those waiting on them
first, with whose turn it is, the time left and a link; other servers' tables are not named."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
import simcord

from bot.service.tables_residency import Residence

from .helpers import open_table, start

pytestmark = pytest.mark.simcord(settle_timeout=1)


async def two_relaxed_tables(env: Any) -> tuple[Any, list[Any], Any, Any, list[Any]]:
    """Alice and bob at two relaxed games of one server, one in each channel, each hosting
    one; a third channel has no table. Returns the server, its three channels, alice, bob and
    the two tables."""
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
    return guild, [first, second, third], alice, bob, tables


async def test_the_table_waiting_on_me_comes_first_with_its_link(env: Any) -> None:
    _guild, (first, _second, third), alice, bob, tables = await two_relaxed_tables(env)
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


async def games(env: Any, member: Any, channel: Any, *, deferred: bool) -> str:
    """``/shanghai games`` typed by ``member`` in ``channel``: the list's text, private.
    ``deferred``: "thinking…" came first (a table had to be read back from the store), and
    the list took its place."""
    requests = len(env.http_requests)
    result = await member.slash(channel, "shanghai games")
    simcord.assert_responded(result, ephemeral=True)
    assert not result.followups
    answers = [
        r.json["type"]
        for r in env.http_requests[requests:]
        if r.method == "POST" and r.path.endswith("/callback")
    ]
    assert answers == [5 if deferred else 4]  # 5: Discord shows "thinking…"
    return str(result.response.content)


async def test_tables_out_of_memory_are_listed_as_if_they_were_in_it(env: Any) -> None:
    """Tables nobody used for a while leave memory; a relaxed game waiting days on alice is
    still the first line of her list, typed in a channel of its own."""
    _guild, (*_, third), alice, _bob, tables = await two_relaxed_tables(env)
    waiting = [t for t in tables if t.game.players[t.game.current] == str(alice.id)]
    assert len(waiting) == 1  # the table bob hosts: alice plays first there
    in_memory = await games(env, alice, third, deferred=False)
    service = env.bot.service
    service.residency.rest_after = 0.0  # nobody clicked since: they may leave memory now
    assert service.rest() == 2
    assert not service.tables and all(service.residency.is_asleep(t.id) for t in tables)
    text = await games(env, alice, third, deferred=True)
    assert text == in_memory
    lines = text.splitlines()
    assert "Your 2 tables in this server (1 waiting on you)" in lines[0]
    assert f"#{waiting[0].id}" in lines[1] and "your turn" in lines[1]
    assert all(f"#{t.id}" in text for t in tables)
    assert service.rest() == 2  # listing them was no use of them: they may rest again


async def test_after_a_restart_tables_not_restored_yet_are_listed(
    env: Any, make_bot: Callable[[], Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a restart every table starts out of memory and comes back in the background;
    one the background has not reached yet is listed all the same."""
    guild, (*_, third), alice, bob, tables = await two_relaxed_tables(env)
    before = await games(env, alice, third, deferred=False)
    bobs = await bob.slash(guild.create_text_channel("four"), "shanghai new", pace="relaxed")
    simcord.assert_responded(bobs)
    reached = asyncio.Event()
    restore = Residence._restore_in_background

    async def not_reached_yet(self: Residence, ids: list[int]) -> int:
        await env.external_wait(reached.wait(), reason="a background restore not there yet")
        return await restore(self, ids)

    monkeypatch.setattr(Residence, "_restore_in_background", not_reached_yet)
    await env.bot.service.close()  # the old process dies with its timers
    await env.restart_bot(make_bot())
    service = env.bot.service
    asleep = {*(t.id for t in tables), tables[-1].id + 1}  # and bob's lobby
    assert not service.tables and set(service.residency.sleepers) == asleep
    assert await games(env, alice, third, deferred=True) == before
    assert set(service.tables) == {t.id for t in tables}  # bob's lobby was not read back
    reached.set()
    await env.settle()
