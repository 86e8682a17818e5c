"""Events: what happened, as the table may be told. They carry only public information; a
private detail (the card a player drew from the stock) stays in that player's view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .cards import Card
from .melds import Meld


@dataclass(frozen=True, slots=True)
class DealStarted:
    deal: int
    dealer: int
    first_player: int
    upcard: Card


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


@dataclass(frozen=True, slots=True)
class GameEnded:
    winners: tuple[int, ...]
    totals: tuple[int, ...]


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
