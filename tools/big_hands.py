"""The largest hand the rules allow, set up on a running game (benchmarks and tests).

With the ``buy_limit: unlimited`` house rule an 8-player table may pile about 80 cards into
one hand by deal 10 (issue 29.2). Playing there takes hours of scripted buys; ``pile_up``
deals that position directly from the game's own cards: the seat to move holds ``size``
cards chosen by ``seed`` alone, the others 11 each, the rest is the stock, the upcard stays, and
the seat has drawn (its step is ``play``), which is where the legal plays cost the most.
"""

from __future__ import annotations

import random

from engine import Game
from engine.cards import Card

#: The hand of an 8-player table with unlimited buys in deal 10.
LARGEST = 80


def pile_up(game: Game, size: int = LARGEST, *, seed: int = 0, deal: int = 10) -> int:
    """Give the seat to move ``size`` cards (the others 11 each) at deal ``deal``, in its play
    step; returns that seat. Every card stays in the game exactly once."""
    seat = game.current
    # Sorted first, so the hand depends on ``seed`` alone, not on how the game was dealt.
    pool = sorted(list(game.stock) + [card for hand in game.hands for card in hand], key=str)
    random.Random(seed).shuffle(pool)
    others = len(game.players) - 1
    if size + 11 * others > len(pool):
        raise ValueError(f"{len(pool)} cards can't give one hand {size} and the others 11")
    game.deal = deal
    hands: list[list[Card]] = [[] for _ in game.players]
    hands[seat], rest = pool[:size], pool[size:]
    for other in range(len(game.players)):
        if other != seat:
            hands[other], rest = rest[:11], rest[11:]
    game.hands = hands
    game.stock = rest
    game.step = "play"
    return seat
