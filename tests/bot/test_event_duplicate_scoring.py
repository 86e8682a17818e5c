"""Duplicate scoring by hand: each board's difference from the same seat's average at the
other tables (and matchpoints, kept for comparison), the neutral middle for a board nobody
else played, computers compared but unscored; the worked example of docs/events.md."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from bot.events.duplicate import (
    NEUTRAL,
    NEUTRAL_SHARE,
    TableDeals,
    best,
    compare,
    groups,
    matchpoints,
    round_points,
)
from bot.events.duplicate_round import dealt_of
from bot.service.live import DealtAlike
from data.events import EventRecord, EventTable


def example() -> list[TableDeals]:
    """docs/events.md's worked example: three tables of 3, two deals."""
    return [
        TableDeals(1, (11, 12, 13), ((0, 35, 80), (40, 0, 25))),
        TableDeals(2, (21, 22, 23), ((10, 62, 0), (40, 15, 0))),
        TableDeals(3, (31, 32, 0), ((25, 62, 45), (55, 0, 30))),
    ]


def test_the_worked_example_of_the_docs() -> None:
    points = round_points(example(), deals=2)
    # Seat 0, deal 1: 0 against 10 and 25 (+17.5); 10 against 0 and 25 (+2.5); 25 against
    # 0 and 10 (-20). Deal 2: 40 against 40 and 55 (+7.5, twice); 55 against 40s (-15).
    assert points[11] == Fraction(35, 2) + Fraction(15, 2) == 25
    assert points[21] == Fraction(5, 2) + Fraction(15, 2) == 10
    assert points[31] == -20 - 15
    # Seat 1, deal 1: 35 against two 62s (+27); each 62 against 35 and 62 (-13.5).
    # Seat 1, deal 2: 0 against 15 and 0 (+7.5, twice); 15 against two 0s (-15).
    assert points[12] == 27 + Fraction(15, 2)
    assert points[22] == Fraction(-27, 2) - 15
    assert points[32] == Fraction(-27, 2) + Fraction(15, 2) == -6
    # Seat 2: the computer of table 3 counts in the others' averages but earns nothing.
    assert 0 not in points
    assert points[13] == Fraction(-115, 2) - 10  # 80 vs 0, 45; 25 vs 0, 30
    assert points[23] == Fraction(125, 2) + Fraction(55, 2) == 90
    # The docs' standings, best first.
    assert sorted(points, key=lambda p: -points[p]) == [23, 12, 11, 21, 32, 22, 31, 13]
    # By matchpoints Ann (11) and Bob (12) tie; the difference separates them.
    shares = matchpoints(example(), deals=2)
    assert shares[11] == shares[12] == Fraction(7, 4) and points[12] > points[11]
    assert shares[23] == 2 and shares[31] == 0


def test_the_story_line_is_the_average_of_the_other_tables() -> None:
    found = [c for c in compare(example(), 2) if c.player == 12 and c.deal == 1]
    (line,) = found
    assert (line.score, line.average) == (35, Fraction(62))
    top = best(compare(example(), 2))
    assert top is not None
    # The biggest margin under the others' average: table 2's seat 2, deal 1, 0 against
    # the 80 and 45 of the others (62.5).
    assert (top.player, top.deal, top.score, top.average) == (23, 1, 0, Fraction(125, 2))


def test_a_board_nobody_else_played_earns_the_neutral_middle() -> None:
    # Table 2 was ended after one deal: its players earn the neutral 0 for deal 2, and
    # table 1's players have nobody to compare deal 2 with either.
    tables = [
        TableDeals(1, (1, 2, 3), ((0, 20, 30), (5, 0, 50))),
        TableDeals(2, (4, 5, 6), ((10, 20, 0),)),
    ]
    assert NEUTRAL == 0
    points = round_points(tables, deals=2)
    assert points == {1: 10, 2: 0, 3: -30, 4: -10, 5: 0, 6: 30}
    shares = matchpoints(tables, deals=2)
    assert shares[1] == 1 + NEUTRAL_SHARE and shares[4] == 0 + NEUTRAL_SHARE
    # A lone table is compared with nobody: every board is neutral.
    assert round_points([tables[0]], deals=2) == {1: 0, 2: 0, 3: 0}
    assert matchpoints([tables[0]], deals=2) == {1: 1, 2: 1, 3: 1}


def test_tables_split_into_groups_by_their_seats() -> None:
    four = TableDeals(1, (1, 2, 3, 4), ())
    three = TableDeals(2, (5, 6, 7), ())
    other_four = TableDeals(3, (8, 9, 10, 11), ())
    assert groups([four, three, other_four]) == [[four, other_four], [three]]


def test_a_round_dealt_before_stock_lanes_keeps_drawing_from_one_stock() -> None:
    """A round's tables are dealt from what the round wrote when it was seated: one dealt with
    lanes draws per seat; one written before lanes existed (a secret and a seed only) keeps
    the shared stock, so a table of it opened after an upgrade still draws as its round."""
    secret = "ab" * 32
    table = EventTable(round=2, position=0, players=(1, 2, 3), table_id=7, table_status=None)
    table = replace(table, computers=1)

    def event(entry: list[object]) -> EventRecord:
        return EventRecord(1, 1, 1, None, 1, "Night", {"dealt": {"2": {"4": entry}}}, "running", 2)

    assert dealt_of(event([secret, 5, "per_seat"]), table) == DealtAlike(
        bytes.fromhex(secret), 5, "per_seat"
    )
    assert dealt_of(event([secret, 5]), table) == DealtAlike(bytes.fromhex(secret), 5, "shared")
    assert dealt_of(event([secret, 5]), replace(table, computers=0)) is None  # 3 seats: none
