"""Event points and standings, from the places players took at their tables.

The scale (also in ``docs/events.md``): at every table, whatever its size, 1st place earns 5
event points, 2nd 3, 3rd 2, 4th 1, 5th and 6th nothing (``PLACE_POINTS``). Players who tie for
a place share the points of the places they cover: two tied for 1st get (5 + 3) / 2 = 4 each.
A player who sits out a round (because the count forced it) earns the average of a table of
the event's size, so a sit-out neither helps nor hurts on average.

Standings sort by event points, most first; players level on points are sorted by their
average game score per table played (lower is better, as in the game), so a sit-out does not
count against them; players level on both share a rank. With a final table, its players come
first, in the order of their places there, and its winner wins the event.

A player the organiser removed keeps the points they earned, but ranks after every player
still in the event (among the removed, by the same points and average), and never wins: an
event is won by someone who played it to the end.

Pure: places and scores come in, standings come out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Final

#: Event points by place at a table (1st, 2nd, ...); places past the end earn nothing.
PLACE_POINTS: Final = (5, 3, 2, 1, 0, 0)


@dataclass(frozen=True, slots=True)
class Finish:
    """One player's result at one table: their place (1 = best, ties share) and game score."""

    player: int
    place: int
    total: int


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings. ``rank`` is shared by players level on points and average;
    ``removed`` players (taken out by the organiser) rank after everyone still in."""

    rank: int
    player: int
    points: Fraction
    total: int
    tables: int
    removed: bool = False

    @property
    def average(self) -> Fraction | None:
        """Game score per table played; ``None`` before the player's first table."""
        return Fraction(self.total, self.tables) if self.tables else None


def _points_at(place: int) -> int:
    return PLACE_POINTS[place - 1] if 1 <= place <= len(PLACE_POINTS) else 0


def table_points(finishes: Iterable[Finish]) -> dict[int, Fraction]:
    """Each player's event points from one table; tied players share their places' points.

    A tie for place ``p`` among ``m`` players covers places ``p .. p + m - 1``.
    """
    by_place: dict[int, list[int]] = defaultdict(list)
    for finish in finishes:
        by_place[finish.place].append(finish.player)
    points: dict[int, Fraction] = {}
    for place, players in by_place.items():
        covered = sum(_points_at(p) for p in range(place, place + len(players)))
        for player in players:
            points[player] = Fraction(covered, len(players))
    return points


def sit_out_points(table_size: int) -> Fraction:
    """What a player who sits out a round earns: the average of a table of ``table_size``."""
    return Fraction(sum(_points_at(p) for p in range(1, table_size + 1)), table_size)


def standings(
    players: Iterable[int],
    tables: Iterable[Sequence[Finish]],
    sit_outs: Iterable[int],
    table_size: int,
    removed: Collection[int] = (),
) -> list[Standing]:
    """The standings of ``players`` after the finished ``tables`` and the rounds in
    ``sit_outs`` (a player once per round sat out), best first; the ``removed`` players
    after all the others, so that none of them can rank first while someone is still in."""
    points: dict[int, Fraction] = {player: Fraction(0) for player in players}
    total: dict[int, int] = dict.fromkeys(points, 0)
    played: dict[int, int] = dict.fromkeys(points, 0)
    for table in tables:
        for player, earned in table_points(table).items():
            if player in points:
                points[player] += earned
        for finish in table:
            if finish.player in points:
                total[finish.player] += finish.total
                played[finish.player] += 1
    for player in sit_outs:
        if player in points:
            points[player] += sit_out_points(table_size)
    return standings_from_points(points, points, total, played, removed)


def standings_from_points(
    players: Iterable[int],
    points: Mapping[int, Fraction],
    total: Mapping[int, int],
    played: Mapping[int, int],
    removed: Collection[int] = (),
) -> list[Standing]:
    """The standings of ``players`` from event points already summed (a duplicate event's
    matchpoints, ``bot.events.duplicate``), ranked as ``standings`` ranks: points, then the
    average game score, the ``removed`` players last."""
    return _ranked(
        [
            Standing(
                0, p, points.get(p, Fraction(0)), total.get(p, 0), played.get(p, 0), p in removed
            )
            for p in players
        ],
        lambda s: (s.removed, -s.points, _average_key(s)),
    )


def with_final(ordered: Sequence[Standing], final: Iterable[Finish]) -> list[Standing]:
    """The standings once a final table has finished: its players first, by their place
    there (ties by their standing before), then everyone else as before. Removed players
    stay last, even one removed during the final."""
    final_place = {finish.player: finish.place for finish in final}
    before = {standing.player: index for index, standing in enumerate(ordered)}

    def key(s: Standing) -> tuple[Any, ...]:
        if s.player in final_place:
            return (s.removed, 0, final_place[s.player], before[s.player])
        return (s.removed, 1, before[s.player])

    def shared(s: Standing) -> tuple[Any, ...]:
        if s.player in final_place:
            return (s.removed, 0, final_place[s.player])
        return (s.removed, 1, -s.points, _average_key(s))

    return _ranked(list(ordered), key, shared)


def winners(ordered: Sequence[Standing]) -> list[int]:
    """The players ranked first (more than one only on a full tie); never a removed player,
    so an event whose players were all removed has no winner."""
    return [s.player for s in ordered if s.rank == 1 and not s.removed]


def _average_key(standing: Standing) -> tuple[int, Fraction]:
    average = standing.average
    return (1, Fraction(0)) if average is None else (0, average)


def _ranked(
    rows: list[Standing],
    key: Callable[[Standing], Any],
    shared: Callable[[Standing], Any] | None = None,
) -> list[Standing]:
    """``rows`` sorted by ``key`` (then player id, for a stable display), ranks filled in:
    rows equal under ``shared`` (``key`` if not given) share a rank."""
    same = shared or key
    rows = sorted(rows, key=lambda s: (key(s), s.player))
    result: list[Standing] = []
    for index, row in enumerate(rows):
        rank = result[-1].rank if result and same(result[-1]) == same(row) else index + 1
        result.append(replace(row, rank=rank))
    return result


def points_text(points: Fraction) -> str:
    """Event points as players read them: whole numbers bare, shares to two decimals."""
    if points.denominator == 1:
        return str(points.numerator)
    return f"{float(points):.2f}".rstrip("0")


def places_from_totals(totals: Mapping[int, int]) -> list[Finish]:
    """Finishes from game scores alone (lowest wins, equal scores share a place), for tables
    whose stored results carry no place."""
    ordered = sorted(totals.values())
    return [Finish(player, ordered.index(score) + 1, score) for player, score in totals.items()]
