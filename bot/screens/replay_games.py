"""The history's words: a member's or a server's recent finished games, one line each.

A line gives the game's number (what ``/shanghai replay`` takes), when it ended (a Discord
timestamp, which every reader sees in their own time zone and language), who played and how
it ended (the winners starred, each person's total; a computer has no stored total), and a
link to the channel or thread it was played in. The select beneath the list opens a replay.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence

import discord

from bot.i18n import Language, t
from data.records import PlayedGame

#: Discord's limits: an embed's description, a select option's label.
DESCRIPTION_LIMIT = 4096
LABEL_LIMIT = 100


def _clean(name: str) -> str:
    """A display name with Discord's markdown characters escaped."""
    return re.sub(r"([*_`~|>])", r"\\\1", name)


def players_text(game: PlayedGame, language: Language) -> str:
    """Each seat, the winners starred, with the person's total (``🏆 ann 0 · bob 45``). A
    computer is named as the table named it ("Computer 1 (normal)", no second "computer")
    and has no stored total; a game no person won was won by a computer: the one computer of
    the game is starred, or the line says a computer won."""
    results = {row.seat: row for row in game.results}
    computers = [index for index in range(len(game.seats)) if index not in results]
    person_won = any(row.is_winner for row in game.results)
    parts = []
    for index, seat in enumerate(game.seats):
        row = results.get(index)
        if row is None:
            star = "🏆 " if not person_won and computers == [index] else ""
            parts.append(f"{star}{_clean(seat.name)}")
        else:
            star = "🏆 " if row.is_winner else ""
            parts.append(f"{star}{_clean(row.name)} {row.total}")
    if not person_won and len(computers) > 1:
        parts.append("🏆 " + t("replay.computer_won", language))
    return " · ".join(parts)


def game_line(game: PlayedGame, language: Language) -> str:
    return t(
        "replay.history_line",
        language,
        table=game.table_id,
        when=f"<t:{int(game.finished_at)}:R>",
        players=players_text(game, language),
        where=f"<#{game.channel_id}>",
    )


def games_embed(games: Sequence[PlayedGame], title: str, language: Language) -> discord.Embed:
    """The list as one embed, newest first; its lines stop before Discord's limit."""
    lines: list[str] = []
    size = 0
    for game in games:
        line = game_line(game, language)
        if size + len(line) + 1 > DESCRIPTION_LIMIT:
            break
        lines.append(line)
        size += len(line) + 1
    text = "\n".join(lines) if lines else t("replay.history_empty", language)
    embed = discord.Embed(title=title, description=text, colour=discord.Colour.dark_teal())
    if lines:
        embed.set_footer(text=t("replay.history_footer", language))
    return embed


def game_option(game: PlayedGame) -> discord.SelectOption:
    """A game in the history's select: its number, date and players (no markdown there)."""
    day = time.strftime("%Y-%m-%d", time.gmtime(game.finished_at))
    names = ", ".join(seat.name for seat in game.seats)
    label = f"#{game.table_id} · {day} · {names}"
    if len(label) > LABEL_LIMIT:
        label = label[: LABEL_LIMIT - 1] + "…"
    return discord.SelectOption(label=label, value=str(game.table_id))
