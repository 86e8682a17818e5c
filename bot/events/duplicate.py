"""Duplicate scoring: each player compared, deal by deal, with those who held the same cards.

Terms used here:

- *group*: the tables of one round that were dealt the same deals (same seeds, same first
  dealer): every table of the round with the same number of seats. A duplicate event fills
  every table to its size with computers, so a round is one group (``docs/events.md``).
- *board*: one deal of one seat of a group, the cards that seat was dealt; every table of the
  group plays it once.
- *gain*: on a board, the other tables' average score minus the player's own (positive is
  better: lower scores win). A player's event points are the sum of their gains. A board
  nobody else played (a table ended early, a group of one table) gains 0, the middle.
- *matchpoints* (kept for comparison, ``matchpoints``): on a board, 1 for each other table
  whose score was higher, ½ for each equal one, divided by the number of other tables.

Why the difference and not matchpoints: a round has few tables (four at sixteen players), so
a board is compared with three results, and matchpoints keep only which side of each the
score fell on. Playing better in Shanghai shows mostly in how much less a player is caught
with, and the difference keeps that; in simulated events of players of known strength it ordered
them measurably better than matchpoints on the same games (``tools/duplicate_strength.py``,
figures in ``docs/events.md``). The price is that a big deal counts for more than a small
one, as in ordinary scoring.

Computers in a seat hold the same cards as the people in that seat elsewhere, so they are
compared with like anyone else (their score is part of the others' average), but they earn
no event points themselves.

Pure: the tables' score sheets come in, comparisons and points come out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

#: What a board nobody else played gains: the middle of the scale.
NEUTRAL = Fraction(0)
#: The matchpoint share of a board nobody else played (``matchpoints``).
NEUTRAL_SHARE = Fraction(1, 2)


@dataclass(frozen=True, slots=True)
class TableDeals:
    """One table of a group as its game stands: the person in each seat (``0`` for a
    computer, which earns nothing) and the score sheet so far, deal by deal, one score per
    seat."""

    table: int
    players: tuple[int, ...]
    sheet: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Comparison:
    """One person's result on one board against the other tables that played it."""

    player: int
    table: int
    seat: int
    #: The deal, from 1.
    deal: int
    score: int
    #: The mean score of the other tables on this board; ``None`` if none played it.
    average: Fraction | None
    #: The matchpoint share earned (``NEUTRAL_SHARE`` when nobody else played the board).
    share: Fraction

    @property
    def gain(self) -> Fraction:
        """How far below the others' average (better) this score was; 0 without others."""
        return Fraction(0) if self.average is None else self.average - self.score


def compare(group: Sequence[TableDeals], deals: int) -> list[Comparison]:
    """Every person's comparison on every board of ``group`` they played (``deals`` deals a
    game). A board a person's table did not reach (the organiser ended it) is not listed:
    ``round_points`` gives it the neutral share."""
    comparisons: list[Comparison] = []
    for table in group:
        for seat, player in enumerate(table.players):
            if player <= 0:
                continue
            for deal in range(min(deals, len(table.sheet))):
                score = table.sheet[deal][seat]
                others = [
                    other.sheet[deal][seat]
                    for other in group
                    if other.table != table.table
                    and deal < len(other.sheet)
                    and seat < len(other.sheet[deal])
                ]
                comparisons.append(
                    Comparison(
                        player=player,
                        table=table.table,
                        seat=seat,
                        deal=deal + 1,
                        score=score,
                        average=Fraction(sum(others), len(others)) if others else None,
                        share=_share(score, others),
                    )
                )
    return comparisons


def _share(score: int, others: Sequence[int]) -> Fraction:
    if not others:
        return NEUTRAL_SHARE
    beaten = sum(1 for other in others if other > score)
    tied = sum(1 for other in others if other == score)
    return Fraction(2 * beaten + tied, 2 * len(others))


def round_points(group: Sequence[TableDeals], deals: int) -> dict[int, Fraction]:
    """Each person's event points for the round: the sum of their gains (the other tables'
    average minus their score) over the boards they played; a board nobody else played, or
    one their table did not reach, gains ``NEUTRAL``."""
    points: dict[int, Fraction] = defaultdict(Fraction)
    for table in group:
        for player in table.players:
            if player > 0:
                points[player] += NEUTRAL * deals
    for comparison in compare(group, deals):
        points[comparison.player] += comparison.gain
    return dict(points)


def matchpoints(group: Sequence[TableDeals], deals: int) -> dict[int, Fraction]:
    """Each person's matchpoints for the round: their shares over the boards they played,
    plus the neutral share for each of the ``deals`` their table did not reach. Not the
    event's scoring (``round_points``): kept to measure the two against each other."""
    points: dict[int, Fraction] = defaultdict(Fraction)
    played: dict[int, int] = defaultdict(int)
    for comparison in compare(group, deals):
        points[comparison.player] += comparison.share
        played[comparison.player] += 1
    for table in group:
        for player in table.players:
            if player > 0:
                points[player] += NEUTRAL_SHARE * (deals - played[player])
    return dict(points)


def groups(tables: Iterable[TableDeals]) -> list[list[TableDeals]]:
    """The tables of one round split by their seat count (the tables dealt alike)."""
    by_size: dict[int, list[TableDeals]] = defaultdict(list)
    for table in tables:
        by_size[len(table.players)].append(table)
    return [by_size[size] for size in sorted(by_size, reverse=True)]


def best(comparisons: Iterable[Comparison]) -> Comparison | None:
    """The comparison most below its board's average (the round's best play), if any had
    others to compare with; the earliest deal on a tie."""
    scored = [c for c in comparisons if c.average is not None]
    if not scored:
        return None
    return max(scored, key=lambda c: (c.gain, -c.deal, -c.table, -c.seat))


def by_player(comparisons: Iterable[Comparison]) -> Mapping[int, list[Comparison]]:
    """The comparisons of each person, deal by deal."""
    found: dict[int, list[Comparison]] = defaultdict(list)
    for comparison in comparisons:
        found[comparison.player].append(comparison)
    return found
