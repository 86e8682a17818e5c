"""What a finished game leaves: its rows on the leaderboard (one per person, computers left out)
and its record, rebuilt from what the store keeps (its last state and its action log)."""

from __future__ import annotations

from bot.service.live import LiveTable, rules_for
from bot.service.ranked import finished_verdict, people_places
from data.records import ResultRow
from data.store import Store
from engine.record import GameRecord, record_from_stored


def result_rows(table: LiveTable) -> list[ResultRow]:
    """Each person's total, win, deals out, blind outs, buys and place among the people;
    computers have no row."""
    game = table.game
    assert game is not None
    totals = game.totals
    winners = set(game.winner_seats)
    places = people_places(table)
    rows = []
    for index, seat in enumerate(table.record.seats):
        if seat.is_computer:
            continue
        rows.append(
            ResultRow(
                user_id=seat.user_id,
                name=seat.name,
                seat=index,
                total=totals[index],
                is_winner=index in winners,
                deals_out=game.deals_out[index],
                blind_outs=game.blind_outs[index],
                buys_used=game.buys_total[index],
                place=places[index],
            )
        )
    return rows


def is_ranked(table: LiveTable) -> bool:
    """Whether the finished game counts for the board (``bot.service.ranked``)."""
    return finished_verdict(table, rules_for(dict(table.record.options))).ranked


async def record_of_table(store: Store, table_id: int) -> GameRecord:
    """The record of a finished table, from its stored state and action log. Raises
    ``ValueError`` for an unknown table, one without a game, or a game not over."""
    table = await store.get_table(table_id)
    if table is None or table.state is None:
        raise ValueError(f"table {table_id} has no game")
    actions = await store.actions(table_id)
    return record_from_stored(table.state, [(str(a.user_id), a.action) for a in actions])
