"""The storage interface the bot codes against: tables, their game state, deadlines and results.

``Store`` is a ``typing.Protocol``: the exact calls the table service, the cogs and the start-up
code make, and nothing else. Two classes implement it:

- ``data.sqlite_store.SqliteStore``: one SQLite file, the default (no database server needed);
- ``data.postgres_store.PostgresStore``: a PostgreSQL database on asyncpg, for several shard
  processes sharing one database, or a platform whose disk is wiped.

``data.open_store(database)`` (``data/opening.py``) picks one from a path or a
``postgresql://`` URL, so code that opens a store never names an implementation.

The life of a table, and the call that moves it::

    create_table -> lobby --start_game--> playing --save_action...--> finish_game -> finished
                      \\                     \\
                       +------ end_table ----+--> ended, or abandoned (status="abandoned")

Writes that depend on where the table is (``update_lobby``, ``start_game``, ``save_action``,
``finish_game``) check it in the same statement that writes, and raise ``StaleVersion`` when
another write got there first; ``TableNotFound`` when the id is unknown; ``StoreBusy`` when
another program holds the database for longer than a player may wait. Nothing is written in
any of these cases.

Both stores are opened for a ``ShardSet``: ``open_tables`` then lists only the tables of the
guilds this process owns, which is what lets several processes share one database.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from enum import Enum
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol

from .records import (
    ActionRecord,
    AwayState,
    BoardEntries,
    EndStatus,
    GameKind,
    HeadToHead,
    LeaderboardRow,
    PlayedGame,
    PlayerCard,
    PlayerStats,
    ResultRow,
    Seat,
    ServerRecord,
    TablePlace,
    TableRecord,
)

if TYPE_CHECKING:
    from .events import EventPlayer, EventRecord, EventStatus, EventTable, SignUp, TableRound
    from .members import Erasure


class Keep(Enum):
    """Marks an argument the caller left out, where ``None`` is a meaningful value."""

    KEEP = "keep"


KEEP: Final = Keep.KEEP

#: How long a call made for a player may wait for the database before ``StoreBusy``, in
#: seconds. Discord allows 3 s for an answer; the rest is for the engine and the reply.
PLAYER_WAIT_SECONDS: Final = 2.0

#: How long a write the bot makes on its own (a table's timer: a turn that ran out, a computer's
#: move) may wait in all before ``StoreBusy``, in seconds. Nobody is waiting for its answer, and
#: at a restart every table whose deadline passed while the bot was down writes at once: on one
#: SQLite writer, 500 of them queue for longer than a player may wait (about 5 s on a busy
#: 2-core machine). Not much longer than that: the timer holds its table while it waits, so a
#: click on that table waits too (while a backup holds the file, say) instead of hearing "busy".
BACKGROUND_WAIT_SECONDS: Final = 30.0

_background: ContextVar[bool] = ContextVar("shanghai_background_write", default=False)


@contextmanager
def background_writes() -> Iterator[None]:
    """Mark the store writes made inside (and in tasks started inside) as the bot's own.

    A store lets such writes wait up to ``BACKGROUND_WAIT_SECONDS``, but only one at a time
    (a few on PostgreSQL) competes with the writes of players, which each keep their
    ``PLAYER_WAIT_SECONDS``: a storm of timers neither fails nor makes a click wait behind it.
    """
    token = _background.set(True)
    try:
        yield
    finally:
        _background.reset(token)


def is_background_write() -> bool:
    """Whether the running code is inside ``background_writes``."""
    return _background.get()


class Store(Protocol):
    """Everything the bot reads and writes. See the module docstring for the table life cycle."""

    #: Called with the seconds each committed write took, waits for the writer and the lock
    #: included (``bot.process.metrics`` sets it for its commit latency histogram); ``None``:
    #: unused.
    commit_observer: Callable[[float], None] | None = None

    # -- lifetime ---------------------------------------------------------------------------

    async def close(self) -> None:
        """Wait for running calls and close; closing twice is harmless."""

    # -- tables -----------------------------------------------------------------------------

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        game_kind: GameKind,
        host_id: int,
        seats: Sequence[Seat],
        options: Mapping[str, Any],
    ) -> TableRecord:
        """Open a lobby in a channel and return it (status ``lobby``, version 0, no state).

        Raises ``TableExists``, carrying the open table, if the channel already has one.
        """
        ...

    async def get_table(self, table_id: int) -> TableRecord | None:
        """The table with this id, in any status, or ``None``."""
        ...

    async def get_open_table(self, channel_id: int) -> TableRecord | None:
        """The channel's lobby or game in progress, or ``None`` if it is free."""
        ...

    async def open_tables(self) -> list[TableRecord]:
        """Every lobby and game in progress of the owned shards, oldest first (for restore)."""
        ...

    async def open_places(self) -> list[TablePlace]:
        """Where each table ``open_tables`` returns is, oldest first, without reading the
        rest of its row: a start-up that restores tables lazily reads their rows later."""
        ...

    async def seated_open_tables(self, guild_id: int, user_id: int) -> list[int]:
        """The ids of ``guild_id``'s lobbies and games in progress with a seat for ``user_id``,
        oldest first: which of the tables out of memory ``/shanghai games`` must read back,
        without reading every row of the server."""
        ...

    async def update_lobby(
        self,
        table_id: int,
        seats: Sequence[Seat],
        options: Mapping[str, Any],
        message_id: int | Literal[Keep.KEEP] | None = KEEP,
    ) -> None:
        """Replace a lobby's seats and options (and its message id, when given).

        Raises ``StaleVersion`` if the table is no longer a lobby, ``TableNotFound`` if unknown.
        """
        ...

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        """Remember which Discord message shows the table; ``TableNotFound`` if unknown."""
        ...

    async def move_to_thread(self, table_id: int, thread_id: int) -> None:
        """The table now lives in thread ``thread_id``, made from its lobby message: its
        channel becomes the thread, the old channel is kept as its parent, and it has no table
        message there yet. ``TableNotFound`` if unknown or moved already."""
        ...

    # -- the game ---------------------------------------------------------------------------

    async def start_game(
        self,
        table_id: int,
        seats: Sequence[Seat],
        state_json: str,
        buy_deadline: float | None,
        turn_deadline: float | None,
    ) -> None:
        """Turn a lobby into a game: final seats, the engine's first state, version 0.

        Raises ``StaleVersion`` if the table is not a lobby any more, ``TableNotFound`` if
        unknown.
        """
        ...

    async def save_action(
        self,
        table_id: int,
        expected_version: int,
        user_id: int,
        action_text: str,
        state_json: str,
        buy_deadline: float | None,
        turn_deadline: float | None,
        away: Sequence[AwayState],
    ) -> int:
        """Record one accepted action and the state after it, in one transaction; return the
        new version. Raises ``StaleVersion`` if the table is not at ``expected_version`` or not
        playing, ``TableNotFound`` if unknown."""
        ...

    async def finish_game(
        self,
        table_id: int,
        expected_version: int,
        state_json: str,
        results: Sequence[ResultRow],
        status: Literal["finished", "ended"] = "finished",
        *,
        user_id: int | None = None,
        action_text: str | None = None,
        ranked: bool = False,
    ) -> int:
        """Close a game with its result rows (and, if given, its last action) in one
        transaction, with the same version check as ``save_action``; return the final
        version. ``ranked``: the game counts for the board; the people's ratings of the
        guild's current season move by the rating model in the same transaction."""
        ...

    async def set_away(self, table_id: int, away: Sequence[AwayState]) -> None:
        """Replace a game's away flags without logging an action (the host removed a player).

        Raises ``StaleVersion`` if the table is not playing, ``TableNotFound`` if unknown.
        """
        ...

    async def set_pace(
        self, table_id: int, options: Mapping[str, Any], turn_deadline: float | None
    ) -> None:
        """Replace a game's options and its turn's deadline without logging an action (its
        people agreed to go on at another pace).

        Raises ``StaleVersion`` if the table is not playing, ``TableNotFound`` if unknown.
        """
        ...

    async def end_table(self, table_id: int, status: EndStatus = "ended") -> bool:
        """Close a lobby or game without results, as ``ended`` (a person closed it) or
        ``abandoned`` (nobody can or does play it); ``False`` if it was already closed, and
        then its status stays as it was. ``ValueError`` for any other status."""
        ...

    # -- history ----------------------------------------------------------------------------

    async def actions(self, table_id: int) -> list[ActionRecord]:
        """A table's action log in order."""
        ...

    async def table_results(self, table_id: int) -> list[ResultRow]:
        """The result rows ``finish_game`` stored for a table, by seat."""
        ...

    async def recent_games(
        self, guild_id: int, user_id: int | None = None, limit: int = 10
    ) -> list[PlayedGame]:
        """The guild's last ``limit`` finished games, newest first; with ``user_id``, only
        those that member played."""
        ...

    async def leaderboard(
        self,
        guild_id: int,
        game_kind: GameKind = "shanghai",
        limit: int = 10,
        season: int | None = None,
    ) -> list[LeaderboardRow]:
        """A season's board (default: the current one): players with enough ranked games,
        best rating (openskill's ordinal) first."""
        ...

    async def current_season(self, guild_id: int) -> int:
        """The guild's season now: 1 until an admin starts the next."""
        ...

    async def start_season(self, guild_id: int, user_id: int) -> int:
        """Open the guild's next season; its number. Earlier seasons stay readable."""
        ...

    async def player_card(
        self, guild_id: int, user_id: int, game_kind: GameKind = "shanghai"
    ) -> PlayerCard | None:
        """What ``/shanghai stats`` shows of a player, or ``None`` without any result."""
        ...

    async def head_to_head(
        self, guild_id: int, user_id: int, other_id: int, game_kind: GameKind = "shanghai"
    ) -> HeadToHead:
        """Every game the two played together in the guild: who finished ahead."""
        ...

    async def server_records(
        self, guild_id: int, game_kind: GameKind = "shanghai"
    ) -> list[ServerRecord]:
        """The guild's records over its ranked games."""
        ...

    async def board_entries(self, guild_id: int, user_id: int) -> BoardEntries:
        """What a member has on the guild's board now."""
        ...

    async def remove_from_board(self, guild_id: int, user_id: int) -> BoardEntries:
        """Take a member's results off the guild's board (their ratings go); what it removed."""
        ...

    async def player_stats(
        self, guild_id: int, user_id: int, game_kind: GameKind = "shanghai"
    ) -> PlayerStats | None:
        """One player's record at one game in a guild, or ``None`` if they have no results."""
        ...

    # -- a member's own data, and the servers the bot left ------------------------------------

    async def member_data(self, user_id: int, *, departed: bool = False) -> dict[str, Any]:
        """Everything kept under ``user_id``, as one JSON-ready object: their games' results,
        ratings, open tables, tables seated at and hosted, seasons started, events organised,
        sign-ups, event seats and sit-outs; in the guilds the bot is still in, or
        (``departed``) in every guild (``data.members.MEMBER_COLUMNS`` lists the columns)."""
        ...

    async def erase_member(self, user_id: int) -> Erasure:
        """Anonymise ``user_id`` in every guild (the other players' games and events stay
        whole), delete their ratings; nothing, and the open tables and events in ``Erasure``,
        while they sit at an open table or are in an event not yet over."""
        ...

    async def guild_left(self, guild_id: int) -> None:
        """Note that the bot was removed from ``guild_id``; its data is due for deletion."""
        ...

    async def guild_returned(self, guild_id: int) -> None:
        """The bot is in ``guild_id`` again: its data is no longer due for deletion."""
        ...

    async def departed_guilds(self, after_seconds: float) -> list[int]:
        """The guilds the bot left at least ``after_seconds`` ago and is not back in."""
        ...

    async def purge_guild(self, guild_id: int) -> None:
        """Delete every row of ``guild_id`` (games, results, ratings, seasons, settings,
        events with their sign-ups, seats and sit-outs, its departure) in one transaction."""
        ...

    # -- settings of the deployment ---------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """A server's defaults as last stored (``{}`` when it has none); the bot validates."""
        ...

    async def set_guild_settings(self, guild_id: int, settings: Mapping[str, Any]) -> None:
        """Replace a server's defaults with ``settings`` (a JSON object)."""
        ...

    async def get_meta(self, key: str) -> str | None:
        """A value the bot keeps about itself (e.g. the hash of the synced commands)."""
        ...

    async def set_meta(self, key: str, value: str) -> None:
        """Remember ``value`` under ``key``, replacing any earlier one."""
        ...

    # -- events (data.events) ---------------------------------------------------------------

    async def create_event(
        self,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        name: str,
        options: Mapping[str, Any],
    ) -> EventRecord:
        """Open an event for sign-ups and return it."""
        ...

    async def get_event(self, event_id: int) -> EventRecord | None:
        """One event, or ``None`` for an unknown id."""
        ...

    async def open_events(self, guild_id: int | None = None) -> list[EventRecord]:
        """The events not yet over, of one guild or (``None``) of all, oldest first."""
        ...

    async def set_event_message(self, event_id: int, message_id: int | None) -> None:
        """Remember the event's message."""
        ...

    async def set_event_status(
        self, event_id: int, status: EventStatus, allowed_from: Sequence[EventStatus]
    ) -> bool:
        """Move the event to ``status`` if it is in one of ``allowed_from``; whether it moved."""
        ...

    async def sign_up(self, event_id: int, user_id: int, name: str, limit: int) -> SignUp:
        """Add a player while the event takes sign-ups and has fewer than ``limit``."""
        ...

    async def drop_out(self, event_id: int, user_id: int) -> bool:
        """Take a player off before the start; whether they were on."""
        ...

    async def remove_from_event(self, event_id: int, user_id: int) -> bool:
        """Mark a player removed after the start; later rounds leave them out."""
        ...

    async def event_players(self, event_id: int) -> list[EventPlayer]:
        """Everyone signed up, in sign-up order."""
        ...

    async def seat_round(
        self,
        event_id: int,
        round_number: int,
        tables: Sequence[Sequence[int]],
        sitting_out: Sequence[int],
        computers: Sequence[int] = (),
    ) -> bool:
        """Write a round's seating (with each table's computer seats) and make it current,
        only from the round before."""
        ...

    async def set_event_table(
        self, event_id: int, round_number: int, position: int, table_id: int
    ) -> bool:
        """Link a seated table of a round to the game table opened for it (once)."""
        ...

    async def event_tables(self, event_id: int) -> list[EventTable]:
        """Every seated table of the event, round by round."""
        ...

    async def event_sit_outs(self, event_id: int) -> list[tuple[int, int]]:
        """``(round, user_id)`` for every player who sat a round out."""
        ...

    async def event_of_table(self, table_id: int) -> int | None:
        """The event a game table belongs to, if any."""
        ...

    async def set_event_finishes(
        self, table_id: int, finishes: Sequence[tuple[int, int, int]]
    ) -> None:
        """Keep ``(user, place, total)`` of an event's table the organiser is ending."""
        ...

    async def set_event_options(self, event_id: int, options: Mapping[str, Any]) -> None:
        """Replace the event's options (a start time that passed, say)."""
        ...

    async def table_round(self, table_id: int) -> TableRound | None:
        """The event round a game table was seated in, with its other tables; ``None`` for
        a table of no event."""
        ...
