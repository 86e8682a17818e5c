"""The ranked-or-casual rule and the people's places (``bot.service.ranked``), by hand."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.service import REMOVED, LiveTable
from bot.service.ranked import (
    finished_verdict,
    full_length,
    lobby_line,
    mostly_played_by_bot,
    people_places,
    table_verdict,
    tally,
    verdict,
)
from data.records import AwayState, GameKind, Seat, TableRecord
from engine import Rules

ANN, BOB, CAT = Seat(1, "Ann"), Seat(2, "Bob"), Seat(3, "Cat")
ROBO = Seat(-1, "Robo", is_computer=True, level="easy")


def table(
    seats: list[Seat],
    totals: list[int] | None = None,
    away: list[AwayState] | None = None,
    options: dict[str, Any] | None = None,
    game_kind: GameKind = "shanghai",
) -> LiveTable:
    record = TableRecord(
        id=1, guild_id=1, channel_id=1, game_kind=game_kind, status="playing", host_id=1,
        message_id=None, seats=tuple(seats), options=options or {}, state=None, version=0,
        buy_deadline=None, turn_deadline=None, away=(), created_at=0.0, updated_at=0.0,
    )  # fmt: skip
    game: Any = SimpleNamespace(totals=totals or [0] * len(seats))
    return LiveTable(record, game, 0, away=away or [AwayState() for _ in seats])


def test_the_rule() -> None:
    full, short = Rules(), Rules().with_options(num_deals=9)
    assert verdict(1, 1, full).reason == "few_people"
    assert verdict(1, 0, full).reason == "few_people"
    assert verdict(2, 0, short).reason == "shortened"
    assert verdict(2, 2, full).ranked and verdict(2, 2, full).reason is None
    assert verdict(2, 2, full).computers and not verdict(3, 0, full).computers
    assert full_length(Rules.preset("preset_000")) and full_length(Rules.preset("preset_004"))
    rummy = Rules.preset("rummy")
    assert full_length(rummy) and not full_length(rummy.with_options(target_points=149))


def test_the_lobby_says_why() -> None:
    assert "fewer than two people" in lobby_line(table([ANN, ROBO]), "en")
    shortened = lobby_line(table([ANN, BOB], options={"rules": {"num_deals": 3}}), "en")
    assert "shortened to 3 deals" in shortened
    assert lobby_line(table([ANN, BOB]), "en").startswith("🏆 **Ranked**: ")
    assert "computers are never ranked" in lobby_line(table([ANN, BOB, ROBO]), "en")
    dutch = lobby_line(table([ANN, ROBO]), "nl")
    assert dutch.startswith("**Vrijblijvend**")


def test_places_among_the_people_ties_shared_leavers_last() -> None:
    # Seats: Ann 120, Robo 10, Bob 120, Cat 40 but removed -> Ann 1, Bob 1, Cat 3; no Robo.
    gone = AwayState(REMOVED, True)
    t = table([ANN, ROBO, BOB, CAT], [120, 10, 120, 40], [AwayState()] * 3 + [gone])
    assert people_places(t) == {0: 1, 2: 1, 3: 3}
    # Rummy: the higher total is better.
    t = table([ANN, BOB], [150, 90], game_kind="rummy")
    assert people_places(t) == {0: 1, 1: 2}


def test_a_seat_the_bot_played_for_the_most_part_ranks_last() -> None:
    mostly_bot = AwayState(own=10, auto=11)
    assert mostly_played_by_bot(mostly_bot) and not mostly_played_by_bot(AwayState(own=11, auto=11))
    t = table([ANN, BOB, CAT], [300, 100, 200], [AwayState(own=40), mostly_bot, AwayState()])
    # Bob's 100 is the best total, but the bot made most of his moves: Cat 1, Ann 2, Bob 3.
    assert people_places(t) == {0: 2, 1: 3, 2: 1}


def test_tally_counts_the_person_and_the_bot_apart() -> None:
    t = table([ANN, ROBO, BOB])
    tally(t, ANN.user_id, None)
    tally(t, ANN.user_id, None)
    tally(t, BOB.user_id, 2)  # the bot played Bob's turn
    tally(t, ROBO.user_id, None)  # a computer's own move counts for nobody
    assert [(a.own, a.auto) for a in t.away] == [(2, 0), (0, 0), (0, 1)]
    assert AwayState.from_json(t.away[0].to_json()) == t.away[0]  # saved with the away flags


@pytest.mark.parametrize(
    ("away", "ranked"),
    [
        ([AwayState(own=5), AwayState(own=5)], True),
        ([AwayState(own=5), AwayState(REMOVED, True, auto=50)], True),  # leaving keeps it ranked
        ([AwayState(auto=9), AwayState(REMOVED, True, auto=50)], False),  # nobody played it
    ],
)
def test_a_finished_game_needs_one_person_who_played(away: list[AwayState], ranked: bool) -> None:
    t = table([ANN, BOB], [10, 20], away)
    assert finished_verdict(t, Rules()).ranked is ranked
    assert table_verdict(t, Rules()).ranked  # the lobby's rule alone would rank it
