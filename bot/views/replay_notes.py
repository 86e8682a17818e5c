"""The replay message's "My notes": the expert's notes on the clicking player's own decisions.

``engine.players.review`` replays the game and asks the expert computer player, at each of the
seat's decisions, what it would have done from that seat's own view; where it differs, a note.
That costs a few seconds of CPU for a long game, so it never runs on the event loop: a review
runs in a worker thread, one at a time per process (two at once would only share the same
cores and slow every table's clicks), with the click deferred first. Notes are a pure
function of the record and the seat, so each (game, seat) is reviewed once and kept
(``NotesCache``); a second ask, or a second click while the first is still thinking, shares
that one review.

Only a player of the game gets notes, and only on their own seat: the reviewer reads nothing
but that seat's view, and the notes are answered privately.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

import discord

from bot.ground.errors import UserError
from bot.i18n import Language, interaction_language, t
from bot.interactions import answers
from bot.screens.notes_text import notes_fields
from bot.views.replay_steps import GameReplay
from engine.players.review import Note, review
from engine.record import GameRecord

#: How many (game, seat) reviews one process keeps: a few dozen notes each, nothing in memory.
KEEP = 256

Key = tuple[int, int]


class NotesCache:
    """Reviews done, by (game, seat), newest last; each one computed at most once at a time."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._done: OrderedDict[Key, tuple[Note, ...]] = OrderedDict()
        self._running: dict[Key, asyncio.Task[tuple[Note, ...]]] = {}
        self._one_at_a_time = asyncio.Semaphore(1)

    def known(self, key: Key) -> tuple[Note, ...] | None:
        """The notes of ``key`` if they were reviewed already (no work at all)."""
        found = self._done.get(key)
        if found is not None:
            self._done.move_to_end(key)
        return found

    async def get(self, key: Key, record: GameRecord) -> tuple[Note, ...]:
        """The notes of seat ``key[1]`` in ``record`` (game ``key[0]``), reviewed in a worker
        thread unless known; askers of the same key share one review."""
        found = self.known(key)
        if found is not None:
            return found
        running = self._running.get(key)
        if running is None:
            running = asyncio.get_running_loop().create_task(
                self._review(key, record), name=f"shanghai-notes-{key[0]}-{key[1]}"
            )
            self._running[key] = running
        return await asyncio.shield(running)

    async def _review(self, key: Key, record: GameRecord) -> tuple[Note, ...]:
        try:
            async with self._one_at_a_time:
                notes = tuple(await asyncio.to_thread(review, record, key[1]))
            self._done[key] = notes
            while len(self._done) > self.keep:
                self._done.popitem(last=False)
            return notes
        finally:
            self._running.pop(key, None)


async def show_notes(interaction: discord.Interaction[Any], replay: GameReplay) -> None:
    """The clicking player's notes, privately; refused to anyone who did not play the game.
    A review not yet done defers the click at once (it may take seconds)."""
    seat = replay.seat_of(interaction.user.id)
    if seat is None:
        raise UserError(
            f"You did not play game #{replay.table_id}, so there are no notes of yours to show.",
            code="replay_notes_not_a_player",
            table=replay.table_id,
        )
    cache: NotesCache = interaction.client.notes_cache
    key = (replay.table_id, seat)
    async with answers.in_time(interaction, fresh=True, at_once=cache.known(key) is None):
        try:
            notes = await cache.get(key, replay.record)
        except ValueError:  # the record did not replay for the reviewer
            raise UserError(
                f"Game #{replay.table_id} cannot be replayed: its stored moves do not replay.",
                code="replay_broken",
                table=replay.table_id,
            ) from None
        language = interaction_language(interaction)
        await show_embed(interaction, notes_embed(replay, seat, notes, language))


def notes_embed(
    replay: GameReplay, seat: int, notes: tuple[Note, ...], language: Language
) -> discord.Embed:
    """The notes as one embed: a field a deal, the step numbers those of the replay message
    (its deal select and Next buttons reach them)."""
    embed = discord.Embed(
        title=t("notes.title", language, table=replay.table_id, name=replay.names[seat]),
        description=t("notes.intro" if notes else "notes.none", language),
        colour=discord.Colour.dark_teal(),
    )
    for name, value in notes_fields(notes, language):
        embed.add_field(name=name, value=value, inline=False)
    return embed


async def show_embed(interaction: discord.Interaction[Any], embed: discord.Embed) -> None:
    """``answers.show`` for an embed: the private answer, or the "thinking…" placeholder
    edited into it."""
    state = answers.answering(interaction)
    async with state.lock:
        if not interaction.response.is_done():
            await interaction.response.send_message(embed=embed, ephemeral=True)
        else:
            await interaction.edit_original_response(content=None, embed=embed)
        state.thinking, state.answered = False, True
