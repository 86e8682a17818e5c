"""Determinization: a whole ``Game`` consistent with what one seat sees.

A search over the hidden cards needs games to play on. From a ``PlayerView`` alone (never the
real game: a computer seat must not peek), ``sample_game`` deals the cards this seat cannot
see (the other hands, the stock, the pile below what the history shows) anew at random, so
that every fact of the view holds: the seat's own hand, the table, the upcard and the known
part of the pile, each seat's hand size, and the cards ``reading.read_table`` knows an
opponent still holds (taken or bought, not since thrown), which are put back in that
opponent's hand. The rest of the state (who is down, buys used, the score sheet, the
deal's history) is copied from the view.

What the view does not show is set to the value that changes the least: no restock since
the last go-down (the count that ends a cycling deal), no dry turn, no wild thrown this turn
(the blind bonus's -50 rather than -25), and a seat has played this deal exactly when it is
down (laying off needs being down first). Those only matter at the very end of a deal, and a
wrong guess there costs a rollout a few points at most.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.cards import Card, make_pack
from engine.game import Game
from engine.view import PlayerView

from .reading import TableReading, read_table


def hidden_pool(view: PlayerView, reading: TableReading) -> list[Card]:
    """The cards this seat cannot place: the pack less its hand, the table, the known pile
    and the cards known to be held by others (sorted, so a shuffle seeded alike deals alike).
    """
    decks, jokers = view.rules.pack_for(len(view.seats))
    pool = Counter(make_pack(decks, jokers))
    known: list[Card] = list(view.hand or ())
    known += [placed.card for table_meld in view.melds for placed in table_meld.meld.cards]
    known += _known_pile(view, reading)
    for cards in reading.held:
        known += cards
    for card in known:
        if pool[card] > 0:
            pool[card] -= 1
    return sorted(pool.elements(), key=Card.sort_key)


def _known_pile(view: PlayerView, reading: TableReading) -> list[Card]:
    pile = list(reading.pile)
    return pile[-view.discard_size :] if view.discard_size else []


def sample_game(view: PlayerView, rng: random.Random, reading: TableReading | None = None) -> Game:
    """A game in the state ``view`` shows, the hidden cards dealt from ``rng``.

    Raises ``ValueError`` for a spectator's view (there is no seat to sample for).
    """
    if view.seat is None or view.hand is None:
        raise ValueError("Only a seat's own view can be determinized")
    reading = reading or read_table(view)
    players = [seat.player for seat in view.seats]
    n = len(players)
    me = view.seat
    pool = hidden_pool(view, reading)
    rng.shuffle(pool)
    hands: list[list[Card]] = []
    for seat, info in enumerate(view.seats):
        if seat == me:
            hands.append(list(view.hand))
            continue
        held = list(reading.held[seat])[: info.hand_size]
        missing = info.hand_size - len(held)
        hands.append(held + pool[:missing])
        del pool[:missing]
    known_pile = _known_pile(view, reading)
    pad = max(0, view.discard_size - len(known_pile))
    pile = pool[:pad] + known_pile
    del pool[:pad]
    # The stock takes what is left: exactly ``stock_size`` cards when the reading is right
    # (the tests check it is), and never fewer cards than the view shows while any remain.
    stock = pool

    game = Game(players, view.rules, 0)
    game.deal = view.deal
    game.dealer = view.dealer
    game.current = view.current
    game.step = view.step
    game.hands = hands
    game.stock = stock
    game.pile = pile
    game.pile_from = [None for _ in pile[1:]]
    if pile:
        game.pile_from.append(view.discarder)
    game.upcard_live = view.upcard_live
    game.discarder = view.discarder
    game.buys_used = [seat.buys_used for seat in view.seats]
    game.buy_requests = [me] if view.my_buy_requested else []
    game.down = [seat.is_down for seat in view.seats]
    game.melds = list(view.melds)
    game.restocks = view.restocks
    game.went_down_this_turn = view.went_down_this_turn
    game.taken_upcard = view.taken_upcard
    game.played_this_deal = list(game.down)
    game.played_before_turn = game.played_this_deal[view.current] and not (
        view.current == me and view.went_down_this_turn
    )
    game.score_sheet = [list(row) for row in view.score_sheet]
    game.history = list(view.history)
    game.deals_out = [0] * n
    return game


__all__ = ["hidden_pool", "sample_game"]
