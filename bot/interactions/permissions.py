"""Permissions up front: a table is opened only where the bot can run it.

Without Send Messages, Embed Links or Attach Files the table message cannot be posted or
redrawn; a game started there anyway would reach its players only as the host's one direct
message (``bot.channel.delivery``). So ``/shanghai new`` and ``/rummy new`` read the permissions
Discord
sends with the interaction itself (``app_permissions``: the bot's, in this channel, overwrites
included, known even when the channel is not in the cache) and refuse privately, in the
member's language, naming exactly what is missing, before anything is written or posted.

The list is ``NEEDED``, the same the host is told about when a permission is
revoked during a game, and the README's invite section names the same five.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.ground.errors import UserError
from bot.i18n import interaction_language, t


class BotLacksPermissions(UserError):
    """The bot lacks permissions it needs in this channel; ``missing`` names them."""

    code = "bot_missing_permissions"


#: What the bot needs in a table's channel (``discord.Permissions`` flags). The host reads
#: each by the name Discord's settings show in the table's language (``permission.<flag>``).
NEEDED = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")


def missing_here(permissions: discord.Permissions) -> list[str]:
    """The flags of ``NEEDED`` that ``permissions`` lacks, in ``NEEDED``'s order."""
    return [flag for flag in NEEDED if not getattr(permissions, flag)]


def require_table_permissions(interaction: discord.Interaction[Any]) -> None:
    """Raise ``BotLacksPermissions`` if the bot cannot run a table in this channel."""
    missing = missing_here(interaction.app_permissions)
    if not missing:
        return
    language = interaction_language(interaction)
    names = ", ".join(f"**{t(f'permission.{flag}', language)}**" for flag in missing)
    english = ", ".join(f"**{t(f'permission.{flag}', 'en')}**" for flag in missing)
    raise BotLacksPermissions(
        f"I can't host a table in this channel: I'm missing {english} here. Ask someone who "
        "can manage this server to give me these permissions in this channel, then try again.",
        code="bot_missing_permissions.list",
        missing=names,
    )
