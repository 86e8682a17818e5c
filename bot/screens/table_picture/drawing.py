"""The table picture drawn: the header (deal, contract, stock, upcard, whose turn), then each
seat's row (name, total, cards in hand, buys, marks) with its melds pasted where the layout
put them.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.i18n import DEFAULT_LANGUAGE, Language, t
from bot.i18n.terms import contract_text
from bot.screens._draw import (
    BACK_BLUE,
    CAP_HEIGHT,
    CARD_BG,
    DEAD_GREY,
    FELT,
    FELT_DARK,
    FELT_LIGHT,
    GOLD,
    INK_LIGHT,
    INK_MUTED,
    LIVE_GREEN,
    RGB,
    bold_text,
    encode_png,
    fit,
    font,
    size_for_cap,
    text_width,
)
from bot.screens.card_tiles import TileSize, meld_tile, tile_back, tile_bridge
from bot.screens.table_picture.layout import layout_table, seat_stats
from bot.screens.table_picture.measures import (
    BAR,
    HEADER_HEIGHT,
    LINE_SPACING,
    NAME_CAP,
    OUTER,
    SIZE,
    TEXT_CAP,
    TILE_HEIGHT,
    TURN_TINT,
    Row,
    Scale,
    TableLayout,
    px,
)
from bot.screens.table_picture.names import (
    name_lines,
    name_room,
    name_weight,
    seat_label,
    short_name,
)
from engine.view import PlayerView


def _paste_melds(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    row: Row,
    layout: TableLayout,
    view: PlayerView,
    four_colour: bool,
) -> None:
    tile = layout.scale.tile
    for placed in row.melds:
        if placed.badge is not None:
            b = placed.badge
            draw.rounded_rectangle(
                (b.left, b.top, b.right, b.bottom), radius=(b.bottom - b.top) / 2, fill=GOLD
            )
            draw.text(
                ((b.left + b.right) / 2, (b.top + b.bottom) / 2),
                str(placed.number),
                fill=FELT_DARK,
                font=font(layout.scale.text_size),
                anchor="mm",
            )
        pieces = sorted(
            [(where.x, where.y, where.index, 0) for where in placed.tiles]
            + [(x, y, hidden, 1) for x, y, hidden in placed.bridges]
        )
        for x, y, which, is_bridge in pieces:  # left to right: each covers the one before
            if is_bridge:
                face = tile_bridge(tile, which)
            else:
                card = placed.meld.cards[which]
                wild = card.is_wild_in(placed.meld.kind, view.rules)
                identity = (card.rank, card.suit) if wild else None
                face = meld_tile(card.card, tile, identity=identity, four_colour=four_colour)
            image.paste(face, (x, y), face)


def _to_move(view: PlayerView, seat: int) -> bool:
    """Whether ``seat`` is the one to move (nobody is, between deals and after the game)."""
    return seat == view.current and view.step != "over" and not view.is_over


def _seat_info(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: PlayerView,
    row: Row,
    scale: Scale,
    language: Language,
    mark_turn: bool = True,
    show_buys: bool = True,
) -> None:
    """Name and total on the first line, cards in hand and buys on the second."""
    info = view.seats[row.seat]
    left = scale.info_left
    right = left + scale.of(scale.info)
    name_size, text_size = scale.name_size, scale.text_size
    name_line = name_size * LINE_SPACING
    total = str(info.total)
    weight = name_weight(scale)
    spare_lines = int((row.height - scale.info_height - scale.of(2)) // name_line)
    names = name_lines(
        seat_label(view.seats, row.seat, language),
        *name_room(view, row.seat, scale),
        1 + max(0, min(1, spare_lines)),
        bold=weight,
    )
    block = scale.info_height + name_line * (len(names) - 1)
    top = row.top + (row.height - block) / 2
    to_move = mark_turn and _to_move(view, row.seat)
    first = top + name_line / 2
    second = top + name_line * len(names) + text_size * LINE_SPACING / 2
    draw.text((right, first), total, fill=GOLD, font=font(text_size), anchor="rm")
    for number, name in enumerate(names):
        bold_text(
            draw,
            (left, first + number * name_line),
            name,
            name_size,
            fill=GOLD if to_move else INK_LIGHT,
            anchor="lm",
            weight=weight,
        )
    # Cards in hand: a card back with the count; then the buys.
    icon_h = text_size * CAP_HEIGHT * 1.25
    icon_w = icon_h * 0.7
    draw.rounded_rectangle(
        (left, second - icon_h / 2, left + icon_w, second + icon_h / 2),
        radius=icon_w / 5,
        fill=BACK_BLUE,
        outline=CARD_BG,
        width=max(1, round(icon_w / 8)),
    )
    x = left + icon_w + scale.of(2)
    count = str(info.hand_size)
    bold_text(
        draw, (x, second), count, text_size, fill=INK_LIGHT, anchor="lm", weight=text_size / 60
    )
    x += text_width(count, text_size) + scale.of(6)
    if show_buys:
        buys = seat_stats(view, row.seat, language)[1]
        draw.text((x, second), buys, fill=INK_MUTED, font=font(text_size), anchor="lm")
        x += text_width(buys, text_size) + scale.of(4)
    marks: list[tuple[str, RGB, RGB]] = []
    if row.seat == view.dealer:
        marks.append((t("picture.dealer", language)[:1].upper(), CARD_BG, FELT_DARK))
    if view.seat is not None and row.seat == view.seat:
        marks.append((t("picture.you", language), GOLD, FELT_DARK))
    height = text_size * 1.1
    for text, fill, ink in marks:
        width = max(height, text_width(text, text_size) + scale.of(4))
        if x + width > right:
            break
        draw.rounded_rectangle(
            (x, second - height / 2, x + width, second + height / 2), radius=height / 2, fill=fill
        )
        draw.text((x + width / 2, second), text, fill=ink, font=font(text_size), anchor="mm")
        x += width + scale.of(3)


def _rows(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: PlayerView,
    layout: TableLayout,
    language: Language,
    four_colour: bool,
    mark_turn: bool = True,
) -> None:
    scale = layout.scale
    for number, row in enumerate(layout.rows):
        box = (0, round(row.top), SIZE - 1, round(row.top + row.height) - 1)
        to_move = mark_turn and _to_move(view, row.seat)
        if to_move:
            draw.rectangle(box, fill=TURN_TINT)
            draw.rectangle(box, outline=GOLD, width=max(2, px(1.2)))
            draw.rectangle((0, box[1], px(OUTER + BAR) - 2, box[3]), fill=GOLD)
        elif number % 2 == 0:
            draw.rectangle(box, fill=FELT_LIGHT)
        if 0 <= row.seat < len(view.seats):
            _seat_info(image, draw, view, row, scale, language, mark_turn, layout.buys)
        if not row.melds:
            down = 0 <= row.seat < len(view.seats) and view.seats[row.seat].is_down
            text = t("picture.no_melds" if down else "picture.not_down", language)
            # A big scale's words may be too wide for the meld area: smaller, down to the
            # legible size, before anything is cut.
            size = scale.text_size
            while size > Scale(1.0).text_size and text_width(text, size) > scale.melds_width:
                size -= 1
            draw.text(
                (scale.melds_left, row.top + row.height / 2),
                fit(text, size, scale.melds_width),
                fill=INK_MUTED,
                font=font(size),
                anchor="lm",
            )
        _paste_melds(image, draw, row, layout, view, four_colour)


def _header(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: PlayerView,
    language: Language,
    four_colour: bool,
) -> None:
    """Two lines: the deal and its contract; the stock, the upcard and whose turn it is."""
    name_size, text_size = size_for_cap(px(NAME_CAP)), size_for_cap(px(TEXT_CAP))
    band = px(18)
    draw.rectangle((0, 0, SIZE, band), fill=FELT_DARK)
    draw.rectangle((0, band, SIZE, px(HEADER_HEIGHT)), fill=FELT_DARK)
    if view.rules.game == "rummy":
        title = t("picture.rummy_hand", language, deal=view.deal)
        contract = ""
    else:
        title = t("picture.deal_of", language, deal=view.deal, deals=view.rules.num_deals)
        contract = contract_text(view.contract, language)
    left = px(OUTER + 2)
    bold_text(draw, (left, band / 2), title, name_size, fill=INK_LIGHT, anchor="lm", weight=0.8)
    x = left + text_width(title, name_size) + px(6)
    if contract:
        contract = fit(contract, text_size, SIZE - x - left)
        draw.text((x, band / 2), contract, fill=GOLD, font=font(text_size), anchor="lm")

    tile = TileSize(px(TILE_HEIGHT))
    top = band + (px(HEADER_HEIGHT) - band - tile.height) // 2
    middle = top + tile.height / 2
    x = left
    if view.stock_size:
        back = tile_back(tile)
        image.paste(back, (x, top), back)
    else:
        draw.rounded_rectangle(
            (x, top, x + tile.width, top + tile.height), radius=px(3), outline=INK_MUTED, width=2
        )
    x += tile.width + px(3)
    stock = str(view.stock_size)
    bold_text(draw, (x, middle), stock, name_size, fill=INK_LIGHT, anchor="lm", weight=0.8)
    x = round(x + text_width(stock, name_size) + px(10))
    if view.upcard is None:
        draw.rounded_rectangle(
            (x, top, x + tile.width, top + tile.height), radius=px(3), outline=INK_MUTED, width=2
        )
        x += tile.width + px(3)
        none = t("picture.none", language)
        draw.text((x, middle), none, fill=INK_MUTED, font=font(text_size), anchor="lm")
        x = round(x + text_width(none, text_size) + px(8))
    else:
        face = meld_tile(view.upcard, tile, four_colour=four_colour)
        image.paste(face, (x, top), face)
        x += tile.width + px(3)
        live = view.upcard_live
        word = t("picture.live" if live else "picture.dead", language)
        width = text_width(word, text_size) + px(7)
        height = text_size * 1.2
        draw.rounded_rectangle(
            (x, middle - height / 2, x + width, middle + height / 2),
            radius=height / 2,
            fill=LIVE_GREEN if live else DEAD_GREY,
        )
        draw.text((x + width / 2, middle), word, fill=INK_LIGHT, font=font(text_size), anchor="mm")
        x += width + px(8)
    right = SIZE - px(OUTER + 2)
    room = right - x
    if view.is_over:
        status = t("picture.game_over", language)
    elif view.step == "over":
        status = t("picture.deal_over", language)
    else:
        key = f"picture.to_{view.step}"
        name = seat_label(view.seats, view.current, language)
        status = t(key, language, name=name)
        if text_width(status, text_size) > room:  # the name gives way, never the verb
            other = text_width(t(key, language, name=""), text_size)
            short = short_name(name, text_size, room - other)
            # A cut name would be a stump: leave the status out (the gold frame says it).
            status = "" if "…" in short else t(key, language, name=short)
    if status and text_width(status, text_size) <= room:
        draw.text((right, middle), status, fill=INK_MUTED, font=font(text_size), anchor="rm")


def render_table(
    view: PlayerView,
    *,
    compact: bool = False,
    language: Language = DEFAULT_LANGUAGE,
    four_colour: bool = False,
    mark_turn: bool = True,
) -> bytes:
    """The table as PNG bytes in ``language``, ``SIZE`` pixels square: header, piles, and every
    seat with its melds; ``compact``: only the seats and their melds, each meld numbered as in
    the text; ``four_colour``: clubs green and diamonds blue. The seat to move is framed in
    gold in both; ``mark_turn=False`` leaves it out, so that a compact picture stays the same
    bytes across turns that change no seat or meld (and need not be uploaded again)."""
    layout = layout_table(view, compact=compact, language=language)
    image = Image.new("RGB", (SIZE, layout.height), FELT)
    draw = ImageDraw.Draw(image)
    if not compact:
        _header(image, draw, view, language, four_colour)
    _rows(image, draw, view, layout, language, four_colour, mark_turn)
    return encode_png(image)
