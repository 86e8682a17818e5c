"""Pictures as Discord attachments: the hand, the table and the score sheet.

Rendering (``bot.screens``) takes a few milliseconds of CPU, tens on a cold cache, so it always
runs in a worker thread: no interaction waits on it past its 3-second deadline. The text of
every message stays complete without the picture, for screen readers and for members who do
not load attachments.
"""

from __future__ import annotations

import hashlib
import io
from collections import OrderedDict
from collections.abc import Collection, Sequence
from dataclasses import replace
from typing import Any

import discord
from PIL import Image

from bot.i18n import DEFAULT_LANGUAGE, Language, t
from bot.screens import draw_hand, render_in_thread, render_score_sheet, render_table
from engine.cards import Card
from engine.view import PlayerView

TABLE_FILE = "table.webp"
HAND_FILE = "hand.webp"
SHEET_FILE = "scores.png"


def _file(png: bytes, name: str, description: str) -> discord.File:
    return discord.File(io.BytesIO(png), filename=name, description=description)


#: Table pictures drawn lately, by ``table_key``: a picture that comes back (a message moved
#: to the bottom, a snapshot drawn twice) is not drawn again.
_TABLES: OrderedDict[str, bytes] = OrderedDict()
_TABLES_KEPT = 32


def table_key(
    view: PlayerView,
    names: Sequence[str],
    *,
    compact: bool = False,
    language: Language = DEFAULT_LANGUAGE,
    four_colour: bool = False,
    mark_turn: bool = True,
) -> str:
    """A digest of what the table picture draws, and only that: two views with the same key
    give the same picture. The compact picture without the turn's mark draws the seats and
    their melds only, so its key (and its bytes) stay the same while just the upcard, the
    stock or the turn changes: the message keeps its attachment instead of a new upload."""
    drawn: tuple[object, ...] = (
        tuple(names),
        view.seats,
        view.melds,
        view.rules.model_dump_json(),
        view.buy_limit,
        view.dealer,
        view.seat,
        language,
        four_colour,
        compact,
        mark_turn,
    )
    if mark_turn or not compact:
        drawn += (view.current, view.step, view.is_over)
    if not compact:
        drawn += (view.deal, view.contract, view.stock_size, view.upcard, view.upcard_live)
    return hashlib.sha1(repr(drawn).encode()).hexdigest()


def _named(view: PlayerView, names: Sequence[str]) -> PlayerView:
    seats = tuple(replace(seat, player=name) for seat, name in zip(view.seats, names, strict=True))
    return replace(view, seats=seats)


async def table_png(
    view: PlayerView,
    names: Sequence[str],
    *,
    compact: bool = False,
    language: Language = DEFAULT_LANGUAGE,
    four_colour: bool = False,
    mark_turn: bool = True,
) -> bytes:
    """The public table's PNG in the table's ``language``, drawn from the spectators' view with
    display names on the seats; ``compact``: the seats and numbered melds only, for the table
    message; ``four_colour``: clubs green and diamonds blue; ``mark_turn``: the
    seat to move framed in gold (the picture then changes every turn)."""
    return await render_in_thread(
        render_table,
        _named(view, names),
        compact=compact,
        language=language,
        four_colour=four_colour,
        mark_turn=mark_turn,
    )


#: Colours kept in an uploaded hand: card faces are a few flat inks and their edges, and a
#: smaller palette makes the many hand uploads of a game smaller. 24 keeps every suit, the
#: highlight and the joker legible (the joker's pale panel turns white); a whole game of four
#: uploads 12% fewer bytes than with 32. At 16 the joker and the raised cards go blotchy.
HAND_COLOURS = 24


def lossless_webp(png: bytes) -> bytes:
    """The same pixels as a lossless WebP: about half the bytes of the PNG for the table's
    flat colours (Discord shows WebP attachments and embed images like PNG ones)."""
    out = io.BytesIO()
    Image.open(io.BytesIO(png)).save(out, format="WEBP", lossless=True, method=4, quality=80)
    return out.getvalue()


def _table_upload(view: PlayerView, **options: Any) -> bytes:
    return lossless_webp(render_table(view, **options))


def few_colours_webp(png: bytes, colours: int) -> bytes:
    """The picture with ``colours`` colours at most, as a lossless WebP: card faces are a few
    flat inks and their edges, and a game uploads hundreds of hands. A quarter smaller than
    the same palette as a PNG at maximum compression, for about the same time to encode
    (libwebp's ``method=6`` gains nothing more here and takes a hundred times longer)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    palette = image.quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    palette.save(out, format="WEBP", lossless=True, method=4, quality=100)
    return out.getvalue()


def _hand_upload(cards: Sequence[Card], **options: Any) -> bytes:
    return few_colours_webp(draw_hand(cards, **options), HAND_COLOURS)


async def table_image(
    view: PlayerView,
    names: Sequence[str],
    *,
    compact: bool = False,
    language: Language = DEFAULT_LANGUAGE,
    four_colour: bool = False,
    mark_turn: bool = True,
) -> bytes:
    """The table picture as uploaded (``TABLE_FILE``, lossless WebP), as ``table_png`` draws
    it. A picture drawn lately with the same ``table_key`` is given again without drawing."""
    key = table_key(
        view,
        names,
        compact=compact,
        language=language,
        four_colour=four_colour,
        mark_turn=mark_turn,
    )
    kept = _TABLES.get(key)
    if kept is not None:
        _TABLES.move_to_end(key)
        return kept
    data = await render_in_thread(
        _table_upload,
        _named(view, names),
        compact=compact,
        language=language,
        four_colour=four_colour,
        mark_turn=mark_turn,
    )
    _TABLES[key] = data
    while len(_TABLES) > _TABLES_KEPT:
        _TABLES.popitem(last=False)
    return data


def table_file(data: bytes, language: Language = DEFAULT_LANGUAGE) -> discord.File:
    """``table_image``'s bytes as the table message's attachment."""
    return _file(data, TABLE_FILE, t("picture.alt_table", language))


async def table_picture(
    view: PlayerView,
    names: Sequence[str],
    language: Language = DEFAULT_LANGUAGE,
    *,
    four_colour: bool = False,
) -> discord.File:
    """The public table as an attachment."""
    data = await table_image(view, names, language=language, four_colour=four_colour)
    return table_file(data, language)


async def hand_picture(
    cards: Sequence[Card],
    highlight: Collection[int] = (),
    *,
    by_rank: bool = False,
    language: Language = DEFAULT_LANGUAGE,
    four_colour: bool = False,
) -> discord.File:
    """One player's hand (``HAND_FILE``, in ``HAND_COLOURS``); ``highlight`` marks the cards a
    proposed lay-down uses; ``four_colour``: clubs green and diamonds blue."""
    data = await render_in_thread(
        _hand_upload,
        cards,
        highlight=highlight,
        group_by="rank" if by_rank else "suit",
        language=language,
        four_colour=four_colour,
    )
    return _file(data, HAND_FILE, t("picture.alt_hand", language))


async def score_sheet_picture(
    names: Sequence[str],
    sheet: Sequence[Sequence[int]],
    language: Language = DEFAULT_LANGUAGE,
    *,
    winners: Collection[int] | None = None,
) -> discord.File:
    """Deal scores and the running totals as a chart; ``winners`` (seats, at the game's end)
    are starred and labelled, otherwise the lowest totals are starred as the leaders."""
    png = await render_in_thread(render_score_sheet, names, sheet, language, winners=winners)
    return _file(png, SHEET_FILE, t("picture.alt_sheet", language))


async def hand_picture_for(
    hand: Sequence[Card],
    proposal: Sequence[Card] = (),
    *,
    by_rank: bool = False,
    language: Language = DEFAULT_LANGUAGE,
    four_colour: bool = False,
) -> discord.File:
    """``hand`` with the cards of a proposed lay-down (``proposal``) highlighted."""
    wanted = list(proposal)
    highlight: list[int] = []
    for index, card in enumerate(hand):
        if card in wanted:
            wanted.remove(card)
            highlight.append(index)
    return await hand_picture(
        hand, highlight, by_rank=by_rank, language=language, four_colour=four_colour
    )
