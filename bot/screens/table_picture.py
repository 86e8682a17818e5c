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
fit. A table too full for every card at the legible size (8 seats down in deals 7-10, laid
off on: up to 32 melds and 168 cards) keeps that size and the shape, and *summarises* melds
instead, as few as it must: a run shows its ends and its wilds, a bridge of card edges
standing for the naturals between ("3♥ ▮ 9♥"), then its ends only; a set its first natural,
a bridge and its wilds, then the natural and the bridge. Whatever a player acts on stays: a
run's ends, a set's rank, and the wilds as long as there is room (the text lists every
card). Only a table past every summary, more melds than a contract lays, still shrinks;
``layout_table`` says the scale, so tests can hold it to the legible minimum.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache, partial

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
    drawable,
    encode_png,
    fit,
    font,
    size_for_cap,
    text_width,
)
from bot.screens.cards import TileSize, meld_tile, tile_back, tile_bridge
from engine.melds import Meld
from engine.rules import Rules
from engine.view import PlayerView, SeatView

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
#: A summarised compact picture's melds need less: each one's number badge sets it apart.
COMPACT_MELD_GAP = 3.5
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
    #: Summarised melds sit closer, their badges tighter around their numbers.
    tight: bool = False

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
    """One card of a meld: where its tile goes and the boxes of its rank and suit;
    ``index``: which card of the meld it shows."""

    x: int
    y: int
    rank: Box
    suit: Box
    last: bool
    index: int = 0


@dataclass(frozen=True, slots=True)
class PlacedMeld:
    """A meld as drawn: its tiles, its number badge (compact), and when it is summarised the
    bridges standing for the cards left out, each as (x, y, cards it stands for)."""

    meld: Meld
    number: int
    tiles: tuple[PlacedTile, ...]
    badge: Box | None
    bridges: tuple[tuple[int, int, int], ...] = ()

    @property
    def summarised(self) -> bool:
        return len(self.tiles) < len(self.meld.cards)


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
    #: Whether each seat's buys are drawn: only the widest seat lines on the fullest tables
    #: leave them to the text.
    buys: bool = True


#: How much of a meld is drawn: every card; its ends and its wilds, a bridge of card edges
#: standing for each stretch of naturals left out (a set: its first natural, the bridge, its
#: wilds); its ends only (a set: its first natural and the bridge). A crowded table summarises
#: its melds, the widest saving first, rather than shrinking its cards below the legible size
#: (issue 24).
FULL, WILDS, ENDS = 0, 1, 2

#: A meld's pieces left to right: a card's index in the meld (>= 0) drawn as a tile, or
#: ``-n``, a bridge standing for ``n`` cards left out (last of a set: the stack behind it).
Pieces = tuple[int, ...]


def _pieces(meld: Meld, mode: int, rules: Rules) -> Pieces:
    """The pieces of ``meld`` drawn in ``mode``: ranks and suits stay whole, fewer cards show.

    What a player acts on survives every mode: a run's ends (where cards go) and, but in
    ``ENDS``, every wild with the identity it plays as (what may be swapped); a set's rank.
    A single card between two shown ones stays: a bridge would save almost nothing."""
    count = len(meld.cards)
    if mode == FULL or count <= 2:
        return tuple(range(count))
    wilds = {i for i, card in enumerate(meld.cards) if card.is_wild_in(meld.kind, rules)}
    kept = wilds if mode == WILDS else set()
    if meld.kind == "set":
        # Its first natural, the other naturals (the stretch left out), then its wilds.
        naturals = [i for i in range(count) if i not in wilds]
        order = naturals + sorted(wilds)
        kept |= {order[0]}
    else:
        order = list(range(count))
        kept |= {0, count - 1}
    pieces: list[int] = []
    hidden: list[int] = []
    for index in [*order, None]:
        if index is not None and index not in kept:
            hidden.append(index)
            continue
        if len(hidden) == 1:
            pieces.append(hidden[0])
        elif hidden:
            pieces.append(-len(hidden))
        hidden = []
        if index is not None:
            pieces.append(index)
    return tuple(pieces)


@lru_cache(maxsize=4096)
def _shape(pieces: Pieces) -> tuple[int, int, bool]:
    """(tiles, bridges) before the last piece, and whether that last piece is a tile."""
    bridges = sum(1 for piece in pieces[:-1] if piece < 0)
    return len(pieces) - 1 - bridges, bridges, pieces[-1] >= 0


@lru_cache(maxsize=16384)
def _meld_width(pieces: Pieces, scale: Scale, compact: bool, number: int) -> float:
    """The pixels a meld drawn as ``pieces`` takes (cached: layouts try many scales)."""
    tile = scale.tile
    tiles, bridges, last_tile = _shape(pieces)
    width: float = (tile.width if last_tile else tile.bridge_width) + (
        tiles * tile.step + bridges * tile.bridge_step
    )
    if compact:
        width += _badge_width(number, scale) + scale.of(BADGE_GAP)
    return width


def _meld_gap(scale: Scale, compact: bool) -> float:
    return scale.of(COMPACT_MELD_GAP if compact and scale.tight else MELD_GAP)


def _badge_width(number: int, scale: Scale) -> float:
    return text_width(str(number), scale.text_size) + scale.of(4 if scale.tight else 5)


#: One seat's melds as (number, meld, pieces drawn).
Shown = tuple[int, Meld, Pieces]


def _flow(melds: Sequence[Shown], scale: Scale, compact: bool) -> list[list[Shown]]:
    """Melds in lines no wider than the meld area (a meld wider than a line gets its own)."""
    width = scale.melds_width
    lines: list[list[Shown]] = [[]]
    used = 0.0
    for shown in melds:
        number, _, pieces = shown
        needed = _meld_width(pieces, scale, compact, number)
        if lines[-1]:
            needed += _meld_gap(scale, compact)
        if lines[-1] and used + needed > width:
            lines.append([])
            used, needed = 0.0, _meld_width(pieces, scale, compact, number)
        lines[-1].append(shown)
        used += needed
    return lines


def _row_height(lines: Sequence[Sequence[object]], scale: Scale) -> float:
    count = len([line for line in lines if line])
    melds = count * scale.tile.height + max(0, count - 1) * scale.of(LINE_GAP)
    # The lines of text carry their own leading; tiles get a padding above and below.
    return max(scale.info_height + scale.of(1), melds + 2 * scale.of(ROW_PAD))


def _widest_fits(lines: Sequence[Sequence[Shown]], scale: Scale, compact: bool) -> bool:
    return all(
        len(line) != 1 or _meld_width(line[0][2], scale, compact, line[0][0]) <= scale.melds_width
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
    cards-and-buys line of ``language``); a table still too full keeps the legible size and
    summarises its melds (``_summaries``); only one past all summaries shrinks."""
    head = 0.0 if compact else float(px(HEADER_HEIGHT))
    available = SIZE - head - px(OUTER)
    by_owner: dict[int, list[tuple[int, Meld]]] = {seat: [] for seat in range(len(view.seats))}
    for number, table_meld in enumerate(view.melds, start=1):
        by_owner.setdefault(table_meld.owner, []).append((number, table_meld.meld))
    stats = [_stats(view, seat, language) for seat in range(len(view.seats))]
    rules = view.rules
    melds_by_number = {n: m for melds in by_owner.values() for n, m in melds}

    @cache
    def pieces(number: int, mode: int) -> Pieces:
        return _pieces(melds_by_number[number], mode, rules)

    def column(factor: float, info: float, buys: bool) -> float:
        """``info``, or wider: never narrower than the widest cards-and-buys line ("▮25
        gekocht 12/∞"): the names may shorten, that line may not."""
        widest = max(
            (_stats_width(count, bought if buys else "", Scale(factor)) for count, bought in stats),
            default=0.0,
        )
        return max(info, math.ceil(widest / (PHONE * factor)) + 2)

    def attempt(
        factor: float,
        info: float,
        modes: Mapping[int, int],
        *,
        buys: bool = True,
        tight: bool = False,
    ) -> _Attempt:
        scale = Scale(factor, column(factor, info, buys), tight)
        flows = {
            seat: _flow([(n, m, pieces(n, modes.get(n, FULL))) for n, m in melds], scale, compact)
            for seat, melds in by_owner.items()
        }
        heights = {seat: _row_height(lines, scale) for seat, lines in flows.items()}
        room = scale.of(scale.info) - scale.of(1)
        fits = (
            sum(heights.values()) <= available
            and all(_widest_fits(lines, scale, compact) for lines in flows.values())
            and all(
                _stats_width(count, bought if buys else "", scale) <= room
                for count, bought in stats
            )
        )
        return _Attempt(scale, flows, heights, fits, buys)

    def factors(low: float) -> list[float]:
        return [round(MAX_SCALE - 0.02 * i, 2) for i in range(round((MAX_SCALE - low) / 0.02) + 1)]

    def first_fit(plans: Iterable[tuple[float, float, Mapping[int, int]]]) -> _Attempt | None:
        for factor, info, modes in plans:
            if (tried := attempt(factor, info, modes)).fits:
                return tried
        return None

    whole: dict[int, int] = {}
    ends = {number: ENDS for number in range(1, len(view.melds) + 1)}
    found = None
    # Larger scales and wider name columns only need more room: when every card does not
    # fit at the legible size with the narrowest column, no larger plan does either.
    if attempt(1.0, NARROWER_INFO[-1], whole).fits:
        found = first_fit((f, INFO_WIDTH, whole) for f in factors(1.0)) or first_fit(
            (f, info, whole) for f in factors(1.0) for info in NARROWER_INFO
        )
    # Summaries at the legible size; then without the buys (the text has them), for the
    # widest seat lines. Whole names first ("Comp… 1" tells little): of the name columns
    # cutting the fewest names, the narrowest, which leaves the melds the most room, so that
    # the fewest cards are left out.
    for buys in (True, False):
        if found is not None:
            break
        columns = sorted(
            {column(1.0, info, buys) for info in (INFO_WIDTH, *NARROWER_INFO)},
            key=lambda info: (_cut_names(view, Scale(1.0, info), language), info),
        )
        for info in columns:
            if found is not None:
                break
            tried = partial(attempt, 1.0, info, buys=buys, tight=True)
            if (modes := _summaries(by_owner, pieces, compact, tried)) is not None:
                found = tried(modes)
    if found is None:
        shrunk = (
            attempt(f, info, ends, tight=True)
            for f in factors(MIN_SCALE)
            if f < 1.0
            for info in NARROWER_INFO
        )
        found = next((tried for tried in shrunk if tried.fits), None) or attempt(
            MIN_SCALE, INFO_WIDTH, ends, tight=True
        )
    scale, flows, heights = found.scale, found.flows, dict(found.heights)
    # Equal rows when the tallest fits that way (a tidy grid), else each row its own height.
    tallest = max(heights.values(), default=0.0)
    if tallest * len(heights) <= available:
        heights = {seat: available / max(1, len(heights)) for seat in heights}
    else:
        spare = (available - sum(heights.values())) / max(1, len(heights))
        heights = {seat: height + max(0.0, spare) for seat, height in heights.items()}
    rows: list[Row] = []
    top = head
    for seat, lines in flows.items():
        height = heights[seat]
        rows.append(Row(seat, top, height, _place(lines, scale, top, height, compact)))
        top += height
    return TableLayout(scale, head, tuple(rows), compact, found.buys)


@dataclass(frozen=True, slots=True)
class _Attempt:
    """One try at laying the rows out: the measures, each seat's lines, their heights,
    whether they fit and whether the seats' buys are drawn."""

    scale: Scale
    flows: dict[int, list[list[Shown]]]
    heights: dict[int, float]
    fits: bool
    buys: bool = True


def _cut_names(view: PlayerView, scale: Scale, language: Language) -> int:
    """How many seats' names a name column of ``scale`` cuts short with "…" on one line."""
    return sum(
        "…"
        in short_name(
            seat_label(view.seats, seat, language),
            *_name_room(view, seat, scale),
            bold=_name_weight(scale),
        )
        for seat in range(len(view.seats))
    )


def _name_room(view: PlayerView, seat: int, scale: Scale) -> tuple[int, float]:
    """The name's font size and the width left to it beside the seat's total."""
    total_width = text_width(str(view.seats[seat].total), scale.text_size)
    return scale.name_size, scale.of(scale.info) - total_width - scale.of(4)


def _name_weight(scale: Scale) -> float:
    return max(0.4, scale.name_size / 40)


def _summaries(
    by_owner: Mapping[int, Sequence[tuple[int, Meld]]],
    pieces: Callable[[int, int], Pieces],
    compact: bool,
    attempt: Callable[[Mapping[int, int]], _Attempt],
) -> dict[int, int] | None:
    """The modes (meld number → ``WILDS`` or ``ENDS``) of few summaries that let the rows fit;
    None when even every meld summarised does not fit.

    Greedy: while the rows do not fit, the seat with the most lines of melds (a single meld
    too wide for its line first) summarises one more step the meld whose step saves the
    most width. A seat on one line is left alone: narrower melds would not lower its row."""
    modes: dict[int, int] = {}
    while True:
        tried = attempt(modes)
        if tried.fits:
            return modes
        scale = tried.scale
        order = sorted(
            tried.flows,
            key=lambda seat: (
                not _widest_fits(tried.flows[seat], scale, compact),
                len([line for line in tried.flows[seat] if line]),
            ),
            reverse=True,
        )
        step: tuple[float, int, int] | None = None
        for seat in order:
            lines = [line for line in tried.flows[seat] if line]
            if len(lines) < 2 and _widest_fits(lines, scale, compact):
                break
            for number, _, drawn in (shown for line in lines for shown in line):
                mode = modes.get(number, FULL)
                now = _meld_width(drawn, scale, compact, number)
                for later in range(mode + 1, ENDS + 1):
                    saving = now - _meld_width(pieces(number, later), scale, compact, number)
                    if saving > 0:
                        if step is None or saving > step[0]:
                            step = (saving, number, later)
                        break
            if step is not None:
                break
        if step is None:
            return None
        modes[step[1]] = step[2]


def _place(
    lines: Sequence[Sequence[Shown]], scale: Scale, top: float, height: float, compact: bool
) -> tuple[PlacedMeld, ...]:
    """Where each meld's badge, tiles, bridges and count go, its lines centred in the row."""
    tile = scale.tile
    count = len([line for line in lines if line])
    block = count * tile.height + max(0, count - 1) * scale.of(LINE_GAP)
    y = top + (height - block) / 2
    placed: list[PlacedMeld] = []
    r, s = tile.rank_box, tile.suit_box
    for line in lines:
        if not line:
            continue
        x = scale.melds_left
        for number, meld, pieces in line:
            badge = None
            if compact:
                w = _badge_width(number, scale)
                h = scale.text_size * 1.15
                badge = Box(x, y + (tile.height - h) / 2, x + w, y + (tile.height + h) / 2)
                x += w + scale.of(BADGE_GAP)
            tiles: list[PlacedTile] = []
            bridges: list[tuple[int, int, int]] = []
            end = x
            for position, piece in enumerate(pieces):
                tx, ty = round(x), round(y)
                if piece < 0:
                    bridges.append((tx, ty, -piece))
                    end = x + tile.bridge_width
                    x += tile.bridge_step
                    continue
                end = x + tile.width
                tiles.append(
                    PlacedTile(
                        tx,
                        ty,
                        Box(tx + r[0], ty + r[1], tx + r[2], ty + r[3]),
                        Box(tx + s[0], ty + s[1], tx + s[2], ty + s[3]),
                        position == len(pieces) - 1,
                        piece,
                    )
                )
                x += tile.step
            x = end
            x += _meld_gap(scale, compact)
            placed.append(PlacedMeld(meld, number, tuple(tiles), badge, tuple(bridges)))
        y += tile.height + scale.of(LINE_GAP)
    return tuple(placed)


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
    weight = _name_weight(scale)
    spare_lines = int((row.height - scale.info_height - scale.of(2)) // name_line)
    names = name_lines(
        seat_label(view.seats, row.seat, language),
        *_name_room(view, row.seat, scale),
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
