"""The expert computer player: the normal player's plan, sharpened by a search over the cards
it cannot see (within a budget per decision) and by salvage when a deal is lost.

Where it differs from ``NormalStrategy`` (each part is a switch, for ablations):

- **search** (``search``, on): when the best few discards of the normal player's ranking are
  within ``margin`` points of each other, each is judged by the hand it leaves *after the next
  draw*: for the cards that may still come from the stock (the pack minus everything this seat
  has seen: its hand, the table, and the pile and the opponents' pick-ups as the public
  history shows them, see ``reading``), weighted by their live copies, the deficiency of the
  hand with that card. The expectation is exact when the budget covers every card that could
  help, and otherwise taken over a sample drawn from a generator seeded by the hand.
- **salvage** (``salvage``, on): when the deal is as good as lost, only the points held
  count, so it throws its dearest card (a joker, 50 points, included), buys nothing, and
  draws the upcard rather than the stock when the upcard costs less than the stock's average
  unseen card (``cheap_take``, off). A deal is lost when an opponent is down with one or two
  cards (``salvage_threat``) and this hand is two or more cards short. Switches, off: one
  card short against a last card (``salvage_all``), and graded salvage, three short against
  three cards and four against four (``salvage_grades``).
- **lengthening** (``extend``, on): an upcard that shortens nothing but lengthens a planned meld
  (a fourth 8, the next card of a run) is taken when a spare card that lengthens nothing can
  go instead and no opponent is close to going out: the hand then goes down with one card
  fewer left over, and each card left over is a turn's lay-off before going out.
- **down, keeping what others collect** (``keep_collected``, on): once down, of the cards the
  table cannot take, one matching what an opponent not yet down took or bought is kept a
  little longer (that opponent will meld it, and then it can be laid off).
- **going out in one** (``blind``, on; only where the rules pay the blind bonus): while no
  opponent is down (nobody can then go out but in one turn themselves) and the contract takes
  no more cards than a hand holds after its draw, a hand that could go down leaving a card
  besides its discard holds the contract instead and throws the leftover that keeps the most
  cards able to finish it; and it takes an upcard with which it goes down and out at once
  (which the normal player leaves when its hand already holds the contract). Going down
  first scores 0 at best; in one turn it scores -25, or -50 with no wild played.
- **guarding a lead** (``guard``, on): in the last ``guard_deals`` deals, a seat whose total
  is lower than every opponent's by at least the points of the cheapest hand it could hold
  (eleven cards worth 5: 55) for each deal still to play, this one included, only sheds
  points: it buys nothing, holds nothing back for going out in one, takes an upcard worth 5
  when its hand holds a dearer card, and throws its dearest card. A game is won by the
  lowest total, not the lowest mean, and the last deals are its most volatile: a hand caught
  in deal 10 holds over 100 points, while a shedding hand ends the deal at about 55. Once the
  lead covers that, only an opponent going out in one can overtake. Behind, or close, a seat
  plays on: shedding every last deal lowers the mean total but throws away the comebacks.
- **reading** (``read``, off): a discard matching what an opponent took or bought (its rank for
  a set, a close card of its suit for a run) is avoided, the next player's wants most.
- **buys** (``buys``, off): a buy is weighed by the live copies of the card.

Three switches, off (measured in the README): **chasing** (``chase``): in
the last deal, ``chase_deficit`` points or more behind the leader, buy every card that
shortens the hand (such a game is won only by going out while the leader is caught);
a **latent threat** (``latent``): in the deals whose contract outgrows a dealt hand, an
opponent not down holding the contract's cards threatens like one down with four; and the
discard's threat weights scaled in those deals (``big_threat_scale``). Paired over 200
games: -0.5, -7.2 and +1.0 points of wins, none clear of noise but the latent threat's loss.

Reading, live-copy buys, the salvage switches and a wider search (600 evaluations, eight
candidates within 50 points) did not pay in runs against three normal players (README,
Computer players), so they are off; the switches stay for the ablation. Lengthening and
keeping, on, make the expert go out in about two more deals in a hundred; their effect on
wins was too small to measure in 500 paired games. Going out in one adds about one and a half
blind outs per hundred deals and lowers the total against the normal players' by about three
points a game; holding in deals 8-10 as well (``hold_big``) lost there most of what it won in
deals 3-7. Guarding a lead won 3.4 more games in a hundred (1,000 paired games):
leading deal 10 by 55-119 points, the expert had won 26 games in 37 and won 34.5 guarding;
from a lead of 30-54 guarding lost (4.5 against 6 in 12), and shedding in the last deal
whatever the standings lowered the mean total but lost the comebacks.

The budget counts hand evaluations (``SearchBudget.evaluations``), so a decision is the same
for the same view whatever the machine's load: the strategy is deterministic for a seed. A
wall-clock cap (``SearchBudget.seconds``) is applied only when a ``clock`` is given (the bot
passes one; the engine itself reads no clock), and then stops the search early.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.actions import Action, DrawStock, GoDown, TakeUpcard
from engine.cards import Card
from engine.melds import Meld
from engine.rules import SCORE_TABLES, Contract
from engine.solver import find_contract
from engine.view import PlayerView

from .hints import (
    card_index,
    card_of_index,
    deficiency_of_key,
    extends_plan,
    hand_key,
    plan_contract,
)
from .reading import TableReading, read_table
from .strategy import (
    NormalStrategy,
    cards_short,
    contract_cards,
    could_help,
    discard_of,
    hand_in_view,
    seat_is_down,
)


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """How much one decision may think.

    ``evaluations``: hand evaluations (deficiency searches, memo hits included) per decision;
    the deterministic limit. ``seconds``: a wall-clock cap, used only with a clock.
    """

    evaluations: int = 200
    seconds: float = 0.4


class _Meter:
    """Counts one decision's evaluations against the budget (and the clock, when given)."""

    def __init__(self, budget: SearchBudget, clock: Callable[[], float] | None) -> None:
        self.budget = budget
        self.clock = clock
        self.used = 0
        self.deadline = None if clock is None else clock() + budget.seconds

    def spend(self, count: int) -> bool:
        """Whether ``count`` more evaluations fit; spends them if so."""
        if self.used + count > self.budget.evaluations:
            return False
        if self.clock is not None and self.deadline is not None and self.clock() > self.deadline:
            return False
        self.used += count
        return True


class ExpertStrategy(NormalStrategy):
    """The normal player plus a search over the unseen cards at close discards, and salvage."""

    name = "expert"

    def __init__(
        self,
        budget: SearchBudget | None = None,
        *,
        read: bool = False,
        search: bool = True,
        buys: bool = False,
        salvage: bool = True,
        extend: bool = True,
        keep_collected: bool = True,
        blind: bool = True,
        guard: bool = True,
        chase: bool = False,
        latent: bool = False,
        clock: Callable[[], float] | None = None,
    ) -> None:
        super().__init__()
        self.budget = budget or SearchBudget()
        self.read = read
        self.search = search
        self.buys = buys
        self.salvage = salvage
        self.extend = extend
        self.keep_collected = keep_collected
        self.blind = blind
        self.guard = guard
        self.chase = chase
        self.latent = latent
        self.clock = clock
        #: Discard candidates searched, best first by the normal ranking, when their costs
        #: are within ``margin`` points of the best (a clear choice needs no search).
        self.width = 6
        self.margin = 35.0
        #: From this threat on (an opponent down with two cards or fewer), a hand two or more
        #: cards from going down only sheds points.
        self.salvage_threat = 0.8
        #: From this threat on (above 1: never), a hand even one card short only sheds points.
        self.salvage_all = 2.0
        #: Graded salvage (off when empty): (threat, cards short) pairs, any of which makes a
        #: deal lost; e.g. an opponent down with three cards against a hand three short.
        self.salvage_grades: tuple[tuple[float, int], ...] = ()
        #: In salvage, draw the upcard when it costs less than a stock card is expected to.
        self.cheap_take = False
        #: Points against throwing a card the next player collects / another collects.
        self.feed_next = 14.0
        self.feed_other = 5.0
        #: Points per card of expected deficiency after the next draw (45 until the
        #: lengthening and keeping parts came; 70 and 100 screened alike, README).
        self.draw_weight = 70.0
        #: Lengthening takes stop from this threat on (the taken card is points in hand).
        self.extend_threat = 0.5
        #: Points a collected card is kept by, once down (a near-table card gets 3).
        self.keep_weight = 8.0
        #: Going out in one: hold while going down would leave at most this many cards (the
        #: discard and one more; 3, two more, screened alike) and the threat is at most
        #: ``hold_threat`` (0: no opponent down).
        self.hold_left = 2
        self.hold_threat = 0.0
        #: Hold also in deals whose contract takes more cards than a hand holds after its draw
        #: (deals 8-10 of the standard list). There an opponent who goes down mostly goes out
        #: in the same turn, and a held hand is caught whole.
        self.hold_big = False
        #: Guarding a lead: in this many last deals of the game (see ``_guarding``).
        self.guard_deals = 2
        #: Chasing: in this many last deals of the game (see ``chasing_deficit``) ...
        self.chase_deals = 1
        #: ... from this deficit to the leader per deal still to play.
        self.chase_deficit = 100
        #: Latent threat: the threat of an opponent not yet down who holds enough cards to
        #: go down and out in one turn in a deal whose contract outgrows a dealt hand.
        self.latent_level = 0.35
        #: In the deals whose contract outgrows a dealt hand, the discard's weights on points
        #: and plan under threat (the normal player's ``point_threat``, ``plan_threat``) are
        #: scaled by this (1: as elsewhere).
        self.big_threat_scale = 1.0
        #: Evaluations the last decision used (for tests and the benchmark).
        self.last_evaluations = 0

    # -- decisions ---------------------------------------------------------------------------

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        self.last_evaluations = 0
        return super().choose(view, legal, rng)

    def wants_buy(self, view: PlayerView, rng: random.Random) -> bool:
        self.last_evaluations = 0
        return super().wants_buy(view, rng)

    def threat(self, view: PlayerView) -> float:
        """The normal player's threat (opponents down, by the cards they hold), and with
        ``latent`` a threat from an opponent not down: in the deals whose contract takes more
        cards than a hand holds after its draw (8-10 of the standard list), nobody can go
        down before buying, and a player who goes down there mostly goes out in the same
        turn, so the normal threat comes too late; an opponent whose hand after its draw
        holds the contract and a discard may go out at its next turn."""
        level = super().threat(view)
        if not self.latent or level >= self.latent_level or not _outgrows_hand(view):
            return level
        need = contract_cards(view.contract)
        for seat, info in enumerate(view.seats):
            if seat != view.seat and not info.is_down and info.hand_size >= need:
                return self.latent_level
        return level

    def guarded_lead(self, view: PlayerView) -> int | None:
        """The lead this seat guards (see ``guard``), or None when it plays on: ahead of
        every opponent, this late, by the cheapest hand's points for each deal still to play.
        A seat already down plays on (its cards go to the table). The Hint button words its
        advice with it."""
        to_play = view.rules.num_deals - view.deal + 1
        if not self.guard or view.seat is None or to_play > self.guard_deals or seat_is_down(view):
            return None
        own = view.seats[view.seat].total
        lead = min(s.total for i, s in enumerate(view.seats) if i != view.seat) - own
        return lead if lead >= to_play * _cheapest_hand(view) else None

    def chasing_deficit(self, view: PlayerView) -> int | None:
        """The deficit this seat chases (see ``chase``), or None when it plays on: behind
        the leader, this late, by ``chase_deficit`` points for each deal still to play. Such
        a game is won only if this seat goes out while the leader is caught with more than
        the deficit, so speed is worth more than the points a buy adds."""
        to_play = view.rules.num_deals - view.deal + 1
        if not self.chase or view.seat is None or to_play > self.chase_deals:
            return None
        own = view.seats[view.seat].total
        deficit = own - min(s.total for i, s in enumerate(view.seats) if i != view.seat)
        return deficit if deficit >= to_play * self.chase_deficit else None

    def _guarding(self, view: PlayerView) -> bool:
        return self.guarded_lead(view) is not None

    def _only_points_count(self, view: PlayerView, cards: Sequence[Card]) -> bool:
        """Whether only the points held count this deal, so the hand sheds them: the deal
        will almost surely end before it can go down (an opponent is down with a card or two
        and the hand still lacks two or more cards: salvage), or the seat guards its lead."""
        if self._guarding(view):
            return True
        if not self.salvage:
            return False
        threat = self.threat(view)
        short = [(self.salvage_threat, 2), (self.salvage_all, 1), *self.salvage_grades]
        need = min((cards for level, cards in short if threat >= level), default=None)
        if need is None:
            return False
        return self._deficiency(cards, view)[0] >= need

    def _draw(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        upcard = view.upcard
        if self._guarding(view):
            return self._guarding_draw(view, legal)
        if (
            self.blind
            and upcard is not None
            and TakeUpcard() in legal
            and not seat_is_down(view)
            and self._out_in_one([*hand_in_view(view), upcard], view, needs=upcard)
        ):
            return TakeUpcard()
        if (
            self.cheap_take
            and upcard is not None
            and TakeUpcard() in legal
            and not seat_is_down(view)
            and self._only_points_count(view, hand_in_view(view))
        ):
            # Salvage: whatever is drawn, the dearest card goes; a cheap upcard is a smaller
            # risk than the stock's average card.
            reading = read_table(view)
            value = view.rules.card_value
            total = reading.unseen_total
            if total:
                expected = (
                    sum(copies * value(card_of_index(i)) for i, copies in reading.unseen.items())
                    / total
                )
                if value(upcard) < expected:
                    return TakeUpcard()
        action = super()._draw(view, legal)
        if self.extend and action == DrawStock() and self._lengthens(view, legal):
            return TakeUpcard()
        return action

    def _guarding_draw(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Guarding a lead, the upcard is taken when it is worth 5 (the least a card scores)
        and the hand holds a dearer card, which then goes: a sure saving, where a stock card
        is worth 5 only about half the time."""
        upcard = view.upcard
        value = view.rules.card_value
        if (
            upcard is not None
            and TakeUpcard() in legal
            and value(upcard) <= _cheapest_card(view)
            and any(value(card) > value(upcard) for card in hand_in_view(view))
        ):
            return TakeUpcard()
        return DrawStock() if DrawStock() in legal else super()._draw(view, legal)

    def _play(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        guarding = self._guarding(view)  # a guarded deal holds nothing back
        held = self._hold_for_blind(view, legal) if self.blind and not guarding else None
        return held if held is not None else super()._play(view, legal)

    def _out_in_one(
        self, cards: Sequence[Card], view: PlayerView, needs: Card | None = None
    ) -> bool:
        """Whether ``cards`` go down and out in one turn: a contract using them all but at
        most the discard (none where the rules forbid a final discard), with ``needs`` melded
        rather than thrown (a taken upcard is no use as the discard)."""
        melds = find_contract(cards, view.deal, view.rules)
        if melds is None:
            return False
        left = _left_over(cards, melds)
        allowed = 0 if view.rules.final_discard == "forbidden" else 1
        return left.total() <= allowed and (needs is None or left[needs] < cards.count(needs))

    def _hold_for_blind(self, view: PlayerView, legal: Sequence[Action]) -> Action | None:
        """The discard that keeps the contract in hand for going out in one, or None to go
        down now: the rules pay the bonus, no opponent is down, going down would leave two
        to ``hold_left`` cards, and some card still to come would finish the hand."""
        downs = [action for action in legal if isinstance(action, GoDown)]
        if not downs or not view.rules.blind_bonus or self.threat(view) > self.hold_threat:
            return None
        if not self.hold_big and _outgrows_hand(view):
            return None
        hand = hand_in_view(view)
        left = _left_over(hand, downs[0].melds)
        if not 2 <= left.total() <= self.hold_left:
            return None
        reading = read_table(view)
        best: tuple[tuple[int, int, int], Card] | None = None
        for card in sorted(+left, key=card_index):  # the melds stay whole without any of them
            rest = list(hand)
            rest.remove(card)
            outs = sum(
                copies
                for index, copies in reading.unseen.items()
                if could_help(rest, card_of_index(index), view.contract, view.rules)
                and self._out_in_one([*rest, card_of_index(index)], view)
            )
            key = (outs, view.rules.card_value(card), -card_index(card))
            if outs and (best is None or key > best[0]):
                best = (key, card)
        return None if best is None else discard_of(legal, best[1])

    def _lengthens(self, view: PlayerView, legal: Sequence[Action]) -> bool:
        """Whether to take an upcard the normal player leaves because it shortens nothing:
        it lengthens a planned meld while a spare card that lengthens nothing can go."""
        upcard = view.upcard
        rules = view.rules
        if (
            upcard is None
            or TakeUpcard() not in legal
            or seat_is_down(view)
            or rules.is_wild(upcard)
            or self.threat(view) >= self.extend_threat
        ):
            return False
        hand = hand_in_view(view)
        plan = plan_contract(hand, view.contract, rules, len(view.seats))
        if not extends_plan(upcard, plan):
            return False
        if not any(not rules.is_wild(c) and not extends_plan(c, plan) for c in plan.spare):
            return False
        return not self._would_throw_back(view, upcard)

    def _buy_pays(self, view: PlayerView, gain: int) -> bool:
        upcard = view.upcard
        if upcard is not None and self._only_points_count(view, [*hand_in_view(view), upcard]):
            return False  # a buy would only add points to a hand that will be caught
        if gain > 0 and self.chasing_deficit(view) is not None:
            return True  # far behind: every card nearer the contract, whatever it costs
        if not self.buys or gain <= 0 or view.upcard is None:
            return super()._buy_pays(view, gain)
        if cards_short(view) > 0:
            return True
        if self.threat(view) >= 0.8:
            return False  # an opponent is about to go out: two more cards are only points
        reading = read_table(view)
        live = reading.unseen.get(card_index(view.upcard), 0)
        close = self.buy_close - (view.rules.buy_penalty_cards - 1)
        if live == 0:
            close += 1  # the last copy in play: waiting will not bring another
        elif live >= 2 and gain == 1:
            close -= 1
        after, _ = self._deficiency([*hand_in_view(view), view.upcard], view)
        return after <= close

    def _keep_when_down(self, view: PlayerView) -> Callable[[Card], float]:
        if not self.keep_collected:
            return super()._keep_when_down(view)
        collected = self._collected(view, read_table(view))
        return lambda card: self.keep_weight * collected(card)

    def _discard(self, view: PlayerView, allowed: Sequence[Card]) -> Card:
        if not seat_is_down(view) and self._only_points_count(view, hand_in_view(view)):
            # Salvage: throw the dearest card, wilds included (a joker caught costs 50).
            value = view.rules.card_value
            return max(dict.fromkeys(allowed), key=lambda c: (value(c), -card_index(c)))
        if seat_is_down(view) or not (self.read or self.search):
            return super()._discard(view, allowed)
        reading = read_table(view)
        ranked, close, cost = self._close_discards(view, allowed, reading, self.width)
        if not self.search or len(close) == 1:
            return ranked[0]
        meter = _Meter(self.budget, self.clock)
        per_card = max(2, self.budget.evaluations // len(close))
        hand = hand_in_view(view)
        draw_weight = self._draw_term_weight(view)
        scored: list[tuple[float, int, Card]] = []
        for card in close:
            others = list(hand)
            others.remove(card)
            after = self._after_draw(others, view, reading, meter, per_card)
            if after is None:
                break
            scored.append((cost(card) + draw_weight * after, card_index(card), card))
        self.last_evaluations = meter.used
        if not scored:
            return ranked[0]
        return min(scored)[2]

    def _close_discards(
        self, view: PlayerView, allowed: Sequence[Card], reading: TableReading, width: int
    ) -> tuple[list[Card], list[Card], Callable[[Card], float]]:
        """The discard candidates best first by the normal player's cost (plus feeding, when
        reading), the ones a search weighs (the first ``width`` within ``margin`` points of
        the best: a clear choice needs none) and that cost. ``tools.foresight`` weighs the
        same ones."""
        candidates, normal_cost = self._discard_costs(view, allowed)
        feed = self._feed(view, reading) if self.read else (lambda card: 0.0)

        def cost(card: Card) -> float:
            return normal_cost(card) + feed(card)

        ranked = sorted(candidates, key=lambda c: (cost(c), card_index(c)))
        best = cost(ranked[0])
        return ranked, [c for c in ranked[:width] if cost(c) <= best + self.margin], cost

    def _draw_term_weight(self, view: PlayerView) -> float:
        """Points per card of deficiency expected after the next draw, in a searched discard
        (the plan weighs less as an opponent nears going out)."""
        return (1.0 - self.plan_threat * self.threat(view)) * self.draw_weight

    def _threat_weights(self, view: PlayerView) -> tuple[float, float]:
        weights = super()._threat_weights(view)
        if self.big_threat_scale == 1.0 or not _outgrows_hand(view):
            return weights
        return weights[0] * self.big_threat_scale, weights[1] * self.big_threat_scale

    # -- reading and searching ---------------------------------------------------------------

    @staticmethod
    def _collectors(view: PlayerView, reading: TableReading) -> dict[int, Callable[[Card], bool]]:
        """Per opponent not yet down, whether a card matches what that opponent took or
        bought (and still holds): its rank, for a set, or its suit within two values, for a
        run. Wilds match nothing (everyone wants them)."""
        rules = view.rules
        has_sets = any(kind == "set" for kind, _ in view.contract)
        has_runs = any(kind == "run" for kind, _ in view.contract)

        def matcher(kept: Sequence[Card]) -> Callable[[Card], bool]:
            naturals = [c for c in kept if not rules.is_wild(c)]

            def matches(card: Card) -> bool:
                return not rules.is_wild(card) and any(
                    (has_sets and other.rank == card.rank)
                    or (has_runs and other.suit == card.suit and abs(other.rank - card.rank) <= 2)
                    for other in naturals
                )

            return matches

        return {
            seat: matcher(cards)
            for seat, cards in enumerate(reading.held)
            if cards and seat != view.seat and not view.seats[seat].is_down
        }

    def _collected(self, view: PlayerView, reading: TableReading) -> Callable[[Card], bool]:
        """Whether any opponent not yet down collects a card like this one."""
        collectors = list(self._collectors(view, reading).values())
        return lambda card: any(matches(card) for matches in collectors)

    def _feed(self, view: PlayerView, reading: TableReading) -> Callable[[Card], float]:
        """Points against a discard that matches what an opponent not down collects, the
        next player's wants most."""
        assert view.seat is not None
        following = (view.seat + 1) % len(view.seats)
        weighted = [
            (self.feed_next if seat == following else self.feed_other, matches)
            for seat, matches in self._collectors(view, reading).items()
        ]
        return lambda card: sum(weight for weight, matches in weighted if matches(card))

    def _after_draw(
        self,
        cards: Sequence[Card],
        view: PlayerView,
        reading: TableReading,
        meter: _Meter,
        evaluations: int,
    ) -> float | None:
        """The expected deficiency of ``cards`` plus one stock draw, over the cards that may
        still come (weighted by their live copies); None when the budget runs out.

        With more cards that could help than ``evaluations`` allows, a sample of them stands
        for all, drawn from a generator seeded by the hand, so the answer stays the same for
        the same view."""
        contract: Contract = view.contract
        rules = view.rules
        players = len(view.seats)
        key = hand_key(cards)
        helpful = [
            (index, copies)
            for index, copies in sorted(reading.unseen.items())
            if could_help(cards, card_of_index(index), contract, rules)
        ]
        total = reading.unseen_total
        helping = sum(copies for _, copies in helpful)
        if len(helpful) > evaluations - 1:
            helpful = random.Random(repr(key)).sample(helpful, max(1, evaluations - 1))
        if not meter.spend(1 + len(helpful)):
            return None
        base, _ = deficiency_of_key(key, contract, rules, players)
        if total == 0 or not helpful:
            return float(base)
        gained = 0.0
        weight = 0
        for index, copies in helpful:
            grown = tuple(sorted((*key, index)))
            gained += copies * (base - deficiency_of_key(grown, contract, rules, players)[0])
            weight += copies
        return base - (gained / weight) * (helping / total)


def _outgrows_hand(view: PlayerView) -> bool:
    """Whether the deal's contract takes more cards than a hand holds after its draw (deals
    8-10 of the standard list): nobody goes down there before buying, and mostly goes out
    in the same turn."""
    return contract_cards(view.contract) > view.rules.hand_size_for(len(view.seats)) + 1


def _cheapest_card(view: PlayerView) -> int:
    """The fewest points a card scores (5, for the 3s to 9s of both score tables)."""
    return min(SCORE_TABLES[view.rules.score_table].values())


def _cheapest_hand(view: PlayerView) -> int:
    """The fewest points a hand caught this deal can hold: a dealt hand of the cheapest cards."""
    return view.rules.hand_size_for(len(view.seats)) * _cheapest_card(view)


def _left_over(cards: Sequence[Card], melds: Sequence[Meld]) -> Counter[Card]:
    """The cards of ``cards`` that ``melds`` (laid from them) leave in hand."""
    left = Counter(cards)
    left.subtract(placed.card for meld in melds for placed in meld.cards)
    return +left


class ClassicExpertStrategy(ExpertStrategy):
    """``ExpertStrategy`` under a name of its own (``expert-classic``), so that screens can
    seat it beside the searching expert, whose ``name`` differs."""

    name = "expert-classic"


__all__ = ["ClassicExpertStrategy", "ExpertStrategy", "SearchBudget"]
