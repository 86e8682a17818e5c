"""Loading the gettext catalogues and looking messages up: ``t(key, language, **params)``.

Messages use ``str.format`` placeholders (``{name}``, ``{count}``); a message with a plural
form is chosen by the ``count`` parameter, by each language's own plural rule. A key missing
from Dutch or Spanish falls back to English, and a key missing from English shows as itself,
so a gap is visible rather than fatal (``tests/bot/test_i18n.py`` fails on any gap).
"""

from __future__ import annotations

import gettext
import io
from functools import lru_cache
from pathlib import Path
from typing import Final, Literal, get_args

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent

Language = Literal["en", "nl", "es"]
LANGUAGES: Final[tuple[Language, ...]] = get_args(Language)
DEFAULT_LANGUAGE: Final[Language] = "en"
DOMAIN: Final = "shanghai"
#: The gettext context of the command tree's strings, keyed by their English text.
COMMAND_CONTEXT: Final = "command"

LOCALE_DIR: Final = Path(__file__).parent / "locales"


def catalogue_path(language: Language) -> Path:
    """The ``.po`` source of ``language``."""
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalogue(language: Language) -> Catalog:
    """The parsed ``.po`` source of ``language`` (Babel's model: keys, plural forms, flags)."""
    with catalogue_path(language).open("rb") as source:
        return read_po(source, locale=language, domain=DOMAIN)


@lru_cache(maxsize=len(LANGUAGES))
def translations(language: Language) -> gettext.GNUTranslations:
    """The compiled catalogue of ``language``, Dutch and Spanish falling back to English."""
    compiled = io.BytesIO()
    write_mo(compiled, read_catalogue(language), use_fuzzy=False)
    compiled.seek(0)
    result = gettext.GNUTranslations(compiled)
    if language != DEFAULT_LANGUAGE:
        result.add_fallback(translations(DEFAULT_LANGUAGE))
    return result


@lru_cache(maxsize=len(LANGUAGES))
def keys(language: Language) -> frozenset[str]:
    """The keys ``language``'s catalogue defines (not those it inherits from English)."""
    return frozenset(
        message.id if isinstance(message.id, str) else message.id[0]
        for message in read_catalogue(language)
        if message.id and message.context is None
    )


@lru_cache(maxsize=len(LANGUAGES))
def command_keys(language: Language) -> frozenset[str]:
    """The English command-tree texts ``language``'s catalogue translates."""
    return frozenset(
        message.id
        for message in read_catalogue(language)
        if message.context == COMMAND_CONTEXT and isinstance(message.id, str)
    )


@lru_cache(maxsize=1)
def plural_keys() -> frozenset[str]:
    """The keys whose English message has plural forms (chosen by ``count``)."""
    return frozenset(
        message.id[0]
        for message in read_catalogue(DEFAULT_LANGUAGE)
        if message.pluralizable and message.context is None
    )


def has_key(key: str, language: Language = DEFAULT_LANGUAGE) -> bool:
    return key in keys(language)


def t(key: str, language: Language, /, **params: object) -> str:
    """The message ``key`` in ``language`` with ``params`` filled in.

    ``count`` picks the plural form when the message has one (``msgid_plural`` in the
    catalogue; the msgid and msgid_plural of a key are both the key). Parameters are filled with
    ``str.format``, so a message without parameters may contain braces only when doubled.
    """
    catalogue = translations(language)
    count = params.get("count")
    if isinstance(count, int) and key in plural_keys():
        text = catalogue.ngettext(key, key, count)
    else:
        text = catalogue.gettext(key)
    return text.format(**params) if params else text


def command_text(english: str, language: Language) -> str | None:
    """A command description or choice name in ``language``; None when there is none."""
    if english not in command_keys(language):
        return None
    return translations(language).pgettext(COMMAND_CONTEXT, english)


def duration(seconds: float, language: Language) -> str:
    """``seconds`` in words a person reads at a glance: days and hours from a day up, hours
    and minutes from an hour up, minutes below (``7 days``, ``1 day 3 h``, ``2 h 5 min``), as a
    relaxed table's waits run to days and a count of minutes would not be read."""
    minutes = int(max(0.0, seconds) // 60)
    days, hours, rest = minutes // 1440, minutes // 60 % 24, minutes % 60
    if days:
        parts = [t("duration.days", language, count=days)]
        return " ".join([*parts, t("duration.hours", language, count=hours)] if hours else parts)
    if minutes >= 60:
        parts = [t("duration.hours", language, count=minutes // 60)]
        return " ".join([*parts, t("duration.minutes", language, count=rest)] if rest else parts)
    if minutes:
        return t("duration.minutes", language, count=minutes)
    return t("duration.moment", language)


def decimal(value: float, language: Language) -> str:
    """``value`` with one decimal as ``language`` writes it (``48.5``, ``48,5``)."""
    return format_decimal(value, "0.0", locale=language)


def percent(rate: float, language: Language) -> str:
    """``rate`` (0-1) as a whole percentage as ``language`` writes it (``50%``, ``50 %``)."""
    return format_percent(rate, locale=language)
