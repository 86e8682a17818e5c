"""The replay message: one public message that steps through a finished game.

Custom ids (parsed by ``DynamicItem``s, so the controls work after a restart, when the replay
is rebuilt from the store):

- ``sh:rp:<table>:<step>:<verb>``: a button; the step is the one the message shows. ``prev``,
  ``next`` and ``deal`` (the next deal's first step) edit the message to another step;
  ``hand`` shows the clicking player their own hand at that step, privately; ``file`` sends
  the game's record privately; ``notes`` shows the clicking player the expert's notes on
  their own decisions, privately (``bot.views.replay_notes``); ``open`` posts a new replay
  message at the game's start (the button other messages carry: ``replay_button``).
- ``sh:rpd:<table>:<deal>``: the select that jumps to a deal's first step (its values are
  steps; the deal shown now in the id, so the select shows it).
- ``sh:rpg``: the history's select, whose values are game numbers: opens a replay message.

A step click costs one message edit (``interaction.response.edit_message``); the message
shows only what everyone at the table saw at that step, and the hands a deal's end laid open.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord

from bot.ground.errors import UserError
from bot.i18n import Language, interaction_language, t
from bot.interactions import answers
from bot.interactions.controls import Control
from bot.interactions.ids import parse_id
from bot.screens.attachments import hand_picture, table_file, table_image
from bot.screens.replay_html import replay_html
from bot.screens.replay_text import (
    DESCRIPTION_LIMIT,
    deal_label,
    hand_line,
    revealed_lines,
    step_lines,
    totals_line,
)
from bot.views.replay_notes import show_notes
from bot.views.replay_steps import GameReplay, ReplayCache
from engine.record import write_record

REPLAY_BUTTON_TEMPLATE = (
    r"sh:rp:(?P<table>[0-9]{1,19}):(?P<step>[0-9]{1,6})"
    r":(?P<verb>prev|next|deal|hand|notes|file|open)"
)
#: The deal shown rides in the select's id (``sh:rpd:<table>:<deal>``): a client keeps a
#: select's last pick while its id stays the same, so a replay stepped on to deal 2 would
#: still say "Deal 1"; an older message's id without it still answers.
REPLAY_SELECT_TEMPLATE = r"sh:rpd:(?P<table>[0-9]{1,19})(?::[0-9]{1,4})?"
GAMES_SELECT_ID = "sh:rpg"
#: How a control is answered: an edit of its message, a new private or a new public message.
EDIT, PRIVATE, PUBLIC = "edit", "private", "public"
#: Discord's limit for a select's options.
MAX_OPTIONS = 25


async def load(
    interaction: discord.Interaction[Any], table_id: int, answer: str = EDIT
) -> GameReplay:
    """The replay of finished game ``table_id`` of the interaction's server (refused politely
    for any other number). A game not in the cache is rebuilt, which may take a second or
    two: the interaction is deferred first, for an answer that is an ``EDIT`` of the clicked
    message, a ``PRIVATE`` message or a ``PUBLIC`` one."""
    if interaction.guild_id is None:
        raise UserError("Replays are of a server's games.", code="replay_guild_only")

    async def defer() -> None:
        if answer == PUBLIC:
            await _defer_public(interaction)
        else:
            await answers.defer(interaction, fresh=answer == PRIVATE)

    store = interaction.client.store
    cache: ReplayCache = interaction.client.replay_cache
    return await cache.get(store, interaction.guild_id, table_id, defer)


async def _defer_public(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge now with a public "thinking…", which the replay message then replaces."""
    state = answers.answering(interaction)
    async with state.lock:
        if not interaction.response.is_done():
            await interaction.response.defer(thinking=True)
            state.thinking = state.deferred = True


def replay_button(table_id: int, language: Language, *, row: int | None = None) -> ReplayButton:
    """A button that opens the replay of finished game ``table_id`` in a new message (for the
    game-over message and the like)."""
    return ReplayButton(table_id, 0, "open", label=t("replay.open", language), emoji="🎞️", row=row)


async def replay_message(
    replay: GameReplay, index: int
) -> tuple[discord.Embed, discord.ui.View, discord.File]:
    """The replay message at step ``index``: its embed, controls and table picture."""
    step = replay.step(index)
    language, names = replay.language, replay.names
    view = step.public
    game = "Rummy" if replay.table.game_kind == "rummy" else "Shanghai"
    lines = step_lines(step.seat, step.action, step.events, view, names, language)
    embed = discord.Embed(
        title=t(
            "replay.title",
            language,
            game=game,
            table=replay.table_id,
            step=step.index,
            count=replay.last,
        ),
        description="\n".join(lines)[:DESCRIPTION_LIMIT],
        colour=discord.Colour.dark_teal(),
    )
    embed.add_field(name=t("replay.totals", language), value=totals_line(view, names)[:1024])
    if step.revealed:
        embed.add_field(
            name=t("replay.revealed", language),
            value=revealed_lines(step.revealed, names),
            inline=False,
        )
    if replay.same_deals:
        embed.add_field(
            name=t("replay.same_deals", language),
            value=" · ".join(f"#{other}" for other in replay.same_deals)[:1024],
            inline=False,
        )
    embed.set_footer(text=deal_label(view, language))
    # The uploaded form (lossless WebP, kept by its drawing's key), as TABLE_FILE names it.
    data = await table_image(view, names, language=language, four_colour=replay.four_colour)
    picture = table_file(data, language)
    embed.set_image(url=f"attachment://{picture.filename}")
    return embed, _controls(replay, step.index, language), picture


def _controls(replay: GameReplay, index: int, language: Language) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    table, last = replay.table_id, replay.last
    first_step, last_step = index == 0, index >= last
    view.add_item(
        ReplayButton(
            table, index, "prev", label=t("replay.previous", language), row=0, disabled=first_step
        )
    )
    view.add_item(
        ReplayButton(
            table,
            index,
            "next",
            label=t("replay.next", language),
            row=0,
            disabled=last_step,
            style=discord.ButtonStyle.primary,
        )
    )
    view.add_item(
        ReplayButton(
            table,
            index,
            "deal",
            label=t("replay.next_deal", language),
            row=0,
            disabled=replay.next_deal(index) == index,
        )
    )
    view.add_item(ReplaySelect(replay, index, language))
    view.add_item(ReplayButton(table, index, "hand", label=t("replay.my_hand", language), row=2))
    view.add_item(ReplayButton(table, index, "notes", label=t("replay.my_notes", language), row=2))
    view.add_item(ReplayButton(table, index, "file", label=t("replay.download", language), row=2))
    # The same deals at the other tables of a duplicate round, one click each.
    for other in replay.same_deals[:5]:
        view.add_item(ReplayButton(other, 0, "open", label=f"#{other}", emoji="🎞️", row=3))
    return view


class ReplayButton(Control[discord.ui.Button[Any]], template=REPLAY_BUTTON_TEMPLATE):
    """A button of the replay message (or ``open``: of a message that offers a replay)."""

    def __init__(
        self,
        table_id: int,
        step: int,
        verb: str,
        *,
        label: str = "…",
        emoji: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji=emoji,
                style=style,
                disabled=disabled,
                row=row,
                custom_id=f"sh:rp:{table_id}:{step}:{verb}",
            )
        )
        self.table_id, self.step, self.verb = table_id, step, verb

    @classmethod
    def from_match(cls, match: re.Match[str]) -> ReplayButton:
        return cls(parse_id(match["table"]), int(match["step"]), match["verb"])

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        answer = {"hand": PRIVATE, "notes": PRIVATE, "file": PRIVATE, "open": PUBLIC}.get(
            self.verb, EDIT
        )
        replay = await load(interaction, self.table_id, answer)
        if self.verb == "hand":
            await show_hand(interaction, replay, self.step)
        elif self.verb == "notes":
            await show_notes(interaction, replay)
        elif self.verb == "file":
            await send_record(interaction, replay)
        elif self.verb == "open":
            await post_replay(interaction, replay)
        else:
            target = {
                "prev": self.step - 1,
                "next": self.step + 1,
                "deal": replay.next_deal(self.step),
            }[self.verb]
            await show_step(interaction, replay, target)


class ReplaySelect(Control[discord.ui.Select[Any]], template=REPLAY_SELECT_TEMPLATE):
    """Jump to a deal: each option is a deal's first step."""

    def __init__(
        self, replay: GameReplay | None, index: int, language: Language, table_id: int = 0
    ) -> None:
        options = []
        current = 0
        if replay is not None:
            table_id = replay.table_id
            current = replay.deal_of(index)
            for number, start in enumerate(replay.deal_starts[:MAX_OPTIONS]):
                deal = replay.steps[start].public.deal
                options.append(
                    discord.SelectOption(
                        label=t("replay.deal_option", language, deal=deal, step=start),
                        value=str(start),
                        default=number == current,
                    )
                )
        super().__init__(
            discord.ui.Select(
                custom_id=f"sh:rpd:{table_id}:{current}",
                placeholder=t("replay.jump", language),
                options=options or [discord.SelectOption(label="…", value="0")],
                row=1,
            )
        )
        self.table_id = table_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> ReplaySelect:
        return cls(None, 0, "en", parse_id(match["table"]))

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        replay = await load(interaction, self.table_id)
        values = self.item.values
        chosen = values[0] if values else ""
        if not chosen.isdigit() or int(chosen) not in replay.deal_starts:
            raise UserError("That is not a deal of this game.", code="replay_no_such_step")
        await show_step(interaction, replay, int(chosen))


class GamesSelect(Control[discord.ui.Select[Any]], template=GAMES_SELECT_ID):
    """The history's select: a game's number opens its replay in a new message."""

    def __init__(self, options: list[discord.SelectOption] | None = None, placeholder: str = "…"):
        super().__init__(
            discord.ui.Select(
                custom_id=GAMES_SELECT_ID,
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="…", value="0")],
            )
        )

    @classmethod
    def from_match(cls, match: re.Match[str]) -> GamesSelect:
        return cls()

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        replay = await load(interaction, parse_id(values[0] if values else ""), PUBLIC)
        await post_replay(interaction, replay)


async def show_step(interaction: discord.Interaction[Any], replay: GameReplay, index: int) -> None:
    """Edit the replay message to step ``index`` (held to the game's first and last)."""
    embed, view, picture = await replay_message(replay, index)
    await answers.update(interaction, None, view=view, attachments=[picture], embed=embed)


async def post_replay(interaction: discord.Interaction[Any], replay: GameReplay) -> None:
    """A new public replay message at the game's first step."""
    embed, view, picture = await replay_message(replay, 0)
    state = answers.answering(interaction)
    async with state.lock:
        if not interaction.response.is_done():
            await interaction.response.send_message(embed=embed, view=view, file=picture)
        else:  # the public "thinking…" of a game that had to be rebuilt
            await interaction.edit_original_response(embed=embed, view=view, attachments=[picture])
        state.thinking, state.answered = False, True


async def show_hand(interaction: discord.Interaction[Any], replay: GameReplay, index: int) -> None:
    """The clicking player's own hand at step ``index``, privately; refused to anyone who did
    not play the game."""
    seat = replay.seat_of(interaction.user.id)
    if seat is None:
        raise UserError(
            f"You did not play game #{replay.table_id}, so there is no hand of yours to show.",
            code="replay_not_a_player",
            table=replay.table_id,
        )
    step = replay.step(index)
    hand = step.hands[seat]
    language = interaction_language(interaction)
    text = hand_line(step.index, step.public, hand, language)
    if not hand:
        await answers.show(interaction, text)
        return
    picture = await hand_picture(hand, language=language, four_colour=replay.four_colour)
    await answers.show(interaction, text, files=[picture])


async def send_record(interaction: discord.Interaction[Any], replay: GameReplay) -> None:
    """The game's record (``docs/game-record.md``) and the page that replays it in a browser
    (``bot.screens.replay_html``), as files, privately. The page replays the whole game again,
    up to a second of CPU for a long one: in a thread, the click deferred if it runs long."""
    language = interaction_language(interaction)
    name = f"shanghai-game-{replay.table_id}"
    shown = dict(zip(replay.record.seats, replay.names, strict=True))
    async with answers.in_time(interaction, fresh=True):
        page = await asyncio.to_thread(replay_html, replay.record, shown)
        files = [
            discord.File(io.BytesIO(write_record(replay.record).encode()), filename=f"{name}.json"),
            discord.File(io.BytesIO(page.encode()), filename=f"{name}.html"),
        ]
        text = t("replay.record", language, table=replay.table_id)
        await answers.show(interaction, text, files=files)
