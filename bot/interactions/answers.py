"""Every hand click answered within Discord's 3 seconds, however long its work takes.

Discord drops a click not answered within 3 s ("This interaction failed"). Most clicks answer
in milliseconds with the finished screen, in one trip. A few may not: a huge hand whose legal
plays take seconds to compute (``bot.service.legal_plays``), a table lock held by a timer, a
slow disk under the store's write (2 s for the lock and 2 s for the write could pass 3 s).
So a click runs ``in_time``: when its work is known to be long (``at_once``) it is deferred
before the work starts, otherwise a watchdog defers it if no answer went out within
``DEFER_AFTER``; either way the finished screen then replaces the deferred answer (an edit of
the original response, through the interaction's webhook, valid for 15 minutes).

One lock per interaction orders the deferral and the answer, so they never both answer (which
Discord refuses with 40060). ``show`` and ``update`` answer or edit, whichever is due;
``bot.interactions.handler.reply`` (refusals, apologies) goes through the same lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

import discord

if TYPE_CHECKING:
    from bot.service import TableService

log = logging.getLogger(__name__)

#: How long a click's work may run before the watchdog defers it: well inside Discord's 3 s,
#: and long enough that an ordinary click (a few milliseconds) never pays the extra trip.
DEFER_AFTER: Final = 0.5
_KEY: Final = "shanghai_answer"


@dataclass
class Answering:
    """How one interaction is being answered."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: Deferred with "thinking…" (a new message to come): its placeholder is still showing.
    thinking: bool = False
    #: The interaction was deferred (by the watchdog or at once).
    deferred: bool = False
    #: The real answer went out (sent, or the deferred answer edited).
    answered: bool = False


def answering(interaction: discord.Interaction[Any]) -> Answering:
    """The interaction's answering state (made on first use)."""
    state = interaction.extras.get(_KEY)
    if not isinstance(state, Answering):
        state = interaction.extras[_KEY] = Answering()
    return state


def was_deferred(interaction: discord.Interaction[Any]) -> bool:
    state = interaction.extras.get(_KEY)
    return isinstance(state, Answering) and state.deferred


def awaiting_answer(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction's own answer is still to come (not sent, or only deferred):
    an edit through its webhook now would be overwritten by it."""
    if not interaction.response.is_done():
        return True
    state = interaction.extras.get(_KEY)
    return isinstance(state, Answering) and state.deferred and not state.answered


async def defer(interaction: discord.Interaction[Any], *, fresh: bool) -> None:
    """Acknowledge now, the answer to follow: ``fresh`` (the answer is a new private message,
    e.g. My hand on the table) shows "thinking…", otherwise the clicked message stays as it
    is until it is edited. Nothing if the interaction was answered already."""
    state = answering(interaction)
    async with state.lock:
        if interaction.response.is_done():
            return
        if fresh:
            await interaction.response.defer(ephemeral=True, thinking=True)
            state.thinking = True
        else:
            await interaction.response.defer()
        state.deferred = True


async def show(
    interaction: discord.Interaction[Any],
    content: str | None,
    *,
    view: discord.ui.View | discord.ui.LayoutView | None = None,
    files: Sequence[discord.File] = (),
) -> int | None:
    """A new private message (``content``, ``view``, ``files``) as the answer; after a
    "thinking…" deferral, the placeholder becomes that message. A ``LayoutView`` (Components
    V2) carries all the words itself: the message then has no ``content``. Returns the
    message's id when Discord says it."""
    state = answering(interaction)
    async with state.lock:
        if not interaction.response.is_done():
            if isinstance(view, discord.ui.LayoutView):
                sent = await interaction.response.send_message(
                    view=view, ephemeral=True, files=list(files)
                )
            elif view is None:
                sent = await interaction.response.send_message(
                    content, ephemeral=True, files=list(files)
                )
            else:
                sent = await interaction.response.send_message(
                    content, view=view, ephemeral=True, files=list(files)
                )
            message_id = sent.message_id if sent is not None else None
        else:
            if isinstance(view, discord.ui.LayoutView):
                content = None  # the placeholder's words go: a V2 message has no content
            edited = await interaction.edit_original_response(
                content=content, view=view, attachments=list(files)
            )
            message_id = edited.id
        state.thinking, state.answered = False, True
    return message_id


async def update(
    interaction: discord.Interaction[Any],
    content: str | None,
    *,
    view: discord.ui.View | discord.ui.LayoutView | None,
    attachments: Sequence[discord.File] | None = None,
    embed: discord.Embed | None = None,
) -> None:
    """Redraw the message the clicked control is on; after a deferral, by editing it.
    ``content``, ``attachments`` or ``embed`` None keeps the message's own; a ``LayoutView``
    (Components V2) clears ``content`` and the embeds, since such a message carries neither
    (a message posted by an older release has them)."""
    fields: dict[str, Any] = {"view": view}
    if isinstance(view, discord.ui.LayoutView):
        fields["content"] = None
        fields["embeds"] = []
    elif content is not None:
        fields["content"] = content
    if attachments is not None:
        fields["attachments"] = list(attachments)
    if embed is not None:
        fields["embed"] = embed
    state = answering(interaction)
    async with state.lock:
        if not interaction.response.is_done():
            await interaction.response.edit_message(**fields)
        else:
            await interaction.edit_original_response(**fields)
        state.thinking, state.answered = False, True


async def tell(interaction: discord.Interaction[Any], text: str, *, ephemeral: bool) -> None:
    """A short reply (a refusal, an apology): the answer, the "thinking…" placeholder's text,
    or a follow-up once a real answer went out."""
    state = answering(interaction)
    async with state.lock:
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=ephemeral)
        elif state.thinking:
            await interaction.edit_original_response(content=text, view=None, attachments=[])
        else:
            await interaction.followup.send(text, ephemeral=ephemeral)
        state.thinking, state.answered = False, True


@contextlib.asynccontextmanager
async def in_time(
    interaction: discord.Interaction[Any], *, fresh: bool, at_once: bool = False
) -> AsyncIterator[None]:
    """Run a click's work so that it is acknowledged in time: deferred now if ``at_once``,
    else by a watchdog after ``DEFER_AFTER`` seconds without an answer. The work answers with
    ``show`` / ``update`` / ``tell``, which edit the deferred answer when there is one."""
    if at_once:
        await defer(interaction, fresh=fresh)
        yield
        return

    # A timer, not a sleeping task: most clicks answer well within ``DEFER_AFTER``, and a
    # cancelled timer costs the loop nothing more, where a cancelled task still runs once.
    loop = asyncio.get_running_loop()
    deferral: asyncio.Task[None] | None = None

    def start_deferral() -> None:
        nonlocal deferral
        deferral = loop.create_task(_defer_late(interaction, fresh), name="shanghai-defer")

    timer = loop.call_later(DEFER_AFTER, start_deferral)
    try:
        yield
    finally:
        timer.cancel()
        if deferral is not None:  # let finish: a deferral cut off midway is lost
            await deferral


async def _defer_late(interaction: discord.Interaction[Any], fresh: bool) -> None:
    """The watchdog's deferral, for a click still working after ``DEFER_AFTER`` seconds."""
    try:
        await defer(interaction, fresh=fresh)
    except discord.HTTPException as error:  # the answer itself will say what it can
        log.info("interaction %s: could not defer (%s)", interaction.id, error.status)


def for_click(
    interaction: discord.Interaction[Any],
    table_id: int,
    *,
    fresh: bool,
    modal: bool = False,
) -> contextlib.AbstractAsyncContextManager[None]:
    """``in_time`` for a click at ``table_id``: deferred at once when the service says it
    will take time (``TableService.needs_time``). A click answered with a form (``modal``)
    is never deferred: Discord accepts a form only as the first answer."""
    if modal:
        return contextlib.nullcontext()
    service: TableService = interaction.client.service
    slow = service.needs_time(table_id, interaction.user.id)
    return in_time(interaction, fresh=fresh, at_once=slow)
