"""The game state machine: one ``Game`` per table, changed only through ``apply``.

Terminology (RULES.md 0.3): P is the in-turn player, D the player who made the last discard,
the *upcard* is the top of the discard pile and is *live* while it may still be taken. A turn
has a ``draw`` step and a ``play`` step (going down, laying off, swapping, then the discard).

Design notes:
- ``apply`` validates everything before it mutates anything, so an illegal action raises and
  leaves the state exactly as it was (python-chess's ``push`` after ``is_legal``).
- Chance is explicit and derived, never stored: every shuffle uses a ``random.Random`` seeded
  from (seed, deal attempt, restock number). A restored game therefore shuffles exactly as the
  original would without carrying a generator's 2.5 KB state around.
- Shanghai and classic Rummy share this machine; the differences are questions put to
  ``Rules`` (``rules.game``), never a forked class.
- The rules ``Game`` consults live beside it, one file each: ``buying.py`` (who may buy and
  who gets the card), ``play_plans.py`` (checking and planning a play step),
  ``legal_moves.py`` (what ``legal_actions`` offers) and ``game_json.py`` (saving and
  restoring). They only read a game in play; every change to it happens here.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from . import buying, game_json, legal_moves, shuffle
from .actions import (
    Action,
    BuyInTurn,
    CancelBuy,
    Discard,
    DrawStock,
    RequestBuy,
    TakeUpcard,
)
from .cards import Card, make_pack
from .errors import (
    BuyRefused,
    GameOver,
    IllegalAction,
    NotYourTurn,
    UnknownPlayer,
    WrongStep,
)
from .events import (
    BuyAwarded,
    BuyCancelled,
    BuyRequested,
    DealEnded,
    DealStarted,
    Discarded,
    DrewFromStock,
    Event,
    GameEnded,
    JokerSwapped,
    LaidOff,
    Restocked,
    TookUpcard,
    TurnStarted,
    UpcardDead,
    WentDown,
    WentOut,
)
from .play_plans import Plan, plan_play
from .rules import Contract, Rules
from .solver import ContractMemo
from .view import PlayerView, PublicMove, SeatView, Step, TableMeld, pile_move

#: Void deals of one contract in a row before the engine scores the next exhaustion anyway
#: (guards against endless redeals).
MAX_VOID_REDEALS = 3


class Game:
    """A whole game of Shanghai (or classic Rummy): ``num_deals`` deals and their scores."""

    def __init__(
        self,
        players: Sequence[str],
        rules: Rules,
        seed: int,
        *,
        secret: bytes | None = None,
        deal_seeds: Sequence[bytes] | None = None,
    ) -> None:
        """Use ``Game.new`` (deals the first hand) or ``Game.from_json``."""
        self.players: tuple[str, ...] = tuple(players)
        self.rules = rules
        #: Shanghai rather than classic Rummy (a plain attribute: it is asked at every step).
        self.is_shanghai: bool = rules.game == "shanghai"
        self.seed = seed
        #: The game secret each deal's seed derives from (``engine/shuffle.py``); None for a
        #: game shuffled the older way, from ``seed`` with ``random.Random``.
        self.secret = secret
        #: Deal seeds given outright, one per deal attempt (a replay of a finished game's
        #: record, which reveals the seeds but not the secret); they win over ``secret``.
        self.given_deal_seeds: tuple[bytes, ...] | None = (
            None if deal_seeds is None else tuple(deal_seeds)
        )
        self._seat_of = {player: seat for seat, player in enumerate(self.players)}
        n = len(self.players)
        self.deal = 1
        self.deal_attempt = 0
        self.void_redeals = 0
        self.dealer = 0
        self.current = 0
        self.step: Step = "draw"
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.stock: list[Card] = []
        #: Under ``stock_draws: per_seat`` the seat whose lane each stock card is in, index
        #: for index with ``stock``; empty when the stock is shared (or its lanes unknown, as in
        #: a computer's guess at the hidden cards), and then every draw takes the top card.
        #: A rebuilt stock is laned anew (``_lanes``).
        self.stock_lanes: list[int] = []
        self.pile: list[Card] = []
        #: Who discarded each pile card (None: the deal's first upcard), so that after a buy
        #: the view still names the owner of the card left on top.
        self.pile_from: list[int | None] = []
        self.upcard_live = False
        self.discarder: int | None = None
        self.buys_used = [0] * n
        self.buy_requests: list[int] = []
        self.down = [False] * n
        self.melds: list[TableMeld] = []
        self.restocks = 0
        #: Rebuilds of the stock since anyone last went down, laid off or swapped.
        self.idle_restocks = 0
        self.dry_turns = 0
        self.went_down_this_turn = False
        self.wild_left_hand = False
        self.taken_upcard: Card | None = None
        self.played_this_deal = [False] * n
        self.played_before_turn = False
        self.score_sheet: list[list[int]] = []
        self.deals_out = [0] * n
        self.blind_outs = [0] * n
        self.buys_total = [0] * n
        self.winner_seats: tuple[int, ...] = ()
        #: This deal's public moves in order (``view.PublicMove``), for the views.
        self.history: list[PublicMove] = []
        #: Per seat, what its contract searches proved (a cache, never saved: see
        #: ``solver.ContractMemo``); it only spares searches, it never changes an answer.
        self.contract_memos = [ContractMemo() for _ in range(n)]

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        rules: Rules,
        seed: int,
        *,
        secret: bytes | None = None,
        deal_seeds: Sequence[bytes] | None = None,
    ) -> Game:
        """Seat ``players`` (ids, in seat order) and deal the first hand.

        With ``secret`` (32 random bytes) every shuffle is the checkable one of
        ``engine/shuffle.py``, each deal committed to by its seed's hash; ``deal_seeds``
        replays a game whose seeds were revealed. Without either, ``seed`` shuffles as before.
        ``seed`` always picks the first dealer. Raises ``ValueError`` for a player count the
        rules refuse, duplicate ids or a secret or seed that is not 32 bytes.
        """
        if len(set(players)) != len(players):
            raise ValueError("Each player may sit only once")
        rules.check_player_count(len(players))
        for value in (secret, *(deal_seeds or ())):
            if value is not None and len(value) != shuffle.SEED_BYTES:
                raise ValueError(f"A secret or deal seed is {shuffle.SEED_BYTES} bytes")
        game = cls(players, rules, seed, secret=secret, deal_seeds=deal_seeds)
        game.dealer = game._first_dealer()
        game._start_deal()
        return game

    def _first_dealer(self) -> int:
        rng = random.Random(f"{self.seed}:dealer")
        n = len(self.players)
        if self.rules.first_dealer == "random":
            return rng.randrange(n)
        pack = [c for c in make_pack(1, 0)]
        cutters = list(range(n))
        while True:  # low_card: lowest cut deals, the ace low, ties cut again
            rng.shuffle(pack)
            cuts = {seat: pack[i].rank for i, seat in enumerate(cutters)}
            low = min(cuts.values())
            cutters = [seat for seat, rank in cuts.items() if rank == low]
            if len(cutters) == 1:
                return cutters[0]

    def _start_deal(self) -> list[Event]:
        rules, n = self.rules, len(self.players)
        decks, jokers = rules.pack_for(n)
        pack = make_pack(decks, jokers)
        seed = self.deal_seed(self.deal_attempt)
        if seed is None:
            random.Random(f"{self.seed}:deal:{self.deal_attempt}").shuffle(pack)
        else:
            pack = shuffle.shuffled(pack, seed, 0)
        hand_size = rules.hand_size_for(n)
        assert hand_size * n + 1 <= len(pack), "the pack is too small for this table"
        self.hands = [[] for _ in range(n)]
        for i in range(hand_size * n):
            self.hands[(self.dealer + 1 + i) % n].append(pack.pop())
        upcard = pack.pop()
        self.pile = [upcard]
        self.pile_from = [None]
        self.history = [pile_move(self.dealer, "turned", upcard)]
        self.stock = pack
        self.upcard_live = True
        self.discarder = None
        self.current = (self.dealer + 1) % n
        self.stock_lanes = self._lanes(len(pack))
        self.step = "draw"
        self.buys_used = [0] * n
        self.buy_requests = []
        self.down = [False] * n
        self.melds = []
        self.restocks = 0
        self.idle_restocks = 0
        self.dry_turns = 0
        self.played_this_deal = [False] * n
        self._reset_turn_flags()
        return [
            DealStarted(self.deal, self.dealer, self.current, upcard, self.commitment),
            TurnStarted(self.current),
        ]

    def _reset_turn_flags(self) -> None:
        self.went_down_this_turn = False
        self.wild_left_hand = False
        self.taken_upcard = None
        self.played_before_turn = self.played_this_deal[self.current]

    # -- public questions --------------------------------------------------------------------

    def deal_seed(self, attempt: int) -> bytes | None:
        """The seed of deal attempt ``attempt``; None for a game shuffled the older way.
        Raises ``ValueError`` past the end of given seeds (a record that lacks some)."""
        if self.given_deal_seeds is not None:
            if attempt >= len(self.given_deal_seeds):
                raise ValueError(f"No seed for deal attempt {attempt}")
            return self.given_deal_seeds[attempt]
        if self.secret is None:
            return None
        return shuffle.deal_seed(self.secret, attempt)

    @property
    def commitment(self) -> str | None:
        """The SHA-256 (hex) of this deal's seed, public from its start; None without seeds."""
        seed = self.deal_seed(self.deal_attempt)
        return None if seed is None else shuffle.commitment(seed)

    @property
    def revealed_seeds(self) -> tuple[str, ...]:
        """Every deal attempt's seed in hex, once the game is over (before then, nothing)."""
        if not self.is_over or self.deal_seed(0) is None:
            return ()
        seeds = (self.deal_seed(attempt) for attempt in range(self.deal_attempt + 1))
        return tuple(seed.hex() for seed in seeds if seed is not None)

    @property
    def current_player(self) -> str:
        return self.players[self.current]

    @property
    def is_over(self) -> bool:
        return self.step == "over"

    @property
    def buy_window_open(self) -> bool:
        """The upcard is live and P has not drawn yet."""
        return self.is_shanghai and self.step == "draw" and self.upcard_live

    @property
    def contract(self) -> Contract:
        return self.rules.contract_for(self.deal) if self.is_shanghai else ()

    @property
    def totals(self) -> list[int]:
        return [sum(row[seat] for row in self.score_sheet) for seat in range(len(self.players))]

    @property
    def winners(self) -> list[str]:
        return [self.players[seat] for seat in self.winner_seats]

    @property
    def buy_limit(self) -> int | None:
        return self.rules.buy_limit_for(self.deal) if self.is_shanghai else 0

    def seat_of(self, player: str) -> int:
        """The seat of ``player``; raises ``UnknownPlayer``."""
        try:
            return self._seat_of[player]
        except KeyError:
            raise UnknownPlayer(f"{player!r} is not playing at this table") from None

    def hand_of(self, player: str) -> tuple[Card, ...]:
        """That player's hand; for the player themself, tests and strategies given a view."""
        return tuple(self.hands[self.seat_of(player)])

    def is_legal(self, player: str, action: Action) -> bool:
        """Whether ``apply(player, action)`` would succeed, without changing anything."""
        try:
            self._check(self.seat_of(player), action)
        except IllegalAction:
            return False
        return True

    def check(self, player: str, action: Action) -> None:
        """Raise the ``IllegalAction`` that ``apply(player, action)`` would raise, naming the
        broken rule; nothing when it would succeed. Never changes anything."""
        self._check(self.seat_of(player), action)

    # -- applying actions --------------------------------------------------------------------

    def apply(self, player: str, action: Action) -> list[Event]:
        """Apply one action atomically and return what happened.

        Raises an ``IllegalAction`` subclass naming the broken rule; the state is then
        unchanged.
        """
        seat = self.seat_of(player)
        plan = self._check(seat, action)
        return self._do(seat, action, plan)

    def _check(self, seat: int, action: Action) -> Plan | None:
        """Raise unless ``action`` is legal for ``seat``; never mutates. A play-step action's
        ``Plan`` is returned, so that ``apply`` commits what was checked without working it
        out again."""
        if self.step == "over":
            raise GameOver("The game is over")
        if isinstance(action, RequestBuy):
            buying.check_request_buy(self, seat)
        elif isinstance(action, CancelBuy):
            if seat not in self.buy_requests:
                raise BuyRefused("You have no buy request to cancel", code="buy.nothing_to_cancel")
        else:
            if seat != self.current:
                raise NotYourTurn(
                    f"It is {self.players[self.current]}'s turn, not yours", code="turn.not_yours"
                )
            if isinstance(action, DrawStock | TakeUpcard | BuyInTurn):
                if self.step != "draw":
                    raise WrongStep("You have already drawn this turn", code="step.already_drawn")
                self._check_draw(seat, action)
            else:
                if self.step != "play":
                    raise WrongStep(
                        "Draw first: take the upcard or draw from the stock", code="step.draw_first"
                    )
                return plan_play(self, seat, action)
        return None

    def _do(self, seat: int, action: Action, plan: Plan | None) -> list[Event]:
        if isinstance(action, Discard):
            return self._discard(seat, action.card)
        if isinstance(action, RequestBuy):
            self.buy_requests.append(seat)
            return [BuyRequested(seat)]
        if isinstance(action, CancelBuy):
            self.buy_requests.remove(seat)
            return [BuyCancelled(seat)]
        if isinstance(action, DrawStock):
            return self._draw_stock(seat)
        if isinstance(action, TakeUpcard):
            if buying.buyer_beats_down_player(self, seat):
                return self._draw_stock(seat)
            return self._take_upcard(seat)
        if isinstance(action, BuyInTurn):
            return self._buy_in_turn(seat)
        assert plan is not None, "every other action is a play step, planned by _check"
        return self._commit_play(seat, plan)

    # -- draw step -----------------------------------------------------------------------------

    def _can_restock(self, keep_top: bool = False) -> bool:
        limit = self.rules.max_restocks
        needed = 2 if keep_top else 1
        return len(self.pile) >= needed and (limit is None or self.restocks < limit)

    def stock_lane(self, seat: int) -> list[Card]:
        """The stock cards ``seat`` will draw in turn, top first, under ``stock_draws:
        per_seat`` (hidden information: for checks and tests, never for a view); empty when
        the stock is shared."""
        return [
            card
            for card, lane in zip(self.stock[::-1], self.stock_lanes[::-1], strict=True)
            if lane == seat
        ]

    @property
    def stock_drawable(self) -> bool:
        """Whether a card can be drawn from the stock now: it has cards, or the discard pile
        can be shuffled into a new one (keeping the live upcard in Shanghai)."""
        if self.stock:
            return True
        return self._can_restock(keep_top=not self.is_shanghai)

    def _check_draw(self, seat: int, action: Action) -> None:
        if isinstance(action, TakeUpcard):
            if not self.pile or (self.is_shanghai and not self.upcard_live):
                raise IllegalAction("There is no live upcard to take", code="draw.no_live_upcard")
            return
        if isinstance(action, DrawStock):
            if self.is_shanghai and not self.stock_drawable and self.upcard_live:
                raise IllegalAction(
                    "The stock is empty and cannot be rebuilt: take the upcard",
                    code="draw.stock_empty",
                )
            return
        buying.check_buy_in_turn(self, seat)

    def buy_priority(self) -> list[int]:
        """Seats in the order their buy requests win; depends only on seats."""
        return buying.buy_priority(self)

    def _lanes(self, size: int) -> list[int]:
        """The lanes of a new stock of ``size`` cards under ``stock_draws: per_seat``: the
        top card (the list's end) to the player in turn, the next to the seat after, round
        the table."""
        if self.rules.stock_draws != "per_seat":
            return []
        n = len(self.players)
        return [(self.current + size - 1 - index) % n for index in range(size)]

    def _pull_from_stock(self, events: list[Event], seat: int) -> Card | None:
        """The next stock card for ``seat`` (the top of its lane, or of the stock when its lane
        is empty or the stock is shared), rebuilding the stock from the pile first when it is
        empty."""
        if not self.stock:
            if not self._can_restock(keep_top=not self.is_shanghai):
                return None
            if self.is_shanghai:
                cards, self.pile = self.pile, []
                self.pile_from = []
            else:  # Rummy's restock: the top discard stays
                cards, self.pile = self.pile[:-1], self.pile[-1:]
                self.pile_from = self.pile_from[-1:]
            self.restocks += 1
            self.idle_restocks += 1
            seed = self.deal_seed(self.deal_attempt)
            if seed is None:
                random.Random(
                    f"{self.seed}:deal:{self.deal_attempt}:restock:{self.restocks}"
                ).shuffle(cards)
            else:
                cards = shuffle.shuffled(cards, seed, self.restocks)
            self.stock = cards
            self.stock_lanes = self._lanes(len(cards))
            self.upcard_live = False if self.is_shanghai else self.upcard_live
            events.append(Restocked(len(cards), self.restocks, self.commitment))
        lanes = self.stock_lanes
        if not lanes:
            return self.stock.pop()
        index = max((i for i, lane in enumerate(lanes) if lane == seat), default=len(lanes) - 1)
        del lanes[index]
        return self.stock.pop(index)

    def _draw_stock(self, seat: int) -> list[Event]:
        events: list[Event] = []
        if self.is_shanghai and self.upcard_live:
            winner = buying.buy_winner(self)
            upcard = self.pile[-1]
            if winner is not None:
                self.pile.pop()
                self.pile_from.pop()
                self.hands[winner].append(upcard)
                self.buys_used[winner] += 1
                self.buys_total[winner] += 1
                for _ in range(self.rules.buy_penalty_cards):
                    card = self._pull_from_stock(events, winner)
                    assert card is not None, "the supply rule guarantees penalty cards"
                    self.hands[winner].append(card)
                events.append(BuyAwarded(winner, upcard, self.rules.buy_penalty_cards))
                self.history.append(pile_move(winner, "bought", upcard))
            else:
                events.append(UpcardDead(upcard))
            self.upcard_live = False
        self.buy_requests = []
        card = self._pull_from_stock(events, seat)
        if card is None:
            return events + self._exhaust()
        self.hands[seat].append(card)
        self.step = "play"
        events.append(DrewFromStock(seat))
        if self._only_cycling():
            return events + self._exhaust()
        return events

    def _only_cycling(self) -> bool:
        """Under ``max_restocks: unlimited`` the second rebuild of the stock in a row
        with no go-down, lay-off or swap since the first exhausts the deal. The action that
        needed the rebuild still gets its card (a draw, a penalty card); the deal ends right
        after it, before anyone plays."""
        return self.rules.max_restocks is None and self.idle_restocks >= 2

    def _take_upcard(self, seat: int) -> list[Event]:
        card = self.pile.pop()
        self.pile_from.pop()
        self.hands[seat].append(card)
        self.buy_requests = []
        self.upcard_live = False
        self.taken_upcard = card
        self.step = "play"
        self.history.append(pile_move(seat, "took", card))
        return [TookUpcard(seat, card)]

    def _buy_in_turn(self, seat: int) -> list[Event]:
        events: list[Event] = []
        card = self.pile.pop()
        self.pile_from.pop()
        self.hands[seat].append(card)
        self.upcard_live = False
        self.buys_used[seat] += 1
        self.buys_total[seat] += 1
        for _ in range(self.rules.buy_penalty_cards):
            extra = self._pull_from_stock(events, seat)
            assert extra is not None, "checked by the supply rule"
            self.hands[seat].append(extra)
        self.taken_upcard = card
        self.step = "play"
        events.append(BuyAwarded(seat, card, self.rules.buy_penalty_cards, in_turn=True))
        self.history.append(pile_move(seat, "bought", card))
        if self._only_cycling():
            return events + self._exhaust()
        return events

    # -- play step: committing ----------------------------------------------------------------

    def _commit_play(self, seat: int, plan: Plan) -> list[Event]:
        events: list[Event] = []
        assert plan.hand is not None and plan.table is not None
        history = self.history
        for swap, wild in plan.swapped:
            events.append(JokerSwapped(seat, swap.meld, swap.card, wild))
            history.append(PublicMove(seat, "swapped", swap.card, meld=swap.meld, wild=wild))
        laid: dict[int, list[tuple[int, Card]]] = {}
        for item in plan.laid_off:
            laid.setdefault(item.meld, []).append((seat, item.card))
        owners = [m.owner for m in self.melds] + [seat] * len(plan.new_melds)
        before = [m.laid_off for m in self.melds] + [()] * len(plan.new_melds)
        self.melds = [
            TableMeld(owners[index], meld, before[index] + tuple(laid.get(index, ())))
            for index, meld in enumerate([*plan.table, *plan.new_melds])
        ]
        self.hands[seat] = plan.hand
        if plan.new_melds:
            if plan.goes_down:
                self.down[seat] = True
                self.went_down_this_turn = True
            laid_down = tuple(plan.laid_down or plan.new_melds)
            events.append(WentDown(seat, laid_down))
            history.append(PublicMove(seat, "went_down", melds=laid_down))
        for item in plan.laid_off:
            events.append(LaidOff(seat, item.meld, item.card))
            history.append(PublicMove(seat, "laid_off", item.card, meld=item.meld))
        self.played_this_deal[seat] = True
        self.idle_restocks = 0  # the deal moved on: no longer a cycle
        self.wild_left_hand = self.wild_left_hand or plan.wild_used
        if not self.hands[seat]:
            events.extend(self._go_out(seat))
        return events

    def _discard(self, seat: int, card: Card) -> list[Event]:
        hand = self.hands[seat]
        hand.remove(card)
        self.pile.append(card)
        self.pile_from.append(seat)
        self.history.append(pile_move(seat, "discarded", card))
        if self.rules.is_wild(card):
            self.wild_left_hand = True
        events: list[Event] = [Discarded(seat, card)]
        if not hand:
            return events + self._go_out(seat)
        self.upcard_live = True
        self.discarder = seat
        self.buy_requests = []
        return events + self._next_turn()

    def _next_turn(self) -> list[Event]:
        n = len(self.players)
        self.current = (self.current + 1) % n
        self.step = "draw"
        self._reset_turn_flags()
        if self.is_shanghai and not self.stock_drawable:
            # With a dead stock each player gets one last turn with the upcard;
            # after a whole lap without anyone going out the deal is exhausted.
            self.dry_turns += 1
            if self.dry_turns > n:
                return self._exhaust()
        return [TurnStarted(self.current)]

    # -- ends of deals and of the game ---------------------------------------------------------

    def _go_out(self, seat: int) -> list[Event]:
        rules = self.rules
        n = len(self.players)
        self.deals_out[seat] += 1
        values = [sum(rules.card_value(c) for c in hand) for hand in self.hands]
        if self.is_shanghai:
            blind = self.went_down_this_turn and rules.blind_bonus
            scores = list(values)
            scores[seat] = (-25 if self.wild_left_hand else -50) if blind else 0
            if blind:
                self.blind_outs[seat] += 1
            rummy = False
        else:
            blind = False
            rummy = not self.played_before_turn
            points = sum(values) * (2 if rummy else 1)
            scores = [0] * n
            scores[seat] = points
            if rummy:
                self.blind_outs[seat] += 1
        self.score_sheet.append(scores)
        self.history.append(PublicMove(seat, "went_out"))
        events: list[Event] = [
            WentOut(seat, blind, rummy),
            DealEnded(self.deal, "out", tuple(scores), seat, self._scored_hands()),
        ]
        return events + self._after_deal(winner=seat)

    def _exhaust(self) -> list[Event]:
        rules, n = self.rules, len(self.players)
        if not self.is_shanghai:
            scores = [0] * n
        elif rules.on_exhaustion == "void_deal" and self.void_redeals < MAX_VOID_REDEALS:
            self.void_redeals += 1
            events: list[Event] = [DealEnded(self.deal, "void", (0,) * n, None)]
            self.dealer = (self.dealer + 1) % n
            self.deal_attempt += 1
            return events + self._start_deal()
        else:
            scores = [sum(rules.card_value(c) for c in hand) for hand in self.hands]
        self.score_sheet.append(scores)
        ended = DealEnded(self.deal, "exhausted", tuple(scores), None, self._scored_hands())
        return [ended, *self._after_deal(None)]

    def _scored_hands(self) -> tuple[tuple[Card, ...], ...]:
        """The hands as the deal's scoring counts them, which the table then sees."""
        return tuple(tuple(hand) for hand in self.hands)

    def _after_deal(self, winner: int | None) -> list[Event]:
        n = len(self.players)
        self.void_redeals = 0
        self.buy_requests = []
        if self._game_finished():
            self.step = "over"
            self.winner_seats = self._decide_winners()
            return [GameEnded(self.winner_seats, tuple(self.totals), self.revealed_seeds)]
        if (
            not self.is_shanghai
            and self.rules.dealer_rotation == "winner_deals_2p"
            and n == 2
            and winner is not None
        ):
            self.dealer = winner
        else:
            self.dealer = (self.dealer + 1) % n
        self.deal += 1
        self.deal_attempt += 1
        return self._start_deal()

    def _game_finished(self) -> bool:
        rules = self.rules
        if self.is_shanghai or rules.win_condition == "fixed_hands":
            return len(self.score_sheet) >= rules.num_deals
        return max(self.totals) >= rules.target_points

    def _decide_winners(self) -> tuple[int, ...]:
        totals = self.totals
        best = min(totals) if self.is_shanghai else max(totals)
        tied = [seat for seat, total in enumerate(totals) if total == best]
        if len(tied) > 1 and self.is_shanghai and self.rules.tie_break == "most_deals_out":
            most = max(self.deals_out[s] for s in tied)
            tied = [s for s in tied if self.deals_out[s] == most]
        return tuple(tied)

    # -- legal actions -------------------------------------------------------------------------

    def legal_actions(self, player: str) -> list[Action]:
        """Every legal action for ``player`` now, each one accepted by ``apply``.

        Which candidates are listed, and which are left to ``GoDownBuilder``, is said in
        ``engine/legal_moves.py``.
        """
        return legal_moves.legal_actions(self, self.seat_of(player))

    # -- views -----------------------------------------------------------------------------------

    def view(self, player: str | None) -> PlayerView:
        """What ``player`` may see; ``None`` is a spectator (no hand at all)."""
        seat = None if player is None else self.seat_of(player)
        totals = self.totals
        seats = tuple(
            SeatView(
                self.players[s], len(self.hands[s]), self.down[s], self.buys_used[s], totals[s]
            )
            for s in range(len(self.players))
        )
        return PlayerView(
            player=player,
            seat=seat,
            rules=self.rules,
            deal=self.deal,
            contract=self.contract,
            dealer=self.dealer,
            current=self.current,
            step=self.step,
            hand=None if seat is None else tuple(self.hands[seat]),
            seats=seats,
            melds=tuple(self.melds),
            upcard=self.pile[-1] if self.pile else None,
            upcard_live=self.buy_window_open or (not self.is_shanghai and bool(self.pile)),
            discarder=self.pile_from[-1] if self.pile_from else None,
            stock_size=len(self.stock),
            discard_size=len(self.pile),
            buy_limit=self.buy_limit,
            my_buy_requested=seat is not None and seat in self.buy_requests,
            taken_upcard=self.taken_upcard if seat == self.current else None,
            went_down_this_turn=self.went_down_this_turn,
            score_sheet=tuple(tuple(row) for row in self.score_sheet),
            is_over=self.is_over,
            winners=self.winner_seats,
            restocks=self.restocks,
            history=tuple(self.history),
            commitment=self.commitment,
            deal_seeds=self.revealed_seeds,
        )

    # -- copies --------------------------------------------------------------------------------

    def copy(self) -> Game:
        """An independent game in the same state, for search: it plays on exactly as a
        ``from_json(to_json())`` restore would, at a fraction of the cost (the cards, melds
        and moves are immutable values, so only the containers are copied)."""
        new = object.__new__(Game)
        state = dict(self.__dict__)
        state["hands"] = [list(hand) for hand in self.hands]
        for name in (
            "stock",
            "stock_lanes",
            "pile",
            "pile_from",
            "buys_used",
            "buy_requests",
            "down",
            "melds",
            "played_this_deal",
            "deals_out",
            "blind_outs",
            "buys_total",
            "history",
        ):
            state[name] = list(state[name])
        state["score_sheet"] = [list(row) for row in self.score_sheet]
        state["contract_memos"] = [ContractMemo() for _ in self.players]
        new.__dict__.update(state)
        return new

    # -- serialisation ---------------------------------------------------------------------------

    def to_json(self) -> str:
        """The whole state as JSON; ``from_json`` restores a game that plays on identically."""
        return game_json.to_json(self)

    @classmethod
    def from_json(cls, text: str) -> Game:
        """Restore a game saved by ``to_json``; raises ``ValueError`` on malformed text."""
        return game_json.from_json(cls, text)

    def __repr__(self) -> str:
        return (
            f"<Game {self.rules.game} deal {self.deal} seat {self.current} {self.step}, "
            f"{len(self.players)} players>"
        )
