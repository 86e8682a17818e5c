"""Building a go-down one step at a time, the engine judging every step.

``Game.legal_actions`` lists the go-down the solver proposes (per choice of swaps, plus the
go-down-and-lay-off bundle); the full set of go-downs, every split of the hand into
melds and every identity of every wild, is far too large to list. A player who wants
another one builds it here, which is the documented way to reach every go-down ``apply``
accepts:

1. ``with_swap`` (only under ``joker_swap: anyone_then_go_down``, before any meld);
2. ``with_meld`` once per contract slot, in any order; ``meld_readings(cards, kind)`` lists
   every way a handful of cards reads as a set or run (each wild's identity included);
3. ``with_layoff`` (only under ``layoff_on_going_down_turn``, once the contract is complete);
   ``layoff_options`` lists them;
4. ``action()`` is the ``GoDown``; ``check()`` asks the game whether it is legal.

Each step raises the ``IllegalAction`` that the step already breaks, leaving the builder as it
was (builders are immutable values: a step returns a new builder). A builder that accepted
every step may still fail ``check()`` on the going-out rule, which only the whole play
decides; ``check()`` then says why.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import permutations, product

from .actions import GoDown, LayOffItem, Swap
from .cards import ACE, SUITS, Card
from .contracts import check_meld_size, check_runs_separated, check_set_ranks_distinct
from .errors import ContractNotMet, IllegalAction, NotYourTurn, WrongStep
from .game import Game
from .legal_moves import lay_off_items, swap_candidates
from .melds import Meld, MeldCard
from .play_plans import check_swap_target, lay_off_onto, remove_cards
from .rules import Rules, SlotKind, describe_contract


@dataclass(frozen=True)
class GoDownBuilder:
    """A go-down under construction for ``player``: swaps, then melds, then lay-offs."""

    game: Game
    player: str
    swaps: tuple[Swap, ...] = ()
    melds: tuple[Meld, ...] = ()
    layoffs: tuple[LayOffItem, ...] = ()

    @staticmethod
    def start(game: Game, player: str) -> GoDownBuilder:
        """A new builder; raises ``NotYourTurn`` / ``WrongStep`` / ``IllegalAction`` when
        ``player`` cannot go down now at all."""
        seat = game.seat_of(player)
        if seat != game.current:
            raise NotYourTurn(
                f"It is {game.current_player}'s turn, not yours", code="turn.not_yours"
            )
        if game.step != "play":
            raise WrongStep(
                "Draw first: take the upcard or draw from the stock", code="step.draw_first"
            )
        if not game.is_shanghai:
            raise IllegalAction("Rummy has no contract: lay melds instead", code="go_down.rummy")
        if game.down[seat]:
            raise IllegalAction(
                "You are already down this deal; lay off instead", code="go_down.already_down"
            )
        return GoDownBuilder(game, player)

    # -- what is left ---------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self.game.rules

    def table(self) -> list[Meld]:
        """The table as it stands after this builder's swaps, melds and lay-offs."""
        table = [m.meld for m in self.game.melds]
        for swap in self.swaps:
            table[swap.meld] = table[swap.meld].replace(swap.position, swap.card)
        table.extend(self.melds)
        hand = Counter(self.game.hand_of(self.player)) + Counter(self._freed())
        lay_off_onto(self.rules, table, hand, self.layoffs)
        return table

    def hand(self) -> Counter[Card]:
        """The cards still in hand: after the swaps, less the melds' and lay-offs' cards."""
        hand = Counter(self.game.hand_of(self.player))
        for swap, wild in zip(self.swaps, self._freed(), strict=True):
            hand[swap.card] -= 1
            hand[wild] += 1
        hand.subtract(c.card for m in self.melds for c in m.cards)
        hand.subtract(item.card for item in self.layoffs)
        return +hand

    def open_slots(self) -> list[tuple[SlotKind, int]]:
        """The contract's slots no meld fills yet, as (kind, size)."""
        slots = list(self.game.contract)
        for meld in self.melds:
            for slot in slots:
                if slot[0] == meld.kind:
                    slots.remove(slot)
                    break
        return slots

    @property
    def complete(self) -> bool:
        return not self.open_slots()

    def _freed(self) -> list[Card]:
        table = [m.meld for m in self.game.melds]
        freed = []
        for swap in self.swaps:
            freed.append(table[swap.meld].cards[swap.position].card)
            table[swap.meld] = table[swap.meld].replace(swap.position, swap.card)
        return freed

    # -- steps ------------------------------------------------------------------------------

    def swap_options(self) -> list[Swap]:
        """The swaps ``with_swap`` accepts now."""
        if self.melds or self.rules.joker_swap != "anyone_then_go_down":
            return []
        table = [m.meld for m in self.game.melds]
        for swap in self.swaps:
            table[swap.meld] = table[swap.meld].replace(swap.position, swap.card)
        options = swap_candidates(table, list(self.hand()), self.rules)
        return [s for s in dict.fromkeys(options) if _accepts(self.with_swap, s)]

    def with_swap(self, swap: Swap) -> GoDownBuilder:
        """Add a swap; raises ``IllegalAction`` naming why it cannot be made."""
        if self.rules.joker_swap != "anyone_then_go_down":
            raise IllegalAction(
                "At this table only a player who is down may swap jokers", code="swap.only_down"
            )
        if self.melds:
            raise WrongStep("Make your swaps before you lay your melds", code="step.swaps_first")
        table = [m.meld for m in self.game.melds]
        for done in self.swaps:
            table[done.meld] = table[done.meld].replace(done.position, done.card)
        check_swap_target(self.rules, table, swap, self.hand())
        return replace(self, swaps=(*self.swaps, swap))

    def meld_readings(self, cards: Sequence[Card], kind: SlotKind) -> list[Meld]:
        """Every valid ``kind`` meld of exactly ``cards`` (each wild's identity spelled
        out); empty when the cards make no such meld."""
        return meld_readings(cards, kind, self.rules)

    def with_meld(self, meld: Meld) -> GoDownBuilder:
        """Add one contract meld; raises ``IllegalMeld`` / ``ContractNotMet`` /
        ``CardNotInHand`` when this meld alone already cannot be part of the go-down."""
        if self.layoffs:
            raise WrongStep("Lay your melds before laying off", code="step.melds_first")
        meld.check(self.rules)
        sizes = [size for kind, size in self.open_slots() if kind == meld.kind]
        if not sizes:
            asked = sum(1 for kind, _ in self.game.contract if kind == meld.kind)
            raise ContractNotMet(
                f"This deal's contract is {describe_contract(self.game.contract)}: "
                f"no {meld.kind} is left",
                code="contract.set_count" if meld.kind == "set" else "contract.run_count",
                count=asked,
                laid=asked + 1,
            )
        check_meld_size(meld, min(sizes), self.game.contract, self.rules)
        remove_cards(self.hand(), Counter(c.card for c in meld.cards))
        melds = (*self.melds, meld)
        check_runs_separated(melds, self.rules)
        check_set_ranks_distinct(melds, self.rules)
        return replace(self, melds=melds)

    def layoff_options(self) -> list[LayOffItem]:
        """The lay-offs ``with_layoff`` accepts now."""
        if not self.complete or not self.rules.layoff_on_going_down_turn:
            return []
        items = lay_off_items(self.table(), list(self.hand()), self.rules)
        return [item for item in items if _accepts(self.with_layoff, item)]

    def with_layoff(self, item: LayOffItem) -> GoDownBuilder:
        """Add a lay-off after the melds; meld numbers count the new melds too."""
        if not self.rules.layoff_on_going_down_turn:
            raise IllegalAction(
                "You can't lay off on the turn you go down", code="layoff.going_down_turn"
            )
        if not self.complete:
            raise WrongStep("Lay the whole contract before laying off", code="step.contract_first")
        lay_off_onto(self.rules, self.table(), self.hand(), (item,))
        return replace(self, layoffs=(*self.layoffs, item))

    # -- the result ---------------------------------------------------------------------------

    def action(self) -> GoDown:
        return GoDown(self.melds, self.swaps, self.layoffs)

    def check(self) -> None:
        """Raise the ``IllegalAction`` ``apply`` would raise for ``action()``; else nothing."""
        self.game.check(self.player, self.action())


def _accepts(step: object, argument: object) -> bool:
    try:
        step(argument)  # type: ignore[operator]
    except IllegalAction:
        return False
    return True


def meld_readings(cards: Sequence[Card], kind: SlotKind, rules: Rules) -> list[Meld]:
    """Every valid ``kind`` meld made of exactly ``cards`` under ``rules``, one per distinct
    way of placing them (which value each card plays in a run, which suit each set wild
    declares). This is the small, per-meld part of the go-down space, so it is listed in full.
    """
    readings: dict[str, Meld] = {}
    for meld in _set_readings(cards, rules) if kind == "set" else _run_readings(cards, rules):
        try:
            meld.check(rules)
        except IllegalAction:
            continue
        readings.setdefault(str(meld), meld)
    return list(readings.values())


def _set_readings(cards: Sequence[Card], rules: Rules) -> list[Meld]:
    ranks = {c.rank for c in cards if not rules.is_wild(c)} or {
        c.rank for c in cards if not c.is_joker
    }
    melds = []
    for rank in ranks:
        naturals = [c for c in cards if c.rank == rank]
        wilds = [c for c in cards if c.rank != rank]
        suit_choices: list[tuple[str | None, ...]] = (
            _suits_for(wilds) if rules.joker_identity == "rank_and_suit" else [(None,) * len(wilds)]
        )
        for suits in suit_choices:
            placed = [MeldCard(c, rank, c.suit) for c in naturals]
            placed += [MeldCard(c, rank, s) for c, s in zip(wilds, suits, strict=True)]
            melds.append(Meld("set", tuple(placed)))
    return melds


def _suits_for(wilds: Sequence[Card]) -> list[tuple[str | None, ...]]:
    """Every way the set's wilds can declare suits. Different wild cards (2♣ and 2♦) may swap
    the suits they declare, and that is a different play (a later swap takes a different
    wild), so only copies of the same card keep their suits in order."""
    choices: list[tuple[str | None, ...]] = []
    for suits in product(SUITS, repeat=len(wilds)):
        if all(
            suits[i] <= suits[j]
            for i in range(len(wilds))
            for j in range(i + 1, len(wilds))
            if wilds[i] == wilds[j]
        ):
            choices.append(suits)
    return choices


def _run_readings(cards: Sequence[Card], rules: Rules) -> list[Meld]:
    """Naturals sit at their own value; the wilds (and 2s that may be either) fill the rest of
    each window of values, in every distinct arrangement."""
    length = len(cards)
    top = 14 if rules.ace_high_allowed else 13
    fixed = [c for c in cards if not rules.is_wild(c)]
    flexible = [c for c in cards if rules.is_wild(c)]
    suits = {c.suit for c in fixed} or {c.suit for c in flexible if c.suit is not None}
    melds: list[Meld] = []
    for suit in suits:
        if suit is None or any(c.suit != suit for c in fixed):
            continue
        for low in range(1, top - length + 2):
            window = set(range(low, low + length))
            for places in _natural_places(fixed, window):
                free = sorted(window - set(places))
                for order in set(permutations(flexible)):
                    placed = [MeldCard(c, v, suit) for c, v in zip(fixed, places, strict=True)]
                    placed += [MeldCard(c, v, suit) for c, v in zip(order, free, strict=True)]
                    melds.append(Meld("run", tuple(sorted(placed, key=lambda m: m.value))))
    return melds


def _natural_places(fixed: Sequence[Card], window: set[int]) -> list[tuple[int, ...]]:
    """The values the natural cards can take inside ``window``, each value used once."""
    found: list[tuple[int, ...]] = []

    def place(index: int, taken: tuple[int, ...]) -> None:
        if index == len(fixed):
            found.append(taken)
            return
        rank = fixed[index].rank
        for value in (1, 14) if rank == ACE else (rank,):
            if value in window and value not in taken:
                place(index + 1, (*taken, value))

    place(0, ())
    return found
