"""The score sheet in words, for a phone: a short list per player instead of a table.

A monospace table of eight columns is wider than a 390 px screen and scrolls sideways; these
lines stay under ``TEXT_WIDTH`` characters, and the picture beside them has the grid.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import DEFAULT_LANGUAGE, Language, t
from bot.screens.score_sheet import best_seats

#: The text sheet's widest line, in characters: Discord's message column on a 390 px phone.
TEXT_WIDTH = 36
#: A name keeps at least this many characters before the marks after it give way.
SHORTEST_NAME = 6


def visible(line: str) -> str:
    """``line`` as Discord shows it: without the bold markers and the escapes."""
    return discord.utils.remove_markdown(line)


def _wrapped(scores: Sequence[int], width: int) -> list[str]:
    """The deal scores on as few lines of at most ``width`` characters as they need."""
    lines: list[str] = []
    line = ""
    for score in scores:
        word = str(score)
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = ""
        line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines


def sheet_text(
    names: Sequence[str],
    sheet: Sequence[Sequence[int]],
    language: Language = DEFAULT_LANGUAGE,
) -> str:
    """The score sheet as words for a phone: per player a line with the name and the total,
    the leaders (lowest total) starred and who went out in the last deal ticked, then the deal
    scores in order. No code block and no line over ``TEXT_WIDTH`` characters, so nothing
    scrolls sideways on a 390 px screen."""
    totals = [sum(row[p] for row in sheet) for p in range(len(names))]
    leaders = set(best_seats(totals)) if sheet else set()
    last = sheet[-1] if sheet else ()
    lines: list[str] = []
    for player, name in enumerate(names):
        marks = []
        if player in leaders:
            marks.append("★ " + t("sheet.leads", language))
        if last and last[player] == 0:
            marks.append("✓ " + t("sheet.went_out", language))
        tail = f" {totals[player]}" + "".join(f" {mark}" for mark in marks)
        while marks and len(tail) > TEXT_WIDTH - SHORTEST_NAME - 1:
            marks = [mark.split()[0] for mark in marks]  # the symbols stay, the words go
            tail = f" {totals[player]}" + "".join(f" {mark}" for mark in marks)
        shown = name.strip() or t("picture.player", language, number=player + 1)
        room = TEXT_WIDTH - len(tail)
        if len(shown) > room:
            shown = shown[: room - 1].rstrip() + "…"
        lines.append(f"**{discord.utils.escape_markdown(shown)}**{tail}")
        lines.extend(_wrapped([row[player] for row in sheet], TEXT_WIDTH))
    return "\n".join(lines)
