"""Checking and planning a play step, without touching the state.

A play-step action (going down, laying melds, laying off, swapping a joker, discarding) is
first *planned*: the resulting hand and table are computed on copies and every rule is
checked, raising the ``IllegalAction`` subclass that names the broken rule. ``Game`` then
commits the ``Plan`` (``Game._commit_play``), so an illegal play never changes the game.
``lay_off_onto``, ``placement`` and ``check_swap_target`` need only the rules and are shared
with ``GoDownBuilder`` and the legal-move lists.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .actions import Action, Discard, GoDown, LayMelds, LayOff, LayOffItem, Swap, SwapJoker
from .cards import Card
from .contracts import check_contract
from .errors import CardNotInHand, HandSizeRule, IllegalAction, IllegalMeld, WrongStep
from .melds import Meld, MeldCard
from .rules import Rules

if TYPE_CHECKING:
    from .game import Game


class Plan:
    """The computed result of a play-step action, applied by ``_commit_play``."""

    __slots__ = (
        "goes_down",
        "hand",
        "laid_down",
        "laid_off",
        "new_melds",
        "swapped",
        "table",
        "wild_used",
    )

    def __init__(
        self,
        hand: list[Card] | None = None,
        table: list[Meld] | None = None,
        new_melds: list[Meld] | None = None,
        laid_down: list[Meld] | None = None,
        laid_off: list[LayOffItem] | None = None,
        swapped: list[tuple[Swap, Card]] | None = None,
        goes_down: bool = False,
        wild_used: bool = False,
    ) -> None:
        self.hand = hand
        self.table = table
        self.new_melds = new_melds or []
        #: The melds as laid down, before any same-action lay-offs (for the event).
        self.laid_down = laid_down or []
        self.laid_off = laid_off or []
        self.swapped = swapped or []
        self.goes_down = goes_down
        self.wild_used = wild_used


def remove_cards(hand: Counter[Card], used: Counter[Card]) -> None:
    """Take ``used`` out of ``hand`` (changed in place), or raise ``CardNotInHand``."""
    for card, count in used.items():
        if hand[card] < count:
            raise CardNotInHand(
                f"You don't hold enough {card.pretty()} for those melds",
                code="card.not_enough",
                card=card.pretty(),
            )
        hand[card] -= count


def plan_play(game: Game, seat: int, action: Action) -> Plan:
    """Work out the effect of a play-step action without touching the state."""
    if isinstance(action, Discard):
        _check_discard(game, seat, action.card)
        return Plan()
    if isinstance(action, GoDown):
        return _plan_go_down(game, seat, action)
    if isinstance(action, LayMelds):
        return _plan_lay_melds(game, seat, action)
    if isinstance(action, LayOff):
        return _plan_lay_off(game, seat, action.items)
    if isinstance(action, SwapJoker):
        return _plan_swap(game, seat, action.swap)
    raise WrongStep(f"{action} is not a play-step action", code="wrong_step")


def _check_discard(game: Game, seat: int, card: Card) -> None:
    hand = game.hands[seat]
    if card not in hand:
        raise CardNotInHand(
            f"You don't hold {card.pretty()}", code="card.not_in_hand", card=card.pretty()
        )
    if len(hand) == 1 and game.rules.final_discard == "forbidden":
        raise HandSizeRule(
            "At this table you may not go out by discarding", code="discard.no_discard_out"
        )
    if not game.is_shanghai and card == game.taken_upcard:
        raise IllegalAction(
            f"You took {card.pretty()} from the discard pile this turn: discard another card",
            code="discard.taken_upcard",
            card=card.pretty(),
        )


def _check_hand_left(game: Game, left: list[Card]) -> None:
    """The going-out rule: the hand a play leaves must still allow a legal end of turn."""
    final = game.rules.final_discard
    if not left:
        if final == "required":
            raise HandSizeRule(
                "At this table you must go out by discarding: keep one card to discard",
                code="go_out.keep_one",
            )
        return
    if final == "forbidden" and len(left) == 1:
        raise HandSizeRule(
            "At this table you may not go out by discarding, so a play may not leave "
            "exactly one card: play your last cards together",
            code="go_out.not_one_left",
        )
    if (
        not game.is_shanghai
        and game.taken_upcard is not None
        and len(left) == 1
        and left[0] == game.taken_upcard
    ):
        raise HandSizeRule(
            "That would leave only the card you took from the discard pile, which you "
            "may not discard this turn",
            code="go_out.only_taken_card",
        )


def _plan_go_down(game: Game, seat: int, action: GoDown) -> Plan:
    rules = game.rules
    if not game.is_shanghai:
        raise IllegalAction("Rummy has no contract: lay melds instead", code="go_down.rummy")
    if game.down[seat]:
        raise IllegalAction(
            "You are already down this deal; lay off instead", code="go_down.already_down"
        )
    hand = Counter(game.hands[seat])
    table = [m.meld for m in game.melds]
    freed: list[Card] = []
    if action.swaps:
        if rules.joker_swap != "anyone_then_go_down":
            raise IllegalAction(
                "At this table only a player who is down may swap jokers", code="swap.only_down"
            )
        for swap in action.swaps:
            wild = check_swap_target(rules, table, swap, hand)
            table[swap.meld] = table[swap.meld].replace(swap.position, swap.card)
            hand[swap.card] -= 1
            hand[wild] += 1
            freed.append(wild)
    check_contract(action.melds, game.contract, rules)
    used = Counter(c.card for m in action.melds for c in m.cards)
    remove_cards(hand, used)
    wild_used = any(c.is_wild_in(m.kind, rules) for m in action.melds for c in m.cards)
    new_melds = list(action.melds)
    if action.layoffs:
        if not rules.layoff_on_going_down_turn:
            raise IllegalAction(
                "You can't lay off on the turn you go down", code="layoff.going_down_turn"
            )
        after = table + new_melds
        wild_used = lay_off_onto(rules, after, hand, action.layoffs) or wild_used
        table, new_melds = after[: len(table)], after[len(table) :]
    left = list(hand.elements())
    _check_hand_left(game, left)
    return Plan(
        hand=left,
        table=table,
        new_melds=new_melds,
        laid_down=list(action.melds),
        laid_off=list(action.layoffs),
        goes_down=True,
        wild_used=wild_used,
        swapped=[(s, w) for s, w in zip(action.swaps, freed, strict=True)],
    )


def _plan_lay_melds(game: Game, seat: int, action: LayMelds) -> Plan:
    if game.is_shanghai:
        raise IllegalAction(
            "In Shanghai new melds go down only as the contract",
            code="meld.shanghai_contract_only",
        )
    if not action.melds:
        raise IllegalMeld("Choose at least one meld", code="meld.choose_one")
    for meld in action.melds:
        meld.check(game.rules)
    hand = Counter(game.hands[seat])
    remove_cards(hand, Counter(c.card for m in action.melds for c in m.cards))
    left = list(hand.elements())
    _check_hand_left(game, left)
    return Plan(hand=left, table=[m.meld for m in game.melds], new_melds=list(action.melds))


def _plan_lay_off(game: Game, seat: int, items: Sequence[LayOffItem]) -> Plan:
    rules = game.rules
    if not items:
        raise IllegalAction("Choose at least one card to lay off", code="layoff.choose_card")
    if game.is_shanghai:
        if not game.down[seat]:
            raise IllegalAction(
                "You can lay off only after you have gone down this deal",
                code="layoff.not_down",
            )
        if game.went_down_this_turn and not rules.layoff_on_going_down_turn:
            raise IllegalAction(
                "You can't lay off on the turn you go down", code="layoff.going_down_turn"
            )
    elif rules.layoff_requires_own_meld and not game.played_this_deal[seat]:
        raise IllegalAction(
            "At this table you must lay a meld of your own before laying off",
            code="layoff.own_meld_first",
        )
    hand = Counter(game.hands[seat])
    table = [m.meld for m in game.melds]
    wild_used = lay_off_onto(rules, table, hand, items)
    left = list(hand.elements())
    _check_hand_left(game, left)
    return Plan(hand=left, table=table, laid_off=list(items), wild_used=wild_used)


def meld_at(table: Sequence[Meld], index: int) -> Meld:
    """The meld a lay-off or swap names, or ``IllegalAction`` when the table has none there."""
    if not 0 <= index < len(table):
        raise IllegalAction(
            f"There is no meld number {index} on the table",
            code="meld.no_such_meld",
            number=index + 1,
        )
    return table[index]


def lay_off_onto(
    rules: Rules, table: list[Meld], hand: Counter[Card], items: Sequence[LayOffItem]
) -> bool:
    """Apply ``items`` in order to ``table`` and ``hand`` (both changed in place; the
    callers work on copies). Returns whether a wild left the hand."""
    wild_used = False
    for item in items:
        if hand[item.card] <= 0:
            raise CardNotInHand(
                f"You don't hold {item.card.pretty()} to lay off",
                code="layoff.not_in_hand",
                card=item.card.pretty(),
            )
        meld = meld_at(table, item.meld)
        placed, end = placement(rules, meld, item)
        new_meld = meld.add(placed, end)
        new_meld.check(rules)
        table[item.meld] = new_meld
        hand[item.card] -= 1
        wild_used = wild_used or placed.is_wild_in(meld.kind, rules)
    return wild_used


def placement(rules: Rules, meld: Meld, item: LayOffItem) -> tuple[MeldCard, Any]:
    """Where ``item`` goes on ``meld``: the one placement its named end (runs) or suit (a set
    wild) picks; raises ``IllegalMeld`` when it fits nowhere or the choice is ambiguous."""
    options = meld.placements(item.card, rules)
    if not options:
        raise IllegalMeld(
            f"{item.card.pretty()} does not fit the {meld.kind} {meld}",
            code="layoff.does_not_fit",
            card=item.card.pretty(),
            number=item.meld + 1,
        )
    if meld.kind == "run":
        if item.end is not None:
            options = [o for o in options if o[1] == item.end]
            if not options:
                raise IllegalMeld(
                    f"{item.card.pretty()} does not fit the {item.end} end of {meld}",
                    code="layoff.wrong_end",
                    card=item.card.pretty(),
                    end=item.end,
                    number=item.meld + 1,
                )
        elif len(options) > 1:
            raise IllegalMeld(
                f"Say which end of {meld} {item.card.pretty()} goes to (low or high)",
                code="layoff.which_end",
                card=item.card.pretty(),
                number=item.meld + 1,
            )
        return options[0]
    if len(options) > 1:
        suits = [o for o in options if o[0].suit == item.suit]
        if not suits:
            raise IllegalMeld(
                "Name the suit the wild plays as in this set (C, D, H or S)",
                code="layoff.name_suit",
            )
        return suits[0]
    return options[0]


def check_swap_target(rules: Rules, table: list[Meld], swap: Swap, hand: Counter[Card]) -> Card:
    """Validate a swap against ``table`` and ``hand``; return the wild it frees."""
    if rules.joker_swap == "off":
        raise IllegalAction("Joker swaps are off at this table", code="swap.off")
    if hand[swap.card] <= 0:
        raise CardNotInHand(
            f"You don't hold {swap.card.pretty()}",
            code="card.not_in_hand",
            card=swap.card.pretty(),
        )
    meld = meld_at(table, swap.meld)
    if not 0 <= swap.position < len(meld.cards):
        raise IllegalAction(
            f"The meld {meld} has no card at position {swap.position}",
            code="swap.no_position",
            number=swap.meld + 1,
            position=swap.position + 1,
        )
    placed = meld.cards[swap.position]
    if not placed.is_wild_in(meld.kind, rules):
        raise IllegalAction(
            f"{placed.card.pretty()} in {meld} is not a wild",
            code="swap.not_wild",
            card=placed.card.pretty(),
            number=swap.meld + 1,
        )
    card = swap.card
    suit_ok = card.suit == placed.suit or (meld.kind == "set" and placed.suit is None)
    if card.rank != placed.rank or not suit_ok:
        raise IllegalAction(
            f"Only the card the wild stands for ({placed.identity}) can replace it",
            code="swap.wrong_card",
            card=str(placed.identity),
        )
    return placed.card


def _plan_swap(game: Game, seat: int, swap: Swap) -> Plan:
    rules = game.rules
    if rules.joker_swap == "off":
        raise IllegalAction("Joker swaps are off at this table", code="swap.off")
    if not game.down[seat]:
        if rules.joker_swap == "anyone_then_go_down":
            raise IllegalAction(
                "Before you are down you may swap only as part of going down",
                code="swap.with_going_down_only",
            )
        raise IllegalAction(
            "You can swap a joker only after you have gone down", code="swap.not_down"
        )
    if game.went_down_this_turn and not rules.layoff_on_going_down_turn:
        raise IllegalAction("You can't swap on the turn you go down", code="swap.going_down_turn")
    hand = Counter(game.hands[seat])
    table = [m.meld for m in game.melds]
    wild = check_swap_target(rules, table, swap, hand)
    table[swap.meld] = table[swap.meld].replace(swap.position, swap.card)
    hand[swap.card] -= 1
    hand[wild] += 1
    return Plan(hand=list(hand.elements()), table=table, swapped=[(swap, wild)])
