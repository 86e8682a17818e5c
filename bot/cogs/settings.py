"""``/shanghai settings``: a server's defaults for new tables, for members with Manage Server.

Without options it shows the defaults; with options it changes those and shows the result;
``reset`` clears them all. The reply is private, in the member's language. The command joins
the ``/shanghai`` group of ``bot.cogs.shanghai`` (loaded before this cog) rather than living
in that file, so the two change independently: ``ServerSettings`` adds it when the cog loads
and takes it out when the cog unloads, so the extension unloads and reloads cleanly.

Discord lets a server restrict a top-level command only (``default_member_permissions``), not
one subcommand, so Manage Server is checked here, on every call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.cogs.joining import JoinsShanghai
from bot.cogs.pace import PACE_CHOICES, PACE_DESCRIPTION, TURN_HOURS_DESCRIPTION
from bot.cogs.shanghai import PRESETS
from bot.ground.errors import UserError
from bot.i18n import LANGUAGE_CHOICES, Language, interaction_language, t
from bot.interactions.handler import guard
from bot.service import guild_settings
from bot.service.guild_settings import GuildDefaults
from bot.service.pace import DEFAULT_TURN_HOURS
from bot.views.table import preset_name

if TYPE_CHECKING:
    from bot.process.app import ShanghaiBot

#: The ``language`` choices, plus going back to the server's own preferred language.
SERVER_LANGUAGE = "server"
LANGUAGE_SETTING_CHOICES = [
    *LANGUAGE_CHOICES,
    app_commands.Choice(
        name="The server's own language (Community setting)", value=SERVER_LANGUAGE
    ),
]


class NeedsManageServer(UserError):
    code = "settings_need_manage_guild"

    def __init__(self) -> None:
        super().__init__("Only members who can manage this server can change its defaults.")


def settings_text(defaults: GuildDefaults, bot: ShanghaiBot, language: Language) -> str:
    """The server's defaults as the member reads them, the bot's own marked as such."""
    settings = bot.settings
    ours = t("settings.bot_default", language)
    if defaults.language is None:
        lang = t("settings.server_language", language)
    else:
        lang = t(f"language.{defaults.language}", language)
    preset = preset_name(defaults.preset or "standard", language)
    buy = defaults.buy_seconds if defaults.buy_seconds is not None else settings.buy_seconds
    turn = defaults.turn_seconds if defaults.turn_seconds is not None else settings.turn_seconds
    threads = defaults.threads if defaults.threads is not None else settings.threads
    hours = defaults.turn_hours if defaults.turn_hours is not None else DEFAULT_TURN_HOURS
    lines = [
        t("settings.title", language),
        t("settings.language", language, value=lang),
        t("settings.preset", language, value=preset)
        + ("" if defaults.preset is not None else f" {ours}"),
        t("settings.buy", language, seconds=f"{buy:g}")
        + ("" if defaults.buy_seconds is not None else f" {ours}"),
        t("settings.turn", language, seconds=f"{turn:g}")
        + ("" if defaults.turn_seconds is not None else f" {ours}"),
        t("settings.threads_on" if threads else "settings.threads_off", language)
        + ("" if defaults.threads is not None else f" {ours}"),
        t("settings.pace_relaxed" if defaults.pace == "relaxed" else "settings.pace_live", language)
        + ("" if defaults.pace is not None else f" {ours}"),
        t("settings.turn_hours", language, hours=hours)
        + ("" if defaults.turn_hours is not None else f" {ours}"),
        "",
        t("settings.hint", language),
    ]
    return "\n".join(lines)


def make_command() -> app_commands.Command[Any, ..., None]:
    """A fresh command object per bot (a command knows its parent group)."""

    @app_commands.command(name="settings")
    @app_commands.describe(
        language="The default language of new tables",
        preset="The default rule set of new Shanghai tables",
        buy_seconds="Default seconds the Buy button stays live (3-120)",
        turn_seconds="Default seconds per turn (10-3600)",
        threads="Whether new games move into a thread of their own",
        pace=PACE_DESCRIPTION,
        turn_hours=TURN_HOURS_DESCRIPTION,
        reset="Forget every default of this server",
    )
    @app_commands.choices(
        language=LANGUAGE_SETTING_CHOICES,
        preset=PRESETS,
        pace=PACE_CHOICES,
    )
    async def settings(
        interaction: discord.Interaction[Any],
        language: str | None = None,
        preset: str | None = None,
        buy_seconds: app_commands.Range[int, 3, 120] | None = None,
        turn_seconds: app_commands.Range[int, 10, 3600] | None = None,
        threads: bool | None = None,
        pace: str | None = None,
        turn_hours: app_commands.Range[int, 1, 72] | None = None,
        reset: bool = False,
    ) -> None:
        """This server's defaults for new tables (members with Manage Server)."""
        async with guard(interaction):
            bot: ShanghaiBot = interaction.client
            reader = interaction_language(interaction)
            assert interaction.guild_id is not None
            current = await guild_settings.load(bot.store, interaction.guild_id)
            changes: dict[str, Any] = {}
            if language is not None:
                changes["language"] = None if language == SERVER_LANGUAGE else language
            if preset is not None:
                changes["preset"] = preset
            if buy_seconds is not None:
                changes["buy_seconds"] = buy_seconds
            if turn_seconds is not None:
                changes["turn_seconds"] = turn_seconds
            if threads is not None:
                changes["threads"] = threads
            if pace is not None:
                changes["pace"] = pace
            if turn_hours is not None:
                changes["turn_hours"] = turn_hours
            if changes or reset:
                if not interaction.permissions.manage_guild:
                    raise NeedsManageServer()
                base = {} if reset else current.stored()
                updated = GuildDefaults.model_validate({**base, **changes})
                await bot.store.set_guild_settings(interaction.guild_id, updated.stored())
                current = updated
                head = t("settings.reset" if reset and not changes else "settings.saved", reader)
                text = f"{head}\n\n{settings_text(current, bot, reader)}"
            else:
                text = settings_text(current, bot, reader)
            await interaction.response.send_message(text, ephemeral=True)

    return settings


class ServerSettings(JoinsShanghai):
    """Adds ``/shanghai settings`` while it is loaded."""

    def __init__(self, bot: ShanghaiBot) -> None:
        super().__init__(bot, [make_command()])


async def setup(bot: ShanghaiBot) -> None:
    await bot.add_cog(ServerSettings(bot))
