"""A player's hand as a PNG: overlapping cards in one or two rows, sorted and grouped.

Cards overlap by ``HAND.step`` pixels so every card's index column stays visible; a small gap
separates groups (suits, or ranks); highlighted cards (the ones a proposed lay-down uses) are
raised and outlined in gold.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw

from bot.i18n import DEFAULT_LANGUAGE, Language, t
from bot.screens._draw import FELT, INK_MUTED, encode_png, font
from bot.screens.cards import HAND, card_face
from engine.cards import SUITS, Card

GroupBy = Literal["suit", "rank"]

MARGIN = 14
#: How far a highlighted card is raised.
RAISE = 20
GROUP_GAP = 8
ROW_GAP = 10
MAX_PER_ROW = 16


@dataclass(frozen=True, slots=True)
class Slot:
    """Where one card of the hand is drawn: ``index`` is its position in the caller's list."""

    index: int
    card: Card
    x: int
    y: int
    highlighted: bool


@dataclass(frozen=True, slots=True)
class HandLayout:
    width: int
    height: int
    slots: tuple[Slot, ...]


def _sort_key(card: Card, group_by: GroupBy) -> tuple[int, int]:
    if group_by == "suit":
        return card.sort_key()
    if card.is_joker:
        return (99, 0)
    assert card.suit is not None
    return (card.rank, SUITS.index(card.suit))


def _group(card: Card, group_by: GroupBy) -> object:
    if card.is_joker:
        return "joker"
    return card.suit if group_by == "suit" else card.rank


def layout_hand(
    cards: Sequence[Card], *, highlight: Collection[int] = (), group_by: GroupBy = "suit"
) -> HandLayout:
    """Where each card goes: sorted by ``group_by``, split into two rows past ``MAX_PER_ROW``.

    ``highlight`` holds positions in ``cards`` (not in the sorted order); raises ``ValueError``
    for a position outside the hand.
    """
    marked = set(highlight)
    for index in marked:
        if not 0 <= index < len(cards):
            raise ValueError(f"Cannot highlight card {index}: the hand has {len(cards)} cards")
    order = sorted(range(len(cards)), key=lambda i: (_sort_key(cards[i], group_by), i))
    if not order:
        return HandLayout(HAND.width + 2 * MARGIN + 120, HAND.height + 2 * MARGIN, ())
    rows = math.ceil(len(order) / MAX_PER_ROW)
    per_row = math.ceil(len(order) / rows)
    slots: list[Slot] = []
    width = 0
    for row in range(rows):
        row_order = order[row * per_row : (row + 1) * per_row]
        top = MARGIN + row * (RAISE + HAND.height + ROW_GAP)
        x = MARGIN
        previous: object = None
        for position, index in enumerate(row_order):
            card = cards[index]
            group = _group(card, group_by)
            if position:
                x += HAND.step + (GROUP_GAP if group != previous else 0)
            previous = group
            raised = index in marked
            slots.append(Slot(index, card, x, top + (0 if raised else RAISE), raised))
        width = max(width, x + HAND.width + MARGIN)
    height = 2 * MARGIN + rows * (RAISE + HAND.height) + (rows - 1) * ROW_GAP
    return HandLayout(width, height, tuple(slots))


def draw_hand(
    cards: Sequence[Card],
    *,
    highlight: Collection[int] = (),
    group_by: GroupBy = "suit",
    language: Language = DEFAULT_LANGUAGE,
    four_colour: bool = False,
) -> bytes:
    """The hand as PNG bytes; ``highlight`` holds positions in ``cards`` to raise and outline;
    ``four_colour`` draws clubs green and diamonds blue.

    Raises ``ValueError`` for a highlight position outside the hand.
    """
    layout = layout_hand(cards, highlight=highlight, group_by=group_by)
    image = Image.new("RGB", (layout.width, layout.height), FELT)
    if not layout.slots:
        ImageDraw.Draw(image).text(
            (layout.width / 2, layout.height / 2),
            t("picture.no_cards", language),
            fill=INK_MUTED,
            font=font(20),
            anchor="mm",
        )
    for slot in layout.slots:
        face = card_face(
            slot.card,
            HAND,
            highlight=slot.highlighted,
            language=language,
            four_colour=four_colour,
        )
        image.paste(face, (slot.x, slot.y), face)
    return encode_png(image)
