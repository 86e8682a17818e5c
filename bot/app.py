"""The bot factory: ``create_bot(settings)`` builds an unstarted ``ShanghaiBot``.

``setup_hook`` does the async start-up, in order: open (and migrate) the store, build the
service, load the cog, register the dynamic items (so buttons on old messages keep working),
restore every open table with its timers, and sync the slash commands.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from data import Store

from .i18n.translator import CatalogueTranslator
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
    """A bot with one store, one table service and one publisher."""

    store: Store
    service: TableService
    publisher: Publisher

    def __init__(self, settings: Settings) -> None:
        # No privileged intent: slash commands and components need none.
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
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
        self.store = await Store.open(settings.database, clock=discord_clock)
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
        await self.tree.set_translator(CatalogueTranslator())
        await self.load_extension("bot.cogs.shanghai")
        await self.load_extension("bot.cogs.rummy")
        self.add_dynamic_items(TableButton, HandButton, HandSelect)
        from .cogs.shanghai import EndButton

        self.add_dynamic_items(EndButton)
        restored = await self.service.restore()
        log.info("restored %d open table(s)", len(restored))
        if settings.dev_guild is not None:
            guild = discord.Object(id=settings.dev_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

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
