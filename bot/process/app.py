"""The bot factory: ``create_bot(settings)`` builds an unstarted ``ShanghaiBot``.

``setup_hook`` does the async start-up, in order: open (and migrate) the store (unless the
entry point already did, before logging in), build the service, load the cog, register the
dynamic items (so buttons on old messages keep working), sync the slash commands (if they
changed, and only in the process that owns shard 0), and restore every open table with its
timers, in the background; from then on it looks over the tables in memory every minute and
lets the ones nobody uses leave it (``TableService.rest``).

The bot is an ``AutoShardedBot``: ``SHANGHAI_SHARD_COUNT`` and ``SHANGHAI_SHARD_IDS`` choose
the shards this process runs. It opens the store for those shards only, so it restores, times
and locks only the tables of its own guilds; on PostgreSQL opening the store first takes the
ownership fence (``data.fence``), before anything is restored or Discord is connected.

``close`` winds down in the order that loses nothing: refuse new clicks, stop the looks over
the tables and the timers, let
running clicks finish, send the pending table edits and notices, close the store. The waiting
parts are bounded by ``SHUTDOWN_GRACE`` so a container's stop never ends in a kill.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands, tasks

from bot.channel.courier import Courier
from bot.channel.hand_follower import HandFollower
from bot.channel.publisher import Publisher
from bot.events.hall import DiscordHall
from bot.events.runner import EventRunner
from bot.i18n import interaction_language, t
from bot.i18n.translator import CatalogueTranslator
from bot.interactions.handler import report
from bot.process.command_sync import sync_if_changed
from bot.process.database_problems import open_database
from bot.process.settings import Settings
from bot.process.settings_facts import MetricsProblem, metrics_problem
from bot.service import Listener, Listeners, TableService, legal_plays
from bot.service.game_log import GameLog
from bot.service.members import MemberCheck
from bot.service.residency import SWEEP_SECONDS
from bot.views.replay_notes import NotesCache
from bot.views.replay_steps import ReplayCache
from data import Store, describe, is_postgres_url

if TYPE_CHECKING:
    from bot.process.metrics import Metrics

log = logging.getLogger(__name__)

#: Seconds ``close`` waits for running clicks and pending channel updates (Docker kills at 10).
SHUTDOWN_GRACE = 6.0

#: The English of ``error.restarting``, the reply to a click while the bot shuts down; each
#: player reads it in their own Discord language.
RESTARTING = "The bot is restarting. Try again in a minute; nothing of your game is lost."


def discord_clock() -> float:
    """Unix time as discord.py sees it (virtual under simcord, so timers and deadlines agree)."""
    return discord.utils.utcnow().timestamp()


class ShanghaiBot(commands.AutoShardedBot):
    """A bot with one store, one table service and one publisher, for its own shards."""

    store: Store
    service: TableService
    publisher: Publisher
    hands: HandFollower

    def __init__(self, settings: Settings) -> None:
        # No privileged intent: slash commands and components need none.
        intents = discord.Intents.none()
        intents.guilds = True
        # Not privileged (no content): only to know when chat pushes the table message up.
        intents.guild_messages = True
        self.shard_set = settings.shards()
        super().__init__(
            shard_count=self.shard_set.count,
            shard_ids=list(self.shard_set.ids),
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
        )
        self.settings = settings
        #: Bugs met while answering interactions (also logged); tests assert it stays empty.
        self.unexpected_errors: list[BaseException] = []
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]
        #: False once ``close`` began: interactions are then answered "restarting" and dropped.
        self.accepting = True
        self._winding_down = False
        self._refusals: set[asyncio.Task[None]] = set()
        #: ``python -m bot sync``: ``setup_hook`` syncs the commands and builds nothing else.
        self.sync_only = False
        #: Prometheus metrics, when ``SHANGHAI_METRICS_PORT`` is set (``bot.process.metrics``).
        self.metrics: Metrics | None = None
        #: Finished games rebuilt for their replays, and the expert's notes on them: kept for
        #: the process's life (a restarted bot rebuilds and reviews again when asked).
        self.replay_cache = ReplayCache()
        self.notes_cache = NotesCache()
        self._gate_interactions()

    def _gate_interactions(self) -> None:
        """Put a check in front of every interaction (slash command, button, select, modal).

        discord.py has no single hook that covers commands and components alike, so the gate
        wraps the gateway parser they all come through.
        """
        parsers: dict[str, Any] = self._connection.parsers
        deliver = parsers["INTERACTION_CREATE"]

        def gate(data: Any) -> None:
            if self.accepting:
                deliver(data)
                return
            interaction: discord.Interaction[Any] = discord.Interaction(
                data=data, state=self._connection
            )
            task = asyncio.get_running_loop().create_task(self._refuse(interaction))
            self._refusals.add(task)  # the loop keeps only a weak reference
            task.add_done_callback(self._refusals.discard)

        parsers["INTERACTION_CREATE"] = gate

    @staticmethod
    async def _refuse(interaction: discord.Interaction[Any]) -> None:
        with contextlib.suppress(discord.HTTPException):
            language = interaction_language(interaction)
            await interaction.response.send_message(t("error.restarting", language), ephemeral=True)

    async def open_store(self) -> None:
        """Open (and migrate) the database unless it is open; ``DatabaseProblem`` says why not.

        The entry point calls this before logging in, so a bad path is reported as such rather
        than after (or instead of) a connection problem.
        """
        if getattr(self, "store", None) is None:
            self.store = await open_database(
                self.settings.database,
                clock=discord_clock,
                shards=self.shard_set,
                fence_wait=self.settings.shard_wait,
                durable=self.settings.durable_commits,
            )
            kind = "PostgreSQL" if is_postgres_url(self.settings.database) else "SQLite"
            where = describe(self.settings.database)  # a URL without its password
            log.info("database opened: %s %s, for %s", kind, where, self.shard_set)

    async def setup_hook(self) -> None:
        settings = self.settings
        await self.open_store()
        if self.sync_only:  # ``python -m bot sync``: the commands, nothing else
            await self.load_commands()
            await self.sync_commands()
            return
        #: The clicks' tokens a table's messages may ride on (the hand offers them).
        self.courier = Courier()
        self.publisher = Publisher(
            self,
            interval=settings.edit_interval,
            carried_interval=settings.spectator_seconds,
            courier=self.courier,
        )
        self.hands = HandFollower(self)
        # Events seat rounds and move on when a table ends: the runner listens like the rest.
        hall = DiscordHall(self)
        self.event_runner = EventRunner(self.store, None, hall, clock=discord_clock)
        listeners: list[Listener] = [
            self.publisher,
            self.hands,
            MemberCheck(self),
            GameLog(),
            self.event_runner,
        ]
        if settings.metrics_port is not None:
            self.metrics = _metrics(self)
            self.store.commit_observer = self.metrics.committed
            self.metrics.watch_http(self.http)
            self.metrics.serve(settings.metrics_address, settings.metrics_port)
            listeners.append(self.metrics)
        self.service = TableService(
            self.store,
            buy_seconds=settings.buy_seconds,
            turn_seconds=settings.turn_seconds,
            seed=settings.seed,
            away_after=settings.away_after,
            computer_delay=settings.computer_delay,
            buy_preference=settings.buy_preference,
            lobby_seconds=settings.lobby_minutes * 60,
            idle_seconds=settings.idle_hours * 3600,
            clock=discord_clock,
            listener=Listeners(*listeners),
        )
        self.event_runner.bind(self.service)
        await self.load_commands()
        if 0 in self.shard_set.ids:
            await self.sync_commands()
        await self.hands.revive(self.store)  # before the restored tables' first change
        # The code loaded by now lives as long as the process: out of the cyclic collector's
        # scans, its full collections stop pausing every click for tens of milliseconds
        # (measured with tools/bench_load: p99 ~60 ms without, ~15 ms with, 500 tables). What
        # the restore brings is frozen once it ends (``_restored``).
        gc.freeze()
        # Last: restored timers may fire at once, and nothing else should wait behind them.
        # The open tables come back in the background; a click on one not back yet brings
        # its own table first.
        restoring = await self.service.restore_lazily()
        restoring.add_done_callback(_restored)
        self._look_over_tables.start()

    @tasks.loop(seconds=SWEEP_SECONDS)
    async def _look_over_tables(self) -> None:
        """The tables nobody uses leave memory (``TableService.rest``), and the next look is
        set for when the next of them may (``TableService.next_look``). Housekeeping nobody
        waits for, on the client's clock like the followed hands' flush: a ``tasks.loop``
        rather than a timer of the event loop's own, so that under simcord only the simulated
        clock brings it (a plain timer falls due in real time too, and would move the
        simulated clock on in the middle of a long test's clicks)."""
        try:
            rested = self.service.rest()
            if rested:
                log.debug("%d table(s) left memory", rested)
        except Exception:
            log.exception("looking over the tables in memory failed")
        self._look_over_tables.change_interval(seconds=self.service.next_look())

    async def load_commands(self) -> None:
        """The slash commands and their translations (the cogs need no service to load)."""
        await self.tree.set_translator(CatalogueTranslator())
        await self.load_extension("bot.cogs.shanghai")
        await self.load_extension("bot.cogs.rummy")
        await self.load_extension("bot.cogs.settings")  # joins /shanghai: after it
        await self.load_extension("bot.cogs.my_games")  # joins /shanghai: after it
        await self.load_extension("bot.cogs.replay")  # joins /shanghai: after it
        await self.load_extension("bot.cogs.members_data")  # joins /shanghai too
        await self.load_extension("bot.cogs.events")  # joins /shanghai: after it
        await self.load_extension("bot.cogs.channel_watch")

    async def sync_commands(self) -> None:
        """Upload the commands if they changed (always with ``force_sync``)."""
        settings = self.settings
        guild = None if settings.dev_guild is None else discord.Object(id=settings.dev_guild)
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        await sync_if_changed(self.tree, self.store, guild=guild, force=settings.force_sync)

    async def _on_tree_error(
        self,
        interaction: discord.Interaction[ShanghaiBot],
        error: discord.app_commands.AppCommandError,
    ) -> None:
        await report(interaction, error)

    async def close(self) -> None:
        self.accepting = False
        if not self._winding_down:
            self._winding_down = True
            await self._wind_down()
        await super().close()

    async def _wind_down(self) -> None:
        deadline = asyncio.get_running_loop().time() + SHUTDOWN_GRACE
        service: TableService | None = getattr(self, "service", None)
        self._look_over_tables.cancel()
        if service is not None:
            await service.close()  # timers stop: no change of their own from here on
            runner: EventRunner | None = getattr(self, "event_runner", None)
            if runner is not None:
                runner.start_timers.close()  # the start times stay in the database
            legal_plays.shutdown()  # the worker process of big hands, if one was started
            await _until(deadline, _running_clicks_done(service), "running clicks")
        publisher: Publisher | None = getattr(self, "publisher", None)
        if publisher is not None:
            await _until(deadline, publisher.flush(), "pending channel updates")
        hands: HandFollower | None = getattr(self, "hands", None)
        if hands is not None:
            await _until(deadline, hands.save(), "saving the followed hands")
        store: Store | None = getattr(self, "store", None)
        if store is not None:
            await store.close()
            log.info("shut down cleanly")
        if self.metrics is not None:
            self.metrics.close()


def _restored(task: asyncio.Task[int]) -> None:
    if task.cancelled():
        return
    error = task.exception()
    if error is not None:
        log.error("restoring the open tables failed", exc_info=error)
        return
    log.info("restored %d open table(s)", task.result())
    # The tables in memory and the sleeping ones' records, out of the collector's scans too.
    # A table that leaves memory later is still freed: its references count down to nothing
    # (the timer wheel keeps no cycle through a table).
    gc.freeze()


def _metrics(bot: ShanghaiBot) -> Metrics:
    """The metrics, or ``MetricsProblem`` (one line) when prometheus-client is missing."""
    try:
        from bot.process.metrics import Metrics  # prometheus-client: the `metrics` extra
    except ImportError:
        raise MetricsProblem(metrics_problem(bot.settings) or "prometheus-client missing") from None
    return Metrics(bot)


async def _running_clicks_done(service: TableService) -> None:
    """Every table's lock taken once: clicks already inside have committed and notified."""
    for table in list(service.tables.values()):
        async with table.lock:
            pass


async def _until(deadline: float, work: Awaitable[None], what: str) -> None:
    remaining = deadline - asyncio.get_running_loop().time()
    try:
        await asyncio.wait_for(work, max(remaining, 0.01))
    except TimeoutError:
        log.warning("shutdown: gave up waiting for %s after the grace period", what)


def create_bot(settings: Settings) -> ShanghaiBot:
    """An unstarted bot; ``bot.run(token)`` or simcord starts it."""
    return ShanghaiBot(settings)
