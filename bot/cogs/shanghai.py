"""/shanghai: open a table, end it, re-post it, read the rules, the leaderboard and stats."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs import leaderboard as board
from bot.cogs.pace import (
    BUY_WAIT_DESCRIPTION,
    PACE_CHOICES,
    PACE_DESCRIPTION,
    PACE_FALLBACK,
    TURN_HOURS_DESCRIPTION,
)
from bot.ground.errors import NoTable, NotHost, UserError
from bot.i18n import (
    LANGUAGE_CHOICES,
    LANGUAGE_DESCRIPTION,
    interaction_language,
    server_language,
    t,
    table_language,
)
from bot.i18n.fit import fit
from bot.interactions import guards
from bot.interactions.controls import Control
from bot.interactions.handler import guard
from bot.interactions.ids import parse_id
from bot.interactions.permissions import require_table_permissions
from bot.screens.text import rules_text
from bot.service import guild_settings, rules_for
from bot.service.pace import is_relaxed
from bot.service.restore import table_seconds
from bot.views.hand import HandButton, HandSelect, melds_form_submitted
from bot.views.house_rules import PRESET_NAMES, HouseRulesSelect, house_rules_text
from bot.views.rules_pages import RulesPageButton, full_rules_view
from bot.views.table import (
    NO_PINGS,
    TableButton,
    plain_layout,
    post_lobby,
    preset_name,
    render_table,
)
from data.errors import TableExists

if TYPE_CHECKING:
    from bot.process.app import ShanghaiBot
    from bot.service import LiveTable

PRESETS = [
    app_commands.Choice(name=fit(f"{name}: {line}"), value=key)
    for key, (name, line) in PRESET_NAMES.items()
]


class EndButton(
    Control[discord.ui.Button[Any]],
    template=r"sh:end:(?P<table>[0-9]{1,19}):(?P<user>[0-9]{1,20}):(?P<answer>yes|no)",
):
    """The confirmation of /shanghai end; only the member who asked may answer it."""

    def __init__(
        self,
        table_id: int,
        user_id: int,
        answer: str,
        *,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"sh:end:{table_id}:{user_id}:{answer}"
            )
        )
        self.table_id, self.user_id, self.answer = table_id, user_id, answer

    @classmethod
    def from_match(cls, match: re.Match[str]) -> EndButton:
        return cls(parse_id(match["table"]), parse_id(match["user"]), match["answer"])

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.user.id != self.user_id or guards.is_public(interaction):
            raise UserError(
                "This confirmation belongs to someone else.", code="not_your_confirmation"
            )
        table = guards.table_here(interaction, self.table_id)
        language = interaction_language(interaction)
        if self.answer == "no":
            await interaction.response.edit_message(content=t("end.kept", language), view=None)
            return
        bot: ShanghaiBot = interaction.client
        guards.require_may_end(interaction, table)
        await bot.service.end(self.table_id, interaction.user.id)
        await interaction.response.edit_message(content=t("end.done", language), view=None)


# Guild-only on the group itself: discord.py ignores the decorator on subcommands, and the
# synced payload must say so for Discord to hide the commands in DMs.
@app_commands.guild_only()
class Shanghai(commands.GroupCog, group_name="shanghai"):
    """Shanghai Rummy tables in this server."""

    def __init__(self, bot: ShanghaiBot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        """Answer the controls of every table message and hand: dynamic items rebuilt from
        their custom ids, so they work after a restart (Rummy's tables use the same
        controls)."""
        self.bot.add_dynamic_items(*TABLE_CONTROLS)
        self.bot.add_listener(melds_form_submitted, "on_interaction")

    async def cog_unload(self) -> None:
        """Take the controls out again: discord.py keeps dynamic items, and listeners from
        other modules, after the extension is unloaded."""
        self.bot.remove_dynamic_items(*TABLE_CONTROLS)
        self.bot.remove_listener(melds_form_submitted, "on_interaction")

    def _table_here(self, interaction: discord.Interaction[Any]) -> LiveTable:
        table = self.bot.service.for_channel(interaction.channel_id or 0)
        if table is None:
            raise NoTable(
                "There is no open Shanghai table in this channel. Open one with `/shanghai new`.",
                code="no_table_in_channel",
            )
        return table

    @app_commands.command(name="new")
    @app_commands.describe(
        preset="The rule set to start from",
        buy_seconds="Seconds the Buy button stays live after each discard (default 8)",
        turn_seconds="Seconds per turn before the bot plays it (default 90)",
        deals="How many deals (1-10; 10 is a full game)",
        buy_penalty="Extra cards a buyer takes from the stock",
        final_discard="How a player may go out",
        deuces_wild="Whether 2s are wild as well as jokers",
        buy_limit="How many buys each player gets per deal",
        language=LANGUAGE_DESCRIPTION,
        thread="Play the game in a thread of its own (default: this server's setting)",
        four_colour="Draw clubs green and diamonds blue in the pictures",
        pace=PACE_DESCRIPTION,
        turn_hours=TURN_HOURS_DESCRIPTION,
        buy_wait_minutes=BUY_WAIT_DESCRIPTION,
    )
    @app_commands.choices(  # type: ignore[misc]  # int and str choices together
        preset=PRESETS,
        buy_penalty=[
            app_commands.Choice(name="1 card", value=1),
            app_commands.Choice(name="2 cards", value=2),
        ],
        final_discard=[
            app_commands.Choice(name="optional: discard or meld out", value="optional"),
            app_commands.Choice(name="required: go out with a discard", value="required"),
            app_commands.Choice(name="forbidden: go out by melding only", value="forbidden"),
        ],
        buy_limit=[
            app_commands.Choice(name="3 per deal (4 in deals 9-10)", value="3_then_4"),
            app_commands.Choice(name="unlimited", value="unlimited"),
        ],
        language=LANGUAGE_CHOICES,
        pace=PACE_CHOICES,
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        preset: str | None = None,
        buy_seconds: app_commands.Range[int, 3, 120] | None = None,
        turn_seconds: app_commands.Range[int, 10, 3600] | None = None,
        deals: app_commands.Range[int, 1, 10] | None = None,
        buy_penalty: int | None = None,
        final_discard: str | None = None,
        deuces_wild: bool | None = None,
        buy_limit: str | None = None,
        language: str | None = None,
        thread: bool | None = None,
        four_colour: bool | None = None,
        pace: str | None = None,
        turn_hours: app_commands.Range[int, 1, 72] | None = None,
        buy_wait_minutes: app_commands.Range[int, 5, 720] | None = None,
    ) -> None:
        """Open a Shanghai table in this channel; you take the first seat."""
        async with guard(interaction):
            overrides: dict[str, Any] = {}
            if deals is not None:
                overrides["num_deals"] = deals
            if buy_penalty is not None:
                overrides["buy_penalty_cards"] = buy_penalty
            if final_discard is not None:
                overrides["final_discard"] = final_discard
            if deuces_wild is not None:
                overrides["deuces_wild"] = deuces_wild
            if buy_limit is not None:
                overrides["buy_limit"] = buy_limit
            # What the host gave, else the server's defaults (/shanghai settings), else ours.
            defaults = await guild_settings.load(self.bot.store, interaction.guild_id)
            options = guild_settings.table_options(
                defaults,
                bot_defaults(self.bot, interaction),
                preset=preset,
                buy_seconds=buy_seconds,
                turn_seconds=turn_seconds,
                language=language,
                threads=thread,
                rules=overrides,
                four_colour=bool(four_colour),
                pace=pace,
                turn_hours=turn_hours,
                buy_wait_minutes=buy_wait_minutes,
            )
            await open_table_here(self.bot, interaction, options, "Shanghai")

    @app_commands.command(name="end")
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """End this channel's table (host, or members who can manage the channel)."""
        async with guard(interaction):
            table = self._table_here(interaction)
            perms = interaction.permissions
            if interaction.user.id != table.record.host_id and not perms.manage_channels:
                raise NotHost(
                    "end the table (or someone with Manage Channels)", code="not_host.end"
                )
            language = interaction_language(interaction)
            view = discord.ui.View(timeout=None)
            view.add_item(
                EndButton(
                    table.id,
                    interaction.user.id,
                    "yes",
                    label=t("end.yes", language),
                    style=discord.ButtonStyle.danger,
                )
            )
            no = t("end.no", language)
            view.add_item(EndButton(table.id, interaction.user.id, "no", label=no))
            await interaction.response.send_message(
                t("end.confirm", language), view=view, ephemeral=True
            )

    @app_commands.command(name="rules")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        """Show this table's rules in plain words (or the standard rules)."""
        async with guard(interaction):
            table = self.bot.service.for_channel(interaction.channel_id or 0)
            settings = self.bot.settings
            language = interaction_language(interaction)
            if table is None:
                options: dict[str, Any] = {"preset": "standard"}
                heading = t("rules.heading_standard", language)
            else:
                options = dict(table.record.options)
                preset = preset_name(str(options.get("preset", "standard")), language)
                heading = t("rules.heading_table", language, table=table.id, preset=preset)
            rules = rules_for(options)
            # What the table's timers run: a relaxed table's hours, not the seconds it keeps.
            buy_seconds, turn_seconds = table_seconds(
                options, settings.buy_seconds, settings.turn_seconds
            )
            text = rules_text(
                rules,
                buy_seconds=buy_seconds,
                turn_seconds=turn_seconds,
                relaxed=is_relaxed(options),
                language=language,
            )
            extra = "" if rules.game == "rummy" else house_rules_text(rules, language)
            if rules.game != "rummy":  # what a newcomer needs first, before any detail
                heading += "\n" + t("rules.basics", language)
            # The whole game for players: the server's page when it has one, else the pages
            # behind **📖 Full rules** under the last message of this answer.
            pages = None if settings.rules_url else full_rules_view(language)
            if settings.rules_url:
                heading += "\n" + t("rules.full_link", language, url=settings.rules_url)
            else:
                heading += "\n" + t("rules.full_pages", language)
            body = f"{heading}\n{text}"
            if len(body) + len(extra) < 1990:  # one message when it fits (Discord: 2000)
                body, extra = f"{body}\n{extra}", ""
            none: Any = discord.utils.MISSING  # no view at all, as without one
            first = pages if pages is not None and not extra else none
            await interaction.response.send_message(body[:1990], ephemeral=True, view=first)
            if extra:  # Dutch and Spanish say more: the house rules follow on their own
                last = pages if pages is not None else none
                await interaction.followup.send(extra[:1990], ephemeral=True, view=last)

    @app_commands.command(name="table")
    async def table(self, interaction: discord.Interaction[Any]) -> None:
        """Post the table message again at the bottom of the channel."""
        async with guard(interaction):
            service = self.bot.service
            table = service.public(self._table_here(interaction).id)
            old = table.record.message_id
            await interaction.response.send_message(
                view=render_table(table), allowed_mentions=NO_PINGS
            )
            message = await interaction.original_response()
            await service.set_message(table.id, message.id)
            self.bot.publisher.posted(table, message.id)
            if old is not None and interaction.channel is not None:
                try:
                    partial = interaction.channel.get_partial_message(old)  # type: ignore[union-attr]
                    moved = t("table.moved", table_language(table.record.options))
                    await partial.edit(
                        content=None, embeds=[], attachments=[], view=plain_layout(moved)
                    )
                except discord.HTTPException:
                    pass

    @app_commands.command(name="kick")
    @app_commands.describe(
        member="The player to remove (in a game, the bot plays their seat)",
        user_id="Someone who left the server: their user id or mention",
    )
    async def kick(
        self,
        interaction: discord.Interaction[Any],
        member: discord.User | None = None,
        user_id: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        """Host or Manage Channels: remove a player from the lobby, or give the bot their seat."""
        async with guard(interaction):
            who, name = board.user_to_remove(member, user_id)
            table = self._table_here(interaction)
            host = table.record.host_id
            if interaction.user.id != host:
                if not interaction.permissions.manage_channels:
                    raise NotHost(
                        "remove a player (or someone with Manage Channels)", code="not_host.kick"
                    )
                if who == host:  # a moderator ends the table instead
                    raise UserError(
                        "The host can't be removed from their table; `/shanghai end` closes it.",
                        code="host_not_removable",
                    )
            after = await self.bot.service.kick(table.id, who)
            key = "kick.removed_in_game" if after.view is not None else "kick.removed"
            await interaction.response.send_message(
                t(key, interaction_language(interaction), name=name),
                ephemeral=True,
            )

    @app_commands.command(name="leaderboard")
    @app_commands.describe(season="Which season's board (default: the current one)")
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        season: app_commands.Range[int, 1, 100_000] | None = None,
    ) -> None:
        """This server's best Shanghai players, by skill rating over ranked games."""
        async with guard(interaction):
            await board.send_leaderboard(self.bot, interaction, "shanghai", season)

    @app_commands.command(name="stats")
    @app_commands.describe(
        member="Whose record to show (default: yours)",
        versus="Another member to compare with, game by game",
    )
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member | None = None,
        versus: discord.Member | None = None,
    ) -> None:
        """One player's Shanghai record in this server, with a picture."""
        async with guard(interaction):
            await board.send_stats(self.bot, interaction, "shanghai", member, versus)

    @app_commands.command(name="records")
    async def records(self, interaction: discord.Interaction[Any]) -> None:
        """This server's Shanghai records over ranked games."""
        async with guard(interaction):
            await board.send_records(self.bot, interaction, "shanghai")

    @app_commands.command(name="new_season")
    async def new_season(self, interaction: discord.Interaction[Any]) -> None:
        """Manage Server: start a new season; earlier seasons stay readable."""
        async with guard(interaction):
            await board.start_season(self.bot, interaction)

    @app_commands.command(name="remove_results")
    @app_commands.describe(
        member="The member whose results leave the leaderboard",
        user_id="Someone who left the server: their user id or mention",
    )
    async def remove_results(
        self,
        interaction: discord.Interaction[Any],
        member: discord.User | None = None,
        user_id: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        """Manage Server: take one member's results off the leaderboard (asks first)."""
        async with guard(interaction):
            await board.ask_remove(self.bot, interaction, member, user_id)


def bot_defaults(bot: ShanghaiBot, interaction: discord.Interaction[Any]) -> dict[str, Any]:
    """The bot's own table options, for what neither the opener nor the server chose."""
    settings = bot.settings
    return {
        "preset": "standard",
        "buy_seconds": settings.buy_seconds,
        "turn_seconds": settings.turn_seconds,
        "language": server_language(interaction),
        "threads": settings.threads,
        **PACE_FALLBACK,
    }


async def open_table_here(
    bot: ShanghaiBot, interaction: discord.Interaction[Any], options: dict[str, Any], game: str
) -> None:
    """Open a table of ``game`` in the interaction's channel and post its lobby message.

    Shared by /shanghai new and /rummy new: a bad rule combination or a channel that already
    has an open table is refused before anything is written or posted.
    """
    require_table_permissions(interaction)
    rules_for(options)
    assert interaction.guild_id is not None and interaction.channel_id is not None
    try:
        table = await bot.service.open_table(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            interaction.user.display_name,
            options,
        )
    except TableExists as exists:
        record = exists.existing
        where = (
            f" (https://discord.com/channels/{record.guild_id}/{record.channel_id}/"
            f"{record.message_id})"
            if record.message_id
            else ""
        )
        kind = "Rummy" if record.game_kind == "rummy" else "Shanghai"
        state = "lobby" if record.status == "lobby" else "playing"
        english = "waiting for players" if state == "lobby" else "in play"
        raise UserError(
            f"This channel already has an open {kind} table: table #{record.id}, hosted "
            f"by <@{record.host_id}>, {english}{where}. Finish it or ask the host to "
            f"`/shanghai end` it before opening a {game} table.",
            code="table_exists",
            existing=kind,
            table=record.id,
            host=record.host_id,
            state=state,
            where=where,
            game=game,
        ) from None
    await post_lobby(interaction, table.id)


#: The controls of the table messages and hands (and of /shanghai remove_results).
TABLE_CONTROLS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    TableButton,
    HandButton,
    HandSelect,
    HouseRulesSelect,
    EndButton,
    board.RemoveButton,
    RulesPageButton,
)


async def setup(bot: ShanghaiBot) -> None:
    await bot.add_cog(Shanghai(bot))
