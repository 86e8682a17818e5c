"""Which language a reader gets: Discord locale → ``en``/``nl``/``es`` (English otherwise)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from bot.i18n.catalogue import DEFAULT_LANGUAGE, LANGUAGES, Language

#: The table option that names a table's language.
TABLE_LANGUAGE_OPTION = "language"


def resolve_language(locale: discord.Locale | str | None) -> Language:
    """The language for a Discord locale (``es-419`` → ``es``, ``nl`` → ``nl``, ``fr`` → ``en``)."""
    if locale is None:
        return DEFAULT_LANGUAGE
    value = locale.value if isinstance(locale, discord.Locale) else str(locale)
    primary = value.replace("_", "-").split("-", 1)[0].strip().lower()
    for language in LANGUAGES:
        if primary == language:
            return language
    return DEFAULT_LANGUAGE


def interaction_language(interaction: discord.Interaction[Any]) -> Language:
    """The language of an ephemeral reply: the clicking player's own Discord locale."""
    return resolve_language(interaction.locale)


def table_language(options: Mapping[str, Any]) -> Language:
    """The language of a table's public messages and pictures, from its stored options.

    Tables opened before languages existed have no such option and stay English.
    """
    return resolve_language(options.get(TABLE_LANGUAGE_OPTION))


def server_language(interaction: discord.Interaction[Any]) -> Language:
    """A new table's default language: the server's preferred locale (Community setting)."""
    guild = interaction.guild
    if guild is not None:
        return resolve_language(guild.preferred_locale)
    return resolve_language(interaction.guild_locale)


#: The ``language`` option of ``/shanghai new`` and ``/rummy new``: each language in itself.
LANGUAGE_CHOICES = [
    discord.app_commands.Choice(name="English", value="en"),
    discord.app_commands.Choice(name="Nederlands", value="nl"),
    discord.app_commands.Choice(name="Español", value="es"),
]
LANGUAGE_DESCRIPTION = "The language of the table's messages and pictures (default: the server's)"
