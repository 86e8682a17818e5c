"""A thread per game: where a game's thread is made and what the channel keeps.

On a busy server chat pushed the table message up until it re-posted itself, and every ping
and notice landed in the main channel. Discord's game bots keep each game in a thread started
from its lobby message: the channel stays readable, mentions stay scoped and spectators have a
place to talk. So when the host clicks Start, and the table wants a thread (the host's
``thread`` option of ``/shanghai new``, else the server's default, else ``SHANGHAI_THREADS``)
and the bot may make one here (Create Public Threads and Send Messages in Threads, in a text
channel), the lobby message becomes the starter of a public thread, and the table is that
thread's from then on: its message, pings, notices and score sheets go there, its rows name
the thread as their channel, so restarts, kicks and a deleted thread work as for a channel.
The lobby message in the channel keeps the players and points to the thread; when the game
ends the channel gets one result line with a link. Without the permissions, or if Discord
refuses the thread, the game is played in the channel as before.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot.ground.logs import at_table
from bot.i18n import t, table_language

if TYPE_CHECKING:
    from bot.service import TableService
    from bot.service.table_snapshot import TableSnapshot

log = logging.getLogger(__name__)

#: What the bot needs besides ``permissions.NEEDED`` to play a game in a thread of its own.
THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")
#: The table option (and server default) that asks for a thread.
THREADS_OPTION = "threads"
#: Discord's limit for a thread's name.
NAME_LIMIT = 100
#: A game may run for hours; Discord's longest auto-archive for every server is a day, and a
#: post to an archived thread un-archives it.
ARCHIVE_MINUTES: Literal[1440] = 1440


def wants_thread(options: Any) -> bool:
    return bool(options.get(THREADS_OPTION, False))


def may_thread(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot may start a public thread from a message here and talk in it."""
    if not isinstance(interaction.channel, discord.TextChannel):
        return False  # a thread in a thread, a voice channel's chat, a forum: no
    have = interaction.app_permissions
    return all(getattr(have, flag) for flag in THREAD_PERMISSIONS)


def thread_name(game: str, table_id: int, names: list[str]) -> str:
    """``Shanghai #12 · alice, bob, carol``, cut to Discord's 100 characters at a name."""
    head = f"{game} #{table_id} · "
    shown: list[str] = []
    for number, name in enumerate(names):
        last = number == len(names) - 1
        room = NAME_LIMIT - (0 if last else len(", …"))
        if len(head + ", ".join([*shown, name])) > room:
            if not shown:
                return (head + name)[:NAME_LIMIT]
            return head + ", ".join(shown) + ", …"
        shown.append(name)
    return head + ", ".join(shown)


async def start_in_thread(
    interaction: discord.Interaction[Any], service: TableService, table_id: int, game: str
) -> discord.Thread | None:
    """Start the game in a thread made from the clicked lobby message (the click is left to
    the caller to answer); None (nothing done) when the table wants no thread or none can be
    made here, so the caller starts it in the channel."""
    table = service.public(table_id)
    if not wants_thread(table.record.options) or not may_thread(interaction):
        return None
    message = interaction.message
    if message is None:
        return None
    service.check_start(table_id, interaction.user.id)  # refused before a thread is made
    try:
        thread = await message.create_thread(
            name=thread_name(game, table_id, list(table.names)),
            auto_archive_duration=ARCHIVE_MINUTES,
        )
    except discord.HTTPException as error:
        log.info(
            "%s: no thread for the game (HTTP %s); playing in the channel",
            at_table(table),
            error.status,
        )
        return None
    parent = table.channel_id
    await service.start(table_id, interaction.user.id, thread_id=thread.id)
    moved = service.public(table_id)
    client = interaction.client
    publisher = getattr(client, "publisher", None)
    if publisher is not None:
        publisher.forget(parent)  # the lobby's outbox: nothing more goes to the channel
        language = table_language(moved.record.options)
        people = [seat.user_id for seat in moved.record.seats if not seat.is_computer]
        mentions = ", ".join(f"<@{user}>" for user in people)
        publisher.announce(moved, t("thread.welcome", language, players=mentions))
    return thread


def result_line(table: TableSnapshot) -> str | None:
    """The channel's one line when a game played in a thread ends: who won, the totals, and
    the thread to read it in (None for a game played in its channel)."""
    parent = table.record.parent_channel_id
    view = table.view
    if parent is None or view is None or not view.is_over:
        return None
    language = table_language(table.record.options)
    names = table.names
    totals = table.totals
    order = sorted(range(len(names)), key=lambda seat: (seat not in view.winners, seat))
    winners = ", ".join(f"**{names[seat]}**" for seat in view.winners)
    scores = " · ".join(f"{names[seat]} {totals[seat]}" for seat in order)
    return t(
        "thread.result",
        language,
        game=table.game_name,
        table=table.id,
        winners=winners,
        scores=scores,
        thread=f"<#{table.channel_id}>",
    )[:2000]
