"""What a channel still has to be shown: its outbox, and the pace its calls keep.

One ``Outbox`` per channel holds the next table to draw, the notice lines and score sheets not
sent yet, where the table message is and what it shows; the publisher fills it from changes and
its drain empties it, at most ``RATE`` calls in any window.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.ground.backoff import Backoff
from bot.i18n import Language

if TYPE_CHECKING:
    from bot.service.table_snapshot import TableSnapshot


def new_backoff() -> Backoff:
    """A channel's back-off after a failed delivery: 2 s at first, at most a minute."""
    return Backoff(first=2.0, ceiling=60.0)


@dataclass(frozen=True)
class Sheet:
    """A deal's end in the channel: who went out, the scores (words for screen readers and
    members who load no pictures) and the chart, in one message."""

    names: list[str]
    sheet: list[list[int]]
    language: Language
    text: str
    winners: tuple[int, ...] | None = None


@dataclass
class Outbox:
    """One channel's pending edit and notice lines."""

    channel_id: int
    #: The table as it should be drawn next (None: nothing to redraw).
    table: TableSnapshot | None = None
    #: The latest snapshot seen, drawn or not: what the channel's table looks like now.
    last: TableSnapshot | None = None
    #: Where the table message is, once this outbox posted it or was told (``posted``), and
    #: the text it was posted with (None: a command posted it, with an embed only).
    message_id: int | None = None
    posted_text: str | None = None
    #: The message id is not recorded in the database yet (its write was refused).
    id_unsaved: bool = False
    #: Table messages moved away from whose controls are still to be taken off: (id, whether
    #: it has text of its own).
    to_strip: list[tuple[int, str | None]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    #: Score sheets to post after each deal, each one message with its words and picture.
    sheets: list[Sheet] = field(default_factory=list)
    last_sent: float = float("-inf")
    task: asyncio.Task[None] | None = None
    #: True while the drain waits out the pacing interval (and holds nothing in hand).
    pacing: bool = False
    #: The "your turn" lines for the next move of the table message, in order (one normally;
    #: more when Discord refused a move for a while: none is lost).
    pings: list[str] = field(default_factory=list)
    #: The relaxed turns whose notice is one of ``pings``: (the line, the table, the turn's
    #: deadline), saved as told once the line is posted.
    told: list[tuple[str, int, float]] = field(default_factory=list)
    #: The last lines of what happened, shown in the table message's text.
    recent: list[str] = field(default_factory=list)
    #: What the table message shows now (text, embed, buttons) and its picture's digest.
    shown: str | None = None
    picture: str | None = None
    #: Messages posted in the channel since the table message (by anyone).
    after: int = 0
    #: Failed drain rounds in a row (Discord down, a permission revoked): retry later.
    backoff: Backoff = field(default_factory=new_backoff)
    #: Whether the host has been told that the bot lacks a permission here.
    host_told: bool = False
    #: The table message was deleted (an edit found it gone): the next draw posts it anew.
    gone: bool = False
    #: The table message stripped ahead of a move whose post has not gone out yet: the
    #: retry does not strip it again.
    stripped: int | None = None
    #: Table messages left behind by a move onto a click, whose post went first: stripped
    #: after it, when the token has room (``Placement._strip_later``), by their own task.
    late: list[tuple[int, str | None]] = field(default_factory=list)
    late_task: asyncio.Task[None] | None = None


#: At most this many channel calls in any window of this many seconds (Discord's limit).
RATE = (5, 5.0)
#: Lines of what happened kept in the table message's text.
RECENT_LINES = 6
#: When every person follows their open hand (their turn, Buy and Pass reach them there),
#: the table message is only read (by spectators): it is redrawn at most once per this many
#: ``interval``s (12 s), so a turn's draw, discard and window become one edit and two or
#: three quick turns share one.
QUIET_TURNS = 8
#: The same table's pace when its redraws ride on a click, unless the operator chose another
#: (``Settings.spectator_seconds``): at most once per this many ``interval``s (12 s). Such an
#: edit costs the token nothing, but it is still one of the channel's calls and uploads a
#: changed picture, so it is paced for the channel's calls a turn. Measured on the whole game
#: of ``tools.bench_play`` (4 people; the table message behind its game, median / p99): 3
#: intervals (4.5 s) make 1.08 calls a turn, 1.53 MiB, 0.5 / 4.0 s behind; 8 (12 s) 0.46
#: calls, 0.98 MiB, 9.5 / 11.5 s behind. Only 8 keeps to half a call a turn, the channel's
#: budget a game, and no faster pace does; the spectators' wait is then the quiet pace's, as
#: on the REST way, with the token left free.
CARRIED_TURNS = 8
