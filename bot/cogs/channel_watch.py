"""Tables whose channel or server is gone are abandoned, not played on to a phantom result.

Before this cog a deleted channel, or the bot removed from a server, left its tables running:
every seat timed out, was marked away and auto-played to the end, and the result and a winner
were filed to the leaderboard for a game nobody finished, with a traceback per change from the
publisher. Now the gateway events end such a table at once (``TableService.abandon``: ended,
no results), and at each ``on_ready`` the open tables are checked against Discord, so a
channel deleted while the bot was down is caught at start-up too.

Deciding that a channel is *gone*, not merely unreadable for a moment, needs care: a 404
Unknown Channel is final, and so is a 403 from a server the bot is no longer in; a 403 from a
server the bot is still in is a revoked permission, which the publisher reports to the host
instead (the table keeps running).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

if TYPE_CHECKING:
    from bot.process.app import ShanghaiBot

log = logging.getLogger(__name__)


class ChannelWatch(commands.Cog):
    """Listens for deleted channels and servers the bot left, and checks at start-up."""

    def __init__(self, bot: ShanghaiBot) -> None:
        self.bot = bot

    async def _abandon_in(self, channel_id: int, reason: str) -> None:
        table = self.bot.service.for_channel(channel_id)
        if table is not None:
            await self.bot.service.abandon(table.id, reason)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._abandon_in(channel.id, "its channel was deleted")
        # Its threads go with it, and Discord sends no event for each: the games in them.
        service = self.bot.service
        for place in [p for p in service.places() if p.parent_channel_id == channel.id]:
            await service.abandon(place.id, "its channel was deleted")

    @commands.Cog.listener()
    async def on_thread_delete(self, thread: discord.Thread) -> None:
        await self._abandon_in(thread.id, "its thread was deleted")

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._abandon_in(payload.thread_id, "its thread was deleted")

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        service = self.bot.service
        for place in [p for p in service.places() if p.guild_id == guild.id]:
            await service.abandon(place.id, "the bot is no longer in its server")

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Check every open table's channel: one deleted while the bot was down ends now."""
        service = self.bot.service
        for place in service.places():
            if self.bot.get_channel(place.channel_id) is not None:
                continue
            reason = await self.channel_gone(place.guild_id, place.channel_id)
            if reason is not None:
                await service.abandon(place.id, reason)

    async def channel_gone(self, guild_id: int, channel_id: int) -> str | None:
        """Why the channel is gone for good, or ``None`` if it exists or may come back."""
        try:
            await self.bot.fetch_channel(channel_id)
        except discord.NotFound:
            return "its channel no longer exists"
        except discord.Forbidden:
            if self.bot.get_guild(guild_id) is None:
                return "the bot is no longer in its server"
            return None
        except discord.HTTPException as error:
            log.info(
                "could not check channel %s (HTTP %s); keeping its table", channel_id, error.status
            )
            return None
        return None


async def setup(bot: Any) -> None:
    await bot.add_cog(ChannelWatch(bot))
