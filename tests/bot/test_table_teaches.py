"""A newcomer learns the game from the table: the rules answer explains sets, runs, the
contract, buying and that the lowest total wins before any detail (and before any file
path); the lobby tells the host they are the host and what Start does."""

from __future__ import annotations

import simcord

from .helpers import open_table, text_of


async def test_the_rules_answer_explains_the_game_before_any_detail(env: simcord.Env) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    member = guild.add_member(env.create_user("reader"))
    reply = await member.slash(channel, "shanghai rules")
    simcord.assert_responded(reply, ephemeral=True)
    text = reply.response.content
    lines = text.splitlines()
    assert "docs/RULES.md" not in "\n".join(lines[:3])  # no file path first
    for words in ("**set**", "**run**", '"2 sets of 3"', "**contract**", "**buy**"):
        assert words in text
    assert "**lowest total wins**" in text
    assert text.index("lowest total wins") < text.index("1. 2 sets of 3")
    env.bot.settings.rules_url = "https://example.org/RULES.md"
    linked = await member.slash(channel, "shanghai rules")
    assert "<https://example.org/RULES.md>" in linked.response.content


async def test_the_lobby_tells_the_host_they_host_and_what_start_does(env: simcord.Env) -> None:
    world = await open_table(env, 2)
    host = world.players[0]
    lobby = text_of(world.message())
    assert f"<@{host.id}> is the host: **Start** deals the cards once 2-8 players are in" in lobby
