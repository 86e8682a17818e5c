"""The one error handler: refusals become polite ephemeral replies, bugs are logged.

Every command and component callback runs inside ``guard(interaction)``. A ``ValueError``
(the engine's ``IllegalAction``, our ``UserError``, a store ``TableExists``) is a refusal the
user should read; anything else is logged with its traceback (never the message text or a
hand) and answered with a short apology. Either way the interaction is answered, so Discord
never shows "This interaction failed".
"""

from __future__ import annotations

import logging
from types import TracebackType
from typing import TYPE_CHECKING, Any

import discord

from bot.ground.storage_faults import is_storage_fault
from bot.i18n import DEFAULT_LANGUAGE, Language, interaction_language, t
from bot.i18n.refusals import refusal_text
from bot.interactions import answers

if TYPE_CHECKING:
    from bot.service import TableService

log = logging.getLogger("bot.ground.errors")

APOLOGY = "Sorry, something went wrong on my side; nothing was changed. Please try again."


def error_text(error: BaseException, language: Language = DEFAULT_LANGUAGE) -> str:
    """What the user reads for ``error``, in ``language`` (``bot.i18n.refusals``)."""
    return refusal_text(error, language)


def is_refusal(error: BaseException) -> bool:
    if isinstance(error, discord.app_commands.CommandInvokeError):
        error = error.original
    return isinstance(error, (ValueError, discord.app_commands.CheckFailure))


async def reply(
    interaction: discord.Interaction[Any], text: str, *, ephemeral: bool = True
) -> None:
    """Answer the interaction, or follow up if it was answered already."""
    try:  # through ``answers``, which knows whether the click was deferred
        await answers.tell(interaction, text, ephemeral=ephemeral)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id)


#: Discord's codes for an interaction that can no longer be answered: 40060, "Interaction has
#: already been acknowledged" (Discord delivered the same click twice, and the first delivery
#: answered it), and 10062, "Unknown interaction" (the answer came after Discord's 3 s).
ALREADY_ANSWERED, TOO_LATE = 40060, 10062


def unanswerable(error: BaseException) -> int | None:
    """Discord's code when ``error`` says the interaction cannot be answered any more."""
    original = getattr(error, "original", error)
    code = getattr(original, "code", None)
    if isinstance(original, discord.HTTPException) and code in (ALREADY_ANSWERED, TOO_LATE):
        return int(code)
    return None


async def report(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Answer ``interaction`` for ``error``: the reason for a refusal, an apology for a bug.

    A click Discord delivered twice, or one answered after its 3 s, cannot be answered: one
    line says so, and it is not counted as a bug (the user already has, or never will have,
    the answer; sending anything else would reach them twice)."""
    code = unanswerable(error)
    if code is not None:
        why = "delivered twice" if code == ALREADY_ANSWERED else "answered too late"
        log.info("interaction %s %s (Discord %d); nothing more sent", interaction.id, why, code)
        return
    if is_storage_fault(error):
        log.warning("interaction %s: the database refused a write", interaction.id)
        # storage_faults.REPLY is the English wording (tests/bot/test_i18n.py keeps them equal).
        await reply(interaction, t("error.storage", interaction_language(interaction)))
        return
    if not is_refusal(error):
        command = interaction.command.qualified_name if interaction.command else None
        custom_id = (interaction.data or {}).get("custom_id") if interaction.data else None
        log.error(
            "unexpected error in interaction %s (command=%s, component=%s)",
            interaction.id,
            command,
            custom_id,
            exc_info=(type(error), error, error.__traceback__),
        )
        errors = getattr(interaction.client, "unexpected_errors", None)
        if isinstance(errors, list):
            errors.append(error)
    await reply(interaction, error_text(error, interaction_language(interaction)))


async def bring_table_back(interaction: discord.Interaction[Any]) -> None:
    """The open table of the channel the interaction came from, in memory before the callback
    looks for it: a table nobody used for a while waits in the store, and every control and
    command of a table is used in its own channel (``guards.table_here``). A store that cannot
    give it back now leaves it there; the callback then answers that the store is busy."""
    channel_id = interaction.channel_id
    try:
        service: TableService = interaction.client.service
    except AttributeError:  # a client with no tables (the replay's own, a test's)
        return
    if channel_id is None:
        return
    try:
        await service.resident_in(channel_id)
    except Exception as error:
        log.warning(
            "interaction %s: its table could not be read back (%s)",
            interaction.id,
            type(error).__name__,
        )


class guard:
    """Run a callback body; turn any exception into an answer instead of a failure. The
    table of the interaction's channel is brought into memory first (``bring_table_back``)."""

    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self.interaction = interaction

    async def __aenter__(self) -> guard:
        await bring_table_back(self.interaction)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool:
        if exc is None or not isinstance(exc, Exception):
            return False
        await report(self.interaction, exc)
        return True
