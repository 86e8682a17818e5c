"""The public table as a PNG, from one player's view: one square shape for 2 to 8 seats (the
compact picture as low as its cards allow).

Discord shows an embed's picture at most about 400 px wide and 300 px tall on a desktop and
about 300 px wide on a phone, so the picture is a square (``SIZE`` pixels) drawn to read at
300 px wide: every rank, suit, name and label is at least ``MIN_GLYPH`` (8) px tall there.

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

The modules, in the order they build on each other: ``measures`` (the square, phone pixels,
the scale and the boxes of a layout), ``names`` (seat names shortened to fit), ``summaries``
(how much of each meld is drawn, melds in lines), ``layout`` (``layout_table``) and
``drawing`` (``render_table``).
"""

from __future__ import annotations

from bot.screens.table_picture.drawing import render_table
from bot.screens.table_picture.layout import layout_at, layout_table
from bot.screens.table_picture.measures import (
    COMPACT_HEIGHTS,
    HEIGHT,
    MIN_GLYPH,
    PHONE,
    PHONE_WIDTH,
    SIZE,
    WIDTH,
    Box,
    PlacedMeld,
    PlacedTile,
    Row,
    TableLayout,
)
from bot.screens.table_picture.names import name_lines, seat_label, short_name

__all__ = [
    "COMPACT_HEIGHTS",
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
    "layout_at",
    "layout_table",
    "name_lines",
    "render_table",
    "seat_label",
    "short_name",
]
