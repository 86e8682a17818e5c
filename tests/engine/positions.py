"""Hand-made positions for rule tests: a dealt game whose zones are then overwritten.

Card accounting is not kept here (tests of the invariants use real playouts); these positions
exist to put one rule in front of the engine at a time.
"""

from __future__ import annotations

from engine import Game, Meld, Rules, TableMeld, parse_cards


def position(
    players: int = 4,
    rules: Rules | None = None,
    *,
    hands: dict[int, str] | None = None,
    stock: str | None = None,
    pile: str | None = None,
    live: bool = True,
    current: int = 1,
    dealer: int = 0,
    discarder: int | None = None,
    step: str = "draw",
    deal: int = 1,
    down: tuple[int, ...] = (),
    melds: list[tuple[int, str]] | None = None,
    buys_used: dict[int, int] | None = None,
    restocks: int = 0,
) -> Game:
    """A game of ``players`` seats p0.. with the given zones (cards as text, top last)."""
    rules = rules or Rules.preset("standard")
    game = Game.new([f"p{i}" for i in range(players)], rules, seed=7)
    game.deal = deal
    game.dealer = dealer
    game.current = current
    game.discarder = discarder
    game.step = step  # type: ignore[assignment]
    for seat, text in (hands or {}).items():
        game.hands[seat] = parse_cards(text)
    if stock is not None:
        game.stock = parse_cards(stock)
    if pile is not None:
        game.pile = parse_cards(pile)
    pile_from: list[int | None] = [None] * (len(game.pile) - 1)
    game.pile_from = [*pile_from, discarder]
    game.upcard_live = live
    for seat in down:
        game.down[seat] = True
        game.played_this_deal[seat] = True
    game.melds = [TableMeld(owner, Meld.parse(text)) for owner, text in (melds or [])]
    for seat, used in (buys_used or {}).items():
        game.buys_used[seat] = used
    game.restocks = restocks
    game._reset_turn_flags()
    return game


def hand(game: Game, seat: int) -> str:
    return " ".join(sorted(str(c) for c in game.hands[seat]))


def cards(text: str) -> str:
    return " ".join(sorted(text.split()))
