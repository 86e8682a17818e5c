"""``Store.recent_games``: a guild's finished games for ``/shanghai history``, on both stores."""

from __future__ import annotations

from data import ResultRow, Seat, Store, TableRecord
from tests.clock import FakeClock

from .conftest import COMPUTER

GUILD = 1
ANN, BOB, CAT = Seat(101, "Ann"), Seat(102, "Bob"), Seat(103, "Cat")


async def _finished(
    store: Store, channel_id: int, seats: tuple[Seat, ...], totals: list[int], guild: int = GUILD
) -> TableRecord:
    table = await store.create_table(guild, channel_id, "shanghai", seats[0].user_id, seats, {})
    await store.start_game(table.id, seats, "{}", None, None)
    best = min(totals)
    rows = [
        ResultRow(seat.user_id, seat.name, index, totals[index], totals[index] == best)
        for index, seat in enumerate(seats)
        if not seat.is_computer
    ]
    await store.finish_game(table.id, 0, "{}", rows)
    return table


async def test_recent_games_newest_first_for_the_guild_or_one_member(
    store: Store, clock: FakeClock
) -> None:
    first = await _finished(store, 500, (ANN, BOB), [10, 40])
    clock.advance(60)
    second = await _finished(store, 501, (BOB, CAT, COMPUTER), [30, 0, 5])
    clock.advance(60)
    await _finished(store, 502, (ANN, CAT), [0, 5], guild=2)  # another server's
    ended = await store.create_table(GUILD, 503, "shanghai", 101, (ANN, BOB), {})
    await store.end_table(ended.id)

    games = await store.recent_games(GUILD)
    assert [g.table_id for g in games] == [second.id, first.id]
    newest = games[0]
    assert newest.channel_id == 501 and newest.game_kind == "shanghai"
    assert newest.seats == (BOB, CAT, COMPUTER)
    assert [(r.name, r.total, r.is_winner) for r in newest.results] == [
        ("Bob", 30, False),
        ("Cat", 0, True),
    ]
    assert newest.finished_at == games[1].finished_at + 60

    assert [g.table_id for g in await store.recent_games(GUILD, ANN.user_id)] == [first.id]
    assert [g.table_id for g in await store.recent_games(GUILD, BOB.user_id, 1)] == [second.id]
    assert await store.recent_games(GUILD, 999) == []
    assert await store.recent_games(3) == []
