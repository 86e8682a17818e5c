"""Cogs whose commands join ``/shanghai``: they add them when they load and take them out
when they unload.

``/shanghai`` is the group cog of ``bot.cogs.shanghai``; the settings, replays, members' data
and events extensions each add their commands to it. discord.py takes out only a cog's own
commands when it unloads, so without this a reload of such an extension would find its
commands still registered (``CommandAlreadyRegistered``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

if TYPE_CHECKING:
    from bot.process.app import ShanghaiBot


class JoinsShanghai(commands.Cog):
    """A cog whose commands join ``/shanghai`` (of ``Shanghai``, loaded first) when it loads
    and leave it when it unloads, with the dynamic items that answer its buttons. discord.py
    takes out only a cog's own commands, so without this a reload of the extension would
    find its commands still registered. The commands are made per cog (a command knows its
    parent group). A reloaded ``bot.cogs.shanghai`` is a new ``/shanghai`` without them:
    reload the extensions that join it after it."""

    def __init__(
        self,
        bot: ShanghaiBot,
        joined: Sequence[app_commands.Command[Any, ..., Any] | app_commands.Group],
        dynamic_items: Sequence[type[discord.ui.DynamicItem[Any]]] = (),
    ) -> None:
        self.bot = bot
        #: The commands and groups this cog adds to ``/shanghai`` (and takes out again).
        self.joined = tuple(joined)
        self.dynamic_items = tuple(dynamic_items)

    async def cog_load(self) -> None:
        parent = self.bot.tree.get_command("shanghai")
        assert isinstance(parent, app_commands.Group), "load bot.cogs.shanghai first"
        added: list[str] = []
        try:
            for command in self.joined:
                parent.add_command(command)
                added.append(command.name)
        except app_commands.CommandAlreadyRegistered:
            for name in added:  # all or nothing: a failed load leaves /shanghai as it was
                parent.remove_command(name)
            raise
        self.bot.add_dynamic_items(*self.dynamic_items)

    async def cog_unload(self) -> None:
        """Take out the commands that are still this cog's (a reloaded ``/shanghai`` is a new
        group without them) and the dynamic items."""
        parent = self.bot.tree.get_command("shanghai")
        if isinstance(parent, app_commands.Group):
            for command in self.joined:
                if parent.get_command(command.name) is command:
                    parent.remove_command(command.name)
        self.bot.remove_dynamic_items(*self.dynamic_items)
