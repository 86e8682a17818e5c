"""What the channel sees of a change: the table message edited in place, and short notices.

Discord allows about 5 messages per 5 seconds per channel, so each channel has one outbox that
sends at most one table edit and one new message per ``interval`` (1.5 s by default). A burst
of changes (eight buy requests, an away player's whole turn) becomes a single edit drawn from
the latest state and a single notice holding every line. The first change after a quiet spell
goes out at once.

A new message (not an edit) mentions the player whose turn begins, because edits do not ping.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from engine.actions import (
    Action,
    BuyInTurn,
    Discard,
    DrawStock,
    GoDown,
    LayMelds,
    LayOff,
    SwapJoker,
    TakeUpcard,
)
from engine.events import DealEnded, GameEnded

from .pictures import TABLE_FILE, score_sheet_picture, table_picture
from .rendering import (
    card_text,
    event_lines,
    layoff_item_text,
    meld_text,
    score_sheet_text,
    standings_text,
)
from .views.table import render_table

if TYPE_CHECKING:
    from .service import Change, LiveTable, TableService

log = logging.getLogger(__name__)

MENTION_USERS = discord.AllowedMentions(users=True, roles=False, everyone=False, replied_user=False)


@dataclass
class Outbox:
    """One channel's pending edit and notice lines."""

    channel_id: int
    table: LiveTable | None = None
    lines: list[str] = field(default_factory=list)
    #: Score sheets to post as pictures: (names, sheet) after each deal.
    sheets: list[tuple[list[str], list[list[int]]]] = field(default_factory=list)
    last_sent: float = float("-inf")
    task: asyncio.Task[None] | None = None
    #: True while the drain waits out the pacing interval (and holds nothing in hand).
    pacing: bool = False


class Publisher:
    """The service's listener on the Discord side."""

    def __init__(self, bot: Any, interval: float = 1.5) -> None:
        self.bot = bot
        self.interval = interval
        self.boxes: dict[int, Outbox] = {}
        self.edits = 0
        self.notices = 0
        #: Set by ``flush``: outboxes stop pacing and send what they hold at once.
        self._hurry = False

    @property
    def service(self) -> TableService:
        return self.bot.service  # type: ignore[no-any-return]

    def table_changed(self, change: Change) -> None:
        table = change.table
        if change.kind == "abandoned":  # its channel is gone: nothing to show, nowhere
            self.forget(table.channel_id)
            return
        box = self.boxes.setdefault(table.channel_id, Outbox(table.channel_id))
        box.table = table
        box.lines.extend(self._lines(change))
        game = table.game
        if game is not None and any(
            isinstance(e, DealEnded) and e.reason != "void" for e in change.events
        ):
            box.sheets.append((list(table.names), [list(r) for r in game.view(None).score_sheet]))
        self._kick(box)

    def forget(self, channel_id: int) -> None:
        """Drop a channel's outbox and whatever it still meant to send there."""
        box = self.boxes.pop(channel_id, None)
        if box is not None and box.task is not None and not box.task.done():
            box.task.cancel()

    def refresh(self, table: LiveTable) -> None:
        """Redraw the table message (no notice)."""
        box = self.boxes.setdefault(table.channel_id, Outbox(table.channel_id))
        box.table = table
        self._kick(box)

    def _kick(self, box: Outbox) -> None:
        if box.task is None or box.task.done():
            box.task = asyncio.get_running_loop().create_task(
                self._drain(box), name=f"shanghai-outbox-{box.channel_id}"
            )

    async def _drain(self, box: Outbox) -> None:
        loop = asyncio.get_running_loop()
        while box.table is not None or box.lines or box.sheets:
            wait = box.last_sent + self.interval - loop.time()
            if wait > 0 and not self._hurry:
                box.pacing = True  # nothing taken from the box yet: ``flush`` may cancel this
                try:
                    await asyncio.sleep(wait)
                finally:
                    box.pacing = False
            table, box.table = box.table, None
            lines, box.lines = box.lines, []
            sheets, box.sheets = box.sheets, []
            try:
                if table is not None:
                    await self._edit(table)
                if lines:
                    await self._send(box.channel_id, lines)
                for names, sheet in sheets:
                    channel = await self._channel(box.channel_id)
                    await channel.send(file=await score_sheet_picture(names, sheet))
                    self.notices += 1
            except Exception:
                log.exception("could not update channel %s", box.channel_id)
            box.last_sent = loop.time()

    async def flush(self) -> None:
        """Send every pending edit and notice now, without pacing, and wait until they are out.

        Shutdown calls this so that the last changes before a restart reach the channel;
        afterwards the publisher stays unpaced, which only matters to a bot about to close.
        """
        self._hurry = True
        for box in list(self.boxes.values()):
            if box.task is not None and box.pacing:
                box.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await box.task
                self._kick(box)
        while pending := [b.task for b in self.boxes.values() if b.task and not b.task.done()]:
            await asyncio.gather(*pending, return_exceptions=True)

    async def _channel(self, channel_id: int) -> Any:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(channel_id)
        return channel

    async def _edit(self, table: LiveTable) -> None:
        message_id = table.record.message_id
        if message_id is None:
            return
        embed, view = render_table(self.service, table)
        attachments: list[discord.File] = []
        if table.game is not None and not table.closed:
            attachments.append(await table_picture(table.game.view(None), table.names))
            embed.set_image(url=f"attachment://{TABLE_FILE}")
        channel = await self._channel(table.channel_id)
        try:
            await channel.get_partial_message(message_id).edit(
                embed=embed, view=view, attachments=attachments
            )
            self.edits += 1
        except discord.NotFound:
            log.info("table %s message is gone; /shanghai table re-posts it", table.id)

    async def _send(self, channel_id: int, lines: list[str]) -> None:
        channel = await self._channel(channel_id)
        text = "\n".join(lines)
        while text:
            chunk, text = text[:2000], text[2000:]
            await channel.send(chunk, allowed_mentions=MENTION_USERS)
            self.notices += 1

    # -- what to say ---------------------------------------------------------------------------

    def _lines(self, change: Change) -> list[str]:
        table = change.table
        names = table.names
        lines: list[str] = []
        if change.kind in ("lobby", "window", "restore"):
            return lines
        if change.kind == "end":
            return ["The table was ended. Start a new one with `/shanghai new`."]
        if change.auto_seat is not None:
            name = names[change.auto_seat]
            if change.auto_actions and isinstance(change.auto_actions[-1], Discard):
                why = "ran out of time" if change.kind == "timeout" else "is away"
                did = did_text(change.auto_actions)
                lines.append(f"⏰ **{name}** {why}: for them I {did}.")
                state = table.away[change.auto_seat] if change.auto_seat < len(table.away) else None
                if change.kind == "timeout" and state is not None and state.away:
                    lines.append(
                        f"💤 {name} is now marked away and will be played at once until "
                        "they click anything."
                    )
        lines.extend(event_lines(change.events, names))
        for event in change.events:
            if isinstance(event, DealEnded) and event.reason != "void" and table.game is not None:
                sheet = table.game.view(None).score_sheet
                round_name = "deal" if table.game.is_shanghai else "hand"
                lines.append(f"**Score sheet after {round_name} {event.deal}**")
                lines.append(score_sheet_text(names, sheet))
            if isinstance(event, GameEnded):
                lines.append("🏁 **Game over!** Final standings:")
                lines.append(standings_text(names, list(event.totals), event.winners))
        game = table.game
        if change.new_turn and game is not None and not game.is_over and not table.closed:
            seat = game.current
            away = seat < len(table.away) and table.away[seat].away
            if not away and not table.is_computer(seat):  # computers get no ping
                user_id = table.record.seats[seat].user_id
                lines.append(f"▶️ <@{user_id}>, your turn (deal {game.deal}).")
        return lines


def did_text(actions: list[Action]) -> str:
    """What the bot did for a seat, in order: ``drew from the stock, went down, laid off 7♥
    on #2 and discarded K♠`` (the timeout notice names every step, not a fixed phrase)."""
    parts: list[str] = []
    for action in actions:
        if isinstance(action, DrawStock):
            parts.append("drew from the stock")
        elif isinstance(action, TakeUpcard):
            parts.append("took the upcard")
        elif isinstance(action, BuyInTurn):
            parts.append("bought in turn")
        elif isinstance(action, GoDown):
            parts.append("went down")
        elif isinstance(action, LayMelds):
            parts.append("laid " + " and ".join(meld_text(m) for m in action.melds))
        elif isinstance(action, LayOff):
            parts.append("laid off " + ", ".join(layoff_item_text(i) for i in action.items))
        elif isinstance(action, SwapJoker):
            parts.append(f"swapped {card_text(action.swap.card)} for a joker")
        elif isinstance(action, Discard):
            parts.append(f"discarded {card_text(action.card)}")
    if len(parts) > 1:
        return ", ".join(parts[:-1]) + " and " + parts[-1]
    return parts[0] if parts else "played"
