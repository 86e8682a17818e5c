"""The replay message's words: what happened at a step, the totals, the hands a deal laid open.

Everything here is drawn from what the table saw at that step (the action, the engine's public
events, the spectators' view) and from the hands a deal's end laid open; a drawn card, a buy's
penalty cards and every hand during a deal stay unnamed. A player's own hand at a step is worded
by ``hand_line`` for that player's eyes only.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Language, t
from bot.screens.card_words import card_text, cards_text
from bot.screens.play_text import action_text, event_lines
from engine.actions import (
    Action,
    BuyInTurn,
    CancelBuy,
    Discard,
    DrawStock,
    GoDown,
    LayOff,
    RequestBuy,
    SwapJoker,
    TakeUpcard,
)
from engine.cards import Card
from engine.events import DealEnded, Event, GameEnded
from engine.view import PlayerView

#: Discord's limit for an embed's description, and for one field's value.
DESCRIPTION_LIMIT = 4096
FIELD_LIMIT = 1024


def step_lines(
    seat: int | None,
    action: Action | None,
    events: Sequence[Event],
    view: PlayerView,
    names: Sequence[str],
    language: Language,
) -> list[str]:
    """What happened at one step, one line per public consequence; the first step (no action)
    says how the first deal was dealt."""
    if action is None or seat is None:
        upcard = "—" if view.upcard is None else card_text(view.upcard)
        return [
            t(
                "event.deal_started",
                language,
                deal=view.deal,
                dealer=names[view.dealer],
                card=upcard,
            )
        ]
    name = names[seat]
    lines = [_action_line(action, name, events, language)] if _own_line(action) else []
    lines.extend(event_lines(events, names, language))
    for event in events:
        if isinstance(event, DealEnded) and event.reason != "void":
            scores = ", ".join(
                f"{names[index]} {score}" for index, score in enumerate(event.scores)
            )
            lines.append(t("replay.deal_scores", language, deal=event.deal, scores=scores))
        elif isinstance(event, GameEnded):
            winners = ", ".join(f"**{names[index]}**" for index in event.winners)
            lines.append(t("replay.game_over", language, names=winners))
    if not lines:
        lines.append(t("replay.acted", language, name=name, action=action_text(action, language)))
    return lines


def _own_line(action: Action) -> bool:
    """Whether the action needs a line of its own: the events say the rest (a take, a lay-down,
    a lay-off, a swap, a granted buy are announced as the channel announced them)."""
    return not isinstance(action, TakeUpcard | GoDown | LayOff | SwapJoker | BuyInTurn)


def _action_line(action: Action, name: str, events: Sequence[Event], language: Language) -> str:
    if isinstance(action, DrawStock):
        return t("replay.drew", language, name=name)
    if isinstance(action, Discard):
        return t("replay.discarded", language, name=name, card=card_text(action.card))
    if isinstance(action, RequestBuy):
        return t("replay.asked_buy", language, name=name)
    if isinstance(action, CancelBuy):
        return t("replay.cancelled_buy", language, name=name)
    return t("replay.acted", language, name=name, action=action_text(action, language))


def totals_line(view: PlayerView, names: Sequence[str]) -> str:
    """Each seat's total so far, the game's winners starred once it is over."""
    winners = set(view.winners) if view.is_over else set()
    return " · ".join(
        f"{'🏆 ' if index in winners else ''}{names[index]} {seat.total}"
        for index, seat in enumerate(view.seats)
    )


def revealed_lines(revealed: Sequence[Sequence[Card]], names: Sequence[str]) -> str:
    """The hands a deal's end laid open, one line per seat (a player out shows none)."""
    lines = [f"**{names[seat]}**: {cards_text(hand) or '—'}" for seat, hand in enumerate(revealed)]
    return "\n".join(lines)[:FIELD_LIMIT]


def deal_label(view: PlayerView, language: Language) -> str:
    """``Deal 3 of 10``; a Rummy game, played to a score, has no last deal to name."""
    if view.rules.game == "rummy":
        return t("replay.deal_unnumbered", language, deal=view.deal)
    return t("replay.deal", language, deal=view.deal, deals=view.rules.num_deals)


def hand_line(index: int, view: PlayerView, hand: Sequence[Card], language: Language) -> str:
    """A player's own hand at step ``index``, for their eyes only."""
    cards = cards_text(hand)
    if not cards:
        return t("replay.hand_empty", language, step=index, deal=view.deal)
    return t("replay.hand", language, step=index, deal=view.deal, cards=cards)
