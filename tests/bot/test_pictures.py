"""The pictures at the sizes Discord shows them (issue 24), and the hand picture's highlight.

An embed's picture shows at about 400 px wide (at most about 300 px tall) on a desktop and
about 300 px wide on a phone. These tests render, scale the PNG to 300 px wide with Pillow
and measure: the shape, the glyph heights (from the font sizes drawn and from the ink), the
seat to move, names, labels in every language, meld badges against the ranks they must not
cover; and the score sheet's ties and winners.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, Language, t
from bot.screens import draw_hand, render_score_sheet, render_table
from bot.screens._draw import (
    CAP_HEIGHT,
    CARD_BG,
    CLUB_GREEN,
    DIAMOND_BLUE,
    GOLD,
    INK_LIGHT,
    JOKER_PURPLE,
    JOKER_TINT,
    RGB,
    font,
    suit_colour,
    text_width,
)
from bot.screens.attachments import hand_picture_for, table_png
from bot.screens.card_tiles import TileSize, meld_tile
from bot.screens.samples import HAND_15, SHEET_8x10, table_view
from bot.screens.score_sheet import (
    CHART_HEIGHT,
    HEADER_HEIGHT,
    PLAYER_COLOURS,
    ROW_HEIGHT,
    dodge,
)
from bot.screens.score_sheet import TEXT as SHEET_TEXT
from bot.screens.score_sheet import WIDTH as SHEET_WIDTH
from bot.screens.sheet_text import TEXT_WIDTH as SHEET_TEXT_WIDTH
from bot.screens.sheet_text import visible
from bot.screens.table_picture import (
    COMPACT_HEIGHTS,
    MIN_GLYPH,
    PHONE_WIDTH,
    SIZE,
    Box,
    PlacedMeld,
    TableLayout,
    layout_at,
    layout_table,
    short_name,
)
from bot.screens.table_picture.measures import BAR, OUTER, px
from bot.screens.table_picture.names import cut_names
from bot.screens.text import score_sheet_text
from engine import parse_cards
from engine.cards import Card
from engine.melds import Meld
from engine.rules import Rules
from engine.view import PlayerView, SeatView, TableMeld

SEATS = range(2, 9)
#: Long names as Discord and the lobby give them (computers' names in each language).
LONG_NAMES = (
    "Bartholomew the Magnificent",
    "Computer 1 (normal)",
    "Computer 2 (makkelijk)",
    "Bot 3 (experto)",
    "Maximiliana Fernández-Castillo",
    "Computer 4 (expert)",
    "Wolfeschlegelsteinhausen",
    "Zoë",
)


def scaled(data: bytes, width: int = PHONE_WIDTH) -> Image.Image:
    image = Image.open(io.BytesIO(data)).convert("RGB")
    height = round(image.height * width / image.width)
    return image.resize((width, height), Image.Resampling.LANCZOS)


def long_named(players: int, *, current: int = 1) -> PlayerView:
    view = table_view(players)
    seats = tuple(replace(seat, player=LONG_NAMES[i]) for i, seat in enumerate(view.seats))
    return replace(view, seats=seats, current=current % players)


@dataclass(frozen=True)
class Drawn:
    text: str
    box: tuple[float, float, float, float]
    size: int


def drawing(monkeypatch: pytest.MonkeyPatch) -> list[Drawn]:
    """Every text the renderers draw from now on, with its box and font size."""
    drawn: list[Drawn] = []
    original = ImageDraw.ImageDraw.text

    def recording(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kw: Any) -> Any:
        face = kw.get("font")
        if isinstance(face, ImageFont.FreeTypeFont) and self.im.size[0] == SIZE:
            left, top, right, bottom = face.getbbox(str(text), anchor=kw.get("anchor"))
            x, y = xy
            drawn.append(
                Drawn(str(text), (x + left, y + top, x + right, y + bottom), round(face.size))
            )
        return original(self, xy, text, *args, **kw)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recording)
    return drawn


def at_phone(pixels: float) -> float:
    return pixels * PHONE_WIDTH / SIZE


def tiles(layout: TableLayout) -> Iterator[tuple[Box, Box]]:
    for row in layout.rows:
        for meld in row.melds:
            for tile in meld.tiles:
                yield tile.rank, tile.suit


# -- the shape ---------------------------------------------------------------------------------


def test_the_full_table_keeps_one_square_shape_for_every_number_of_seats() -> None:
    sizes = {Image.open(io.BytesIO(render_table(table_view(n)))).size for n in SEATS}
    assert sizes == {(SIZE, SIZE)}
    # Scaled to a phone it stays inside Discord's 300 px tall frame too.
    assert scaled(render_table(table_view(8))).size == (300, 300)


@pytest.mark.parametrize("players", SEATS)
def test_the_table_message_picture_stands_as_low_as_its_cards_allow(players: int) -> None:
    """The compact picture (the table message's, read on a phone) is ``SIZE`` wide and the
    shortest of ``COMPACT_HEIGHTS`` that shows every card at the legible size with no name
    cut shorter than in the square: an empty table of up to four seats the shortest; a
    crowded one, which summarises, the square."""
    for view in (table_view(players), replace(table_view(players), melds=())):
        layout = layout_table(view, compact=True)
        image = Image.open(io.BytesIO(render_table(view, compact=True)))
        assert image.size == (SIZE, layout.height)
        assert layout.height in COMPACT_HEIGHTS
        assert layout.whole or layout.height == SIZE
        square = cut_names(
            view, layout_at(view, SIZE, True, DEFAULT_LANGUAGE).scale, DEFAULT_LANGUAGE
        )
        for height in (h for h in COMPACT_HEIGHTS if h < layout.height):
            shorter = layout_at(view, height, True, DEFAULT_LANGUAGE)
            assert not shorter.whole or cut_names(view, shorter.scale, DEFAULT_LANGUAGE) > square
    if players <= 4:
        empty = replace(table_view(players), melds=())
        assert layout_table(empty, compact=True).height == min(COMPACT_HEIGHTS)
    assert layout_table(crowded(next(iter(CROWDED))), compact=True).height == SIZE
    assert scaled(render_table(table_view(players), compact=True)).size[1] <= 300


# -- glyph heights at 300 px wide ------------------------------------------------------------


@pytest.mark.parametrize("compact", [False, True])
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("players", SEATS)
def test_every_text_rank_and_suit_is_at_least_8_px_tall_at_300_px(
    players: int, language: Language, compact: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Font sizes as drawn: a capital or digit of each text is >= 8 px at 300 px wide, and
    the layout's ranks and suits are too; every text stays inside the picture."""
    drawn = drawing(monkeypatch)
    view = long_named(players)
    render_table(view, compact=compact, language=language)
    layout = layout_table(view, compact=compact, language=language)
    assert drawn
    for text in drawn:
        assert at_phone(text.size * CAP_HEIGHT) >= MIN_GLYPH, text
        left, top, right, bottom = text.box
        assert left >= 0 and top >= 0 and right <= SIZE and bottom <= layout.height, text
    tile = layout.scale.tile
    assert at_phone(tile.rank_cap) >= MIN_GLYPH
    assert at_phone(tile.suit_height) >= MIN_GLYPH


def _ink_rows(
    image: Image.Image, box: Box, inset: tuple[float, float], ink: RGB, paper: RGB
) -> int:
    """Rows of ``box`` (picture pixels, scaled to ``image``) holding ink: a pixel at least a
    third of the way from the tile's ``paper`` to the glyph's colour ``ink`` (the faint tips
    of a spade or a diamond at 300 px count once they are that dark)."""
    f = image.width / SIZE
    crop = image.crop(
        (
            round((box.left + inset[0]) * f),
            round(box.top * f),
            round((box.right - inset[1]) * f),
            round(box.bottom * f),
        )
    )

    def distance(a: Any, b: RGB) -> int:
        return sum(abs(x - y) for x, y in zip(a, b, strict=True))

    threshold = distance(ink, paper) / 2
    return sum(
        any(distance(crop.getpixel((x, y)), paper) >= threshold for x in range(crop.width))
        for y in range(crop.height)
    )


def _colours(placed: PlacedMeld, index: int, view: PlayerView) -> tuple[RGB, RGB, RGB, RGB]:
    """(rank ink, rank paper, suit ink, suit paper) of a tile, as ``meld_tile`` paints it."""
    card = placed.meld.cards[index]
    joker = card.card.is_joker
    wild = card.is_wild_in(placed.meld.kind, view.rules)
    paper = JOKER_PURPLE if joker else JOKER_TINT if wild else CARD_BG
    rank_ink = INK_LIGHT if joker else JOKER_PURPLE if wild else suit_colour(card.suit)
    if card.suit is None:
        return rank_ink, paper, (GOLD if joker else JOKER_PURPLE), paper
    return rank_ink, paper, suit_colour(card.suit), (CARD_BG if joker else paper)


def _measure_ink(view: PlayerView, compact: bool, language: Language = "en") -> int:
    """Asserts that every tile's rank and suit fill at least 8 rows of pixels on the picture
    scaled to 300 px wide; returns how many tiles it measured."""
    layout = layout_table(view, compact=compact, language=language)
    image = scaled(render_table(view, compact=compact, language=language))
    unit = layout.scale.tile.unit
    inset = (1.6 * unit, 0.8 * unit)  # off the tile's own edge and the next tile's
    measured = 0
    for row in layout.rows:
        for placed in row.melds:
            for tile in placed.tiles:
                rank_ink, rank_paper, suit_ink, suit_paper = _colours(placed, tile.index, view)
                rank_rows = _ink_rows(image, tile.rank, inset, rank_ink, rank_paper)
                suit_rows = _ink_rows(image, tile.suit, inset, suit_ink, suit_paper)
                assert rank_rows >= MIN_GLYPH, (placed.meld.cards[tile.index], rank_rows)
                assert suit_rows >= MIN_GLYPH, (placed.meld.cards[tile.index], suit_rows)
                measured += 1
    return measured


@pytest.mark.parametrize("compact", [False, True])
@pytest.mark.parametrize("players", [2, 4, 8])
def test_rank_and_suit_ink_is_at_least_8_px_tall_at_300_px(players: int, compact: bool) -> None:
    """The ink itself, measured on the picture scaled to 300 px wide: every tile's rank and
    suit fill at least 8 rows of pixels, and every card of the table has its tile."""
    view = table_view(players)
    assert _measure_ink(view, compact) == sum(len(meld.meld.cards) for meld in view.melds)


def test_tiles_read_rank_over_suit_at_a_legible_size() -> None:
    tile = TileSize(58)
    face = meld_tile(Card.parse("10H"), tile)
    assert face.size == (tile.width, tile.height)
    # The ten's two digits sit inside the index column a later tile leaves visible.
    ink = face.crop((3, tile.rank_box[1], tile.width - 3, tile.rank_box[3])).convert("L")
    dark = [
        x + 3 for x in range(ink.width) for y in range(ink.height) if ink.getpixel((x, y)) < 160
    ]  # type: ignore[operator]
    assert dark and max(dark) < tile.step


# -- names and labels ----------------------------------------------------------------------


@pytest.mark.parametrize("compact", [False, True])
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("players", [2, 4, 6, 8])
def test_names_and_labels_fit_whole(
    players: int, language: Language, compact: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No stump ("Comput…"): each seat's name is whole or recognisably shortened (its first
    word and the computer's number kept); the buys label keeps its limit in every language
    and stays left of the melds."""
    drawn = drawing(monkeypatch)
    view = long_named(players)
    render_table(view, compact=compact, language=language)
    layout = layout_table(view, compact=compact, language=language)
    texts = [text.text for text in drawn]
    for seat in view.seats:
        first, *rest = seat.player.split()
        shown = [
            text for text in texts if text.split()[:1] == [first] or text.startswith(first[:4])
        ]
        assert shown, (seat.player, texts)
        name = " ".join(shown) if seat.player not in texts else seat.player
        if rest and rest[0].isdigit():
            assert f"{first} {rest[0]}" in name, name  # "Computer 1", never "Comput…"
        assert name == seat.player or len(name.split()[0].rstrip("…")) >= 4, name
    firsts = tuple(seat.player.split()[0][:4] for seat in view.seats)
    cut = [text.text for text in drawn if "…" in text.text and not text.text.startswith(firsts)]
    assert cut == []  # no label is cut ("niet uitgele…")
    buys = [text for text in drawn if text.text.endswith(("/3", "/1", "/2", "/∞"))]
    assert len(buys) == players
    for text in buys:
        assert text.box[2] <= layout.scale.melds_left, text  # never runs into the melds
        assert text.text == t("picture.buys", language, used=text.text[-3], limit=text.text[-1])


def test_short_names_keep_what_tells_players_apart() -> None:
    def room(text: str) -> float:
        return text_width(text, 29) + 0.5

    assert short_name("Alice", 29, room("Alice")) == "Alice"
    long = "Bartholomew the Magnificent"
    assert short_name(long, 29, room(long) - 1) == "Bartholomew the M."
    assert short_name(long, 29, room("Bartholomew t. M.")) == "Bartholomew t. M."
    assert short_name(long, 29, room("Bartholomew t. M.") - 1) == "Bartholomew"
    assert short_name("Computer 1 (normal)", 29, room("Computer 1 (n.)")) == "Computer 1 (n.)"
    assert short_name("Computer 12 (makkelijk)", 29, room("Computer 12")) == "Computer 12"
    cut = short_name("Wolfeschlegelsteinhausen", 29, 150)
    assert cut.endswith("…") and len(cut) >= 5 and text_width(cut, 29) <= 150


# -- the seat to move ------------------------------------------------------------------------


@pytest.mark.parametrize("compact", [False, True])
@pytest.mark.parametrize("players", SEATS)
def test_the_seat_to_move_is_marked(players: int, compact: bool) -> None:
    for current in {0, players - 1}:
        view = replace(table_view(players), current=current)
        layout = layout_table(view, compact=compact)
        image = scaled(render_table(view, compact=compact))
        f = image.width / SIZE
        x = round(px(OUTER + BAR) / 2 * f)
        for row in layout.rows:
            y = round((row.top + row.height / 2) * f)
            pixel = image.getpixel((x, y))
            assert isinstance(pixel, tuple)
            is_gold = all(abs(p - g) <= 40 for p, g in zip(pixel, GOLD, strict=True))
            assert is_gold == (row.seat == current), (row.seat, current, pixel)


def test_no_seat_is_marked_once_the_deal_is_over() -> None:
    view = replace(table_view(4), step="over")
    layout = layout_table(view, compact=True)
    image = scaled(render_table(view, compact=True))
    for row in layout.rows:
        pixel = image.getpixel((1, round((row.top + row.height / 2) * 300 / SIZE)))
        assert isinstance(pixel, tuple)
        assert not all(abs(p - g) <= 40 for p, g in zip(pixel, GOLD, strict=True))


# -- meld badges -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", SEATS)
def test_meld_badges_cover_no_rank_or_suit(players: int) -> None:
    layout = layout_table(long_named(players), compact=True)
    badges = [meld.badge for row in layout.rows for meld in row.melds]
    assert badges and all(badge is not None for badge in badges)
    numbers = [meld.number for row in layout.rows for meld in row.melds]
    assert sorted(numbers) == list(range(1, len(numbers) + 1))
    for badge in badges:
        assert badge is not None
        for rank, suit in tiles(layout):
            assert not badge.overlaps(rank) and not badge.overlaps(suit), (badge, rank)


def test_a_meld_never_hides_an_index_of_its_own() -> None:
    """Within a meld the next tile starts where the index column ends."""
    layout = layout_table(table_view(8))
    for row in layout.rows:
        for meld in row.melds:
            for before, after in zip(meld.tiles, meld.tiles[1:], strict=False):
                assert before.rank.right <= after.x and before.suit.right <= after.x


# -- a table too full to be legible shrinks, it does not grow --------------------------------


def test_a_crowded_table_shrinks_inside_the_same_square() -> None:
    """Six melds a seat, more than any contract lays: past every summary, the rows shrink
    inside the same square (the last resort; tables the rules allow never get here)."""
    view = table_view(8)
    crowded = replace(view, melds=view.melds * 3)
    layout = layout_table(crowded, compact=True)
    assert layout.scale.factor < 1
    assert Image.open(io.BytesIO(render_table(crowded, compact=True))).size == (SIZE, SIZE)
    assert max(row.top + row.height for row in layout.rows) <= SIZE


# -- the most crowded tables the rules allow summarise their melds ---------------------------


@dataclass(frozen=True)
class Crowded:
    """A table from a played game: its preset (with unlimited buys), the deal, each seat's
    (cards in hand, buys used), and the melds in table order, each as "owner meld"."""

    preset: str
    deal: int
    seats: tuple[tuple[int, int], ...]
    melds: tuple[str, ...]
    current: int = 0


#: The most crowded tables found by playing (8 seats of normal computers that never go out,
#: so that every seat goes down and lays off; unlimited buys): of 25 deals each of deals 7, 9
#: and 10 under preset_000 and 15 each of deals 9 and 10 under the standard rules (four
#: decks, eight jokers), the state with the most cards on the table of each deal kind; deal
#: 9 (3 sets + 1 run) lays the most melds, 32, and deal 10 the most cards, 168. And one of
#: deal 9 under preset_004 (deuces wild too, rank-only set wilds: the most wilds to keep).
CROWDED: dict[str, Crowded] = {
    "preset_000 deal 7": Crowded(
        "preset_000",
        7,
        ((2, 3), (1, 3), (1, 4), (1, 5), (1, 4), (1, 5), (1, 4), (1, 2)),
        (
            "5 run: 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
            "5 run: 7D 8D 9D 10D JD QD KD AD",
            "5 run: 8S 9S 10S JS QS KS AS",
            "4 run: 2D JK=3D 4D 5D 6D",
            "4 run: AS 2S 3S 4S 5S",
            "4 run: 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS",
            "6 run: AD 2D 3D 4D 5D",
            "6 run: 10D JD QD KD AD",
            "6 run: AH 2H 3H 4H 5H 6H",
            "7 run: AC 2C 3C 4C 5C",
            "7 run: 2D 3D 4D 5D 6D 7D 8D 9D",
            "7 run: 10S JS QS KS AS",
            "2 run: 8C 9C 10C JC QC KC AC",
            "2 run: 10H JH QH KH AH",
            "2 run: 3S 4S 5S 6S 7S",
            "3 run: 6D 7D 8D 9D",
            "3 run: AH 2H 3H 4H",
            "3 run: 6S 7S 8S 9S",
            "1 run: 2C 3C 4C 5C 6C",
            "1 run: 10D JD QD KD",
            "1 run: 6H 7H 8H 9H 10H JH QH",
            "0 run: JK=5C 6C 7C 8C 9C",
            "0 run: 3H 4H 5H 6H 7H",
            "0 run: 8H 9H 10H JH",
        ),
        current=0,
    ),
    "preset_000 deal 9": Crowded(
        "preset_000",
        9,
        ((1, 5), (1, 4), (1, 3), (2, 4), (1, 4), (1, 4), (1, 5), (1, 2)),
        (
            "6 run: AH 2H 3H 4H 5H",
            "6 set: 10D 10D 10D 10S 10H 10H",
            "6 set: JC JD JH JC JC JS",
            "6 set: QC QH QS QC QH QD",
            "7 run: 6C 7C 8C 9C 10C",
            "7 set: 5C 5C 5S 5D 5S",
            "7 set: QC QD QH",
            "7 set: KD KH KS KH",
            "1 run: 8S 9S 10S JS QS KS AS",
            "1 set: 3C 3H 3S 3D 3C 3D",
            "1 set: 5D 5D 5H",
            "1 set: 6C 6D 6H 6S 6S",
            "5 run: 7S 8S 9S 10S JS QS",
            "5 set: AD AD AD AH AC",
            "5 set: 4C 4D 4H 4S 4S 4D",
            "5 set: JD JH JH",
            "2 run: 8D 9D JK=10D JD QD",
            "2 set: 7C 7H 7S 7H",
            "2 set: 9D 9H 9S 9C",
            "2 set: 10C 10C 10H",
            "0 run: 2D 3D 4D JK=5D 6D",
            "0 set: 2C 2D 2H 2S",
            "0 set: 8C 8H 8H 8S 8D",
            "0 set: KC KD KH",
            "4 run: AC 2C 3C 4C 5C",
            "4 set: 6C 6D 6H",
            "4 set: 9C 9D 9H",
            "4 set: KC KC KD",
            "3 run: 5H 6H 7H 8H 9H",
            "3 set: 3H 3S 3S",
            "3 set: 4C 4H 4S",
            "3 set: 7C 7D 7D",
        ),
        current=3,
    ),
    "standard deal 9": Crowded(
        "standard",
        9,
        ((2, 7), (1, 6), (1, 2), (1, 3), (1, 3), (1, 4), (1, 5), (1, 3)),
        (
            "4 run: 3H 4H 5H JK=6H 7H",
            "4 set: AC AC AD",
            "4 set: 6C 6D 6D 6S 6H",
            "4 set: 9C 9C 9C 9D JK=9H 9H 9S 9D 9H 9C",
            "2 run: 2C 3C JK=4C 5C 6C",
            "2 set: 3D 3H 3H 3S 3D 3C 3C",
            "2 set: 8C 8H 8S 8D 8S 8C",
            "2 set: KH KH KS KH KC KD",
            "6 run: JK=8H 9H 10H JH QH KH",
            "6 set: AC AH AS",
            "6 set: 8C 8H 8H",
            "6 set: 10C 10D 10H 10H 10S",
            "3 run: 10H JH QH JK=KH AH",
            "3 set: 7C 7D 7H",
            "3 set: 8C 8D 8H",
            "3 set: QC QS QS QD",
            "7 run: JK=4S 5S JK=6S 7S 8S",
            "7 set: 4C 4S 4S 4D 4H",
            "7 set: 6D 6S 6S",
            "7 set: 10D 10D 10S 10S 10S",
            "1 run: 2H 3H 4H 5H 6H",
            "1 set: 4C 4D 4D",
            "1 set: 7D 7D 7S",
            "1 set: KD KD KS KS",
            "5 run: 3D 4D 5D 6D 7D",
            "5 set: 3C 3D 3S",
            "5 set: 4C 4C 4S",
            "5 set: 7C 7C 7H 7S",
            "0 run: 3S 4S 5S JK=6S 7S",
            "0 set: 6C 6C 6H 6H",
            "0 set: 9D 9S 9S",
            "0 set: QC QC QD QD QD QH QS",
        ),
        current=0,
    ),
    "standard deal 10": Crowded(
        "standard",
        10,
        ((1, 7), (1, 5), (1, 5), (1, 5), (1, 6), (1, 5), (2, 6), (1, 5)),
        (
            "7 run: 3D 4D 5D JK=6D 7D 8D 9D 10D JD QD KD AD",
            "7 run: AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
            "7 run: 7S 8S JK=9S 10S JS QS KS",
            "2 run: AC 2C 3C 4C JK=5C 6C 7C 8C 9C",
            "2 run: 9C 10C JC QC KC AC",
            "2 run: 9S JK=10S JS QS KS AS",
            "3 run: 4C 5C 6C 7C 8C 9C 10C JC QC KC",
            "3 run: 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
            "3 run: 5S 6S JK=7S JK=8S 9S 10S JS",
            "1 run: AD 2D 3D 4D 5D 6D 7D 8D",
            "1 run: 9H 10H JH QH KH AH",
            "1 run: AS 2S 3S 4S 5S 6S",
            "5 run: 10C JC QC KC AC",
            "5 run: 2S 3S 4S JK=5S 6S 7S",
            "5 run: 9S 10S JS QS KS",
            "4 run: 3C 4C 5C 6C 7C 8C 9C 10C",
            "4 run: 3D 4D 5D 6D 7D",
            "4 run: 3S 4S 5S 6S 7S 8S",
            "0 run: 2D 3D 4D 5D 6D",
            "0 run: 8D 9D 10D JD QD KD",
            "0 run: JK=6S 7S 8S 9S 10S",
            "6 run: 3C 4C 5C 6C 7C",
            "6 run: 6D 7D 8D 9D 10D",
            "6 run: 4H 5H 6H 7H 8H 9H",
        ),
        current=6,
    ),
    "preset_004 deal 9": Crowded(
        "preset_004",
        9,
        ((1, 2), (1, 3), (1, 2), (1, 2), (2, 3), (1, 3), (1, 2), (1, 3)),
        (
            "1 run: 7D 8D 2D=9D 10D JD 2H=QD KD AD",
            "1 set: 8C 8D 8H 8S 8S",
            "1 set: JC JH JH JS JC",
            "1 set: KH KS KS KH KD KC KC",
            "2 run: 3D 4D JK=5D 6D 7D 8D",
            "2 set: 4C 4C 4D 4H 4C 4H 4D",
            "2 set: 5S 5S 5S 5S 5C 5D 5H",
            "2 set: 10C 10S 2H=10 10D",
            "6 run: 2S 3S JK=4S JK=5S 2C=6S 7S",
            "6 set: AC AC 2H=A",
            "6 set: 3C 3D 3S 3H 3S",
            "6 set: 10C 10H 10H",
            "0 run: 10D 2C=JD QD KD AD",
            "0 set: 3C 3D 3H",
            "0 set: 4H 4S 2H=4",
            "0 set: 8C 8D 2S=8",
            "7 run: 5D 6D 7D JK=8D 9D",
            "7 set: JC JD JS",
            "7 set: QC QH QS QD",
            "7 set: KC KD KS",
            "3 run: JK=2H 3H 2D=4H 5H 6H",
            "3 set: 9C 9S 9S",
            "3 set: 10C 10H 10S",
            "3 set: QC QC QH QS",
            "5 run: 2C=3H 4H 5H 6H 7H 8H",
            "5 set: 5C 5C 5D",
            "5 set: 9D 9H 9S",
            "5 set: JC JD JS JS",
            "4 run: 9S JK=10S JK=JS QS KS",
            "4 set: AH AS 2D=A",
            "4 set: 3C 3D 3S",
            "4 set: 6C 6S 6S",
        ),
        current=4,
    ),
}


def crowded(name: str, *, widest: bool = False, seats: int = 8) -> PlayerView:
    """``CROWDED[name]`` as seat 0 sees it, with long names; ``widest``: every seat's lines
    at their widest as well (25 cards in hand, 12 buys, a four-digit total); ``seats``: only
    the first ones, with their melds."""
    case = CROWDED[name]
    rules = Rules.preset(case.preset).with_options(buy_limit="unlimited")
    players = tuple(
        SeatView(
            LONG_NAMES[seat],
            25 if widest else hand,
            True,
            12 if widest else buys,
            1234 if widest else 100 + 37 * seat,
        )
        for seat, (hand, buys) in enumerate(case.seats[:seats])
    )
    melds = tuple(
        TableMeld(int(owner), Meld.parse(text))
        for owner, text in (meld.split(" ", 1) for meld in case.melds)
        if int(owner) < seats
    )
    return replace(
        table_view(8),
        rules=rules,
        deal=case.deal,
        contract=rules.contract_for(case.deal),
        seats=players,
        melds=melds,
        buy_limit=None,
        current=case.current % seats,
        dealer=0,
        hand=HAND_15[: case.seats[0][0]],
    )


@pytest.mark.parametrize("widest", [False, True])
@pytest.mark.parametrize("compact", [False, True])
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", CROWDED)
def test_the_most_crowded_tables_keep_every_glyph_8_px_tall_at_300_px(
    name: str, language: Language, compact: bool, widest: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every seat down with its melds laid off on: the same square, every text, rank and
    suit at least 8 px tall at 300 px wide, every meld drawn (and numbered) inside its row."""
    drawn = drawing(monkeypatch)
    view = crowded(name, widest=widest)
    data = render_table(view, compact=compact, language=language)
    assert Image.open(io.BytesIO(data)).size == (SIZE, SIZE)
    layout = layout_table(view, compact=compact, language=language)
    tile = layout.scale.tile
    assert at_phone(tile.rank_cap) >= MIN_GLYPH and at_phone(tile.suit_height) >= MIN_GLYPH
    assert layout.buys or widest  # only the widest seat lines leave the buys to the text
    assert drawn
    for text in drawn:
        assert at_phone(text.size * CAP_HEIGHT) >= MIN_GLYPH, text
        left, top, right, bottom = text.box
        assert left >= 0 and top >= 0 and right <= SIZE and bottom <= SIZE, text
    numbers = sorted(meld.number for row in layout.rows for meld in row.melds)
    assert numbers == list(range(1, len(view.melds) + 1))
    for row in layout.rows:
        assert layout.head <= row.top and row.top + row.height <= SIZE
        for meld in row.melds:
            for where in meld.tiles:
                assert row.top <= where.y and where.y + tile.height <= row.top + row.height
                assert where.x + tile.width <= SIZE - px(OUTER)


@pytest.mark.parametrize("seats", [5, 6, 7])
@pytest.mark.parametrize("compact", [False, True])
def test_fewer_crowded_seats_keep_the_legible_size(seats: int, compact: bool) -> None:
    """The same tables with fewer seats: taller rows, the same legible cards, no shrinking."""
    for name in CROWDED:
        view = crowded(name, seats=seats)
        layout = layout_table(view, compact=compact)
        assert layout.scale.factor >= 1 and len(layout.rows) == seats, name
        assert Image.open(io.BytesIO(render_table(view, compact=compact))).size == (
            SIZE,
            layout.height,
        )


@pytest.mark.parametrize("compact", [False, True])
@pytest.mark.parametrize("name", CROWDED)
def test_the_most_crowded_tables_ink_is_at_least_8_px_tall_at_300_px(
    name: str, compact: bool
) -> None:
    assert _measure_ink(crowded(name), compact) >= len(CROWDED[name].melds)


@pytest.mark.parametrize("name", CROWDED)
def test_a_summarised_meld_keeps_what_players_act_on(name: str) -> None:
    """A run keeps its ends (where cards go) and a set its rank; what is left out is stood
    for by bridges of card edges, which cover no rank, and no badge covers a rank."""
    view = crowded(name)
    for compact in (False, True):
        layout = layout_table(view, compact=compact)
        summarised = [meld for row in layout.rows for meld in row.melds if meld.summarised]
        assert summarised, name  # these tables are too full for every card
        boxes = list(tiles(layout))
        for placed in summarised:
            cards = placed.meld.cards
            shown = [where.index for where in placed.tiles]
            hidden = len(cards) - len(shown)
            assert len(set(shown)) == len(shown) and hidden > 0
            if placed.meld.kind == "run":
                assert shown[0] == 0 and shown[-1] == len(cards) - 1
                assert shown == sorted(shown)
            else:
                assert not cards[shown[0]].is_wild_in("set", view.rules)
            assert sum(hidden_here for _, _, hidden_here in placed.bridges) == hidden
            for x, _, _ in placed.bridges:
                before = [where for where in placed.tiles if where.x < x]
                assert before and all(where.rank.right <= x for where in before)
            if placed.badge is not None:
                for rank, suit in boxes:
                    assert not placed.badge.overlaps(rank) and not placed.badge.overlaps(suit)


@pytest.mark.parametrize("compact", [False, True])
def test_a_table_with_room_draws_every_card(compact: bool) -> None:
    for players in SEATS:
        layout = layout_table(long_named(players), compact=compact)
        assert not any(meld.summarised for row in layout.rows for meld in row.melds)
        assert layout.scale.factor >= 1


# -- four colours ------------------------------------------------------------------------------


def _near(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 30) -> int:
    rgb = image.convert("RGB")
    return sum(
        count
        for count, pixel in rgb.getcolors(1 << 20) or []
        if isinstance(pixel, tuple)
        and all(abs(p - c) <= tolerance for p, c in zip(pixel, colour, strict=True))
    )


def test_four_colour_suits_are_a_rendering_choice_off_by_default() -> None:
    club, diamond = Card.parse("7C"), Card.parse("7D")
    tile = TileSize(58)
    assert _near(meld_tile(club, tile), CLUB_GREEN) == 0
    assert _near(meld_tile(club, tile, four_colour=True), CLUB_GREEN) > 40
    assert _near(meld_tile(diamond, tile, four_colour=True), DIAMOND_BLUE) > 40
    view = table_view(8)
    assert render_table(view) == render_table(view, four_colour=False)
    four = Image.open(io.BytesIO(render_table(view, four_colour=True)))
    assert _near(four, CLUB_GREEN, 20) > 200 and _near(four, DIAMOND_BLUE, 20) > 200
    hand = Image.open(io.BytesIO(draw_hand(HAND_15, four_colour=True)))
    assert _near(hand, CLUB_GREEN, 20) > 100
    assert draw_hand(HAND_15) != draw_hand(HAND_15, four_colour=True)


async def test_four_colour_passes_through_the_attachments() -> None:
    view = table_view(4)
    names = [seat.player for seat in view.seats]
    plain = await table_png(view, names, compact=True)
    four = await table_png(view, names, compact=True, four_colour=True)
    assert plain != four and four == render_table(view, compact=True, four_colour=True)
    hand = parse_cards("7C 8C 9C 7D")
    assert (await hand_picture_for(hand)).fp.read() != (
        await hand_picture_for(hand, four_colour=True)
    ).fp.read()


# -- the score sheet ---------------------------------------------------------------------------

TIED_NAMES = ("Alice", "Bob", "Carol", "Dave")
TIED_SHEET = ((10, 10, 30, 0), (20, 20, 0, 40), (0, 0, 25, 15))


def _chart(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data)).convert("RGB")
    top = HEADER_HEIGHT + 12 + (len(TIED_SHEET) + 2) * ROW_HEIGHT + 16  # below the scores
    return image.crop((60, top + 34, image.width - 16, top + CHART_HEIGHT - 30))


def test_tied_players_lines_both_show() -> None:
    """Alice and Bob have the same running totals all game: both lines are visible."""
    chart = _chart(render_score_sheet(TIED_NAMES, TIED_SHEET))
    for player in range(len(TIED_NAMES)):
        assert _near(chart, PLAYER_COLOURS[player], 25) > 400, TIED_NAMES[player]


def test_equal_values_are_spread_and_others_stay() -> None:
    assert dodge([5, 5, 7], 4.0) == [-2.0, 2.0, 0.0]
    assert dodge([1, 2, 3], 4.0) == [0.0, 0.0, 0.0]


def test_the_score_sheet_marks_the_winners_and_ties(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[str] = []
    original = ImageDraw.ImageDraw.text

    def recording(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kw: Any) -> Any:
        drawn.append(str(text))
        return original(self, xy, text, *args, **kw)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recording)
    final = render_score_sheet(TIED_NAMES, TIED_SHEET, winners=[0, 1])

    def count(word: str) -> int:
        return sum(word in text.split() for text in drawn)

    assert count(t("picture.winner", "en")) == 2  # Alice and Bob share the win
    assert count(t("picture.tied", "en")) == 4  # 30, 30 and 55, 55
    image = Image.open(io.BytesIO(final)).convert("RGB")
    row = HEADER_HEIGHT + 12 + (len(TIED_SHEET) + 1) * ROW_HEIGHT
    totals = image.crop((0, row, image.width, row + ROW_HEIGHT))
    assert _near(totals, GOLD, 20) > 500  # the winners' totals on gold
    drawn.clear()
    render_score_sheet(TIED_NAMES, TIED_SHEET, "nl", winners=[2])
    assert count("winnaar") == 1
    # In play: the leaders are starred, nobody is called the winner.
    drawn.clear()
    leading = render_score_sheet(TIED_NAMES, TIED_SHEET)
    assert t("picture.winner", "en") not in drawn
    assert leading != final and leading != render_score_sheet(TIED_NAMES, TIED_SHEET[:1])


def test_every_number_on_the_score_sheet_is_8_px_tall_at_300_px(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every text the sheet draws (scores, totals, deal numbers, the chart's axes, names) is
    drawn at a size whose digits are at least 8 px tall once the picture is 300 px wide; and
    the digits' ink at the sheet's size measures so."""
    sizes: list[tuple[str, int]] = []
    original = ImageDraw.ImageDraw.text

    def recording(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kw: Any) -> Any:
        face = kw.get("font")
        if isinstance(face, ImageFont.FreeTypeFont) and self.im.size[0] == SHEET_WIDTH:
            sizes.append((str(text), round(face.size)))
        return original(self, xy, text, *args, **kw)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recording)
    for language in LANGUAGES:
        data = render_score_sheet(LONG_NAMES, SHEET_8x10, language, winners=[0])
        assert Image.open(io.BytesIO(data)).width == SHEET_WIDTH
    numbers = [size for text, size in sizes if any(c.isdigit() for c in text)]
    assert len(numbers) > 80 + 8  # the 80 scores, the totals, the axes
    assert all(size * CAP_HEIGHT * PHONE_WIDTH / SHEET_WIDTH >= 8 for _, size in sizes)
    # The ink: digits drawn with the sheet's font, measured at the phone's scale.
    canvas = Image.new("L", (400, 100), 0)
    ImageDraw.Draw(canvas).text((10, 10), "0123456789", fill=255, font=font(SHEET_TEXT))
    box = canvas.getbbox()
    assert box is not None
    assert (box[3] - box[1]) * PHONE_WIDTH / SHEET_WIDTH >= 8


@pytest.mark.parametrize("width", [300, 400])
def test_the_score_sheet_scaled_keeps_its_numbers_apart(width: int) -> None:
    """Scaled to a phone's and a desktop's width, the totals row still holds one dark blob
    of ink per player (digits that did not melt into their neighbours' column)."""
    names = LONG_NAMES[:4]
    sheet = [row[:4] for row in SHEET_8x10]
    image = scaled(render_score_sheet(names, sheet), width)
    factor = width / SHEET_WIDTH
    row = HEADER_HEIGHT + 12 + (len(sheet) + 1) * ROW_HEIGHT
    band = image.crop((0, round(row * factor), width, round((row + ROW_HEIGHT) * factor)))
    dark = [
        any(sum(band.getpixel((x, y))) < 200 for y in range(band.height)) for x in range(band.width)
    ]
    runs = sum(1 for x in range(1, len(dark)) if dark[x] and not dark[x - 1])
    assert runs >= 1 + 4  # "Total" and four totals, each apart


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_line_of_the_text_sheet_fits_a_phone(language: Language) -> None:
    """Eight long names, ten deals of three-digit scores: a code block whose rows stay under
    ``TEXT_WIDTH`` characters, one row a player (none breaks on a phone), every total there,
    the names told apart, the leaders and who went out marked."""
    sheet = [[100 + deal * 10 + p for p in range(8)] for deal in range(9)]
    sheet.append([0, *(150 + p for p in range(7))])
    names = [*LONG_NAMES[:7], "a*b_c"]
    text = score_sheet_text(names, sheet, language)
    lines = text.splitlines()
    assert lines[0] == lines[10] == "```" and len(lines) == 12
    rows = lines[2:10]
    assert max(len(visible(line)) for line in lines[:11]) <= SHEET_TEXT_WIDTH
    totals = [sum(row[p] for row in sheet) for p in range(8)]
    assert [int(row.split()[-1 if p else -2]) for p, row in enumerate(rows)] == totals
    assert len({row[:12] for row in rows}) == 8  # no two names alike
    assert [row for row in rows if "★" in row] == [row for row in rows if "✓" in row] == [rows[0]]
    assert rows[7].startswith("a*b_c ")  # in a code block a name's markdown is only shown
    assert len(text) <= 1024  # fits an embed field (the finished table's)


@pytest.mark.parametrize(
    ("language", "hands", "head", "legend"),
    [
        ("en", False, ["Deal", "Total"], "-# ★ leads"),
        ("nl", False, ["Ronde", "Totaal"], "-# ★ voorop"),
        ("es", False, ["Ronda", "Total"], "-# ★ en cabeza"),
        ("en", True, ["Hand", "Total"], "-# ★ leads"),
    ],
)
def test_each_players_row_gives_the_deal_score_and_the_total(
    language: Language, hands: bool, head: list[str], legend: str
) -> None:
    """The last deal's score and the running total stand under heads in the glossary's
    words, one row a player; the marks are explained under the rows; once the game is over
    no leader is starred (the standings crown the winner)."""
    text = score_sheet_text(["ann", "bo"], [[90, 5], [-50, 100]], language, hands=hands)
    lines = text.splitlines()
    assert lines[1].split() == head
    assert lines[2].split() == ["ann", "-50", "40", "★"]
    assert lines[3].split() == ["bo", "100", "105"]
    assert lines[-1] == legend
    over = score_sheet_text(["ann", "bo"], [[90, 5], [-50, 100]], language, over=True)
    assert "★" not in over and over.splitlines()[2].split() == ["ann", "-50", "40"]


# -- the hand ----------------------------------------------------------------------------------


async def test_proposed_lay_down_changes_the_hand_picture() -> None:
    hand = parse_cards("8H 8S 8C KD KC KS 3D 5C 7S 9H JD 8H")
    plain = (await hand_picture_for(hand)).fp.read()
    proposal = parse_cards("8H 8S 8C KD KC KS")
    highlighted = (await hand_picture_for(hand, proposal)).fp.read()
    again = (await hand_picture_for(hand, proposal)).fp.read()
    assert (
        plain.startswith(b"RIFF")
        and plain[8:12] == b"WEBP"
        and highlighted != plain
        and highlighted == again
    )
