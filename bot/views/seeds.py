"""The game-over message's "Shuffle seeds": every deal's seed beside the hash it committed to.

Each deal's seed decides its shuffles (``engine/shuffle.py``); its SHA-256 was posted when the
deal was dealt. Once the game is over the seeds are public, and with them anyone can check
that each deal was the one announced (``docs/shuffle.md``). Ten 64-digit seeds would crowd the
channel, so the game-over message says they are out and this button lists them privately.

Custom id ``sh:seeds:<table>``. A seed shown before its game ends would let a player predict
the deck, so the seeds come only from the finished game's record (``record_of_table``, which
refuses a game not over) of a table whose status is finished: a forged click on a table
still playing is refused, and so is one of a duplicate event's round that other tables are
still playing (the same seeds deal their cards).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.ground.errors import UserError
from bot.i18n import Language, interaction_language, t
from bot.interactions.controls import Control
from bot.interactions.ids import parse_id
from bot.service.results import record_of_table
from bot.views.replay_notes import show_embed
from bot.views.replay_steps import no_such_game, round_playing
from engine.shuffle import commitment

SEEDS_BUTTON_TEMPLATE = r"sh:seeds:(?P<table>[0-9]{1,19})"
#: Discord's limit for an embed's description.
DESCRIPTION_LIMIT = 4096


def seeds_button(table_id: int, language: Language, *, row: int | None = None) -> SeedsButton:
    """The button under the game's final standings that lists its shuffle seeds."""
    return SeedsButton(table_id, label=t("button.shuffle_seeds", language), row=row)


class SeedsButton(Control[discord.ui.Button[Any]], template=SEEDS_BUTTON_TEMPLATE):
    """Lists a finished game's deal seeds and their hashes, privately, to anyone who asks."""

    def __init__(self, table_id: int, *, label: str = "…", row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji="🔑",
                style=discord.ButtonStyle.secondary,
                row=row,
                custom_id=f"sh:seeds:{table_id}",
            )
        )
        self.table_id = table_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> SeedsButton:
        return cls(parse_id(match["table"]))

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        seeds = await finished_seeds(interaction, self.table_id)
        language = interaction_language(interaction)
        await show_embed(interaction, seeds_embed(self.table_id, seeds, language))


async def finished_seeds(interaction: discord.Interaction[Any], table_id: int) -> tuple[str, ...]:
    """The deal seeds of finished game ``table_id`` of the interaction's server, attempt 0
    first. Refused for a game of another server or none, for a game not over (its seeds are
    still secret), and for a game shuffled before seeds existed."""
    store = interaction.client.store
    table = await store.get_table(table_id)
    if table is None or table.guild_id != interaction.guild_id:
        raise no_such_game(table_id)
    not_yet = UserError(
        "The shuffle seeds are revealed when the game is over.", code="seeds_not_yet"
    )
    if table.status != "finished":
        raise not_yet
    seated = await store.table_round(table_id)
    if seated is not None and seated.hidden:
        raise round_playing()
    try:
        record = await record_of_table(store, table_id)
    except ValueError:  # a table closed before its game ended: the seeds stay secret
        raise not_yet from None
    if not record.deal_seeds:
        raise UserError(
            f"Game #{table_id} was shuffled before seeds were published: it has none to show.",
            code="seeds_none",
            table=table_id,
        )
    return record.deal_seeds


def seeds_embed(table_id: int, seeds: tuple[str, ...], language: Language) -> discord.Embed:
    """Each deal attempt's seed and the hash posted when it was dealt (a void deal's redeal is
    an attempt of its own), then how to check them; cut short, never mid-line, past
    Discord's limit."""
    lines = [
        t("seeds.line", language, number=number, seed=seed, hash=commitment(bytes.fromhex(seed)))
        for number, seed in enumerate(seeds, start=1)
    ]
    how = t("seeds.how", language)
    shown: list[str] = []
    room = DESCRIPTION_LIMIT - len(how) - 4
    for line in lines:
        room -= len(line) + 1
        if room < 0:
            break
        shown.append(line)
    return discord.Embed(
        title=t("seeds.title", language, table=table_id),
        description="\n".join([*shown, "", how]),
        colour=discord.Colour.dark_gold(),
    )
