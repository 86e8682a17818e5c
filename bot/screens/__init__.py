"""What players see: every screen's text and picture lives in this package.

One file per screen: ``text.py`` writes the words of the table, hand and score sheet messages
and gives the words they build on (``card_words.py``: cards, melds, countdowns;
``play_text.py``: actions and the channel's event lines; ``rules_text.py``: the house rules);
``hand_screen.py`` words the private hand with the controls of ``hand_controls.py``;
``table_picture/``, ``hand_picture.py`` and ``score_sheet.py`` draw the pictures, from the card
faces of ``cards.py``, the table's tiles of ``card_tiles.py`` and the pens of ``_draw.py``;
``attachments.py`` turns those pictures into Discord attachments; ``samples.py`` holds views
for tests and benchmarks.

This module: the pictures of cards, hands, the table and the score sheet (PNG bytes, Pillow).

Pure functions of engine values: no Discord, no network, no downloaded art (Pillow's bundled
font, suit symbols drawn as shapes). The same input always gives the same bytes. These are the
pictures only; the text a screen reader needs is written elsewhere (``bot.screens.text``).

Rendering takes milliseconds of CPU; call it through ``render_in_thread`` from the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import ParamSpec

from bot.screens.hand_picture import draw_hand
from bot.screens.score_sheet import render_score_sheet
from bot.screens.table_picture import render_table

P = ParamSpec("P")


async def render_in_thread(fn: Callable[P, bytes], *args: P.args, **kwargs: P.kwargs) -> bytes:
    """Run the renderer ``fn`` in a worker thread (``asyncio.to_thread``) and return its PNG."""
    return await asyncio.to_thread(fn, *args, **kwargs)


__all__ = ["draw_hand", "render_in_thread", "render_score_sheet", "render_table"]
