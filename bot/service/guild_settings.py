"""Per-server defaults for new tables, chosen with ``/shanghai settings``.

A server's admins (Manage Server) pick the language, the preset, the buy window and the turn
time, and whether tables are live or relaxed, once, instead of every host at every table. The
store keeps them as one JSON object per guild (``Store.guild_settings``); ``GuildDefaults``
validates them on the way in and on the way out, so a value a later version no longer
accepts is dropped rather than breaking ``/shanghai new``, and whether games move into
threads. ``ranked`` is room for the default of
a later feature: stored and validated already, offered by no command yet.

A new table takes, for each option, what its host gave, else the server's default, else the
bot's setting; the options the server's defaults filled are listed under ``server_defaults``
in the table's options, and the lobby names them.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.i18n import TABLE_LANGUAGE_OPTION, Language
from bot.service.live import FOUR_COLOUR_OPTION
from bot.service.pace import TURN_HOURS_MAX, TURN_HOURS_MIN, with_pace

log = logging.getLogger(__name__)

#: The table option each default fills, in the order the lobby names them.
DEFAULT_OPTIONS = (
    "language",
    "preset",
    "buy_seconds",
    "turn_seconds",
    "threads",
    "pace",
    "turn_hours",
)
#: The key under which a table's options list the defaults its server filled in.
APPLIED_KEY = "server_defaults"


class GuildDefaults(BaseModel):
    """One server's defaults; ``None`` everywhere means "the bot's own"."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    language: Language | None = None
    preset: str | None = Field(default=None, pattern=r"^[a-z0-9_]{1,40}$")
    buy_seconds: int | None = Field(default=None, ge=3, le=120)
    turn_seconds: int | None = Field(default=None, ge=10, le=3600)
    #: Whether new games move into a thread of their own (``bot/interactions/threads.py``).
    threads: bool | None = None
    #: Whether new tables are live or relaxed (``bot/service/pace.py``), and a relaxed
    #: table's turn time in hours.
    pace: Literal["live", "relaxed"] | None = None
    turn_hours: int | None = Field(default=None, ge=TURN_HOURS_MIN, le=TURN_HOURS_MAX)
    #: A later feature's default (ranked games): stored, not offered yet.
    ranked: bool | None = None

    @classmethod
    def from_stored(cls, stored: dict[str, Any]) -> GuildDefaults:
        """The valid part of what the store holds: a value no longer accepted is dropped."""
        try:
            return cls.model_validate(stored)
        except ValidationError as error:
            bad = {str(e["loc"][0]) for e in error.errors() if e["loc"]}
            log.warning("dropping invalid server default(s): %s", ", ".join(sorted(bad)))
            return cls.model_validate({k: v for k, v in stored.items() if k not in bad})

    def stored(self) -> dict[str, Any]:
        """What the store keeps: only the defaults that are set."""
        return self.model_dump(exclude_none=True)


def table_options(
    defaults: GuildDefaults,
    fallback: dict[str, Any],
    *,
    preset: str | None = None,
    buy_seconds: float | None = None,
    turn_seconds: float | None = None,
    language: str | None = None,
    threads: bool | None = None,
    rules: dict[str, Any] | None = None,
    four_colour: bool = False,
    casual: bool = False,
    pace: str | None = None,
    turn_hours: int | None = None,
    buy_wait_minutes: int | None = None,
) -> dict[str, Any]:
    """A new table's options, built in this one place for every way a table is opened.

    Each option named in ``DEFAULT_OPTIONS`` is what the opener gave (``None``: not given),
    else the server's ``defaults`` when ``fallback`` offers that option too, else
    ``fallback`` (the bot's own); an option with none of the three is left out. The result
    carries ``server_defaults``, the keys the server's defaults filled; ``pace``,
    ``turn_hours`` and ``buy_wait_minutes`` make it relaxed (``pace.with_pace``). ``rules`` are the
    opener's rule overrides; ``four_colour`` and ``casual`` are stored only when set, so a
    table that does not use them looks as it always has. A new option is one more keyword
    here, and one more name in ``DEFAULT_OPTIONS`` when a server may default it.
    """
    given: dict[str, Any] = {
        "language": language,
        "preset": preset,
        "buy_seconds": buy_seconds,
        "turn_seconds": turn_seconds,
        "threads": threads,
        "pace": pace,
        "turn_hours": turn_hours,
    }
    options: dict[str, Any] = {}
    applied: list[str] = []
    for key in DEFAULT_OPTIONS:
        chosen = given.get(key)
        server = getattr(defaults, key)
        if chosen is None and server is not None and key in fallback:
            chosen = server
            applied.append(key)
        value = fallback.get(key) if chosen is None else chosen
        if value is None:
            continue
        if key in ("buy_seconds", "turn_seconds"):
            value = float(value)
        options[TABLE_LANGUAGE_OPTION if key == "language" else key] = value
    if applied:
        options[APPLIED_KEY] = applied
    options["rules"] = dict(rules or {})
    if four_colour:
        options[FOUR_COLOUR_OPTION] = True
    if casual:
        options["casual"] = True  # the table's own rule: its game is casual
    # A live table stores no pace; a relaxed one its turn hours and its buy wait.
    return with_pace(options, None, buy_minutes=buy_wait_minutes)


async def load(store: Any, guild_id: int | None) -> GuildDefaults:
    """The defaults of ``guild_id`` from ``store`` (none outside a server)."""
    if guild_id is None:
        return GuildDefaults()
    return GuildDefaults.from_stored(await store.guild_settings(guild_id))
