"""Issue 29.3: the preset choices of ``/shanghai new`` fit Discord's 100 characters in every
language, cut (when they must be) after a whole word, never in the middle of one."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands
from discord.app_commands import TranslationContext
from discord.app_commands import TranslationContextLocation as Where

from bot.cogs.shanghai import PRESETS
from bot.i18n import LANGUAGES
from bot.i18n.fit import CHOICE_NAME_LIMIT, ELLIPSIS, fit
from bot.i18n.translator import CatalogueTranslator
from bot.views.house_rules import PRESET_NAMES

#: A Discord locale of each language the bot speaks.
LOCALES = {"en": discord.Locale.american_english, "nl": discord.Locale.dutch}
LOCALES["es"] = discord.Locale.spain_spanish


def whole_words_of(full: str, shown: str) -> bool:
    """``shown`` is ``full``, or a prefix of it ending where a word ends, plus an ellipsis."""
    if shown == full:
        return True
    head = shown.removesuffix(ELLIPSIS)
    if head == shown or not full.startswith(head):
        return False
    rest = full[len(head) :]
    return rest[:1] in (" ", ",", ";", ":", ".")  # the next character ends the last word


async def _name(choice: app_commands.Choice[str], language: str) -> str:
    translated = await CatalogueTranslator().translate(
        app_commands.locale_str(choice.name),
        LOCALES[language],
        TranslationContext(location=Where.choice_name, data=choice),
    )
    return choice.name if translated is None else translated


@pytest.mark.parametrize("language", sorted(LANGUAGES))
async def test_every_preset_choice_fits_on_a_word_boundary(language: str) -> None:
    assert {choice.value for choice in PRESETS} == set(PRESET_NAMES)
    for choice in PRESETS:
        name, line = PRESET_NAMES[choice.value]
        shown = await _name(choice, language)
        assert 0 < len(shown) <= CHOICE_NAME_LIMIT, (language, shown)
        assert not shown.removesuffix(ELLIPSIS)[-1:].isspace()
        if language == "en":  # the English text is the description itself, cut on a word
            assert whole_words_of(f"{name}: {line}", shown), shown


def test_fit_cuts_after_a_whole_word_and_says_so() -> None:
    text = "go out with or without a discard, " * 4
    cut = fit(text)
    assert len(cut) <= CHOICE_NAME_LIMIT and cut.endswith(ELLIPSIS)
    assert whole_words_of(text, cut)
    assert fit("short") == "short"
    assert len(fit("x" * 150)) == CHOICE_NAME_LIMIT  # one endless word: cut, but fits
