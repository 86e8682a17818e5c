"""The score sheet in words, for a phone: a code block with one row per player, the name,
the last deal's score and the total in fixed columns under named heads, then a line saying
what the marks mean.

Proportional text breaks a row wherever the screen runs out; a code block keeps each row
whole and the columns lined up, and these rows stay under ``TEXT_WIDTH`` characters, what a
390 px screen shows of a code block without scrolling sideways. Names are cut to
``NAME_WIDTH`` the same way on every row, and kept apart (``short_names``). Every deal's
score is in the picture beside the words, whose grid has a column per player.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import DEFAULT_LANGUAGE, Language, t
from bot.screens.score_sheet import best_seats
from bot.screens.short_names import char_fits, distinct_names

#: The sheet's widest row, in characters: a code block on a 390 px phone.
TEXT_WIDTH = 30
#: The name column.
NAME_WIDTH = 12


def visible(line: str) -> str:
    """``line`` as Discord shows it: without the bold markers, the escapes and the fences."""
    return discord.utils.remove_markdown(line).replace("```", "")


def sheet_names(names: Sequence[str], language: Language = DEFAULT_LANGUAGE) -> list[str]:
    """The names as the sheet's rows show them: cut to ``NAME_WIDTH`` and told apart."""
    shown = [
        (name.strip() or t("picture.player", language, number=seat + 1)).replace("`", "'")
        for seat, name in enumerate(names)
    ]
    return distinct_names(shown, char_fits(NAME_WIDTH))


def sheet_text(
    names: Sequence[str],
    sheet: Sequence[Sequence[int]],
    language: Language = DEFAULT_LANGUAGE,
    *,
    hands: bool = False,
    over: bool = False,
) -> str:
    """The score sheet as a code block for a phone: per player a row with the name, the last
    deal's score ("hand" for a game of ``hands``, as Rummy calls its deals) and the running
    total under named heads; the leaders (lowest total) starred while the game goes on (once
    it is ``over`` the standings crown the winner), who went out in the last deal ticked;
    under the block, what the marks mean."""
    totals = [sum(row[p] for row in sheet) for p in range(len(names))]
    leaders = set(best_seats(totals)) if sheet and not over else set()
    last = sheet[-1] if sheet else ()
    shown = sheet_names(names, language)
    deal_head = t("sheet.col_hand" if hands else "sheet.col_deal", language)
    total_head = t("sheet.col_total", language)
    rows = [f"{'':<{NAME_WIDTH}} {deal_head[:5]:>5} {total_head[:6]:>6}".rstrip()]
    used: list[str] = []
    for player, name in enumerate(shown):
        points = str(last[player]) if last else "-"
        marks = ""
        if player in leaders:
            marks += "★"
        if last and last[player] == 0:
            marks += "✓"
        rows.append(f"{name:<{NAME_WIDTH}} {points:>5} {totals[player]:>6} {marks}".rstrip())
        used += [mark for mark in marks if mark not in used]
    legend = {"★": "★ " + t("sheet.leads", language), "✓": "✓ " + t("sheet.went_out", language)}
    block = "```\n" + "\n".join(rows) + "\n```"
    if not used:
        return block
    return block + "\n-# " + " · ".join(legend[mark] for mark in sorted(used, key="★✓".index))
