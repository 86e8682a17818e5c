"""Issue 24.1: optional four-colour suits, a per-table choice of /shanghai new: the hand's
picture (and the table's) draw clubs green and diamonds blue."""

from __future__ import annotations

import io

import simcord
from PIL import Image

from bot.views.hand import hand_files
from engine.cards import parse_cards

from .helpers import open_table, start


def inks(png: bytes) -> tuple[int, int]:
    """How many pixels are clearly green and clearly blue (the suits' inks, anti-aliased)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    green = blue = 0
    for count, (r, g, b) in image.getcolors(maxcolors=1 << 22) or []:
        if g > r + 60 and g > b + 30:
            green += count
        if b > r + 80 and b > g + 60:
            blue += count
    return green, blue


async def hand_png(env: simcord.Env, **options: object) -> bytes:
    world = await open_table(env, 2, **options)
    await start(world)
    game = world.table.game
    p = world.current()
    game.hands[game.current] = parse_cards("2C 5C 9C KC 3D 7D JD 4H 8S")
    snap = world.service.snapshot(world.table.id, p.id)
    files = await hand_files(snap, "s")
    return files[0].fp.read()


async def test_four_colour_suits_are_a_table_choice(env: simcord.Env) -> None:
    green, blue = inks(await hand_png(env, four_colour=True))
    assert green > 200 and blue > 200


async def test_two_colours_by_default(env: simcord.Env) -> None:
    green, blue = inks(await hand_png(env))
    assert green < 20 and blue < 20, (green, blue)
