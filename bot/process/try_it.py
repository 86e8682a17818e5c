"""``python -m bot try``: the real bot in a simulated Discord, in your browser, no token.

simcord (``pip install -e '.[try]'``) simulates Discord on this computer: a server with a
``#shanghai`` channel, you (and, with ``--viewers``, one or two more people at the same
keyboard), and this bot, unchanged, connected to it. simcord's Preview serves that channel as
a web page on 127.0.0.1 only (its address carries a secret: anyone holding it can drive the
session), and the page's clicks are real interactions the bot answers. Nothing reaches
Discord or the internet; the database is a fresh temporary file, deleted on exit.

A table is waiting one click from Start: three computer players, two deals, a 3 s buy
window and a 1 s computer delay, so a whole game takes minutes. ``--seed`` deals the same
cards every time.

What the prototype taught (kept here on purpose):

- the table message's edit interval is 0: a delayed edit would race the next click, which
  the bot then refuses as stale;
- the commands are synced at start-up (forced), or the page's command box offers none;
- the world is built before the bot connects, so it arrives as a normal server at READY.

simcord's Preview republishes a page after its own actions only; the computers' moves and
the timers happen in the background. ``keep_pages_live`` republishes the pages whenever the
bot made a request since the last look, through ``republish``: the one call to a private
simcord name, pinned to simcord 3.2 (``pyproject.toml``) and held by ``tests/bot/test_try.py``.

This module imports simcord, so only the ``try`` subcommand imports it; ``run`` never does.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import logging
import shutil
import signal
import sys
import tempfile
import webbrowser
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import SecretStr

log = logging.getLogger(__name__)

#: A token of the right shape: simcord never sends it anywhere.
FAKE_TOKEN = "try" + "x" * 21 + ".simcrd." + "y" * 27
#: How often (real seconds) ``keep_pages_live`` looks for the bot's background requests, and
#: how long they must have stopped before it publishes them.
LIVE_EVERY = 0.25
QUIET_SECONDS = 0.3
VIEWER_NAMES = ("you", "friend", "neighbour")
#: How long a click waits for the bot's work to settle. simcord waits for every timer due
#: within it, and the computers arm one a second: above the computer delay, every click
#: would wait out the whole game.
SETTLE_SECONDS = 0.8


@dataclass
class World:
    """The simulated server the newcomer sees."""

    env: Any
    guild: Any
    channel: Any
    viewers: list[Any]


def try_settings(database: Path, seed: int | None) -> Any:
    """The bot's settings for a try session (a temporary folder holds every file)."""
    from bot.process.settings import Settings

    return Settings(
        discord_token=SecretStr(FAKE_TOKEN),
        database=database / "try.sqlite3",
        heartbeat=database / "heartbeat",
        seed=seed,
        edit_interval=0,
        computer_delay=1.0,
        buy_seconds=3,
        turn_seconds=120,
        lobby_minutes=24 * 60,
        force_sync=True,
        log_level="WARNING",
        # The page shows the one channel: the demo's game stays in it, not in a thread.
        threads=False,
    )


def build_world(env: Any, viewers: int) -> World:
    """A server with ``#shanghai`` and the people at the keyboard; before the bot connects."""
    guild = env.create_guild(name="Shanghai (simulated)")
    channel = guild.create_text_channel("shanghai")
    people = [guild.add_member(env.create_user(name)) for name in VIEWER_NAMES[:viewers]]
    return World(env, guild, channel, people)


async def lay_the_table(world: World) -> Any:
    """``/shanghai new`` by "you" with three computers: one click from Start."""
    you = world.viewers[0]
    opened = await you.slash(world.channel, "shanghai new", deals=2, buy_seconds=3)
    if not opened.acknowledged or opened.ephemeral:
        raise RuntimeError("the bot did not open the try table")
    # Through the host's buttons, not the service: the bot's work must start inside simcord's
    # bot scope, whose clock differs from the driver's (a table message paced on the wrong
    # clock would wait for ever).
    service = world.env.bot.service
    for label in ("Add computer (normal)", "Add computer (easy)", "Add computer (normal)"):
        table = service.for_channel(world.channel.id)
        message = next(m for m in world.channel.history() if m.id == table.record.message_id)
        added = await you.click(message, label=label)
        if not added.acknowledged:
            raise RuntimeError(f"the bot did not answer {label!r}")
    return service.for_channel(world.channel.id)


def republish(preview: Any) -> None:
    """Publish every open page of ``preview`` again, as its own actions do.

    simcord 3.2's public ``Preview.refresh()`` first settles all bot work as one simcord
    operation, and a click arriving meanwhile is refused ("operation overlaps"); with the
    computers playing, that window is wide. Publishing itself is synchronous and takes no
    operation, so it never collides with a click. The one private simcord name this module
    uses, held by ``tests/bot/test_try.py`` against the pinned simcord.
    """
    preview._advance_presentation_time()
    for page in tuple(preview._pages.values()):
        if page.id in preview._pages:  # a publish prunes expired pages
            preview._publish(page, reason="refresh")


async def keep_pages_live(
    env: Any, preview: Any, every: float = LIVE_EVERY, quiet: float = QUIET_SECONDS
) -> None:
    """Republish the pages whenever the bot made requests (an edit, a message, a hand's
    redraw: simcord records each) since the last look, so the computers' moves and the timers
    show without a click. (simcord runs the bot's timers on its own: its clock follows real
    time between operations.)

    A burst of requests (a computer's move edits the table and redraws hands) is published
    once, after ``quiet`` seconds without a new one: every publication makes a click on the
    page as it was one revision old ("Action was not completed": click again), so fewer is
    better, and the page reads its state only every half second anyway.
    """
    seen = len(env.http_requests)
    while True:
        await asyncio.sleep(every)
        count = len(env.http_requests)
        if count == seen:
            continue
        while True:  # until the burst is over (a computer's move takes a few requests)
            await asyncio.sleep(quiet)
            latest = len(env.http_requests)
            if latest == count:
                break
            count = latest
        seen = count
        republish(preview)


async def session(
    *, seed: int | None, port: int | None, viewers: int, open_browser: bool, folder: Path
) -> None:
    """The whole try session: world, bot, table, Preview; until the page ends it or a signal."""
    import simcord

    from bot import create_bot

    bot = create_bot(try_settings(folder, seed))
    env = simcord.Env(bot, settle_timeout=SETTLE_SECONDS)
    world = build_world(env, viewers)
    await env.start()
    # One person sees the whole channel on the page: nobody needs a notification, and a table
    # message posted again between the seats' notices and the hand (what a mention does) left
    # simcord's page unable to keep the hand's Discard menu open under that tall message.
    bot.publisher.ping_turns = False
    try:
        with env.time_context():
            await lay_the_table(world)
            preview = env.preview(
                world.channel,
                viewers=world.viewers,
                layout="channel",
                width=1280,
                height=860,
                port=port,
            )
            async with preview:
                print(f"Shanghai, in a simulated Discord on this computer: {preview.url}")
                print("(only this computer can open it; Ctrl+C ends the session)", flush=True)
                if open_browser:
                    webbrowser.open(preview.url)
                live = asyncio.create_task(keep_pages_live(env, preview), name="live")
                stop = asyncio.Event()
                loop = asyncio.get_running_loop()
                for signum in (signal.SIGINT, signal.SIGTERM):
                    with contextlib.suppress(NotImplementedError):
                        loop.add_signal_handler(signum, stop.set)
                closed = asyncio.create_task(preview.wait_closed())
                stopping = asyncio.create_task(stop.wait())
                await asyncio.wait({closed, stopping}, return_when=asyncio.FIRST_COMPLETED)
                for task in (live, closed, stopping):
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
    finally:
        await env.shutdown()


#: What ``simcord[preview]`` adds (simcord checks the same list when a Preview starts).
PREVIEW_MODULES = ("simcord", "aiohttp", "markdown_it", "linkify_it", "regex", "PIL")


def preview_installed() -> bool:
    """Whether the ``try`` extra is installed, asked without importing it."""
    return all(importlib.util.find_spec(name) is not None for name in PREVIEW_MODULES)


def main(*, seed: int | None, port: int | None, viewers: int, open_browser: bool) -> int:
    """``python -m bot try``: 0 after the session ends, 2 if simcord's Preview is missing."""
    if not preview_installed():
        print(
            "shanghai: try needs simcord's Preview: pip install -c constraints.txt -e '.[try]'",
            file=sys.stderr,
        )
        return 2
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    # simcord builds throwaway discord.py clients of its own, and discord.py warns about
    # their intents: noise for a newcomer, who reads the address on the next line.
    logging.getLogger("discord").setLevel(logging.ERROR)
    folder = Path(tempfile.mkdtemp(prefix="shanghai-try-"))
    try:
        asyncio.run(
            session(seed=seed, port=port, viewers=viewers, open_browser=open_browser, folder=folder)
        )
    except KeyboardInterrupt:
        pass
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print("the try session ended; its temporary database is deleted")
    return 0
