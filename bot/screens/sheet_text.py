"""The score sheet in words, for a phone: a short list per player instead of a table, each
number named (this deal's score, the total), since a bare "95 95" reads as either.

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


def _wrapped(words: Sequence[str], width: int) -> list[str]:
    """``words`` on as few lines of at most ``width`` characters as they need."""
    lines: list[str] = []
    line = ""
    for word in words:
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
    *,
    hands: bool = False,
) -> str:
    """The score sheet as words for a phone: per player one line with the name, the last
    deal's score and the running total, each number named ("deal 30 · total 120"; "hand"
    for a game of ``hands``, as Rummy calls its deals), the leaders (lowest total) starred
    and who went out in the last deal ticked; under it, from the second deal on, every deal's
    score in order, named too. No code block and no line over ``TEXT_WIDTH`` characters, so
    nothing scrolls sideways on a 390 px screen."""
    totals = [sum(row[p] for row in sheet) for p in range(len(names))]
    leaders = set(best_seats(totals)) if sheet else set()
    last = sheet[-1] if sheet else ()
    numbers_key = "sheet.hand_total" if hands else "sheet.deal_total"
    history_key = "sheet.hands" if hands else "sheet.deals"
    lines: list[str] = []
    for player, name in enumerate(names):
        shown = name.strip() or t("picture.player", language, number=player + 1)
        if last:
            numbers = t(numbers_key, language, points=last[player], total=totals[player])
        else:
            numbers = t("sheet.total", language, total=totals[player])
        marks = []
        if player in leaders:
            marks.append("★ " + t("sheet.leads", language))
        if last and last[player] == 0:
            marks.append("✓ " + t("sheet.went_out", language))
        tail = f" {numbers}" + "".join(f" {mark}" for mark in marks)
        if marks and len(tail) + min(len(shown), SHORTEST_NAME) > TEXT_WIDTH:
            marks = [mark.split()[0] for mark in marks]  # the symbols stay, the words go
            tail = f" {numbers}" + "".join(f" {mark}" for mark in marks)
        room = TEXT_WIDTH - len(tail)
        if len(shown) > room:
            shown = shown[: room - 1].rstrip() + "…"
        lines.append(f"**{discord.utils.escape_markdown(shown)}**{tail}")
        if len(sheet) > 1:
            scores = [str(row[player]) for row in sheet]
            lines.extend(_wrapped([t(history_key, language), *scores], TEXT_WIDTH))
    return "\n".join(lines)
