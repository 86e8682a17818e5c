"""The words of the private hand besides the hand itself: what a click did, a buy's answer,
a proposed lay-down, the Hint's advice. Views only place these texts; they never word them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from bot.i18n import DEFAULT_LANGUAGE, Language, t
from bot.screens.card_words import card_text, cards_text, countdown, meld_text
from bot.screens.hint_text import hint_text
from bot.screens.play_text import action_text, layoff_item_text
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
from engine.cards import Card
from engine.players.hints import Hint
from engine.view import PlayerView

if TYPE_CHECKING:
    from bot.service.snapshot import DealRecap, SeatSnapshot


#: The actions that bring cards into the hand.
DRAWS = (DrawStock, TakeUpcard, BuyInTurn)


def result_note(snap: SeatSnapshot, language: Language = DEFAULT_LANGUAGE) -> str | None:
    """What the player's own click did, in one line above the hand (a compound play: what
    each of its actions did, in order)."""
    if len(snap.actions) > 1:
        got = list(snap.gained)  # what a take at the start brought: said with the take
        notes = [
            _action_note(a, got if isinstance(a, DRAWS) else [], language)
            for a in snap.actions[:-1]
        ]
        notes.append(_action_note(snap.actions[-1], list(snap.gained), language))
        return " ".join(n for n in notes if n) or None
    return _action_note(snap.action, list(snap.gained), language)


def _action_note(action: Action | None, gained: list[Card], language: Language) -> str | None:
    if isinstance(action, DRAWS) and gained:
        return t("hand.you_got", language, cards=cards_text(gained))
    if isinstance(action, Discard):
        return t("hand.you_discarded", language, card=card_text(action.card))
    if isinstance(action, GoDown):
        return t("hand.you_went_down", language)
    if isinstance(action, LayMelds):
        melds = t("hand.and", language).join(meld_text(m, language) for m in action.melds)
        return t("hand.you_laid", language, melds=melds)
    if isinstance(action, (LayOff, SwapJoker)):
        return t("hand.done", language, action=action_text(action, language))
    return None


def buy_recorded_text(view: PlayerView, card: str, language: Language) -> str:
    """The reply to a buy request: the seat-order rule and what the buy leaves of the limit, so
    a player knows before the window closes what winning the card would cost them."""
    limit = view.buy_limit
    used = view.seats[view.seat or 0].buys_used
    left = (
        t("buy.unlimited", language)
        if limit is None
        else t("buy.left", language, count=limit - used - 1, limit=limit)
    )
    return t("buy.recorded", language, card=card, left=left)


def buy_answer_text(
    snap: SeatSnapshot, choice: Literal["buy", "pass", "unbuy"], language: Language
) -> str:
    """The answer to Buy, Pass or taking a buy back, on the table message or in the hand."""
    upcard = snap.view.upcard
    card = card_text(upcard) if upcard else t("buy.the_upcard", language)
    if choice == "unbuy":
        return t("buy.withdrawn", language, card=card)
    if choice == "pass":
        return t("buy.passed", language, card=card)
    return buy_recorded_text(snap.view, card, language)


def go_down_lines(
    proposal: GoDown, view: PlayerView, language: Language = DEFAULT_LANGUAGE
) -> tuple[list[str], Counter[Card]]:
    """The lines of a proposed go-down, with the swaps made first and the lay-offs that
    follow in the same play, and the cards it leaves in hand."""
    lines: list[str] = []
    left = Counter(view.hand or ())
    for swap in proposal.swaps:  # preset_004: swaps made as part of going down
        swap_text = action_text(SwapJoker(swap), language)
        swap_text = swap_text[:1].lower() + swap_text[1:]
        lines.append(t("hand.first_swap", language, action=swap_text))
        left[swap.card] -= 1
        left[view.melds[swap.meld].meld.cards[swap.position].card] += 1
    lines.extend(f"• {meld_text(m, language)}" for m in proposal.melds)
    for meld in proposal.melds:
        left.subtract(meld.plain_cards)
    for item in proposal.layoffs:  # the last cards laid off in the same play
        lines.append(t("hand.then_lay_off", language, item=layoff_item_text(item, language)))
        left[item.card] -= 1
    return lines, +left


def deal_recap_text(
    recap: DealRecap, names: Sequence[str], language: Language = DEFAULT_LANGUAGE
) -> str:
    """A seat's private word at a deal's end: the moment of going out (a blind out is
    Shanghai, with its bonus), then the deal's points, the total, the place and the gap."""
    if recap.you_out and recap.blind:
        head = t("recap.you_shanghai", language, points=recap.points)
    elif recap.you_out:
        head = t("recap.you_out", language)
    elif recap.out_seat is not None:
        head = t("recap.other_out", language, name=names[recap.out_seat])
    else:
        head = t("recap.nobody_out", language)
    where = t(
        "recap.standing",
        language,
        deal=recap.deal,
        points=recap.points,
        total=recap.total,
        place=recap.place,
        count=recap.seats,
    )
    if recap.behind == 0:
        gap = t("recap.leading", language)
    else:
        gap = t("recap.behind", language, points=recap.behind, name=names[recap.leader])
    return f"{head}\n{where} · {gap}"


def ending_text(snap: SeatSnapshot, language: Language = DEFAULT_LANGUAGE) -> str:
    """A seat's private word at the game's end: the last deal's recap, then whether they won
    or where they finished, their total and the gap to the winner. Shanghai says that the
    lowest total wins, since a newcomer may take the biggest number for the best."""
    recap = snap.deal_end
    if recap is None:
        return t("hand.game_over", language)
    if recap.place == 1:
        final = t("hand.final_won", language, total=recap.total)
    else:
        final = t(
            "hand.final_place",
            language,
            place=recap.place,
            count=recap.seats,
            total=recap.total,
            behind=recap.behind,
            name=snap.names[recap.leader],
        )
    if snap.view.rules.game == "shanghai":
        final += " " + t("hand.final_lowest_wins", language)
    return f"{deal_recap_text(recap, snap.names, language)}\n{final}"


def pause_text(snap: SeatSnapshot, language: Language = DEFAULT_LANGUAGE) -> str:
    """A seat's screen while the deal's recap stands alone: the recap, and when the next
    deal is shown (its hand and controls come then)."""
    wait = t("hand.next_deal_at", language, countdown=countdown(snap.paused_until))
    if snap.deal_end is None:
        return wait
    return f"{deal_recap_text(snap.deal_end, snap.names, language)}\n\n{wait}"


def no_hand_text(snap: SeatSnapshot, language: Language = DEFAULT_LANGUAGE) -> str:
    """What a hand message says when it shows no hand: the game's end, or a deal's recap
    standing alone before the next deal."""
    if snap.paused_until is not None and not snap.over:
        return pause_text(snap, language)
    return ending_text(snap, language)


def dealt_note(snap: SeatSnapshot, language: Language = DEFAULT_LANGUAGE) -> str:
    """The first word on a new deal's hand: its cards were dealt, not drawn."""
    cards = sorted(snap.view.hand or (), key=Card.sort_key)
    return t("hand.dealt", language, deal=snap.view.deal, cards=cards_text(cards))


def hint_note(
    advice: Hint,
    view: PlayerView,
    language: Language = DEFAULT_LANGUAGE,
    legal: Sequence[Action] = (),
) -> str:
    """The advice for this player's hand (``bot/service/hints.py``), as a note above the
    hand, in ``language``. Once down, what may be laid off now comes first."""
    text = hint_text(advice, view.rules, language).strip() or t("hint.none", language)
    down = view.seat is not None and view.seats[view.seat].is_down
    items = [a.items[0] for a in legal if isinstance(a, LayOff) and len(a.items) == 1]
    if down and items:
        seen: dict[str, str] = {}
        for item in items:  # one place per card is enough advice
            seen.setdefault(str(item.card), layoff_item_text(item, language))
        first = t("hint.lay_off_first", language, items="; ".join(seen.values()))
        text = f"{first}\n{text}"
    return t("hand.hint", language) + "\n" + text
