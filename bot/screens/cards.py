"""One card face (or back) as an RGBA picture, at the sizes of a hand's fan.

Terminology:
- the *index* is the rank and suit printed in a card's top-left corner (and upside down in the
  bottom-right); the *index column* is the strip of width ``CardSize.step`` holding it, which
  stays visible when cards overlap in a fan;
- a *wild tag* is the purple label a wild card carries on the table: "as 8♥", the identity it
  was placed as; its word ("as", "als", "como") and the joker's printed word are
  the picture's language (``picture.as``, ``picture.joker``), shrunk to fit when longer.

Faces are cached (``functools.lru_cache``): the same few dozen faces repeat in every hand and
table, so after warm-up a render is mostly pasting. Cached images are shared: never draw on
them, paste or composite them instead. The table's smaller cards, only their index, are the
tiles of ``card_tiles``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import DEFAULT_LANGUAGE, Language, t
from bot.screens._draw import (
    BACK_BLUE,
    BACK_LINE,
    CARD_BG,
    CARD_EDGE,
    GOLD,
    HIGHLIGHT,
    HIGHLIGHT_TINT,
    INK_LIGHT,
    JOKER_PURPLE,
    JOKER_TINT,
    RGB,
    SUPERSAMPLE,
    draw_suit,
    font,
    has_glyph,
    star_points,
    suit_colour,
    text_width,
)
from bot.screens.card_tiles import Identity, clear_tile_caches
from engine.cards import Card, rank_text


@dataclass(frozen=True, slots=True)
class CardSize:
    """Card dimensions in pixels; all inner measures scale with ``width`` (1 unit = width/100)."""

    width: int

    @property
    def height(self) -> int:
        return round(self.width * 1.4)

    @property
    def unit(self) -> float:
        return self.width / 100

    @property
    def step(self) -> int:
        """The horizontal offset between overlapping cards: the index column stays visible."""
        return math.ceil(self.width * 0.38)

    @property
    def index_box(self) -> tuple[int, int, int, int]:
        """The (left, top, right, bottom) of the top-left index, in face pixels."""
        u = self.unit
        return (math.ceil(6 * u), math.ceil(5 * u), self.step - 2, math.floor(54 * u))


#: The size of cards in a player's hand.
HAND = CardSize(88)
#: The size of cards in melds and piles on the table.
TABLE = CardSize(62)


def identity_text(identity: Identity) -> str:
    """``"8♥"`` style text of an identity, for labels (the picture draws the suit as a shape)."""
    rank, suit = identity
    return rank_text(rank) + ({"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[suit] if suit else "")


def card_face(
    card: Card,
    size: CardSize = HAND,
    *,
    identity: Identity | None = None,
    highlight: bool = False,
    language: Language = DEFAULT_LANGUAGE,
    four_colour: bool = False,
) -> Image.Image:
    """The face of ``card`` as an RGBA image of ``size`` (transparent rounded corners).

    ``identity`` marks a wild on the table with the identity it plays as; ``highlight`` gives the
    card a gold border and a warm tint; ``language`` words the joker and the wild tag;
    ``four_colour`` draws clubs green and diamonds blue. The result is cached and shared: do
    not draw on it.
    """
    if not card.is_joker and identity is None:
        language = DEFAULT_LANGUAGE  # no words on it: one cached face for every language
    return _card_face(card, size, identity, highlight, language, four_colour)


@lru_cache(maxsize=1024)
def _card_face(
    card: Card,
    size: CardSize,
    identity: Identity | None,
    highlight: bool,
    language: Language,
    four_colour: bool = False,
) -> Image.Image:
    s = SUPERSAMPLE
    width, height = size.width * s, size.height * s
    u = size.unit * s
    wild = identity is not None
    background = HIGHLIGHT_TINT if highlight else JOKER_TINT if card.is_joker else CARD_BG
    face = Image.new("RGB", (width, height), background)
    draw = ImageDraw.Draw(face)
    column = size.step * s  # the index column's width

    if card.is_joker:
        _draw_joker(draw, size, identity, column, language, four_colour)
    else:
        assert card.suit is not None
        colour = suit_colour(card.suit, four_colour)
        index = _index_layer(card, size, four_colour)
        face.paste(index, (0, 0), index)
        # The large centre, right of the index column so a fan hides it: rank over suit.
        cx = (column + width) / 2
        draw.text(
            (cx, 40 * u), rank_text(card.rank), fill=colour, font=font(round(40 * u)), anchor="mm"
        )
        draw_suit(draw, card.suit, cx, 97 * u, 36 * u, colour)
        if identity is not None:
            _draw_wild_tag(
                draw,
                size,
                identity,
                top=60 * u,
                column=column,
                language=language,
                four_colour=four_colour,
            )

    # Round the corners and draw the edge.
    radius = 9 * u
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=255)
    edge_width = max(s, round(1.6 * u))
    edge: RGB = CARD_EDGE
    if highlight:
        edge, edge_width = HIGHLIGHT, round(5 * u)
    elif wild:
        edge, edge_width = JOKER_PURPLE, round(3 * u)
    draw.rounded_rectangle(
        (0, 0, width - 1, height - 1), radius=radius, outline=edge, width=edge_width
    )
    face.putalpha(mask)
    return face.resize((size.width, size.height), Image.Resampling.LANCZOS)


def _index_layer(card: Card, size: CardSize, four_colour: bool = False) -> Image.Image:
    """The corner index (rank over suit) on a transparent layer, supersampled."""
    s = SUPERSAMPLE
    u = size.unit * s
    assert card.suit is not None
    colour = suit_colour(card.suit, four_colour)
    layer = Image.new("RGBA", (size.step * s, round(58 * u)), (*colour, 0))
    draw = ImageDraw.Draw(layer)
    cx = layer.width / 2 + 1 * u
    text = rank_text(card.rank)
    rank_font = font(round((23 if len(text) > 1 else 26) * u))
    draw.text((cx, 19 * u), text, fill=(*colour, 255), font=rank_font, anchor="mm")
    draw_suit(draw, card.suit, cx, 43 * u, 18 * u, colour)
    return layer


def _draw_joker(
    draw: ImageDraw.ImageDraw,
    size: CardSize,
    identity: Identity | None,
    column: int,
    language: Language,
    four_colour: bool = False,
) -> None:
    """A purple index band with a star and the joker's word (or the identity) spelt downwards,
    a big star in the centre with the word under it."""
    s = SUPERSAMPLE
    u = size.unit * s
    width, height = size.width * s, size.height * s
    word = t("picture.joker", language)
    draw.rectangle((0, 0, column, height), fill=JOKER_PURPLE)
    cx = column / 2 + 1 * u
    draw.polygon(star_points(cx, 14 * u, 11 * u), fill=GOLD)
    if identity is None:
        # Five letters fill the band at 19 units apart; a longer word closes up to fit.
        step = min(19.0, 76 / max(1, len(word) - 1))
        letter_font = font(round(min(17.0, step - 1) * u))
        for i, letter in enumerate(word):
            draw.text(
                (cx, (36 + step * i) * u), letter, fill=INK_LIGHT, font=letter_font, anchor="mm"
            )
    else:
        _draw_wild_tag(
            draw,
            size,
            identity,
            top=30 * u,
            column=column,
            language=language,
            four_colour=four_colour,
        )
    # Centre: a big gold star and the word.
    mx = (column + width) / 2
    draw.polygon(star_points(mx, 62 * u, 27 * u), fill=GOLD)
    draw.polygon(star_points(mx, 62 * u, 27 * u), outline=JOKER_PURPLE, width=round(2 * u))
    word_font = _fitting_font(word, 15 * u, width - column - 8 * u)
    draw.text((mx, 104 * u), word, fill=JOKER_PURPLE, font=word_font, anchor="mm")


def _fitting_font(text: str, size: float, width: float) -> ImageFont.FreeTypeFont:
    """The font at ``size`` pixels, or smaller until ``text`` is at most ``width`` wide."""
    face = font(round(size))
    length = face.getlength(text)
    if length > width:
        face = font(max(1, math.floor(size * width / length)))
    return face


def _draw_wild_tag(
    draw: ImageDraw.ImageDraw,
    size: CardSize,
    identity: Identity,
    *,
    top: float,
    column: int,
    language: Language,
    four_colour: bool = False,
) -> None:
    """The identity a wild plays as, stacked in the index column: "as", rank, suit."""
    s = SUPERSAMPLE
    u = size.unit * s
    rank, suit = identity
    x0, x1 = 4 * u, column - 2 * u
    bottom = top + (70 if suit else 50) * u
    draw.rounded_rectangle(
        (x0, top, x1, bottom),
        radius=6 * u,
        fill=JOKER_PURPLE,
        outline=INK_LIGHT,
        width=max(1, round(1.5 * u)),
    )
    cx = (x0 + x1) / 2
    word = t("picture.as", language)
    word_font = _fitting_font(word, 14 * u, x1 - x0 - 4 * u)
    draw.text((cx, top + 10 * u), word, fill=INK_LIGHT, font=word_font, anchor="mm")
    text = rank_text(rank)
    draw.text(
        (cx, top + 31 * u),
        text,
        fill=INK_LIGHT,
        font=font(round((20 if len(text) > 1 else 23) * u)),
        anchor="mm",
    )
    if suit is not None:
        r = 10.5 * u
        cy = top + 55 * u
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=CARD_BG)
        draw_suit(draw, suit, cx, cy, 13 * u, suit_colour(suit, four_colour))


@lru_cache(maxsize=8)
def card_back(size: CardSize = TABLE) -> Image.Image:
    """The back of a card: blue with a lattice, as an RGBA image (cached: do not draw on it)."""
    s = SUPERSAMPLE
    width, height = size.width * s, size.height * s
    u = size.unit * s
    back = Image.new("RGB", (width, height), BACK_BLUE)
    draw = ImageDraw.Draw(back)
    margin = 7 * u
    spacing = 12 * u
    line = max(1, round(1.6 * u))
    offset = -float(height)
    while offset < width + height:
        draw.line((offset, 0, offset + height, height), fill=BACK_LINE, width=line)
        draw.line((offset + height, 0, offset, height), fill=BACK_LINE, width=line)
        offset += spacing
    draw.rounded_rectangle(
        (margin, margin, width - margin, height - margin),
        radius=5 * u,
        outline=INK_LIGHT,
        width=round(2.5 * u),
    )
    # Clear the frame between the lattice and the card's edge.
    frame = Image.new("L", (width, height), 0)
    ImageDraw.Draw(frame).rounded_rectangle(
        (margin, margin, width - margin, height - margin), radius=5 * u, fill=255
    )
    plain = Image.new("RGB", (width, height), BACK_BLUE)
    back = Image.composite(back, plain, frame)
    draw = ImageDraw.Draw(back)
    draw.rounded_rectangle(
        (margin, margin, width - margin, height - margin),
        radius=5 * u,
        outline=INK_LIGHT,
        width=round(2.5 * u),
    )
    radius = 9 * u
    draw.rounded_rectangle(
        (0, 0, width - 1, height - 1), radius=radius, outline=CARD_BG, width=round(2 * u)
    )
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=255)
    back.putalpha(mask)
    return back.resize((size.width, size.height), Image.Resampling.LANCZOS)


def clear_caches() -> None:
    """Forget every cached face, back, tile and font (the benchmark's cold start)."""
    _card_face.cache_clear()
    clear_tile_caches()
    card_back.cache_clear()
    font.cache_clear()
    has_glyph.cache_clear()
    text_width.cache_clear()


__all__ = [
    "HAND",
    "TABLE",
    "CardSize",
    "Identity",
    "card_back",
    "card_face",
    "clear_caches",
    "identity_text",
]
