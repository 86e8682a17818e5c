"""Melds: sets and runs, each card with the identity it plays as.

Terminology:
- a *set* is three or more cards of one rank; a *run* is consecutive values of one suit;
- a card's *identity* is the rank (value, for runs: 1-14, the ace being 1 low or 14 high) and
  suit it stands for; a natural's identity is itself, a wild's is fixed when it is placed;
- a *placement* is where a card goes on a meld: the low or high end of a run, or into a set.

``Meld`` is an immutable value; lay-offs and swaps make new melds (melds never split).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from .cards import ACE, SUITS, Card, parse_rank, rank_text
from .errors import IllegalMeld, Unreadable
from .rules import Rules, SlotKind

End = Literal["low", "high"]


@dataclass(frozen=True, slots=True)
class MeldCard:
    """A card on the table and the identity it plays as.

    ``value`` is the rank played (14 for a high ace in a run); ``suit`` is None only for a
    wild in a set under ``joker_identity: rank_only``.
    """

    card: Card
    value: int
    suit: str | None

    @property
    def rank(self) -> int:
        return ACE if self.value == 14 else self.value

    @property
    def identity(self) -> str:
        """``"8H"``, or ``"8"`` when only the rank was named."""
        return f"{rank_text(self.rank)}{self.suit or ''}"

    def is_wild_in(self, kind: SlotKind, rules: Rules) -> bool:
        """Whether this card acts as a wild here (a 2 at its own rank and suit is natural)."""
        card = self.card
        if card.is_joker:
            return True
        return not (card.rank == self.rank and (kind == "set" or card.suit == self.suit))

    def __str__(self) -> str:
        if (
            self.card.is_joker
            or self.card.rank != self.rank
            or (self.suit is not None and self.card.suit != self.suit)
        ):
            return f"{self.card}={self.identity}"
        return str(self.card)

    @staticmethod
    def parse(text: str, kind: SlotKind) -> MeldCard:
        """``"8H"``, ``"JK=8H"``, ``"2C=5H"`` or ``"JK=8"`` (a rank-only set identity)."""
        card_text, _, identity = text.partition("=")
        card = Card.parse(card_text)
        identity = identity.strip().upper()  # "JK= " names no identity, like "JK"
        if not identity:
            if card.is_joker:
                raise Unreadable(
                    f"{text!r}: a wild needs its identity, like JK=8H",
                    code="parse.wild_identity",
                    text=text.strip(),
                )
            return MeldCard(card, card.rank, card.suit)
        if identity[-1] in SUITS:
            rank, suit = parse_rank(identity[:-1]), identity[-1]
        else:
            rank, suit = parse_rank(identity), None
        if kind == "run" and suit is None:
            raise Unreadable(
                f"{text!r}: a wild in a run needs a suit, like JK=8H",
                code="parse.run_wild_suit",
                text=text.strip(),
            )
        return MeldCard(card, rank, suit)


@dataclass(frozen=True, slots=True)
class Meld:
    """A set or a run; a run's cards are in ascending order of value."""

    kind: SlotKind
    cards: tuple[MeldCard, ...]

    # -- construction and text -------------------------------------------------------------

    @staticmethod
    def parse(text: str) -> Meld:
        """``"set: 8H 8S JK=8C"`` or ``"run: 3H 4H JK=5H 6H"``; raises ``ValueError``."""
        kind_text, sep, body = text.partition(":")
        kind = kind_text.strip().lower()
        if not sep or kind not in ("set", "run"):
            raise Unreadable(
                f"{text!r}: a meld reads like 'set: 8H 8S 8C' or 'run: 3H 4H 5H 6H'",
                code="parse.meld",
                text=text.strip(),
            )
        meld_kind: SlotKind = "set" if kind == "set" else "run"
        cards = tuple(MeldCard.parse(part, meld_kind) for part in body.replace(",", " ").split())
        if meld_kind == "run":
            cards = _run_order(cards)
        return Meld(meld_kind, cards)

    @staticmethod
    def from_naturals(cards: Sequence[Card], rules: Rules) -> Meld:
        """The set or run these natural cards make, in any order (Rummy's free melds).

        An ace goes low or high as the rules allow. Raises ``IllegalMeld`` saying why the
        cards make no meld; wilds need an identity, so they go through ``Meld.parse``.
        """
        if len(cards) < min(rules.min_set, rules.min_run):
            raise IllegalMeld("A meld needs at least 3 cards", code="meld.too_few_cards")
        if any(rules.is_wild(card) for card in cards):
            raise IllegalMeld(
                "Say what each wild card stands for, like JK=8H", code="meld.name_wilds"
            )
        as_set = Meld("set", tuple(MeldCard(c, c.rank, c.suit) for c in cards))
        aces_low = sorted(cards, key=lambda c: c.rank)
        aces_high = sorted(cards, key=lambda c: (c.rank == ACE, c.rank))
        candidates = [as_set, Meld("run", tuple(MeldCard(c, c.rank, c.suit) for c in aces_low))]
        candidates.append(
            Meld(
                "run",
                tuple(MeldCard(c, 14 if c.rank == ACE else c.rank, c.suit) for c in aces_high),
            )
        )
        reasons: list[str] = []
        for meld in candidates:
            try:
                meld.check(rules)
            except IllegalMeld as error:
                reasons.append(str(error))
                continue
            return meld
        raise IllegalMeld(
            "Those cards don't form a meld: a set is cards of one rank, a run cards in sequence "
            f"in one suit ({reasons[-1]})",
            code="meld.not_a_meld",
        )

    def __str__(self) -> str:
        return f"{self.kind}: " + " ".join(str(c) for c in self.cards)

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"

    @property
    def plain_cards(self) -> tuple[Card, ...]:
        """The physical cards, without identities."""
        return tuple(c.card for c in self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def rank(self) -> int:
        """A set's rank (1-13)."""
        return self.cards[0].rank

    @property
    def suit(self) -> str | None:
        """A run's suit."""
        return self.cards[0].suit

    @property
    def low(self) -> int:
        """A run's lowest value."""
        return self.cards[0].value

    @property
    def high(self) -> int:
        """A run's highest value."""
        return self.cards[-1].value

    def wild_count(self, rules: Rules) -> int:
        return sum(1 for c in self.cards if c.is_wild_in(self.kind, rules))

    # -- validity ----------------------------------------------------------------------------

    def check(self, rules: Rules) -> None:
        """Raise ``IllegalMeld`` with a player-readable reason unless this meld is valid."""
        length = len(self.cards)
        for placed in self.cards:
            card = placed.card
            if placed.is_wild_in(self.kind, rules) and not rules.is_wild(card):
                raise IllegalMeld(
                    f"{card} cannot stand in for {placed.identity}: it is not wild",
                    code="meld.not_wild",
                    card=card.pretty(),
                )
        wilds = self.wild_count(rules)
        if wilds == length:
            raise IllegalMeld(
                f"The {self.kind} {self} needs at least one natural card", code="meld.no_natural"
            )
        if wilds > rules.max_wilds(length):
            raise IllegalMeld(
                f"The {self.kind} {self} has {wilds} wild cards; a meld of {length} may hold "
                f"at most {rules.max_wilds(length)} ({rules.joker_limit} rule)",
                code="meld.too_many_wilds",
                length=length,
                most=rules.max_wilds(length),
            )
        if self.kind == "set":
            self._check_set(rules)
        else:
            self._check_run(rules)

    def _check_set(self, rules: Rules) -> None:
        if len(self.cards) < rules.min_set:
            raise IllegalMeld(
                f"A set needs at least {rules.min_set} cards",
                code="set.too_small",
                size=rules.min_set,
            )
        if rules.max_set is not None and len(self.cards) > rules.max_set:
            raise IllegalMeld(
                f"A group holds at most {rules.max_set} cards",
                code="set.too_big",
                size=rules.max_set,
            )
        rank = self.cards[0].rank
        for placed in self.cards:
            if placed.rank != rank or placed.value == 14:
                raise IllegalMeld(f"The set {self} mixes ranks", code="set.mixed_ranks")
            wild = placed.is_wild_in("set", rules)
            if wild and rules.joker_identity == "rank_and_suit" and placed.suit is None:
                raise IllegalMeld(
                    f"Name the suit the wild plays as in {self}, like JK=8H", code="set.name_suit"
                )
            if wild and rules.joker_identity == "rank_only" and placed.suit is not None:
                raise IllegalMeld(
                    "Wilds in sets take only a rank at this table, like JK=8", code="set.rank_only"
                )
            if not wild and placed.suit != placed.card.suit:
                raise IllegalMeld(
                    f"The set {self} lists a natural under another suit",
                    code="set.natural_other_suit",
                )

    def _check_run(self, rules: Rules) -> None:
        length = len(self.cards)
        if length < rules.min_run:
            raise IllegalMeld(
                f"A run needs at least {rules.min_run} cards",
                code="run.too_short",
                size=rules.min_run,
            )
        suit = self.cards[0].suit
        for index, placed in enumerate(self.cards):
            if placed.suit != suit:
                raise IllegalMeld(f"The run {self} mixes suits", code="run.mixed_suits")
            if placed.value != self.cards[0].value + index:
                raise IllegalMeld(f"The run {self} is not consecutive", code="run.not_consecutive")
        low, high = self.cards[0].value, self.cards[-1].value
        if low < 1 or high > 14:
            raise IllegalMeld(
                f"The run {self} goes past the ace: runs never wrap", code="run.wraps"
            )
        if high == 14 and not rules.ace_high_allowed:
            raise IllegalMeld("Aces are low at this table: Q-K-A is not a run", code="run.aces_low")
        if length > 13 and not rules.run_ace_both_ends:
            raise IllegalMeld(f"The run {self} uses the ace at both ends", code="run.ace_both_ends")

    # -- changes -----------------------------------------------------------------------------

    def placements(self, card: Card, rules: Rules) -> list[tuple[MeldCard, End | None]]:
        """Every way ``card`` may be added to this meld: (identity, end) pairs."""
        options: list[tuple[MeldCard, End | None]] = []
        # Counting the meld's wilds is the costly part: only a wild card needs it.
        wild_ok = rules.is_wild(card) and (
            self.wild_count(rules) + 1 <= rules.max_wilds(len(self.cards) + 1)
        )
        if self.kind == "set":
            if rules.max_set is not None and len(self.cards) >= rules.max_set:
                return options
            rank = self.rank
            if card.rank == rank:
                options.append((MeldCard(card, rank, card.suit), None))
            elif wild_ok:
                suits: Sequence[str | None] = (
                    SUITS if rules.joker_identity == "rank_and_suit" else (None,)
                )
                options.extend((MeldCard(card, rank, s), None) for s in suits)
            return options
        suit, low, high = self.suit, self.low, self.high
        max_len = 14 if rules.run_ace_both_ends else 13
        if len(self.cards) >= max_len:
            return options
        top = 14 if rules.ace_high_allowed else 13
        for value, end in ((low - 1, "low"), (high + 1, "high")):
            if not 1 <= value <= top:
                continue
            rank = ACE if value == 14 else value
            end_name: End = "low" if end == "low" else "high"
            if (card.rank == rank and card.suit == suit) or wild_ok:
                options.append((MeldCard(card, value, suit), end_name))
        return options

    def add(self, placed: MeldCard, end: End | None) -> Meld:
        """This meld with ``placed`` added (at ``end`` for runs); the caller checks validity."""
        if self.kind == "set" or end == "high":
            return Meld(self.kind, (*self.cards, placed))
        return Meld(self.kind, (placed, *self.cards))

    def replace(self, position: int, card: Card) -> Meld:
        """This meld with the wild at ``position`` replaced by the natural ``card``."""
        old = self.cards[position]
        suit = card.suit if self.kind == "set" else old.suit
        placed = MeldCard(card, old.value, suit)
        return Meld(self.kind, (*self.cards[:position], placed, *self.cards[position + 1 :]))


def _run_order(cards: tuple[MeldCard, ...]) -> tuple[MeldCard, ...]:
    """A typed run in ascending order, whatever order it was typed in (``4H 3H 5H 6H``).

    Each ace (natural, or a wild named as one) plays low or high: the written order is kept
    when it already reads as a run, otherwise the first choice of low and high aces that
    makes the values consecutive wins. When no choice does, the written order is returned
    so that ``check`` names what is wrong with it.
    """
    written = _with_high_aces(cards)
    if _consecutive(written):
        return written
    aces = [i for i, placed in enumerate(cards) if placed.value == ACE]
    others = [placed for placed in cards if placed.value != ACE]
    for low_count in range(len(aces), -1, -1):
        placed_aces = [
            MeldCard(cards[i].card, ACE if n < low_count else 14, cards[i].suit)
            for n, i in enumerate(aces)
        ]
        ordered = tuple(sorted((*others, *placed_aces), key=lambda c: c.value))
        if _consecutive(ordered):
            return ordered
    return written


def _consecutive(cards: Sequence[MeldCard]) -> bool:
    return all(cards[i].value == cards[0].value + i for i in range(len(cards)))


def _with_high_aces(cards: tuple[MeldCard, ...]) -> tuple[MeldCard, ...]:
    """Read an ace after a king in written runs as value 14 (``J Q K A``)."""
    fixed = list(cards)
    for index in range(1, len(fixed)):
        if fixed[index].value == ACE and fixed[index - 1].value >= 2:
            fixed[index] = MeldCard(fixed[index].card, 14, fixed[index].suit)
    return tuple(fixed)


def run_from_cards(cards: Iterable[MeldCard]) -> Meld:
    """A run from placed cards in any order, sorted by value."""
    return Meld("run", tuple(sorted(cards, key=lambda c: c.value)))
