"""A server's defaults and the bot's own notes about itself: the calls both stores make alike.

A server's settings are one JSON object per guild, replaced whole; ``meta`` holds a few values
the bot keeps about itself (the hash of the synced commands, a migration's marker).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .calls import SqlCalls

_GET_GUILD_SETTINGS = "SELECT settings FROM guild_settings WHERE guild_id = ?"
_SET_GUILD_SETTINGS = """
INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?, ?, ?)
ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at
"""
_GET_META = "SELECT value FROM meta WHERE key = ?"
_SET_META = """
INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value
"""


class SettingsCalls(SqlCalls):
    """Guild settings and ``meta`` (see ``data.store.Store``)."""

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """A server's defaults as last stored (``{}`` when it has none)."""
        rows = await self._query(_GET_GUILD_SETTINGS, guild_id)
        if not rows:
            return {}
        value = self._from_json(rows[0]["settings"])
        return dict(value) if isinstance(value, dict) else {}

    async def set_guild_settings(self, guild_id: int, settings: Mapping[str, Any]) -> None:
        """Replace a server's defaults with ``settings``."""
        value = self._to_json(dict(sorted(settings.items())))
        await self._change(None, _SET_GUILD_SETTINGS, guild_id, value, self._now())

    async def get_meta(self, key: str) -> str | None:
        """A value the bot keeps about itself (e.g. the hash of the synced commands)."""
        rows = await self._query(_GET_META, key)
        return str(rows[0]["value"]) if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        """Remember ``value`` under ``key``, replacing any earlier one."""
        await self._change(None, _SET_META, key, value)
