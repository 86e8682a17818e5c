"""Who may buy the upcard and who gets it (docs/RULES.md, Buying).

Out of turn a player asks (``RequestBuy``) while the buy window is open; the requests are
settled when the player in turn draws from the stock: the first eligible requester in
``buy_priority`` order gets the upcard and the penalty cards. With two players the only
buy is P's own, in turn. These are questions put to the state; ``Game`` does the
moving of cards (``Game._draw_stock``, ``Game._buy_in_turn``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import BuyRefused

if TYPE_CHECKING:
    from .game import Game


def check_buy_in_turn(game: Game, seat: int) -> None:
    """Raise unless ``seat``, in turn, may buy the upcard instead of taking it (two-player
    Shanghai under ``in_turn_buy``)."""
    if not game.is_shanghai or len(game.players) != 2:
        raise BuyRefused(
            "Buying in turn is only for two-player Shanghai",
            code="buy.in_turn_two_players_only",
        )
    if game.rules.two_player_buy != "in_turn_buy":
        raise BuyRefused(
            "This table plays two-player Shanghai without buying",
            code="buy.two_players_no_buying",
        )
    if not game.upcard_live:
        raise BuyRefused("There is no live upcard to buy", code="buy.no_live_upcard")
    _check_buyer_status(game, seat)
    if supply(game) < game.rules.buy_penalty_cards:
        raise BuyRefused(
            "Too few cards are left in the stock to pay the buy's penalty",
            code="buy.stock_too_small",
        )


def _check_buyer_status(game: Game, seat: int) -> None:
    """The buyer's own eligibility: not down (unless the table allows it), buys left."""
    if game.down[seat] and not game.rules.down_player_may_buy:
        raise BuyRefused("You are down this deal, so you can't buy", code="buy.down")
    limit = game.buy_limit
    if limit is not None and game.buys_used[seat] >= limit:
        raise BuyRefused(
            f"You have used your {limit} buys for this deal", code="buy.limit_used", count=limit
        )


def check_has_buying(game: Game) -> None:
    """Raise unless ``game`` has buying at all: a buy, or a player's choice about buys, is
    refused alike where there is none (Rummy)."""
    if not game.rules.has_buying:
        raise BuyRefused("There is no buying in Rummy", code="buy.rummy")


def check_request_buy(game: Game, seat: int) -> None:
    """Raise unless ``seat`` may ask to buy the live upcard out of turn."""
    check_has_buying(game)
    if not game.buy_window_open:
        raise BuyRefused(
            "The buy window is closed: the upcard is no longer live", code="buy.window_closed"
        )
    if len(game.players) == 2:
        raise BuyRefused("With two players there is no buying out of turn", code="buy.two_players")
    if seat == game.current:
        raise BuyRefused(
            "It is your turn: take the upcard instead of buying it", code="buy.own_turn"
        )
    if seat == game.discarder:
        raise BuyRefused("You can't buy back your own discard", code="buy.own_discard")
    if seat in game.buy_requests:
        raise BuyRefused("You have already asked to buy this card", code="buy.already_asked")
    _check_buyer_status(game, seat)
    if supply(game) < game.rules.buy_penalty_cards + 1:
        # The supply rule (and the forced take of a dead stock): the buy could never be
        # awarded, so say so now rather than drop the request when P draws.
        raise BuyRefused(
            "Too few cards are left in the stock to pay for a buy and still let the "
            "player in turn draw",
            code="buy.stock_too_small_for_draw",
        )


def supply(game: Game) -> int:
    """Cards available for a buy's penalty and P's draw once the upcard leaves."""
    pile_after = len(game.pile) - 1
    limit = game.rules.max_restocks
    restockable = limit is None or game.restocks < limit
    return len(game.stock) + (pile_after if restockable else 0)


def buy_priority(game: Game) -> list[int]:
    """Seats in the order their buy requests win; depends only on seats."""
    n, p, d = len(game.players), game.current, game.discarder
    if game.rules.buy_priority == "next_in_turn":
        order = [(p + i) % n for i in range(1, n)]
        if d is not None:
            order = order[: order.index(d)] if d in order else order
        return order
    order = [(game.dealer + i) % n for i in range(1, n + 1)]
    return [s for s in order if s not in (p, d)]


def buy_winner(game: Game) -> int | None:
    """The seat that gets the upcard when P draws from the stock: the first requester
    in priority order still under the buy limit, and no one when the supply is short."""
    if not game.buy_requests or supply(game) < game.rules.buy_penalty_cards + 1:
        return None
    limit = game.buy_limit
    for seat in buy_priority(game):
        if seat in game.buy_requests and (limit is None or game.buys_used[seat] < limit):
            return seat
    return None


def buyer_beats_down_player(game: Game, seat: int) -> bool:
    """The exception to first refusal: a down P cannot block an eligible buy under that option."""
    return (
        game.is_shanghai
        and not game.rules.down_player_blocks_buy
        and game.down[seat]
        and buy_winner(game) is not None
        and game.stock_drawable
    )
