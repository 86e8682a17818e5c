"""The table's cards as tiles: only a card's index (rank over suit), drawn to read on a phone.

A tile is what the table picture shows of a card in a meld or a pile; a summarised meld's
bridge stands for the cards it leaves out, and the stock is a tile's back. A wild's tile shows
the ``Identity`` it plays as. Tiles are cached like faces (``functools.lru_cache``) and shared:
never draw on them, paste them instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.screens._draw import (
    BACK_BLUE,
    BACK_LINE,
    CARD_BG,
    CARD_EDGE,
    GOLD,
    INK_LIGHT,
    JOKER_PURPLE,
    JOKER_TINT,
    RGB,
    SUPERSAMPLE,
    draw_suit,
    font,
    size_for_cap,
    star_points,
    suit_colour,
)
from engine.cards import Card, rank_text

#: A wild's identity: (rank 1-13, suit or None for a rank-only set identity).
Identity = tuple[int, str | None]


@dataclass(frozen=True, slots=True)
class TileSize:
    """A table card drawn for a phone: only its index (rank over suit), ``height`` pixels tall.

    On the table only the index of a card matters, and a whole card at a legible index is far
    too big for a picture that must read at 300 px wide with eight seats. A tile is
    24 units tall (1 unit = height/24): the rank's capitals 8.6 units, the suit 9 units, so
    both stay above 8 px when a unit is at least about 0.93 px at the width Discord shows.
    Tiles overlap by all but ``step`` pixels in a meld; the last one shows its whole width.
    """

    height: int

    @property
    def unit(self) -> float:
        return self.height / 24

    @property
    def step(self) -> int:
        """The visible index column of a tile under the next one in a meld."""
        return round(10.5 * self.unit)

    @property
    def width(self) -> int:
        return round(15.5 * self.unit)

    @property
    def bridge_step(self) -> int:
        """The visible width of a bridge: the cards of a run left out between two tiles."""
        return round(6 * self.unit)

    @property
    def bridge_width(self) -> int:
        """A bridge's whole width: its right end goes under the next tile, or shows (a set's
        stack of edges, last in its meld)."""
        return self.bridge_step + math.ceil(3 * self.unit)

    @property
    def rank_cap(self) -> float:
        """The height of the rank's capitals and digits, in pixels."""
        return 8.6 * self.unit

    @property
    def suit_height(self) -> float:
        return 9 * self.unit

    @property
    def rank_box(self) -> tuple[int, int, int, int]:
        """Where the rank's ink lies on the tile (left, top, right, bottom): badges and the
        next tile of a meld keep off it."""
        u = self.unit
        return (math.floor(0.8 * u), math.floor(2 * u), self.step, math.ceil(11.6 * u))

    @property
    def suit_box(self) -> tuple[int, int, int, int]:
        u = self.unit
        return (math.floor(0.8 * u), math.floor(12.4 * u), self.step, math.ceil(22.4 * u))


def _paste_ink(
    image: Image.Image,
    text: str,
    *,
    centre_x: float,
    top: float,
    cap: float,
    max_width: float,
    fill: RGB,
) -> None:
    """``text`` with its capitals ``cap`` pixels tall and its ink's top at ``top``, centred on
    ``centre_x`` and narrowed (never shortened) to ``max_width``: "10" keeps its height in an
    index column one digit wide, its digits set close like a real card's."""
    size = size_for_cap(cap)
    face = font(size)
    parts: list[Image.Image] = []
    for char in text:
        mask = Image.new("L", (size * 2, size * 2), 0)
        ImageDraw.Draw(mask).text(
            (size // 2, size * 3 // 2), char, fill=255, font=face, anchor="ls"
        )
        box = mask.getbbox()
        if box is not None:
            parts.append(mask.crop((box[0], 0, box[2], mask.height)))
    if not parts:
        return
    gap = round(0.07 * size)
    width = sum(part.width for part in parts) + gap * (len(parts) - 1)
    joined = Image.new("L", (width, parts[0].height), 0)
    x = 0
    for part in parts:
        joined.paste(part, (x, 0))
        x += part.width + gap
    box = joined.getbbox()
    assert box is not None
    joined = joined.crop((0, box[1], joined.width, box[3]))
    if joined.width > max_width:
        joined = joined.resize(
            (max(1, math.floor(max_width)), joined.height), Image.Resampling.LANCZOS
        )
    ink = Image.new("RGB", joined.size, fill)
    image.paste(ink, (round(centre_x - joined.width / 2), round(top)), joined)


def meld_tile(
    card: Card,
    size: TileSize,
    *,
    identity: Identity | None = None,
    four_colour: bool = False,
) -> Image.Image:
    """One card of the table as a tile of ``size`` (RGBA, rounded corners).

    A wild (``identity`` given) shows the identity it plays as, in purple: a joker on a solid
    purple tile, a deuce on a pale one; a rank-only identity (a set's wild) has a star for a
    suit. A joker without an identity (the upcard) is a purple tile with a gold star. Cached
    and shared: do not draw on it.
    """
    return _meld_tile(card, size, identity, four_colour)


@lru_cache(maxsize=2048)
def _meld_tile(
    card: Card, size: TileSize, identity: Identity | None, four_colour: bool
) -> Image.Image:
    s = SUPERSAMPLE
    u = size.unit * s
    width, height = size.width * s, size.height * s
    column = size.step * s
    joker = card.is_joker
    wild = identity is not None
    background = JOKER_PURPLE if joker else JOKER_TINT if wild else CARD_BG
    tile = Image.new("RGB", (width, height), background)
    draw = ImageDraw.Draw(tile)
    cx = column / 2 + 0.5 * u
    if identity is not None:
        rank, suit = identity
    elif not joker:
        rank, suit = card.rank, card.suit
    else:
        rank, suit = 0, None
    ink = INK_LIGHT if joker else JOKER_PURPLE if wild else suit_colour(suit, four_colour)
    if rank:
        _paste_ink(
            tile,
            rank_text(rank),
            centre_x=cx,
            top=2.6 * u,
            cap=size.rank_cap * s,
            max_width=column - 2.4 * u,
            fill=ink,
        )
    suit_y = 17.4 * u
    if suit is not None:
        if joker:
            # The suit keeps its colour (and its full size) on a window of card white.
            r = 5.3 * u
            draw.rounded_rectangle(
                (cx - r, suit_y - r, cx + r, suit_y + r), radius=2 * u, fill=CARD_BG
            )
        draw_suit(draw, suit, cx, suit_y, size.suit_height * s, suit_colour(suit, four_colour))
    else:
        # A joker unplaced (its star fills the index), or a set's wild (any suit: a star).
        radius = 6.6 * u if rank else 8 * u
        centre = suit_y if rank else 12 * u
        draw.polygon(star_points(cx, centre, radius), fill=GOLD if joker else JOKER_PURPLE)
    radius = 3 * u
    edge: RGB = JOKER_PURPLE if wild else CARD_EDGE
    edge_width = round(2 * u) if wild else max(s, round(1.1 * u))
    draw.rounded_rectangle(
        (0, 0, width - 1, height - 1), radius=radius, outline=edge, width=edge_width
    )
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=255)
    tile.putalpha(mask)
    return tile.resize((size.width, size.height), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)
def tile_bridge(size: TileSize, hidden: int) -> Image.Image:
    """What stands for ``hidden`` cards left out of a summarised meld: a strip of card
    squeezed to ``size.bridge_step`` showing up to three card edges, so that "3♥ ▮ 9♥" reads
    as one run with cards between (the next tile covers the strip's right end), and "K♠ ▮" as
    a set with more kings behind its first."""
    s = SUPERSAMPLE
    u = size.unit * s
    width, height = size.bridge_width * s, size.height * s
    strip = Image.new("RGB", (width, height), CARD_BG)
    draw = ImageDraw.Draw(strip)
    edges = min(3, hidden)
    gap = size.bridge_step * s / (edges + 1)
    line = max(s, round(1.1 * u))
    for edge in range(1, edges + 1):
        x = gap * edge
        draw.line((x, 3.5 * u, x, height - 3.5 * u), fill=CARD_EDGE, width=line)
    radius = 3 * u
    draw.rounded_rectangle(
        (0, 0, width - 1, height - 1), radius=radius, outline=CARD_EDGE, width=line
    )
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=255)
    strip.putalpha(mask)
    return strip.resize((width // s, size.height), Image.Resampling.LANCZOS)


@lru_cache(maxsize=8)
def tile_back(size: TileSize) -> Image.Image:
    """The back of a card at a tile's size (the stock): blue, white-framed."""
    s = SUPERSAMPLE
    u = size.unit * s
    width, height = size.width * s, size.height * s
    back = Image.new("RGB", (width, height), BACK_BLUE)
    draw = ImageDraw.Draw(back)
    draw.rounded_rectangle(
        (2.5 * u, 2.5 * u, width - 2.5 * u, height - 2.5 * u),
        radius=2 * u,
        outline=BACK_LINE,
        width=round(1.5 * u),
    )
    draw.rounded_rectangle(
        (0, 0, width - 1, height - 1), radius=3 * u, outline=CARD_BG, width=round(1.2 * u)
    )
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width - 1, height - 1), radius=3 * u, fill=255)
    back.putalpha(mask)
    return back.resize((size.width, size.height), Image.Resampling.LANCZOS)


def clear_tile_caches() -> None:
    """Forget every cached tile, bridge and tile back."""
    _meld_tile.cache_clear()
    tile_back.cache_clear()
    tile_bridge.cache_clear()


__all__ = [
    "Identity",
    "TileSize",
    "clear_tile_caches",
    "meld_tile",
    "tile_back",
    "tile_bridge",
]
