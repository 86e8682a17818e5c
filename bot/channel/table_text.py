"""What the table message says of a change: its notice lines, a deal's score sheet words, and
whether the change is worth an edit now. Pure functions of the ``Change``: no Discord call.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import discord

from bot.i18n import DEFAULT_LANGUAGE, Language, duration, t, table_language
from bot.i18n.terms import contract_text
from bot.screens.text import (
    card_text,
    event_lines,
    layoff_item_text,
    meld_text,
    score_sheet_text,
    standings_text,
)
from bot.service.pace import is_relaxed, relaxed_buy_minutes, turn_hours
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
from engine.events import (
    BuyAwarded,
    DealEnded,
    DealStarted,
    Discarded,
    Event,
    GameEnded,
    TurnStarted,
    WentDown,
    WentOut,
)

if TYPE_CHECKING:
    from bot.service import Change


def restart_line(change: Change, followed: Callable[[int], bool], pinged: int | None) -> str | None:
    """After a restart, the one line naming the people whose open hands can't be followed
    again (``followed``: the bot still reaches theirs), to open them again; the player to move
    (``pinged``) hears it from their turn's ping. Posted once, never kept in the table's text."""
    table = change.table
    people = [
        f"<@{seat.user_id}>"
        for number, seat in enumerate(table.record.seats)
        if not table.is_computer(number) and seat.user_id != pinged and not followed(seat.user_id)
    ]
    if not people:
        return None
    language = table_language(table.record.options)
    return t("notice.restarted", language, players=", ".join(people))


def change_lines(change: Change) -> list[str]:
    """The notice lines ``change`` adds to the table message's text (a departure, what the
    bot played for a seat, what happened)."""
    table = change.table
    names = table.names
    language = table_language(table.record.options)
    lines: list[str] = []
    if change.kind in ("lobby", "window", "restore"):  # a restart's line: ``restart_line``
        return lines
    if change.kind == "deal":
        return [next_deal_line(change, language), *commitment_line(change, language)]
    if change.kind == "start":
        lines.extend(commitment_line(change, language))
    if change.kind == "end":
        why = change.note or t("notice.ended", language)
        return [t("notice.start_new", language, why=why)]
    if change.kind in ("left", "kick", "gone") and change.seat is not None:
        name = names[change.seat]
        keys = {"left": "notice.left", "kick": "notice.kicked", "gone": "notice.left_server"}
        return [t(keys[change.kind], language, name=name)]
    if change.auto_seat is not None:
        name = names[change.auto_seat]
        if change.auto_actions and isinstance(change.auto_actions[-1], Discard):
            key = "notice.timeout_did" if change.kind == "timeout" else "notice.away_did"
            did = did_text(change.auto_actions, language)
            lines.append(t(key, language, name=name, did=did))
            if change.kind == "timeout" and table.is_away(change.auto_seat):
                lines.append(t("notice.now_away", language, name=name))
    # A deal's end (who went out, an exhausted deal) goes in the score sheet's message.
    lines.extend(event_lines(other_events(change.events), names, language))
    return lines


def next_deal_line(change: Change, language: Language) -> str:
    """The line a deal starts with, once the last one's recap has had its breath."""
    view = change.table.view
    if view is None:
        return ""
    if view.rules.game != "shanghai":
        return t("notice.next_hand", language, deal=view.deal)
    contract = contract_text(view.contract, language)
    return t(
        "notice.next_deal", language, deal=view.deal, count=view.rules.num_deals, contract=contract
    )


def commitment_line(change: Change, language: Language) -> list[str]:
    """The hash of the deal's shuffle seed, shown before anyone plays: the seeds are revealed
    with the game's record, so anyone can check that the deal followed from it
    (docs/shuffle.md). Nothing for a game dealt without a checkable shuffle."""
    view = change.table.view
    if view is None or view.commitment is None:
        return []
    # The first 16 digits: one short line, still beyond forging; **Shuffle seeds** lists each
    # seed beside its whole hash once the game is over.
    return [t("notice.shuffle_commitment", language, commitment=view.commitment[:16])]


def deal_end_events(events: list[Event]) -> list[Event]:
    """The events the deal's score sheet message words, when a deal ended among ``events``."""
    if not any(isinstance(e, DealEnded) and e.reason != "void" for e in events):
        return []
    return [e for e in events if isinstance(e, (WentOut, DealEnded))]


def other_events(events: list[Event]) -> list[Event]:
    """The events the table message's recent lines word: all but the deal's end."""
    ending = deal_end_events(events)
    return [e for e in events if not any(e is end for end in ending)]


def deal_end_text(change: Change, ended: DealEnded, language: Language) -> str:
    """The score sheet message's words: who went out (a blind out celebrated), the sheet
    after the deal, and at the game's end the final standings."""
    table = change.table
    names = table.names
    view = table.view
    assert view is not None
    parts = [line for line in event_lines(deal_end_events(change.events), names, language) if line]
    key = "notice.sheet_after_deal" if view.rules.game == "shanghai" else "notice.sheet_after_hand"
    parts.append(t(key, language, deal=ended.deal))
    rummy = view.rules.game == "rummy"
    over = next((e for e in change.events if isinstance(e, GameEnded)), None)
    sheet = score_sheet_text(names, view.score_sheet, language, hands=rummy, over=over is not None)
    parts.append(sheet)
    if over is not None:
        parts.append(t("notice.game_over", language, number=table.id))
        parts.append(standings_text(names, list(over.totals), over.winners))
        parts.append("")  # the numbered standings end here: the lines after are not their last
        parts.append(winner_line(names, list(over.totals), over.winners, view.rules.game, language))
        if over.deal_seeds and table.record.options.get("dealt_alike"):
            # A duplicate round's other tables play these cards: the button refuses until the
            # round ends everywhere.
            parts.append(t("notice.seeds_at_round_end", language))
        elif over.deal_seeds:  # public now; the button under this message lists them
            parts.append(t("notice.seeds_revealed", language))
    return "\n".join(parts)


def winner_line(
    names: list[str], totals: list[int], winners: Sequence[int], game: str, language: Language
) -> str:
    """The winner celebrated under the standings; Shanghai says in words that the lowest total
    wins (a newcomer may read the biggest number as the best)."""
    who = t("hand.and", language).join(f"**{names[seat]}**" for seat in winners)
    total = totals[winners[0]] if winners else 0
    key = "notice.winners" if len(winners) > 1 else "notice.winner"
    line = t(key, language, names=who, total=total)
    if game == "shanghai":
        line += " " + t("notice.lowest_total_wins", language)
    return line + " " + t("notice.play_again_below", language)


def did_text(actions: list[Action], language: Language = DEFAULT_LANGUAGE) -> str:
    """What the bot did for a seat, in order: ``drew from the stock, went down, laid off 7♥
    on #2 and discarded K♠`` (the timeout notice names every step, not a fixed phrase)."""
    parts: list[str] = []
    and_ = t("did.and", language)
    for action in actions:
        if isinstance(action, DrawStock):
            parts.append(t("did.drew", language))
        elif isinstance(action, TakeUpcard):
            parts.append(t("did.took", language))
        elif isinstance(action, BuyInTurn):
            parts.append(t("did.bought", language))
        elif isinstance(action, GoDown):
            parts.append(t("did.went_down", language))
        elif isinstance(action, LayMelds):
            melds = and_.join(meld_text(m, language) for m in action.melds)
            parts.append(t("did.laid", language, melds=melds))
        elif isinstance(action, LayOff):
            items = ", ".join(layoff_item_text(i, language) for i in action.items)
            parts.append(t("did.laid_off", language, items=items))
        elif isinstance(action, SwapJoker):
            parts.append(t("did.swapped", language, card=card_text(action.swap.card)))
        elif isinstance(action, Discard):
            parts.append(t("did.discarded", language, card=card_text(action.card)))
    if len(parts) > 1:
        return ", ".join(parts[:-1]) + and_ + parts[-1]
    return parts[0] if parts else t("did.played", language)


def fingerprint(layout: discord.ui.LayoutView) -> str:
    """What a table message shows (its words, picture and buttons: the whole layout), to skip
    edits that would change nothing."""
    parts = layout.to_components()  # type: ignore[no-untyped-call]
    return hashlib.sha1(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


#: Events that change what the table message must show at once: a new upcard on offer (the
#: turn passed), a new deal, the end, and the news players wait for (a buy awarded, a player
#: down). Everything else in a turn (a draw, a lay-off, a window that closes) is shown with
#: the turn's end, a few seconds later, in the same edit; meanwhile the window's countdown
#: says it closed (the table message has no Buy button to take away).
VISIBLE = (TurnStarted, DealStarted, DealEnded, GameEnded, WentOut, BuyAwarded, WentDown)


def worth_showing(change: Change) -> bool:
    """Whether ``change`` needs the table message redrawn now (a third of the calls)."""
    view = change.table.view
    if change.pause_until is not None:
        return False  # the next deal is shown when the last one's recap has had its breath
    if change.kind not in ("act", "timeout", "window") or view is None or view.is_over:
        return True  # lobby, start, end, away, kicks, departures and the end: always shown
    return any(isinstance(event, VISIBLE) for event in change.events)


def relaxed_notices(change: Change) -> list[tuple[int | None, str]]:
    """The mentions a relaxed table asks for: the one reminder of a turn (its time left), the
    warning a day before a table nobody plays ends (everyone seated), the question to those
    whose standing order asks them about a card just offered, and a change of pace; each with
    the one person it is for (None: everyone)."""
    table = change.table
    if change.kind not in ("remind", "idle_warning", "pace") and not table.asked:
        return []  # most changes: nothing of a relaxed table's to say
    language = table_language(table.record.options)
    if change.kind == "remind" and change.seat is not None and table.turn_deadline is not None:
        user = table.record.seats[change.seat].user_id
        left = duration(table.turn_deadline - discord.utils.utcnow().timestamp(), language)
        return [(user, t("notice.reminder", language, user=user, duration=left))]
    opened = any(isinstance(e, (Discarded, DealStarted)) for e in change.events)
    if table.asked and opened and table.view is not None and table.view.upcard is not None:
        card = card_text(table.view.upcard)
        minutes = relaxed_buy_minutes(table.record.options)
        return [
            (user, t("notice.buy_question", language, user=user, card=card, minutes=minutes))
            for user in table.asked
        ]
    if change.kind == "pace":
        options = table.record.options
        if is_relaxed(options):
            return [(None, t("notice.pace_relaxed", language, hours=turn_hours(options)))]
        return [(None, t("notice.pace_live", language))]
    if change.kind == "idle_warning":
        people = " ".join(
            f"<@{seat.user_id}>" for seat in table.record.seats if not seat.is_computer
        )
        return [(None, t("notice.idle_warning", language, users=people))]
    return []
