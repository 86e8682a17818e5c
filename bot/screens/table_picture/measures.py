"""The table picture's measures: its square, the phone pixels it is drawn to read at, and the
scale of the seat rows; the boxes a layout gives each meld, tile and badge (tests measure them
against the pixels).

Measures are in *phone pixels* (px at 300 px wide, the narrowest width Discord shows the
picture at); ``PHONE`` converts them to picture pixels.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.screens._draw import RGB, size_for_cap
from bot.screens.card_tiles import TileSize
from engine.melds import Meld

#: The picture's width and height in pixels, whatever the number of seats.
SIZE = 720
WIDTH = HEIGHT = SIZE
#: The compact picture's heights, shortest first: the table message is read on a phone's
#: screen, so a table with little on it (few seats, few melds) draws it lower, as long as
#: every card still shows at the legible size; a fuller one takes the square.
COMPACT_HEIGHTS = (400, 480, 600, SIZE)
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
    #: The picture's height in pixels (its width is always ``SIZE``).
    height: int = SIZE

    @property
    def whole(self) -> bool:
        """Every card of every meld drawn, at the legible size or larger, buys included."""
        return (
            self.buys
            and self.scale.factor >= 1.0
            and not any(meld.summarised for row in self.rows for meld in row.melds)
        )
