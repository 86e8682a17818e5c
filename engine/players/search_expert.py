"""The searching expert: the expert's plan, with determinized deal rollouts at
chosen decisions.

Two decisions can be searched, each a choice between the expert's own answer and one
alternative:

- **going down** (``search_down``, on): whether to go down now or hold the contract one more
  turn for going out in one (the blind bonus, -25 or -50, against 0 at best for going down
  first and a hand caught whole if an opponent goes out meanwhile). The expert holds by rule
  (deals 1-7, no opponent down, two leftovers); the search weighs the other answer whenever
  going down would leave two to ``down_left`` cards, in every deal and at any threat.
- **the upcard** (``search_draw``, ``search_buy``, off): take the upcard or draw from the
  stock, and, off turn, buy it or pass, when the upcard would shorten the hand by one to
  three cards. The expert's thresholds there (the normal player's ``buy_close``) were the most
  sensitive of README's screens, so this was searched first; but at the budget one core
  allows (about ten samples) the rollouts' paired differences (25-60 points between samples
  against true differences of a few points) only pick noise: of 14 answers the search
  changed, 40 longer rollouts per candidate agreed with 5, and the changes lost 4 points a
  deal on average. Going down has stakes several times larger; there 9 of 13 changes held.

A search plays each candidate on:

1. up to ``samples`` times, the hidden cards are dealt anew from the view (``determinize``:
   the opponents' hands hold the cards they are known to hold, the rest at random);
2. the buy requests other seats would make are settled by the normal player, and each
   candidate is applied to its own copy of that same deal (common random numbers: every
   candidate meets the same hidden cards and the same rollout choices, so their difference
   is measured far more sharply than their values);
3. the deal is played on by four normal players to its end, or for ``max_actions`` actions
   and then scored by the points in each hand times the chance of being caught with them
   (lower the fewer cards the hand lacks; ``_leaf``);
4. a candidate's value is the opponents' mean deal score minus this seat's.

The expert's own answer is kept unless the other beats it clearly: by ``rollout_margin`` points plus
``confidence`` standard errors of the paired difference. The rollouts play every seat, this
one included, by the cheaper normal player, so only a clear difference overrides the tuned
plan; and the search stops early once more samples could not change its answer.

Everywhere else (the discard, laying off, salvage, guarding a lead) it is the expert of
``expert.py``. The budget is counted in samples and rollout actions (``RolloutBudget``), so a
decision is the same for the same view whatever the machine's load; all chance comes from
generators seeded by the view. A wall-clock cap applies only with a ``clock`` (the bot
passes one).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from engine.actions import Action, BuyInTurn, Discard, DrawStock, GoDown, RequestBuy, TakeUpcard
from engine.game import Game
from engine.view import PlayerView

from .determinize import sample_game
from .expert import ExpertStrategy, SearchBudget
from .hints import deficiency_of_key, hand_key
from .reading import read_table
from .strategy import NormalStrategy, cards_short, hand_in_view, seat_is_down


@dataclass(frozen=True, slots=True)
class RolloutBudget:
    """How much one searched decision may play out.

    ``samples``: determinized deals per decision at most (every candidate plays each);
    ``first``: the samples always played; past them the search stops as soon as the answer
    is settled (every alternative clearly better or clearly no better than the expert's);
    ``max_actions``: actions per rollout before it is cut and scored by the cards in hand;
    ``actions``: rollout actions per decision: no sample starts that could take it past
    this (what bounds a decision's time: an action costs about 0.35 ms, up to 1.3 ms late in
    the game, when hands are big; 320 actions keep a decision under 0.5 s);
    ``seconds``: a wall-clock cap, used only with a clock (whole samples are kept or dropped,
    so the candidates stay compared on the same deals).
    """

    samples: int = 10
    first: int = 4
    max_actions: int = 50
    actions: int = 320
    seconds: float = 0.4


#: Per candidate, the deal-score margins (opponents' mean minus this seat's) of each sample.
Outcomes = list[list[float]]
C = TypeVar("C")


class SearchExpertStrategy(ExpertStrategy):
    """``ExpertStrategy`` plus determinized rollouts at the upcard decisions (module doc)."""

    name = "searcher"

    def __init__(
        self,
        budget: SearchBudget | None = None,
        rollouts: RolloutBudget | None = None,
        *,
        search_draw: bool = False,
        search_buy: bool = False,
        search_down: bool = True,
        clock: Callable[[], float] | None = None,
    ) -> None:
        super().__init__(budget, clock=clock)
        self.rollouts = rollouts or RolloutBudget()
        self.search_draw = search_draw
        self.search_buy = search_buy
        self.search_down = search_down
        #: Holding is weighed against going down when going down would leave at most this
        #: many cards (the discard included).
        self.down_left = 3
        #: Points (of mean deal margin) another candidate must beat the expert's answer by.
        #: (Not ``margin``: that is the expert's own, the discard search's window of 35.)
        self.rollout_margin = 3.0
        #: Standard errors of the paired difference below its mean that must still clear
        #: ``rollout_margin``: a few rollouts are noisy (a deal's margin varies by 25-60 points
        #: between samples), and a change on noise alone only makes play worse.
        self.confidence = 1.0
        #: The upcard is searched when the hand with it would still lack this many cards:
        #: with none missing it goes down (always right); from four on the expert passes,
        #: and rollouts rarely disagree.
        self.search_from = 1
        self.search_to = 3
        self.policy = NormalStrategy()
        #: A cut rollout's chance of a hand being caught: down, and not down by the cards it
        #: still lacks (``caught_base`` + ``caught_step`` each, at most ``caught_most``).
        self.caught_down = 0.3
        self.caught_base = 0.3
        self.caught_step = 0.15
        self.caught_most = 0.9
        #: Rollouts and rollout actions the last decision used (tests, benchmarks).
        self.last_rollouts = 0
        self.last_rollout_actions = 0
        #: Searched decisions by kind and deal ('buy 3', 'draw 7'), and those whose answer
        #: the search changed ('buy 3: yes -> no'): where the search acts, for the README.
        self.searched: Counter[str] = Counter()
        self.changed: Counter[str] = Counter()

    # -- decisions ---------------------------------------------------------------------------

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        self.last_rollouts = self.last_rollout_actions = 0
        return super().choose(view, legal, rng)

    def wants_buy(self, view: PlayerView, rng: random.Random) -> bool:
        self.last_rollouts = self.last_rollout_actions = 0
        base = super().wants_buy(view, rng)
        if not self.search_buy or not self._upcard_in_question(view):
            return base
        candidates = [base, not base]
        outcomes = self._search(view, candidates, self._buy_start)
        return self._noted(view, "buy", self._pick(candidates, outcomes, base), base)

    def _draw(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        base = super()._draw(view, legal)
        if not self.search_draw or not self._upcard_in_question(view):
            return base
        # Two candidates: the expert's answer and its nearest alternative (a take is
        # weighed against the stock, a buy in turn or a stock draw against the take).
        alternative: Action = DrawStock() if base == TakeUpcard() else TakeUpcard()
        if base not in (TakeUpcard(), BuyInTurn(), DrawStock()) or alternative not in legal:
            return base
        candidates = [base, alternative]
        outcomes = self._search(view, candidates, self._draw_start)
        return self._noted(view, "draw", self._pick(candidates, outcomes, base), base)

    def _noted(self, view: PlayerView, kind: str, choice: C, base: C) -> C:
        """``choice``, counted in ``searched`` and, when it is not ``base``, in ``changed``."""
        self.searched[f"{kind} {view.deal}"] += 1
        if choice != base:
            self.changed[f"{kind} {view.deal}: {_word(base)} -> {_word(choice)}"] += 1
        return choice

    def _play(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        base = super()._play(view, legal)
        if not self.search_down:
            return base
        alternative = self._down_alternative(view, legal, base)
        if alternative is None:
            return base
        candidates = [base, alternative]
        outcomes = self._search(view, candidates, self._draw_start)
        return self._noted(view, "down", self._pick(candidates, outcomes, base), base)

    def _down_alternative(
        self, view: PlayerView, legal: Sequence[Action], base: Action
    ) -> Action | None:
        """Going down now against holding the contract one more turn for going out in one:
        the other of the two when the expert chose one (a Shanghai deal that pays the blind
        bonus, no lead guarded); None when there is no such choice. Holding throws the
        leftover that keeps the most cards able to finish the hand (the expert's own
        choice, its limits on the threat, the leftovers and the contract's size lifted)."""
        downs = [action for action in legal if isinstance(action, GoDown)]
        if (
            not downs
            or view.rules.game != "shanghai"
            or not view.rules.blind_bonus
            or self._guarding(view)
        ):
            return None
        if isinstance(base, Discard):
            return downs[0]  # the expert holds: against going down now
        if not isinstance(base, GoDown):
            return None
        limits = (self.hold_threat, self.hold_left, self.hold_big)
        self.hold_threat, self.hold_left, self.hold_big = 1.0, self.down_left, True
        try:
            return self._hold_for_blind(view, legal)
        finally:
            self.hold_threat, self.hold_left, self.hold_big = limits

    def _upcard_in_question(self, view: PlayerView) -> bool:
        """Whether the upcard decision is one the search can improve: a Shanghai deal, this
        seat not down, the upcard shortening its deficiency, the deal not lost nor a lead
        guarded (then only points count, and the expert's shedding is the answer), and the
        hand not short of cards for the contract (then it must buy, and does)."""
        if view.rules.game != "shanghai" or view.upcard is None or seat_is_down(view):
            return False
        if cards_short(view) > 0 or self._upcard_gain(view) <= 0:
            return False
        after, _ = self._deficiency([*hand_in_view(view), view.upcard], view)
        if not self.search_from <= after <= self.search_to:
            return False
        return not self._only_points_count(view, [*hand_in_view(view), view.upcard])

    # -- the search ----------------------------------------------------------------------------

    def _pick(self, candidates: Sequence[C], outcomes: Outcomes, base: C) -> C:
        """The expert's answer ``base`` unless another candidate beats it clearly: by more
        than ``rollout_margin`` points plus ``confidence`` standard errors of the paired difference
        over the same samples (ties: the earlier candidate)."""
        index = list(candidates).index(base)
        best, best_low = index, 0.0
        for other in range(len(candidates)):
            if other == index:
                continue
            low = self._lower_bound(outcomes[other], outcomes[index])
            if low > best_low:
                best, best_low = other, low
        return candidates[best]

    def _lower_bound(self, values: Sequence[float], base: Sequence[float]) -> float:
        """How far ``values`` beat ``base`` beyond the margin, ``confidence`` standard errors
        down (0 or less: not clearly)."""
        diffs = [a - b for a, b in zip(values, base, strict=False)]
        count = len(diffs)
        if count < 2:
            return 0.0
        mean = sum(diffs) / count
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (count - 1))
        return mean - self.rollout_margin - self.confidence * spread / math.sqrt(count)

    def _settled(self, outcomes: Outcomes, base: int) -> bool:
        """Whether more samples could no longer change the answer: every other candidate
        is clearly better or clearly no better than the expert's (two standard errors)."""
        for other in range(len(outcomes)):
            if other == base:
                continue
            diffs = [a - b for a, b in zip(outcomes[other], outcomes[base], strict=False)]
            count = len(diffs)
            if count < 2:
                return False
            mean = sum(diffs) / count
            spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (count - 1))
            error = 2.0 * spread / math.sqrt(count)
            if mean - error <= self.rollout_margin <= mean + error:
                return False
        return True

    def _search(
        self,
        view: PlayerView,
        candidates: Sequence[C],
        start: Callable[[Game, int, C, random.Random], None],
    ) -> Outcomes:
        """Each candidate's deal margins over ``samples`` determinized deals (module doc)."""
        assert view.seat is not None and view.hand is not None
        me = view.seat
        budget = self.rollouts
        deadline = None if self.clock is None else self.clock() + budget.seconds
        reading = read_table(view)
        key = f"{view.deal}:{len(view.history)}:{view.step}:{me}:{hand_key(view.hand)}"
        outcomes: Outcomes = [[] for _ in candidates]
        for sample in range(budget.samples):
            if deadline is not None and self.clock is not None and self.clock() > deadline:
                break
            if sample >= budget.first and self._settled(outcomes, 0):
                break
            if self.last_rollout_actions + len(candidates) * budget.max_actions > budget.actions:
                break
            dealt = sample_game(view, random.Random(f"{key}:deal:{sample}"), reading)
            self._settle_other_buys(dealt, me, random.Random(f"{key}:buys:{sample}"))
            for index, candidate in enumerate(candidates):
                game = dealt.copy()
                rng = random.Random(f"{key}:play:{sample}")
                start(game, me, candidate, rng)
                outcomes[index].append(self._play_out(game, me, rng))
        return outcomes

    def _settle_other_buys(self, game: Game, me: int, rng: random.Random) -> None:
        """The buy requests the other seats off turn make for the live upcard (the normal
        player's answer for each), before this seat's candidate is applied."""
        if not game.buy_window_open:
            return
        n = len(game.players)
        for offset in range(1, n):
            seat = (game.current + offset) % n
            if seat == me:
                continue
            player = game.players[seat]
            if RequestBuy() in game.legal_actions(player) and self.policy.wants_buy(
                game.view(player), rng
            ):
                game.apply(player, RequestBuy())

    @staticmethod
    def _buy_start(game: Game, me: int, candidate: bool, rng: random.Random) -> None:
        """Off turn: ask to buy (``candidate`` True) or pass; then the player in turn draws
        (the normal player) so that the buy is settled before the rollout goes on."""
        player = game.players[me]
        if candidate and RequestBuy() in game.legal_actions(player):
            game.apply(player, RequestBuy())

    @staticmethod
    def _draw_start(game: Game, me: int, candidate: Action, rng: random.Random) -> None:
        game.apply(game.players[me], candidate)

    def _play_out(self, game: Game, me: int, rng: random.Random) -> float:
        """Play the deal on by normal players (the buy window of the decision's own upcard is
        already settled); the opponents' mean deal score minus ``me``'s."""
        policy = self.policy
        rows = len(game.score_sheet)
        attempt = game.deal_attempt
        n = len(game.players)
        actions = 0
        settled = game.buy_window_open  # this window's requests were made before the start
        window_pile = len(game.pile)
        self.last_rollouts += 1
        while (
            not game.is_over
            and len(game.score_sheet) == rows
            and game.deal_attempt == attempt
            and actions < self.rollouts.max_actions
        ):
            if game.buy_window_open and not (settled and len(game.pile) == window_pile):
                for offset in range(1, n):
                    seat = (game.current + offset) % n
                    player = game.players[seat]
                    if RequestBuy() in game.legal_actions(player) and policy.wants_buy(
                        game.view(player), rng
                    ):
                        game.apply(player, RequestBuy())
            settled = False
            player = game.current_player
            game.apply(player, policy.choose(game.view(player), game.legal_actions(player), rng))
            actions += 1
        self.last_rollout_actions += actions
        if len(game.score_sheet) > rows:
            scores: Sequence[float] = game.score_sheet[-1]
        elif game.deal_attempt != attempt:
            return 0.0  # a void deal (on_exhaustion: void_deal) scores nothing
        else:
            scores = [self._leaf(game, seat) for seat in range(n)]
        others = [score for seat, score in enumerate(scores) if seat != me]
        return sum(others) / len(others) - scores[me]

    def _leaf(self, game: Game, seat: int) -> float:
        """A cut rollout's score for ``seat``: the points in hand, times the chance of being
        caught with them, which falls with the cards the hand still lacks (``caught_*``).
        Scoring the points in full instead made every card more in hand look like a loss
        (a buy's two cards, above all) and the search refused buys and takes it should
        make: 34 of 34 changed buys were refusals in a first screen."""
        hand = game.hands[seat]
        points = sum(game.rules.card_value(card) for card in hand)
        if game.down[seat]:
            return points * self.caught_down
        short, _ = deficiency_of_key(hand_key(hand), game.contract, game.rules, len(game.hands))
        return points * min(self.caught_most, self.caught_base + self.caught_step * short)


def _word(answer: object) -> str:
    """A searched answer as a word: 'yes' / 'no' for a buy, the action's text for a draw."""
    if isinstance(answer, bool):
        return "yes" if answer else "no"
    if isinstance(answer, GoDown):
        return "go down"
    if isinstance(answer, Discard):
        return "hold"
    return str(answer)


__all__ = ["RolloutBudget", "SearchExpertStrategy"]
