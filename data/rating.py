"""The skill rating of ranked games, apart from any database.

openskill's Plackett-Luce model (made for free-for-all games of any number of players): each
player has a ``mu`` (the estimate) and a ``sigma`` (its uncertainty), and the board sorts by the
conservative ``ordinal`` (``mu - 3 sigma``), so a lucky newcomer does not top a player with a
long record. Ties are equal places, which the model treats as draws. ``data.ranking`` reads and
writes the ratings; this module only computes them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

from .records import GameKind, ResultRow, lower_is_better

#: The model, with openskill's defaults (mu 25, sigma 25/3, beta 25/6).
MODEL: Final = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating row in one guild, game and season."""

    user_id: int
    name: str
    mu: float
    sigma: float
    games: int
    wins: int
    sum_total: int
    best_total: int
    #: The table of the best total (the first to reach it), for the server's records.
    best_table: int = 0
    deals_out: int = 0
    blind_outs: int = 0
    #: Ranked wins in a row now, and the longest run of the season.
    streak: int = 0
    best_streak: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative estimate the board shows: ``mu - 3 sigma``, as openskill's own."""
        return float(MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal())


def rate_game(
    game_kind: GameKind,
    before: Sequence[Rating | None],
    rows: Sequence[ResultRow],
    table_id: int = 0,
) -> list[Rating]:
    """The people's ratings after one ranked game (table ``table_id``); ``before[i]`` is
    ``rows[i]``'s (or None). The counts beside the rating move with it.

    ``rows`` are the people's results with their ``place`` (ties share one); the model sees
    the places as ranks, so a tie is a draw between those players.
    """
    teams = [
        [MODEL.rating() if old is None else MODEL.rating(mu=old.mu, sigma=old.sigma)]
        for old in before
    ]
    rated = MODEL.rate(teams, ranks=[float(row.place) for row in rows])
    lower = lower_is_better(game_kind)
    after = []
    for old, row, [new] in zip(before, rows, rated, strict=True):
        improved = old is None or (
            row.total < old.best_total if lower else row.total > old.best_total
        )
        streak = (old.streak if old else 0) + 1 if row.is_winner else 0
        after.append(
            Rating(
                user_id=row.user_id,
                name=row.name,
                mu=float(new.mu),
                sigma=float(new.sigma),
                games=(old.games if old else 0) + 1,
                wins=(old.wins if old else 0) + int(row.is_winner),
                sum_total=(old.sum_total if old else 0) + row.total,
                best_total=row.total if improved or old is None else old.best_total,
                best_table=table_id if improved or old is None else old.best_table,
                deals_out=(old.deals_out if old else 0) + row.deals_out,
                blind_outs=(old.blind_outs if old else 0) + row.blind_outs,
                streak=streak,
                best_streak=max(old.best_streak if old else 0, streak),
            )
        )
    return after


def people_of(rows: Iterable[ResultRow]) -> list[ResultRow]:
    """The rows that are people (computers have negative ids and are never rated)."""
    return [row for row in rows if row.user_id > 0]


def longest_streak(wins: Iterable[bool]) -> int:
    """The longest run of consecutive ``True`` in games taken in order."""
    best = run = 0
    for won in wins:
        run = run + 1 if won else 0
        best = max(best, run)
    return best
