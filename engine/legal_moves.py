"""What is offered: the legal actions listed for a seat (``Game.legal_actions``).

Every listed action is one ``Game.is_legal`` (the check ``apply`` makes) accepts. Most are put
to it; where this module already knows the answer it asks only what is left: the draw step's
few rules directly, discards by hand size, and a single lay-off of ``lay_off_items`` (whose
placement ``Meld.placements`` proved) by the hand it leaves. ``test_legal_property`` applies
listed actions and ``test_differential`` holds the lists to those of the engine without these
shortcuts. What is too many to list (other go-down arrangements, wild identities,
bundles) is left to ``GoDownBuilder`` (``engine/builder.py``); ``lay_off_items`` and
``swap_candidates`` are shared with it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from .actions import (
    Action,
    BuyInTurn,
    CancelBuy,
    Discard,
    DrawStock,
    GoDown,
    LayMelds,
    LayOff,
    LayOffItem,
    RequestBuy,
    Swap,
    SwapJoker,
    TakeUpcard,
)
from .cards import ACE, Card
from .errors import IllegalAction
from .melds import Meld, MeldCard
from .play_plans import check_swap_target, lay_off_onto
from .rules import Rules
from .solver import find_contract, find_contract_remembering

if TYPE_CHECKING:
    from .game import Game


def legal_actions(game: Game, seat: int) -> list[Action]:
    """Every legal action for ``seat`` now, each one accepted by ``Game.apply``.

    What is listed, and what is left to ``GoDownBuilder`` (``engine/builder.py``):
    - draws, buy requests (only buys that can be awarded), discards, swaps: all;
    - lay-offs: every single card onto every meld at every end (and every suit a set wild
      may declare), plus every two-card batch, chains included (9H then 10H), when the
      hand holds two cards: the only batches that cannot be played one card at a time;
    - going down: the arrangement ``find_contract`` proposes, first; under
      ``anyone_then_go_down`` the same for every choice of up to three swaps; under
      ``layoff_on_going_down_turn`` with ``final_discard: forbidden``, the go-down that
      leaves one card together with that card's lay-off. Other arrangements,
      wild identities and bundles are too many to list: ``GoDownBuilder`` builds any of
      them step by step and the engine judges each step;
    - Rummy melds: every single group and run of the hand (several melds are laid one
      action at a time).
    """
    if game.step == "over":
        return []
    actions: list[Action] = []
    if seat != game.current:
        if game.buy_window_open:
            if seat in game.buy_requests:
                actions.append(CancelBuy())
            elif _legal(game, seat, RequestBuy()):
                actions.append(RequestBuy())
        return actions
    if game.step == "draw":
        # Game.check's draw rules, asked directly (this runs every turn): the upcard may be
        # taken when there is one (live, in Shanghai); the stock is refused only when it is
        # dead with a live upcard; buying in turn is two-player Shanghai's alone.
        shanghai = game.is_shanghai
        if game.pile and (not shanghai or game.upcard_live):
            actions.append(_TAKE)
        if not (shanghai and game.upcard_live) or game.stock or _legal(game, seat, _DRAW):
            actions.append(_DRAW)
        if shanghai and len(game.players) == 2 and _legal(game, seat, _BUY_IN_TURN):
            actions.append(_BUY_IN_TURN)
        return actions
    return _play_actions(game, seat)


# Actions are immutable values: the lists share these rather than build new ones each turn.
_TAKE = TakeUpcard()
_DRAW = DrawStock()
_BUY_IN_TURN = BuyInTurn()


class _Discards(dict[Card, Discard]):
    """``Discard(card)`` per card, made the first time it is asked for."""

    def __missing__(self, card: Card) -> Discard:
        action = self[card] = Discard(card)
        return action


_DISCARDS = _Discards()


def _legal(game: Game, seat: int, action: Action) -> bool:
    return game.is_legal(game.players[seat], action)


def _play_actions(game: Game, seat: int) -> list[Action]:
    rules = game.rules
    hand = game.hands[seat]
    distinct = list(dict.fromkeys(hand))
    candidates: list[Action] = []
    if game.is_shanghai and not game.down[seat]:
        candidates.extend(_go_down_offers(game, seat))
    if not game.is_shanghai:
        candidates.extend(LayMelds((m,)) for m in _single_melds(hand, rules))
    may_lay_off = (
        (game.down[seat] and (not game.went_down_this_turn or rules.layoff_on_going_down_turn))
        if game.is_shanghai
        else (not rules.layoff_requires_own_meld or game.played_this_deal[seat])
    )
    legal = [a for a in candidates if _legal(game, seat, a)]
    if may_lay_off and game.melds:
        for offer in _lay_off_offers(game, seat):
            # A single lay-off from lay_off_items is a placement Meld.placements proved (its
            # card held, its end or suit named, the meld still valid), and the seat may lay
            # off: only the hand it leaves is left to judge. Batches are judged in full.
            if len(offer.items) == 1:
                if _leaves_a_legal_hand(game, hand, offer.items[0].card):
                    legal.append(offer)
            elif _legal(game, seat, offer):
                legal.append(offer)
        if game.is_shanghai and rules.joker_swap != "off":
            table = [m.meld for m in game.melds]
            swaps = [SwapJoker(swap) for swap in swap_candidates(table, distinct, rules)]
            legal.extend(a for a in swaps if _legal(game, seat, a))
    # Discards are most of every list: judge them here rather than one ``is_legal`` each.
    if len(hand) > 1 or rules.final_discard != "forbidden":
        taken = None if game.is_shanghai else game.taken_upcard
        discards = _DISCARDS
        if taken is None:
            legal.extend([discards[card] for card in distinct])
        else:
            legal.extend([discards[card] for card in distinct if card is not taken])
    return legal


def _leaves_a_legal_hand(game: Game, hand: list[Card], card: Card) -> bool:
    """``play_plans``' end-of-turn rule for ``hand`` less ``card``: asked of
    the hand's size (and, in Rummy, the card it would leave) without building it."""
    left = len(hand) - 1
    final = game.rules.final_discard
    if left == 0:
        return final != "required"
    if final == "forbidden" and left == 1:
        return False
    if not game.is_shanghai and game.taken_upcard is not None and left == 1:
        return (hand[1] if hand[0] is card else hand[0]) != game.taken_upcard
    return True


def _lay_off_offers(game: Game, seat: int) -> list[LayOff]:
    """Single lay-offs, and with two cards in hand every two-card batch (chains too),
    one per distinct result."""
    hand = game.hands[seat]
    table = [m.meld for m in game.melds]
    singles = [
        LayOff((item,)) for item in lay_off_items(table, list(dict.fromkeys(hand)), game.rules)
    ]
    if len(hand) != 2:
        return singles
    offers: list[LayOff] = list(singles)
    seen: set[tuple[str, ...]] = set()
    for first in singles:
        after = list(table)
        try:
            lay_off_onto(game.rules, after, Counter(hand), first.items)
        except IllegalAction:
            continue
        rest = list(hand)
        rest.remove(first.items[0].card)
        for second in lay_off_items(after, rest, game.rules):
            batch = LayOff((first.items[0], second))
            final = list(after)
            try:
                lay_off_onto(game.rules, final, Counter(rest), (second,))
            except IllegalAction:
                continue
            key = tuple(sorted(str(m) for m in final))
            if key not in seen:
                seen.add(key)
                offers.append(batch)
    return offers


def _swap_fits(game: Game, table: list[Meld], swap: Swap, hand: Counter[Card]) -> bool:
    try:
        check_swap_target(game.rules, table, swap, hand)
    except IllegalAction:
        return False
    return True


def _kept_out_by_separation(game: Game, cards: list[Card]) -> list[Card]:
    """Cards the same-suit-runs rule might keep out of a contract run though a lay-off could
    still extend it: wilds, and naturals of a suit the hand could make two runs of."""
    runs = [size for kind, size in game.contract if kind == "run"]
    if len(runs) < 2 or game.rules.same_suit_runs != "separated":
        return []
    wilds = sum(1 for c in cards if game.rules.is_wild(c))
    per_suit = Counter(c.suit for c in cards if not game.rules.is_wild(c))
    return [c for c in cards if game.rules.is_wild(c) or per_suit[c.suit] + wilds >= 2 * min(runs)]


def _lay_off_rest(
    game: Game, table: list[Meld], cards: list[Card], melds: Sequence[Meld]
) -> tuple[LayOffItem, ...]:
    """Lay-offs that place every card ``melds`` leave of ``cards`` (at most three, in
    some order, chains included), or () when there are none."""
    rest = Counter(cards)
    rest.subtract(c.card for m in melds for c in m.cards)
    left = list((+rest).elements())
    if not 1 <= len(left) <= 3:
        return ()

    def place(table: list[Meld], left: list[Card]) -> tuple[LayOffItem, ...] | None:
        if not left:
            return ()
        tried: set[tuple[Card, int, str | None]] = set()
        for item in lay_off_items(table, list(dict.fromkeys(left)), game.rules):
            if (item.card, item.meld, item.end) in tried:
                continue  # a set wild's other suits place it no differently
            tried.add((item.card, item.meld, item.end))
            after = list(table)
            try:
                lay_off_onto(game.rules, after, Counter(left), (item,))
            except IllegalAction:
                continue
            remaining = list(left)
            remaining.remove(item.card)
            tail = place(after, remaining)
            if tail is not None:
                return (item, *tail)
        return None

    return place(table, left) or ()


def _go_down_offers(game: Game, seat: int) -> list[GoDown]:
    """The solver's go-down, per choice of swaps, and the go-down-and-lay-off bundles."""
    rules = game.rules
    hand = game.hands[seat]
    table = [m.meld for m in game.melds]
    swap_sets: list[tuple[Swap, ...]] = [()]
    if rules.joker_swap == "anyone_then_go_down" and table:
        options = [
            swap
            for swap in swap_candidates(table, list(dict.fromkeys(hand)), rules)
            if _swap_fits(game, table, swap, Counter(hand))
        ][:6]  # more swaps than this at once: GoDownBuilder
        for size in (1, 2, 3):
            swap_sets.extend(combinations(options, size))
    bundles = rules.layoff_on_going_down_turn and rules.final_discard == "forbidden"
    # The plain go-down (no swaps), the question of every turn, goes through the seat's
    # memo of what its searches proved (``solver.ContractMemo``): most turns it needs none.
    plain = find_contract_remembering(hand, game.deal, rules, game.contract_memos[seat])
    if plain is None and not bundles and len(swap_sets) == 1:
        return []
    relaxed = _without_final_discard(rules) if bundles else rules
    offers: list[GoDown] = []
    for swaps in swap_sets:
        if len({(s.meld, s.position) for s in swaps}) < len(swaps):
            continue
        after_swaps = Counter(hand)
        swapped_table = list(table)
        try:
            for swap in swaps:
                wild = check_swap_target(game.rules, swapped_table, swap, after_swaps)
                swapped_table[swap.meld] = swapped_table[swap.meld].replace(
                    swap.position, swap.card
                )
                after_swaps[swap.card] -= 1
                after_swaps[wild] += 1
        except IllegalAction:
            continue
        cards = list(after_swaps.elements())
        melds = find_contract(cards, game.deal, rules) if swaps else plain
        if melds is not None:
            offers.append(GoDown(tuple(melds), swaps))
            if rules.layoff_on_going_down_turn:
                out = _lay_off_rest(game, swapped_table + list(melds), cards, melds)
                if out:  # going down and out in one play
                    offers.append(GoDown(tuple(melds), swaps, out))
        if not bundles or (melds is not None and sum(map(len, melds)) == len(cards)):
            continue  # no bundle needed when the contract itself can empty the hand
        # Under ``minimum`` a card that fits a new meld can join it in the contract (then
        # the plain go-down empties the hand), so only cards that fit a meld already on
        # the table need the bundle; under ``exact``, or when the same-suit-runs rule may keep
        # a card out of a contract run that a lay-off could still extend, any card may.
        lasts = (
            dict.fromkeys(cards)
            if rules.contract_meld_size == "exact"
            else {item.card: None for item in lay_off_items(swapped_table, cards, rules)}
            | {card: None for card in _kept_out_by_separation(game, cards)}
        )
        for last in lasts:
            rest = list(cards)
            rest.remove(last)
            melds = find_contract(rest, game.deal, relaxed)
            if melds is None or sum(len(m) for m in melds) != len(rest):
                continue
            after = swapped_table + list(melds)
            for item in lay_off_items(after, [last], rules):
                offers.append(GoDown(tuple(melds), swaps, (item,)))
    return offers


def lay_off_items(table: Sequence[Meld], cards: Sequence[Card], rules: Rules) -> list[LayOffItem]:
    """Every placement of each of ``cards`` on each meld of ``table``, end and suit named,
    card by card and meld by meld in table order.

    A natural fits only a set of its rank or a run of its suit at the value just past either
    end, so the melds are indexed by those (rank, suit) keys once and a natural is put only
    to the melds its key names; a wild is put to every meld.
    """
    fits: dict[tuple[int, str | None], list[int]] = {}
    for index, meld in enumerate(table):
        if meld.kind == "set":
            fits.setdefault((meld.rank, None), []).append(index)
            continue
        for value in (meld.low - 1, meld.high + 1):
            if 1 <= value <= 14:
                rank = ACE if value == 14 else value
                targets = fits.setdefault((rank, meld.suit), [])
                if not targets or targets[-1] != index:
                    targets.append(index)
    everywhere = range(len(table))
    items: list[LayOffItem] = []
    for card in cards:
        wild = rules.is_wild(card)
        if wild:
            indices: Iterable[int] = everywhere
        else:
            sets = fits.get((card.rank, None), ())
            runs = fits.get((card.rank, card.suit), ())
            indices = sorted((*sets, *runs)) if sets and runs else sets or runs
        for index in indices:
            meld = table[index]
            for placed, end in meld.placements(card, rules):
                items.append(
                    LayOffItem(
                        card, index, end, placed.suit if wild and meld.kind == "set" else None
                    )
                )
    return items


def swap_candidates(table: Sequence[Meld], cards: Sequence[Card], rules: Rules) -> list[Swap]:
    """Swaps of a natural among ``cards`` for a table wild of its rank (the suit is judged by
    ``play_plans.check_swap_target``)."""
    ranks = {card.rank for card in cards if not card.is_joker}
    return [
        Swap(card, index, position)
        for index, meld in enumerate(table)
        for position, placed in enumerate(meld.cards)
        if placed.rank in ranks and placed.is_wild_in(meld.kind, rules)
        for card in cards
        if card.rank == placed.rank and not card.is_joker
    ]


_RELAXED: dict[Rules, Rules] = {}


def _without_final_discard(rules: Rules) -> Rules:
    """``rules`` with ``final_discard: optional``: the solver then may leave any hand size,
    which the go-down-and-lay-off bundle needs (it leaves one card for the lay-off)."""
    relaxed = _RELAXED.get(rules)
    if relaxed is None:
        relaxed = _RELAXED[rules] = rules.with_options(final_discard="optional")
    return relaxed


def _single_melds(hand: Iterable[Card], rules: Rules) -> list[Meld]:
    """Every set and run (Rummy: no wilds) that can be made from ``hand`` alone."""
    cards = set(hand)
    melds: list[Meld] = []
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(cards, key=Card.sort_key):
        by_rank.setdefault(card.rank, []).append(card)
    for group in by_rank.values():
        if len(group) >= 3:
            melds.append(Meld("set", tuple(MeldCard(c, c.rank, c.suit) for c in group[:4])))
            if len(group) == 4:
                for skip in range(4):
                    rest = group[:skip] + group[skip + 1 :]
                    melds.append(Meld("set", tuple(MeldCard(c, c.rank, c.suit) for c in rest)))
    top = 14 if rules.ace_high_allowed else 13
    for suit in ("C", "D", "H", "S"):
        values = {c.rank for c in cards if c.suit == suit}
        if 1 in values and top == 14:
            values.add(14)
        for start in range(1, top + 1):
            length = 0
            while start + length <= top and start + length in values:
                length += 1
                if length >= rules.min_run:
                    melds.append(
                        Meld(
                            "run",
                            tuple(
                                MeldCard(Card.of(1 if v == 14 else v, suit), v, suit)
                                for v in range(start, start + length)
                            ),
                        )
                    )
    return melds
