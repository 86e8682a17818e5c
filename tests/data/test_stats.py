"""Player-stat arithmetic, checked against hand-made results (the ranked board, ratings,
seasons and records are in ``test_ranked.py``).

Shanghai totals are penalty points (lower is better); Rummy totals are points won (higher is
better). Every expected number below is worked out by hand in the comments.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from data import GameKind, PlayerStats, ResultRow, Seat, Store

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
        ranked: bool = False,
    ) -> int:
        self.channel += 1
        self.clock.advance(60)
        seats = [Seat(r.user_id, r.name) for r in results]
        table = await self.store.create_table(guild_id, self.channel, game_kind, 1, seats, {})
        await self.store.start_game(table.id, seats, "{}", None, None)
        await self.store.finish_game(table.id, 0, "{}", results, ranked=ranked)
        return table.id


def r(user_id: int, total: int, win: bool = False, **counts: int) -> ResultRow:
    names = {ANN: "Ann", BOB: "Bob", CAT: "Cat", DAN: "Dan", EVE: "Eve"}
    return ResultRow(user_id, names[user_id], 0, total, win, **counts)


def seated(*rows: ResultRow) -> list[ResultRow]:
    """Give the rows seats 0, 1, 2... in the order written."""
    return [replace(row, seat=seat) for seat, row in enumerate(rows)]


@pytest.fixture
def games(store: Store, clock: FakeClock) -> Games:
    return Games(store, clock)


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
    # Leaving computers out is the caller's job: the store records whatever it is given, but a
    # computer (a negative id) is never ranked nor rated, even in a game marked ranked.
    robot = ResultRow(-1, "Robo", 1, 15, False)
    await games.play([ResultRow(ANN, "Ann", 0, 0, True, place=1), robot], ranked=True)
    stats = await store.player_stats(GUILD, -1)
    assert stats is not None and stats.games == 1
    assert await store.leaderboard(GUILD) == []
