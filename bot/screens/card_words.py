"""The words every message shares: cards with suit symbols (``10♥``, ``🃏``), a wild on the
table with the card it plays as (``🃏=5♥``), melds, a hand grouped as players hold it, the
step of the turn, a countdown, the buy limit.

Countdowns use Discord's relative timestamps (``<t:…:R>``), which every client counts down by
itself, so no edit is needed to keep them moving. Cards, names and numbers are the same in
every language; the few words come from the catalogues (``bot.i18n``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from bot.i18n import DEFAULT_LANGUAGE, Language, t
from engine.cards import SUIT_SYMBOLS, SUITS, Card, rank_text
from engine.melds import Meld, MeldCard
from engine.view import PlayerView

SortMode = Literal["s", "r"]


def step_word(step: str, language: Language) -> str:
    """What the player in turn is doing: ``drawing``, ``playing``, ``done``."""
    return t(f"step.{step}", language)


def card_text(card: Card) -> str:
    """``10♥`` or ``🃏``."""
    return card.pretty()


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(card_text(c) for c in cards)


def meld_card_text(placed: MeldCard) -> str:
    """A table card; a wild shows what it plays as: ``🃏=5♥``, ``2♣=8``."""
    text = card_text(placed.card)
    plays_as_other = (
        placed.card.is_joker
        or placed.card.rank != placed.rank
        or (placed.suit is not None and placed.card.suit != placed.suit)
    )
    if plays_as_other:
        suit = SUIT_SYMBOLS[placed.suit] if placed.suit else ""
        return f"{text}={rank_text(placed.rank)}{suit}"
    return text


def meld_text(meld: Meld, language: Language = DEFAULT_LANGUAGE) -> str:
    return f"{t(f'term.{meld.kind}', language)} " + " ".join(meld_card_text(c) for c in meld.cards)


def sort_cards(cards: Iterable[Card], mode: SortMode) -> list[Card]:
    """By suit then rank (``s``), or by rank then suit (``r``); jokers last either way."""
    if mode == "r":
        return sorted(
            cards, key=lambda c: (c.is_joker, c.rank, SUITS.index(c.suit) if c.suit else 9)
        )
    return sorted(cards, key=Card.sort_key)


def hand_lines(cards: Sequence[Card], mode: SortMode) -> str:
    """The hand grouped as players hold it: one group per suit (or per rank)."""
    ordered = sort_cards(cards, mode)
    groups: list[list[Card]] = []
    for card in ordered:
        key = (card.suit if mode == "s" else card.rank) if not card.is_joker else "JK"
        if groups and _group_key(groups[-1][0], mode) == key:
            groups[-1].append(card)
        else:
            groups.append([card])
    return "  ·  ".join(cards_text(g) for g in groups)


def _group_key(card: Card, mode: SortMode) -> object:
    if card.is_joker:
        return "JK"
    return card.suit if mode == "s" else card.rank


def countdown(deadline: float | None) -> str:
    """A Discord relative timestamp (``in 8 seconds``) for an epoch deadline."""
    if deadline is None:
        return ""
    return f"<t:{int(deadline + 0.999)}:R>"


def buy_limit_text(view: PlayerView) -> str:
    return "∞" if view.buy_limit is None else str(view.buy_limit)
