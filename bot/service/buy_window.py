"""The buy window of one table: who may still ask for the upcard, when it closes, the held draw.

The window is a timed race decided by seat priority (RULES.md Part E), but nobody waits for
nothing: it closes as soon as every seat that could still ask has decided. A person decides
with **Buy** or **Pass**; a seat that cannot buy (limit reached, down, no supply), an away seat
and a computer (asked at once) count as decided. P's draw from the stock, held while the window
runs, is applied the moment it closes.

``BuyWindow`` is the only code that changes the window's fields; it never calls the engine's
``apply``, the store or the timers. The questions about the game (who is undecided, must P's
draw wait) are functions of the table below; ``TableService`` carries out what they answer.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from bot.service.pace import is_relaxed
from engine import Game
from engine.actions import Action, CancelBuy, DrawStock, RequestBuy, TakeUpcard
from engine.cards import Card
from engine.errors import IllegalAction
from engine.players.expert import ExpertStrategy
from engine.players.hints import SlotPlan, plan_contract
from engine.players.strategy import cards_short
from engine.view import PlayerView

#: What a person wants to be asked about a buy: every upcard they may buy (``ask``), only one
#: whose buy is worth it by the expert's judgement (``helps``, the default: ``buy_worth_it``),
#: or none (``never``). The others are decided for at once: Buy and Pass reach only the hands
#: of those asked, so a person not asked has passed.
BuyPref = Literal["ask", "helps", "never"]
BUY_PREFS: tuple[BuyPref, ...] = ("ask", "helps", "never")
DEFAULT_BUY_PREF: BuyPref = "helps"

if TYPE_CHECKING:
    from bot.service.live import ActResult, LiveTable


@dataclass
class HeldDraw:
    """P's draw (or take) held until the buy window closes; whoever clicked waits on
    ``future`` (a restored one has nobody waiting)."""

    seat: int
    action: Action
    future: asyncio.Future[ActResult]


@dataclass
class BuyWindow:
    """The window of the upcard on offer now, and P's draw held for it."""

    #: Until when buy requests are accepted (None: no window runs).
    deadline: float | None = None
    #: When the window of the upcard on offer ends or ended (kept after it closed, for the
    #: table's text: "closed 3 seconds ago" needs no edit).
    ends: float | None = None
    #: Seats that decided about this upcard: asked to buy, passed, or computers asked.
    decided: set[int] = field(default_factory=set)
    held: HeldDraw | None = None

    def copy(self) -> BuyWindow:
        """A copy to go back to when a commit fails (the held draw's waiter is shared)."""
        return BuyWindow(self.deadline, self.ends, set(self.decided), self.held)

    def is_running(self, game: Game | None, now: float) -> bool:
        """Whether buy requests are accepted now (the engine's window and our deadline)."""
        return (
            game is not None
            and game.buy_window_open
            and self.deadline is not None
            and now < self.deadline
        )

    def open(self, now: float, seconds: float) -> None:
        """A new upcard is on offer: its window starts with nobody decided."""
        self.deadline = self.ends = now + seconds
        self.decided = set()

    def close(self, now: float) -> None:
        """Nobody is left to decide: requests end now (the text says when)."""
        self.deadline = None
        self.ends = now

    def lapse(self) -> None:
        """The deadline passed, or the engine's window closed (P drew): no more requests."""
        self.deadline = None

    def decide(self, seat: int) -> None:
        self.decided.add(seat)

    def undecide(self, seat: int) -> None:
        """A computer's buy could not be written: it is asked again when the timer retries."""
        self.decided.discard(seat)

    def hold(self, held: HeldDraw) -> None:
        self.held = held

    def release(self) -> HeldDraw | None:
        """Take the held draw out, to run it (or because P's own play replaced it)."""
        held, self.held = self.held, None
        return held


def undecided(
    window: BuyWindow,
    game: Game,
    is_away: Callable[[int], bool],
    *,
    now: float,
    running: bool | None = None,
) -> list[int]:
    """Seats that could still ask for the upcard and have not said Buy or Pass. ``running``:
    ``window.is_running(game, now)``, when the caller already asked it."""
    if not (window.is_running(game, now) if running is None else running):
        return []
    request = RequestBuy()
    return [
        seat
        for seat, player in enumerate(game.players)
        if seat != game.current
        and seat not in window.decided
        and not is_away(seat)
        and game.is_legal(player, request)
    ]


def computer_buyers(table: LiveTable, now: float, *, running: bool | None = None) -> list[int]:
    """Computer seats not yet asked whether they want the upcard on offer now (``running``:
    whether the window runs, when the caller already asked it)."""
    game, window = table.game, table.window
    if game is None:
        return []
    if not (window.is_running(game, now) if running is None else running):
        return []
    request = RequestBuy()
    return [
        seat
        for seat, player in enumerate(game.players)
        if table.is_computer(seat)
        and seat != game.current
        and seat not in window.decided
        and game.is_legal(player, request)
    ]


#: Why a buy is worth it, in a few words: the hand lacks cards for the contract without it
#: (``short``), it completes the contract (``contract``) or one set or run of it (``set``,
#: ``run``), or it brings going down within ``left`` cards (``closer``).
BuyWhyCode = Literal["short", "contract", "set", "run", "closer"]


@dataclass(frozen=True, slots=True)
class BuyWhy:
    """Why the expert would buy the upcard on offer, free of any language: the question's few
    words ("completes a set; you would hold 13 cards")."""

    code: BuyWhyCode
    #: ``short``: the cards the hand lacks without buying; otherwise the cards the contract
    #: still lacks after the buy.
    count: int
    #: The cards the hand would hold after the buy (the upcard and its penalty cards).
    hold: int


def buy_worth_it(view: PlayerView) -> BuyWhy | None:
    """Why buying the upcard in ``view`` is worth it, or None when it is not, by the judgement
    the expert's notes use (``engine.players.review`` asks ``ExpertStrategy.wants_buy`` of the
    same view): a buy the question suggests is one the notes agree with afterwards. Only the
    seat's own view is read."""
    upcard = view.upcard
    if upcard is None or view.hand is None or view.seat is None:
        return None
    rng = random.Random(f"review:{view.deal}:{len(view.history)}:{view.step}")
    if not ExpertStrategy().wants_buy(view, rng):
        return None
    hand = list(view.hand)
    hold = len(hand) + 1 + view.rules.buy_penalty_cards
    short = cards_short(view)
    if short > 0:
        return BuyWhy("short", short, hold)
    players = len(view.seats)
    plan = plan_contract([*hand, upcard], view.contract, view.rules, players)
    if plan.deficiency == 0:
        return BuyWhy("contract", 0, hold)
    before = plan_contract(hand, view.contract, view.rules, players)
    completed = _completed_slot(before.slots, plan.slots, upcard)
    if completed is not None:
        return BuyWhy(completed, plan.deficiency, hold)
    return BuyWhy("closer", plan.deficiency, hold)


def _completed_slot(
    before: Sequence[SlotPlan], after: Sequence[SlotPlan], upcard: Card
) -> Literal["set", "run"] | None:
    """The kind of meld the upcard completes: a slot of the plan with it that holds the upcard
    and lacks nothing, where the plan without it had fewer slots complete of that kind."""
    for slot in after:
        if not slot.missing and upcard in slot.cards:
            done_after = sum(1 for s in after if s.kind == slot.kind and not s.missing)
            done_before = sum(1 for s in before if s.kind == slot.kind and not s.missing)
            if done_after > done_before:
                return slot.kind
    return None


def upcard_helps(game: Game, seat: int) -> bool:
    """Whether buying the upcard is worth it for ``seat`` (``buy_worth_it`` of its own view)."""
    if not game.pile or game.down[seat] or not game.contract:
        return False
    return buy_worth_it(game.view(game.players[seat])) is not None


def buy_why_seat(table: LiveTable, seat: int) -> BuyWhy | None:
    """``buy_worth_it`` for ``seat`` now, searched once for each hand and upcard: asked again
    about the same hand, upcard and contract (a preference changed, the window opened anew,
    a screen drawn), the seat's last answer is kept in ``table.helps``."""
    game = table.game
    assert game is not None
    key = (
        tuple(game.hands[seat]),
        game.pile[-1] if game.pile else None,
        game.contract,
        game.down[seat],
        game.rules,
        window_tag(game, table.view(None)),
        tuple(game.down),
    )
    known = table.helps.get(seat)
    if known is not None and known[0] == key:
        return known[1]
    answer = None
    if game.pile and not game.down[seat] and game.contract:
        answer = buy_worth_it(table.view(game.players[seat]))
    table.helps[seat] = (key, answer)
    return answer


def upcard_helps_seat(table: LiveTable, seat: int) -> bool:
    """Whether ``seat``'s player would be asked about the upcard by the default preference."""
    return buy_why_seat(table, seat) is not None


def decided_by_preference(table: LiveTable, seat: int, pref: str) -> bool:
    """Whether ``seat``'s player, by their preference ``pref``, wants no question about the
    upcard now on offer."""
    game = table.game
    assert game is not None
    if pref == "never":
        return True
    return pref == "helps" and not upcard_helps_seat(table, seat)


def must_hold(window: BuyWindow, game: Game, seat: int, action: Action, *, now: float) -> bool:
    """P's draw waits while the window runs; so does a down P's take when buys beat it."""
    if seat != game.current or not window.is_running(game, now):
        return False
    if isinstance(action, DrawStock):
        return True
    return isinstance(action, TakeUpcard) and take_can_lose_to_buys(game, seat)


def take_can_lose_to_buys(game: Game, seat: int) -> bool:
    """Whether ``seat``'s take of the upcard waits for its window: a down player's take, where
    the rules let buys beat it (``down_player_blocks_buy`` off, preset_004)."""
    return not game.rules.down_player_blocks_buy and game.down[seat]


def check_request(window: BuyWindow, game: Game, seat: int, action: Action, *, now: float) -> None:
    """Buy and withdraw are only for the window that is running now."""
    if (
        isinstance(action, (RequestBuy, CancelBuy))
        and not window.is_running(game, now)
        and game.buy_window_open
        and seat != game.current
    ):
        raise IllegalAction(
            "The buy window has closed: the upcard can't be bought now",
            code="buy.window_closed",
        )


def window_tag(game: Game, view: PlayerView | None = None) -> str:
    """Which upcard a Buy or Pass is for: its deal, the discarder's turn and the pile (read
    from ``view``, any view of ``game`` now, when the caller has one)."""
    view = game.view(None) if view is None else view
    return f"{view.deal}.{view.current}.{view.discard_size}.{view.restocks}"


#: What a waiting person's standing order does about the upcard on offer at a relaxed table:
#: buy it now, pass now, or ask them (the window then waits, at most the table's relaxed buy
#: window, for them alone).
StandingAnswer = Literal["buy", "pass", "ask"]


def order_text(pref: str, limit: int | None) -> str:
    """A standing order as the seat's stored ``buy`` field keeps it: ``helps`` or, with a limit
    of buys a deal, ``helps/2``."""
    return pref if limit is None else f"{pref}/{limit}"


def parse_order(text: str) -> tuple[str, int | None]:
    """The preference and the buy limit of a stored order (``order_text``); an order that
    cannot be read is no order (``""``, the table's default)."""
    pref, _, limit = text.partition("/")
    if pref not in BUY_PREFS:
        return "", None
    if not limit:
        return pref, None
    try:
        number = int(limit)
    except ValueError:
        return pref, None
    return pref, max(0, number)


def standing_order(table: LiveTable, seat: int, pref: str, limit: int | None) -> StandingAnswer:
    """What ``seat``'s standing order answers about the upcard now on offer at a relaxed
    table, where nobody waits on a buy: ``never`` passes; ``helps`` buys when the card brings
    the seat's contract closer (``upcard_helps_seat``) and passes otherwise; ``ask`` asks.
    Once the seat has bought ``limit`` cards this deal, it passes whatever it chose. Whether
    the buy is legal at all (the rules' own limit, a seat that is down) the engine decides;
    who gets the card is still decided by seat order (``engine.buying``)."""
    game = table.game
    assert game is not None
    if limit is not None and game.buys_used[seat] >= limit:
        return "pass"
    if pref == "never":
        return "pass"
    if pref == "ask":
        return "ask"
    return "buy" if upcard_helps_seat(table, seat) else "pass"


def decided_at_once(table: LiveTable, seat: int, pref: str) -> bool:
    """Whether ``seat``'s person is decided for as soon as the upcard is offered: by their
    preference at a live table (``decided_by_preference``), by their standing order passing
    at a relaxed one (a standing order that buys is carried out by ``standing_buyers``)."""
    if is_relaxed(table.record.options):
        return standing_order(table, seat, pref, order_limit(table, seat)) == "pass"
    return decided_by_preference(table, seat, pref)


def standing_buyers(table: LiveTable, now: float, default: str) -> list[int]:
    """The people at a relaxed table whose standing order buys the upcard on offer now and who
    have not asked for it yet: the clock asks for it for them at once, in the rules' order."""
    game, window = table.game, table.window
    if game is None or not is_relaxed(table.record.options):
        return []
    return [
        seat
        for seat in undecided(window, game, table.is_away, now=now)
        if not table.is_computer(seat)
        and standing_order(
            table, seat, table.buy_prefs.get(seat, default), order_limit(table, seat)
        )
        == "buy"
    ]


def order_limit(table: LiveTable, seat: int) -> int | None:
    """The most cards a deal ``seat``'s standing order buys (None: the rules' limit)."""
    limit = table.away[seat].buy_limit if seat < len(table.away) else -1
    return None if limit < 0 else limit
