"""What a store gives the calls written once for both stores.

The calls of ``data.store.Store`` that are the same logic on SQLite and PostgreSQL live in one
mixin per concern: ``data.games.GameCalls`` (tables, the game, its action log),
``data.board.BoardCalls`` (results, statistics and the ranked board) and
``data.guild_settings.SettingsCalls`` (a server's defaults and the bot's own notes). Each store
subclasses them and supplies the few primitives below; the queries all use ``?`` placeholders
(``data.sql``). What differs between the dialects (opening, group commit, a lobby's creation,
an action's save, the restore query) stays in the store.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Any, Self, TypeVar

from .sql import Sql

_T = TypeVar("_T")


class SqlCalls:
    """The primitives the shared calls are written on; every store implements them."""

    #: The unix time stamped on rows (a test's fake clock, if it gave one).
    _clock: Callable[[], float]

    async def close(self) -> None:
        """Wait for running writes and close; harmless twice."""
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    def _now(self) -> float:
        return self._clock()

    def _to_json(self, value: Any) -> Any:
        """A JSON column's parameter: text for SQLite, the value itself for the jsonb codec."""
        raise NotImplementedError

    def _from_json(self, value: Any) -> Any:
        """A JSON column as read back, as Python."""
        raise NotImplementedError

    async def _query(self, sql: str, *args: Any) -> list[Any]:
        """All rows of one query; never queued behind a write."""
        raise NotImplementedError

    async def _query_table(self, table_id: int | None, sql: str, *args: Any) -> list[Any]:
        """Like ``_query``, once the writes of ``table_id`` (``None``: any) running now are
        done, so a caller reads its own writes."""
        raise NotImplementedError

    async def _change(self, table_id: int | None, sql: str, *args: Any) -> int:
        """One statement written in the next group commit; the rows it changed."""
        raise NotImplementedError

    async def _sql_read(self, work: Callable[[Sql], Awaitable[_T]]) -> _T:
        """``work`` on a reading connection, never queued behind a write."""
        raise NotImplementedError

    async def _sql_write(
        self, work: Callable[[Sql], Awaitable[_T]], table_id: int | None = None
    ) -> _T:
        """``work`` as one transaction of its own (for writes of several statements); reads
        of ``table_id`` wait for it."""
        raise NotImplementedError
