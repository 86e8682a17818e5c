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
from bot.screens.hand_text import deal_recap_text, go_down_lines
from bot.screens.table_story import table_story
from bot.screens.text import (
    SortMode,
    action_text,
    card_text,
    cards_text,
    countdown,
    hand_text,
    layoff_item_text,
    meld_text,
)
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
        action.items[0] for action in legal if isinstance(action, LayOff) and len(action.items) == 1
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
    does it go?) or the first place of lay-offs allowed only together (what goes with it?).
    A screen with nothing to offer (no lay-down, lay-off or swap any more) falls back to the
    main screen with a note saying why."""
    view = snap.view
    pending_text = None
    if snap.pending:
        pending_text = t("hand.pending", language, countdown=countdown(snap.buy_deadline))
    screen = _Screen(snap, language)
    story = table_story(view, snap.names, language)  # issue 23.4: the table since your turn
    screen.notes = [n for n in (story, note, *snap.notes) if n]
    if mode == "down":
        shown = screen.down()
    elif mode == "layoff":
        shown = screen.layoff(picked)
    elif mode == "swap":
        shown = screen.swap()
    else:
        shown = mode == "main" or screen.options()
    if snap.deal_end is not None:  # the deal just ended: the moment comes first
        screen.notes = [deal_recap_text(snap.deal_end, snap.names, language), *screen.notes]
    if snap.removed:  # nothing left to click: the bot plays the seat for good
        screen.notes.append(t("hand.seat_played_by_bot", language))
    if (mode == "main" or not shown) and not snap.removed:
        screen.main(sort)
    notes = screen.notes
    note_text = "\n".join(notes) if notes else None
    content = hand_text(
        view, list(snap.names), sort, note=note_text, pending=pending_text, language=language
    )
    if screen.extra:
        content += "\n\n" + "\n".join(screen.extra)
    return HandScreen(content[:2000], tuple(screen.controls))


class _Screen:
    """One hand message being worded: its controls in order, the notes above the hand and
    the lines below it. Each screen (the main one, Lay down, Lay off, Swap, Options) is a
    method; a screen that has nothing to offer adds a note and returns False."""

    def __init__(self, snap: SeatSnapshot, language: Language) -> None:
        self.snap = snap
        self.language = language
        self.controls: list[Control] = []
        self.notes: list[str] = []
        self.extra: list[str] = []

    def t(self, key: str, **params: Any) -> str:
        return t(key, self.language, **params)

    def button(self, verb: str, key: str, style: Style, row: int, **params: Any) -> None:
        self.controls.append(Button(verb, self.t(key, **params), style, row))

    def selects(
        self,
        verb: str,
        options: list[Option],
        placeholder: str,
        first_row: int,
        *,
        arg: str = "",
        many: bool = False,
        last_row: int = 4,
    ) -> None:
        """``options`` in pages of one select a row; a select fills its row, so pages stop
        before a row the screen's buttons hold."""
        for page, part in enumerate(chunks(options)[: last_row + 1 - first_row]):
            more = self.t("hand.more", placeholder=placeholder)
            self.controls.append(
                Select(
                    verb,
                    tuple(part),
                    placeholder if page == 0 else more,
                    first_row + page,
                    arg=f"{arg}{page}" if arg or page else "",
                    max_values=len(part) if many else 1,
                )
            )

    def discard_options(self, cards: tuple[Card, ...] | list[Card], prefix: str) -> list[Option]:
        return [
            Option(self.t("hand.discard_option", card=card_text(c)), f"{prefix}{c}") for c in cards
        ]

    # -- the screens behind a button ----------------------------------------------------------

    def down(self) -> bool:
        legal, view, language = self.snap.legal, self.snap.view, self.language
        proposal = next((a for a in legal if isinstance(a, GoDown)), None)
        if proposal is None:
            self.notes.append(self.t("hand.cannot_meet_contract"))
            return False
        self.extra.append(self.t("hand.lay_down_these"))
        lines, left = go_down_lines(proposal, view, language)
        self.extra.extend(lines)
        left_cards = cards_text(sorted(left.elements(), key=Card.sort_key))
        self.extra.append(self.t("hand.left_in_hand", cards=left_cards))
        self.button("downok", "button.confirm_down", "success", 0)
        self.button("downedit", "button.own_melds", "secondary", 0)
        self.button("back", "button.back", "secondary", 0)
        others = other_go_downs(legal)
        if others:  # with a joker swapped in, or going out: plays of their own (29.1)
            options = [Option(go_down_text(a, language), go_down_key(a)) for a in others]
            self.selects("downpick", options, self.t("hand.other_go_downs"), 1)
        return True

    def layoff(self, picked: Card | LayOffItem | None) -> bool:
        legal, language = self.snap.legal, self.language
        places = layoff_cards(legal, self.snap.view)
        together = lay_offs_together(legal)
        if not places and together:  # more than the main screen's one select holds
            first = picked if isinstance(picked, LayOffItem) else None
            starting = [a for a in together if first is None or a.items[0] == first]
            if len(starting) <= 4 * MAX_OPTIONS:
                options = [Option(action_text(a, language)[:100], str(a)[:100]) for a in starting]
                placeholder = self.t("hand.lay_off_together")
                self.selects("laybatch", options, placeholder, 0, last_row=3)
            else:  # two wilds on a dozen melds are hundreds of pairs: the first place first
                firsts = list(dict.fromkeys(a.items[0] for a in together))
                options = [Option(layoff_item_text(i, language)[:100], str(i)) for i in firsts]
                self.selects("laystart", options, self.t("hand.lay_off_first"), 0, last_row=3)
            self.button("back", "button.back", "secondary", 4)
        elif not places:
            self.notes.append(self.t("hand.nothing_to_lay_off"))
            return False
        elif isinstance(picked, Card) and picked in places:
            self.extra.append(self.t("hand.where_goes", card=card_text(picked)))
            options = [
                Option(layoff_item_text(item, language)[:100], str(item)) for item in places[picked]
            ]
            placeholder = self.t("hand.lay_off_on", card=card_text(picked))
            self.selects("place", options, placeholder, 0, arg="p", last_row=3)
            self.button("layoff", "button.back_to_cards", "secondary", 4)
        else:
            self.extra.append(self.t("hand.lay_off_help"))
            options = layoff_options(places, language)
            placeholder = self.t("hand.cards_to_lay_off")
            self.selects("layoff", options, placeholder, 0, many=True, last_row=3)
            self.button("back", "button.back", "secondary", 4)
        return True

    def swap(self) -> bool:
        if not any(isinstance(a, SwapJoker) for a in self.snap.legal):
            self.notes.append(self.t("hand.nothing_to_swap"))
            return False
        options = swap_options(self.snap, self.language)
        self.selects("swap", options, self.t("hand.choose_swap"), 0, last_row=3)
        self.button("back", "button.back", "secondary", 4)
        return True

    def options(self) -> bool:
        """The seat's own settings, and leaving the game: out of the turn's rows, so a hurried
        click never ends anyone's game (issue 23.5)."""
        self.extra.append(self.t("hand.options_help"))
        for pref, verb, key in BUY_PREF_BUTTONS:
            chosen = self.snap.buy_pref == pref
            self.button(verb, key, "success" if chosen else "secondary", 0)
        self.button("leave", "button.leave_game", "danger", 1)
        self.button("back", "button.back", "secondary", 1)
        return True

    # -- the main screen: everything a turn needs, so most turns take two picks ------------

    def main(self, sort: SortMode) -> None:
        snap, view, legal = self.snap, self.snap.view, self.snap.legal
        if not snap.pending:
            self.draw_step()
        if snap.buy_offer is not None and view.upcard is not None:
            # Off turn, the upcard's window is decided here: the table message needn't change.
            upcard = card_text(view.upcard)
            self.button("buy", "button.buy", "success", 0, card=upcard)
            self.button("pass", "button.pass", "secondary", 0)
        if snap.buy_requested:
            self.button("unbuy", "buy.take_back", "secondary", 0)
        proposal = next((a for a in legal if isinstance(a, GoDown)), None)
        if proposal is not None:
            self.extra.append(self.t("hand.can_lay_down"))
            self.extra.extend(go_down_lines(proposal, view, self.language)[0])
            self.button("downok", "button.lay_down_these", "success", 1)
            self.button("downedit", "button.own_melds", "secondary", 1)
            if other_go_downs(legal):
                self.button("down", "button.more_go_downs", "secondary", 1)
        batch = snap.shortcuts.lay_off_all
        finished = self.finish()
        if batch is not None and len(batch.items) >= 2:
            self.button("layall", "button.lay_all", "success", 1, count=len(batch.items))
        if any(isinstance(a, SwapJoker) for a in legal):
            swapping = swap_options(snap, self.language)
            if not finished and len(swapping) <= MAX_OPTIONS:
                # Row 0 is free: the swaps (each with its joker's place) in one pick there.
                placeholder = self.t("hand.choose_swap")
                self.controls.append(Select("swap", tuple(swapping), placeholder, 0))
            else:
                self.button("swap", "button.swap_joker", "secondary", 1)
        discards = sorted({a.card for a in legal if isinstance(a, Discard)}, key=Card.sort_key)
        if discards:
            options = self.discard_options(discards, "")
            self.selects("discard", options, self.t("hand.discard"), 2)
        self.row_three(row3_free=len(discards) <= MAX_OPTIONS)
        sort_key = "button.sort_by_rank" if sort == "s" else "button.sort_by_suit"
        self.button("sort", sort_key, "secondary", 4)
        self.button("refresh", "button.refresh", "secondary", 4)
        if not view.is_over:
            self.button("hint", "button.hint", "secondary", 4)
            self.button("opts", "button.options", "secondary", 4)

    def draw_step(self) -> None:
        """Draw, take, buy in turn; and take-then-discard in the discard's row, which the
        draw step leaves free."""
        legal, view = self.snap.legal, self.snap.view
        if any(isinstance(a, DrawStock) for a in legal):
            self.button("draw", "button.draw_stock", "primary", 0)
        if any(isinstance(a, TakeUpcard) for a in legal):
            if view.upcard:
                self.button("take", "button.take", "primary", 0, card=card_text(view.upcard))
            else:
                self.button("take", "button.take_upcard", "primary", 0)
        if any(isinstance(a, BuyInTurn) for a in legal):
            self.button("buyin", "button.buy_in_turn", "success", 0)
        took = self.snap.shortcuts.take_then_discard
        if took and view.upcard is not None and len(took) <= MAX_OPTIONS:
            placeholder = self.t("hand.take_then_discard", card=card_text(view.upcard))
            options = self.discard_options(took, "")
            self.controls.append(Select("takethrow", tuple(options), placeholder, 2))

    def finish(self) -> bool:
        """The turn's last plays in one pick (lay down or lay off all, or Rummy's new melds,
        then discard), in row 0, which the play step leaves free (issue 23.3)."""
        cuts = self.snap.shortcuts
        if cuts.down_lay_all_then_discard and cuts.down_lay_all is not None:
            cards, prefix = cuts.down_lay_all_then_discard, "b"
            count = len(cuts.down_lay_all.items)
            placeholder = self.t("hand.down_lay_all_then_discard", count=count)
        elif cuts.down_then_discard:
            cards, prefix = cuts.down_then_discard, "d"
            placeholder = self.t("hand.down_then_discard")
        elif cuts.melds_then_discard:  # Rummy: the new melds, then the discard
            cards, prefix = cuts.melds_then_discard, "m"
            melds = " + ".join(meld_text(m, self.language) for m in cuts.new_melds)
            placeholder = self.t("hand.melds_then_discard", melds=melds)[:150]
        elif cuts.lay_all_then_discard and cuts.lay_off_all is not None:
            cards, prefix = cuts.lay_all_then_discard, "a"
            items = cuts.lay_off_all.items
            if len(items) == 1:
                one = layoff_item_text(items[0], self.language)
                placeholder = self.t("hand.lay_one_then_discard", item=one)
            else:
                placeholder = self.t("hand.lay_all_then_discard", count=len(items))
        else:
            return False
        if len(cards) > MAX_OPTIONS:
            return False  # a huge hand keeps the plain controls: no choice may be cut off
        options = self.discard_options(cards, f"{prefix}:")
        self.controls.append(Select("finish", tuple(options), placeholder, 0))
        return True

    def row_three(self, *, row3_free: bool) -> None:
        """Row 3: the lay-off select (or, off its room, a Lay off button), lay-offs allowed
        only together, or Rummy's new meld."""
        legal, view, language = self.snap.legal, self.snap.view, self.language
        places = layoff_cards(legal, view)
        rummy_turn = view.rules.game == "rummy" and view.current == view.seat
        wants_meld = rummy_turn and view.step == "play" and len(view.hand or ()) >= 3
        if places and row3_free and not wants_meld and len(places) <= MAX_OPTIONS:
            lay_offs = layoff_options(places, language)
            placeholder = self.t("hand.lay_off_pick")
            self.controls.append(
                Select("layoff", tuple(lay_offs), placeholder, 3, max_values=len(lay_offs))
            )
        elif places:
            self.button("layoff", "button.lay_off", "secondary", 4)
        together = lay_offs_together(legal)
        if together and not places and not wants_meld:
            if not row3_free or len(together) > MAX_OPTIONS:
                self.button("layoff", "button.lay_off", "secondary", 4)  # its screen pages them
            else:
                options = [Option(action_text(a, language)[:100], str(a)[:100]) for a in together]
                placeholder = self.t("hand.lay_off_together")
                self.controls.append(Select("laybatch", tuple(options), placeholder, 3))
        if wants_meld and row3_free:
            cards = sorted(set(view.hand or ()), key=Card.sort_key)[:MAX_OPTIONS]
            options = [Option(card_text(c), str(c)) for c in cards]
            self.controls.append(
                Select(
                    "meld",
                    tuple(options),
                    self.t("hand.new_meld"),
                    3,
                    min_values=min(3, len(cards)),
                    max_values=len(cards),
                )
            )
