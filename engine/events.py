"""Events: what happened, as the table may be told. They carry only public information; a
private detail (the card a player drew from the stock) stays in that player's view.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .cards import Card
from .melds import Meld

# The fields added for the checkable shuffle (commitments, seeds, scored hands) stay out of
# the reprs, so that a game shuffled the older way prints exactly as it always has (the
# differential test digests those reprs).


@dataclass(frozen=True, slots=True)
class DealStarted:
    deal: int
    dealer: int
    first_player: int
    upcard: Card
    #: The SHA-256 (hex) of the deal's seed (``engine/shuffle.py``); None without seeds.
    commitment: str | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class TurnStarted:
    player: int


@dataclass(frozen=True, slots=True)
class DrewFromStock:
    player: int


@dataclass(frozen=True, slots=True)
class TookUpcard:
    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class BuyRequested:
    player: int


@dataclass(frozen=True, slots=True)
class BuyCancelled:
    player: int


@dataclass(frozen=True, slots=True)
class BuyAwarded:
    player: int
    card: Card
    penalty_cards: int
    in_turn: bool = False


@dataclass(frozen=True, slots=True)
class UpcardDead:
    card: Card


@dataclass(frozen=True, slots=True)
class Restocked:
    cards: int
    restocks: int
    #: The deal's commitment again: the rebuilt stock is shuffled from the same seed.
    commitment: str | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class WentDown:
    player: int
    melds: tuple[Meld, ...]


@dataclass(frozen=True, slots=True)
class LaidOff:
    player: int
    meld: int
    card: Card


@dataclass(frozen=True, slots=True)
class JokerSwapped:
    player: int
    meld: int
    card: Card
    wild: Card


@dataclass(frozen=True, slots=True)
class Discarded:
    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class WentOut:
    player: int
    blind: bool
    rummy: bool = False


@dataclass(frozen=True, slots=True)
class DealEnded:
    deal: int
    reason: Literal["out", "exhausted", "void"]
    scores: tuple[int, ...]
    out_player: int | None
    #: The hands as scored, by seat: a deal's end lays them open for the count (none for a
    #: void deal, which is not scored).
    hands: tuple[tuple[Card, ...], ...] = field(default=(), repr=False)


@dataclass(frozen=True, slots=True)
class GameEnded:
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    #: Every deal attempt's seed in hex, revealed now that no deal is left to play.
    deal_seeds: tuple[str, ...] = field(default=(), repr=False)


Event = (
    DealStarted
    | TurnStarted
    | DrewFromStock
    | TookUpcard
    | BuyRequested
    | BuyCancelled
    | BuyAwarded
    | UpcardDead
    | Restocked
    | WentDown
    | LaidOff
    | JokerSwapped
    | Discarded
    | WentOut
    | DealEnded
    | GameEnded
)
