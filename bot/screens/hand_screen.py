"""The private hand's screen as data: its text and its controls, worded here, drawn by views.

``hand_screen`` decides from a ``SeatSnapshot`` alone what the player's message says and which
buttons and selects it offers (each a ``Button`` or ``Select`` with its verb, label, style and
row); ``bot/views/hand.py`` only turns them into Discord components that carry the table, the
snapshot's tag and the sort order. Every select is split into pages of at most 25 options, so
no choice is ever cut off, and lay-offs go through a picker (cards, then a place for a card
with several).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from bot.i18n import DEFAULT_LANGUAGE, Language, t
from engine.actions import (
    Action,
    BuyInTurn,
    Discard,
    DrawStock,
    GoDown,
    LayOff,
    LayOffItem,
    SwapJoker,
    TakeUpcard,
)
from engine.cards import Card
from engine.view import PlayerView
from engine.wild_suits import one_place_per_meld

from .hand_text import deal_recap_text, go_down_lines
from .table_story import table_story
from .text import (
    SortMode,
    action_text,
    card_text,
    cards_text,
    countdown,
    hand_text,
    layoff_item_text,
    meld_text,
)

if TYPE_CHECKING:
    from bot.service.snapshot import SeatSnapshot

Mode = Literal["main", "down", "layoff", "swap", "options"]
#: The buy preferences, the verb of each one's button and its label's catalogue key.
BUY_PREF_BUTTONS = (
    ("ask", "bask", "button.buy_pref_ask"),
    ("helps", "bhelp", "button.buy_pref_helps"),
    ("never", "bnever", "button.buy_pref_never"),
)
Style = Literal["primary", "secondary", "success", "danger"]
MAX_OPTIONS = 25


@dataclass(frozen=True)
class Option:
    """One choice of a select: what it says and the value the click sends."""

    label: str
    value: str


@dataclass(frozen=True)
class Button:
    verb: str
    label: str
    style: Style
    row: int


@dataclass(frozen=True)
class Select:
    verb: str
    options: tuple[Option, ...]
    placeholder: str
    row: int
    arg: str = ""
    min_values: int = 1
    max_values: int = 1


Control = Button | Select


@dataclass(frozen=True)
class HandScreen:
    """A hand message: its text (at most 2,000 characters) and its controls, in order."""

    content: str
    controls: tuple[Control, ...]


def chunks(options: list[Option]) -> list[list[Option]]:
    """Options in selects of at most 25 (Discord's limit), so no choice is ever cut off."""
    return [options[i : i + MAX_OPTIONS] for i in range(0, len(options), MAX_OPTIONS)]


def layoff_cards(
    legal: tuple[Action, ...], view: PlayerView | None = None
) -> dict[Card, list[LayOffItem]]:
    """Each card that can be laid off now, with every place it fits. Given the ``view``, a
    wild on a set has one place per meld (``engine.wild_suits.one_place_per_meld``) instead of
    one per suit (issue 23.3: a joker asked for up to 32 places over two menus)."""
    items = [
        action.items[0]
        for action in legal
        if isinstance(action, LayOff) and len(action.items) == 1
    ]
    if view is not None:
        melds = [m.meld for m in view.melds]
        items = one_place_per_meld(items, melds, view.hand or (), view.rules, len(view.seats))
    places: dict[Card, list[LayOffItem]] = {}
    for item in items:
        places.setdefault(item.card, []).append(item)
    return places


def lay_offs_together(legal: tuple[Action, ...]) -> list[LayOff]:
    """The lay-offs of several cards that the rules allow only together (preset_004's
    ``final_discard: forbidden`` leaves a down player with two cards no single lay-off), one
    per set of cards and places: the hand offers them as plays of their own (issue 29.1)."""
    singles = {
        action.items[0] for action in legal if isinstance(action, LayOff) and len(action.items) == 1
    }
    seen: set[frozenset[str]] = set()
    found: list[LayOff] = []
    for action in legal:
        if not isinstance(action, LayOff) or len(action.items) < 2:
            continue
        if all(item in singles for item in action.items):
            continue  # reachable card by card, or with the lay-off picker's several cards
        key = frozenset(str(item) for item in action.items)
        if key not in seen:
            seen.add(key)
            found.append(action)
    return found


def other_go_downs(legal: tuple[Action, ...]) -> list[GoDown]:
    """The legal go-downs besides the proposal (the first): with jokers swapped in under
    ``anyone_then_go_down``, or going out with a lay-off (S37); chosen on the Lay down
    screen (issue 29.1)."""
    downs = [action for action in legal if isinstance(action, GoDown)]
    return downs[1:]


def go_down_key(action: GoDown) -> str:
    """A go-down's select value: short (Discord allows 100 characters, a go-down's text
    can pass that) and the same for the same go-down on any screen."""
    return f"{zlib.crc32(str(action).encode()):08x}"


def go_down_text(action: GoDown, language: Language = DEFAULT_LANGUAGE) -> str:
    """A go-down with the swaps it makes, as one option's label."""
    parts = [action_text(action, language)]
    parts.extend(action_text(SwapJoker(swap), language) for swap in action.swaps)
    return "; ".join(parts)[:100]


def swap_options(snap: SeatSnapshot, language: Language = DEFAULT_LANGUAGE) -> list[Option]:
    """The swap and the freed joker's place in one pick first (issue 23.3), then the plain
    swaps that keep the joker in hand."""
    options = [
        Option(
            t(
                "hand.swap_and_place",
                language,
                swap=action_text(swap, language),
                place=layoff_item_text(item, language),
            )[:100],
            f"{swap}|{item}"[:100],
        )
        for swap, item in snap.shortcuts.swap_and_place
    ]
    swaps = [a for a in snap.legal if isinstance(a, SwapJoker)]
    return options + [Option(action_text(a, language)[:100], str(a)[:100]) for a in swaps]


def layoff_options(
    places: dict[Card, list[LayOffItem]], language: Language = DEFAULT_LANGUAGE
) -> list[Option]:
    """One option per card where it goes when that is unambiguous. A card with several
    places has one option per place when all fit in one select (a pick saved: the place is
    chosen with the card), else one saying how many places (the picker then asks where)."""
    spread = sum(len(items) for items in places.values()) <= MAX_OPTIONS
    options = []
    for card, items in sorted(places.items(), key=lambda kv: Card.sort_key(kv[0])):
        if len(items) == 1:
            options.append(Option(layoff_item_text(items[0], language)[:100], str(card)))
        elif spread:
            options.extend(
                Option(layoff_item_text(item, language)[:100], str(item)) for item in items
            )
        else:
            label = t("hand.places_choose", language, card=card_text(card), count=len(items))
            options.append(Option(label[:100], str(card)))
    return options


def hand_screen(
    snap: SeatSnapshot,
    sort: SortMode,
    *,
    mode: Mode = "main",
    note: str | None = None,
    picked: Card | LayOffItem | None = None,
    language: Language = DEFAULT_LANGUAGE,
) -> HandScreen:
    """The content and controls of a seat's private message, from its snapshot alone, in the
    player's own language. ``picked`` is what the lay-off screen was given: a card (where
    does it go?) or the first place of lay-offs allowed only together (what goes with it?)."""
    view = snap.view
    legal = snap.legal
    controls: list[Control] = []
    pending_text = None
    if snap.pending:
        pending_text = t("hand.pending", language, countdown=countdown(snap.buy_deadline))
    extra: list[str] = []
    notes = [n for n in (note, *snap.notes) if n]
    story = table_story(view, snap.names, language)  # issue 23.4: the table since your turn
    notes = [story, *notes] if story else notes

    def button(verb: str, key: str, style: Style, row: int, **params: Any) -> None:
        label = t(key, language, **params)
        controls.append(Button(verb, label, style, row))

    def selects(
        verb: str,
        options: list[Option],
        placeholder: str,
        first_row: int,
        *,
        arg: str = "",
        many: bool = False,
        last_row: int = 4,
    ) -> None:
        # A select fills its row: pages stop before a row the screen's buttons hold.
        for page, part in enumerate(chunks(options)[: last_row + 1 - first_row]):
            controls.append(
                Select(
                    verb,
                    tuple(part),
                    placeholder if page == 0 else t("hand.more", language, placeholder=placeholder),
                    first_row + page,
                    arg=f"{arg}{page}" if arg or page else "",
                    max_values=len(part) if many else 1,
                )
            )

    def finish(snap: SeatSnapshot) -> bool:
        """The turn's last two plays in one pick (lay down or lay off all, then discard), in
        row 0, which the play step leaves free (issue 23.3)."""
        cuts = snap.shortcuts
        if cuts.down_lay_all_then_discard and cuts.down_lay_all is not None:
            cards, prefix = cuts.down_lay_all_then_discard, "b"
            count = len(cuts.down_lay_all.items)
            placeholder = t("hand.down_lay_all_then_discard", language, count=count)
        elif cuts.down_then_discard:
            cards, prefix = cuts.down_then_discard, "d"
            placeholder = t("hand.down_then_discard", language)
        elif cuts.melds_then_discard:  # Rummy: the new melds, then the discard
            cards, prefix = cuts.melds_then_discard, "m"
            melds = " + ".join(meld_text(m, language) for m in cuts.new_melds)
            placeholder = t("hand.melds_then_discard", language, melds=melds)[:150]
        elif cuts.lay_all_then_discard and cuts.lay_off_all is not None:
            cards, prefix = cuts.lay_all_then_discard, "a"
            items = cuts.lay_off_all.items
            if len(items) == 1:
                one = layoff_item_text(items[0], language)
                placeholder = t("hand.lay_one_then_discard", language, item=one)
            else:
                placeholder = t("hand.lay_all_then_discard", language, count=len(items))
        else:
            return False
        if len(cards) > MAX_OPTIONS:
            return False  # a huge hand keeps the plain controls: no choice may be cut off
        options = [
            Option(t("hand.discard_option", language, card=card_text(c)), f"{prefix}:{c}")
            for c in cards
        ]
        controls.append(Select("finish", tuple(options), placeholder, 0))
        return True

    if mode == "down":
        proposal = next((a for a in legal if isinstance(a, GoDown)), None)
        if proposal is None:
            mode, notes = "main", [*notes, t("hand.cannot_meet_contract", language)]
        else:
            extra.append(t("hand.lay_down_these", language))
            lines, left = go_down_lines(proposal, view, language)
            extra.extend(lines)
            left_cards = cards_text(sorted(left.elements(), key=Card.sort_key))
            extra.append(t("hand.left_in_hand", language, cards=left_cards))
            button("downok", "button.confirm_down", "success", 0)
            button("downedit", "button.own_melds", "secondary", 0)
            button("back", "button.back", "secondary", 0)
            others = other_go_downs(legal)
            if others:  # with a joker swapped in, or going out: plays of their own (29.1)
                options = [Option(go_down_text(a, language), go_down_key(a)) for a in others]
                selects("downpick", options, t("hand.other_go_downs", language), 1)
    if mode == "layoff":
        places = layoff_cards(legal, view)
        together = lay_offs_together(legal)
        if not places and together:  # more than the main screen's one select holds
            first = picked if isinstance(picked, LayOffItem) else None
            starting = [a for a in together if first is None or a.items[0] == first]
            if len(starting) <= 4 * MAX_OPTIONS:
                options = [Option(action_text(a, language)[:100], str(a)[:100]) for a in starting]
                selects("laybatch", options, t("hand.lay_off_together", language), 0, last_row=3)
            else:  # two wilds on a dozen melds are hundreds of pairs: the first place first
                firsts = list(dict.fromkeys(a.items[0] for a in together))
                options = [Option(layoff_item_text(i, language)[:100], str(i)) for i in firsts]
                selects("laystart", options, t("hand.lay_off_first", language), 0, last_row=3)
            button("back", "button.back", "secondary", 4)
        elif not places:
            mode, notes = "main", [*notes, t("hand.nothing_to_lay_off", language)]
        elif isinstance(picked, Card) and picked in places:
            extra.append(t("hand.where_goes", language, card=card_text(picked)))
            options = [
                Option(layoff_item_text(item, language)[:100], str(item)) for item in places[picked]
            ]
            placeholder = t("hand.lay_off_on", language, card=card_text(picked))
            selects("place", options, placeholder, 0, arg="p", last_row=3)
            button("layoff", "button.back_to_cards", "secondary", 4)
        else:
            extra.append(t("hand.lay_off_help", language))
            options = layoff_options(places, language)
            placeholder = t("hand.cards_to_lay_off", language)
            selects("layoff", options, placeholder, 0, many=True, last_row=3)
            button("back", "button.back", "secondary", 4)
    if mode == "swap":
        swaps = [a for a in legal if isinstance(a, SwapJoker)]
        if not swaps:
            mode, notes = "main", [*notes, t("hand.nothing_to_swap", language)]
        else:
            placeholder = t("hand.choose_swap", language)
            selects("swap", swap_options(snap, language), placeholder, 0, last_row=3)
            button("back", "button.back", "secondary", 4)
    if mode == "options":
        # The seat's own settings, and leaving the game: out of the turn's rows, so a
        # hurried click never ends anyone's game (issue 23.5).
        extra.append(t("hand.options_help", language))
        for pref, verb, key in BUY_PREF_BUTTONS:
            chosen = snap.buy_pref == pref
            button(verb, key, "success" if chosen else "secondary", 0)
        button("leave", "button.leave_game", "danger", 1)
        button("back", "button.back", "secondary", 1)
    if snap.deal_end is not None:  # the deal just ended: the moment comes first
        notes = [deal_recap_text(snap.deal_end, snap.names, language), *notes]
    if snap.removed:  # nothing left to click: the bot plays the seat for good
        notes = [*notes, t("hand.seat_played_by_bot", language)]
    if mode == "main" and not snap.removed:
        # Everything a turn needs is on this one screen, so most turns take two clicks.
        if not snap.pending:
            if any(isinstance(a, DrawStock) for a in legal):
                button("draw", "button.draw_stock", "primary", 0)
            if any(isinstance(a, TakeUpcard) for a in legal):
                if view.upcard:
                    upcard = card_text(view.upcard)
                    button("take", "button.take", "primary", 0, card=upcard)
                else:
                    button("take", "button.take_upcard", "primary", 0)
            if any(isinstance(a, BuyInTurn) for a in legal):
                button("buyin", "button.buy_in_turn", "success", 0)
            took = snap.shortcuts.take_then_discard
            if took and view.upcard is not None and len(took) <= MAX_OPTIONS:
                # The draw step leaves the discard's row free: take and throw in one pick.
                placeholder = t("hand.take_then_discard", language, card=card_text(view.upcard))
                options = [
                    Option(t("hand.discard_option", language, card=card_text(c)), str(c))
                    for c in took
                ]
                controls.append(Select("takethrow", tuple(options), placeholder, 2))
        if snap.buy_offer is not None and view.upcard is not None:
            # Off turn, the upcard's window is decided here: the table message needn't change.
            upcard = card_text(view.upcard)
            button("buy", "button.buy", "success", 0, card=upcard)
            button("pass", "button.pass", "secondary", 0)
        if snap.buy_requested:
            button("unbuy", "buy.take_back", "secondary", 0)
        proposal = next((a for a in legal if isinstance(a, GoDown)), None)
        if proposal is not None:
            extra.append(t("hand.can_lay_down", language))
            extra.extend(go_down_lines(proposal, view, language)[0])
            button("downok", "button.lay_down_these", "success", 1)
            button("downedit", "button.own_melds", "secondary", 1)
            if other_go_downs(legal):
                button("down", "button.more_go_downs", "secondary", 1)
        places = layoff_cards(legal, view)
        batch = snap.shortcuts.lay_off_all
        finished = finish(snap)
        if batch is not None and len(batch.items) >= 2:
            count = len(batch.items)
            button("layall", "button.lay_all", "success", 1, count=count)
        if any(isinstance(a, SwapJoker) for a in legal):
            swapping = swap_options(snap, language)
            if not finished and len(swapping) <= MAX_OPTIONS:
                # Row 0 is free: the swaps (each with its joker's place) in one pick there.
                placeholder = t("hand.choose_swap", language)
                controls.append(Select("swap", tuple(swapping), placeholder, 0))
            else:
                button("swap", "button.swap_joker", "secondary", 1)
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            cards = sorted({a.card for a in discards}, key=Card.sort_key)
            options = [
                Option(label=t("hand.discard_option", language, card=card_text(c)), value=str(c))
                for c in cards
            ]
            selects("discard", options, t("hand.discard", language), 2)
        row3_free = len(discards) <= MAX_OPTIONS
        rummy_turn = view.rules.game == "rummy" and view.current == view.seat
        wants_meld = rummy_turn and view.step == "play" and len(view.hand or ()) >= 3
        if places and row3_free and not wants_meld and len(places) <= MAX_OPTIONS:
            lay_offs = layoff_options(places, language)
            controls.append(
                Select(
                    "layoff",
                    tuple(lay_offs),
                    t("hand.lay_off_pick", language),
                    3,
                    max_values=len(lay_offs),
                )
            )
        elif places:
            button("layoff", "button.lay_off", "secondary", 4)
        together = lay_offs_together(legal)
        if (
            together
            and not places
            and not wants_meld
            and (not row3_free or len(together) > MAX_OPTIONS)
        ):
            button("layoff", "button.lay_off", "secondary", 4)  # the Lay off screen pages them
        elif together and not places and row3_free and not wants_meld:
            options = [
                Option(action_text(a, language)[:100], str(a)[:100]) for a in together[:MAX_OPTIONS]
            ]
            placeholder = t("hand.lay_off_together", language)
            controls.append(Select("laybatch", tuple(options), placeholder, 3))
        if wants_meld and row3_free:
            cards = sorted(set(view.hand or ()), key=Card.sort_key)[:MAX_OPTIONS]
            options = [Option(card_text(c), str(c)) for c in cards]
            controls.append(
                Select(
                    "meld",
                    tuple(options),
                    t("hand.new_meld", language),
                    3,
                    min_values=min(3, len(cards)),
                    max_values=len(cards),
                )
            )
        sort_key = "button.sort_by_rank" if sort == "s" else "button.sort_by_suit"
        button("sort", sort_key, "secondary", 4)
        button("refresh", "button.refresh", "secondary", 4)
        if not view.is_over:
            button("hint", "button.hint", "secondary", 4)
            button("opts", "button.options", "secondary", 4)
    note_text = "\n".join(notes) if notes else None
    content = hand_text(
        view, list(snap.names), sort, note=note_text, pending=pending_text, language=language
    )
    if extra:
        content += "\n\n" + "\n".join(extra)
    return HandScreen(content[:2000], tuple(controls))
