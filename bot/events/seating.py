"""Who sits where in one round of an event.

Terms used here:

- *order*: the players of a round, best first (by rating in round 1, by event standing after).
  Tables are cut from it in order, so players of a like strength meet.
- *table size* ``k``: what the organiser chose (3 to 6). A table seats ``k`` or ``k - 1``
  players, never fewer than ``MIN_TABLE``.
- *sit-out*: a player left without a seat because no mix of tables of ``k`` and ``k - 1`` holds
  everyone (13 players at tables of 6, say). Only as many sit out as the count forces, and a
  player who sat out before sits out again only once everybody else has.
- *computer seats*: instead of sit-outs (an event's default since computers can fill seats),
  the players are spread evenly over as many tables as they need, and a table short of
  ``k - 1`` (never fewer than ``MIN_TABLE``) gets computer players for its empty seats; with
  *full tables* every table is filled to ``k``. A round never gets more tables than the
  players need, so computers sit only where a seat would otherwise be empty. Players too few
  for a table of their own (1 or 2, once others were removed) still play: computers fill their
  table to ``MIN_TABLE`` (to ``k`` with full tables).

Pure: no Discord, no store, no clock.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Final

#: The fewest players a table of an event starts with.
MIN_TABLE: Final = 3
#: The most players a table holds (the game's own limit).
MAX_TABLE: Final = 6


class SeatingError(ValueError):
    """The round cannot be seated (a bad table size, or too few players for one table)."""


@dataclass(frozen=True, slots=True)
class RoundSeating:
    """One round's tables (each a tuple of players, best first) and who sits out."""

    tables: tuple[tuple[int, ...], ...]
    sitting_out: tuple[int, ...]
    #: How many computer players each table gets (all zero, or empty, without computers).
    computers: tuple[int, ...] = ()

    @property
    def seated(self) -> tuple[int, ...]:
        """Every seated player, table by table."""
        return tuple(player for table in self.tables for player in table)


def table_sizes(players: int, size: int) -> tuple[int, ...]:
    """The sizes of the tables for ``players`` at tables of ``size``, largest first.

    Seats as many players as any mix of tables of ``size`` and ``size - 1`` can (so the fewest
    sit out), with the fewest tables among those mixes (so most tables are full); the smaller
    tables come last. Raises ``SeatingError`` for a size outside 3..6 or fewer players than
    one table needs.
    """
    if not MIN_TABLE <= size <= MAX_TABLE:
        raise SeatingError(f"table size {size} is not between {MIN_TABLE} and {MAX_TABLE}")
    if players < MIN_TABLE:
        raise SeatingError(f"{players} players cannot fill a table")
    if players < size - 1:
        # Too few for even a smaller table: they all play at one.
        return (players,)
    smaller = size - 1 if size - 1 >= MIN_TABLE else size
    for seated in range(players, MIN_TABLE - 1, -1):
        # The most full tables first: that is also the fewest tables for this count.
        for full in range(seated // size, -1, -1):
            rest = seated - full * size
            if rest % smaller == 0:
                return (size,) * full + (smaller,) * (rest // smaller)
    raise SeatingError(f"{players} players cannot be seated at tables of {size}")


def seat_round(
    order: Sequence[int],
    size: int,
    sat_out_before: Collection[int] = (),
    *,
    computers: bool = False,
    full: bool = False,
) -> RoundSeating:
    """Seat ``order`` (best first) at tables of ``size``, cut in order.

    When some must sit out, they are the lowest in ``order`` among those who have sat out the
    fewest times: first the players not in ``sat_out_before``, and a player who has sat out
    before only when every other player has too. ``sat_out_before`` may list a player more
    than once (once per round sat out). Raises ``SeatingError`` as ``table_sizes`` does, or
    when ``order`` names a player twice.

    With ``computers`` nobody sits out: where the count would force a sit-out, or the players
    are too few for a table, computer players fill the empty seats instead
    (``with_computers``); with ``full`` every table is filled to ``size``.
    """
    if len(set(order)) != len(order):
        raise SeatingError("a player is listed twice")
    if full or computers:
        if full or len(order) < MIN_TABLE:
            return with_computers(order, size, full=full)
        if sum(table_sizes(len(order), size)) < len(order):
            return with_computers(order, size, full=full)
    sizes = table_sizes(len(order), size)
    out_count = len(order) - sum(sizes)
    times_out = {player: 0 for player in order}
    for player in sat_out_before:
        if player in times_out:
            times_out[player] += 1
    position = {player: index for index, player in enumerate(order)}
    # Fewest sit-outs first, then lowest in the order.
    candidates = sorted(order, key=lambda p: (times_out[p], -position[p]))
    sitting_out = tuple(sorted(candidates[:out_count], key=position.__getitem__))
    left = [player for player in order if player not in set(sitting_out)]
    tables: list[tuple[int, ...]] = []
    start = 0
    for table_size in sizes:
        tables.append(tuple(left[start : start + table_size]))
        start += table_size
    return RoundSeating(tables=tuple(tables), sitting_out=sitting_out)


def with_computers(order: Sequence[int], size: int, *, full: bool = False) -> RoundSeating:
    """Seat everyone in ``order`` at as few tables of ``size`` as hold them, the players
    spread evenly (the bigger tables first), and computers in the seats short of ``size - 1``
    (of ``size`` when ``full``; never short of ``MIN_TABLE``). Fewer players than
    ``MIN_TABLE`` sit at one table that computers fill to ``MIN_TABLE`` (to ``size`` when
    ``full``). Raises ``SeatingError`` for a bad size or nobody to seat."""
    if not MIN_TABLE <= size <= MAX_TABLE:
        raise SeatingError(f"table size {size} is not between {MIN_TABLE} and {MAX_TABLE}")
    if not order:
        raise SeatingError("nobody to seat")
    count = -(-len(order) // size)
    base, extra = divmod(len(order), count)
    if full:
        seats = size
    elif len(order) < MIN_TABLE:
        seats = MIN_TABLE
    else:
        seats = max(MIN_TABLE, size - 1)
    tables: list[tuple[int, ...]] = []
    filled: list[int] = []
    start = 0
    for index in range(count):
        people = base + (1 if index < extra else 0)
        tables.append(tuple(order[start : start + people]))
        filled.append(max(0, seats - people))
        start += people
    return RoundSeating(tables=tuple(tables), sitting_out=(), computers=tuple(filled))


def mixed(order: Sequence[int], size: int) -> list[int]:
    """``order`` (best first) rearranged so that cutting it into tables of ``size`` in order
    seats one player of each band of the standings at every table: with ``T`` tables, table
    ``k`` gets places ``k``, ``k + T``, ``k + 2T``... A duplicate round compares each player
    with the same seat at the other tables, which is fair only if every table faces a like
    field; tables cut strongest-first would compare a player among experts with one among
    beginners."""
    count = max(1, -(-len(order) // size))
    return [order[i] for k in range(count) for i in range(k, len(order), count)]


def final_table(order: Sequence[int], size: int) -> tuple[int, ...]:
    """The players of the final table: the top ``size`` of the standings (all if fewer)."""
    if not MIN_TABLE <= size <= MAX_TABLE:
        raise SeatingError(f"table size {size} is not between {MIN_TABLE} and {MAX_TABLE}")
    return tuple(order[:size])
