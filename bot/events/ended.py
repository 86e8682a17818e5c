"""What a table the organiser ends scores for the event.

Each person's place by the game's totals at that moment (lowest first, ties sharing, as in
``bot.service.ranked``: a person the bot played for ranks after those who stayed), so an
event can end a stuck table without taking its players' progress away. The game itself ends
without results, so nothing of it reaches the leaderboard.
"""

from __future__ import annotations

from bot.service.live import LiveTable
from bot.service.ranked import people_places


def finishes_now(table: LiveTable) -> list[tuple[int, int, int]]:
    """``(user, place, total)`` for each person at ``table`` as the game stands now; before
    the first deal (no game yet) everyone shares first place with no score."""
    seats = table.record.seats
    game = table.game
    if game is None:
        return [(seat.user_id, 1, 0) for seat in seats if not seat.is_computer]
    places = people_places(table)
    return [(seats[seat].user_id, place, game.totals[seat]) for seat, place in places.items()]
