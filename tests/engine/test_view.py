"""Per-player views (OpenSpiel's information state): nothing private leaks."""

from __future__ import annotations

import random

from engine import Card, DrawStock, Game, RequestBuy, Rules, TakeUpcard
from engine.events import DrewFromStock
from engine.players.random_play import random_step

from .positions import position


def test_view_shows_own_hand_and_only_sizes_of_others() -> None:
    game = Game.new(["a", "b", "c"], Rules(), seed=5)
    for seat, player in enumerate(game.players):
        view = game.view(player)
        assert view.seat == seat and view.hand == tuple(game.hands[seat])
        assert [s.hand_size for s in view.seats] == [11, 11, 11]


def test_a_view_does_not_change_when_hidden_cards_do() -> None:
    """Swapping a card between b's hand and the stock is invisible to a and to spectators."""
    game = Game.new(["a", "b", "c"], Rules(), seed=5)
    before_a, before_spectator, before_b = game.view("a"), game.view(None), game.view("b")
    game.hands[1][0], game.stock[0] = game.stock[0], game.hands[1][0]
    assert game.hands[1][0] != before_b.hand[0]  # type: ignore[index]
    assert game.view("a") == before_a and game.view(None) == before_spectator
    assert game.view("b") != before_b


def test_spectator_sees_no_hand() -> None:
    game = Game.new(["a", "b", "c"], Rules(), seed=5)
    view = game.view(None)
    assert view.hand is None and view.seat is None and not view.my_buy_requested


def test_stock_draw_is_private_and_buy_requests_are_acknowledged_only_to_the_asker() -> None:
    game = position(pile="7H", current=1, discarder=0)
    game.apply("p2", RequestBuy())
    assert game.view("p2").my_buy_requested
    assert not game.view("p3").my_buy_requested and not game.view(None).my_buy_requested
    events = game.apply("p1", DrawStock())
    drew = [e for e in events if isinstance(e, DrewFromStock)]
    assert drew and not hasattr(drew[0], "card")


def test_taken_upcard_only_shown_to_the_taker_in_rummy() -> None:
    game = position(3, Rules.preset("rummy"), current=1, discarder=0, pile="4D 9S")
    game.apply("p1", TakeUpcard())
    assert game.view("p1").taken_upcard == Card.parse("9S")
    assert game.view("p2").taken_upcard is None


def test_views_follow_a_random_game() -> None:
    game = Game.new(list("abcd"), Rules(), seed=8)
    rng = random.Random(8)
    for _ in range(400):
        if game.is_over:
            break
        game.apply(*random_step(game, rng))
        spectator = game.view(None)
        assert spectator.current == game.current and spectator.stock_size == len(game.stock)
        assert [s.is_down for s in spectator.seats] == game.down
        assert spectator.upcard_live == game.buy_window_open
