"""``python -m bot member export ID`` and ``python -m bot member erase ID``: an operator acts on
one person's data from the command line.

``/shanghai mydata`` serves a member inside a server the bot shares with them. A person who has
left every such server, or a deletion request for an account that no longer exists, has no way
in there, so the operator runs these instead: the export prints everything kept under the id,
as JSON, in every server the database holds (the servers the bot left too, whose data waits
for deletion); the erasure does what ``/shanghai mydata erase`` does (``data.members``) and
prints what it changed. Both open the database the bot uses (``SHANGHAI_DATABASE``) beside a
running bot: SQLite's writes queue behind the bot's, and on PostgreSQL the command takes no
shard's fence, writing one transaction as any other client would. No token is needed.

Exit status: 0 when done, 2 with one line on stderr when the id is not a Discord id, the
database cannot be opened, or the erasure is refused (the person sits at an open table or is in
an event not yet over: it waits until they are not).
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from bot.process.settings_facts import EXIT_CONFIG, settings_without_token
from data import SqliteStore, Store, is_postgres_url

PROG = "shanghai"
#: The largest id Discord can give fits in a signed 64-bit column.
_LARGEST_ID = (1 << 63) - 1


def fail(message: str) -> int:
    print(f"{PROG} member: {message}", file=sys.stderr)
    return EXIT_CONFIG


def main(action: str, user: str) -> int:
    """Run ``export`` or ``erase`` for the user id ``user`` (as typed)."""
    if not user.isdigit() or not 0 < int(user) <= _LARGEST_ID:
        return fail(f"{user!r} is not a Discord user id (a number, as Copy User ID gives it)")
    settings, _, problem = settings_without_token()
    if settings is None:
        return fail(problem)
    database = settings.database
    if not is_postgres_url(database) and not Path(database).is_file():
        return fail(f"no database at {database} (SHANGHAI_DATABASE)")
    try:
        return asyncio.run(_act(action, int(user), str(database)))
    except (OSError, RuntimeError) as error:
        return fail(f"could not open the database: {error}")


async def _open(database: str) -> Store:
    if is_postgres_url(database):
        from data.postgres_store import PostgresStore

        return await PostgresStore.open(database, fenced=False)
    return await SqliteStore.open(Path(database))


async def _act(action: str, user_id: int, database: str) -> int:
    store = await _open(database)
    try:
        if action == "export":
            data = await store.member_data(user_id, departed=True)
            print(json.dumps(data, indent=2, ensure_ascii=False))
            return 0
        erased = await store.erase_member(user_id)
    finally:
        await store.close()
    if erased.open_tables:
        tables = ", ".join(f"#{table}" for table in erased.open_tables)
        return fail(f"not erased: {user_id} sits at an open table ({tables}); try again later")
    if erased.open_events:
        events = ", ".join(f"#{event}" for event in erased.open_events)
        return fail(
            f"not erased: {user_id} is in or organises an event not yet over ({events});"
            " have them removed from it (/shanghai event remove user_id:) or wait for it to end"
        )
    print(
        f"erased {user_id}: {erased.results} result(s) and {erased.events} event sign-up(s) now"
        f" under the placeholder id {erased.placeholder}, {erased.ratings} rating row(s) deleted"
    )
    return 0
