"""Drawing primitives shared by the renderers: palette, fonts, suit shapes, text and PNG output.

Everything here is deterministic: no system fonts (only the bundled DejaVu Sans of
``bot/i18n/fonts``, which covers Latin-1 and Latin Extended-A so "José" and "Muñoz" keep their
accents, laid out with the basic engine so Raqm's presence does not matter), no randomness, and
PNGs saved with fixed options and no metadata. Suit symbols are drawn as shapes, the same in
every font.

Thread safety: CPython's GIL build serialises Pillow's FreeType calls (Pillow holds the GIL
while it lays out text), so the cached fonts may be shared by ``asyncio.to_thread`` workers;
Pillow 12.2+ also locks each font in free-threaded builds.
"""

from __future__ import annotations

import io
import math
import unicodedata
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import fonts

RGB = tuple[int, int, int]

# -- palette ---------------------------------------------------------------------------------

FELT: RGB = (28, 86, 58)
FELT_DARK: RGB = (18, 58, 39)
FELT_LIGHT: RGB = (38, 104, 72)
INK_LIGHT: RGB = (242, 242, 234)
INK_MUTED: RGB = (171, 203, 183)
CARD_BG: RGB = (252, 251, 246)
CARD_EDGE: RGB = (112, 116, 124)
RED: RGB = (204, 28, 44)
BLACK: RGB = (24, 24, 30)
JOKER_PURPLE: RGB = (104, 58, 183)
JOKER_TINT: RGB = (238, 230, 252)
GOLD: RGB = (246, 184, 0)
HIGHLIGHT: RGB = (255, 163, 0)
HIGHLIGHT_TINT: RGB = (255, 244, 207)
LIVE_GREEN: RGB = (40, 180, 99)
DEAD_GREY: RGB = (118, 124, 130)
DOWN_BLUE: RGB = (52, 120, 220)
BACK_BLUE: RGB = (30, 58, 138)
BACK_LINE: RGB = (72, 104, 190)
#: The four-colour deck's clubs and diamonds (spades stay black, hearts red): as far apart
#: from each other and from red and black as a card's white allows.
CLUB_GREEN: RGB = (16, 128, 54)
DIAMOND_BLUE: RGB = (22, 92, 206)

#: Supersampling factor for shapes: drawn this much larger, then downsampled (anti-aliasing).
SUPERSAMPLE = 3


def suit_colour(suit: str | None, four_colour: bool = False) -> RGB:
    """Red for hearts and diamonds, black for clubs and spades (and rank-only identities);
    ``four_colour``: clubs green and diamonds blue, so every suit has its own colour (a
    player who cannot tell the shapes apart at a glance, or on a small screen, still can)."""
    if four_colour and suit == "C":
        return CLUB_GREEN
    if four_colour and suit == "D":
        return DIAMOND_BLUE
    return RED if suit in ("H", "D") else BLACK


# -- fonts and text --------------------------------------------------------------------------


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu Sans at ``size`` pixels, basic layout (no Raqm)."""
    return ImageFont.truetype(str(fonts.REGULAR), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=1)
def _notdef_bitmap() -> bytes:
    return _glyph_bitmap("\ue000")


def _glyph_bitmap(char: str) -> bytes:
    image = Image.new("L", (24, 24))
    ImageDraw.Draw(image).text((2, 2), char, fill=255, font=font(14))
    return image.tobytes()


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """Whether the bundled font draws ``char`` (Latin, Greek, Cyrillic; no emoji)."""
    if char == " ":
        return True
    return _glyph_bitmap(char) != _notdef_bitmap()


def drawable(text: str) -> str:
    """``text`` as the font can draw it: accented letters kept (José, Muñoz, Łukasz).

    A character the font lacks loses only its accent when its base letter is drawable
    (rare scripts' diacritics) and is dropped otherwise (emoji, other scripts). Names are
    shown exactly in the accessible text elsewhere; the picture only needs to tell players
    apart, so callers replace an empty result with a seat label.
    """
    kept: list[str] = []
    for ch in unicodedata.normalize("NFC", text):
        if not ch.isprintable():
            continue
        if has_glyph(ch):
            kept.append(ch)
            continue
        base = "".join(
            part
            for part in unicodedata.normalize("NFKD", ch)
            if not unicodedata.combining(part) and part.isprintable() and has_glyph(part)
        )
        kept.append(base)
    return " ".join("".join(kept).split())


def fit(text: str, size: int, width: float) -> str:
    """``text`` shortened with an ellipsis so it is at most ``width`` pixels wide."""
    face = font(size)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def bold_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    *,
    fill: RGB,
    anchor: str,
    weight: float,
) -> None:
    """Text made heavier by a stroke of its own colour: the bundled font has one weight, and
    titles, names and totals must stand out at Discord's embed width."""
    draw.text(
        xy, text, fill=fill, font=font(size), anchor=anchor, stroke_width=weight, stroke_fill=fill
    )


@lru_cache(maxsize=8192)
def text_width(text: str, size: int) -> float:
    """The advance of ``text`` at ``size`` pixels (cached: a table's layout asks the same
    numbers, totals and labels at each scale it tries)."""
    return font(size).getlength(text)


#: The height of a capital letter or a digit of the bundled font, as a share of its size.
CAP_HEIGHT = 0.729


def size_for_cap(cap: float) -> int:
    """The smallest font size (pixels) whose capitals and digits are at least ``cap`` tall."""
    return math.ceil(cap / CAP_HEIGHT)


# -- shapes ----------------------------------------------------------------------------------


def _heart_outline(cx: float, cy: float, size: float, flip: bool) -> list[tuple[float, float]]:
    """The classic parametric heart, ``size`` tall, centred on (cx, cy); ``flip`` points it up."""
    points: list[tuple[float, float]] = []
    steps = 72
    # x = 16 sin^3 t, y = 13 cos t - 5 cos 2t - 2 cos 3t - cos 4t spans x +-16, y -17..+12.
    scale = size / 29.0
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        y += 2.5  # centre the vertical extent (-17..12) on zero
        points.append((cx + x * scale * 1.02, cy + (y if flip else -y) * scale))
    return points


def draw_suit(
    draw: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, size: float, fill: RGB
) -> None:
    """A suit symbol about ``size`` pixels tall and wide, centred on (cx, cy)."""
    s = size
    if suit == "D":
        draw.polygon(
            [(cx, cy - 0.52 * s), (cx + 0.38 * s, cy), (cx, cy + 0.52 * s), (cx - 0.38 * s, cy)],
            fill=fill,
        )
    elif suit == "H":
        draw.polygon(_heart_outline(cx, cy, s, flip=False), fill=fill)
    elif suit == "S":
        draw.polygon(_heart_outline(cx, cy - 0.1 * s, 0.84 * s, flip=True), fill=fill)
        draw.polygon(
            [(cx, cy + 0.05 * s), (cx + 0.2 * s, cy + 0.5 * s), (cx - 0.2 * s, cy + 0.5 * s)],
            fill=fill,
        )
    elif suit == "C":
        r = 0.2 * s
        for ox, oy in ((0.0, -0.26), (-0.24, 0.08), (0.24, 0.08)):
            x, y = cx + ox * s, cy + oy * s
            draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)
        draw.polygon(
            [(cx, cy - 0.1 * s), (cx + 0.12 * s, cy + 0.1 * s), (cx - 0.12 * s, cy + 0.1 * s)],
            fill=fill,
        )
        draw.polygon(
            [(cx, cy), (cx + 0.2 * s, cy + 0.5 * s), (cx - 0.2 * s, cy + 0.5 * s)],
            fill=fill,
        )
    else:
        raise ValueError(f"{suit!r} is not a suit")


def star_points(
    cx: float, cy: float, radius: float, points: int = 5, inner: float = 0.45
) -> list[tuple[float, float]]:
    """A star polygon with its first point straight up."""
    vertices: list[tuple[float, float]] = []
    for i in range(points * 2):
        r = radius if i % 2 == 0 else radius * inner
        angle = -math.pi / 2 + math.pi * i / points
        vertices.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    return vertices


def pill(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    fill: RGB,
    text: str,
    size: int,
    ink: RGB = INK_LIGHT,
) -> None:
    """A rounded badge with centred text."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=(y1 - y0) / 2, fill=fill)
    draw.text(((x0 + x1) / 2, (y0 + y1) / 2), text, fill=ink, font=font(size), anchor="mm")


def badge_width(text: str, size: int) -> float:
    """The width ``pill`` needs for ``text``."""
    return text_width(text, size) + size * 1.1


# -- output ----------------------------------------------------------------------------------


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes with fixed options and no metadata: same picture, same bytes.

    The picture is reduced to a 256-colour palette first (fast octree, no dithering): flat
    colours and anti-aliased edges survive it, and it makes files about three times smaller
    and quicker to compress than RGB.
    """
    if image.mode != "RGB":
        image = image.convert("RGB")
    palette = image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    palette.save(out, format="PNG", optimize=False, compress_level=3)
    return out.getvalue()
