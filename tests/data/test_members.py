"""A member's export and erasure, and the purge of servers the bot left, on both stores."""

from __future__ import annotations

import json

import pytest

from data import Seat, Store
from data.members import FORMER_END, FORMER_FIRST, FORMER_NAME

from .conftest import Backend, FakeClock
from .test_ranked import ANN, BOB, CAT, GUILD, Games

DAY = 86_400.0


@pytest.fixture
def games(store: Store, clock: FakeClock) -> Games:
    return Games(store, clock)


async def test_the_export_holds_a_members_games_ratings_and_hosted_tables(
    store: Store, games: Games
) -> None:
    first = await games.play((ANN, 10), (BOB, 20))
    await games.play((ANN, 30), (BOB, 5))
    await games.play((BOB, 1), (CAT, 2), guild_id=GUILD + 1)  # Ann is not in it
    await store.start_season(GUILD, ANN)
    data = await store.member_data(ANN)
    json.dumps(data)  # JSON-ready as it is
    assert data["user_id"] == str(ANN)
    assert [(g["table_id"], g["seat"], g["total"], g["winner"]) for g in data["games"]] == [
        (first, 0, 10, True),
        (first + 1, 0, 30, False),
    ]
    assert {g["guild_id"] for g in data["games"]} == {str(GUILD)}
    assert [(r["season"], r["games"], r["wins"]) for r in data["ratings"]] == [(1, 2, 1)]
    assert [t["table_id"] for t in data["tables_hosted"]] == [first, first + 1, first + 2]
    assert [s["season"] for s in data["seasons_started"]] == [2]
    assert data["open_tables"] == []
    assert (await store.member_data(999))["games"] == []


async def test_erasure_anonymises_results_and_deletes_ratings(
    store: Store, games: Games, backend: Backend
) -> None:
    for _ in range(3):
        table = await games.play((ANN, 10), (BOB, 20), (CAT, 30))
    before = await store.table_results(table)
    bob_rating = [r for r in await store.leaderboard(GUILD) if r.user_id == BOB]
    erased = await store.erase_member(ANN)
    assert (erased.results, erased.ratings, erased.open_tables) == (3, 1, ())
    assert erased.placeholder is not None and FORMER_FIRST <= erased.placeholder < FORMER_END
    after = await store.table_results(table)
    # The game still adds up: same seats, totals, places and winner; Ann is a placeholder.
    assert [(r.seat, r.total, r.place, r.is_winner) for r in after] == [
        (r.seat, r.total, r.place, r.is_winner) for r in before
    ]
    assert (after[0].user_id, after[0].name) == (erased.placeholder, FORMER_NAME)
    assert after[1:] == before[1:]
    board = await store.leaderboard(GUILD)
    assert [r.user_id for r in board] == [BOB, CAT]  # the others keep their ratings
    assert [r for r in board if r.user_id == BOB] == bob_rating
    assert await store.player_stats(GUILD, ANN) is None
    data = await store.member_data(ANN)
    assert data["games"] == [] and data["ratings"] == [] and data["tables_hosted"] == []
    left = await backend.fetch("SELECT COUNT(*) FROM results WHERE user_id = ?", ANN)
    assert left[0][0] == 0
    # A second member erased gets a placeholder of their own.
    again = await store.erase_member(BOB)
    assert again.placeholder == erased.placeholder + 1


async def test_no_erasure_while_the_member_sits_at_an_open_table(
    store: Store, games: Games
) -> None:
    await games.play((ANN, 10), (BOB, 20))
    lobby = await store.create_table(
        GUILD, 77, "shanghai", BOB, [Seat(BOB, "Bob"), Seat(ANN, "Ann")], {}
    )
    refused = await store.erase_member(ANN)
    assert refused.open_tables == (lobby.id,) and refused.results == 0
    assert len((await store.member_data(ANN))["games"]) == 1  # nothing changed
    await store.end_table(lobby.id)
    assert (await store.erase_member(ANN)).results == 1


async def test_a_departed_guild_is_purged_after_its_period_unless_the_bot_returns(
    store: Store, games: Games, clock: FakeClock, backend: Backend
) -> None:
    gone, back, stays = GUILD, GUILD + 1, GUILD + 2
    for guild in (gone, back, stays):
        await games.play((ANN, 10), (BOB, 20), guild_id=guild)
        await store.set_guild_settings(guild, {"preset": "quick"})
    await store.start_season(gone, ANN)
    await store.guild_left(gone)
    await store.guild_left(back)
    clock.advance(29 * DAY)
    await store.guild_left(gone)  # a second removal event does not restart the period
    assert await store.departed_guilds(30 * DAY) == []
    await store.guild_returned(back)
    clock.advance(DAY)
    assert await store.departed_guilds(30 * DAY) == [gone]
    await store.purge_guild(gone)
    for table in ("results", "tables", "ratings", "seasons", "guild_settings"):
        rows = await backend.fetch(f"SELECT COUNT(*) FROM {table} WHERE guild_id = ?", gone)
        assert rows[0][0] == 0, table
    actions = await backend.fetch(
        "SELECT COUNT(*) FROM actions WHERE table_id NOT IN (SELECT id FROM tables)"
    )
    assert actions[0][0] == 0
    assert await store.guild_settings(back) == {"preset": "quick"}
    assert len(await store.leaderboard(stays, limit=10)) == 0  # one game: not on the board yet
    assert await store.player_stats(stays, ANN) is not None
    assert await store.player_stats(back, ANN) is not None
    assert await store.departed_guilds(0) == []  # the departure went with the data
