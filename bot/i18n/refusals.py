"""A refusal worded in the reader's language.

The engine's ``IllegalAction`` and the bot's ``UserError`` carry a ``code`` and ``params``
beside their English message. The catalogue key is ``refusal.<code>`` for the engine's and
``error.<code>`` for the bot's. A code without its own wording yet falls back, in English, to
the exception's English message (it is exact) and in other languages to the wording of the
code's family (``type(error).code``), which is vaguer but never English at a Dutch table;
a plain ``ValueError`` there reads ``error.refused`` ("Dat kan niet.").
So a family's wording takes no parameters; the specific codes carry them. A refusal raised
``from`` another (``UserError(..., code="cards_refused") from error``) gets the other's wording
as its ``reason``.
"""

from __future__ import annotations

from collections.abc import Mapping

import discord

from bot.ground.errors import UserError
from bot.i18n.catalogue import DEFAULT_LANGUAGE, Language, has_key, t
from engine.errors import IllegalAction, Param

#: Parameters whose values are words of the engine's or the bot's vocabulary, by the catalogue
#: prefix that words them (``kind="run"`` → ``term.run``, ``state="lobby"`` → ``state.lobby``,
#: ``option="deuces_wild"`` → ``house.option.deuces_wild``).
TERM_PARAMS = {"kind": "term", "end": "term", "state": "state", "option": "house.option"}

APOLOGY_KEY = "error.apology"
#: A refusal with no wording of its own, outside English (where its message is exact).
REFUSED_KEY = "error.refused"


def refusal_text(error: BaseException, language: Language) -> str:
    """What a player reads for ``error`` in ``language``; the apology for a bug."""
    if isinstance(error, discord.app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, IllegalAction):
        return _worded("refusal", error.code, type(error).code, error.params, error, language)
    if isinstance(error, UserError):
        return _worded("error", error.code, type(error).code, error.params, error, language)
    if isinstance(error, ValueError) and str(error):  # a refusal without a code
        return str(error) if language == DEFAULT_LANGUAGE else t(REFUSED_KEY, language)
    if isinstance(error, discord.app_commands.MissingPermissions):
        return t("error.missing_permissions", language)
    if isinstance(error, discord.app_commands.CheckFailure):
        return t("error.check_failure", language)
    return t(APOLOGY_KEY, language)


def _worded(
    prefix: str,
    code: str,
    family: str,
    params: Mapping[str, Param],
    error: BaseException,
    language: Language,
) -> str:
    specific, general = f"{prefix}.{code}", f"{prefix}.{family}"
    english = str(error)
    if code != family and has_key(specific):
        worded = worded_params(params, language)
        cause = error.__cause__
        if "reason" not in worded and cause is not None:  # ``raise ... from`` a refusal
            worded["reason"] = refusal_text(cause, language).rstrip(".")
        return t(specific, language, **worded)
    if language == DEFAULT_LANGUAGE and english:
        return english
    if has_key(general):
        return t(general, language, **worded_params(params, language))
    return t(REFUSED_KEY, language)


def worded_params(params: Mapping[str, Param], language: Language) -> dict[str, Param]:
    """``params`` with the engine's English words (``kind="run"``) in ``language``."""
    return {
        name: t(f"{TERM_PARAMS[name]}.{value}", language) if name in TERM_PARAMS else value
        for name, value in params.items()
    }
