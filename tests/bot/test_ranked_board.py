"""Issue 26 through simcord: the farming attempt leaves the board empty, two people's ten-deal
game moves their ratings by openskill's own numbers, a removed player ranks last, and the
board's commands (seasons, records, head-to-head, removal) answer as worked out by hand."""

from __future__ import annotations

import random
import sqlite3
from typing import Any

import discord
import pytest
import simcord
from openskill.models import PlackettLuce

from bot import Settings
from data import ResultRow, Seat
from engine.players.strategy import EasyStrategy

from .helpers import World, open_table, start, text_of


async def play_to_the_end(world: World, env: simcord.Env, max_steps: int = 100_000) -> None:
    """The people play their own turns (the easy strategy, through the service, as their
    clicks would); a seat the bot plays (removed, away) is left to the bot's timer."""
    rng = random.Random(7)
    strategy = EasyStrategy(buy_chance=0)
    service = world.service
    table = world.table
    for _ in range(max_steps):
        game = table.game
        if table.closed or game.is_over:
            return
        seat = game.current
        if table.is_away(seat) or table.is_computer(seat):
            # Driven outside any interaction, simcord does not track the timer tasks this
            # loop's own calls arm, so their sleeps are not on its virtual clock: after the
            # virtual seconds pass, the due work is run directly, as the timer would.
            await env.advance_time(4)
            await service.run_due(table.id)
            continue
        player = game.current_player
        legal = service.legal_actions(table.id, int(player))
        action = strategy.choose(game.view(player), legal, rng)
        result = await service.act(table.id, int(player), action)
        if result.pending is not None:
            await env.advance_time(8)
        await env.settle()
    raise AssertionError("the game did not end")


def ratings(settings: Settings) -> dict[int, tuple[float, float, int]]:
    """user -> (mu, sigma, games) of season 1, read from the database file itself."""
    with sqlite3.connect(settings.database) as db:
        rows = db.execute("SELECT user_id, mu, sigma, games FROM ratings WHERE season = 1")
        return {user: (mu, sigma, games) for user, mu, sigma, games in rows}


#: Games one person plays alone against a computer: each is casual, however many there are.
FARMED_GAMES = 4


async def test_farming_alone_against_a_computer_leaves_the_board_empty(
    env: simcord.Env, settings: Settings
) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    for _ in range(FARMED_GAMES):
        opened = await alice.slash(channel, "shanghai new", deals=1, turn_seconds=10)
        world = World(env, guild, channel, [alice], opened.response.message)
        await alice.click(world.message(), label="Add computer (easy)")
        lobby = text_of(world.message())
        assert "**Casual**, because fewer than two people play" in lobby
        await start(world)
        table = world.table
        for _ in range(2_000):  # not one click of her own: the bot plays her turns
            if table.game.is_over:
                break
            await env.advance_time(10)
        assert table.game.is_over
    board = await alice.slash(channel, "shanghai leaderboard")
    simcord.assert_responded(board, contains="Nobody is on the Shanghai leaderboard")
    assert await env.bot.store.leaderboard(guild.id) == []  # type: ignore[attr-defined]
    stats = await alice.slash(channel, "shanghai stats")
    simcord.assert_responded(
        stats, contains=f"{FARMED_GAMES} games (0 ranked, {FARMED_GAMES} casual)"
    )
    records = await alice.slash(channel, "shanghai records")
    simcord.assert_responded(records, contains="No ranked Shanghai games here yet")
    assert ratings(settings) == {}


@pytest.mark.slow  # a whole ten-deal game of two through simcord: about 25 s
async def test_two_people_ten_deals_move_by_openskills_numbers(
    env: simcord.Env, settings: Settings
) -> None:
    world = await open_table(env, 2, turn_seconds=600)
    lobby = text_of(world.message())
    assert "🏆 **Ranked**: this game counts for the leaderboard." in lobby
    await start(world)
    table = world.table
    await play_to_the_end(world, env)
    game = table.game
    assert game.is_over and len(game.score_sheet) == 10
    alice, bob = world.players
    a, b = (game.totals[game.seat_of(str(p.id))] for p in (alice, bob))
    ranks = [1 + (b < a), 1 + (a < b)]  # lower total is better; a tie is rank 1 for both
    model = PlackettLuce()
    [[new_a], [new_b]] = model.rate([[model.rating()], [model.rating()]], ranks=ranks)
    found = ratings(settings)
    assert found[alice.id] == (pytest.approx(new_a.mu), pytest.approx(new_a.sigma), 1)
    assert found[bob.id] == (pytest.approx(new_b.mu), pytest.approx(new_b.sigma), 1)
    assert (found[alice.id][0] > 25) == (a < b) and (found[bob.id][0] > 25) == (b < a)
    results = await env.bot.store.table_results(table.id)  # type: ignore[attr-defined]
    assert [r.place for r in results] == ranks
    stats = await alice.slash(world.channel, "shanghai stats", versus=bob)
    text = stats.response.content
    assert "1 game (1 ranked, 0 casual)" in text
    assert "Season 1: 1 of 3 ranked game" in text  # not on the board before three
    ahead, behind = int(a < b), int(b < a)
    assert f"alice ahead {ahead}, bob ahead {behind}, level {1 - ahead - behind}" in text
    assert [f.filename for f in stats.response.attachments] == ["stats.png"]


@pytest.mark.slow  # a whole ten-deal game of three, one played by the bot: about 40 s
async def test_a_removed_person_ranks_last_among_the_people(
    env: simcord.Env, settings: Settings
) -> None:
    world = await open_table(env, 3, turn_seconds=600)
    alice, bob, carol = world.players
    await start(world)
    kicked = await alice.slash(world.channel, "shanghai kick", member=carol)
    assert kicked.acknowledged
    table = world.table
    await play_to_the_end(world, env)
    game = table.game
    assert game.is_over
    results = {r.user_id: r for r in await env.bot.store.table_results(table.id)}  # type: ignore[attr-defined]
    assert results[carol.id].place == 3  # whatever her total: the bot played her seat
    a, b = results[alice.id].total, results[bob.id].total
    assert results[alice.id].place == 1 + (b < a) and results[bob.id].place == 1 + (a < b)
    assert table.away[game.seat_of(str(carol.id))].auto > 0
    model = PlackettLuce()
    teams = [[model.rating()] for _ in range(3)]
    places = [results[p.id].place for p in (alice, bob, carol)]
    rated = model.rate(teams, ranks=places)
    found = ratings(settings)
    for person, [rating] in zip((alice, bob, carol), rated, strict=True):
        assert found[person.id][:2] == pytest.approx((rating.mu, rating.sigma))


async def _seed(env: simcord.Env, guild: Any, games: list[list[tuple[Any, int]]]) -> None:
    """Ranked games straight into the store: (member, total) per seat, places by total."""
    store = env.bot.store  # type: ignore[attr-defined]
    for number, seats_totals in enumerate(games):
        seats = [Seat(m.id, m.name) for m, _ in seats_totals]
        table = await store.create_table(guild.id, 9000 + number, "shanghai", 1, seats, {})
        await store.start_game(table.id, seats, "{}", None, None)
        best = min(t for _, t in seats_totals)
        rows = [
            ResultRow(
                m.id,
                m.name,
                i,
                t,
                t == best,
                deals_out=1,
                place=1 + sum(1 for _, o in seats_totals if o < t),
            )
            for i, (m, t) in enumerate(seats_totals)
        ]
        await store.finish_game(table.id, 0, "{}", rows, ranked=True)


async def test_board_seasons_records_and_removal_commands(env: simcord.Env) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    alice, bob, carol = (guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol"))
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("admin"), roles=[admins])
    # Alice 30 W, Bob 60; Alice 40 W, Bob 50; Bob 20 W, Alice 70 -> Alice 2 wins, Bob 1;
    # best game Bob's 20; streak Alice 2; deals out 3 each -> Alice (lower id).
    await _seed(env, guild, [[(alice, 30), (bob, 60)], [(alice, 40), (bob, 50)]])
    await _seed(env, guild, [[(bob, 20), (alice, 70)]])
    board = await carol.slash(channel, "shanghai leaderboard")
    assert board.acknowledged and not board.ephemeral
    embed = board.response.embeds[0]
    assert embed.title == "Shanghai leaderboard · season 1"
    lines = embed.description.splitlines()
    assert len(lines) == 2 and lines[0].startswith("1. **alice** — rating ")
    assert "2 wins in 3 games" in lines[0] and "1 win in 3 games" in lines[1]
    records = await carol.slash(channel, "shanghai records")
    text = records.response.content
    assert "Most wins: **alice**, 2" in text
    assert "Best game: **bob**, 20 points" in text
    assert "Longest win streak: **alice**, 2 games" in text
    versus = await carol.slash(channel, "shanghai stats", member=alice, versus=bob)
    assert "alice ahead 2, bob ahead 1, level 0" in versus.response.content
    same = await carol.slash(channel, "shanghai stats", member=alice, versus=alice)
    simcord.assert_responded(same, contains="another member", ephemeral=True)

    # Seasons: only Manage Server starts one; the old board stays readable.
    refused = await carol.slash(channel, "shanghai new_season")
    simcord.assert_responded(refused, contains="Manage Server", ephemeral=True)
    started = await admin.slash(channel, "shanghai new_season")
    simcord.assert_responded(started, contains="Season 2 has begun")
    assert not started.ephemeral
    empty = await carol.slash(channel, "shanghai leaderboard")
    simcord.assert_responded(empty, contains="season 2")
    old = await carol.slash(channel, "shanghai leaderboard", season=1)
    assert old.response.embeds[0].description.splitlines() == lines
    future = await carol.slash(channel, "shanghai leaderboard", season=3)
    simcord.assert_responded(future, contains="Season 3 has not started", ephemeral=True)

    # Removal: it says what it removes, asks, and only the admin's yes removes it.
    refused = await carol.slash(channel, "shanghai remove_results", member=alice)
    simcord.assert_responded(refused, contains="Manage Server", ephemeral=True)
    asked = await admin.slash(channel, "shanghai remove_results", member=alice)
    simcord.assert_responded(asked, contains="3 results, 3 of them ranked", ephemeral=True)
    assert "(seasons: 1)" in asked.response.content
    kept = await admin.click(asked.response, label="Keep")
    simcord.assert_responded(kept, contains="Nothing was removed")
    again = await admin.slash(channel, "shanghai remove_results", member=alice)
    done = await admin.click(again.response, label="Remove from the leaderboard")
    simcord.assert_responded(done, contains="3 results of")
    after = await carol.slash(channel, "shanghai leaderboard", season=1)
    [line] = after.response.embeds[0].description.splitlines()
    assert line.startswith("1. **bob**")  # Bob stays, with the rating he had
    records = await carol.slash(channel, "shanghai records")
    assert "alice" not in records.response.content
    nothing = await admin.slash(channel, "shanghai remove_results", member=alice)
    simcord.assert_responded(nothing, contains="has nothing on", ephemeral=True)


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [("en", "1 game", "2 games"), ("es", "1 partida", "2 partidas"), ("nl", "1 spel", "2 spellen")],
)
def test_a_win_streak_of_one_game_is_singular(language: Any, one: str, two: str) -> None:
    from bot.cogs.leaderboard import records_text
    from data.records import ServerRecord

    for value, words in ((1, one), (2, two)):
        text = records_text([ServerRecord("win_streak", 5, "ann", value)], "shanghai", language)
        assert text.endswith(f"**ann**, {words}")
