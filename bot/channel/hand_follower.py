"""The hand follows its player: open hand messages are redrawn when something reaches them.

Each time a player's hand message is drawn in answer to their click, the interaction is kept
(its webhook token may edit that message for 15 minutes). Every change at the table carries
each followed player's ``SeatSnapshot`` (the service builds it under the table's lock for the
players ``watched`` names) and, when its tag differs from what
the message shows (their turn began, a bought or penalty card or a held draw reached them, a
new deal was dealt, the game ended), edits the message through the webhook: no channel call,
and the picture is uploaded again only when the hand itself changed. Once the token is too old,
the player gets the hand again from the turn message's **My hand**.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import interaction_language, t
from bot.interactions.answers import awaiting_answer
from bot.process.logs import at_ids
from bot.screens.hand_text import dealt_note, ending_text, pause_text
from bot.screens.text import SortMode, cards_text
from bot.service.snapshot import settled
from bot.views.hand import hand_files, render_hand
from engine.cards import Card

if TYPE_CHECKING:
    from bot.service import Change, SeatSnapshot

log = logging.getLogger(__name__)

#: Discord lets an interaction's token edit its message for 15 minutes; keep a margin.
TOKEN_SECONDS = 14 * 60
#: The tag of a hand message that shows a deal's recap alone (no hand, no controls).
PAUSED = "paused"
#: How long a click waits for a push already on its way to its hand (one edit's time).
PUSH_WAIT_SECONDS = 1.0


@dataclass
class Followed:
    """One player's open hand message and what it shows."""

    interaction: discord.Interaction[Any]
    sort: SortMode
    tag: str
    hand: tuple[str, ...]
    since: float
    task: asyncio.Task[None] | None = None
    dirty: bool = False
    #: The newest screen a change brought for this player (a closed table's says so).
    latest: SeatSnapshot | None = None
    #: Clicks on this hand still being answered: their own answer is newer than any push
    #: (a compound play makes several changes in one click, and a push of the first of them
    #: could land after the answer and show a hand that no longer is).
    clicks: int = 0


class HandFollower:
    """Open hand messages by (table, player), redrawn after the changes that concern them."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.followed: dict[tuple[int, int], Followed] = {}
        self.pushes = 0

    def _now(self) -> float:
        return discord.utils.utcnow().timestamp()

    def shown(
        self, interaction: discord.Interaction[Any], snap: SeatSnapshot, sort: SortMode
    ) -> None:
        """``interaction`` just drew ``snap``: follow that message from now on."""
        key = (snap.table_id, snap.user_id)
        old = self.followed.get(key)
        hand = tuple(sorted(str(c) for c in snap.view.hand or ()))
        tag = snap.tag
        if snap.paused_until is not None:  # a recap alone: the next deal is drawn in full
            tag, hand = PAUSED, ()
        followed = Followed(interaction, sort, tag, hand, self._now())
        if old is not None:
            followed.clicks = old.clicks
        if old is not None and old.task is not None and not old.task.done():
            followed.task, followed.dirty = old.task, old.dirty
        self.followed[key] = followed

    def forget(self, table_id: int, user_id: int) -> None:
        """Stop following this player's hand (they left the game: their message says so)."""
        self.followed.pop((table_id, user_id), None)

    def follows(self, table_id: int, user_id: int) -> bool:
        """Whether this player's open hand can still be updated for them (a live token)."""
        followed = self.followed.get((table_id, user_id))
        return followed is not None and self._now() - followed.since <= TOKEN_SECONDS

    def watched(self, table_id: int) -> list[int]:
        """The players of ``table_id`` whose open hands can still be updated."""
        return [user for (table, user) in self.followed if table == table_id]

    def table_changed(self, change: Change) -> None:
        table = change.table
        for (table_id, user_id), followed in list(self.followed.items()):
            if table_id != table.id:
                continue
            if self._now() - followed.since > TOKEN_SECONDS:
                del self.followed[(table_id, user_id)]
                continue
            snap = change.seats.get(user_id)
            if snap is None:
                continue  # nothing of theirs can have changed
            followed.latest = snap
            followed.dirty = True
            self._kick(table_id, user_id)

    async def answering(self, table_id: int, user_id: int) -> None:
        """A click on this player's hand is being handled: no push until its answer is out
        (``answered``), and a push already on its way lands first."""
        followed = self.followed.get((table_id, user_id))
        if followed is None:
            return
        followed.clicks += 1
        task = followed.task
        if task is not None and not task.done() and task is not asyncio.current_task():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(task), PUSH_WAIT_SECONDS)

    def answered(self, table_id: int, user_id: int, *, click: bool = False) -> None:
        """The message's own answer went out (``click``: the answer to a click that called
        ``answering``): push whatever changed meanwhile."""
        followed = self.followed.get((table_id, user_id))
        if click and followed is not None and followed.clicks > 0:
            followed.clicks -= 1
        self._kick(table_id, user_id)

    def _kick(self, table_id: int, user_id: int) -> None:
        followed = self.followed.get((table_id, user_id))
        if followed is None or not followed.dirty:
            return
        if followed.task is None or followed.task.done():
            followed.task = asyncio.get_running_loop().create_task(
                self._push(table_id, user_id), name=f"shanghai-hand-{table_id}-{user_id}"
            )

    async def _push(self, table_id: int, user_id: int) -> None:
        key = (table_id, user_id)
        while True:
            followed = self.followed.get(key)
            if followed is None or not followed.dirty:
                return
            if awaiting_answer(followed.interaction) or followed.clicks:
                return  # its own answer is on the way; ``answered`` looks again after it
            followed.dirty = False
            language = interaction_language(followed.interaction)  # the player's own language
            snap = followed.latest
            try:
                if snap is None:
                    return
                if snap.tag == followed.tag:
                    continue
                if snap.paused_until is not None and not snap.over:  # the recap alone
                    await followed.interaction.edit_original_response(
                        content=pause_text(snap, language), view=None, attachments=[]
                    )
                    followed.tag, followed.hand = PAUSED, ()
                    continue
                hand = tuple(sorted(str(c) for c in snap.view.hand or ()))
                gained = Counter(hand) - Counter(followed.hand)
                note = None
                if followed.tag == PAUSED:
                    note = dealt_note(snap, language)
                elif gained and snap.gained == ():
                    cards = sorted((Card.parse(c) for c in gained.elements()), key=Card.sort_key)
                    note = t("hand.you_got", language, cards=cards_text(cards))
                if snap.over or snap.removed:
                    # The game is over, or the bot plays this seat for good (they left, were
                    # removed, or left the server): say so once, and follow no more.
                    self.followed.pop(key, None)
                    text = (
                        ending_text(snap, language) if snap.over else t("hand.seat_gone", language)
                    )
                    await followed.interaction.edit_original_response(
                        content=text, view=None, attachments=[]
                    )
                    return
                if snap.later is not None:  # its legal plays, computed off the event loop
                    snap = await settled(snap)
                    if self.followed.get(key) is not followed:
                        continue  # the message's own answer was drawn meanwhile: it is newer
                content, ui = render_hand(snap, followed.sort, note=note, language=language)
                if hand != followed.hand:
                    files = await hand_files(snap, followed.sort, language=language)
                    await followed.interaction.edit_original_response(
                        content=content, view=ui, attachments=files
                    )
                else:
                    await followed.interaction.edit_original_response(content=content, view=ui)
                followed.tag, followed.hand = snap.tag, hand
                self.pushes += 1
            except (discord.HTTPException, ValueError):
                where = at_ids(followed.interaction.guild_id, table_id)
                log.info("%s: could not follow a hand; it waits for My hand", where)
                self.followed.pop(key, None)
                return
