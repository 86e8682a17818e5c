"""Table messages carried on people's clicks: follow-ups instead of the token's REST calls.

Discord counts every channel call of a bot token against its global limit (about 50 a second
for all its tables), but not the calls of an interaction's own webhook: for 15 minutes after a
click, ``POST /webhooks/{app}/{token}`` posts a follow-up (public, even when the clicked
message is an ephemeral hand) and ``PATCH /webhooks/{app}/{token}/messages/{id}`` edits it.
A busy table has a person clicking in their hand every few turns, so the table message can
ride on those clicks and leave the token's budget to the tables nobody clicks at.

The ``Courier`` only keeps tokens; the publisher asks it and decides:

- ``offer``: a person's click at a table was answered (their hand redrawn); its interaction is
  kept as that table's freshest carrier, with the moment Discord made it (its token's age).
- ``editor``: the carrier that posted a message, while its token may still edit it
  (``EDIT_SECONDS``): a webhook message can only be edited through the token that made it.
- ``fresh``: the table's freshest carrier young enough to post the table message anew and
  edit it for a while (``HANDOVER_SECONDS``), at most ``POSTS_PER_TOKEN`` posts each.
- ``posted`` / ``dropped``: a message it carried, and a token that failed (it answers no more).

Whatever it cannot carry goes the REST way, budgeted as before; nothing here holds a hand,
and the tokens (secrets) are never logged or stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from bot.interactions.answers import awaiting_answer
from bot.interactions.permissions import missing_here

#: Discord lets an interaction's token post and edit for 15 minutes: a minute's margin.
EDIT_SECONDS = 14 * 60.0
#: A token older than this posts no new table message, and a table message whose token is
#: this old moves to a fresher one when a click brought one (its old token still strips it).
HANDOVER_SECONDS = 12 * 60.0
#: Follow-ups one token posts at most (Discord allows only 5 in some contexts).
POSTS_PER_TOKEN = 5


@dataclass(eq=False)
class Carrier:
    """One click's webhook: who may post and edit through it, and since when."""

    webhook: discord.Webhook = field(repr=False)
    #: When Discord made the interaction (POSIX seconds): its token's life starts there.
    since: float
    table_id: int
    channel_id: int
    posts: int = 0

    def age(self, now: float) -> float:
        return now - self.since


class Courier:
    """The freshest click token per table, and which token posted which table message."""

    def __init__(self) -> None:
        self.tables: dict[int, Carrier] = {}
        self.messages: dict[int, Carrier] = {}
        #: Calls carried through clicks' webhooks, and carried calls that failed (then the
        #: REST way took them): for the metrics and the benchmark.
        self.carried = 0
        self.failed = 0

    @staticmethod
    def now() -> float:
        return discord.utils.utcnow().timestamp()

    def offer(self, table_id: int, interaction: discord.Interaction[Any]) -> None:
        """A person's click at ``table_id`` was answered: its token may carry the table's
        messages. Only a click in a server channel can (a direct message is not the table's),
        only one answered already (a follow-up before the answer would replace it), and only
        where the bot may post the table itself: Discord takes a follow-up whatever the
        channel's permissions say, and a server that took the bot's Send Messages away does
        not get the table through the back door (the REST way tells the host instead)."""
        channel_id = interaction.channel_id
        if channel_id is None or interaction.guild_id is None:
            return
        if missing_here(interaction.app_permissions):
            self.forget(table_id)
            return
        if awaiting_answer(interaction):
            return
        since = interaction.created_at.timestamp()
        held = self.tables.get(table_id)
        if held is not None and held.since >= since:
            return
        self.tables[table_id] = Carrier(interaction.followup, since, table_id, channel_id)
        self._prune()

    def fresh(self, table_id: int, channel_id: int) -> Carrier | None:
        """The table's carrier that may post its message anew in ``channel_id`` now."""
        carrier = self.tables.get(table_id)
        if carrier is None or carrier.channel_id != channel_id:
            return None
        if carrier.age(self.now()) >= HANDOVER_SECONDS or carrier.posts >= POSTS_PER_TOKEN:
            return None
        return carrier

    def editor(self, message_id: int | None) -> Carrier | None:
        """The carrier that posted ``message_id``, while its token may still edit it."""
        carrier = None if message_id is None else self.messages.get(message_id)
        if carrier is None or carrier.age(self.now()) >= EDIT_SECONDS:
            return None
        return carrier

    def handover(self, table_id: int, message_id: int | None, channel_id: int) -> bool:
        """Whether the table message should move onto a fresher click: it is carried by no
        live token, or by one near its end, and a click brought a token with time ahead."""
        fresh = self.fresh(table_id, channel_id)
        if fresh is None:
            return False
        carrier = self.editor(message_id)
        if carrier is None:
            return True
        return carrier is not fresh and carrier.age(self.now()) >= HANDOVER_SECONDS

    def posted(self, carrier: Carrier, message_id: int) -> None:
        carrier.posts += 1
        self.messages[message_id] = carrier

    def dropped(self, carrier: Carrier) -> None:
        """``carrier``'s token failed: it carries nothing more."""
        self.failed += 1
        for table_id, held in list(self.tables.items()):
            if held is carrier:
                del self.tables[table_id]
        for message_id, held in list(self.messages.items()):
            if held is carrier:
                del self.messages[message_id]

    def forget(self, table_id: int) -> None:
        """The table closed, or its channel refuses the bot: its clicks carry nothing more."""
        self.tables.pop(table_id, None)
        for message_id, held in list(self.messages.items()):
            if held.table_id == table_id:
                del self.messages[message_id]

    def _prune(self) -> None:
        """Drop the tokens past their life, so the maps stay as small as the busy tables."""
        now = self.now()
        for mapping in (self.tables, self.messages):
            for key, carrier in list(mapping.items()):
                if carrier.age(now) >= EDIT_SECONDS:
                    del mapping[key]
