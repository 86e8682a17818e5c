"""The Hint button's advice: the plain hint, with the expert computer player's discard when
it is cheap enough.

The plain hint (``engine.players.hints.hint``) is quick but for huge hands, so it too runs in
a worker thread. At a Shanghai discard (the seat's own turn, after the draw, nothing to lay
down) the expert's choice is better advice, and it costs a search: so it runs with a small
budget in a worker thread, like the expert computer seats (``computers.py``), under a clock
cap and a hard timeout; whatever goes wrong, the plain hint's discard stands. When the expert
throws the plain hint's card, the plain reason stays (it says why) and adds that the expert
agrees. A seeded service (tests, benchmarks) drops the clock cap, so the advice depends on
the view alone and a test can ask the expert the same question directly.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import time
from collections.abc import Callable, Sequence

from engine.actions import Action, Discard
from engine.cards import Card
from engine.players.expert import ExpertStrategy, SearchBudget
from engine.players.hints import DiscardReason, Hint, hint, suggest_discard
from engine.view import PlayerView

log = logging.getLogger("bot.service")

#: The expert's budget for a hint: about half a computer seat's (a few tens of milliseconds
#: of CPU), capped at a quarter second on the clock.
HINT_BUDGET = SearchBudget(evaluations=100, seconds=0.25)
#: The longest the click waits for the worker before answering with the plain hint.
HINT_TIMEOUT = 1.0


def plain_hint(view: PlayerView) -> Hint:
    """The engine's instant advice for the seat whose ``view`` this is. Once the seat is down
    its contract is met: the advice is the discard of a down hand (the dearest card that
    fits no meld on the table), and the hand's note lists what to lay off first."""
    hand = list(view.hand or ())
    if view.seat is not None and view.seats[view.seat].is_down and hand:
        table = [placed.meld for placed in view.melds]
        card, reason = suggest_discard(
            hand, view.contract, view.rules, players=len(view.seats), table=table, down=True
        )
        return Hint(contract=(), needed=(), lay_down=None, discard=card, reason=reason)
    return hint(
        list(view.hand or ()),
        view.deal,
        view.rules,
        players=len(view.seats),
        table=[placed.meld for placed in view.melds],
    )


def expert_discard(
    view: PlayerView,
    legal: Sequence[Action],
    clock: Callable[[], float] | None,
    budget: SearchBudget = HINT_BUDGET,
) -> Card | None:
    """The expert's discard among ``legal``'s discards for ``view``; None if it chose none.

    Only the discards are offered, so the answer is the card it would throw, not a lay-off or
    a go-down it might prefer first."""
    discards = [action for action in legal if isinstance(action, Discard)]
    if not discards:
        return None
    strategy = ExpertStrategy(budget, clock=clock)
    choice = strategy.choose(view, discards, random.Random(0))
    return choice.card if isinstance(choice, Discard) else None


def wants_expert(view: PlayerView, legal: Sequence[Action], advice: Hint) -> bool:
    """Whether the expert has a discard to give here: a Shanghai seat's own discard, with
    more than one card to choose from and no lay-down advised first."""
    if view.rules.game != "shanghai" or view.seat is None or view.current != view.seat:
        return False
    if view.step != "play" or advice.lay_down or advice.discard is None:
        return False
    return len({action.card for action in legal if isinstance(action, Discard)}) > 1


async def advice_for(view: PlayerView, legal: Sequence[Action], *, seeded: bool) -> Hint:
    """The hint for ``view``: the plain one, its discard the expert's when ``wants_expert``.
    Both run in a worker thread: the plain hint's contract search on a huge hand
    takes long enough to freeze the event loop."""
    advice = await asyncio.to_thread(plain_hint, view)
    if not wants_expert(view, legal, advice):
        return advice
    clock = None if seeded else time.perf_counter
    try:
        card = await asyncio.wait_for(
            asyncio.to_thread(expert_discard, view, tuple(legal), clock), HINT_TIMEOUT
        )
    except TimeoutError:
        log.warning("the expert's hint took over %s s; giving the plain hint", HINT_TIMEOUT)
        return advice
    except Exception:  # the plain hint is still good advice
        log.exception("the expert's hint failed; giving the plain hint")
        return advice
    if card is None:
        return advice
    lead = ExpertStrategy().guarded_lead(view)
    if lead is not None:  # the expert only sheds points: say why, it is not the plan's card
        return dataclasses.replace(
            advice, discard=card, reason=DiscardReason("guard_lead", {"points": lead})
        )
    if card == advice.discard:  # the plain reason says why; and the expert agrees
        agreed = dataclasses.replace(advice.reason, expert_agrees=True)
        return dataclasses.replace(advice, reason=agreed)
    return dataclasses.replace(advice, discard=card, reason=DiscardReason("expert"))
