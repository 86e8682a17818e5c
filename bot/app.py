"""The bot factory: ``create_bot(settings)`` builds an unstarted ``ShanghaiBot``.

``setup_hook`` does the async start-up, in order: open (and migrate) the store, build the
service, load the cog, register the dynamic items (so buttons on old messages keep working),
sync the slash commands (if they changed, and only in the process that owns shard 0), and
restore every open table with its timers.

The bot is an ``AutoShardedBot``: ``SHANGHAI_SHARD_COUNT`` and ``SHANGHAI_SHARD_IDS`` choose
the shards this process runs. It opens the store for those shards only, so it restores, times
and locks only the tables of its own guilds; on PostgreSQL opening the store first takes the
ownership fence (``data.fence``), before anything is restored or Discord is connected.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from data import Store, describe, open_store

from .command_sync import sync_if_changed
from .interactions import report
from .publisher import Publisher
from .service import TableService
from .settings import Settings
from .views.hand import HandButton, HandSelect
from .views.table import TableButton

log = logging.getLogger(__name__)


def discord_clock() -> float:
    """Unix time as discord.py sees it (virtual under simcord, so timers and deadlines agree)."""
    return discord.utils.utcnow().timestamp()


class ShanghaiBot(commands.Bot):
    """A bot with one store, one table service and one publisher, for its own shards."""

    store: Store
    service: TableService
    publisher: Publisher

    def __init__(self, settings: Settings) -> None:
        # No privileged intent: slash commands and components need none.
        intents = discord.Intents.none()
        intents.guilds = True
        self.shard_set = settings.shards()
        super().__init__(
            shard_count=None,

            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
        )
        self.settings = settings
        #: Bugs met while answering interactions (also logged); tests assert it stays empty.
        self.unexpected_errors: list[BaseException] = []
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        settings = self.settings
        self.store = await open_store(
            settings.database,
            clock=discord_clock,
            shards=self.shard_set,
            fence_wait=settings.shard_wait,
        )
        log.info("store %s opened for %s", describe(settings.database), self.shard_set)
        self.publisher = Publisher(self, interval=settings.edit_interval)
        self.service = TableService(
            self.store,
            buy_seconds=settings.buy_seconds,
            turn_seconds=settings.turn_seconds,
            seed=settings.seed,
            away_after=settings.away_after,
            computer_delay=settings.computer_delay,
            clock=discord_clock,
            listener=self.publisher,
        )
        await self.load_extension("bot.cogs.shanghai")
        await self.load_extension("bot.cogs.rummy")
        self.add_dynamic_items(TableButton, HandButton, HandSelect)
        from .cogs.shanghai import EndButton

        self.add_dynamic_items(EndButton)
        if 0 in self.shard_set.ids:
            guild = None if settings.dev_guild is None else discord.Object(id=settings.dev_guild)
            if guild is not None:
                self.tree.copy_global_to(guild=guild)
            await sync_if_changed(self.tree, self.store, guild=guild, force=settings.force_sync)
        # Last: restored timers may fire at once, and nothing else should wait behind them.
        restored = await self.service.restore()
        log.info("restored %d open table(s)", len(restored))

    async def _on_tree_error(
        self,
        interaction: discord.Interaction[ShanghaiBot],
        error: discord.app_commands.AppCommandError,
    ) -> None:
        await report(interaction, error)

    async def close(self) -> None:
        service = getattr(self, "service", None)
        if service is not None:
            await service.close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()
        await super().close()


def create_bot(settings: Settings) -> ShanghaiBot:
    """An unstarted bot; ``bot.run(token)`` or simcord starts it."""
    return ShanghaiBot(settings)
