"""The bot as a process: open the database, connect, and stop cleanly on SIGTERM or SIGINT.

discord.py's ``Client.run`` handles only Ctrl+C. Every process manager (systemd, Docker,
Heroku-style platforms) stops a process with SIGTERM and kills it a few seconds later, and a
Python running as a container's PID 1 would not even die on SIGTERM. ``serve`` turns both
signals into ``bot.close()``, whose wind-down is bounded by ``app.SHUTDOWN_GRACE`` so the
process exits with status 0 before the kill.

While it serves, chores run beside the bot: the heartbeat for ``python -m bot.process.health``,
the deletion of the data of servers the bot left ``SHANGHAI_DEPARTED_GUILD_DAYS`` ago
(``purge_departed``) and, when ``SHANGHAI_BACKUP_DIR`` is set, the automatic backups
(``data.backup``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.process.app import ShanghaiBot
from bot.process.health import keep_beating
from data import is_postgres_url
from data.backup import backup_every
from data.shards import shard_of

log = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)

#: Seconds in a day, for ``SHANGHAI_DEPARTED_GUILD_DAYS``.
DAY = 86_400.0
#: Hours between two looks for servers whose data is due for deletion.
DEPARTED_CHECK_HOURS = 6.0


async def serve(bot: ShanghaiBot, connect: Callable[[], Awaitable[None]]) -> None:
    """Run ``connect()`` until it ends or a stop signal arrives; then close the bot.

    ``connect`` is ``bot.start(token)`` in production; tests pass a coroutine that stands in
    for the gateway connection, so the very same signal and shutdown path runs offline. An
    exception from ``connect`` (a refused token, no network) is raised after the bot closed.
    """
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    _on_stop_signals(loop, stop.set)
    chores = _start_chores(bot)
    connection = asyncio.ensure_future(connect())
    stopping = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({connection, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if stop.is_set():
            log.info("stop signal received: finishing running clicks and pending updates")
        await bot.close()
        if connection.done():
            connection.result()  # raises what ended the connection, if anything did
    finally:
        for task in (connection, stopping, *chores):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        _on_stop_signals(loop, None)


def _on_stop_signals(loop: asyncio.AbstractEventLoop, handler: Callable[[], None] | None) -> None:
    """Route SIGTERM and SIGINT to ``handler`` (``None``: back to the defaults).

    The event loop's own handlers where it has them (Unix); plain ``signal.signal`` elsewhere
    (Windows), where the handler is handed to the loop from the signal's context.
    """
    for signum in STOP_SIGNALS:
        try:
            if handler is None:
                loop.remove_signal_handler(signum)
            else:
                loop.add_signal_handler(signum, handler)
        except NotImplementedError:
            if handler is None:
                signal.signal(
                    signum,
                    signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL,
                )
            else:
                signal.signal(signum, lambda *_: loop.call_soon_threadsafe(handler))


def _start_chores(bot: ShanghaiBot) -> list[asyncio.Task[Any]]:
    settings = bot.settings
    chores = [
        asyncio.create_task(keep_beating(bot, settings.heartbeat), name="heartbeat"),
        asyncio.create_task(purge_departed_every(bot), name="departed servers"),
    ]
    if settings.backup_dir is not None and not is_postgres_url(settings.database):
        # A PostgreSQL server is backed up with its own tools (pg_dump), not by the bot.
        backups = backup_every(
            Path(settings.database),
            settings.backup_dir,
            hours=settings.backup_every_hours,
            keep=settings.backup_keep,
        )
        chores.append(asyncio.create_task(backups, name="backups"))
    return chores


async def purge_departed(bot: ShanghaiBot) -> list[int]:
    """Delete the data of the servers the bot left more than the chosen days ago; their ids.

    Only the guilds of this process's shards: it alone knows (from its gateway cache, so once
    ready) whether the bot is back in one, added while the process was down, when Discord
    sends no ``on_guild_join``. Such a guild's departure is forgotten instead. Each guild is
    one transaction: one that fails is logged and left for the next round, and the guilds
    after it still go.
    """
    store, shards = bot.store, bot.shard_set
    purged = []
    for guild_id in await store.departed_guilds(bot.settings.departed_guild_days * DAY):
        if shard_of(guild_id, shards.count) not in shards.ids:
            continue
        if bot.get_guild(guild_id) is not None:
            await store.guild_returned(guild_id)
            continue
        try:
            await store.purge_guild(guild_id)
        except Exception:  # this server's rows stay for the next round; the others still go
            log.warning("could not delete the data of departed server %s", guild_id, exc_info=True)
            continue
        log.info("deleted the data of server %s, which the bot left", guild_id)
        purged.append(guild_id)
    return purged


async def purge_departed_every(bot: ShanghaiBot, hours: float = DEPARTED_CHECK_HOURS) -> None:
    """``purge_departed`` once the bot is ready (so at each start), then every ``hours``."""
    await bot.wait_until_ready()
    while True:
        try:
            await purge_departed(bot)
        except Exception:  # a busy or unreachable database: the next round tries again
            log.warning("could not delete the data of departed servers", exc_info=True)
        await asyncio.sleep(hours * 3600)


async def run(bot: ShanghaiBot, token: str) -> None:
    """The entry point's whole life of the bot: the database first, then Discord."""
    async with bot:
        await bot.open_store()
        await serve(bot, lambda: bot.start(token))


async def sync_commands(bot: ShanghaiBot, token: str) -> None:
    """``python -m bot sync``: log in over HTTP (no gateway), upload the commands, close.

    discord.py's ``login`` runs ``setup_hook``, which with ``sync_only`` opens the database (the
    hash of the last sync lives there), loads the commands and uploads them, and restores no
    table: nothing is served.
    """
    bot.sync_only = True
    bot.settings.force_sync = True
    async with bot:
        await bot.open_store()
        await bot.login(token)
