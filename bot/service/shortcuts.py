"""Plays of several engine actions that a person makes in one pick.

A turn is at least two clicks (draw, discard). What made turns longer were the plays between:
laying down, laying off card by card, and a joker swapped out and laid off again. This module
works out, on copies of the live game (it changes nothing), the few compound plays a person
would make anyway and proves each one legal before the hand offers it:

- **lay off all that fits**: every natural whose place is the only one it has, second copies
  on a set and chained run cards included (8♥ then 9♥ on a run ending at 7♥);
- **lay down / lay off all, then discard**: the turn's last two plays in one pick (lay down,
  lay off all, then discard where the rules allow a lay-off on the turn of going down);
- **swap a joker and place it**: the swap and the freed wild's lay-off together, a wild on a
  set declared with ``engine.wild_suits`` so no suit is asked;
- **lay the new melds, then discard** (Rummy): the melds the hand holds that share no card,
  the most cards first, then the discard;
- **take the upcard, then discard**: the whole of most turns that take the upcard, in one
  pick. Unlike a draw from the stock it hides nothing: the player sees the card they take,
  so deciding the discard before taking it is what a person at a real table does.

The service carries a compound play out as its actions in order, each committed as it goes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bot.service.buy_window import take_can_lose_to_buys
from bot.service.legal_plays import BIG_HAND
from engine.actions import (
    Action,
    Discard,
    GoDown,
    LayMelds,
    LayOff,
    LayOffItem,
    SwapJoker,
    TakeUpcard,
)
from engine.cards import Card
from engine.errors import IllegalAction
from engine.game import Game
from engine.legal_moves import lay_off_items
from engine.melds import Meld
from engine.wild_suits import one_place_per_meld

#: A compound play as the engine's actions, in the order they are applied.
Plays = tuple[Action, ...]


@dataclass(frozen=True)
class Shortcuts:
    """The compound plays open to the seat to move, each proved legal on a copy."""

    #: Every card with one place, in an order the engine accepts (None: no card has one).
    #: The hand offers it as a button of its own from two cards on.
    lay_off_all: LayOff | None = None
    #: The cards that may be thrown right after the proposed lay-down.
    down_then_discard: tuple[Card, ...] = ()
    #: Where the rules let a player lay off on the turn they go down (preset_004): every
    #: card with one place right after the proposed lay-down, and the cards that may be
    #: thrown after both.
    down_lay_all: LayOff | None = None
    down_lay_all_then_discard: tuple[Card, ...] = ()
    #: The cards that may be thrown right after ``lay_off_all``.
    lay_all_then_discard: tuple[Card, ...] = ()
    #: Each joker swap with one place for the freed wild, swap first.
    swap_and_place: tuple[tuple[SwapJoker, LayOffItem], ...] = ()
    #: In the draw step: the cards that may be thrown right after taking the upcard.
    take_then_discard: tuple[Card, ...] = ()
    #: Rummy: the new melds laid in one pick (``new_melds``), and the cards that may be
    #: thrown right after them.
    new_melds: tuple[Meld, ...] = ()
    melds_then_discard: tuple[Card, ...] = ()


NONE = Shortcuts()


def shortcuts_for(game: Game, seat: int, legal: Sequence[Action]) -> Shortcuts:
    """The seat's compound plays now; nothing when it is not their turn."""
    player = game.players[seat]
    if game.is_over or game.current != seat or game.step not in ("draw", "play"):
        return NONE
    if len(game.hands[seat]) >= BIG_HAND:
        # Each compound play asks for the legal plays of a copy after its first action, which
        # for a hand piled up by unlimited buys costs seconds: such a hand keeps plain controls.
        return NONE
    if game.step == "draw":
        take = next((a for a in legal if isinstance(a, TakeUpcard)), None)
        if take is not None and take_can_lose_to_buys(game, seat):
            return NONE  # the card is not sure to be theirs: no discard chosen with it
        return Shortcuts(take_then_discard=_discards_after(game, player, take))
    proposal = next((a for a in legal if isinstance(a, GoDown)), None)
    batch = lay_off_all(game, seat) if any(isinstance(a, LayOff) for a in legal) else None
    melds = new_melds(game, seat, legal)
    down = _after(game, player, proposal) if proposal is not None else None
    down_batch = None
    if down is not None and _still_playing(down, player) and game.rules.layoff_on_going_down_turn:
        down_batch = lay_off_all(down, seat)
    return Shortcuts(
        lay_off_all=batch,
        down_then_discard=_discards_in(down, player),
        down_lay_all=down_batch,
        down_lay_all_then_discard=(
            _discards_after(down, player, down_batch) if down is not None else ()
        ),
        lay_all_then_discard=_discards_after(game, player, batch),
        swap_and_place=tuple(_swaps_placed(game, seat, legal)),
        new_melds=melds,
        melds_then_discard=_discards_after_all(game, player, [LayMelds((m,)) for m in melds]),
    )


def new_melds(game: Game, seat: int, legal: Sequence[Action]) -> tuple[Meld, ...]:
    """Rummy's new melds the hand holds, each legal after the ones before it: the longest
    first, then the next that shares no card with them (a player who wants another meld, or
    to keep one back, picks its cards in the meld select)."""
    offered = sorted(
        (a.melds[0] for a in legal if isinstance(a, LayMelds) and len(a.melds) == 1),
        key=lambda m: -len(m),
    )
    player = game.players[seat]
    trial = game.copy()
    chosen: list[Meld] = []
    for meld in offered:
        try:
            trial.apply(player, LayMelds((meld,)))
        except IllegalAction:
            continue  # shares a card with one chosen (or the rules refuse it now)
        chosen.append(meld)
        if not _still_playing(trial, player):
            break
    return tuple(chosen)


def lay_off_all(game: Game, seat: int) -> LayOff | None:
    """Naturals laid off one at a time while some card has exactly one place (E24: the bot
    fills in a place only when it is the only one), kept only if the engine takes the batch
    and it leaves the turn a legal way on."""
    rules = game.rules
    player = game.players[seat]
    trial = game.copy()
    items: list[LayOffItem] = []
    refused: set[LayOffItem] = set()
    while True:
        table = [m.meld for m in trial.melds]
        hand = [c for c in dict.fromkeys(trial.hand_of(player)) if not rules.is_wild(c)]
        item = next(
            (
                only[0]
                for card in sorted(hand, key=Card.sort_key)
                if len(only := lay_off_items(table, [card], rules)) == 1 and only[0] not in refused
            ),
            None,
        )
        if item is None:
            break
        try:
            trial.apply(player, LayOff((item,)))
        except IllegalAction:
            refused.add(item)
            continue
        items.append(item)
        if trial.is_over or trial.current != seat or trial.step != "play":
            break
    while items:
        batch = LayOff(tuple(items))
        if _leads_on(game, player, batch):
            return batch
        items.pop()
    return None


def _after(game: Game, player: str, play: Action) -> Game | None:
    """A copy of ``game`` with ``play`` applied, or None if the engine refuses it."""
    trial = game.copy()
    try:
        trial.apply(player, play)
    except IllegalAction:
        return None
    return trial


def _still_playing(trial: Game, player: str) -> bool:
    return not trial.is_over and trial.current_player == player


def _leads_on(game: Game, player: str, play: Action) -> bool:
    """Whether the engine takes ``play`` and the turn can still go on (or is over) after it."""
    trial = _after(game, player, play)
    if trial is None:
        return False
    return not _still_playing(trial, player) or bool(trial.legal_actions(player))


def _discards_after(game: Game, player: str, play: Action | None) -> tuple[Card, ...]:
    """The cards the player may throw straight after ``play`` (none if it ends the turn)."""
    return _discards_in(None if play is None else _after(game, player, play), player)


def _discards_in(trial: Game | None, player: str) -> tuple[Card, ...]:
    """The cards the player may throw in ``trial`` (none if their turn is over there)."""
    if trial is None or not _still_playing(trial, player):
        return ()
    cards = {a.card for a in trial.legal_actions(player) if isinstance(a, Discard)}
    return tuple(sorted(cards, key=Card.sort_key))


def _discards_after_all(game: Game, player: str, plays: Sequence[Action]) -> tuple[Card, ...]:
    """The cards the player may throw straight after ``plays`` in order (none if they end
    the turn or one is refused)."""
    trial: Game | None = game
    for play in plays:
        if trial is None or not _still_playing(trial, player):
            return ()
        trial = _after(trial, player, play)
    return _discards_in(trial, player) if plays else ()


def _swaps_placed(
    game: Game, seat: int, legal: Sequence[Action]
) -> list[tuple[SwapJoker, LayOffItem]]:
    player = game.players[seat]
    found: list[tuple[SwapJoker, LayOffItem]] = []
    for swap in (a for a in legal if isinstance(a, SwapJoker)):
        after = _after(game, player, swap)
        if after is None:
            continue
        freed = Counter(after.hand_of(player)) - Counter(game.hand_of(player))
        for wild in freed:  # the one card the swap put in the hand
            for item in one_per_place(after, player, wild):
                if _after(after, player, LayOff((item,))) is not None:
                    found.append((swap, item))
    return found


def one_per_place(game: Game, player: str, wild: Card) -> list[LayOffItem]:
    """The places ``wild`` may go now, one per meld and end (a set's suit declared for the
    player, ``engine.wild_suits``)."""
    table = [m.meld for m in game.melds]
    items = lay_off_items(table, [wild], game.rules)
    return one_place_per_meld(items, table, game.hand_of(player), game.rules, len(game.players))
