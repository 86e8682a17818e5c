"""Text for Discord: the public table, a private hand and the score sheet.

Pure functions of an engine ``PlayerView`` (and the seat names), so they are tested without
Discord. The words these build on (cards, melds, countdowns) are in ``card_words``; the words
of plays and the channel's event lines in ``play_text``; the house rules in ``rules_text``.
This module also gives those names, so that every screen's words can be imported from here.

Every function takes the ``language`` to write in (``bot.i18n``): the table's language for
public text, the reader's for an ephemeral reply. Words come from the catalogues; cards, names
and numbers are the same in every language.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.i18n import DEFAULT_LANGUAGE, Language, t
from bot.i18n.terms import contract_text
from bot.screens.card_words import (
    SortMode,
    buy_limit_text,
    card_text,
    cards_text,
    countdown,
    hand_lines,
    meld_card_text,
    meld_text,
    sort_cards,
    step_word,
)
from bot.screens.play_text import action_text, discarded_card, event_lines, layoff_item_text
from bot.screens.rules_text import rules_text, rummy_rules_text
from bot.screens.sheet_text import sheet_text
from engine.view import PlayerView


def table_text(
    view: PlayerView,
    names: Sequence[str],
    *,
    buy_deadline: float | None = None,
    turn_deadline: float | None = None,
    away: Iterable[int] = (),
    language: Language = DEFAULT_LANGUAGE,
    heading: bool = True,
    seats: bool = True,
) -> str:
    """The public table (spectator view): everything the table may know, nothing private.
    Without ``heading`` the deal and contract are left to the message's title; without
    ``seats`` the seats and melds are left to the table picture, which shows them (said once,
    the message stays short on a phone), and only who is ``away`` is said in words."""
    away_seats = set(away)
    rules = view.rules
    lines: list[str] = []
    if view.is_over:
        key = "table.game_over_rummy" if rules.game == "rummy" else "table.game_over"
        winners = ", ".join(names[s] for s in view.winners)
        lines.append(t(key, language, count=len(view.score_sheet), winners=winners))
    elif rules.game == "rummy":
        lines.append(t("table.rummy_heading", language, deal=view.deal, target=rules.target_points))
    else:
        if heading:
            lines.append(
                t(
                    "table.heading",
                    language,
                    deal=view.deal,
                    deals=rules.num_deals,
                    contract=contract_text(view.contract, language),
                )
            )
        turn = t(
            "table.turn", language, name=names[view.current], step=step_word(view.step, language)
        )
        if turn_deadline is not None:
            turn += t("table.turn_deadline", language, countdown=countdown(turn_deadline))
        if seats:
            lines.append(t("table.dealer_and_turn", language, dealer=names[view.dealer], turn=turn))
        else:  # the picture marks the dealer
            lines.append(turn)
        if view.upcard is None:
            upcard = t("table.upcard_none", language)
        elif view.upcard_live and buy_deadline is not None:
            upcard = t(
                "table.upcard_live_until",
                language,
                card=card_text(view.upcard),
                countdown=countdown(buy_deadline),
            )
        elif view.upcard_live:
            upcard = t("table.upcard_live", language, card=card_text(view.upcard))
        else:
            upcard = t("table.upcard_dead", language, card=card_text(view.upcard))
        restocks = str(view.restocks)
        if rules.max_restocks is not None:
            restocks += f"/{rules.max_restocks}"
        if view.restocks:
            lines.append(
                t("table.piles", language, upcard=upcard, stock=view.stock_size, restocks=restocks)
            )
        else:  # no stock turned yet: nothing to count
            lines.append(t("table.piles_fresh", language, upcard=upcard, stock=view.stock_size))
    if not seats:
        # The picture shows the seats but not who is away: the text says it, so the table
        # knows why the computer plays their turns and that a click brings them back.
        if not view.is_over:
            away_text = t("table.away", language)
            lines += [f"**{names[index]}**{away_text}" for index in sorted(away_seats)]
        return "\n".join(lines)
    lines.append("")
    lines.append(t("table.seats", language))
    limit = buy_limit_text(view)
    for index, seat in enumerate(view.seats):
        marker = "▶ " if index == view.current and not view.is_over else ""
        extra = t("table.away", language) if index in away_seats else ""
        common = {
            "number": index + 1,
            "marker": marker,
            "name": names[index],
            "count": seat.hand_size,
            "total": seat.total,
            "extra": extra,
        }
        if rules.game == "rummy":
            lines.append(t("table.seat_rummy", language, **common))
            continue
        status = t("table.status_down" if seat.is_down else "table.status_not_down", language)
        lines.append(
            t("table.seat", language, status=status, used=seat.buys_used, limit=limit, **common)
        )
    if view.melds:
        lines.append("")
        lines.append(t("table.melds", language))
        for index, placed in enumerate(view.melds):
            line = f"#{index + 1} {names[placed.owner]}: {meld_text(placed.meld, language)}"
            others = [(s, c) for s, c in placed.laid_off if s != placed.owner]
            if others:  # who laid off what, shown with the meld
                by = ", ".join(
                    t("table.laid_off_by", language, card=card_text(c), name=names[s])
                    for s, c in others
                )
                line += f" ({by})"
            lines.append(line)
    return "\n".join(lines)


def hand_text(
    view: PlayerView,
    names: Sequence[str],
    mode: SortMode,
    *,
    note: str | None = None,
    pending: str | None = None,
    language: Language = DEFAULT_LANGUAGE,
) -> str:
    """A player's private message: the hand, the contract, and what they may do now."""
    hand, prompt = hand_parts(view, names, mode, pending=pending, language=language)
    lines = [note, ""] if note else []
    return "\n".join([*lines, hand, prompt])


def hand_parts(
    view: PlayerView,
    names: Sequence[str],
    mode: SortMode,
    *,
    pending: str | None = None,
    language: Language = DEFAULT_LANGUAGE,
) -> tuple[str, str]:
    """The hand with its contract line, and apart from it the turn's prompt (what the player
    may do now, or whom they wait for): a layout can put the prompt first."""
    assert view.hand is not None and view.seat is not None
    lines: list[str] = []
    sort_word = t("hand.by_suit" if mode == "s" else "hand.by_rank", language)
    lines.append(t("hand.heading", language, count=len(view.hand), sort=sort_word))
    lines.append(hand_lines(view.hand, mode) or t("hand.empty", language))
    lines.append("")
    me = view.seats[view.seat]
    down = t("hand.down" if me.is_down else "hand.not_down", language)
    if view.rules.game == "rummy":
        lines.append(
            t(
                "hand.rummy_status",
                language,
                deal=view.deal,
                total=me.total,
                target=view.rules.target_points,
            )
        )
        if view.taken_upcard is not None:
            lines.append(t("hand.taken_upcard", language, card=card_text(view.taken_upcard)))
    else:
        lines.append(
            t(
                "hand.status",
                language,
                deal=view.deal,
                contract=contract_text(view.contract, language),
                down=down,
                used=me.buys_used,
                limit=buy_limit_text(view),
            )
        )
    return "\n".join(lines), turn_prompt(view, names, pending=pending, language=language)


def turn_prompt(
    view: PlayerView,
    names: Sequence[str],
    *,
    pending: str | None = None,
    language: Language = DEFAULT_LANGUAGE,
) -> str:
    """One line: what the player may do now, or whom and what they wait for."""
    if view.is_over or view.step == "over":
        return t("hand.game_over", language)
    if pending:
        return pending
    if view.current == view.seat:
        if view.step == "draw":
            if view.upcard is not None and view.upcard_live:
                return t("hand.your_turn_take_or_draw", language, card=card_text(view.upcard))
            return t("hand.your_turn_draw", language)
        if view.rules.game == "rummy":  # Rummy has no jokers to swap
            return t("hand.your_turn_play_rummy", language)
        return t("hand.your_turn_play", language)
    return t(
        "hand.waiting", language, name=names[view.current], step=step_word(view.step, language)
    )


#: The widest name a score sheet column holds: four columns still fit a phone's code block.
COLUMN_NAME_WIDTH = 12


def column_name(name: str) -> str:
    """A name cut to a column, with an ellipsis so a cut name reads as cut, not as the name
    ("Computer 1 (makkelijk)" becomes "Computer 1 …", not "Computer 1 (")."""
    if len(name) <= COLUMN_NAME_WIDTH:
        return name
    return name[: COLUMN_NAME_WIDTH - 1].rstrip(" (") + "…"


def score_sheet_text(
    names: Sequence[str],
    sheet: Sequence[Sequence[int]],
    language: Language = DEFAULT_LANGUAGE,
    *,
    hands: bool = False,
    over: bool = False,
) -> str:
    """The sheet's last deal and totals as a code block a phone shows whole (``sheet_text``);
    a game of ``hands`` (Rummy) names its deals hands; a game ``over`` stars no leader."""
    return sheet_text(names, sheet, language, hands=hands, over=over)


def standings_text(names: Sequence[str], totals: Sequence[int], winners: Iterable[int]) -> str:
    order = sorted(range(len(names)), key=lambda s: (totals[s], s))
    won = set(winners)
    lines = []
    for place, seat in enumerate(order, start=1):
        crown = " 🏆" if seat in won else ""
        lines.append(f"{place}. {names[seat]} — {totals[seat]}{crown}")
    return "\n".join(lines)


__all__ = [
    "COLUMN_NAME_WIDTH",
    "SortMode",
    "action_text",
    "buy_limit_text",
    "card_text",
    "cards_text",
    "column_name",
    "countdown",
    "discarded_card",
    "event_lines",
    "hand_lines",
    "hand_parts",
    "hand_text",
    "layoff_item_text",
    "meld_card_text",
    "meld_text",
    "rules_text",
    "rummy_rules_text",
    "score_sheet_text",
    "sort_cards",
    "standings_text",
    "step_word",
    "table_text",
    "turn_prompt",
]
