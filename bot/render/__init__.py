"""Pictures of cards, hands, the table and the score sheet, drawn with Pillow (PNG bytes).

Pure functions of engine values: no Discord, no network, no downloaded art (Pillow's bundled
font, suit symbols drawn as shapes). The same input always gives the same bytes. These are the
pictures only; the text a screen reader needs is written elsewhere (``bot.rendering``).

Rendering takes milliseconds of CPU; call it through ``render_in_thread`` from the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import ParamSpec

from .hand import render_hand
from .scores import render_score_sheet
from .table import render_table

P = ParamSpec("P")


async def render_in_thread(fn: Callable[P, bytes], *args: P.args, **kwargs: P.kwargs) -> bytes:
    """Run the renderer ``fn`` in a worker thread (``asyncio.to_thread``) and return its PNG."""
    return await asyncio.to_thread(fn, *args, **kwargs)


__all__ = ["render_hand", "render_in_thread", "render_score_sheet", "render_table"]
