"""Checks every component callback makes before it acts: where it was clicked, and by whom.

A custom_id names a table, and Discord only delivers ids the bot put on its own messages today.
A bot must not rely on that: a modified client or a future change could send any
id, so a forged ``sh:end:<table>:<user>:yes`` would end any table in any server and a forged
``sh:join:<table>`` would seat a member of another server. So each callback asks here:

- ``table_here``: the table is open and is the one of the channel (and server) the click came
  from; a control from anywhere else changes nothing;
- ``require_may_end``: the clicker is the host or may manage the channel, checked again at the
  confirmation, not only when ``/shanghai end`` was typed;
- ``is_public``: a hand control carried by a public message (where it never is) opens the
  clicker's hand privately instead of drawing it over the public message (``views/hand.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.ground.errors import NotHost, UserError

if TYPE_CHECKING:
    from bot.service import LiveTable

ELSEWHERE = "That control belongs to a table in another channel, so nothing was done."


def table_here(interaction: discord.Interaction[Any], table_id: int) -> LiveTable:
    """The open table ``table_id`` if the interaction came from its channel and server."""
    table: LiveTable = interaction.client.service.get(table_id)
    if table.channel_id != interaction.channel_id or table.record.guild_id != interaction.guild_id:
        raise UserError(ELSEWHERE, code="elsewhere")
    return table


def require_may_end(interaction: discord.Interaction[Any], table: LiveTable) -> None:
    """Only the host, or a member who may manage the channel, ends a table."""
    if interaction.user.id == table.record.host_id:
        return
    if not interaction.permissions.manage_channels:
        raise NotHost("end the table (or someone with Manage Channels)", code="not_host.end")


def is_public(interaction: discord.Interaction[Any]) -> bool:
    """Whether the component was clicked on a message everyone in the channel sees."""
    message = interaction.message
    return message is not None and not message.flags.ephemeral
