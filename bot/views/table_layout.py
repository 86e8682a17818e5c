"""The public messages as Components V2 layouts, drawn for a phone first, and the lobby's
words.

Discord shows a V2 message's words in text displays (4,000 characters in all), its pictures
only where a media gallery names their attachment, and no content or embeds beside them. Every
public message of a table is one shape: what happened on top (the words a message's content
held, a ping among them), one container in the table's colour with the words in short blocks
and the picture full width under them, then the buttons, wide, where the thumb is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import Language, t, table_language
from bot.i18n.catalogue import has_key
from bot.service.live import rules_for
from bot.service.pace import is_relaxed, relaxed_buy_minutes, turn_hours
from bot.service.ranked import lobby_line
from bot.views.house_rules import preset_label

if TYPE_CHECKING:
    from bot.service.table_snapshot import TableSnapshot

COLOUR = discord.Colour.dark_green()
#: Discord's limit on the words of one Components V2 message, all its text displays together.
TEXT_LIMIT = 4000
#: What happened and the turn's ping, on top of the table message: a message's content had
#: this limit, and the rest of the words keep the room they had.
NEWS_LIMIT = 2000
#: Text blocks in one container at most: with their lines, the picture, the words on top and
#: three rows of four buttons, a layout stays well inside Discord's 40 components.
MAX_BLOCKS = 8
#: Whom a public layout may ping: the lobby names its host, who ran the command themselves.
NO_PINGS = discord.AllowedMentions.none()


def game_name(table: TableSnapshot) -> str:
    """'Rummy' or 'Shanghai': the game the table plays."""
    return table.game_name


def preset_name(preset: str, language: Language) -> str:
    """A preset's name in ``language``; an unknown preset keeps its key."""
    key = f"preset.{preset}"
    return t(key, language) if has_key(key) else preset_label(preset)


def lobby_blocks(table: TableSnapshot, *, hints: bool = True) -> list[str]:
    """The lobby's words in short blocks: the heading and the rules, the seats, and
    (``hints``) how to join; without the hints once the game moved into its thread, where the
    lobby message only keeps who plays."""
    options = table.record.options
    language = table_language(options)
    rules = rules_for(dict(options))
    low, high = rules.players
    host = table.record.host_id
    turn = int(float(options.get("turn_seconds", 90)))
    relaxed = is_relaxed(options)
    if rules.game == "rummy":
        head = [
            t(
                "lobby.host_rummy",
                language,
                host=host,
                target=rules.target_points,
                aces=t(f"lobby.aces.{rules.ace_mode}", language),
                final=t(f"lobby.final.{rules.final_discard}", language),
            ),
            t("lobby.times_rummy", language, turn=turn, low=low, high=high),
        ]
        if relaxed:
            head[1] = t(
                "lobby.times_relaxed_rummy", language, hours=turn_hours(options), low=low, high=high
            )
    else:
        preset = preset_name(str(options.get("preset", "standard")), language)
        head = [
            t("lobby.deals", language, host=host, preset=preset, count=rules.num_deals),
            t(
                "lobby.times",
                language,
                buy=int(float(options.get("buy_seconds", 8))),
                turn=turn,
                low=low,
                high=high,
            ),
        ]
        if relaxed:
            head[1] = t(
                "lobby.times_relaxed",
                language,
                hours=turn_hours(options),
                minutes=relaxed_buy_minutes(options),
                low=low,
                high=high,
            )
    if relaxed:  # what relaxed means, for those who never played a game over days
        # Without buying (Rummy) there is no standing buy order to answer for anyone.
        means = "lobby.relaxed_means" if rules.has_buying else "lobby.relaxed_means_rummy"
        head.append(t(means, language))
    head.append(lobby_line(table, language))
    if hints:  # the host learns they are the host, and what their Start does
        head.append(t("lobby.host_start", language, host=host, low=low, high=high))
    applied = options.get("server_defaults") or []  # bot.service.guild_settings.APPLIED_KEY
    if applied:
        which = ", ".join(t(f"settings.name.{key}", language) for key in applied)
        head.append(t("lobby.server_defaults", language, which=which))
    title = heading(t("lobby.title", language, game=game_name(table)))
    seats = [t("lobby.seats", language)]
    seats.extend(f"{i + 1}. {seat.name}" for i, seat in enumerate(table.record.seats))
    blocks = ["\n".join([title, *head]), "\n".join(seats)]
    if hints:
        blocks.append(t("lobby.join_hint", language) + "\n" + t("lobby.computer_hint", language))
    return blocks


def lobby_layout(
    table: TableSnapshot, *, hints: bool = True, news: str = ""
) -> discord.ui.LayoutView:
    """The lobby without its buttons (``render_table`` adds them): the game moved into its
    thread, and ``news`` says where."""
    return public_layout(lobby_blocks(table, hints=hints), news=news)


def heading(title: str) -> str:
    """A message's title as a Markdown heading: an embed's title had a line of its own, in
    bold, and a third-level heading is the closest a text display gets on a phone."""
    return f"### {title}"


def public_layout(
    blocks: Sequence[str],
    *,
    news: str = "",
    picture: tuple[str, str] | None = None,
    rows: Sequence[Sequence[discord.ui.Item[Any]]] = (),
) -> discord.ui.LayoutView:
    """A public message as a Components V2 layout, drawn for a phone first: ``news`` (what
    happened, the turn's ping) on top, where a message's content used to be; then one
    container with the ``blocks`` of words, a thin line between them, and the ``picture``
    (file name, alt text) full width under them; the button ``rows`` last, outside the
    container, so they are wide and under the thumb. The words are cut to Discord's 4,000
    characters, the later blocks first."""
    ui = discord.ui.LayoutView(timeout=None)
    room = TEXT_LIMIT
    news = news.strip()[:NEWS_LIMIT]
    if news:
        ui.add_item(discord.ui.TextDisplay(news))
        room -= len(news)
    box: discord.ui.Container[Any] = discord.ui.Container(accent_colour=COLOUR)
    if len(blocks) > MAX_BLOCKS:  # a text display and a line each: keep within 40 components
        blocks = [*blocks[: MAX_BLOCKS - 1], "\n\n".join(blocks[MAX_BLOCKS - 1 :])]
    for block in blocks:
        words = block.strip()[:room]
        if not words:
            continue
        if box.children:
            box.add_item(discord.ui.Separator(visible=True))
        box.add_item(discord.ui.TextDisplay(words))
        room -= len(words)
    if picture is not None:
        name, alt = picture
        media = discord.MediaGalleryItem(f"attachment://{name}", description=alt)
        box.add_item(discord.ui.MediaGallery(media))
    ui.add_item(box)
    for row in rows:
        if row:
            ui.add_item(discord.ui.ActionRow(*row))
    return ui


def plain_layout(text: str) -> discord.ui.LayoutView:
    """A public message reduced to its words (a table message moved away from): no picture,
    no buttons."""
    ui = discord.ui.LayoutView(timeout=None)
    ui.add_item(discord.ui.TextDisplay(text.strip()[:NEWS_LIMIT] or "…"))
    return ui


def sheet_layout(
    text: str, picture: tuple[str, str], rows: Sequence[Sequence[discord.ui.Item[Any]]] = ()
) -> discord.ui.LayoutView:
    """A deal's recap (who went out, the score sheet, at the end the standings) with its
    chart under the words and its buttons last."""
    return public_layout([text], picture=picture, rows=rows)
