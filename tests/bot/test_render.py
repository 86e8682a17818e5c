"""The Pillow pictures: sizes, determinism, every card visible, highlights, golden images.

Golden images live in ``tests/bot/golden/``; after an intended change to the pictures, look at
the new ones and refresh them with ``UPDATE_GOLDEN=1 pytest tests/bot/test_render.py``.
"""

from __future__ import annotations

import io
import os
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.screens import draw_hand, render_in_thread, render_score_sheet, render_table
from bot.screens._draw import CARD_BG, FELT, JOKER_PURPLE, RED, drawable
from bot.screens.cards import HAND, TABLE, card_face, clear_caches
from bot.screens.hand_picture import MARGIN, RAISE, layout_hand
from bot.screens.samples import HAND_15, NAMES, SHEET_8x10, table_view
from bot.screens.score_sheet import PLAYER_COLOURS
from bot.screens.score_sheet import WIDTH as SHEET_WIDTH
from bot.screens.short_names import char_fits, distinct_names
from bot.screens.table_picture import COMPACT_HEIGHTS, SIZE, layout_table
from bot.screens.text import score_sheet_text
from engine import Game, Rules, parse_action
from engine.cards import Card, parse_cards
from engine.melds import Meld
from engine.view import PlayerView, TableMeld

GOLDEN = Path(__file__).parent / "golden"
LONG = (
    "Bartholomew the Magnificent",
    "Bartholomew the Mighty",
    "Computer 1 (makkelijk)",
    "Computer 2 (makkelijk)",
    "Wolfeschlegelsteinhausen",
    "Wolfeschlegelsteinhausen2",
)
UPDATE_GOLDEN = os.environ.get("UPDATE_GOLDEN") == "1"
#: Mean absolute difference per channel (0-255) a picture may drift from its golden image
#: (a different FreeType build shifts anti-aliasing a little; a layout change moves far more),
#: and the share of pixels that may change a lot (a colour change shows here, not in the mean).
GOLDEN_TOLERANCE = 1.5
GOLDEN_CHANGED_SHARE = 0.005


def png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGB")


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    assert a.size == b.size
    stat = ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB")))
    return sum(stat.mean) / len(stat.mean)


def near(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int = 12) -> bool:
    return all(abs(p - c) <= tolerance for p, c in zip(pixel, colour, strict=False))


def count_near(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 12) -> int:
    """How many pixels of the RGB ``image`` are within ``tolerance`` of ``colour``."""
    total = 0
    for count, pixel in image.convert("RGB").getcolors(maxcolors=1 << 24) or []:
        assert isinstance(pixel, tuple)
        if near(pixel, colour, tolerance):
            total += count
    return total


def on_felt(face: Image.Image) -> Image.Image:
    ground = Image.new("RGB", face.size, FELT)
    ground.paste(face, (0, 0), face)
    return ground


# -- cards -------------------------------------------------------------------------------------


def test_card_faces_have_their_size_and_transparent_corners() -> None:
    face = card_face(Card.parse("10H"), HAND)
    assert face.size == (HAND.width, HAND.height) == (88, 123)
    assert face.mode == "RGBA"
    assert face.getpixel((0, 0))[3] == 0  # type: ignore[index]
    assert face.getpixel((HAND.width // 2, HAND.height // 2))[3] == 255  # type: ignore[index]
    assert card_face(Card.parse("10H"), TABLE).size == (TABLE.width, TABLE.height)


def test_hearts_and_diamonds_are_red_clubs_and_spades_black() -> None:
    def red_pixels(text: str) -> int:
        box = HAND.index_box
        return count_near(on_felt(card_face(Card.parse(text), HAND)).crop(box), RED, 40)

    assert red_pixels("5H") > 40 and red_pixels("QD") > 40
    assert red_pixels("5S") == 0 and red_pixels("QC") == 0


def test_faces_differ_by_rank_suit_and_joker() -> None:
    faces = [card_face(Card.parse(t), HAND).tobytes() for t in ("9S", "9C", "8S", "JK")]
    assert len(set(faces)) == 4


def test_a_wild_on_the_table_shows_its_identity() -> None:
    joker = Card.parse("JK")
    plain = card_face(joker, TABLE)
    as_8h = card_face(joker, TABLE, identity=(8, "H"))
    as_8s = card_face(joker, TABLE, identity=(8, "S"))
    as_9h = card_face(joker, TABLE, identity=(9, "H"))
    assert len({plain.tobytes(), as_8h.tobytes(), as_8s.tobytes(), as_9h.tobytes()}) == 4
    # The tag sits in the index column, which stays visible when the meld overlaps.
    column = (0, 0, TABLE.step - 1, TABLE.height)
    assert mean_difference(as_8h.crop(column), as_9h.crop(column)) > 1
    # A deuce played as a wild is marked too; a natural deuce is not.
    deuce = Card.parse("2C")
    assert (
        card_face(deuce, TABLE, identity=(10, "S")).tobytes() != card_face(deuce, TABLE).tobytes()
    )
    assert count_near(on_felt(card_face(deuce, TABLE)), JOKER_PURPLE, 20) == 0
    assert count_near(on_felt(card_face(deuce, TABLE, identity=(10, "S"))), JOKER_PURPLE, 20) > 50


def test_the_joker_is_purple_and_naturals_are_not() -> None:
    assert count_near(on_felt(card_face(Card.parse("JK"), HAND)), JOKER_PURPLE, 20) > 500
    assert count_near(on_felt(card_face(Card.parse("KS"), HAND)), JOKER_PURPLE, 20) == 0


# -- hands -------------------------------------------------------------------------------------


def test_hand_image_has_the_layout_size() -> None:
    layout = layout_hand(HAND_15)
    image = png(draw_hand(HAND_15))
    assert image.size == (layout.width, layout.height)
    # One row of 15 overlapping cards: far narrower than 15 cards side by side.
    assert HAND.width * 4 < image.width < HAND.width * 15
    assert image.height == 2 * MARGIN + RAISE + HAND.height


def test_a_long_hand_takes_two_rows() -> None:
    one_row = png(draw_hand(HAND_15)).size
    two_rows = png(draw_hand(HAND_15 + HAND_15[:6])).size
    assert two_rows[1] > 2 * HAND.height > one_row[1]
    assert two_rows[0] < one_row[0]


def test_hand_renders_are_byte_identical() -> None:
    first = draw_hand(HAND_15, highlight={0, 3})
    clear_caches()
    assert draw_hand(HAND_15, highlight={0, 3}) == first  # cold caches, same bytes
    assert draw_hand(HAND_15, highlight=[3, 0]) == first


@pytest.mark.parametrize("group_by", ["suit", "rank"])
def test_every_card_of_the_hand_shows_its_index(group_by: str) -> None:
    highlight = {0, 4, 14}
    layout = layout_hand(HAND_15, highlight=highlight, group_by=group_by)  # type: ignore[arg-type]
    image = png(draw_hand(HAND_15, highlight=highlight, group_by=group_by))  # type: ignore[arg-type]
    assert sorted(slot.index for slot in layout.slots) == list(range(len(HAND_15)))
    # The visible strip of each card: its index column, below the rounded corner.
    strip = (3, 9, HAND.step - 1, HAND.index_box[3])
    candidates = {
        (card, lifted): on_felt(card_face(card, HAND, highlight=lifted)).crop(strip)
        for card in set(HAND_15)
        for lifted in (False, True)
    }
    for slot in layout.slots:
        assert slot.highlighted == (slot.index in highlight)
        left, top, right, bottom = strip
        seen = image.crop((slot.x + left, slot.y + top, slot.x + right, slot.y + bottom))
        scores = {key: mean_difference(seen, crop) for key, crop in candidates.items()}
        expected = (slot.card, slot.highlighted)
        assert scores[expected] < 2.5, (slot, scores[expected])
        others = [score for key, score in scores.items() if key != expected]
        assert min(others) > scores[expected] + 3, (slot, sorted(scores.items(), key=str))


def test_hand_is_sorted_and_grouped_by_suit_or_rank() -> None:
    by_suit = [slot.card for slot in layout_hand(HAND_15).slots]
    assert by_suit == sorted(HAND_15, key=Card.sort_key)
    by_rank = [slot.card for slot in layout_hand(HAND_15, group_by="rank").slots]
    ranks = [card.rank for card in by_rank if not card.is_joker]
    assert ranks == sorted(ranks) and by_rank[-2:] == [Card.parse("JK")] * 2
    # A gap separates groups: the offset grows between suits, not within one.
    xs = [slot.x for slot in layout_hand(parse_cards("3H 4H 5S")).slots]
    assert xs[1] - xs[0] == HAND.step < xs[2] - xs[1]


def test_highlighted_cards_are_raised_and_outlined() -> None:
    plain = png(draw_hand(HAND_15))
    marked = png(draw_hand(HAND_15, highlight={2}))
    assert plain.size == marked.size
    assert mean_difference(plain, marked) > 0.5
    slot = next(s for s in layout_hand(HAND_15, highlight={2}).slots if s.index == 2)
    assert slot.y == MARGIN and slot.highlighted
    # Above the other cards only the raised card shows, in the highlight colours.
    band = (slot.x + 10, MARGIN + 4, slot.x + HAND.step - 2, MARGIN + RAISE - 2)
    assert mean_difference(marked.crop(band), Image.new("RGB", (band[2] - band[0], 14), FELT)) > 50
    assert plain.crop(band).getcolors() == [((band[2] - band[0]) * 14, FELT)]


def test_highlight_outside_the_hand_is_refused() -> None:
    with pytest.raises(ValueError, match="15 cards"):
        draw_hand(HAND_15, highlight={15})


def test_an_empty_hand_still_renders() -> None:
    image = png(draw_hand([]))
    assert image.width > HAND.width and image.height > HAND.height


# -- table -------------------------------------------------------------------------------------


def _meld_area(image: Image.Image, view: PlayerView, *, compact: bool = False) -> Image.Image:
    """The part of the picture right of the seats' names, below the header."""
    layout = layout_table(view, compact=compact)
    return image.crop((round(layout.scale.melds_left), round(layout.head), SIZE, SIZE))


def test_eight_player_table_without_melds() -> None:
    view = replace(
        table_view(8),
        melds=(),
        seats=tuple(replace(seat, is_down=False) for seat in table_view(8).seats),
        upcard=None,
    )
    image = png(render_table(view))
    assert image.size == (SIZE, SIZE)
    # No card faces anywhere right of the names: bare felt and "not down".
    assert count_near(_meld_area(image, view), CARD_BG, 3) == 0
    assert count_near(image, JOKER_PURPLE, 20) == 0


def test_mid_game_table_shows_melds_with_jokers() -> None:
    view = table_view(8)
    image = png(render_table(view))
    assert image.size == (SIZE, SIZE)
    rows = _meld_area(image, view)
    assert count_near(rows, CARD_BG, 3) > 20_000
    assert count_near(rows, JOKER_PURPLE, 20) > 1_000


def test_table_keeps_its_size_with_seats_and_renders_for_spectators() -> None:
    four = png(render_table(table_view(4)))
    eight = png(render_table(table_view(8)))
    assert four.size == eight.size == (SIZE, SIZE)
    spectator = render_table(table_view(8, seat=None))
    assert spectator != render_table(table_view(8))  # no "you" badge for a spectator


def test_table_renders_are_byte_identical_and_small() -> None:
    first = render_table(table_view(8))
    clear_caches()
    assert render_table(table_view(8)) == first
    assert len(first) < 300 * 1024


def test_each_wild_on_the_table_shows_its_identity() -> None:
    view = table_view(8)
    as_9h = replace(view, melds=(TableMeld(0, Meld.parse("set: 9S 9C JK=9H")),))
    as_9d = replace(view, melds=(TableMeld(0, Meld.parse("set: 9S 9C JK=9D")),))
    natural = replace(view, melds=(TableMeld(0, Meld.parse("set: 9S 9C 9H")),))
    images = [png(render_table(v)) for v in (as_9h, as_9d, natural)]
    assert mean_difference(images[0], images[1]) > 0
    tags = [
        count_near(_meld_area(i, v), JOKER_PURPLE, 20)
        for i, v in zip(images, (as_9h, as_9d, natural), strict=True)
    ]
    # The same wild tile, another suit in its window: about the same purple, none without it.
    assert tags[0] > 0 and abs(tags[0] - tags[1]) < tags[0] / 50 and tags[2] == 0


def test_upcard_live_and_dead_differ() -> None:
    view = table_view(8)
    assert render_table(view) != render_table(replace(view, upcard_live=False))


# -- score sheet -------------------------------------------------------------------------------


def test_score_sheet_for_eight_players_and_ten_deals() -> None:
    data = render_score_sheet(NAMES, SHEET_8x10)
    image = png(data)
    assert image.width == SHEET_WIDTH and 600 < image.height < 1000
    assert len(data) < 60 * 1024
    assert render_score_sheet(NAMES, SHEET_8x10) == data
    # Every player's colour is distinct and drawn (table header, lines, legend).
    assert len(set(PLAYER_COLOURS)) == len(PLAYER_COLOURS) >= 8
    for colour in PLAYER_COLOURS:
        assert count_near(image, colour, 10) > 300, colour


def test_score_sheet_grows_with_deals_and_handles_none() -> None:
    heights = [png(render_score_sheet(NAMES, SHEET_8x10[:n])).height for n in (0, 1, 10)]
    assert heights[0] < heights[1] < heights[2]


def test_score_sheet_refuses_ragged_rows() -> None:
    with pytest.raises(ValueError, match="Deal 2 has 7 scores for 8 players"):
        render_score_sheet(NAMES, [SHEET_8x10[0], SHEET_8x10[1][:7]])


# -- text and threads --------------------------------------------------------------------------


def test_names_are_reduced_to_drawable_text() -> None:
    assert drawable("Chloé") == "Chloé"
    assert drawable("🎲 Dice  Master") == "Dice Master"
    assert drawable("たろう") == ""


async def test_render_in_thread_gives_the_same_bytes() -> None:
    assert await render_in_thread(draw_hand, HAND_15, highlight={1}) == draw_hand(
        HAND_15, highlight={1}
    )


# -- golden images -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "render"),
    [
        ("hand_15", lambda: draw_hand(HAND_15, highlight={0, 1, 2, 3})),
        ("hand_by_rank", lambda: draw_hand(HAND_15[:11], group_by="rank")),
        ("table_8", lambda: render_table(table_view(8))),
        ("table_8_compact", lambda: render_table(table_view(8), compact=True)),
        # The table message's picture: seats and melds, no turn (the text says whose).
        ("table_4_message", lambda: render_table(table_view(4), compact=True, mark_turn=False)),
        ("table_2_four_colour", lambda: render_table(table_view(2), four_colour=True)),
        ("score_sheet_8x10", lambda: render_score_sheet(NAMES, SHEET_8x10)),
    ],
)
def test_matches_golden_image(name: str, render: object) -> None:
    assert callable(render)
    data = render()
    assert isinstance(data, bytes)
    path = GOLDEN / f"{name}.png"
    if UPDATE_GOLDEN:
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(data)
    if not path.exists():
        pytest.fail(f"No golden image {path}; create it with UPDATE_GOLDEN=1")
    golden = Image.open(path).convert("RGB")
    image = png(data)
    assert image.size == golden.size
    assert mean_difference(image, golden) <= GOLDEN_TOLERANCE
    changed = ImageChops.difference(image, golden).convert("L").point(lambda v: 255 * (v > 48))
    share = (changed.histogram()[255]) / (image.width * image.height)
    assert share <= GOLDEN_CHANGED_SHARE, f"{share:.2%} of the pixels changed"


def test_compact_table_is_numbered_and_marks_the_turn() -> None:
    """Issue 10.4 and 24: the table message's picture is as wide as the full one (as low as
    its cards allow: a fresh deal the lowest), melds numbered like the text; it now marks the
    seat to move, so a turn that changes neither seats nor melds changes it (only where the
    gold frame goes), and the same table draws the same bytes."""
    game = Game.new(["1", "2", "3"], Rules.preset("standard"), seed=2)
    before = render_table(game.view(None), compact=True)
    assert png(before).size == (SIZE, min(COMPACT_HEIGHTS))
    assert render_table(game.view(None), compact=True) == before
    player = game.current_player
    game.apply(player, parse_action("draw"))
    card = game.hand_of(player)[0]
    game.apply(player, parse_action(f"discard {card}"))  # the turn passes: same seats, melds
    after = render_table(game.view(None), compact=True)
    assert after != before
    assert render_table(game.view(None), compact=True) == after


def test_without_the_turn_marker_a_turn_leaves_the_compact_picture_as_it_was() -> None:
    """``mark_turn=False``: the table message's picture need not be uploaded again on a turn
    that changes no seat or meld (issue 10's saving, for the publisher to choose)."""
    game = Game.new(["1", "2", "3"], Rules.preset("standard"), seed=2)
    before = render_table(game.view(None), compact=True, mark_turn=False)
    assert before != render_table(game.view(None), compact=True)
    player = game.current_player
    game.apply(player, parse_action("draw"))
    game.apply(player, parse_action(f"discard {game.hand_of(player)[0]}"))
    assert render_table(game.view(None), compact=True, mark_turn=False) == before


def test_the_text_sheet_cuts_long_names_alike_and_keeps_them_apart() -> None:
    names = ["alice", "Maximiliana Fernández-Castillo de la Vega", "Zoë", "Bartholomew"]
    names += ["Bartholomew2", "Computer 1 (normal)", "Computer 2 (easy)"]
    text = score_sheet_text(names, [[0, 10, 5, 7, 8, 9, 11]], "nl")
    lines = text.splitlines()
    assert lines[0] == "```" and lines[9] == "```"  # one row a player, none broken
    assert lines[1].split() == ["Ronde", "Totaal"]
    rows = lines[2:9]
    assert rows[0] == "alice" + " " * 7 + "     0      0 ★✓"
    shown = [row[:12].rstrip() for row in rows]
    assert shown[1].startswith("Maximilia") and shown[1].endswith("…")
    assert shown[2] == "Zoë" and shown[3:5] == ["Bartholomew", "Bartholomew2"]
    assert shown[5:] == ["Computer 1", "Computer 2"]  # "(normal)" tells nobody apart
    assert len(set(shown)) == len(shown)
    assert lines[-1] == "-# ★ voorop · ✓ ging uit"


def test_names_cut_narrow_stay_apart() -> None:
    """The same cut on every line, and a number or an end where two cuts would meet."""
    fits = char_fits(8)
    computers = ["Computer 1 (normal)", "Computer 2 (easy)", "Computer 3 (normal)", "you"]
    assert distinct_names(computers, fits) == ["Compu… 1", "Compu… 2", "Compu… 3", "you"]
    assert distinct_names(["Bartholomew", "Bartholomew2"], fits) == ["Bartho…w", "Bartho…2"]
    assert distinct_names(["Sam", "Sam"], fits) == ["Sam 1", "Sam 2"]
    assert all(len(cut) <= 8 for cut in distinct_names(list(LONG), fits))
    assert len(set(distinct_names(list(LONG), fits))) == len(LONG)
