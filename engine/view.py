"""What one player may see (OpenSpiel's information state): built fresh from the game, so a
caller can only ever hold what its seat is entitled to. ``player`` None is a spectator.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .cards import Card
from .melds import Meld
from .rules import Contract, Rules

Step = Literal["draw", "play", "over"]


@dataclass(frozen=True, slots=True)
class SeatView:
    """The public facts about one seat."""

    player: str
    hand_size: int
    is_down: bool
    buys_used: int
    total: int


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table, the seat that laid it, and who laid off which card on it.

    ``laid_off`` lists (seat, card) in the order the cards were laid off; it is shown to
    players and kept with the game, and never affects the score.
    """

    owner: int
    meld: Meld
    laid_off: tuple[tuple[int, Card], ...] = ()


MoveKind = Literal[
    "turned", "took", "bought", "discarded", "went_down", "laid_off", "swapped", "went_out"
]

#: The kinds a deal's history held before lay-downs, lay-offs, swaps and going out were kept
#: (the pile moves); states saved then hold only these.
PILE_KINDS: frozenset[str] = frozenset(("turned", "took", "bought", "discarded"))


@dataclass(frozen=True, slots=True)
class PublicMove:
    """One move every player at the table saw, in the order of the deal.

    - ``turned``: the dealer turned ``card``, the deal's first upcard (always first);
    - ``took`` / ``bought``: ``seat`` took ``card`` from the pile as its draw, or bought it
      (the penalty card stays hidden, so it is never here);
    - ``discarded``: ``seat`` threw ``card``;
    - ``went_down``: ``seat`` laid ``melds`` (as laid, before any lay-off of the same play);
    - ``laid_off``: ``seat`` laid ``card`` off on the table's meld number ``meld``;
    - ``swapped``: ``seat`` put ``card`` into meld number ``meld`` and took ``wild`` out;
    - ``went_out``: ``seat`` played its last card (the deal ends, and the next deal starts
      a history of its own: so this is seen in the last deal's, at the game's end).

    A stock draw is not a move here at all: only that it happened is public, and it follows
    from the absence of a take. Meld numbers index ``PlayerView.melds``, which within a deal
    only ever grows at its end.
    """

    seat: int
    kind: MoveKind
    card: Card | None = None
    melds: tuple[Meld, ...] = ()
    meld: int | None = None
    wild: Card | None = None


#: The pile moves made so far, shared: a move is an immutable value and there are only so
#: many (seat, kind, card) of them, so the engine's hot path looks one up instead of building
#: a frozen dataclass at every take and discard.
_PILE_MOVES: dict[tuple[int, str, Card], PublicMove] = {}


def pile_move(seat: int, kind: MoveKind, card: Card) -> PublicMove:
    """``PublicMove(seat, kind, card)``, shared (see ``_PILE_MOVES``); cards are interned,
    so the cache holds at most seats x 4 kinds x 54 cards."""
    key = (seat, kind, card)
    move = _PILE_MOVES.get(key)
    if move is None:
        move = _PILE_MOVES[key] = PublicMove(seat, kind, card)
    return move


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything ``player`` may know now; ``hand`` is None for spectators."""

    player: str | None
    seat: int | None
    rules: Rules
    deal: int
    contract: Contract
    dealer: int
    current: int
    step: Step
    hand: tuple[Card, ...] | None
    seats: tuple[SeatView, ...]
    melds: tuple[TableMeld, ...]
    upcard: Card | None
    upcard_live: bool
    #: Who discarded the card now on top of the pile (None for a deal's first upcard); after
    #: a buy that is the owner of the card under the bought one.
    discarder: int | None
    stock_size: int
    discard_size: int
    buy_limit: int | None
    #: Whether this player has a pending buy request (requests are acknowledged privately).
    my_buy_requested: bool
    #: The card this player took from the discard pile this turn, if any.
    taken_upcard: Card | None
    went_down_this_turn: bool
    score_sheet: tuple[tuple[int, ...], ...]
    is_over: bool
    winners: tuple[int, ...]
    restocks: int
    #: This deal's public moves in order (what a player at a real table sees and remembers).
    history: tuple[PublicMove, ...] = ()
    #: The SHA-256 (hex) of this deal's seed, public from its start (None without seeds).
    commitment: str | None = field(default=None, repr=False)
    #: Every deal attempt's seed in hex once the game is over, to check each deal's shuffle.
    deal_seeds: tuple[str, ...] = field(default=(), repr=False)
