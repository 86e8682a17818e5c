"""Duplicate scoring: each player compared, deal by deal, with those who held the same cards.

Terms used here:

- *group*: the tables of one round that were dealt the same deals (same seeds, same first
  dealer): every table of the round with the same number of seats. A duplicate event fills
  every table to its size with computers, so a round is one group (``docs/events.md``).
- *board*: one deal of one seat of a group, the cards that seat was dealt; every table of the
  group plays it once.
- *matchpoints*: on a board, a player earns 1 for each other table whose score on it was
  higher (worse) than theirs, ½ for each equal score, 0 for each lower one, divided by the
  number of other tables that played it: a share between 0 and 1. A board nobody else played
  (a table ended early, a group of one table) earns the neutral ½, as an unplayed board does
  in bridge. A player's event points are the sum of their shares.

Why matchpoints and not the difference from the board's average: a Shanghai deal's scores are
heavy-tailed (0 for going out, 100 and more for a hand caught with jokers), so a difference
lets one disastrous board outweigh ten good ones, and the late deals (more cards, bigger
scores) outweigh the early ones. Matchpoints count each board once, whatever its size: a
player is rewarded for doing better than the others with the same cards, not by how much.
The average stays the story told to each player ("35 against an average of 62").

Computers in a seat hold the same cards as the people in that seat elsewhere, so they are
compared with like anyone else (a person beats or loses to the computer's result), but they
earn no event points themselves.

Pure: the tables' score sheets come in, comparisons and points come out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

#: What a board nobody else played is worth: the middle of the scale.
NEUTRAL = Fraction(1, 2)


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
    #: The matchpoint share earned (``NEUTRAL`` when nobody else played the board).
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
        return NEUTRAL
    beaten = sum(1 for other in others if other > score)
    tied = sum(1 for other in others if other == score)
    return Fraction(2 * beaten + tied, 2 * len(others))


def round_points(group: Sequence[TableDeals], deals: int) -> dict[int, Fraction]:
    """Each person's matchpoints for the round: their shares over the boards they played,
    plus the neutral share for each of the ``deals`` their table did not reach."""
    points: dict[int, Fraction] = defaultdict(Fraction)
    played: dict[int, int] = defaultdict(int)
    for comparison in compare(group, deals):
        points[comparison.player] += comparison.share
        played[comparison.player] += 1
    for table in group:
        for player in table.players:
            if player > 0:
                points[player] += NEUTRAL * (deals - played[player])
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
