"""One base for the controls that keep working after a restart.

A control is a ``discord.ui.DynamicItem``: its custom_id carries everything a click needs (a
table, a verb, a step), so discord.py rebuilds it from the id alone, without the view that
sent it. What every such control does alike is written here once, in the manner of
discord.py's ``examples/views/dynamic_counter.py``: rebuilding it from the template's match,
and answering its click inside ``guard``, so a refusal or a fault always gets its polite
private answer. A control states only what differs: its ``template`` (a class keyword), the
item it shows, the fields its id carries (``from_match``) and what a click does
(``clicked``).
"""

from __future__ import annotations

import abc
import re
from typing import Any, Self, TypeVar

import discord

from bot.interactions.handler import guard

ItemT = TypeVar("ItemT", bound="discord.ui.Item[Any]", covariant=True)

#: The base's own template: it matches no custom_id, so only the controls built on it are
#: ever dispatched.
NOTHING = r"(?!)"


class Control(discord.ui.DynamicItem[ItemT], abc.ABC, template=NOTHING):
    """A control rebuilt from its custom_id, whose click is answered inside ``guard``."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> Self:
        return cls.from_match(match)

    @classmethod
    @abc.abstractmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        """The control its custom_id describes (each id read with ``parse_id``)."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with guard(interaction):
            await self.clicked(interaction)

    @abc.abstractmethod
    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        """What a click does; an exception is answered by ``guard``."""
