"""The private hand as a Components V2 layout, drawn for a phone first.

A V2 message carries its words in text displays and shows an attachment only where a media
gallery names it, so the hand reads top to bottom in the order a player on a narrow screen
needs it: what they may do now (one short line) and what just happened, the picture of the
hand at full width, the hand's words and contract, the screen's own lines (a proposal, a
picker's help), and the controls last, in action rows below the container.

Discord counts every component of a message, nested ones included, against a limit of 40 and
all the text displays' words against 4,000 characters; ``hand_layout`` keeps inside both by
merging text displays (a hand's controls are at most 5 rows of 5). Each action row holds up to
five buttons or one select alone, whatever rows the screen drew (``action_rows``).

Once a message is V2 it stays V2: every screen the hand message can turn into (a deal's recap,
the game's end, leaving) is a layout too (``text_layout``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import discord
from discord.ui.select import BaseSelect

from bot.screens.attachments import HAND_FILE
from bot.screens.hand_controls import HandText, Style

#: Discord's limits for one V2 message: components, nested ones counted, and characters of
#: all its text displays together.
MAX_COMPONENTS = 40
MAX_TEXT = 4000
#: Discord's button styles by the names the screens use.
STYLES: dict[Style, discord.ButtonStyle] = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
#: The container's edge while it is the player's turn: seen at a glance on a phone.
TURN_ACCENT = discord.Colour.green()


#: Buttons one action row holds.
ROW_BUTTONS = 5


def action_rows(rows: Iterable[Sequence[discord.ui.Item[Any]]]) -> list[discord.ui.ActionRow[Any]]:
    """Each non-empty group of controls as action rows, in order, by Discord's rule for a row:
    up to five buttons, or one select alone. A group the screen drew with a select among
    buttons (the last page of a big hand's discard beside Sort and Refresh) is split: its
    buttons before the select, the select, its buttons after, each in a row of its own."""
    made: list[discord.ui.ActionRow[Any]] = []
    for items in rows:
        buttons: list[discord.ui.Item[Any]] = []
        for item in items:
            if _is_select(item):
                made.extend(_button_rows(buttons))
                buttons = []
                made.append(discord.ui.ActionRow(item))
            else:
                buttons.append(item)
        made.extend(_button_rows(buttons))
    return made


def _is_select(item: discord.ui.Item[Any]) -> bool:
    """Whether ``item`` is a select menu (a hand's is a ``DynamicItem`` around one)."""
    return isinstance(getattr(item, "item", item), BaseSelect)


def _button_rows(buttons: Sequence[discord.ui.Item[Any]]) -> list[discord.ui.ActionRow[Any]]:
    return [
        discord.ui.ActionRow(*buttons[start : start + ROW_BUTTONS])
        for start in range(0, len(buttons), ROW_BUTTONS)
    ]


def count_components(view: discord.ui.LayoutView) -> int:
    """Every component of ``view`` as Discord counts them: nested ones included."""
    return len(list(view.walk_children()))


def _fit(blocks: Sequence[str]) -> list[str]:
    """The blocks cut to ``MAX_TEXT`` characters in all, the first ones kept whole first (the
    prompt and what happened matter most); a block left empty is ``""``."""
    budget, fitted = MAX_TEXT, []
    for block in blocks:
        block = block.strip("\n")[:budget] if block.strip() else ""
        fitted.append(block)
        budget -= len(block)
    return fitted


def hand_layout(
    parts: HandText,
    rows: Sequence[Sequence[discord.ui.Item[Any]]],
    *,
    alt: str,
    turn: bool = False,
) -> discord.ui.LayoutView:
    """The hand message: a container with the prompt and notes, the picture (``HAND_FILE``,
    described by ``alt``), the hand's words and the screen's lines; then the ``rows`` of
    controls. ``turn``: the player is to move (the container's edge says so)."""
    top = "\n".join(x for x in (parts.prompt, parts.notes) if x)  # the prompt has its own bold
    head, hand, extra = _fit([top, parts.hand, parts.extra])
    gallery: discord.ui.Item[Any] = discord.ui.MediaGallery(
        discord.MediaGalleryItem(f"attachment://{HAND_FILE}", description=alt[:1024])
    )
    controls = action_rows(rows)
    room = MAX_COMPONENTS - 1 - sum(1 + len(row.children) for row in controls)  # 1: container
    each_apart = _children([head, gallery, hand, discord.ui.Separator(), extra])
    if len(each_apart) <= room:
        return _layout(each_apart, controls, turn)
    # The controls need the room: the hand's words and the screen's lines in one display.
    merged = "\n\n".join(x for x in (hand, extra) if x)
    return _layout(_children([head, gallery, merged]), controls, turn)


def _children(parts: Sequence[str | discord.ui.Item[Any]]) -> list[discord.ui.Item[Any]]:
    """Texts as text displays (an empty one left out), items as they are; no separator last."""
    items: list[discord.ui.Item[Any]] = []
    for part in parts:
        if isinstance(part, str):
            if part.strip():
                items.append(discord.ui.TextDisplay(part))
        else:
            items.append(part)
    while items and isinstance(items[-1], discord.ui.Separator):
        items.pop()  # a separator with nothing below it
    return items


def _layout(
    children: Sequence[discord.ui.Item[Any]],
    controls: Sequence[discord.ui.ActionRow[Any]],
    turn: bool,
) -> discord.ui.LayoutView:
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(*children, accent_colour=TURN_ACCENT if turn else None))
    for row in controls:
        view.add_item(row)
    return view


def text_layout(
    text: str, rows: Sequence[Sequence[discord.ui.Item[Any]]] = ()
) -> discord.ui.LayoutView:
    """A hand message without a hand (a recap, the end, a goodbye, a question): its words in
    a container, then its ``rows`` of controls."""
    return _layout(_children([_fit([text])[0] or "…"]), action_rows(rows), False)
