"""The public table as a PNG, from one player's view: one square shape for 2 to 8 seats.

Discord shows an embed's picture at most about 400 px wide and 300 px tall on a desktop and
about 300 px wide on a phone (issue 24), so the picture is a square (``SIZE`` pixels) drawn
to read at 300 px wide: every rank, suit, name and label is at least ``MIN_GLYPH`` (8) px tall
there. Measures below are in *phone pixels* (px at 300 px wide); ``PHONE`` converts.

Top to bottom: in the full picture a header (deal, contract; the stock, the upcard with LIVE
or DEAD, whose turn), then one row per seat: name and total score, cards in hand and buys used
of the limit, and that seat's melds as index tiles (each wild showing the identity it plays
as). The seat to move is framed in gold with a gold bar. The compact picture (the table
message's) has the rows only, each meld numbered as in the text by a badge left of it.

The rows are laid out at the largest scale (up to ``MAX_SCALE``) at which every seat's melds
fit; a table too full for the legible size shrinks to fit rather than growing (the shape
never changes); ``layout_table`` says the scale, so tests can hold it to the legible minimum.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.i18n import DEFAULT_LANGUAGE, Language, t
from bot.i18n.terms import contract_text
from engine.melds import Meld
from engine.view import PlayerView, SeatView

from ._draw import (
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
    drawable,
    encode_png,
    fit,
    font,
    size_for_cap,
    text_width,
)
from .cards import TileSize, meld_tile, tile_back

#: The picture's width and height in pixels, whatever the number of seats.
SIZE = 720
WIDTH = HEIGHT = SIZE
#: The narrowest width Discord shows the picture at (a phone), and picture pixels per phone px.
PHONE_WIDTH = 300
PHONE = SIZE / PHONE_WIDTH
#: The smallest height (phone px) of a capital, a digit, a rank or a suit at the legible scale.
MIN_GLYPH = 8.0

# Measures in phone px at scale 1.
NAME_CAP = 8.6
TEXT_CAP = 8.3
TILE_HEIGHT = 24.0
OUTER = 3.0
BAR = 3.0
INFO_WIDTH = 122.0
INFO_GAP = 4.0
ROW_PAD = 2.0
LINE_GAP = 2.0
MELD_GAP = 5.0
BADGE_GAP = 1.5
LINE_SPACING = 1.14
HEADER_HEIGHT = 42.0
#: The largest scale: two or three seats draw bigger, not emptier.
MAX_SCALE = 1.5
MIN_SCALE = 0.4

TURN_TINT: RGB = (66, 98, 52)


def px(phone: float) -> int:
    """Phone pixels as picture pixels."""
    return round(phone * PHONE)


def seat_label(seats: Sequence[SeatView], seat: int, language: Language = DEFAULT_LANGUAGE) -> str:
    """The drawable name of a seat, or ``Seat n`` when nothing of the name can be drawn."""
    if 0 <= seat < len(seats):
        name = drawable(seats[seat].player)
        if name:
            return name
    return t("picture.seat", language, number=seat + 1)


def short_name(name: str, size: int, width: float, *, bold: float = 0.0) -> str:
    """``name`` at most ``width`` pixels wide (font ``size``), still recognisable.

    Never a stump like "Comput…": the words after the first become initials from the last one
    back ("Bartholomew the Magnificent" → "Bartholomew t. M."), then they go ("Bartholomew";
    "Computer 1 (normal)" → "Computer 1 (n.)" → "Computer 1": a number after the first word
    stays, it tells computers apart); only a first word still too long is cut, keeping at
    least four letters.
    """

    def fits(text: str) -> bool:
        return text_width(text, size) + 2 * bold <= width

    if fits(name):
        return name
    words = name.split()
    for index in range(len(words) - 1, 0, -1):
        word = words[index]
        letters = [i for i, ch in enumerate(word) if ch.isalpha()]
        if len(letters) > 1:
            first = letters[0]
            words[index] = word[: first + 1] + "." + (")" if word.endswith(")") else "")
            if fits(candidate := " ".join(words)):
                return candidate
    words = words[: 1 + (len(words) > 1 and words[1].isdigit())]
    if fits(candidate := " ".join(words)):
        return candidate
    head, tail = words[0], " ".join(words[1:])
    while len(head) > 4 and not fits(" ".join(x for x in (head + "…", tail) if x)):
        head = head[:-1]
    return " ".join(x for x in (head.rstrip() + "…", tail) if x)


def name_lines(name: str, size: int, width: float, lines: int, *, bold: float = 0.0) -> list[str]:
    """``name`` wrapped at spaces into at most ``lines`` lines of ``width``; what still does
    not fit is shortened (``short_name``) on the last line."""
    words = name.split()
    out: list[str] = []
    while words and len(out) < lines - 1:
        line = words.pop(0)
        while words and text_width(f"{line} {words[0]}", size) + 2 * bold <= width:
            line = f"{line} {words.pop(0)}"
        if text_width(line, size) + 2 * bold > width:
            words.insert(0, line)  # one word too long for a line: shorten it below
            break
        out.append(line)
    if words:
        out.append(short_name(" ".join(words), size, width, bold=bold))
    return out


@dataclass(frozen=True, slots=True)
class Scale:
    """The measures of the seat rows at scale ``factor`` (1: the legible size), in pixels."""

    factor: float
    #: The width of the names and figures left of the melds, in phone px at scale 1.
    info: float = INFO_WIDTH

    def of(self, phone: float) -> float:
        return phone * PHONE * self.factor

    @property
    def name_size(self) -> int:
        return size_for_cap(self.of(NAME_CAP))

    @property
    def text_size(self) -> int:
        return size_for_cap(self.of(TEXT_CAP))

    @property
    def tile(self) -> TileSize:
        return TileSize(round(self.of(TILE_HEIGHT)))

    @property
    def info_height(self) -> float:
        return (self.name_size + self.text_size) * LINE_SPACING

    @property
    def info_left(self) -> float:
        return px(OUTER + BAR) + self.of(2)

    @property
    def melds_left(self) -> float:
        return self.info_left + self.of(self.info + INFO_GAP)

    @property
    def melds_width(self) -> float:
        return SIZE - px(OUTER) - self.melds_left


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle of the picture (left, top, right, bottom), in pixels."""

    left: float
    top: float
    right: float
    bottom: float

    def overlaps(self, other: Box) -> bool:
        return (
            self.left < other.right
            and other.left < self.right
            and self.top < other.bottom
            and other.top < self.bottom
        )


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """One card of a meld: where its tile goes and the boxes of its rank and suit."""

    x: int
    y: int
    rank: Box
    suit: Box
    last: bool


@dataclass(frozen=True, slots=True)
class PlacedMeld:
    meld: Meld
    number: int
    tiles: tuple[PlacedTile, ...]
    badge: Box | None


@dataclass(frozen=True, slots=True)
class Row:
    seat: int
    top: float
    height: float
    melds: tuple[PlacedMeld, ...]


@dataclass(frozen=True, slots=True)
class TableLayout:
    """Where everything of a table picture goes (tests measure it against the pixels)."""

    scale: Scale
    head: float
    rows: tuple[Row, ...]
    compact: bool


def _meld_width(meld: Meld, scale: Scale, compact: bool, number: int) -> float:
    tile = scale.tile
    width: float = (len(meld.cards) - 1) * tile.step + tile.width
    if compact:
        width += _badge_width(number, scale) + scale.of(BADGE_GAP)
    return width


def _badge_width(number: int, scale: Scale) -> float:
    return text_width(str(number), scale.text_size) + scale.of(5)


def _flow(
    melds: Sequence[tuple[int, Meld]], scale: Scale, compact: bool
) -> list[list[tuple[int, Meld]]]:
    """Melds in lines no wider than the meld area (a meld wider than a line gets its own)."""
    width = scale.melds_width
    lines: list[list[tuple[int, Meld]]] = [[]]
    used = 0.0
    for number, meld in melds:
        needed = _meld_width(meld, scale, compact, number)
        if lines[-1]:
            needed += scale.of(MELD_GAP)
        if lines[-1] and used + needed > width:
            lines.append([])
            used, needed = 0.0, _meld_width(meld, scale, compact, number)
        lines[-1].append((number, meld))
        used += needed
    return lines


def _row_height(lines: Sequence[Sequence[object]], scale: Scale) -> float:
    count = len([line for line in lines if line])
    melds = count * scale.tile.height + max(0, count - 1) * scale.of(LINE_GAP)
    # The lines of text carry their own leading; tiles get a padding above and below.
    return max(scale.info_height + scale.of(1), melds + 2 * scale.of(ROW_PAD))


def _widest_fits(lines: Sequence[Sequence[tuple[int, Meld]]], scale: Scale, compact: bool) -> bool:
    return all(
        len(line) != 1 or _meld_width(line[0][1], scale, compact, line[0][0]) <= scale.melds_width
        for line in lines
    )


def _stats(view: PlayerView, seat: int, language: Language) -> tuple[str, str]:
    """The second line of a seat: cards in hand, and the buys of the limit."""
    info = view.seats[seat]
    limit = "∞" if view.buy_limit is None else str(view.buy_limit)
    return str(info.hand_size), t("picture.buys", language, used=info.buys_used, limit=limit)


def _stats_width(count: str, buys: str, scale: Scale) -> float:
    """The pixels the second line needs: the card-back icon, the count and the buys."""
    size = scale.text_size
    icon = size * CAP_HEIGHT * 1.25 * 0.7
    return icon + scale.of(2) + text_width(count, size) + scale.of(6) + text_width(buys, size)


#: Narrower name columns tried, in phone px, before the rows shrink below the legible size:
#: names shorten further ("Bartholomew") so that a line holds more cards.
NARROWER_INFO = (110.0, 100.0, 90.0)


def layout_table(
    view: PlayerView, *, compact: bool = False, language: Language = DEFAULT_LANGUAGE
) -> TableLayout:
    """The rows of the picture at the largest scale that fits the square: with the widest
    name column down to the legible size, then with narrower ones (never narrower than the
    cards-and-buys line of ``language``), then smaller still."""
    head = 0.0 if compact else float(px(HEADER_HEIGHT))
    available = SIZE - head - px(OUTER)
    by_owner: dict[int, list[tuple[int, Meld]]] = {seat: [] for seat in range(len(view.seats))}
    for number, table_meld in enumerate(view.melds, start=1):
        by_owner.setdefault(table_meld.owner, []).append((number, table_meld.meld))
    stats = [_stats(view, seat, language) for seat in range(len(view.seats))]

    def attempt(
        factor: float, info: float
    ) -> tuple[Scale, dict[int, list[list[tuple[int, Meld]]]], dict[int, float], bool]:
        scale = Scale(factor, info)
        flows = {seat: _flow(melds, scale, compact) for seat, melds in by_owner.items()}
        heights = {seat: _row_height(lines, scale) for seat, lines in flows.items()}
        room = scale.of(info) - scale.of(1)
        fits = (
            sum(heights.values()) <= available
            and all(_widest_fits(lines, scale, compact) for lines in flows.values())
            and all(_stats_width(count, buys, scale) <= room for count, buys in stats)
        )
        return scale, flows, heights, fits

    def factors(low: float) -> list[float]:
        return [round(MAX_SCALE - 0.02 * i, 2) for i in range(round((MAX_SCALE - low) / 0.02) + 1)]

    plans = [(f, INFO_WIDTH) for f in factors(1.0)]
    plans += [(f, info) for f in factors(1.0) for info in NARROWER_INFO]
    plans += [(f, info) for f in factors(MIN_SCALE) if f < 1.0 for info in NARROWER_INFO]
    for factor, info in plans:
        scale, flows, heights, fits = attempt(factor, info)
        if fits:
            break
    else:
        scale, flows, heights, _ = attempt(MIN_SCALE, INFO_WIDTH)
    # Equal rows when the tallest fits that way (a tidy grid), else each row its own height.
    tallest = max(heights.values(), default=0.0)
    if tallest * len(heights) <= available:
        heights = {seat: available / max(1, len(heights)) for seat in heights}
    else:
        spare = (available - sum(heights.values())) / max(1, len(heights))
        heights = {seat: height + max(0.0, spare) for seat, height in heights.items()}
    rows: list[Row] = []
    top = head
    tile = scale.tile
    for seat, lines in flows.items():
        height = heights[seat]
        count = len([line for line in lines if line])
        block = count * tile.height + max(0, count - 1) * scale.of(LINE_GAP)
        y = top + (height - block) / 2
        placed: list[PlacedMeld] = []
        for line in lines:
            if not line:
                continue
            x = scale.melds_left
            for number, meld in line:
                badge = None
                if compact:
                    w = _badge_width(number, scale)
                    h = scale.text_size * 1.15
                    badge = Box(x, y + (tile.height - h) / 2, x + w, y + (tile.height + h) / 2)
                    x += w + scale.of(BADGE_GAP)
                tiles: list[PlacedTile] = []
                for index in range(len(meld.cards)):
                    tx, ty = round(x), round(y)
                    r, s = tile.rank_box, tile.suit_box
                    tiles.append(
                        PlacedTile(
                            tx,
                            ty,
                            Box(tx + r[0], ty + r[1], tx + r[2], ty + r[3]),
                            Box(tx + s[0], ty + s[1], tx + s[2], ty + s[3]),
                            index == len(meld.cards) - 1,
                        )
                    )
                    x += tile.step
                x += tile.width - tile.step + scale.of(MELD_GAP)
                placed.append(PlacedMeld(meld, number, tuple(tiles), badge))
            y += tile.height + scale.of(LINE_GAP)
        rows.append(Row(seat, top, height, tuple(placed)))
        top += height
    return TableLayout(scale, head, tuple(rows), compact)


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
        for card, where in zip(placed.meld.cards, placed.tiles, strict=True):
            wild = card.is_wild_in(placed.meld.kind, view.rules)
            identity = (card.rank, card.suit) if wild else None
            face = meld_tile(card.card, tile, identity=identity, four_colour=four_colour)
            image.paste(face, (where.x, where.y), face)


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
) -> None:
    """Name and total on the first line, cards in hand and buys on the second."""
    info = view.seats[row.seat]
    left = scale.info_left
    right = left + scale.of(scale.info)
    name_size, text_size = scale.name_size, scale.text_size
    name_line = name_size * LINE_SPACING
    total = str(info.total)
    total_width = text_width(total, text_size)
    weight = max(0.4, name_size / 40)
    spare_lines = int((row.height - scale.info_height - scale.of(2)) // name_line)
    names = name_lines(
        seat_label(view.seats, row.seat, language),
        name_size,
        right - left - total_width - scale.of(4),
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
    buys = _stats(view, row.seat, language)[1]
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
            _seat_info(image, draw, view, row, scale, language, mark_turn)
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
    image = Image.new("RGB", (SIZE, SIZE), FELT)
    draw = ImageDraw.Draw(image)
    if not compact:
        _header(image, draw, view, language, four_colour)
    _rows(image, draw, view, layout, language, four_colour, mark_turn)
    return encode_png(image)


__all__ = [
    "HEIGHT",
    "MIN_GLYPH",
    "PHONE",
    "PHONE_WIDTH",
    "SIZE",
    "WIDTH",
    "Box",
    "PlacedMeld",
    "PlacedTile",
    "Row",
    "TableLayout",
    "layout_table",
    "name_lines",
    "render_table",
    "seat_label",
    "short_name",
]
