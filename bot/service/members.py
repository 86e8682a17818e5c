"""Who is still a member: a seated person who left the server has their seat played at once.

The bot runs without the privileged members intent, so Discord does not tell it when someone
leaves a server. Before this, such a seat cost the table three full turn limits and three
pings before the bot played it at once. The signal used instead: when the bot
plays a person's timed-out turn, it asks Discord for that member (one REST call, only on a
timeout). "Unknown member" means they left: ``TableService.member_gone`` hands the seat to the
bot for good, and the channel is told in one line. Any other answer changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from bot.service import Change

log = logging.getLogger(__name__)


class MemberCheck:
    """A listener of the table service: asks after a person whose turn the bot just played."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self._tasks: set[asyncio.Task[None]] = set()

    def watched(self, table_id: int) -> tuple[int, ...]:
        return ()

    def table_changed(self, change: Change) -> None:
        seat = change.auto_seat
        table = change.table
        if change.kind != "timeout" or seat is None or table.closed:
            return
        if table.is_computer(seat) or seat in table.removed:
            return
        user_id = table.record.seats[seat].user_id
        task = asyncio.get_running_loop().create_task(
            self._check(table.record.guild_id, table.id, user_id),
            name=f"shanghai-member-{table.id}-{user_id}",
        )
        self._tasks.add(task)  # the loop keeps only a weak reference
        task.add_done_callback(self._tasks.discard)

    async def _check(self, guild_id: int, table_id: int, user_id: int) -> None:
        guild = self.bot.get_guild(guild_id)
        if guild is None:
            return
        try:
            await guild.fetch_member(user_id)
        except discord.NotFound:
            log.info(
                "table %s: a seated member left guild %s; the bot plays the seat",
                table_id,
                guild_id,
            )
            await self.bot.service.member_gone(table_id, user_id)
        except discord.HTTPException as error:
            log.info("table %s: could not look a member up (%s)", table_id, error.status)
