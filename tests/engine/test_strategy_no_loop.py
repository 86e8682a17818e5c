"""Normal computers never pass one card round the table for ever.

A table of normal players who never buy once took the 2♦ and threw it straight back, seat
after seat, so deal 9 of this game never ended (an all-away table in the bot plays exactly so).
Taking the upcard must gain something the player keeps.
"""

from __future__ import annotations

import random

from engine import Game, Rules
from engine.actions import DrawStock, RequestBuy, TakeUpcard
from engine.players.levels import make_strategy

#: Far more actions than a whole game of four normal players takes (about 2,300).
ACTION_CAP = 6000


def test_normal_players_who_never_buy_finish_the_game_that_looped() -> None:
    normal = make_strategy("normal")
    seed = 3
    game = Game.new(["a", "b", "c", "d"], Rules.preset("standard"), seed)
    rng = random.Random(seed)
    actions = 0
    while not game.is_over and actions < ACTION_CAP:
        player = game.current_player
        legal = [a for a in game.legal_actions(player) if a != RequestBuy()]
        game.apply(player, normal.choose(game.view(player), legal, rng))
        actions += 1
    assert game.is_over, f"deal {game.deal} still running after {actions} actions"


def test_an_upcard_the_player_would_throw_back_is_not_taken() -> None:
    normal = make_strategy("normal")
    game = Game.new(["a", "b", "c", "d"], Rules.preset("standard"), 3)
    rng = random.Random(3)
    checked = actions = 0
    while not game.is_over and checked < 300 and actions < ACTION_CAP:
        actions += 1
        player = game.current_player
        view = game.view(player)
        legal = [a for a in game.legal_actions(player) if a != RequestBuy()]
        action = normal.choose(view, legal, rng)
        game.apply(player, action)
        chose_to_take = action == TakeUpcard() and DrawStock() in legal
        if chose_to_take and not game.is_over:
            taken = view.upcard
            follow = normal.choose(game.view(player), game.legal_actions(player), rng)
            assert str(follow) != f"discard {taken}", f"took {taken} only to throw it back"
            checked += 1
    assert checked > 0, "the game should have had takes to check"
