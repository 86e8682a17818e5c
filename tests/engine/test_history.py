"""The public history in every view: the deal's first upcard, then what each seat took from
the pile, bought and discarded, in order, the same for every seat and kept across a save."""

from __future__ import annotations

import json
import random

from engine import (
    Discard,
    DrawStock,
    Game,
    PublicMove,
    RequestBuy,
    Rules,
    TakeUpcard,
    parse_cards,
)
from engine.events import BuyAwarded, DealStarted, Discarded, TookUpcard
from engine.players.random_play import random_step

from .positions import position


def test_take_buy_and_discard_are_recorded_in_order_for_everyone() -> None:
    game = position(
        hands={1: "3H 4H 5H 9C KD", 2: "7S 7D 2C 8C 9D", 3: "JH JS QC 4D 6S"},
        stock="2D 3D 4C 5S 6H 8H",
        pile="7H",
        current=1,
        discarder=0,
    )
    game.history = []
    game.apply("p1", TakeUpcard())
    game.apply("p1", Discard(parse_cards("KD")[0]))
    game.apply("p3", RequestBuy())  # p3 buys the king; p2 then draws from the stock
    game.apply("p2", DrawStock())
    game.apply("p2", Discard(parse_cards("2C")[0]))
    expected = (
        PublicMove(1, "took", parse_cards("7H")[0]),
        PublicMove(1, "discarded", parse_cards("KD")[0]),
        PublicMove(3, "bought", parse_cards("KD")[0]),
        PublicMove(2, "discarded", parse_cards("2C")[0]),
    )
    assert [game.view(p).history for p in (*game.players, None)] == [expected] * 5


def test_the_history_is_the_deals_pile_events_and_starts_afresh_each_deal() -> None:
    """Over a random game, each view's history equals the take, buy and discard events of
    the current deal, and survives to_json / from_json."""
    game = Game.new(["a", "b", "c", "d"], Rules.preset("standard").with_options(num_deals=3), 11)
    rng = random.Random(11)
    expected = list(game.view("a").history)
    assert [m.kind for m in expected] == ["turned"]
    deals_seen = 1
    steps = 0
    while not game.is_over:
        player, action = random_step(game, rng)
        for event in game.apply(player, action):
            if isinstance(event, DealStarted):
                expected = [PublicMove(event.dealer, "turned", event.upcard)]
                deals_seen += 1
            elif isinstance(event, TookUpcard):
                expected.append(PublicMove(event.player, "took", event.card))
            elif isinstance(event, BuyAwarded):
                expected.append(PublicMove(event.player, "bought", event.card))
            elif isinstance(event, Discarded):
                expected.append(PublicMove(event.player, "discarded", event.card))
        if game.is_over:
            break
        assert game.view("a").history == tuple(expected)
        steps += 1
        if steps % 25 == 0:
            restored = Game.from_json(game.to_json())
            assert restored.view("c") == game.view("c")
    assert deals_seen >= 3 and steps > 100


def test_a_state_saved_before_the_history_existed_restores_with_an_empty_one() -> None:
    game = Game.new(["a", "b", "c"], Rules(), seed=3)
    player = game.current_player
    game.apply(player, DrawStock())
    game.apply(player, Discard(game.hands[game.current][0]))
    data = json.loads(game.to_json())
    del data["history"]
    restored = Game.from_json(json.dumps(data))
    assert restored.view("a").history == ()
    assert game.view("a").history[-1].kind == "discarded"
