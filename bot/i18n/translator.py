"""The command tree in Dutch and Spanish: descriptions and choices localised, names English.

discord.py asks the tree's translator for every string when it syncs the commands. Names
(commands, groups, options) stay English on purpose: they are what players type and what
the documentation names. Descriptions and choice names are looked up by their English text
in the catalogue's ``command`` context, so the code keeps its plain English docstrings and
``describe`` texts and a changed English text shows as a missing translation in the tests.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n.catalogue import DEFAULT_LANGUAGE, command_text
from bot.i18n.fit import fit
from bot.i18n.locales import resolve_language

#: What a translator localises; names are left out on purpose.
LOCALISED = frozenset(
    {
        Where.command_description,
        Where.group_description,
        Where.parameter_description,
        Where.choice_name,
    }
)


class CatalogueTranslator(app_commands.Translator):
    """Looks the command tree's English texts up in the Dutch and Spanish catalogues."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if context.location not in LOCALISED:
            return None
        language = resolve_language(locale)
        if language == DEFAULT_LANGUAGE:
            return None
        text = command_text(string.message, language)
        if text is not None and context.location == Where.choice_name:
            return fit(text)  # a translation too long for Discord is cut on a word, too
        return text
