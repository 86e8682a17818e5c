"""Opening a table, seating players, starting, and refusals in the lobby."""

from __future__ import annotations

import discord
import pytest
import simcord

from bot.screens.attachments import HAND_FILE

from .helpers import (
    button_labels,
    gallery_alts,
    heading_of,
    old_table_click,
    open_hand,
    open_table,
    start,
    text_of,
)


@pytest.mark.parametrize("count", [3, 8])
async def test_open_and_seat_players(env: simcord.Env, count: int) -> None:
    world = await open_table(env, count)
    table = world.table
    assert [s.user_id for s in table.record.seats] == [p.id for p in world.players]
    text = text_of(world.message())
    for index, player in enumerate(world.players, start=1):
        assert f"{index}. {player.name}" in text
    assert button_labels(world.message())[:3] == ["Join", "Leave", "Start"]


async def test_ninth_player_is_refused(env: simcord.Env) -> None:
    world = await open_table(env, 8)
    extra = world.guild.add_member(env.create_user("ivan"))
    result = await extra.click(world.message(), label="Join")
    simcord.assert_responded(result, contains="full", ephemeral=True)
    assert len(world.table.record.seats) == 8


async def test_second_table_in_channel_is_refused_politely(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    result = await world.players[1].slash(world.channel, "shanghai new")
    simcord.assert_responded(result, contains="already has an open Shanghai table", ephemeral=True)
    assert f"#{world.table.id}" in text_of(result.response)


async def test_only_host_starts(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    result = await world.players[1].click(world.message(), label="Start")
    simcord.assert_responded(result, contains="Only the host", ephemeral=True)
    assert world.table.game is None


async def test_start_deals_and_shows_table(env: simcord.Env) -> None:
    world = await open_table(env, 4, deals=2)
    await start(world)
    message = world.message()
    assert "My hand" in button_labels(message)
    assert "Buy" not in " ".join(button_labels(message))  # bought from the hands
    text = text_of(message)
    assert "closes <t:" in text  # the first upcard's window, told in words
    assert "Deal 1 of 2" in text and "2 sets of 3" in text
    # The seats are said once, by the picture: its alt text names every player.
    pictured = " ".join(gallery_alts(message))
    for player in world.players:
        assert player.name in pictured
    # The first player is pinged in a new message.
    current = world.current()
    assert any(current.mention in text_of(m) for m in world.channel.history())


async def test_hand_is_private_and_has_eleven_cards(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    await start(world)
    alice, bob, carol = world.players
    result = await open_hand(world, bob)
    content = text_of(result.response)
    assert "11 cards" in content
    hand = world.table.game.hand_of(str(bob.id))
    assert len(hand) == 11
    for card in hand:
        assert card.pretty() in content
    assert [a.filename for a in result.response.attachments] == [HAND_FILE]  # issue 6
    # Only Bob sees it; Alice and Carol do not, and a non-member view leaves it out.
    seen_by_bob = [m.id for m in world.channel.history(viewer=bob)]
    assert result.response.id in seen_by_bob
    for other in (alice, carol):
        assert result.response.id not in [m.id for m in world.channel.history(viewer=other)]
    assert result.response.id not in [m.id for m in world.channel.history()]
    with pytest.raises(simcord.SetupError):
        await alice.click(result.response, label="Refresh")


async def test_non_player_gets_explanation(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    await start(world)
    stranger = world.guild.add_member(env.create_user("mallory"))
    result = await stranger.click(world.message(), label="My hand")
    simcord.assert_responded(result, contains="not playing", ephemeral=True)
    result = await old_table_click(world, stranger, "buy")  # a table message of before
    simcord.assert_responded(result, contains="not playing", ephemeral=True)


async def test_end_needs_host_or_manage_channels_and_confirmation(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    bob = world.players[1]
    refused = await bob.slash(world.channel, "shanghai end")
    simcord.assert_responded(refused, contains="Only the host", ephemeral=True)
    mods = world.guild.create_role("Mods", permissions=discord.Permissions(manage_channels=True))
    mod = world.guild.add_member(env.create_user("mod"), roles=[mods])
    asked = await mod.slash(world.channel, "shanghai end")
    assert asked.acknowledged and asked.ephemeral
    kept = await mod.click(asked.response, label="Keep playing")
    assert kept.acknowledged and world.table is not None
    asked = await mod.slash(world.channel, "shanghai end")
    done = await mod.click(asked.response, label="End the table")
    assert done.acknowledged
    assert world.table is None
    assert "closed" in heading_of(world.channel.history()[0])
    # The channel is free again.
    again = await world.players[0].slash(world.channel, "shanghai new")
    assert again.acknowledged and not again.ephemeral


async def test_host_removes_a_player(env: simcord.Env) -> None:
    world = await open_table(env, 4)
    alice, bob, carol, dave = world.players
    refused = await bob.slash(world.channel, "shanghai kick", member=carol)
    simcord.assert_responded(refused, contains="Only the host", ephemeral=True)
    removed = await alice.slash(world.channel, "shanghai kick", member=dave)
    assert removed.acknowledged and dave.id not in world.table.seat_ids
    await start(world)
    kicked = await alice.slash(world.channel, "shanghai kick", member=carol)
    assert kicked.acknowledged
    seat = world.table.seat_of(carol.id)
    assert seat in world.table.removed
    result = await carol.click(world.message(), label="My hand")
    simcord.assert_responded(result, contains="removed you", ephemeral=True)


async def test_rules_and_table_repost(env: simcord.Env) -> None:
    world = await open_table(env, 3, preset="preset_004", deals=3)
    rules = await world.players[1].slash(world.channel, "shanghai rules")
    simcord.assert_responded(rules, contains="jokers and 2s", ephemeral=True)
    assert "**Deals** 3" in text_of(rules.response)
    await start(world)
    old = world.message().id
    again = await world.players[2].slash(world.channel, "shanghai table")
    assert again.acknowledged and not again.ephemeral
    assert world.table.record.message_id == again.response.id != old
    assert "My hand" in button_labels(world.message())
    stale = next(m for m in world.channel.history() if m.id == old)
    assert button_labels(stale) == [] and "moved" in text_of(stale)


async def test_start_needs_enough_players_and_host_cannot_leave(env: simcord.Env) -> None:
    world = await open_table(env, 1, preset="preset_000")  # preset_000 seats 3 to 8
    alice = world.players[0]
    early = await alice.click(world.message(), label="Start")
    simcord.assert_responded(early, contains="needs at least 3 players", ephemeral=True)
    leave = await alice.click(world.message(), label="Leave")
    simcord.assert_responded(leave, contains="host can't leave", ephemeral=True)
    assert world.table.game is None and len(world.table.record.seats) == 1


async def test_the_rules_lead_to_the_whole_game(env: simcord.Env) -> None:
    """Without a players' page the answer's **📖 Full rules** opens the rules in pages, turned
    with Back and Next to the end; with ``rules_url`` set the answer links that page."""
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    member = guild.add_member(env.create_user("reader"))
    reply = await member.slash(channel, "shanghai rules")
    simcord.assert_responded(reply, contains="Full rules", ephemeral=True)
    assert "docs/RULES.md" not in str(reply.response.content)
    last = reply.followups[-1] if reply.followups else reply.response  # the answer's end
    opened = await member.click(last, label="Full rules")
    simcord.assert_responded(opened, contains="### The idea", ephemeral=True)
    page = opened.response
    assert "Page 1 of 6" in page.content and "◀ Back" in button_labels(page)
    seen = [page.content.splitlines()[0]]
    for _ in range(5):
        assert (await member.click(page, label="Next ▶")).acknowledged
        seen.append(page.content.splitlines()[0])
    assert seen == [
        "### The idea",
        "### The ten contracts",
        "### A turn",
        "### Buying",
        "### Scoring",
        "### Playing through the bot",
    ]
    assert "Page 6 of 6" in page.content and len(page.content) < 2000
    assert (await member.click(page, label="◀ Back")).acknowledged
    assert page.content.startswith("### Scoring")
    env.bot.settings.rules_url = "https://example.org/RULES.md"
    linked = await member.slash(channel, "shanghai rules")
    simcord.assert_responded(linked, contains="<https://example.org/RULES.md>", ephemeral=True)
    assert not any("Full rules" in button_labels(m) for m in [linked.response, *linked.followups])


async def test_the_table_controls_replace_the_lobby_at_start_at_once(env: simcord.Env) -> None:
    """Issue 24.5: the click on Start itself turns the lobby message into the table (My hand,
    History): no lobby buttons linger for the publisher's next pace."""

    world = await open_table(env, 2)
    message = world.message()
    result = await world.players[0].click(message, label="Start")
    assert result.acknowledged
    [answer] = [
        r for r in env.http_requests if r.method == "POST" and r.path.endswith("/callback")
    ][-1:]
    assert answer.json["type"] == 7  # UPDATE_MESSAGE: the click's own answer edits the message
    sent = str(answer.json["data"]["components"])
    assert "My hand" in sent and "Join" not in sent
