"""``stock_draws: per_seat``, the stock of duplicate events: each seat draws from its own lane,
so what a seat draws does not depend on what the others took, and the same seat at two tables
dealt the same deal draws the same cards."""

from __future__ import annotations

import hashlib
import json

import pytest

from engine import Card, Discard, DrawStock, Game, Rules, TakeUpcard

SECRET = hashlib.sha256(b"one round of a duplicate event").digest()
PLAYERS = ["a", "b", "c", "d"]


def new_game(stock_draws: str, preset: str = "standard") -> Game:
    rules = Rules.preset(preset).with_options(stock_draws=stock_draws)
    return Game.new(PLAYERS, rules, 7, secret=SECRET)


def draw_and_throw(game: Game) -> Card:
    """The player in turn draws from the stock and throws that card; the card drawn."""
    player = game.current_player
    game.apply(player, DrawStock())
    card = game.hands[game.seat_of(player)][-1]
    game.apply(player, Discard(card))
    return card


def take_and_throw(game: Game) -> None:
    """The player in turn takes the upcard and throws the first card of their hand."""
    player = game.current_player
    game.apply(player, TakeUpcard())
    game.apply(player, Discard(game.hands[game.seat_of(player)][0]))


def second_players_first_draw(stock_draws: str, first_takes_upcard: bool, preset: str) -> Card:
    game = new_game(stock_draws, preset)
    if first_takes_upcard:
        take_and_throw(game)
    else:
        draw_and_throw(game)
    return draw_and_throw(game)


@pytest.mark.parametrize("preset", ["standard", "rummy"])
def test_a_seat_draws_the_same_card_whatever_the_seat_before_it_took(preset: str) -> None:
    def second(stock_draws: str, first_takes_upcard: bool) -> Card:
        return second_players_first_draw(stock_draws, first_takes_upcard, preset)

    assert second("per_seat", False) == second("per_seat", True)
    # With one shared stock the first player's choice shifts every later draw.
    assert second("shared", False) != second("shared", True)


def test_lanes_deal_the_stock_round_the_table_from_the_player_in_turn() -> None:
    shared, laned = new_game("shared"), new_game("per_seat")
    assert laned.stock == shared.stock and laned.hands == shared.hands
    n = len(PLAYERS)
    # The top card (the list's end) is the first player's, the next the second's, ...
    for depth in range(len(laned.stock)):
        assert laned.stock_lanes[-1 - depth] == (laned.current + depth) % n
    # So a round of plain draws takes the stock's cards in the shared order.
    expected = list(reversed(shared.stock))[:8]
    assert [draw_and_throw(laned) for _ in range(8)] == expected


def test_a_seat_whose_lane_is_empty_draws_the_top_of_the_stock() -> None:
    game = new_game("per_seat")
    seat = game.seat_of(game.current_player)
    game.stock_lanes = [(seat + 1) % len(PLAYERS)] * len(game.stock)
    top = game.stock[-1]
    assert draw_and_throw(game) == top
    assert len(game.stock_lanes) == len(game.stock)


def test_the_lanes_are_saved_with_the_game_and_a_shared_stock_saves_as_before() -> None:
    laned = new_game("per_seat")
    for _ in range(5):
        draw_and_throw(laned)
    saved = json.loads(laned.to_json())
    assert [int(seat) for seat in saved["lanes"]] == laned.stock_lanes
    restored = Game.from_json(laned.to_json())
    assert restored.stock_lanes == laned.stock_lanes
    assert [draw_and_throw(restored) for _ in range(6)] == [draw_and_throw(laned) for _ in range(6)]
    assert "lanes" not in json.loads(new_game("shared").to_json())


@pytest.mark.parametrize("stock_draws", ["shared", "per_seat"])
def test_a_copy_draws_as_the_original(stock_draws: str) -> None:
    game = new_game(stock_draws)
    draw_and_throw(game)
    copy = game.copy()
    assert [draw_and_throw(copy) for _ in range(6)] == [draw_and_throw(game) for _ in range(6)]
