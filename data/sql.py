"""The one way the shared queries reach a database, whichever store runs them.

Every query written once for both stores (``data.ranking``, ``data.games``, ``data.board``,
``data.settings``) uses ``?`` placeholders and runs through an ``Sql``: SQLite takes the text as
is (``data.sqlite_connection.SqliteSql``), PostgreSQL gets ``$1, $2, ...`` (``numbered``, in
``data.postgres_connection.PostgresSql``). Booleans are always parameters (SQLite stores 0/1,
PostgreSQL ``boolean``), so the same text runs on both.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import Any, Protocol


class Sql(Protocol):
    """A connection as the shared queries use it; ``?`` placeholders in every dialect."""

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        """All rows of one query (rows readable by column name)."""
        ...

    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per row of parameters."""
        ...


_PLACEHOLDER = re.compile(r"\?")


@functools.lru_cache(maxsize=256)
def numbered(sql: str) -> str:
    """The query with PostgreSQL's ``$1, $2, ...`` for its ``?`` (none sit inside a string)."""
    counter = iter(range(1, 1000))
    return _PLACEHOLDER.sub(lambda _: f"${next(counter)}", sql)


def changed_rows(tag: str) -> int:
    """The rows a PostgreSQL statement changed, from its status tag (``"UPDATE 1"``: 1)."""
    last = tag.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0
