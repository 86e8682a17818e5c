"""What players see: every screen's text and picture lives in this package.

One file per screen: ``text.py`` writes the words of every message (table, hand, score sheet,
rules, action lines); ``table_picture.py``, ``hand_picture.py`` and ``score_sheet.py`` draw the
pictures, from the cards of ``cards.py`` and the pens of ``_draw.py``; ``attachments.py`` turns
those pictures into Discord attachments; ``samples.py`` holds views for tests and benchmarks.

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

from bot.screens.hand_picture import render_hand
from bot.screens.score_sheet import render_score_sheet
from bot.screens.table_picture import render_table

P = ParamSpec("P")


async def render_in_thread(fn: Callable[P, bytes], *args: P.args, **kwargs: P.kwargs) -> bytes:
    """Run the renderer ``fn`` in a worker thread (``asyncio.to_thread``) and return its PNG."""
    return await asyncio.to_thread(fn, *args, **kwargs)


__all__ = ["render_hand", "render_in_thread", "render_score_sheet", "render_table"]
