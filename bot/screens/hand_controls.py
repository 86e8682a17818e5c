"""A hand screen's controls as data (``Button``, ``Select`` and its ``Option``s, the
``HandScreen`` they make up), and the plays of a seat grouped into those options: lay-offs by
card and place, go-downs besides the proposal, swaps with the freed joker's place.

Views turn these into Discord components; nothing here knows Discord. Every select is split
into pages of at most ``MAX_OPTIONS`` (Discord's limit), so no choice is ever cut off.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from bot.i18n import DEFAULT_LANGUAGE, Language, t
from bot.screens.card_words import card_text
from bot.screens.play_text import action_text, layoff_item_text
from engine.actions import Action, GoDown, LayOff, LayOffItem, SwapJoker
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
#: A relaxed table's standing buy order's limits a deal (None: the rules' own), the verb of
#: each one's button and its label's catalogue key.
BUY_LIMIT_BUTTONS = (
    (1, "lim1", "button.buy_limit_1"),
    (2, "lim2", "button.buy_limit_2"),
    (None, "lim0", "button.buy_limit_none"),
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
    """A hand message: its text (at most 2,000 characters) and its controls, in order; and
    the same words in parts, for a layout that places them apart (``HandText``)."""

    content: str
    controls: tuple[Control, ...]
    parts: HandText | None = None


@dataclass(frozen=True)
class HandText:
    """A hand screen's words by role: what the player may do now (one line), the notes about
    what just happened, the hand with its contract line, and the screen's own lines (a
    proposal, a picker's help). ``content`` is the same words as one text."""

    prompt: str
    notes: str
    hand: str
    extra: str


def chunks(options: list[Option]) -> list[list[Option]]:
    """Options in selects of at most 25 (Discord's limit), so no choice is ever cut off."""
    return [options[i : i + MAX_OPTIONS] for i in range(0, len(options), MAX_OPTIONS)]


def layoff_cards(
    legal: tuple[Action, ...], view: PlayerView | None = None
) -> dict[Card, list[LayOffItem]]:
    """Each card that can be laid off now, with every place it fits. Given the ``view``, a
    wild on a set has one place per meld (``engine.wild_suits.one_place_per_meld``) instead of
    one per suit (a joker would otherwise ask for up to 32 places, over two menus)."""
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
    per set of cards and places: the hand offers them as plays of their own."""
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
    ``anyone_then_go_down``, or going out with a lay-off in the same play; chosen on the
    Lay down screen."""
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
    """The swap and the freed joker's place in one pick first, then the plain
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
