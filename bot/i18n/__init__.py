"""Everything players read, in English, Dutch and Spanish.

Terms (read ``GLOSSARY.md`` before translating anything):

- *language*: one of ``en``, ``nl``, ``es``, the languages the bot speaks.
- *locale*: what Discord reports (``es-ES``, ``es-419``, ``nl``, ``en-GB`` ...);
  ``resolve_language`` maps it to a language, English when it is one we do not speak.
- *key*: the name of a message in the catalogues (``refusal.not_your_turn``); the command
  tree's descriptions and choices are keyed by their English text in the ``command`` context.
- *catalogue*: ``locales/<language>/LC_MESSAGES/shanghai.po``, gettext sources managed with
  Babel. They are compiled in memory the first time a language is used, so a plain checkout or
  ``pip install -e .`` needs no build step and a ``.mo`` file can never be stale.

Who reads what: an ephemeral reply is worded in the clicking player's locale
(``interaction.locale``); public table messages and pictures in the table's language, chosen at
``/shanghai new`` and stored with the table options (``table_language``).
"""

from __future__ import annotations

from bot.i18n.catalogue import (
    COMMAND_CONTEXT,
    DEFAULT_LANGUAGE,
    LANGUAGES,
    Language,
    catalogue_path,
    command_text,
    decimal,
    duration,
    percent,
    t,
)
from bot.i18n.locales import (
    LANGUAGE_CHOICES,
    LANGUAGE_DESCRIPTION,
    TABLE_LANGUAGE_OPTION,
    interaction_language,
    resolve_language,
    server_language,
    table_language,
)

__all__ = [
    "COMMAND_CONTEXT",
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LANGUAGE_CHOICES",
    "LANGUAGE_DESCRIPTION",
    "TABLE_LANGUAGE_OPTION",
    "Language",
    "catalogue_path",
    "command_text",
    "decimal",
    "duration",
    "interaction_language",
    "percent",
    "resolve_language",
    "server_language",
    "t",
    "table_language",
]
