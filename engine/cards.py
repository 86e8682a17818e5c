"""Cards and packs.

Terminology: a *card* is a value (rank and suit, or the joker). Packs hold several decks, so
identical copies exist; under every rule identical copies are interchangeable,
which is why a card carries no physical id and a hand is a multiset of cards.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from .errors import Unreadable

SUITS: tuple[str, ...] = ("C", "D", "H", "S")
SUIT_SYMBOLS: dict[str, str] = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
JOKER_RANK = 0
ACE, JACK, QUEEN, KING = 1, 11, 12, 13
_RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"} | {r: str(r) for r in range(2, 11)}
_TEXT_RANK = {text: rank for rank, text in _RANK_TEXT.items()} | {"T": 10, "1": ACE}
#: Each card's text, looked up rather than formatted (filled once every card exists): a saved
#: state writes every card of the game, and formatting them was most of its time.
_TEXT_OF: dict[Card, str] = {}


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card: ``rank`` 1 (ace) to 13 (king) with a suit, or the joker (rank 0, no suit).

    Cards are interned: there is exactly one instance per (rank, suit), whichever way it is
    made (``Card(8, "H")``, ``Card.parse``, ``Card.of``, a copy or a pickle). Equality and
    hashing are therefore identity, which keeps ``card in hand`` and counting hands cheap in
    the engine's hot loops.
    """

    rank: int
    suit: str | None

    _by_text: ClassVar[dict[str, Card]]
    _interned: ClassVar[dict[tuple[int, str | None], Card]] = {}

    def __new__(cls, rank: int, suit: str | None) -> Card:
        card = cls._interned.get((rank, suit))
        if card is not None:
            return card
        if not (rank == JOKER_RANK and suit is None) and not (1 <= rank <= 13 and suit in SUITS):
            raise ValueError(f"No such card: rank {rank!r}, suit {suit!r}")
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        cls._interned[(rank, suit)] = card
        return card

    def __reduce__(self) -> tuple[type[Card], tuple[int, str | None]]:
        return (Card, (self.rank, self.suit))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    @staticmethod
    def of(rank: int, suit: str | None) -> Card:
        """The card of this rank and suit (``suit`` None only for the joker, rank 0)."""
        return Card._interned.get((rank, suit)) or Card(rank, suit)

    @staticmethod
    def parse(text: str) -> Card:
        """Read ``"10H"``, ``"TH"``, ``"AS"`` or ``"JK"``; raises ``ValueError`` naming the text."""
        card = Card._by_text.get(text.strip().upper())
        if card is None:
            raise Unreadable(
                f"{text!r} is not a card: write rank then suit, like 10H, QS or JK",
                code="parse.card",
                text=text.strip(),
            )
        return card

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    def __str__(self) -> str:
        text = _TEXT_OF.get(self)  # every card, once the module is loaded: saved states
        if text is not None:  # print thousands of them
            return text
        if self.rank == JOKER_RANK:
            return "JK"
        return f"{_RANK_TEXT[self.rank]}{self.suit}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def pretty(self) -> str:
        """The card with a suit symbol, as players read it (``10♥``, ``🃏``)."""
        if self.rank == JOKER_RANK:
            return "🃏"
        assert self.suit is not None
        return f"{_RANK_TEXT[self.rank]}{SUIT_SYMBOLS[self.suit]}"

    def sort_key(self) -> tuple[int, int]:
        """Suit then rank, jokers last: the order a hand is shown in."""
        if self.rank == JOKER_RANK:
            return (9, 0)
        assert self.suit is not None
        return (SUITS.index(self.suit), self.rank)


def rank_text(rank: int) -> str:
    """``"A"``, ``"2"`` … ``"K"`` for a rank number."""
    return _RANK_TEXT[rank]


def parse_rank(text: str) -> int:
    """The rank number of ``"A"``, ``"10"``, ``"T"``, ``"Q"``…; raises ``ValueError``."""
    rank = _TEXT_RANK.get(text.strip().upper())
    if rank is None:
        raise Unreadable(
            f"{text!r} is not a rank: use A, 2-10, J, Q or K", code="parse.rank", text=text.strip()
        )
    return rank


_CARDS: dict[tuple[int, str | None], Card] = {
    (rank, suit): Card(rank, suit) for suit in SUITS for rank in range(1, 14)
}
JOKER = Card(JOKER_RANK, None)
ALL_NATURALS: tuple[Card, ...] = tuple(_CARDS.values())
Card._by_text = {str(card): card for card in (*ALL_NATURALS, JOKER)}
Card._by_text.update({f"T{suit}": _CARDS[(10, suit)] for suit in SUITS})


def parse_cards(text: str) -> list[Card]:
    """Cards from whitespace- or comma-separated text: ``"10H QS JK"``."""
    return [Card.parse(part) for part in text.replace(",", " ").split()]


_TEXT_OF.update({card: str(card) for card in (*ALL_NATURALS, JOKER)})


def format_cards(cards: Iterable[Card]) -> str:
    """The inverse of ``parse_cards``."""
    return " ".join(map(_TEXT_OF.__getitem__, cards))


def make_pack(decks: int, jokers: int) -> list[Card]:
    """``decks`` 52-card decks plus ``jokers`` jokers, unshuffled."""
    return [*ALL_NATURALS] * decks + [JOKER] * jokers
