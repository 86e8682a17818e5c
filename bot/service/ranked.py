"""Whether a game counts for the board (ranked) or not (casual), and the people's places.

The rule, shown in the lobby and applied when the game finishes:

- at least two people (computers never count, and never appear on the board);
- the game's full length: ten deals of Shanghai (the length of every preset), Rummy to at
  least its preset's target (150 points). A shortened game is casual: one-deal totals would
  otherwise beat every ten-deal average, and twelve quick games would outweigh a real one;
- only a game that finished: an ended or abandoned one has no results at all;
- at least one person played it: a game the bot played for every person is casual;
- not opened as casual: a casual event's tables carry the table option ``casual`` (the
  organiser chose an event that does not count), which no lobby control sets.

A game with computers is ranked when those conditions hold, and ranks only the people's
order among themselves: two friends playing with two computers are still a contest between
the two of them, and making such games casual would leave small servers without a board,
while farming is already stopped by the two-people rule. A person who left, was removed by
the host, or whose seat the bot played for most of their actions ranks last among the people
(after those who stayed, whatever the totals); among several such, the better total first.

Casual games keep their results: they appear in the player's history and stats, marked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.i18n import Language, t
from bot.service.live import REMOVED, LiveTable, rules_for
from bot.service.table_snapshot import TableSnapshot
from data.records import AwayState, lower_is_better
from engine import Rules

#: Why a game is casual (the lobby's wording in ``bot.i18n``: ``ranked.casual.<reason>``).
CasualReason = Literal["few_people", "shortened", "casual"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """Ranked, or casual and why; ``computers`` says whether computers sit at the table."""

    ranked: bool
    reason: CasualReason | None = None
    computers: bool = False


def full_length(rules: Rules) -> bool:
    """Whether the rules play a whole game: every preset's ten deals, or Rummy's target."""
    if rules.game == "rummy":
        return rules.target_points >= Rules.preset("rummy").target_points
    return rules.num_deals >= Rules().num_deals


def verdict(people: int, computers: int, rules: Rules) -> Verdict:
    """The rule for a table with ``people`` people and ``computers`` computers."""
    if people < 2:
        return Verdict(False, "few_people", computers > 0)
    if not full_length(rules):
        return Verdict(False, "shortened", computers > 0)
    return Verdict(True, None, computers > 0)


def table_verdict(table: LiveTable | TableSnapshot, rules: Rules) -> Verdict:
    """The rule for the table's seats now (the lobby's line, and the finished game's)."""
    seats = table.record.seats
    computers = sum(1 for seat in seats if seat.is_computer)
    if table.record.options.get("casual"):
        return Verdict(False, "casual", computers > 0)
    return verdict(len(seats) - computers, computers, rules)


def finished_verdict(table: LiveTable, rules: Rules) -> Verdict:
    """The rule for a game that just finished: the lobby's, and a person must have played.

    A game the bot played for every person (all of them left, or let their turns time out) is
    casual: nobody's skill is in it. One person who stayed is enough; the others rank last, so
    leaving a game that goes badly never saves a rating.
    """
    found = table_verdict(table, rules)
    if not found.ranked:
        return found
    seats, away = table.record.seats, table.away
    played = [
        i
        for i, seat in enumerate(seats)
        if not seat.is_computer
        and not (i < len(away) and mostly_played_by_bot(away[i], i in table.removed))
    ]
    if not played:
        return Verdict(False, "few_people", found.computers)
    return found


def mostly_played_by_bot(state: AwayState, removed: bool = False) -> bool:
    """A person who left or was removed (``removed``, or as the store keeps it, a seat's
    ``REMOVED`` timeouts), or whose actions the bot made for the most part."""
    return removed or state.timeouts >= REMOVED or state.auto > state.own


def people_places(table: LiveTable) -> dict[int, int]:
    """Each person's seat -> place among the people (1 = best; ties share a place).

    Those the bot played for (``mostly_played_by_bot``) come after all who stayed.
    """
    game = table.game
    assert game is not None
    lower = lower_is_better(table.record.game_kind)
    away = table.away

    def key(seat: int) -> tuple[bool, int]:
        gone = seat < len(away) and mostly_played_by_bot(away[seat], seat in table.removed)
        total = game.totals[seat]
        return gone, total if lower else -total

    people = [i for i, seat in enumerate(table.record.seats) if not seat.is_computer]
    return {seat: 1 + sum(1 for o in people if key(o) < key(seat)) for seat in people}


def finishes_now(table: LiveTable) -> list[tuple[int, int, int]]:
    """``(user, place, total)`` for each person at ``table`` as the game stands now.

    What an event scores for a table its organiser ends: each person's place by the game's
    totals at that moment (``people_places``), so a stuck table is ended without taking its
    players' progress away; the game itself ends without results, so nothing of it reaches
    the leaderboard. Before the first deal (no game yet) everyone shares first place with no
    score.
    """
    seats = table.record.seats
    game = table.game
    if game is None:
        return [(seat.user_id, 1, 0) for seat in seats if not seat.is_computer]
    places = people_places(table)
    return [(seats[seat].user_id, place, game.totals[seat]) for seat, place in places.items()]


def tally(table: LiveTable, user_id: int, auto_seat: int | None) -> None:
    """Count one saved action for its seat: made by the bot (``auto_seat``) or its person.

    Kept in the seat's ``AwayState`` (saved with every action), so a restart forgets nothing.
    """
    if auto_seat is not None:
        seat: int | None = auto_seat
    else:
        seat = table.seat_of(user_id)
        if seat is not None and table.is_computer(seat):
            return
    if seat is None or seat >= len(table.away):
        return
    by_bot = auto_seat is not None
    at = None if by_bot or table.last_person <= 0 else table.last_person
    table.away[seat] = table.away[seat].counted(by_bot=by_bot, at=at)


def lobby_line(table: LiveTable | TableSnapshot, language: Language) -> str:
    """The lobby's line: whether this game will count for the board, and if not, why."""
    rules = rules_for(dict(table.record.options))
    found = table_verdict(table, rules)
    if found.ranked:
        key = "ranked.lobby.ranked_computers" if found.computers else "ranked.lobby.ranked"
        return t(key, language)
    if found.reason == "few_people":
        return t("ranked.lobby.few_people", language)
    if found.reason == "casual":
        return t("ranked.lobby.casual", language)
    if rules.game == "rummy":
        return t("ranked.lobby.shortened_rummy", language, count=rules.target_points)
    return t("ranked.lobby.shortened", language, count=rules.num_deals)
