"""``python -m bot [--sync]``: run the bot with settings from the environment or ``.env``.

``--sync`` uploads the slash commands even if they did not change since the last sync.
Exit status: 0 after a clean stop (SIGTERM, SIGINT), 2 for a problem the operator must fix
(a setting, the database, the token, a shard another process runs), printed as one line on
stderr.
"""

from __future__ import annotations

import asyncio
import logging
import sys

import aiohttp
import discord
from pydantic import ValidationError

from data import ShardTaken
from data.fence import ShardCountMismatch

from . import Settings, create_bot
from .database_problems import DatabaseProblem
from .lifecycle import run

EXIT_CONFIG = 2


def _fail(message: str) -> int:
    print(f"shanghai: {message}", file=sys.stderr)
    return EXIT_CONFIG


def main() -> int:
    try:
        settings = Settings()  # type: ignore[call-arg]
    except ValidationError as error:
        fields = ", ".join(".".join(str(p) for p in e["loc"]) or "settings" for e in error.errors())
        if "discord_token" in fields or "DISCORD_TOKEN" in fields:
            return _fail("DISCORD_TOKEN is not set; put it in the environment or in .env")
        return _fail(f"invalid setting(s): {fields}; see .env.example")
    if not settings.token_is_well_formed():
        return _fail(
            "DISCORD_TOKEN does not look like a Discord bot token (three dot-separated parts)"
        )
    if "--sync" in sys.argv[1:]:
        settings.force_sync = True
    try:
        settings.shards()
    except ValueError as error:
        return _fail(f"invalid SHANGHAI_SHARD_IDS / SHANGHAI_SHARD_COUNT: {error}")
    # Log records name tables and actions, never message text, hands or tokens.
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("discord.http").setLevel(logging.WARNING)
    # The bot never joins a voice channel: discord.py's warnings about voice libraries are noise.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False  # type: ignore[attr-defined,unused-ignore]
    bot = create_bot(settings)
    try:
        asyncio.run(run(bot, settings.discord_token.get_secret_value()))
    except DatabaseProblem as problem:
        return _fail(str(problem))
    except (ShardTaken, ShardCountMismatch) as error:
        return _fail(str(error))
    except discord.LoginFailure:
        return _fail("Discord refused the token (LoginFailure); check DISCORD_TOKEN")
    except discord.PrivilegedIntentsRequired:
        return _fail("Discord refused a privileged intent; this bot should need none")
    except (OSError, aiohttp.ClientError) as error:
        return _fail(f"could not reach Discord ({type(error).__name__}); check the network")
    return 0


if __name__ == "__main__":
    sys.exit(main())
