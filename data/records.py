"""Plain values that come out of (and go into) the store: one frozen dataclass per kind of row.

Terminology:

- table: one game in one channel, from lobby to its end; a channel has at most one *open*
  (lobby or playing) table at a time, and any number of finished or ended ones as history.
- seat: one place at a table, in play order; a seat holds a human or a computer player.
- version: how many actions the table has accepted; ``save_action`` checks it so two writers
  cannot both build on the same state.
- result: one row per seat the caller chose to record when a game finishes (normally the
  humans), which the leaderboard and player stats add up.

The records hold decoded values (seats as ``Seat``, options as a mapping) but the engine's state
stays the JSON text the engine wrote: the store never looks inside it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

#: The game a table plays; the same values as ``engine.rules.GameKind`` (a test keeps them equal),
#: repeated here so the storage layer does not import the engine.
GameKind = Literal["shanghai", "rummy"]

#: Where a table is in its life: ``lobby`` -> ``playing`` -> ``finished``; ``ended`` when its
#: host (or a moderator) closed it without a normal finish; ``abandoned`` when the bot closed it
#: because nobody can or does play it any more (its channel or server is gone, or no person
#: acted for a day). Neither of the last two has results.
TableStatus = Literal["lobby", "playing", "finished", "ended", "abandoned"]

#: How ``end_table`` may close a table: by a person's decision, or because it was abandoned.
EndStatus = Literal["ended", "abandoned"]
END_STATUSES: Final[tuple[EndStatus, ...]] = ("ended", "abandoned")

#: Statuses that occupy the channel and must be restored after a restart.
OPEN_STATUSES: Final[tuple[TableStatus, ...]] = ("lobby", "playing")

_LOWER_IS_BETTER: Final[Mapping[GameKind, bool]] = {"shanghai": True, "rummy": False}


def lower_is_better(game_kind: GameKind) -> bool:
    """Whether a lower total ranks higher: penalty points in Shanghai, points won in Rummy."""
    return _LOWER_IS_BETTER[game_kind]


@dataclass(frozen=True, slots=True)
class Seat:
    """A place at a table. ``level`` is the computer's strength and ``None`` for a human."""

    user_id: int
    name: str
    is_computer: bool = False
    level: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON object stored in ``tables.seats``."""
        return {
            "user_id": self.user_id,
            "name": self.name,
            "is_computer": self.is_computer,
            "level": self.level,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Seat:
        """Read back what ``to_json`` wrote; missing optional keys take their defaults."""
        level = obj.get("level")
        return cls(
            user_id=int(obj["user_id"]),
            name=str(obj["name"]),
            is_computer=bool(obj.get("is_computer", False)),
            level=None if level is None else str(level),
        )


@dataclass(frozen=True, slots=True)
class AwayState:
    """One seat's timeout record: consecutive timed-out turns, and whether it is marked away.

    The bot decides what a timeout means (auto-play, mark away after N); the store only keeps the
    numbers so that a restart does not forgive a player who keeps timing out.
    """

    timeouts: int = 0
    away: bool = False
    #: The seat's draw held for the buy window (the action's text, e.g. ``draw``), so that a
    #: restart keeps it; empty when none.
    held: str = ""
    #: The seat's buy preference (``ask``, ``helps``, ``never``); empty: the default.
    buy: str = ""
    #: The seat's actions so far that its person made (``own``) and that the bot made for
    #: them (``auto``: timeouts, away, after leaving), so that a person the bot played for most
    #: of the game ranks last among the people.
    own: int = 0
    auto: int = 0
    #: At a relaxed table: the turn deadline whose reminder this seat's person was sent, and
    #: the last person's action after which they were warned that the table will end for want
    #: of play; kept so that a restart neither sends them again nor forgets them.
    reminded: float = 0.0
    warned: float = 0.0
    #: The seat's person wants a relaxed table's notices by direct message, not in its thread.
    dm: bool = False
    #: When the seat's person last acted themself (unix time; 0: not yet), so that a restart
    #: knows how long a relaxed table has gone without a person's move.
    acted: float = 0.0
    #: At a relaxed table, the most cards a deal the seat's standing buy order buys (-1: as
    #: many as the rules allow).
    buy_limit: int = -1
    #: At a relaxed table: the turn deadline whose turn-start notice this seat's person got
    #: (posted, sent, or seen in their open hand). A turn whose deadline is saved and not yet
    #: here is a notice due, so a restart between the turn's commit and the notice sends it.
    told: float = 0.0

    def stored(self, *, held: str, buy: str, removed_as: int | None = None) -> AwayState:
        """This record with what the table keeps beside it: the seat's held draw and buy
        preference, and for a seat removed for good ``removed_as``, the timeouts that mark it
        (away, too). Built field by field because it is built for every seat at every commit,
        where ``dataclasses.replace`` costs about three times as much."""
        removed = removed_as is not None
        return AwayState(
            timeouts=removed_as if removed_as is not None else self.timeouts,
            away=removed or self.away,
            held=held,
            buy=buy,
            own=self.own,
            auto=self.auto,
            reminded=self.reminded,
            warned=self.warned,
            dm=self.dm,
            acted=self.acted,
            buy_limit=self.buy_limit,
            told=self.told,
        )

    def counted(self, *, by_bot: bool, at: float | None = None) -> AwayState:
        """One more action of the seat: made by the bot for it, or by its person (``at``: when
        that person acted, kept as ``acted``)."""
        return AwayState(
            timeouts=self.timeouts,
            away=self.away,
            held=self.held,
            buy=self.buy,
            own=self.own + (not by_bot),
            auto=self.auto + by_bot,
            reminded=self.reminded,
            warned=self.warned,
            dm=self.dm,
            acted=self.acted if at is None else at,
            buy_limit=self.buy_limit,
            told=self.told,
        )

    def to_json(self) -> dict[str, Any]:
        """The JSON object stored, one per seat, in ``tables.away``."""
        data: dict[str, Any] = {"timeouts": self.timeouts, "away": self.away}
        if self.held:
            data["held"] = self.held
        if self.buy:
            data["buy"] = self.buy
        if self.own:
            data["own"] = self.own
        if self.auto:
            data["auto"] = self.auto
        if self.reminded:
            data["reminded"] = self.reminded
        if self.warned:
            data["warned"] = self.warned
        if self.dm:
            data["dm"] = True
        if self.acted:
            data["acted"] = self.acted
        if self.buy_limit >= 0:
            data["buy_limit"] = self.buy_limit
        if self.told:
            data["told"] = self.told
        return data

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> AwayState:
        """Read back what ``to_json`` wrote."""
        return cls(
            timeouts=int(obj.get("timeouts", 0)),
            away=bool(obj.get("away", False)),
            held=str(obj.get("held", "")),
            buy=str(obj.get("buy", "")),
            own=int(obj.get("own", 0)),
            auto=int(obj.get("auto", 0)),
            reminded=float(obj.get("reminded", 0.0)),
            warned=float(obj.get("warned", 0.0)),
            dm=bool(obj.get("dm", False)),
            acted=float(obj.get("acted", 0.0)),
            buy_limit=int(obj.get("buy_limit", -1)),
            told=float(obj.get("told", 0.0)),
        )


@dataclass(frozen=True, slots=True)
class TablePlace:
    """Where an open table is and when it last changed: what a process needs of a table before
    it reads the whole row (``Store.open_places``; the bot restores its tables lazily)."""

    id: int
    guild_id: int
    channel_id: int
    parent_channel_id: int | None
    updated_at: float


@dataclass(frozen=True, slots=True)
class TableRecord:
    """One row of ``tables``: everything needed to show a table or resume its game.

    ``state`` is the engine's JSON (``None`` until the game starts); ``version`` is the number of
    accepted actions, to be passed back as ``expected_version``. Deadlines are unix times.
    """

    id: int
    guild_id: int
    channel_id: int
    game_kind: GameKind
    status: TableStatus
    host_id: int
    message_id: int | None
    seats: tuple[Seat, ...]
    options: Mapping[str, Any]
    state: str | None
    version: int
    buy_deadline: float | None
    turn_deadline: float | None
    away: tuple[AwayState, ...]
    created_at: float
    updated_at: float
    #: The channel the lobby was opened in, when the game moved into a thread made from the
    #: lobby message (``channel_id`` is then the thread); None for a game in its channel.
    parent_channel_id: int | None = None

    @property
    def is_open(self) -> bool:
        """Lobby or playing: the table still occupies its channel."""
        return self.status in OPEN_STATUSES


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One row of the audit log: the ``seq``-th accepted action of a table, as the bot wrote it."""

    table_id: int
    seq: int
    user_id: int
    action: str
    created_at: float


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One seat's outcome of a finished game, as the caller reports it to ``finish_game``.

    The store adds the table, guild, game kind and finish time itself, so a result cannot be
    filed under the wrong guild.
    """

    user_id: int
    name: str
    seat: int
    total: int
    is_winner: bool
    deals_out: int = 0
    blind_outs: int = 0
    buys_used: int = 0
    #: The person's place among the people of the game (1 = best, ties share a place; a person
    #: who left, was removed or was played by the bot for most of the game comes last). 0 for
    #: a computer, and for rows written before places existed.
    place: int = 0


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One finished game of a guild as its history lists it: where it was played, when it
    ended, every seat (computers too) and the people's results (a computer has no result)."""

    table_id: int
    channel_id: int
    game_kind: GameKind
    finished_at: float
    seats: tuple[Seat, ...]
    #: The people's result rows, by seat.
    results: tuple[ResultRow, ...]


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One player's line on a guild's board for one season: ranked games only.

    ``rating`` is the conservative skill estimate the board sorts by (openskill's ordinal,
    ``mu - 3 sigma``); ``name`` is the one from their latest ranked game.
    """

    user_id: int
    name: str
    games: int
    wins: int
    average_total: float
    best_total: int
    rating: float = 0.0
    mu: float = 0.0
    sigma: float = 0.0


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One finished game in a player's history, ranked or casual."""

    table_id: int
    finished_at: float
    total: int
    is_winner: bool
    ranked: bool
    place: int
    deals_out: int
    blind_outs: int
    buys_used: int


@dataclass(frozen=True, slots=True)
class PlayerCard:
    """Everything ``/shanghai stats`` shows of one player in one guild and game.

    ``recent`` is their last games, oldest first (ranked and casual, each marked); the best
    game and the longest win streak count ranked games only, so a one-deal game against a
    computer is no record. ``rating`` and ``board_games`` are of the current season (``None``
    and 0 before their first ranked game in it).
    """

    stats: PlayerStats
    ranked_games: int
    recent: tuple[HistoryEntry, ...]
    best_ranked_total: int | None
    longest_win_streak: int
    season: int
    rating: float | None
    board_games: int


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two members' games together: who finished ahead of whom among the people."""

    user_id: int
    other_id: int
    games: int
    ranked_games: int
    ahead: int
    behind: int
    level: int
    average_total: float | None
    other_average_total: float | None


@dataclass(frozen=True, slots=True)
class ServerRecord:
    """One record of a guild: who holds it, with what, and (for one game) in which table."""

    kind: str
    user_id: int
    name: str
    value: int
    table_id: int | None = None


@dataclass(frozen=True, slots=True)
class BoardEntries:
    """What a member has on a guild's board: results and ranked games, and their seasons."""

    user_id: int
    results: int
    ranked_games: int
    seasons: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's totals in one guild and game kind; the counts are sums over all games."""

    user_id: int
    name: str
    game_kind: GameKind
    games: int
    wins: int
    average_total: float
    best_total: int
    deals_out: int
    blind_outs: int
    buys_used: int

    @property
    def win_rate(self) -> float:
        """Wins per game played, between 0 and 1."""
        return self.wins / self.games
