"""Which suit a wild laid on a set should play as, so the player is never asked.

Under ``joker_identity: rank_and_suit`` a wild on a set of 8s must be declared 8♥, 8♦, 8♣ or
8♠, and the declaration only decides who may later swap it out: a player holding
that natural. Asking for it turned one lay-off into up to 32 places over two menus, so the
hand declares for the player the suit that leaves the fewest naturals out of their sight, the
ones another player could swap the wild away with. Under ``rank_only`` there is no suit to
choose.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace

from .actions import LayOffItem
from .cards import Card
from .melds import Meld
from .rules import Rules


def suit_to_declare(
    melds: Sequence[Meld],
    meld: int,
    hand: Iterable[Card],
    rules: Rules,
    suits: Sequence[str],
    players: int,
) -> str:
    """Of ``suits`` (those the engine allows the wild on set ``meld``), the one whose
    naturals of the set's rank are fewest out of sight: not on the table, not in the hand.
    Ties go to the first suit in ``suits``, so the choice is the same every time."""
    rank = melds[meld].rank
    seen: Counter[str] = Counter()
    for on_table in melds:
        for placed in on_table.cards:
            card = placed.card
            if card.rank == rank and not placed.is_wild_in(on_table.kind, rules):
                seen[card.suit or ""] += 1
    for card in hand:
        if not card.is_joker and card.rank == rank:
            seen[card.suit or ""] += 1
    decks, _jokers = rules.pack_for(players)
    return min(suits, key=lambda suit: (decks - seen[suit], suits.index(suit)))


def one_place_per_meld(
    items: Iterable[LayOffItem],
    melds: Sequence[Meld],
    hand: Iterable[Card],
    rules: Rules,
    players: int,
) -> list[LayOffItem]:
    """``items`` with a set wild's places once per card, meld and end, declared as
    ``suit_to_declare`` picks, instead of once per suit; every other place as it is, in order."""
    hand = tuple(hand)
    suits: dict[tuple[Card, int, str | None], list[str]] = {}
    kept: list[LayOffItem] = []
    for item in items:
        if item.suit is None:
            kept.append(item)
            continue
        key = (item.card, item.meld, item.end)
        if key not in suits:
            suits[key] = []
            kept.append(item)
        suits[key].append(item.suit)
    return [
        item
        if item.suit is None
        else replace(
            item,
            suit=suit_to_declare(
                melds, item.meld, hand, rules, suits[(item.card, item.meld, item.end)], players
            ),
        )
        for item in kept
    ]
