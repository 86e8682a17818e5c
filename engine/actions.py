"""Actions: what a player asks the game to do. Each prints as text and parses back.

Text forms (``parse_action``): ``draw``, ``take``, ``buy-in-turn``, ``buy``, ``cancel-buy``,
``discard 7H``, ``down set: 8H 8S 8C | run: 3H 4H JK=5H 6H``, ``down ... with 8C>1@2``,
``down ... then 9H>2:high`` (lay off straight after going down), ``meld set: ...`` (Rummy),
``layoff 7H>2:high, JK>0:C``, ``swap 8C>1@2``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .cards import Card
from .errors import Unreadable
from .melds import End, Meld


@dataclass(frozen=True, slots=True)
class DrawStock:
    """P draws the top stock card; this closes the buy window and settles buys."""

    name: ClassVar[str] = "draw"

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class TakeUpcard:
    """P takes the live upcard as the draw."""

    name: ClassVar[str] = "take"

    def __str__(self) -> str:
        return "take"


@dataclass(frozen=True, slots=True)
class BuyInTurn:
    """Two-player ``in_turn_buy``: P takes the upcard plus penalty cards as the draw."""

    name: ClassVar[str] = "buy-in-turn"

    def __str__(self) -> str:
        return "buy-in-turn"


@dataclass(frozen=True, slots=True)
class RequestBuy:
    """Another player asks to buy the live upcard."""

    name: ClassVar[str] = "buy"

    def __str__(self) -> str:
        return "buy"


@dataclass(frozen=True, slots=True)
class CancelBuy:
    """Withdraw one's pending buy request."""

    name: ClassVar[str] = "cancel-buy"

    def __str__(self) -> str:
        return "cancel-buy"


@dataclass(frozen=True, slots=True)
class Swap:
    """Put natural ``card`` in place of the wild at ``position`` of table meld ``meld``."""

    card: Card
    meld: int
    position: int

    def __str__(self) -> str:
        return f"{self.card}>{self.meld}@{self.position}"

    @staticmethod
    def parse(text: str) -> Swap:
        card, _, rest = text.strip().partition(">")
        meld, _, position = rest.partition("@")
        try:
            return Swap(Card.parse(card), int(meld), int(position))
        except ValueError:
            raise Unreadable(
                f"{text!r}: a swap reads like 8C>1@2 (card>meld@position)",
                code="parse.swap",
                text=text.strip(),
            ) from None


@dataclass(frozen=True, slots=True)
class GoDown:
    """Lay the whole contract as one atomic action.

    ``swaps`` (only under ``anyone_then_go_down``) are made first, against the table before
    the go-down. ``layoffs`` (only under ``layoff_on_going_down_turn``) follow the
    melds; their meld numbers count the new melds too, which are appended to the table in
    the order given. Only the hand left after everything is judged by the going-out rule,
    which is how preset_004 goes down and lays off its last card in one play.
    """

    melds: tuple[Meld, ...]
    swaps: tuple[Swap, ...] = ()
    layoffs: tuple[LayOffItem, ...] = ()
    name: ClassVar[str] = "down"

    def __str__(self) -> str:
        text = "down " + " | ".join(str(m) for m in self.melds)
        if self.swaps:
            text += " with " + ", ".join(str(s) for s in self.swaps)
        if self.layoffs:
            text += " then " + ", ".join(str(i) for i in self.layoffs)
        return text


@dataclass(frozen=True, slots=True)
class LayMelds:
    """Classic Rummy: lay any number of new melds."""

    melds: tuple[Meld, ...]
    name: ClassVar[str] = "meld"

    def __str__(self) -> str:
        return "meld " + " | ".join(str(m) for m in self.melds)


@dataclass(frozen=True, slots=True)
class LayOffItem:
    """One card onto table meld ``meld``: ``end`` for runs, ``suit`` for a set wild."""

    card: Card
    meld: int
    end: End | None = None
    suit: str | None = None

    def __str__(self) -> str:
        tail = f":{self.end}" if self.end else f":{self.suit}" if self.suit else ""
        return f"{self.card}>{self.meld}{tail}"

    @staticmethod
    def parse(text: str) -> LayOffItem:
        card, _, rest = text.strip().partition(">")
        meld, _, tail = rest.partition(":")
        try:
            index = int(meld)
        except ValueError:
            raise Unreadable(
                f"{text!r}: a lay-off reads like 7H>2:high (card>meld:end)",
                code="parse.layoff",
                text=text.strip(),
            ) from None
        tail = tail.strip().lower()
        if tail in ("low", "high"):
            return LayOffItem(Card.parse(card), index, "low" if tail == "low" else "high")
        return LayOffItem(Card.parse(card), index, None, tail.upper() or None)


@dataclass(frozen=True, slots=True)
class LayOff:
    """A batch of lay-offs, applied in order, all or none."""

    items: tuple[LayOffItem, ...]
    name: ClassVar[str] = "layoff"

    def __str__(self) -> str:
        return "layoff " + ", ".join(str(i) for i in self.items)


@dataclass(frozen=True, slots=True)
class SwapJoker:
    """A down player's swap on their own turn."""

    swap: Swap
    name: ClassVar[str] = "swap"

    def __str__(self) -> str:
        return f"swap {self.swap}"


@dataclass(frozen=True, slots=True)
class Discard:
    """End the turn by discarding ``card``."""

    card: Card
    name: ClassVar[str] = "discard"

    def __str__(self) -> str:
        return f"discard {self.card}"


Action = (
    DrawStock
    | TakeUpcard
    | BuyInTurn
    | RequestBuy
    | CancelBuy
    | GoDown
    | LayMelds
    | LayOff
    | SwapJoker
    | Discard
)

_SIMPLE: dict[str, Action] = {
    "draw": DrawStock(),
    "take": TakeUpcard(),
    "buy-in-turn": BuyInTurn(),
    "buy": RequestBuy(),
    "cancel-buy": CancelBuy(),
}


def parse_action(text: str) -> Action:
    """The action written as ``str(action)``; raises ``ValueError`` for anything else."""
    verb, _, rest = text.strip().partition(" ")
    verb = verb.lower()
    if verb in _SIMPLE and not rest.strip():
        return _SIMPLE[verb]
    if verb == "discard":
        return Discard(Card.parse(rest))
    if verb in ("down", "meld"):
        rest, _, layoffs_text = rest.partition(" then ")
        melds_text, _, swaps_text = rest.partition(" with ")
        melds = tuple(Meld.parse(part) for part in melds_text.split("|"))
        if verb == "meld":
            return LayMelds(melds)
        swaps = tuple(Swap.parse(s) for s in swaps_text.split(",") if s.strip())
        layoffs = tuple(LayOffItem.parse(i) for i in layoffs_text.split(",") if i.strip())
        return GoDown(melds, swaps, layoffs)
    if verb == "layoff":
        return LayOff(tuple(LayOffItem.parse(part) for part in rest.split(",")))
    if verb == "swap":
        return SwapJoker(Swap.parse(rest))
    raise Unreadable(f"{text!r} is not an action", code="parse.action", text=text.strip())
