"""Text for Discord: the public table, a private hand, score sheets and action lines.

Pure functions of an engine ``PlayerView`` (and the seat names), so they are tested without
Discord. Cards are shown with suit symbols (``10♥``, ``🃏``); a wild on the table shows the
card it plays as (``🃏=5♥``). Countdowns use Discord's relative timestamps (``<t:…:R>``),
which every client counts down by itself, so no edit is needed to keep them moving.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

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
from engine.rules import Rules, describe_contract
from engine.view import PlayerView

SortMode = Literal["s", "r"]

STEP_WORDS = {"draw": "drawing", "play": "playing", "over": "done"}


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


def meld_text(meld: Meld) -> str:
    return f"{meld.kind} " + " ".join(meld_card_text(c) for c in meld.cards)


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
) -> str:
    """The public table (spectator view): everything the table may know, nothing private."""
    away_seats = set(away)
    rules = view.rules
    lines: list[str] = []
    if view.is_over and rules.game == "rummy":
        winners = ", ".join(names[s] for s in view.winners)
        lines.append(f"**Game over** after {len(view.score_sheet)} hand(s). Winner: **{winners}**")
    elif view.is_over:
        winners = ", ".join(names[s] for s in view.winners)
        lines.append(f"**Game over** after {len(view.score_sheet)} deal(s). Winner: **{winners}**")
    elif rules.game == "rummy":
        lines.append(f"**Rummy, hand {view.deal}** · game to {rules.target_points} points")
    else:
        lines.append(
            f"**Deal {view.deal} of {rules.num_deals}** · contract: "
            f"**{describe_contract(view.contract)}**"
        )
        turn = f"Turn: **{names[view.current]}** ({STEP_WORDS[view.step]})"
        if turn_deadline is not None:
            turn += f", time runs out {countdown(turn_deadline)}"
        lines.append(f"Dealer: {names[view.dealer]} · {turn}")
        if view.upcard is None:
            upcard = "Upcard: none"
        elif view.upcard_live:
            upcard = f"Upcard: **{card_text(view.upcard)}** (live"
            if buy_deadline is not None:
                upcard += f", buying closes {countdown(buy_deadline)}"
            upcard += ")"
        else:
            upcard = f"Upcard: {card_text(view.upcard)} (dead)"
        restocks = "" if rules.max_restocks is None else f"/{rules.max_restocks}"
        lines.append(f"{upcard} · Stock: {view.stock_size} · Restocks: {view.restocks}{restocks}")
    lines.append("")
    lines.append("**Seats**")
    limit = buy_limit_text(view)
    for index, seat in enumerate(view.seats):
        marker = "▶ " if index == view.current and not view.is_over else ""
        status = "**down**" if seat.is_down else "not down"
        extra = " · away — played by the computer" if index in away_seats else ""
        if rules.game == "rummy":
            lines.append(
                f"{index + 1}. {marker}{names[index]} — {seat.hand_size} cards · "
                f"points {seat.total}{extra}"
            )
            continue
        lines.append(
            f"{index + 1}. {marker}{names[index]} — {seat.hand_size} cards · {status} · "
            f"buys {seat.buys_used}/{limit} · total {seat.total}{extra}"
        )
    if view.melds:
        lines.append("")
        lines.append("**Melds**")
        for index, placed in enumerate(view.melds):
            line = f"#{index + 1} {names[placed.owner]}: {meld_text(placed.meld)}"
            others = [(s, c) for s, c in placed.laid_off if s != placed.owner]
            if others:  # R7: who laid off what, shown with the meld
                line += " (" + ", ".join(f"{card_text(c)} by {names[s]}" for s, c in others) + ")"
            lines.append(line)
    return "\n".join(lines)


def hand_text(
    view: PlayerView,
    names: Sequence[str],
    mode: SortMode,
    *,
    note: str | None = None,
    pending: str | None = None,
) -> str:
    """A player's private message: the hand, the contract, and what they may do now."""
    assert view.hand is not None and view.seat is not None
    lines: list[str] = []
    if note:
        lines.append(note)
        lines.append("")
    sort_word = "by suit" if mode == "s" else "by rank"
    lines.append(f"**Your hand** ({len(view.hand)} cards, {sort_word})")
    lines.append(hand_lines(view.hand, mode) or "(empty)")
    lines.append("")
    me = view.seats[view.seat]
    down = "you are **down**" if me.is_down else "you are not down yet"
    if view.rules.game == "rummy":
        lines.append(
            f"Rummy, hand {view.deal} · your points {me.total} · game to {view.rules.target_points}"
        )
        if view.taken_upcard is not None:
            lines.append(
                f"You took {card_text(view.taken_upcard)} from the pile: you can't discard "
                "it this turn."
            )
    else:
        lines.append(
            f"Deal {view.deal}: contract **{describe_contract(view.contract)}** · {down} · "
            f"buys {me.buys_used}/{buy_limit_text(view)}"
        )
    if view.is_over or view.step == "over":
        lines.append("The game is over.")
    elif pending:
        lines.append(pending)
    elif view.current == view.seat:
        if view.step == "draw":
            if view.upcard is not None and view.upcard_live:
                lines.append(
                    f"**Your turn.** Take the upcard {card_text(view.upcard)} "
                    "or draw from the stock."
                )
            else:
                lines.append("**Your turn.** Draw from the stock.")
        else:
            lines.append("**Your turn.** Lay down, lay off or swap if you can, then discard.")
    else:
        lines.append(f"Waiting for **{names[view.current]}** ({STEP_WORDS[view.step]}).")
    return "\n".join(lines)


def score_sheet_text(names: Sequence[str], sheet: Sequence[Sequence[int]]) -> str:
    """Deal by deal, with totals, as a monospace block."""
    width = max(6, *(len(n[:12]) for n in names))
    header = "Deal " + " ".join(f"{n[:12]:>{width}}" for n in names)
    rows = [header]
    totals = [0] * len(names)
    for number, scores in enumerate(sheet, start=1):
        rows.append(f"{number:>4} " + " ".join(f"{s:>{width}}" for s in scores))
        totals = [t + s for t, s in zip(totals, scores, strict=False)]
    rows.append("Tot. " + " ".join(f"{t:>{width}}" for t in totals))
    return "```\n" + "\n".join(rows) + "\n```"


def standings_text(names: Sequence[str], totals: Sequence[int], winners: Iterable[int]) -> str:
    order = sorted(range(len(names)), key=lambda s: (totals[s], s))
    won = set(winners)
    lines = []
    for place, seat in enumerate(order, start=1):
        crown = " 🏆" if seat in won else ""
        lines.append(f"{place}. {names[seat]} — {totals[seat]}{crown}")
    return "\n".join(lines)


def action_text(action: Action) -> str:
    """A button-sized description of an action: ``Discard 7♥``, ``Lay off 7♥ on #3 (high)``."""
    if isinstance(action, Discard):
        return f"Discard {card_text(action.card)}"
    if isinstance(action, DrawStock):
        return "Draw from the stock"
    if isinstance(action, TakeUpcard):
        return "Take the upcard"
    if isinstance(action, LayOff):
        return "Lay off " + ", ".join(layoff_item_text(i) for i in action.items)
    if isinstance(action, SwapJoker):
        swap = action.swap
        return (
            f"Swap {card_text(swap.card)} for the wild at #{swap.meld + 1}, "
            f"position {swap.position + 1}"
        )
    if isinstance(action, GoDown):
        text = "Lay down " + " | ".join(meld_text(m) for m in action.melds)
        if action.layoffs:
            text += ", then lay off " + ", ".join(layoff_item_text(i) for i in action.layoffs)
        return text
    return str(action)


def layoff_item_text(item: LayOffItem) -> str:
    where = (
        f" ({item.end} end)" if item.end else f" as {SUIT_SYMBOLS[item.suit]}" if item.suit else ""
    )
    return f"{card_text(item.card)} on #{item.meld + 1}{where}"


def event_lines(events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """Public announcements worth a line in the channel (draws and plain discards are not)."""
    lines: list[str] = []
    for event in events:
        if isinstance(event, BuyAwarded):
            penalty = event.penalty_cards
            extra = f" and {penalty} penalty card{'s' if penalty != 1 else ''}"
            how = " in turn" if event.in_turn else ""
            lines.append(
                f"🛒 **{names[event.player]}** bought {card_text(event.card)}{how}{extra}."
            )
        elif isinstance(event, TookUpcard):
            lines.append(f"✋ {names[event.player]} took the upcard {card_text(event.card)}.")
        elif isinstance(event, UpcardDead):
            pass
        elif isinstance(event, WentDown):
            melds = " | ".join(meld_text(m) for m in event.melds)
            lines.append(f"⬇️ **{names[event.player]}** went down: {melds}")
        elif isinstance(event, LaidOff):
            lines.append(
                f"➕ {names[event.player]} laid off {card_text(event.card)} on #{event.meld + 1}."
            )
        elif isinstance(event, JokerSwapped):
            lines.append(
                f"🔁 {names[event.player]} swapped {card_text(event.card)} for "
                f"{card_text(event.wild)} on #{event.meld + 1}."
            )
        elif isinstance(event, Restocked):
            lines.append(f"♻️ The discard pile was shuffled into a new stock ({event.cards} cards).")
        elif isinstance(event, WentOut):
            how = " **blind** (Shanghai!)" if event.blind else ""
            lines.append(f"🎉 **{names[event.player]}** went out{how}!")
        elif isinstance(event, DealEnded):
            if event.reason == "exhausted":
                lines.append(f"Deal {event.deal} ended: the stock ran out.")
            elif event.reason == "void":
                lines.append(f"Deal {event.deal} was void: it will be dealt again.")
        elif isinstance(event, DealStarted):
            lines.append(
                f"🃏 Deal {event.deal} dealt by {names[event.dealer]}; "
                f"upcard {card_text(event.upcard)}."
            )
        elif isinstance(event, GameEnded):
            pass
    return lines


def discarded_card(events: Sequence[Event]) -> Card | None:
    for event in events:
        if isinstance(event, Discarded):
            return event.card
    return None


WILD_LIMITS = {
    "majority": "fewer wilds than naturals",
    "parity": "at most as many wilds as naturals",
    "none": "any number of wilds (with one natural)",
}


def rules_text(rules: Rules, *, buy_seconds: float, turn_seconds: float) -> str:
    """The house rules of a table in plain words."""
    if rules.game == "rummy":
        return rummy_rules_text(rules, turn_seconds=turn_seconds)
    contracts = [
        f"{deal}. {describe_contract(rules.contract_for(deal))}"
        for deal in range(1, rules.num_deals + 1)
    ]
    limit = "3 per deal (4 in deals 9-10)" if rules.buy_limit == "3_then_4" else "unlimited"
    priority = (
        "the next player in turn order first"
        if rules.buy_priority == "next_in_turn"
        else "the player nearest the dealer's left first"
    )
    final = {
        "optional": "you may go out by discarding, melding or laying off",
        "required": "you must go out with a discard",
        "forbidden": "you must go out by melding or laying off, never by a discard",
    }[rules.final_discard]
    decks, jokers = rules.pack_for(rules.players[1])
    lines = [
        f"**Players** {rules.players[0]}-{rules.players[1]}; each gets 11 cards.",
        f"**Deals** {rules.num_deals}; the contracts:",
        *contracts,
        f"**Wild cards** jokers{' and 2s' if rules.deuces_wild else ''}; a meld may hold "
        f"{WILD_LIMITS[rules.joker_limit]}.",
        f"**Buying** within {buy_seconds:g} s of a discard; {limit}; each buy costs "
        f"{rules.buy_penalty_cards} extra card(s) from the stock; {priority}."
        + ("" if rules.down_player_may_buy else " Players who are down can't buy."),
        f"**Contract melds** {'exactly' if rules.contract_meld_size == 'exact' else 'at least'} "
        "the listed sizes; "
        + (
            "you may lay off on the turn you go down."
            if rules.layoff_on_going_down_turn
            else "no lay-offs on the turn you go down."
        ),
        f"**Joker swaps** {rules.joker_swap.replace('_', ' ')}.",
        f"**Going out** {final}.",
        "**Scoring** penalty points for cards left in hand, lowest total wins"
        + ("; going out in one turn scores -25 (-50 without wilds)." if rules.blind_bonus else "."),
        f"**Turn timer** {turn_seconds:g} s; the bot plays a timed-out turn (draw, discard).",
        f"(Largest pack: {decks} decks and {jokers} jokers.)",
    ]
    return "\n".join(lines)


def rummy_rules_text(rules: Rules, *, turn_seconds: float) -> str:
    """The house rules of a Rummy table in plain words."""
    ace = (
        "aces are high or low (Q-K-A and A-2-3) and score 15"
        if rules.ace_mode == "high_or_low"
        else "aces are low (A-2-3) and score 1"
    )
    final = {
        "optional": "you may go out with or without a final discard",
        "required": "you must go out with a discard",
        "forbidden": "you must go out by melding or laying off, never by a discard",
    }[rules.final_discard]
    lines = [
        f"**Players** {rules.players[0]}-{rules.players[1]}; 10 cards each for two, 7 for "
        "three or four, 6 for five or six; one 52-card deck, no wild cards.",
        "**Turn** draw from the stock or take the top discard, lay any number of melds (sets "
        "of 3-4 of a rank, runs of 3+ in one suit) and lay-offs, then discard. A card taken "
        "from the discard pile can't be thrown back the same turn.",
        f"**Aces** {ace}.",
        f"**Going out** {final}.",
        f"**Scoring** the winner of a hand scores the cards left in the others' hands (double "
        f"for going rummy: all at once); the game ends at {rules.target_points} points, "
        "highest total wins.",
        f"**Turn timer** {turn_seconds:g} s; the bot plays a timed-out turn.",
    ]
    return "\n".join(lines)
