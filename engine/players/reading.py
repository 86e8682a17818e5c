"""Reading the table: what a player can infer from its own view and the deal's public history.

A person at the table remembers which cards went by: the cards in the discard pile are dead
(nobody will draw them until a restock), and a card an opponent took or bought sits in that
opponent's hand until it is discarded or laid down. From that, and only that, the expert
player knows

- ``unseen``: how many copies of each card may still come from the stock (the pack minus its
  own hand, the table, the pile and the cards it knows others hold); the odds of each draw;
- ``held``: per seat, the cards that seat is known to hold (taken or bought, not since thrown),
  so a discard that would feed a collector can be avoided.

Everything here comes from ``PlayerView``; no hidden card is ever read.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.cards import Card, make_pack
from engine.view import PILE_KINDS, PlayerView

from .hints import card_index


@dataclass(frozen=True, slots=True)
class TableReading:
    """What ``view``'s player can infer about the hidden cards (see the module docstring)."""

    #: Copies of each card (by ``hints.card_index``) that may still be drawn.
    unseen: dict[int, int]
    #: Per seat, the cards that seat is known to hold now (empty for this player's own seat).
    held: tuple[tuple[Card, ...], ...]
    #: The discard pile as far as the history shows it, bottom first.
    pile: tuple[Card, ...]

    @property
    def unseen_total(self) -> int:
        return sum(self.unseen.values())


def read_table(view: PlayerView) -> TableReading:
    """The inference of the module docstring, from ``view`` alone."""
    seats = len(view.seats)
    held: list[list[Card]] = [[] for _ in range(seats)]
    stack: list[Card] = []
    for move in view.history:
        card = move.card
        if card is None or move.kind not in PILE_KINDS:
            continue  # a lay-down, lay-off or swap: the table itself is read from view.melds
        if move.kind == "turned":
            stack.append(card)
        elif move.kind == "discarded":
            stack.append(card)
            if card in held[move.seat]:
                held[move.seat].remove(card)
        else:
            if stack and stack[-1] == card:
                stack.pop()
            held[move.seat].append(card)
    # Cards a down player took are mostly on the table now: keep only what it still may hold.
    for seat, info in enumerate(view.seats):
        if info.is_down or seat == view.seat:
            held[seat] = []
        elif len(held[seat]) > info.hand_size:
            held[seat] = held[seat][-info.hand_size :]
    # The pile is the top ``discard_size`` cards of what was turned or thrown (a restock
    # emptied it in between).
    pile = stack[-view.discard_size :] if view.discard_size else []
    if view.upcard is not None and (not pile or pile[-1] != view.upcard):
        pile = [*pile, view.upcard]

    decks, jokers = view.rules.pack_for(seats)
    counts = Counter(card_index(card) for card in make_pack(decks, jokers))
    known: list[Card] = list(view.hand or ())
    known += [placed.card for table_meld in view.melds for placed in table_meld.meld.cards]
    known += pile
    for cards in held:
        known += cards
    for card in known:
        index = card_index(card)
        if counts[index] > 0:
            counts[index] -= 1
    unseen = {index: copies for index, copies in counts.items() if copies > 0}
    return TableReading(unseen=unseen, held=tuple(tuple(cards) for cards in held), pile=tuple(pile))
