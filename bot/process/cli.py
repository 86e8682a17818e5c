"""The command line: ``python -m bot`` or ``shanghai``, with subcommands.

- ``run`` (the default, so plain ``python -m bot`` serves): connect to Discord and serve.
- ``try``: the real bot in a simulated Discord in your browser, no token needed
(``bot.process.try_it``,
  ``pip install '.[try]'``).
- ``sync``: upload the slash commands now and exit (``run --sync`` uploads and serves).
- ``check``: validate the settings, the token's shape and the database, and say what ``run``
  would do, without connecting anywhere but the database.
- ``backup DEST``: copy the SQLite database safely, even while the bot runs.
- ``replay FILE``: print (or ``--html``: a page of) a game record's deals and scores.
- ``member export ID`` / ``member erase ID``: one person's data, for an operator
  (``bot.process.member_cli``).

Nothing starts on ``--help``: the parser answers before any setting is read. Exit status: 0
after a clean stop, 2 for a problem the operator must fix (a setting, the database, the token,
a shard or a database another process runs), printed as one line on stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from pydantic import ValidationError

from bot.process.settings import Settings
from bot.process.settings_facts import EXIT_CONFIG, MetricsProblem, metrics_problem
from bot.process.settings_problems import explain, unknown_settings
from bot.process.version import version
from data import is_postgres_url

PROG = "shanghai"

log = logging.getLogger(__name__)


def fail(message: str) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return EXIT_CONFIG


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog=PROG,
        description=(
            "Shanghai Rummy for Discord. Settings come from the environment and .env "
            "(see .env.example). Without a subcommand: run."
        ),
    )
    top.add_argument("--version", action="version", version=f"{PROG} {version()}")
    top.add_argument(
        "--sync",
        dest="top_sync",
        action="store_true",
        help="with run: upload the slash commands even if unchanged",
    )
    commands = top.add_subparsers(dest="command", metavar="COMMAND")
    run = commands.add_parser("run", help="connect to Discord and serve (the default)")
    run.add_argument(
        "--sync", action="store_true", help="upload the slash commands even if unchanged"
    )
    trying = commands.add_parser(
        "try",
        help="play in your browser against computers: a simulated Discord, no token needed",
        description=(
            "Run the real bot inside a simulated Discord (simcord's Preview) on this computer "
            "and open it in your browser. Nothing leaves the machine: the page is served on "
            "127.0.0.1 only, and the database is a fresh temporary file. Needs "
            "pip install -c constraints.txt -e '.[try]'."
        ),
    )
    trying.add_argument("--seed", type=int, default=None, help="a fixed deal (reproducible)")
    trying.add_argument("--port", type=int, default=None, help="the loopback port (default: any)")
    trying.add_argument(
        "--viewers",
        type=int,
        default=1,
        choices=(1, 2, 3),
        help="people at the keyboard (hot-seat play; the rest are computers)",
    )
    trying.add_argument(
        "--no-browser", action="store_true", help="print the address instead of opening it"
    )
    commands.add_parser(
        "sync",
        help="upload the slash commands to Discord now, then exit",
        description=(
            "Log in with DISCORD_TOKEN, upload the slash commands (to SHANGHAI_DEV_GUILD only "
            "when it is set, else globally, which Discord can take up to an hour to show), and "
            "exit without serving. run uploads them by itself when they changed; use sync "
            "after an upgrade if the commands look stale. Exit status 2 for a setting, token or "
            "network problem."
        ),
    )
    commands.add_parser(
        "check",
        help="validate settings, token shape and database; say what run would do",
        description=(
            "Read the settings as run does, check the token's shape (connecting nowhere but the "
            "database), look at the database read-only (schema version, migrations to apply, "
            "open tables, another process holding it) and print one line per fact, problems "
            "marked !. Exit status 0 when run would start, 2 otherwise."
        ),
    )
    backup = commands.add_parser("backup", help="copy the SQLite database safely (bot running)")
    backup.add_argument(
        "destination", help="a backup file to write, or a folder (ending in / : made if missing)"
    )
    backup.add_argument(
        "--database", default=None, help="the database (default: SHANGHAI_DATABASE)"
    )
    replaying = commands.add_parser("replay", help="print the deals and scores of a game record")
    replaying.add_argument("file", type=Path, help="a game record (docs/game-record.md)")
    replaying.add_argument(
        "--html", type=Path, default=None, help="write a page stepping through the game instead"
    )
    member = commands.add_parser(
        "member",
        help="export or erase one person's data (someone who shares no server with the bot)",
        description=(
            "What /shanghai mydata does, for an operator: export prints everything the bot "
            "keeps under a Discord user id as JSON, in every server the database holds; erase "
            "anonymises it as /shanghai mydata erase does (docs/admin.md, 'A member's data'). "
            "Safe beside a running bot. Exit status 2 for a bad id, an unreadable database, "
            "or an erasure refused while the person is at an open table or in an event."
        ),
    )
    member.add_argument("action", choices=("export", "erase"), help="export or erase")
    member.add_argument("user_id", help="the person's Discord user id")
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)  # --help and bad arguments exit here, before anything
    command = args.command or "run"
    if command == "backup":
        from data.backup import main as backup_main

        extra = ["--database", str(args.database)] if args.database else []
        return backup_main([args.destination, *extra])
    if command == "replay":
        from bot.process.replay_cli import main as replay_main

        return replay_main(args.file, args.html)
    if command == "member":
        from bot.process.member_cli import main as member_main

        return member_main(args.action, args.user_id)
    if command == "try":
        from bot.process.try_it import main as try_main

        return try_main(
            seed=args.seed, port=args.port, viewers=args.viewers, open_browser=not args.no_browser
        )
    if command == "check":
        from bot.process.check import main as check_main

        return check_main()
    settings, problem = load_settings()
    if settings is None:
        return fail(problem)
    if command == "sync" or args.top_sync or getattr(args, "sync", False):
        settings.force_sync = True
    unservable = None if command == "sync" else metrics_problem(settings)
    if unservable is not None:
        return fail(unservable)  # before the database opens or Discord is dialled
    return serve(settings, sync_only=command == "sync")


def load_settings() -> tuple[Settings | None, str]:
    """The settings of a bot that will connect, or ``None`` and the one line saying why not."""
    try:
        settings = Settings()  # type: ignore[call-arg]
    except ValidationError as error:
        token = [e for e in error.errors() if "discord_token" in str(e["loc"]).lower()]
        if token and token[0]["type"] == "missing":
            return None, (
                "DISCORD_TOKEN is not set; put it in the environment or in .env (README, "
                "'Creating the Discord application'), or try the bot without Discord: "
                "python -m bot try"
            )
        return None, f"invalid setting(s): {explain(error)}; see .env.example"
    if not settings.discord_token.get_secret_value().strip():
        return None, (
            "DISCORD_TOKEN is empty; put the bot's token after DISCORD_TOKEN= (README, "
            "'Creating the Discord application'), or try the bot without Discord: "
            "python -m bot try"
        )
    if not settings.token_is_well_formed():
        return None, (
            "DISCORD_TOKEN does not look like a Discord bot token (three dot-separated parts)"
        )
    try:
        settings.shards()
    except ValueError as error:
        return None, f"invalid SHANGHAI_SHARD_IDS / SHANGHAI_SHARD_COUNT: {error}"
    return settings, ""


def serve(settings: Settings, *, sync_only: bool = False) -> int:
    """``run`` and ``sync``: log, lock the SQLite file, open the database, connect."""
    import aiohttp
    import discord

    from bot import create_bot
    from bot.ground import logs
    from bot.process.database_problems import DatabaseProblem
    from bot.process.lifecycle import run, sync_commands
    from bot.process.process_lock import DatabaseInUse, ProcessLock
    from data import ShardTaken
    from data.fence import ShardCountMismatch

    logs.configure(settings.log_level)
    for name in unknown_settings():
        log.warning("ignored, not a setting: %s", name)
    # The bot never joins a voice channel: discord.py's warnings about voice libraries are noise.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False  # type: ignore[attr-defined,unused-ignore]
    lock = None if is_postgres_url(settings.database) else ProcessLock(Path(settings.database))
    bot = create_bot(settings)
    token = settings.discord_token.get_secret_value()
    try:
        if lock is not None:
            lock.acquire()
        asyncio.run(sync_commands(bot, token) if sync_only else run(bot, token))
    except DatabaseInUse as error:
        return fail(str(error))
    except DatabaseProblem as problem:
        return fail(str(problem))
    except (ShardTaken, ShardCountMismatch, MetricsProblem) as error:
        return fail(str(error))
    except discord.LoginFailure:
        return fail("Discord refused the token (LoginFailure); check DISCORD_TOKEN")
    except discord.PrivilegedIntentsRequired:
        return fail("Discord refused a privileged intent; this bot should need none")
    except (OSError, aiohttp.ClientError) as error:
        return fail(f"could not reach Discord ({type(error).__name__}); check the network")
    finally:
        if lock is not None:
            lock.release()
    if sync_only:
        print(f"{PROG}: slash commands uploaded")
    return 0
