"""The table picture is drawn and uploaded only when what it draws changed: the seats and
their melds. The upcard, the stock and whose turn it is are the message's text, so a turn
that lays nothing down edits the message and keeps its attachment."""

from __future__ import annotations

import io
from dataclasses import replace

import simcord
from PIL import Image, ImageChops, ImageStat

from bot.screens import draw_hand
from bot.screens.attachments import (
    HAND_COLOURS,
    HAND_FILE,
    hand_picture_for,
    table_image,
    table_key,
    table_png,
)
from bot.screens.samples import NAMES, table_view
from engine import parse_cards
from engine.cards import Card

from .helpers import discard_id, gallery_urls, is_layout, open_hand, open_table, start, text_of


def _names(players: int) -> list[str]:
    return list(NAMES[:players])


async def test_the_upcard_stock_and_turn_leave_the_picture_as_it_is() -> None:
    view = table_view(4)
    later = replace(
        view,
        upcard=Card.parse("QS"),
        upcard_live=not view.upcard_live,
        stock_size=view.stock_size - 5,
        current=(view.current + 1) % 4,
        step="play",
    )
    names = _names(4)
    assert table_key(view, names, compact=True, mark_turn=False) == table_key(
        later, names, compact=True, mark_turn=False
    )
    first = await table_png(view, names, compact=True, mark_turn=False)
    second = await table_png(later, names, compact=True, mark_turn=False)
    assert first == second


async def test_a_meld_or_a_seat_that_changed_is_drawn_again() -> None:
    view = table_view(4)
    names = _names(4)
    before = table_key(view, names, compact=True, mark_turn=False)
    fewer = replace(view, melds=view.melds[1:])
    seats = list(view.seats)
    seats[1] = replace(seats[1], hand_size=seats[1].hand_size + 2, buys_used=3)
    bought = replace(view, seats=tuple(seats))
    renamed = [*names[:3], "Zed"]
    others = {
        table_key(fewer, names, compact=True, mark_turn=False),
        table_key(bought, names, compact=True, mark_turn=False),
        table_key(view, renamed, compact=True, mark_turn=False),
        table_key(view, names, compact=True, mark_turn=False, language="nl"),
        table_key(view, names, compact=True, mark_turn=False, four_colour=True),
    }
    assert before not in others and len(others) == 5
    assert await table_png(fewer, names, compact=True, mark_turn=False) != await table_png(
        view, names, compact=True, mark_turn=False
    )


def test_the_full_picture_and_the_turns_mark_still_follow_the_turn() -> None:
    view = table_view(4)
    names = _names(4)
    moved = replace(view, current=(view.current + 1) % 4)
    assert table_key(view, names, compact=True) != table_key(moved, names, compact=True)
    assert table_key(view, names) != table_key(replace(view, stock_size=3), names)


async def test_a_turn_that_lays_nothing_keeps_the_picture(env: simcord.Env) -> None:
    world = await open_table(env, 2)
    await start(world)
    p = world.current()
    other = next(m for m in world.players if m.id != p.id)
    hand = await open_hand(world, p)
    others = await open_hand(world, other)
    # The first turn moves the table message onto a click (posted anew, picture and all:
    # ``bot.channel.courier``); the next turn edits it where it is.
    await p.click(hand.response, label="Draw from stock")
    await p.select(
        hand.response,
        [str(world.table.game.hand_of(str(p.id))[0])],
        custom_id=discard_id(hand.response),
    )
    await env.advance_time(9)  # the buy window
    picture = [a.filename for a in world.message().attachments]
    assert picture == ["table.webp"]
    before = len(env.http_requests)
    await other.click(others.response, label="Draw from stock")
    card = world.table.game.hand_of(str(other.id))[0]
    await other.select(others.response, [str(card)], custom_id=discard_id(others.response))
    message = world.message()
    rest = f"/channels/{world.channel.id}/messages"
    edits = [
        r
        for r in env.http_requests[before:]
        if r.path.startswith(rest) or r.path.endswith(f"/messages/{message.id}")
    ]
    assert [r.method for r in edits] == ["PATCH"]
    assert "attachments" not in (edits[0].json or {})  # nothing uploaded, nothing dropped
    assert [a.filename for a in message.attachments] == picture
    assert is_layout(message) and gallery_urls(message) == [message.attachments[0].url]
    assert f"Upcard: **{card.pretty()}**" in text_of(message)


async def test_the_uploaded_table_is_the_drawn_picture_in_fewer_bytes() -> None:
    """The attachment is a lossless WebP of the PNG the renderer draws: the same pixels."""
    view = table_view(8)
    names = _names(8)
    png = await table_png(view, names, compact=True, mark_turn=False)
    upload = await table_image(view, names, compact=True, mark_turn=False)
    assert upload[:4] == b"RIFF" and upload[8:12] == b"WEBP"
    assert len(upload) < 0.75 * len(png)
    drawn = Image.open(io.BytesIO(png)).convert("RGB")
    sent = Image.open(io.BytesIO(upload)).convert("RGB")
    assert drawn.size == sent.size and drawn.tobytes() == sent.tobytes()
    assert await table_image(view, names, compact=True, mark_turn=False) is upload  # kept


async def test_the_uploaded_hand_is_a_smaller_webp_of_the_same_cards() -> None:
    hand = parse_cards("8H 8S 8C KD KC KS 3D 5C 7S 9H JD JK")
    picture = await hand_picture_for(hand, parse_cards("8H 8S 8C"))
    upload = picture.fp.read()
    png = draw_hand(hand, highlight={0, 1, 2})
    assert picture.filename == HAND_FILE == "hand.webp"
    assert upload[:4] == b"RIFF" and upload[8:12] == b"WEBP" and len(upload) < 0.7 * len(png)
    # Smaller than the same few colours as a PNG squeezed hard, which is what went up before.
    palette = Image.open(io.BytesIO(png)).convert("RGB").quantize(HAND_COLOURS)
    squeezed = io.BytesIO()
    palette.save(squeezed, format="PNG", compress_level=9)
    assert len(upload) < 0.9 * len(squeezed.getvalue())
    sent = Image.open(io.BytesIO(upload)).convert("RGB")
    drawn = Image.open(io.BytesIO(png)).convert("RGB")
    assert sent.size == drawn.size
    assert sent.getcolors(HAND_COLOURS) is not None  # None: more colours than that
    # Fewer colours, the same picture: close to the drawn one on average.
    difference = ImageChops.difference(sent, drawn).convert("L")
    assert ImageStat.Stat(difference).mean[0] < 8
