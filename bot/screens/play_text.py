"""The words of plays: an action as a button or a select option says it (``Discard 7♥``,
``Lay off 7♥ on #3 (high)``), and the public lines the channel announces after a play.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import DEFAULT_LANGUAGE, Language, t
from bot.screens.card_words import card_text, meld_text
from engine.actions import (
    Action,
    Discard,
    DrawStock,
    GoDown,
    LayOff,
    LayOffItem,
    SwapJoker,
    TakeUpcard,
)
from engine.cards import SUIT_SYMBOLS, Card
from engine.events import (
    BuyAwarded,
    DealEnded,
    DealStarted,
    Discarded,
    Event,
    GameEnded,
    JokerSwapped,
    LaidOff,
    Restocked,
    TookUpcard,
    UpcardDead,
    WentDown,
    WentOut,
)


def action_text(action: Action, language: Language = DEFAULT_LANGUAGE) -> str:
    """A button-sized description of an action: ``Discard 7♥``, ``Lay off 7♥ on #3 (high)``."""
    if isinstance(action, Discard):
        return t("action.discard", language, card=card_text(action.card))
    if isinstance(action, DrawStock):
        return t("action.draw_stock", language)
    if isinstance(action, TakeUpcard):
        return t("action.take_upcard", language)
    if isinstance(action, LayOff):
        items = ", ".join(layoff_item_text(i, language) for i in action.items)
        return t("action.lay_off", language, items=items)
    if isinstance(action, SwapJoker):
        swap = action.swap
        return t(
            "action.swap",
            language,
            card=card_text(swap.card),
            number=swap.meld + 1,
            position=swap.position + 1,
        )
    if isinstance(action, GoDown):
        melds = " | ".join(meld_text(m, language) for m in action.melds)
        text = t("action.lay_down", language, melds=melds)
        if action.layoffs:
            items = ", ".join(layoff_item_text(i, language) for i in action.layoffs)
            text += t("action.then_lay_off", language, items=items)
        return text
    return str(action)


def layoff_item_text(item: LayOffItem, language: Language = DEFAULT_LANGUAGE) -> str:
    card, number = card_text(item.card), item.meld + 1
    if item.end:
        end = t(f"term.{item.end}", language)
        return t("action.layoff_item_end", language, card=card, number=number, end=end)
    if item.suit:
        suit = SUIT_SYMBOLS[item.suit]
        return t("action.layoff_item_suit", language, card=card, number=number, suit=suit)
    return t("action.layoff_item", language, card=card, number=number)


def event_lines(
    events: Sequence[Event], names: Sequence[str], language: Language = DEFAULT_LANGUAGE
) -> list[str]:
    """Public announcements worth a line in the channel (draws and plain discards are not)."""
    lines: list[str] = []
    for event in events:
        if isinstance(event, BuyAwarded):
            key = "event.bought_in_turn" if event.in_turn else "event.bought"
            lines.append(
                t(
                    key,
                    language,
                    name=names[event.player],
                    card=card_text(event.card),
                    count=event.penalty_cards,
                )
            )
        elif isinstance(event, TookUpcard):
            lines.append(
                t(
                    "event.took_upcard",
                    language,
                    name=names[event.player],
                    card=card_text(event.card),
                )
            )
        elif isinstance(event, UpcardDead):
            pass
        elif isinstance(event, WentDown):
            melds = " | ".join(meld_text(m, language) for m in event.melds)
            lines.append(t("event.went_down", language, name=names[event.player], melds=melds))
        elif isinstance(event, LaidOff):
            lines.append(
                t(
                    "event.laid_off",
                    language,
                    name=names[event.player],
                    card=card_text(event.card),
                    number=event.meld + 1,
                )
            )
        elif isinstance(event, JokerSwapped):
            lines.append(
                t(
                    "event.swapped",
                    language,
                    name=names[event.player],
                    card=card_text(event.card),
                    wild=card_text(event.wild),
                    number=event.meld + 1,
                )
            )
        elif isinstance(event, Restocked):
            lines.append(t("event.restocked", language, count=event.cards))
        elif isinstance(event, WentOut):
            key = "event.went_out_blind" if event.blind else "event.went_out"
            lines.append(t(key, language, name=names[event.player]))
        elif isinstance(event, DealEnded):
            if event.reason == "exhausted":
                lines.append(t("event.deal_exhausted", language, deal=event.deal))
            elif event.reason == "void":
                lines.append(t("event.deal_void", language, deal=event.deal))
        elif isinstance(event, DealStarted):
            lines.append(
                t(
                    "event.deal_started",
                    language,
                    deal=event.deal,
                    dealer=names[event.dealer],
                    card=card_text(event.upcard),
                )
            )
        elif isinstance(event, GameEnded):
            pass
    return lines


def discarded_card(events: Sequence[Event]) -> Card | None:
    for event in events:
        if isinstance(event, Discarded):
            return event.card
    return None
