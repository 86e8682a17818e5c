"""Duplicate scoring by hand: matchpoints per board against the same seat at the other
tables, the neutral half for a board nobody else played, computers compared but unscored;
the worked example of docs/events.md."""

from __future__ import annotations

from fractions import Fraction

from bot.events.duplicate import NEUTRAL, TableDeals, best, compare, groups, round_points


def example() -> list[TableDeals]:
    """docs/events.md's worked example: three tables of 3, two deals."""
    return [
        TableDeals(1, (11, 12, 13), ((0, 35, 80), (40, 0, 25))),
        TableDeals(2, (21, 22, 23), ((10, 62, 0), (40, 15, 0))),
        TableDeals(3, (31, 32, 0), ((25, 62, 45), (55, 0, 30))),
    ]


def test_the_worked_example_of_the_docs() -> None:
    points = round_points(example(), deals=2)
    # Seat 0, deal 1: 0 beats 10 and 25 (1); 10 beats 25 (½); 25 beats nobody (0).
    # Seat 0, deal 2: 40 ties 40 and beats 55 (¾ each for tables 1 and 2); 55: 0.
    assert points[11] == Fraction(1) + Fraction(3, 4)
    assert points[21] == Fraction(1, 2) + Fraction(3, 4)
    assert points[31] == Fraction(0) + Fraction(0)
    # Seat 1, deal 1: 35 beats both 62s (1); the 62s tie (¼ each).
    # Seat 1, deal 2: 0 ties 0 and beats 15 (¾ for tables 1 and 3); 15: 0.
    assert points[12] == Fraction(1) + Fraction(3, 4)
    assert points[22] == Fraction(1, 4) + Fraction(0)
    assert points[32] == Fraction(1, 4) + Fraction(3, 4)
    # Seat 2: the computer of table 3 is compared with but earns nothing.
    assert 0 not in points
    assert points[13] == Fraction(0) + Fraction(1, 2)  # 80 vs 0, 45; 25 vs 0, 30
    assert points[23] == Fraction(1) + Fraction(1)
    # Every board shares out half as many points as the tables that played it (1.5 for
    # three; six boards); the computer kept its half point (45 beat 80 on deal 1).
    assert sum(points.values()) + Fraction(1, 2) == 6 * 3 * Fraction(1, 2)


def test_the_story_line_is_the_average_of_the_other_tables() -> None:
    found = [c for c in compare(example(), 2) if c.player == 12 and c.deal == 1]
    (line,) = found
    assert (line.score, line.average) == (35, Fraction(62))
    top = best(compare(example(), 2))
    assert top is not None
    # The biggest margin under the others' average: table 2's seat 2, deal 1, 0 against
    # the 80 and 45 of the others (62.5).
    assert (top.player, top.deal, top.score, top.average) == (23, 1, 0, Fraction(125, 2))


def test_a_board_nobody_else_played_is_worth_the_neutral_half() -> None:
    # Table 2 was ended after one deal: its players get the neutral half for deal 2, and
    # table 1's players have nobody to compare deal 2 with either.
    tables = [
        TableDeals(1, (1, 2, 3), ((0, 20, 30), (5, 0, 50))),
        TableDeals(2, (4, 5, 6), ((10, 20, 0),)),
    ]
    points = round_points(tables, deals=2)
    assert points[1] == 1 + NEUTRAL
    assert points[2] == Fraction(1, 2) + NEUTRAL
    assert points[3] == 0 + NEUTRAL
    assert points[4] == 0 + NEUTRAL
    assert points[6] == 1 + NEUTRAL
    # A lone table is compared with nobody: every board is neutral.
    assert round_points([tables[0]], deals=2) == {1: 1, 2: 1, 3: 1}


def test_tables_split_into_groups_by_their_seats() -> None:
    four = TableDeals(1, (1, 2, 3, 4), ())
    three = TableDeals(2, (5, 6, 7), ())
    other_four = TableDeals(3, (8, 9, 10, 11), ())
    assert groups([four, three, other_four]) == [[four, other_four], [three]]
