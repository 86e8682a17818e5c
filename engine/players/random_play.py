"""A random legal player, for property tests, benchmarks and as the weakest computer seat.

Each step it asks ``legal_actions`` and picks one at random, with two biases that keep games
short without leaving legal play: it goes down and lays off when it can (a uniform pick among a
dozen discards would rarely choose them, and deals would run to exhaustion every time), and
other players ask to buy now and then while the window is open.
"""

from __future__ import annotations

import random

from engine.actions import Action, GoDown, LayMelds, LayOff, RequestBuy
from engine.game import Game

#: The plays random play prefers (exact types: no action class has subclasses).
_EAGER = frozenset((GoDown, LayMelds, LayOff))


def random_step(game: Game, rng: random.Random, buy_chance: float = 0.3) -> tuple[str, Action]:
    """Choose (player, action) for the next step of a random game; the game must not be over."""
    if game.buy_window_open and rng.random() < buy_chance:
        seat = rng.randrange(len(game.players))
        player = game.players[seat]
        if seat != game.current and RequestBuy() in game.legal_actions(player):
            return player, RequestBuy()
    player = game.current_player
    actions = game.legal_actions(player)
    eager = [a for a in actions if type(a) in _EAGER]
    if eager and rng.random() < 0.9:
        return player, rng.choice(eager)
    return player, rng.choice(actions)


def play_random_game(game: Game, rng: random.Random, max_steps: int = 200_000) -> int:
    """Play ``game`` to its end with random legal actions; return the number of actions."""
    steps = 0
    while not game.is_over:
        player, action = random_step(game, rng)
        game.apply(player, action)
        steps += 1
        if steps > max_steps:
            raise RuntimeError(f"game did not end within {max_steps} actions")
    return steps
