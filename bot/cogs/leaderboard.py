"""The board's answers, shared by /shanghai and /rummy: leaderboard, stats, records, seasons,
and an admin's removal of a member's results.

Only the command declarations live in ``shanghai.py`` and ``rummy.py``; what they answer is
here. The board lists ranked games only (``bot.service.ranked`` says which games are ranked
and words the lobby's ranked-or-casual line; ``data.ranking`` keeps the ratings).
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.ground.errors import UserError
from bot.i18n import (
    DEFAULT_LANGUAGE,
    Language,
    decimal,
    interaction_language,
    percent,
    server_language,
    t,
)
from bot.interactions.controls import Control
from bot.interactions.ids import parse_id, usable
from bot.screens import render_in_thread
from bot.screens.stats_picture import render_stats
from data.ranking import MIN_RANKED_GAMES
from data.records import GameKind, HeadToHead, LeaderboardRow, PlayerCard, ServerRecord

if TYPE_CHECKING:
    from bot.process.app import ShanghaiBot

#: Per game: its name, and the catalogue keys of its empty board.
GAME_NAMES: dict[GameKind, str] = {"shanghai": "Shanghai", "rummy": "Rummy"}
STATS_FILE = "stats.png"


def clean(name: str) -> str:
    """A display name with Discord's markdown characters escaped."""
    return re.sub(r"([*_`~|>])", r"\\\1", name)


# -- the board ------------------------------------------------------------------------------


async def send_leaderboard(
    bot: ShanghaiBot,
    interaction: discord.Interaction[Any],
    game: GameKind,
    season: int | None = None,
) -> None:
    """A season's board of ``game`` (default: the current season); public."""
    assert interaction.guild_id is not None
    current = await bot.store.current_season(interaction.guild_id)
    if season is not None and season > current:
        raise UserError(
            f"Season {season} has not started; this server is in season {current}.",
            code="no_such_season",
            season=season,
            current=current,
        )
    shown = current if season is None else season
    rows = await bot.store.leaderboard(interaction.guild_id, game, 10, shown)
    language = server_language(interaction)
    name = GAME_NAMES[game]
    if not rows:
        await interaction.response.send_message(
            t("leaderboard.empty_season", language, game=name, season=shown, count=MIN_RANKED_GAMES)
        )
        return
    await interaction.response.send_message(
        embed=leaderboard_embed(name, rows, language, season=shown)
    )


def leaderboard_embed(
    game_name: str,
    rows: Sequence[LeaderboardRow],
    language: Language = DEFAULT_LANGUAGE,
    *,
    season: int = 1,
) -> discord.Embed:
    """A season's board as one embed; shared by /shanghai and /rummy."""
    lines = [
        t(
            "leaderboard.rated_line",
            language,
            place=i,
            name=clean(r.name),
            rating=decimal(r.rating, language),
            wins=t("stats.wins", language, count=r.wins),
            games=t("stats.games", language, count=r.games),
            average=decimal(r.average_total, language),
            best=r.best_total,
        )
        for i, r in enumerate(rows, start=1)
    ]
    embed = discord.Embed(
        title=t("leaderboard.title_season", language, game=game_name, season=season),
        description="\n".join(lines),
        colour=discord.Colour.gold(),
    )
    embed.set_footer(text=t("leaderboard.footer", language, count=MIN_RANKED_GAMES))
    return embed


# -- stats ----------------------------------------------------------------------------------


def card_text(card: PlayerCard, name: str, game: GameKind, language: Language) -> str:
    """The stats card in words: everything the picture shows, for screen readers."""
    stats = card.stats
    best = "—" if card.best_ranked_total is None else str(card.best_ranked_total)
    games_key = "stats.games_rummy" if game == "rummy" else "stats.games"
    lines = [
        t(
            "stats.card",
            language,
            name=clean(name),
            games=t(games_key, language, count=stats.games),
            ranked=card.ranked_games,
            casual=stats.games - card.ranked_games,
            wins=t("stats.wins", language, count=stats.wins),
            rate=percent(stats.win_rate, language),
            best=best,
            streak=card.longest_win_streak,
            out=stats.deals_out,
            blind=stats.blind_outs,
            buys=stats.buys_used,
        )
    ]
    if card.rating is not None and card.board_games >= MIN_RANKED_GAMES:
        lines.append(
            t(
                "stats.rating",
                language,
                season=card.season,
                rating=decimal(card.rating, language),
                count=card.board_games,
            )
        )
    else:
        lines.append(
            t(
                "stats.rating_pending",
                language,
                season=card.season,
                played=card.board_games,
                count=MIN_RANKED_GAMES,
            )
        )
    marks = " ".join(
        ("🏆" if g.is_winner else "") + (str(g.total) if g.ranked else f"({g.total})")
        for g in card.recent
    )
    if marks:
        lines.append(t("stats.recent", language, count=len(card.recent), games=marks))
    return "\n".join(lines)


def versus_text(h2h: HeadToHead, name: str, other: str, language: Language) -> str:
    """Two members' games together, in one line."""
    if h2h.games == 0:
        return t("stats.versus_none", language, name=clean(name), other=clean(other))
    return t(
        "stats.versus",
        language,
        name=clean(name),
        other=clean(other),
        games=t("stats.games", language, count=h2h.games),
        ranked=h2h.ranked_games,
        ahead=h2h.ahead,
        behind=h2h.behind,
        level=h2h.level,
        average=decimal(h2h.average_total or 0.0, language),
        other_average=decimal(h2h.other_average_total or 0.0, language),
    )


async def send_stats(
    bot: ShanghaiBot,
    interaction: discord.Interaction[Any],
    game: GameKind,
    member: discord.Member | discord.User | None,
    versus: discord.Member | discord.User | None = None,
) -> None:
    """A player's card of ``game`` (picture and words), and head-to-head against ``versus``."""
    assert interaction.guild_id is not None
    who = member or interaction.user
    if versus is not None and versus.id == who.id:
        raise UserError("Choose another member to compare with.", code="versus_self")
    card = await bot.store.player_card(interaction.guild_id, who.id, game)
    if card is None:
        await interaction.response.send_message(
            t(
                "stats.none",
                interaction_language(interaction),
                name=clean(who.display_name),
                game=GAME_NAMES[game],
            ),
            ephemeral=True,
        )
        return
    language = server_language(interaction)
    name = card.stats.name
    text = card_text(card, name, game, language)
    if versus is not None:
        h2h = await bot.store.head_to_head(interaction.guild_id, who.id, versus.id, game)
        text += "\n" + versus_text(h2h, name, versus.display_name, language)
    png = await render_in_thread(render_stats, card, name, GAME_NAMES[game], language)
    picture = discord.File(
        io.BytesIO(png), filename=STATS_FILE, description=t("picture.alt_stats", language)
    )
    await interaction.response.send_message(text[:2000], file=picture)


# -- records --------------------------------------------------------------------------------


def records_text(records: Sequence[ServerRecord], game: GameKind, language: Language) -> str:
    """The guild's records, one line each."""
    lines = [t("records.title", language, game=GAME_NAMES[game])]
    for record in records:
        lines.append(
            t(
                f"records.{record.kind}",
                language,
                name=clean(record.name),
                value=record.value,
                count=record.value,  # the plural of the messages that count games
                table=record.table_id or 0,
            )
        )
    return "\n".join(lines)


async def send_records(
    bot: ShanghaiBot, interaction: discord.Interaction[Any], game: GameKind
) -> None:
    """The guild's records over its ranked games; public."""
    assert interaction.guild_id is not None
    records = await bot.store.server_records(interaction.guild_id, game)
    language = server_language(interaction)
    if not records:
        await interaction.response.send_message(t("records.empty", language, game=GAME_NAMES[game]))
        return
    await interaction.response.send_message(records_text(records, game, language))


# -- seasons and removals (Manage Server) ---------------------------------------------------


def require_manager(interaction: discord.Interaction[Any]) -> None:
    """Seasons and removals are for members who may manage the server."""
    if not interaction.permissions.manage_guild:
        raise UserError("Only members with Manage Server can do that.", code="not_server_manager")


async def start_season(bot: ShanghaiBot, interaction: discord.Interaction[Any]) -> None:
    """Open the guild's next season; said in public, since it concerns everyone."""
    require_manager(interaction)
    assert interaction.guild_id is not None
    number = await bot.store.start_season(interaction.guild_id, interaction.user.id)
    await interaction.response.send_message(
        t("season.started", server_language(interaction), season=number, previous=number - 1)
    )


class RemoveButton(
    Control[discord.ui.Button[Any]],
    template=r"sh:unboard:(?P<member>[0-9]{1,20}):(?P<user>[0-9]{1,20}):(?P<answer>yes|no)",
):
    """The confirmation of /shanghai remove_results; only the admin who asked may answer."""

    def __init__(
        self,
        member_id: int,
        user_id: int,
        answer: str,
        *,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                custom_id=f"sh:unboard:{member_id}:{user_id}:{answer}",
            )
        )
        self.member_id, self.user_id, self.answer = member_id, user_id, answer

    @classmethod
    def from_match(cls, match: re.Match[str]) -> RemoveButton:
        return cls(parse_id(match["member"]), parse_id(match["user"]), match["answer"])

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.user.id != self.user_id:
            raise UserError(
                "This confirmation belongs to someone else.", code="not_your_confirmation"
            )
        if not usable(self.member_id):  # a forged id: no member has it
            raise UserError("That button is not valid.", code="bad_button")
        language = interaction_language(interaction)
        if self.answer == "no":
            await interaction.response.edit_message(content=t("remove.kept", language), view=None)
            return
        require_manager(interaction)
        assert interaction.guild_id is not None
        bot: ShanghaiBot = interaction.client
        removed = await bot.store.remove_from_board(interaction.guild_id, self.member_id)
        await interaction.response.edit_message(
            content=t(
                "remove.done",
                language,
                member=self.member_id,
                count=removed.results,
            ),
            view=None,
        )


#: A user as typed in a text option: a mention (``<@123>``, ``<@!123>``) or the bare id.
_MENTION = re.compile(r"<@!?([0-9]+)>")


def user_to_remove(member: discord.abc.User | None, user_id: str | None) -> tuple[int, str]:
    """Who a removal is for, and how to name them: the picked user, or the id (or mention)
    typed for someone the picker cannot offer (a member who left the server)."""
    if member is not None and user_id is None:
        return member.id, clean(member.display_name)
    if member is None and user_id is not None:
        text = user_id.strip()
        mention = _MENTION.fullmatch(text)
        found = parse_id(mention[1] if mention else text)
        if not usable(found):
            raise UserError(
                "That is not a user id or a mention: copy the id from their profile "
                "(Developer Mode) or from a game's results.",
                code="bad_user_id",
            )
        return found, f"<@{found}>"
    raise UserError(
        "Give either `member` or `user_id` (for someone who left the server), not both.",
        code="remove_whom",
    )


async def ask_remove(
    bot: ShanghaiBot,
    interaction: discord.Interaction[Any],
    member: discord.abc.User | None,
    user_id: str | None = None,
) -> None:
    """Say exactly what removing someone's results takes off the board, and ask first.

    Anyone's results can go, not only a current member's: the removal is most often for
    someone who left, whom Discord's member picker no longer offers.
    """
    require_manager(interaction)
    assert interaction.guild_id is not None
    language = interaction_language(interaction)
    who, name = user_to_remove(member, user_id)
    entries = await bot.store.board_entries(interaction.guild_id, who)
    if entries.results == 0:
        await interaction.response.send_message(
            t("remove.nothing", language, name=name), ephemeral=True
        )
        return
    seasons = ", ".join(str(s) for s in entries.seasons) or "—"
    text = t(
        "remove.confirm",
        language,
        name=name,
        count=entries.results,
        ranked=entries.ranked_games,
        seasons=seasons,
    )
    view = discord.ui.View(timeout=None)
    view.add_item(
        RemoveButton(
            who,
            interaction.user.id,
            "yes",
            label=t("remove.yes", language),
            style=discord.ButtonStyle.danger,
        )
    )
    view.add_item(RemoveButton(who, interaction.user.id, "no", label=t("remove.no", language)))
    await interaction.response.send_message(text, view=view, ephemeral=True)


__all__ = [
    "RemoveButton",
    "ask_remove",
    "leaderboard_embed",
    "send_leaderboard",
    "send_records",
    "send_stats",
    "start_season",
    "user_to_remove",
]
