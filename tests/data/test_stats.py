"""Leaderboard order and player-stat arithmetic, checked against hand-made results.

Shanghai totals are penalty points (lower is better); Rummy totals are points won (higher is
better). Every expected number below is worked out by hand in the comments.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from data import GameKind, LeaderboardRow, PlayerStats, ResultRow, Seat, Store

from .conftest import FakeClock

GUILD = 1
ANN, BOB, CAT, DAN, EVE = 1, 2, 3, 4, 5


class Games:
    """Plays whole games straight to ``finish_game``, one fresh channel each."""

    def __init__(self, store: Store, clock: FakeClock) -> None:
        self.store = store
        self.clock = clock
        self.channel = 1000

    async def play(
        self,
        results: list[ResultRow],
        game_kind: GameKind = "shanghai",
        guild_id: int = GUILD,
    ) -> None:
        self.channel += 1
        self.clock.advance(60)
        seats = [Seat(r.user_id, r.name) for r in results]
        table = await self.store.create_table(guild_id, self.channel, game_kind, 1, seats, {})
        await self.store.start_game(table.id, seats, "{}", None, None)
        await self.store.finish_game(table.id, 0, "{}", results)


def r(user_id: int, total: int, win: bool = False, **counts: int) -> ResultRow:
    names = {ANN: "Ann", BOB: "Bob", CAT: "Cat", DAN: "Dan", EVE: "Eve"}
    return ResultRow(user_id, names[user_id], 0, total, win, **counts)


def seated(*rows: ResultRow) -> list[ResultRow]:
    """Give the rows seats 0, 1, 2... in the order written."""
    return [replace(row, seat=seat) for seat, row in enumerate(rows)]


@pytest.fixture
def games(store: Store, clock: FakeClock) -> Games:
    return Games(store, clock)


async def _shanghai_history(games: Games) -> None:
    # Ann: 10 (win), 70, 0 (win)   -> 3 games, 2 wins, average 80/3,  best 0
    # Bob: 55, 5 (win), 30         -> 3 games, 1 win,  average 30,    best 5
    # Cat: 90, 40, 120             -> 3 games, 0 wins, average 250/3, best 40
    # Dan: 0 (win)                 -> 1 game,  1 win,  average 0,     best 0
    # Eve: 50                      -> 1 game,  0 wins, average 50,    best 50
    await games.play(seated(r(ANN, 10, True), r(BOB, 55), r(CAT, 90)))
    await games.play(seated(r(BOB, 5, True), r(ANN, 70), r(CAT, 40)))
    await games.play(seated(r(ANN, 0, True), r(BOB, 30), r(CAT, 120)))
    await games.play(seated(r(DAN, 0, True), r(EVE, 50)))
    # Noise that must not count: another guild, and the other game.
    await games.play(seated(r(CAT, 0, True), r(BOB, 99)), guild_id=2)
    await games.play(seated(r(EVE, 300, True), r(ANN, 10)), game_kind="rummy")


async def test_shanghai_leaderboard_order_and_numbers(store: Store, games: Games) -> None:
    await _shanghai_history(games)
    board = await store.leaderboard(GUILD, "shanghai")
    # Wins first (Ann 2; Dan and Bob 1; Eve and Cat 0), then the lower average.
    assert [(row.user_id, row.name, row.games, row.wins, row.best_total) for row in board] == [
        (ANN, "Ann", 3, 2, 0),
        (DAN, "Dan", 1, 1, 0),
        (BOB, "Bob", 3, 1, 5),
        (EVE, "Eve", 1, 0, 50),
        (CAT, "Cat", 3, 0, 40),
    ]
    averages = [row.average_total for row in board]
    assert averages == pytest.approx([80 / 3, 0.0, 30.0, 50.0, 250 / 3])
    assert all(isinstance(row, LeaderboardRow) for row in board)


async def test_leaderboard_limit(store: Store, games: Games) -> None:
    await _shanghai_history(games)
    assert [row.user_id for row in await store.leaderboard(GUILD, "shanghai", limit=2)] == [
        ANN,
        DAN,
    ]


async def test_rummy_prefers_the_higher_total(store: Store, games: Games) -> None:
    # Ann: 150 (win), 40  -> average 95, best 150
    # Bob: 100 (win), 20  -> average 60, best 100
    # Cat: 200            -> no wins, average 200, best 200
    await games.play(seated(r(ANN, 150, True), r(BOB, 20)), game_kind="rummy")
    await games.play(seated(r(BOB, 100, True), r(ANN, 40), r(CAT, 200)), game_kind="rummy")
    board = await store.leaderboard(GUILD, "rummy")
    assert [(row.user_id, row.wins, row.average_total, row.best_total) for row in board] == [
        (ANN, 1, 95.0, 150),
        (BOB, 1, 60.0, 100),
        (CAT, 0, 200.0, 200),
    ]


async def test_ties_go_to_more_games_then_user_id(store: Store, games: Games) -> None:
    # Same wins (0) and average (20) for all three; Cat played twice, so Cat leads; then Ann
    # before Bob by user id.
    await games.play(seated(r(DAN, 0, True), r(BOB, 20), r(ANN, 20)))
    await games.play(seated(r(DAN, 0, True), r(CAT, 10)))
    await games.play(seated(r(DAN, 0, True), r(CAT, 30)))
    board = await store.leaderboard(GUILD)
    assert [row.user_id for row in board] == [DAN, CAT, ANN, BOB]


async def test_leaderboard_uses_the_latest_name(store: Store, games: Games) -> None:
    await games.play(seated(ResultRow(ANN, "Ann", 0, 10, True)))
    await games.play(seated(ResultRow(ANN, "Annie", 0, 20, True)))
    [row] = await store.leaderboard(GUILD)
    assert (row.name, row.games) == ("Annie", 2)


async def test_player_stats_arithmetic(store: Store, games: Games) -> None:
    # Bob: totals 55, 5 (win), 30; deals out 0+2+1 = 3; blind outs 0+1+0 = 1; buys 4+0+3 = 7.
    await games.play(seated(r(ANN, 0, True), r(BOB, 55, buys_used=4)))
    await games.play(seated(r(BOB, 5, True, deals_out=2, blind_outs=1), r(ANN, 70)))
    await games.play(seated(r(ANN, 0, True), r(BOB, 30, deals_out=1, buys_used=3)))
    await games.play(seated(r(BOB, 0, True, deals_out=9)), guild_id=2)  # another guild
    stats = await store.player_stats(GUILD, BOB)
    assert stats == PlayerStats(
        user_id=BOB,
        name="Bob",
        game_kind="shanghai",
        games=3,
        wins=1,
        average_total=30.0,
        best_total=5,
        deals_out=3,
        blind_outs=1,
        buys_used=7,
    )
    assert stats.win_rate == pytest.approx(1 / 3)


async def test_player_stats_rummy_best_is_highest(store: Store, games: Games) -> None:
    await games.play(seated(r(ANN, 120, True), r(BOB, 10)), game_kind="rummy")
    await games.play(seated(r(BOB, 90, True), r(ANN, 30)), game_kind="rummy")
    stats = await store.player_stats(GUILD, ANN, "rummy")
    assert stats is not None
    assert (stats.games, stats.wins, stats.average_total, stats.best_total) == (2, 1, 75.0, 120)


async def test_player_without_results_has_no_stats(store: Store, games: Games) -> None:
    await games.play(seated(r(ANN, 0, True)))
    assert await store.player_stats(GUILD, BOB) is None
    assert await store.player_stats(GUILD, ANN, "rummy") is None
    assert await store.leaderboard(GUILD, "rummy") == []


async def test_results_accept_any_rows(store: Store, games: Games) -> None:
    # Leaving computers out is the caller's job: the store records whatever it is given.
    robot = ResultRow(-1, "Robo", 1, 15, False)
    await games.play([ResultRow(ANN, "Ann", 0, 0, True), robot])
    assert [row.user_id for row in await store.leaderboard(GUILD)] == [ANN, -1]
