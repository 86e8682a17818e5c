"""The public table as a PNG, from one player's view.

Top to bottom: a header (deal number, contract, whose turn), the piles (stock with its count,
the upcard with LIVE or DEAD), then one row per seat: name, cards in hand, buys used of the
limit, down or not, total score, and that seat's melds (each wild tagged with its identity).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.i18n import DEFAULT_LANGUAGE, Language, t
from bot.i18n.terms import contract_text
from engine.melds import Meld
from engine.view import PlayerView, SeatView

from ._draw import (
    DEAD_GREY,
    DOWN_BLUE,
    FELT,
    FELT_DARK,
    FELT_LIGHT,
    GOLD,
    INK_LIGHT,
    INK_MUTED,
    LIVE_GREEN,
    badge_width,
    bold_text,
    drawable,
    encode_png,
    fit,
    font,
    pill,
    text_width,
)
from .cards import TABLE, card_back, card_face

WIDTH = 1040
MARGIN = 16
HEADER_HEIGHT = 58
PILES_HEIGHT = TABLE.height + 36
PANEL_WIDTH = 260
ROW_PADDING = 10
ROW_MIN_HEIGHT = 86
MELD_GAP = 16
LINE_GAP = 8


def seat_label(seats: Sequence[SeatView], seat: int, language: Language = DEFAULT_LANGUAGE) -> str:
    """The drawable name of a seat, or ``Seat n`` when nothing of the name can be drawn."""
    if 0 <= seat < len(seats):
        name = drawable(seats[seat].player)
        if name:
            return name
    return t("picture.seat", language, number=seat + 1)


def meld_width(meld: Meld) -> int:
    return (len(meld.cards) - 1) * TABLE.step + TABLE.width


def _flow(melds: Sequence[Meld], width: int) -> list[list[Meld]]:
    """Melds in lines no wider than ``width`` (a meld wider than a line gets its own line)."""
    lines: list[list[Meld]] = [[]]
    used = 0
    for meld in melds:
        needed = meld_width(meld) + (MELD_GAP if lines[-1] else 0)
        if lines[-1] and used + needed > width:
            lines.append([])
            used, needed = 0, meld_width(meld)
        lines[-1].append(meld)
        used += needed
    return lines


def _paste_meld(
    image: Image.Image, meld: Meld, x: int, y: int, view: PlayerView, language: Language
) -> None:
    for placed in meld.cards:
        identity = (placed.rank, placed.suit) if placed.is_wild_in(meld.kind, view.rules) else None
        face = card_face(placed.card, TABLE, identity=identity, language=language)
        image.paste(face, (x, y), face)
        x += TABLE.step


def _header(draw: ImageDraw.ImageDraw, view: PlayerView, language: Language) -> None:
    draw.rectangle((0, 0, WIDTH, HEADER_HEIGHT), fill=FELT_DARK)
    title = t("picture.deal_of", language, deal=view.deal, deals=view.rules.num_deals)
    bold_text(draw, (MARGIN, HEADER_HEIGHT / 2), title, 26, fill=INK_LIGHT, anchor="lm", weight=0.6)
    x = MARGIN + text_width(title, 26) + 22
    contract = contract_text(view.contract, language)
    draw.text((x, HEADER_HEIGHT / 2), contract, fill=GOLD, font=font(21), anchor="lm")
    if view.is_over:
        status = t("picture.game_over", language)
    elif view.step == "over":
        status = t("picture.deal_over", language)
    else:
        name = seat_label(view.seats, view.current, language)
        status = t(f"picture.to_{view.step}", language, name=name)
    status = fit(status, 18, WIDTH - x - text_width(contract, 21) - 40 - MARGIN)
    draw.text(
        (WIDTH - MARGIN, HEADER_HEIGHT / 2), status, fill=INK_MUTED, font=font(18), anchor="rm"
    )


def _piles(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: PlayerView, language: Language
) -> None:
    top = HEADER_HEIGHT + 18
    x = MARGIN + 4
    back = card_back(TABLE)
    layers = min(3, max(1, view.stock_size // 20 + 1)) if view.stock_size else 0
    for layer in range(layers):
        image.paste(back, (x + 2 * layer, top - 2 * layer), back)
    if not layers:
        _empty_slot(draw, x, top)
    label_x = x + TABLE.width + 14
    stock = t("picture.stock", language)
    draw.text((label_x, top + 8), stock, fill=INK_MUTED, font=font(17), anchor="lt")
    draw.text((label_x, top + 32), f"{view.stock_size}", fill=INK_LIGHT, font=font(30), anchor="lt")
    cards = t("picture.cards", language, count=view.stock_size)
    draw.text((label_x, top + 64), cards, fill=INK_MUTED, font=font(15), anchor="lt")

    x = label_x + 110
    if view.upcard is None:
        _empty_slot(draw, x, top)
    else:
        face = card_face(view.upcard, TABLE, language=language)
        image.paste(face, (x, top), face)
    label_x = x + TABLE.width + 14
    upcard = t("picture.upcard", language)
    draw.text((label_x, top + 8), upcard, fill=INK_MUTED, font=font(17), anchor="lt")
    if view.upcard is not None:
        live = view.upcard_live
        text = t("picture.live" if live else "picture.dead", language)
        pill(
            draw,
            (label_x, top + 32, label_x + badge_width(text, 17) + 6, top + 58),
            LIVE_GREEN if live else DEAD_GREY,
            text,
            17,
        )
    else:
        none = t("picture.none", language)
        draw.text((label_x, top + 34), none, fill=INK_LIGHT, font=font(19), anchor="lt")
    if view.discarder is not None and view.upcard is not None:
        draw.text(
            (label_x, top + 66),
            t("picture.from", language, name=seat_label(view.seats, view.discarder, language)),
            fill=INK_MUTED,
            font=font(15),
            anchor="lt",
        )


def _empty_slot(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    draw.rounded_rectangle(
        (x, y, x + TABLE.width, y + TABLE.height), radius=5, outline=INK_MUTED, width=2
    )


def _seat_panel(
    draw: ImageDraw.ImageDraw,
    view: PlayerView,
    seat: int,
    top: int,
    height: int,
    *,
    panel: int = PANEL_WIDTH,
    turn_marker: bool = True,
    language: Language = DEFAULT_LANGUAGE,
) -> None:
    info = view.seats[seat]
    x = MARGIN
    if turn_marker and seat == view.current and view.step != "over":
        draw.rectangle((0, top, 6, top + height), fill=GOLD)
    name_x = x + 4
    badges: list[tuple[str, tuple[int, int, int]]] = []
    if seat == view.dealer:
        badges.append((t("picture.dealer", language), DEAD_GREY))
    if view.seat is not None and seat == view.seat:
        badges.append((t("picture.you", language), GOLD))
    badge_space = sum(badge_width(text, 13) + 6 for text, _ in badges)
    name = fit(seat_label(view.seats, seat, language), 20, panel - 20 - badge_space)
    bold_text(draw, (name_x, top + 12), name, 20, fill=INK_LIGHT, anchor="lt", weight=0.4)
    bx = name_x + text_width(name, 20) + 8
    for text, colour in badges:
        w = badge_width(text, 13)
        pill(
            draw,
            (bx, top + 13, bx + w, top + 31),
            colour,
            text,
            13,
            ink=FELT_DARK if colour == GOLD else INK_LIGHT,
        )
        bx += w + 6
    limit = t("picture.no_limit", language) if view.buy_limit is None else f"{view.buy_limit}"
    stats = t(
        "picture.seat_stats", language, count=info.hand_size, used=info.buys_used, limit=limit
    )
    draw.text((name_x, top + 40), stats, fill=INK_MUTED, font=font(16), anchor="lt")
    down = t("picture.down" if info.is_down else "picture.not_down", language)
    w = badge_width(down, 14)
    pill(
        draw,
        (name_x, top + 62, name_x + w, top + 82),
        DOWN_BLUE if info.is_down else FELT_DARK,
        down,
        14,
        ink=INK_LIGHT if info.is_down else INK_MUTED,
    )
    draw.text(
        (name_x + panel - 28, top + 72),
        t("picture.points", language, total=info.total),
        fill=INK_LIGHT,
        font=font(18),
        anchor="rm",
    )


#: The compact picture for the table message's embed: narrow enough to read at Discord's
#: embed width (about 400 px), without what changes every turn (whose turn, the piles: the
#: embed's text says those), so it is uploaded again only when seats or melds change.
COMPACT_WIDTH = 560
COMPACT_PANEL = 190


def render_table(
    view: PlayerView, *, compact: bool = False, language: Language = DEFAULT_LANGUAGE
) -> bytes:
    """The table as PNG bytes in ``language``: header, piles, and every seat with its melds;
    ``compact``: only the seats and their melds, each meld numbered as in the text."""
    width = COMPACT_WIDTH if compact else WIDTH
    panel = COMPACT_PANEL if compact else PANEL_WIDTH
    area = width - panel - 2 * MARGIN
    numbers = {id(table_meld.meld): i + 1 for i, table_meld in enumerate(view.melds)}
    by_owner: dict[int, list[Meld]] = {seat: [] for seat in range(len(view.seats))}
    for table_meld in view.melds:
        by_owner.setdefault(table_meld.owner, []).append(table_meld.meld)
    rows: list[tuple[int, list[list[Meld]], int]] = []
    for seat, melds in by_owner.items():
        lines = _flow(melds, area) if melds else []
        meld_height = len(lines) * TABLE.height + max(0, len(lines) - 1) * LINE_GAP
        rows.append((seat, lines, max(ROW_MIN_HEIGHT, meld_height + 2 * ROW_PADDING)))
    head = 0 if compact else HEADER_HEIGHT + PILES_HEIGHT
    height = head + sum(h for _, _, h in rows) + MARGIN
    image = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    if not compact:
        _header(draw, view, language)
        _piles(image, draw, view, language)

    top = head
    for number, (seat, lines, row_height) in enumerate(rows):
        if number % 2 == 0:
            draw.rectangle((0, top, width, top + row_height - 1), fill=FELT_LIGHT)
        if 0 <= seat < len(view.seats):
            _seat_panel(
                draw,
                view,
                seat,
                top,
                row_height,
                panel=panel,
                turn_marker=not compact,
                language=language,
            )
        else:
            label = t("picture.seat", language, number=seat + 1)
            draw.text((MARGIN + 4, top + 12), label, fill=INK_LIGHT, font=font(20))
        left = MARGIN + panel
        if not lines:
            no_melds = t("picture.no_melds", language)
            draw.text(
                (left, top + row_height / 2), no_melds, fill=INK_MUTED, font=font(16), anchor="lm"
            )
        y = top + (row_height - len(lines) * TABLE.height - (len(lines) - 1) * LINE_GAP) // 2
        for line in lines:
            x = left
            for meld in line:
                _paste_meld(image, meld, x, y, view, language)
                if compact and id(meld) in numbers:
                    label = f"#{numbers[id(meld)]}"
                    w = badge_width(label, 14)
                    pill(draw, (x - 4, y - 8, x - 4 + w, y + 12), GOLD, label, 14, ink=FELT_DARK)
                x += meld_width(meld) + MELD_GAP
            y += TABLE.height + LINE_GAP
        top += row_height
    return encode_png(image)
