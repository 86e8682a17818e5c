"""S49a: under ``max_restocks: unlimited`` a deal whose cards only cycle is exhausted.

The second rebuild of the stock in a row with no go-down, lay-off, swap or out since the
first ends the deal (``DealEnded(reason="exhausted")``, ``on_exhaustion`` as in S49). Before
the rule such a deal never ended: these tests fail on an engine without it (the loops below
would run into their step limits).
"""

from __future__ import annotations

import random

from engine import Card, Game, Rules
from engine.actions import Discard, DrawStock, LayOff, LayOffItem
from engine.cards import make_pack
from engine.events import DealEnded, Event, Restocked
from engine.players.random_play import random_step
from tests.engine.positions import position

SUITS = "CDHS"
FULL_RUN = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def _cycling_table(players: int = 8) -> Game:
    """Every seat down, eight full runs (2-A) on the table: no card off it fits anywhere."""
    rules = Rules.preset("preset_000")
    melds = [
        (seat % players, "run: " + " ".join(rank + suit for rank in FULL_RUN))
        for seat, suit in enumerate(SUITS * 2)
    ]
    loose = make_pack(1, 2)  # the third pack and the two jokers: 54 cards off the table
    random.Random(5).shuffle(loose)
    hands = {
        seat: " ".join(str(c) for c in loose[3 * seat : 3 * seat + 3]) for seat in range(players)
    }
    rest = loose[3 * players :]
    return position(
        players,
        rules,
        hands=hands,
        pile=str(rest[0]),
        stock=" ".join(str(c) for c in rest[1:]),
        current=1,
        discarder=0,
        down=tuple(range(players)),
        melds=melds,
    )


def _draw_and_discard(game: Game, limit: int) -> list[Event]:
    """Each player draws from the stock and throws the drawn card, until the deal ends."""
    deal, events = game.deal, []
    for _ in range(limit):
        player = game.current_player
        events += game.apply(player, DrawStock())
        if game.deal != deal or game.is_over:
            return events
        events += game.apply(player, Discard(game.hands[game.current][-1]))
    raise AssertionError(f"the deal did not end within {limit} turns")


def test_s49a_a_deal_that_only_cycles_is_exhausted() -> None:
    game = _cycling_table()
    events = _draw_and_discard(game, 2_000)
    assert sum(isinstance(e, Restocked) for e in events) == 2
    ended = [e for e in events if isinstance(e, DealEnded)]
    assert len(ended) == 1 and ended[0].reason == "exhausted" and ended[0].out_player is None
    assert all(score > 0 for score in ended[0].scores)  # S49 score_all: every hand scores
    assert game.deal == 2 and game.restocks == 0 and game.idle_restocks == 0


def test_s49a_random_play_of_the_cycling_position_ends() -> None:
    game = _cycling_table()
    rng = random.Random(3)
    for _ in range(20_000):
        events = game.apply(*random_step(game, rng))
        if any(isinstance(e, DealEnded) for e in events):
            assert [e.reason for e in events if isinstance(e, DealEnded)] == ["exhausted"]
            return
    raise AssertionError("an 8-player preset_000 deal that only cycles did not end")


def test_s49a_progress_between_rebuilds_keeps_the_deal_going() -> None:
    rules = Rules.preset("preset_000")
    game = position(
        rules=rules,
        hands={1: "9H 3C 4D", 2: "5S 6S 7D"},
        pile="8C 7H",
        stock="",
        current=1,
        discarder=0,
        down=(1, 2),
        melds=[(2, "run: 5H 6H 7H 8H")],
    )
    game.idle_restocks = 1  # one rebuild already without progress
    game.apply("p1", DrawStock())  # the second in a row: exhausted
    assert game.deal == 2
    game = position(
        rules=rules,
        hands={1: "9H 3C 4D", 2: "5S 6S 7D"},
        pile="8C 7H",
        stock="2S",
        current=1,
        discarder=0,
        down=(1, 2),
        melds=[(2, "run: 5H 6H 7H 8H")],
    )
    game.idle_restocks = 1
    game.apply("p1", DrawStock())
    game.apply("p1", LayOff((LayOffItem(Card.parse("9H"), 0, "high"),)))
    assert game.idle_restocks == 0
    game.apply("p1", Discard(Card.parse("3C")))
    game.apply("p2", DrawStock())  # rebuilds the stock: the first since the lay-off
    assert game.deal == 1 and game.restocks == 1 and game.idle_restocks == 1
    restored = Game.from_json(game.to_json())
    assert restored.idle_restocks == 1  # saved with the game


def test_s49a_applies_only_under_unlimited_restocks() -> None:
    rules = Rules.preset("standard").with_options(max_restocks=5)
    game = position(rules=rules, pile="8C 7H", stock="", current=1, discarder=0)
    game.idle_restocks = 4
    events = game.apply("p1", DrawStock())
    assert any(isinstance(e, Restocked) for e in events) and game.deal == 1
