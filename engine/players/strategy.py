"""Computer players: a ``Strategy`` picks one of the legal actions from a player's own view.

Terminology (see also ``hints``): *deficiency* is how many cards a hand still has to receive
before it meets the contract; *spare* cards are those the best plan does not use; a *threat*
is how close an opponent looks to going out, read from what the view shows (down or not, hand
size).

Why a strategy sees only a ``PlayerView`` and the legal list: that is exactly what a person at
the table knows, so a computer seat can never peek at a hidden card, and the same object can
advise or stand in for an absent person. Strategies hold no game state of their own and draw
chance only from the ``random.Random`` they are handed, so a seeded game replays exactly.

Three levels:
- ``RandomStrategy``: ``random_play``'s legal random player (eager to go down and lay off);
- ``EasyStrategy``: greedy; takes the upcard only when it completes a meld, goes down and lays
  off as soon as it can, throws the costliest card that links least, buys rarely;
- ``NormalStrategy``: plans towards the contract by deficiency, values the upcard and buys by
  how much they shorten it, keeps wilds, swaps jokers it can play at once, avoids feeding a
  down neighbour, and sheds points when an opponent is about to go out.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Protocol

from engine.actions import (
    Action,
    BuyInTurn,
    Discard,
    DrawStock,
    GoDown,
    LayMelds,
    LayOff,
    SwapJoker,
    TakeUpcard,
)
from engine.cards import ACE, Card
from engine.melds import Meld
from engine.rules import Contract, Rules
from engine.view import PlayerView

from .hints import (
    card_index,
    card_links,
    deficiency_of_key,
    extends_plan,
    fits_table,
    hand_key,
    plan_contract,
    rummy_melds,
    suggest_discard,
)


class Strategy(Protocol):
    """A computer player's decisions, made from its own view only.

    ``choose`` is asked on the player's own turn and returns one action of ``legal`` (which
    must not be empty). Off turn the only legal actions are buy requests; passing is not an
    action, so the caller asks ``wants_buy`` instead whenever ``RequestBuy`` is legal.
    """

    name: str

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        """One action of ``legal`` for the player whose ``view`` this is."""
        ...

    def wants_buy(self, view: PlayerView, rng: random.Random) -> bool:
        """Whether to ask to buy the live upcard (only asked while ``RequestBuy`` is legal)."""
        ...


# -- shared helpers ----------------------------------------------------------------------------


def _turn_actions(view: PlayerView, legal: Sequence[Action]) -> None:
    if not legal:
        raise ValueError("There is no legal action to choose from")
    if view.hand is None or view.seat is None:
        raise ValueError("A strategy needs a player's view, not a spectator's")
    if view.current != view.seat:
        raise ValueError("It is not this player's turn: ask wants_buy instead")


def _table(view: PlayerView) -> list[Meld]:
    return [table_meld.meld for table_meld in view.melds]


def seat_is_down(view: PlayerView) -> bool:
    assert view.seat is not None
    return view.seats[view.seat].is_down


def hand_in_view(view: PlayerView) -> list[Card]:
    assert view.hand is not None
    return list(view.hand)


def contract_cards(contract: Contract) -> int:
    return sum(size for _, size in contract)


def cards_short(view: PlayerView) -> int:
    """How many cards the hand will still lack, after its next draw, to hold the contract.

    Deals 8-10 ask for 13-15 cards, more than draws alone give, so a player
    who is short must buy; ``required`` keeps one card back for the final discard.
    """
    hand = hand_in_view(view)
    rules = view.rules
    keep = 1 if rules.final_discard == "required" else 0
    after_draw = len(hand) + (1 if view.step != "play" or view.current != view.seat else 0)
    return max(0, contract_cards(view.contract) + keep - after_draw)


def _completes_meld(hand: Sequence[Card], card: Card, contract: Contract, rules: Rules) -> bool:
    """Whether ``card`` makes a new set or run (of a kind the contract asks for) with ``hand``.

    The easy player's whole idea of a good card: a third of a kind, the last card of a run,
    or a wild joining a pair or a three-card run.
    """
    kinds = {kind for kind, _ in contract} or {"set", "run"}
    run_size = rules.min_run
    naturals = [c for c in hand if not rules.is_wild(c)]
    if rules.is_wild(card):
        if "set" in kinds and any(
            sum(1 for c in naturals if c.rank == r) >= 2 for r in {c.rank for c in naturals}
        ):
            return True
        if "run" in kinds:
            return any(_run_through(naturals, c, run_size - 1, rules) for c in naturals)
        return False
    if "set" in kinds and sum(1 for c in naturals if c.rank == card.rank) >= 2:
        return True
    return "run" in kinds and _run_through([*naturals, card], card, run_size, rules)


def _run_through(cards: Sequence[Card], card: Card, size: int, rules: Rules) -> bool:
    """Whether ``cards`` hold ``size`` consecutive values of ``card``'s suit through ``card``."""
    values = {c.rank for c in cards if c.suit == card.suit}
    if ACE in values and rules.ace_high_allowed:
        values.add(14)
    own = [card.rank] + ([14] if card.rank == ACE and rules.ace_high_allowed else [])
    top = 14 if rules.ace_high_allowed else 13
    for value in own:
        for low in range(max(1, value - size + 1), value + 1):
            high = low + size - 1
            if high <= top and all(v in values for v in range(low, high + 1)):
                return True
    return False


def _pick_lay_off(view: PlayerView, options: Sequence[LayOff]) -> LayOff:
    """The lay-off that sheds the most points: whole batches that empty the hand first."""
    value = view.rules.card_value
    hand_size = len(hand_in_view(view))

    def score(action: LayOff) -> tuple[int, int]:
        return (len(action.items) == hand_size, sum(value(item.card) for item in action.items))

    return max(options, key=score)


def discard_of(legal: Sequence[Action], card: Card) -> Discard | None:
    for action in legal:
        if isinstance(action, Discard) and action.card == card:
            return action
    return None


def _rummy_turn(view: PlayerView, legal: Sequence[Action]) -> Action:
    """Classic Rummy (Part B), shared by the easy and normal players: meld what the best
    arrangement melds, lay off, then throw the loosest costly card.
    """
    hand = hand_in_view(view)
    rules = view.rules
    if view.step == "draw":
        upcard = view.upcard
        if upcard is not None and TakeUpcard() in legal:
            before = sum(len(m) for m in rummy_melds(hand, rules))
            after = sum(len(m) for m in rummy_melds([*hand, upcard], rules))
            if after > before or fits_table(upcard, _table(view), rules):
                return TakeUpcard()
        return DrawStock() if DrawStock() in legal else legal[0]
    best = [sorted(m.plain_cards, key=Card.sort_key) for m in rummy_melds(hand, rules)]
    lays = [a for a in legal if isinstance(a, LayMelds)]
    for action in lays:
        if sorted((c for m in action.melds for c in m.plain_cards), key=Card.sort_key) in best:
            return action
    lay_offs = [a for a in legal if isinstance(a, LayOff)]
    if lay_offs:
        return _pick_lay_off(view, lay_offs)
    discards = [a for a in legal if isinstance(a, Discard)]
    if not discards:
        return legal[0]
    card, _ = suggest_discard(hand, (), rules, table=_table(view))
    chosen = discard_of(legal, card)
    if chosen is None:  # the advice named the card taken from the pile this turn
        value = rules.card_value
        chosen = max(discards, key=lambda a: value(a.card))
    return chosen


# -- random ------------------------------------------------------------------------------------


class RandomStrategy:
    """``random_play``'s player as a strategy: a uniform legal pick, except that it goes down
    or lays off when it can (nine times in ten) so deals end, and asks to buy now and then.
    """

    name = "random"

    def __init__(self, eager: float = 0.9, buy_chance: float = 0.1) -> None:
        self.eager = eager
        self.buy_chance = buy_chance

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        _turn_actions(view, legal)
        eager = [a for a in legal if isinstance(a, GoDown | LayMelds | LayOff)]
        if eager and rng.random() < self.eager:
            return rng.choice(eager)
        return rng.choice(list(legal))

    def wants_buy(self, view: PlayerView, rng: random.Random) -> bool:
        return rng.random() < self.buy_chance


# -- easy --------------------------------------------------------------------------------------


class EasyStrategy:
    """The greedy player: no plan beyond the next meld.

    It takes the upcard only when the card completes a meld (or, once down, can be laid
    off), goes down as soon as ``find_contract`` allows, lays off whatever it can, and throws
    the costliest of the cards that link least with the rest. It buys rarely: only a card
    that completes a meld, and then only when the hand is too small for the contract or by a
    one-in-four chance.
    """

    name = "easy"

    def __init__(self, buy_chance: float = 0.25) -> None:
        self.buy_chance = buy_chance

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        _turn_actions(view, legal)
        if len(legal) == 1:
            return legal[0]
        if view.rules.game == "rummy":
            return _rummy_turn(view, legal)
        if view.step == "draw":
            return self._draw(view, legal, rng)
        return self._play(view, legal)

    def _wanted(self, view: PlayerView) -> bool:
        upcard = view.upcard
        if upcard is None:
            return False
        if seat_is_down(view):
            return fits_table(upcard, _table(view), view.rules)
        return _completes_meld(hand_in_view(view), upcard, view.contract, view.rules)

    def _draw(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        if TakeUpcard() in legal and self._wanted(view):
            if BuyInTurn() in legal and cards_short(view) > 0:
                return BuyInTurn()
            return TakeUpcard()
        if DrawStock() in legal:
            return DrawStock()
        return TakeUpcard() if TakeUpcard() in legal else legal[0]

    def _play(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        for action in legal:
            if isinstance(action, GoDown):
                return action
        lay_offs = [a for a in legal if isinstance(a, LayOff)]
        if lay_offs:
            return _pick_lay_off(view, lay_offs)
        discards = [a for a in legal if isinstance(a, Discard)]
        if not discards:
            return legal[0]
        rules = view.rules
        hand = hand_in_view(view)
        value = rules.card_value
        if seat_is_down(view):
            table = _table(view)
            card = max(
                (a.card for a in discards),
                key=lambda c: (not fits_table(c, table, rules), value(c)),
            )
        else:
            plain = [a.card for a in discards if not rules.is_wild(a.card)] or [
                a.card for a in discards
            ]

            def links(card: Card) -> float:
                others = list(hand)
                others.remove(card)
                return card_links(card, others, view.contract, rules)

            card = min(plain, key=lambda c: (links(c), -value(c)))
        chosen = discard_of(legal, card)
        assert chosen is not None
        return chosen

    def wants_buy(self, view: PlayerView, rng: random.Random) -> bool:
        if view.rules.game == "rummy" or not self._wanted(view) or seat_is_down(view):
            return False
        return cards_short(view) > 0 or rng.random() < self.buy_chance


# -- normal ------------------------------------------------------------------------------------


class NormalStrategy:
    """The planning player.

    Its compass is the deficiency of ``hints.plan_contract`` (cards still to come, and how hard
    they are to come by). The upcard is taken when it shortens that count; a buy is asked when
    it does and the hand is either too small for the contract or close to it, since each buy
    also brings ``buy_penalty_cards`` unknown cards that cost points if the deal is lost. Wilds
    are never thrown while anything else can be. Once down it lays off everything it can,
    swaps a table wild for its natural when the freed wild can be laid off at once (one card
    fewer in hand), and otherwise throws its costliest unplayable card. Discards avoid cards a
    down neighbour could lay off, and when an opponent is close to going out (down with few
    cards) penalty points outweigh the plan.
    """

    name = "normal"

    def __init__(
        self, buy_close: int = 3, threat_weight: float = 1.0, link_weight: float = 6.0
    ) -> None:
        # The numbers were tuned with the simulator, two seats against two at a 4-player
        # standard table (see the commit message for the figures).
        #: Buy a useful card when the hand would then need at most this many more (one fewer
        #: per extra penalty card): 3 beat 0, 1 and 2; 4 and 9 were no better. Refusing to
        #: buy while an opponent is down cost about 55 points a game, so threat never stops
        #: a buy.
        self.buy_close = buy_close
        #: Scales how much an opponent close to going out makes points matter.
        self.threat_weight = threat_weight
        #: Points one link (a pair, a run neighbour) of a spare card is worth keeping.
        self.link_weight = link_weight
        #: From this threat on, cards the plan uses may be thrown too when they cost enough.
        self.break_plan_at = 0.3
        #: At full threat a point in hand weighs 1 + this, and the plan 1 - ``plan_threat``.
        self.point_threat = 3.0
        self.plan_threat = 0.7
        #: Once down, points a card two values beyond a table run's end is kept by (someone
        #: may lay the card between; it then fits). Added instead of subtracted, the
        #: weight made such cards go first. The expert with it subtracted, against
        #: unfixed normal players, went out in 32.6% of contract 3's deals instead of 27.3%
        #: (README, tools.contract_bench; a weight of 10 gained no more than 3).
        self.near_weight = 3.0

    # -- reading the view ------------------------------------------------------------------

    @staticmethod
    def _players(view: PlayerView) -> int:
        return len(view.seats)

    def threat(self, view: PlayerView) -> float:
        """0 to 1: how close the nearest opponent looks to going out."""
        worst = 0.0
        for seat, info in enumerate(view.seats):
            if seat == view.seat:
                continue
            if info.is_down:
                level = {0: 1.0, 1: 1.0, 2: 0.8, 3: 0.55, 4: 0.35}.get(info.hand_size, 0.2)
            else:
                level = 0.0
            worst = max(worst, level)
        return min(1.0, worst * self.threat_weight)

    def _deficiency(self, cards: Sequence[Card], view: PlayerView) -> tuple[int, float]:
        return deficiency_of_key(hand_key(cards), view.contract, view.rules, self._players(view))

    # -- decisions -------------------------------------------------------------------------

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        _turn_actions(view, legal)
        if len(legal) == 1:
            return legal[0]
        if view.rules.game == "rummy":
            return _rummy_turn(view, legal)
        if view.step == "draw":
            return self._draw(view, legal)
        return self._play(view, legal)

    def _upcard_gain(self, view: PlayerView) -> int:
        """How many cards the upcard takes off the deficiency (0 if none, or no upcard)."""
        upcard = view.upcard
        if upcard is None:
            return 0
        hand = hand_in_view(view)
        if not could_help(hand, upcard, view.contract, view.rules):
            return 0
        before, _ = self._deficiency(hand, view)
        after, _ = self._deficiency([*hand, upcard], view)
        return before - after

    def _draw(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        upcard = view.upcard
        can_take = TakeUpcard() in legal and upcard is not None
        if can_take and upcard is not None:
            rules = view.rules
            if seat_is_down(view):
                if fits_table(upcard, _table(view), rules):
                    return TakeUpcard()
            else:
                gain = self._upcard_gain(view)
                if gain > 0 and self._would_throw_back(view, upcard):
                    gain = 0
                if BuyInTurn() in legal and gain > 0 and self._buy_pays(view, gain):
                    return BuyInTurn()
                if gain > 0:
                    return TakeUpcard()
        if DrawStock() in legal:
            return DrawStock()
        return TakeUpcard() if TakeUpcard() in legal else legal[0]

    def _would_throw_back(self, view: PlayerView, upcard: Card) -> bool:
        """Whether this player, holding the upcard, would discard that very card: then taking
        it gains nothing, and a table of such players would pass it round for ever."""
        holding = replace(view, hand=(*hand_in_view(view), upcard), step="play")
        return self._discard(holding, [*hand_in_view(view), upcard]) == upcard

    def _buy_pays(self, view: PlayerView, gain: int) -> bool:
        """A buy shortens the deficiency by ``gain`` but adds ``buy_penalty_cards`` cards that
        score against us if someone else goes out first: worth it when the hand cannot hold
        the contract without buying, or when the buy brings going down within reach.
        """
        if gain <= 0:
            return False
        if cards_short(view) > 0:
            return True
        hand = hand_in_view(view)
        assert view.upcard is not None
        after, _ = self._deficiency([*hand, view.upcard], view)
        return after <= self.buy_close - (view.rules.buy_penalty_cards - 1)

    def wants_buy(self, view: PlayerView, rng: random.Random) -> bool:
        if view.rules.game == "rummy" or view.upcard is None or seat_is_down(view):
            return False
        return self._buy_pays(view, self._upcard_gain(view))

    def _play(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        for action in legal:
            if isinstance(action, GoDown):
                return action
        lay_offs = [a for a in legal if isinstance(a, LayOff)]
        if lay_offs:
            return _pick_lay_off(view, lay_offs)
        swap = self._useful_swap(view, legal)
        if swap is not None:
            return swap
        discards = [a for a in legal if isinstance(a, Discard)]
        if not discards:
            return legal[0]
        card = self._discard(view, [a.card for a in discards])
        chosen = discard_of(legal, card)
        assert chosen is not None
        return chosen

    def _useful_swap(self, view: PlayerView, legal: Sequence[Action]) -> SwapJoker | None:
        """A swap whose freed wild can be laid off straight away (so the hand shrinks by one);
        any other swap would only trade a cheap natural for a 50-point wild in hand.
        """
        rules = view.rules
        table = _table(view)
        for action in legal:
            if not isinstance(action, SwapJoker):
                continue
            swap = action.swap
            wild = table[swap.meld].cards[swap.position].card
            after = list(table)
            after[swap.meld] = after[swap.meld].replace(swap.position, swap.card)
            if any(meld.placements(wild, rules) for meld in after):
                return action
        return None

    def _discard(self, view: PlayerView, allowed: Sequence[Card]) -> Card:
        if seat_is_down(view):
            return self._discard_when_down(view, allowed)
        candidates, cost = self._discard_costs(view, allowed)
        return min(candidates, key=cost)

    def _danger(self, view: PlayerView) -> Callable[[Card], float]:
        """Points against throwing a card the down next player could take and lay off."""
        rules = view.rules
        table = _table(view)
        threat = self.threat(view)
        assert view.seat is not None
        neighbour = view.seats[(view.seat + 1) % len(view.seats)]

        def danger(card: Card) -> float:
            if neighbour.is_down and fits_table(card, table, rules):
                return 15.0 + 10.0 * threat
            return 0.0

        return danger

    def _discard_when_down(self, view: PlayerView, allowed: Sequence[Card]) -> Card:
        """Down, only lay-offs matter: throw the costliest card the table cannot take, and of
        cards alike in points one that may still come to fit (``near_weight``) last."""
        rules = view.rules
        value = rules.card_value
        table = _table(view)
        danger = self._danger(view)
        keep = self._keep_when_down(view)
        return max(
            dict.fromkeys(allowed),
            key=lambda c: (
                not fits_table(c, table, rules),
                value(c) - danger(c) - self.near_weight * _near_table(c, table, rules) - keep(c),
            ),
        )

    def _threat_weights(self, view: PlayerView) -> tuple[float, float]:
        """(``point_threat``, ``plan_threat``) for this view's discard (the expert scales
        them in the big deals when screened)."""
        return self.point_threat, self.plan_threat

    def _keep_when_down(self, view: PlayerView) -> Callable[[Card], float]:
        """Points for keeping a card the table cannot take yet (none here; the expert keeps
        what an opponent collects)."""
        return lambda card: 0.0

    def _discard_costs(
        self, view: PlayerView, allowed: Sequence[Card]
    ) -> tuple[list[Card], Callable[[Card], float]]:
        """The discard candidates of a player not down, and what throwing each one loses
        (lower is better): the spare cards (all cards once the threat is high) and a cost
        weighing the plan, links, points and danger."""
        rules = view.rules
        hand = hand_in_view(view)
        value = rules.card_value
        threat = self.threat(view)
        danger = self._danger(view)
        choices = list(dict.fromkeys(allowed))
        plain = [c for c in choices if not rules.is_wild(c)] or choices
        plan = plan_contract(hand, view.contract, rules, self._players(view))
        spare = set(plan.spare)
        base = self._deficiency(hand, view)
        key = hand_key(hand)
        point_threat, plan_threat = self._threat_weights(view)
        point_weight = 1.0 + point_threat * threat
        plan_weight = 1.0 - plan_threat * threat

        def cost(card: Card) -> float:
            """What throwing ``card`` loses (lower is a better discard)."""
            others = list(hand)
            others.remove(card)
            links = card_links(card, others, view.contract, rules)
            if extends_plan(card, plan):
                links += 1.5
            loss = 0.0
            if card not in spare:
                smaller = list(key)
                smaller.remove(card_index(card))
                d, diff = deficiency_of_key(
                    tuple(smaller), view.contract, rules, self._players(view)
                )
                loss = 30.0 * (d - base[0]) + 40.0 * (diff - base[1])
            return (
                plan_weight * (loss + self.link_weight * links)
                - point_weight * value(card)
                + danger(card)
            )

        candidates = [c for c in plain if c in spare]
        if not candidates or threat >= self.break_plan_at:
            candidates = plain
        return candidates, cost


def could_help(hand: Sequence[Card], card: Card, contract: Contract, rules: Rules) -> bool:
    """A quick filter before the deficiency search: a natural can only shorten the count if
    the hand holds its rank (for a set), a card of its suit near enough to share a run, or no
    card of its suit at all (it may start a run); under ``joker_limit: none`` wilds alone
    make a set around it.
    """
    if rules.is_wild(card) or (rules.joker_limit == "none" and any(map(rules.is_wild, hand))):
        return True
    has_sets = any(kind == "set" for kind, _ in contract)
    reach = max((size for kind, size in contract if kind == "run"), default=0) - 1
    if reach > 0 and all(other.suit != card.suit for other in hand):
        return True
    high = 14 if card.rank == ACE else card.rank
    for other in hand:
        if has_sets and other.rank == card.rank:
            return True
        if reach > 0 and other.suit == card.suit and not rules.is_wild(other):
            if abs(other.rank - card.rank) <= reach:
                return True
            other_high = 14 if other.rank == ACE else other.rank
            if abs(other_high - high) <= reach:
                return True
    return False


def _near_table(card: Card, table: Sequence[Meld], rules: Rules) -> int:
    """1 when ``card`` is two values beyond the end of a table run of its suit: once someone
    lays the card between, it can be laid off too. Worth keeping a little longer."""
    for meld in table:
        if meld.kind == "run" and meld.suit == card.suit:
            value = 14 if card.rank == ACE and meld.high >= 12 else card.rank
            if value in (meld.low - 2, meld.high + 2):
                return 1
    return 0


__all__ = [
    "EasyStrategy",
    "NormalStrategy",
    "RandomStrategy",
    "Strategy",
    "cards_short",
]
