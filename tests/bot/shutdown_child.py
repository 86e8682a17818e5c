"""A bot process for the SIGTERM test: a real bot in simcord, stopped by a real signal.

``python -m tests.bot.shutdown_child DATABASE REPORT`` opens a table in simcord's in-memory
Discord with two players and lets the table message catch up; then a third player joins and
the host starts the game, while the publisher's pacing (a long ``edit_interval``) still holds
back the table edit and the "your turn" notice. It hands the bot to
``bot.process.lifecycle.serve``, the
function ``python -m bot`` uses, with a stand-in for the gateway connection that prints
``READY``. After the signal it writes REPORT (JSON): the table message and the channel's
messages as they were before the signal and after the shutdown. The heartbeat and the
backup folder sit beside DATABASE.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import discord
import simcord

from bot import Settings, create_bot
from bot.process.lifecycle import serve

from .helpers import World, button_labels, container_text, gallery_alts, gallery_urls

TOKEN = "x" * 24 + ".abcdef." + "y" * 27


def news(message: discord.Message) -> str:
    """A message's words outside its container: its content, or the text displays on top of
    a Components V2 table message (what happened, the ping)."""
    parts = [message.content or ""]
    parts += [c.content for c in message.components if isinstance(c, discord.TextDisplay)]
    return "\n".join(part for part in parts if part)


def snapshot(world: World) -> dict[str, Any]:
    message = world.message()
    return {
        "labels": button_labels(message),
        "words": container_text(message),
        "gallery": gallery_urls(message),
        "alts": gallery_alts(message),
        "texts": [text for m in world.channel.history() if (text := news(m))],
    }


async def main(database: Path, report: Path) -> None:
    settings = Settings(
        discord_token=TOKEN,
        database=database,
        seed=1,
        buy_seconds=120,
        turn_seconds=3600,
        edit_interval=60,
        computer_delay=0,
        heartbeat=database.parent / "heartbeat",
        backup_dir=database.parent / "backups",
        threads=False,  # the table message stays in the channel these tests read
    )
    bot = create_bot(settings)
    async with simcord.run(bot, settle_timeout=0.5) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("cards")
        names = ("alice", "bob", "carol")
        alice, bob, carol = (guild.add_member(env.create_user(name)) for name in names)
        opened = await alice.slash(channel, "shanghai new")
        world = World(env, guild, channel, [alice, bob, carol], opened.response.message)
        assert (await bob.click(world.message(), label="Join")).acknowledged
        await env.advance_time(61)  # the paced edits go out
        assert (await carol.click(world.message(), label="Join")).acknowledged
        assert (await alice.click(world.message(), label="Start")).acknowledged
        before = snapshot(world)

        async def gateway() -> None:  # stands in for bot.start(token): runs until closed
            print("READY", flush=True)  # the signal handlers are in place by now
            await asyncio.Event().wait()

        await serve(bot, gateway)
        report.write_text(json.dumps({"before": before, "after": snapshot(world)}))


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), Path(sys.argv[2])))
