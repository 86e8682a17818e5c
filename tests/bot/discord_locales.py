"""Give simcord members a Discord client language.

simcord sends every interaction with ``locale: en-US`` and ``guild_locale: en-US``. Real
Discord sends the clicking member's client language and the server's preferred locale, which
is what the bot's language choices read; ``speaking(monkeypatch, {member_id: "nl"})`` makes
simcord send those two fields as Discord would, and changes nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
import simcord.interactions as simcord_interactions


def speaking(monkeypatch: pytest.MonkeyPatch, locales: Mapping[int, str]) -> None:
    """Interactions of the members in ``locales`` carry that Discord locale from now on."""
    original = simcord_interactions.base_payload

    def base_payload(backend: Any, **fields: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = original(backend, **fields)
        locale = locales.get(int(fields["user_id"]))
        if locale is not None:
            payload["locale"] = locale
        guild_id = fields.get("guild_id")
        if guild_id is not None:
            guild = backend.get_guild(guild_id)
            payload["guild_locale"] = getattr(guild, "preferred_locale", None) or "en-US"
        return record, payload

    monkeypatch.setattr(simcord_interactions, "base_payload", base_payload)
