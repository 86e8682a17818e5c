"""Text for Discord: the public table, a private hand, score sheets and action lines.

Pure functions of an engine ``PlayerView`` (and the seat names), so they are tested without
Discord. Cards are shown with suit symbols (``10♥``, ``🃏``); a wild on the table shows the
card it plays as (``🃏=5♥``). Countdowns use Discord's relative timestamps (``<t:…:R>``),
which every client counts down by itself, so no edit is needed to keep them moving.

Every function takes the ``language`` to write in (``bot.i18n``): the table's language for
public text, the reader's for an ephemeral reply. Words come from the catalogues; cards, names
and numbers are the same in every language.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from bot.i18n import DEFAULT_LANGUAGE, Language, t
from bot.i18n.terms import contract_text
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
from engine.cards import SUIT_SYMBOLS, SUITS, Card, rank_text
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
from engine.melds import Meld, MeldCard
from engine.rules import Rules
from engine.view import PlayerView

SortMode = Literal["s", "r"]


def step_word(step: str, language: Language) -> str:
    """What the player in turn is doing: ``drawing``, ``playing``, ``done``."""
    return t(f"step.{step}", language)


def card_text(card: Card) -> str:
    """``10♥`` or ``🃏``."""
    return card.pretty()


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(card_text(c) for c in cards)


def meld_card_text(placed: MeldCard) -> str:
    """A table card; a wild shows what it plays as: ``🃏=5♥``, ``2♣=8``."""
    text = card_text(placed.card)
    plays_as_other = (
        placed.card.is_joker
        or placed.card.rank != placed.rank
        or (placed.suit is not None and placed.card.suit != placed.suit)
    )
    if plays_as_other:
        suit = SUIT_SYMBOLS[placed.suit] if placed.suit else ""
        return f"{text}={rank_text(placed.rank)}{suit}"
    return text


def meld_text(meld: Meld, language: Language = DEFAULT_LANGUAGE) -> str:
    return f"{t(f'term.{meld.kind}', language)} " + " ".join(meld_card_text(c) for c in meld.cards)


def sort_cards(cards: Iterable[Card], mode: SortMode) -> list[Card]:
    """By suit then rank (``s``), or by rank then suit (``r``); jokers last either way."""
    if mode == "r":
        return sorted(
            cards, key=lambda c: (c.is_joker, c.rank, SUITS.index(c.suit) if c.suit else 9)
        )
    return sorted(cards, key=Card.sort_key)


def hand_lines(cards: Sequence[Card], mode: SortMode) -> str:
    """The hand grouped as players hold it: one group per suit (or per rank)."""
    ordered = sort_cards(cards, mode)
    groups: list[list[Card]] = []
    for card in ordered:
        key = (card.suit if mode == "s" else card.rank) if not card.is_joker else "JK"
        if groups and _group_key(groups[-1][0], mode) == key:
            groups[-1].append(card)
        else:
            groups.append([card])
    return "  ·  ".join(cards_text(g) for g in groups)


def _group_key(card: Card, mode: SortMode) -> object:
    if card.is_joker:
        return "JK"
    return card.suit if mode == "s" else card.rank


def countdown(deadline: float | None) -> str:
    """A Discord relative timestamp (``in 8 seconds``) for an epoch deadline."""
    if deadline is None:
        return ""
    return f"<t:{int(deadline + 0.999)}:R>"


def buy_limit_text(view: PlayerView) -> str:
    return "∞" if view.buy_limit is None else str(view.buy_limit)


def table_text(
    view: PlayerView,
    names: Sequence[str],
    *,
    buy_deadline: float | None = None,
    turn_deadline: float | None = None,
    away: Iterable[int] = (),
    language: Language = DEFAULT_LANGUAGE,
) -> str:
    """The public table (spectator view): everything the table may know, nothing private."""
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
        lines.append(t("table.dealer_and_turn", language, dealer=names[view.dealer], turn=turn))
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
        lines.append(
            t("table.piles", language, upcard=upcard, stock=view.stock_size, restocks=restocks)
        )
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
            if others:  # R7: who laid off what, shown with the meld
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
    assert view.hand is not None and view.seat is not None
    lines: list[str] = []
    if note:
        lines.append(note)
        lines.append("")
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
    if view.is_over or view.step == "over":
        lines.append(t("hand.game_over", language))
    elif pending:
        lines.append(pending)
    elif view.current == view.seat:
        if view.step == "draw":
            if view.upcard is not None and view.upcard_live:
                lines.append(
                    t("hand.your_turn_take_or_draw", language, card=card_text(view.upcard))
                )
            else:
                lines.append(t("hand.your_turn_draw", language))
        elif view.rules.game == "rummy":  # Rummy has no jokers to swap (issue 24.5)
            lines.append(t("hand.your_turn_play_rummy", language))
        else:
            lines.append(t("hand.your_turn_play", language))
    else:
        lines.append(
            t(
                "hand.waiting",
                language,
                name=names[view.current],
                step=step_word(view.step, language),
            )
        )
    return "\n".join(lines)


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
) -> str:
    """Deal by deal, with totals, as a monospace block."""
    short = [column_name(n) for n in names]
    width = max(6, *(len(n) for n in short))
    header = f"{t('sheet.deal', language)[:5]:<5}" + " ".join(f"{n:>{width}}" for n in short)
    rows = [header]
    totals = [0] * len(names)
    for number, scores in enumerate(sheet, start=1):
        rows.append(f"{number:>4} " + " ".join(f"{s:>{width}}" for s in scores))
        totals = [total + s for total, s in zip(totals, scores, strict=False)]
    total = t("sheet.total_short", language)[:4]
    rows.append(f"{total:<5}" + " ".join(f"{value:>{width}}" for value in totals))
    return "```\n" + "\n".join(rows) + "\n```"


def standings_text(names: Sequence[str], totals: Sequence[int], winners: Iterable[int]) -> str:
    order = sorted(range(len(names)), key=lambda s: (totals[s], s))
    won = set(winners)
    lines = []
    for place, seat in enumerate(order, start=1):
        crown = " 🏆" if seat in won else ""
        lines.append(f"{place}. {names[seat]} — {totals[seat]}{crown}")
    return "\n".join(lines)


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


def rules_text(
    rules: Rules,
    *,
    buy_seconds: float,
    turn_seconds: float,
    language: Language = DEFAULT_LANGUAGE,
) -> str:
    """The house rules of a table in plain words."""
    if rules.game == "rummy":
        return rummy_rules_text(rules, turn_seconds=turn_seconds, language=language)
    contracts = [
        f"{deal}. {contract_text(rules.contract_for(deal), language)}"
        for deal in range(1, rules.num_deals + 1)
    ]
    decks, jokers = rules.pack_for(rules.players[1])
    limit = t(f"rules.wild_limit.{rules.joker_limit}", language)
    buying = t(
        "rules.buying",
        language,
        seconds=buy_seconds,
        limit=t(f"rules.buy_limit.{rules.buy_limit}", language),
        count=rules.buy_penalty_cards,
        priority=t(f"rules.priority.{rules.buy_priority}", language),
    )
    if not rules.down_player_may_buy:
        buying += t("rules.down_cannot_buy", language)
    layoff = t(
        "rules.layoff_same_turn"
        if rules.layoff_on_going_down_turn
        else "rules.no_layoff_same_turn",
        language,
    )
    lines = [
        t("rules.players", language, low=rules.players[0], high=rules.players[1]),
        t("rules.deals", language, count=rules.num_deals),
        *contracts,
        t("rules.wilds_deuces" if rules.deuces_wild else "rules.wilds", language, limit=limit),
        buying,
        t(f"rules.{rules.contract_meld_size}", language, layoff=layoff),
        t(f"rules.joker_swap.{rules.joker_swap}", language),
        t(f"rules.final.{rules.final_discard}", language),
        t("rules.scoring_blind" if rules.blind_bonus else "rules.scoring", language),
        t("rules.timer", language, seconds=turn_seconds),
        t("rules.pack", language, decks=decks, jokers=jokers),
    ]
    return "\n".join(lines)


def rummy_rules_text(
    rules: Rules, *, turn_seconds: float, language: Language = DEFAULT_LANGUAGE
) -> str:
    """The house rules of a Rummy table in plain words."""
    aces = "rummy.aces_high_or_low" if rules.ace_mode == "high_or_low" else "rummy.aces_low"
    lines = [
        t("rummy.players", language, low=rules.players[0], high=rules.players[1]),
        t("rummy.turn", language),
        t(aces, language),
        t(f"rummy.final.{rules.final_discard}", language),
        t("rummy.scoring", language, target=rules.target_points),
        t("rummy.timer", language, seconds=turn_seconds),
    ]
    return "\n".join(lines)
