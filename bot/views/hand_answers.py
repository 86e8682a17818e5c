"""How a hand message is answered besides its controls: the picture beside its text, the
note above a hand redrawn after a click on an older screen, and the hand's follower held off
while the answer goes out.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Hashable
from typing import TYPE_CHECKING, Any

import discord

from bot.ground.errors import StaleControl
from bot.i18n import DEFAULT_LANGUAGE, Language, interaction_language, t
from bot.i18n.refusals import refusal_text
from bot.screens.attachments import hand_picture_for
from bot.screens.card_words import SortMode
from bot.screens.hand_controls import Mode
from engine.actions import GoDown
from engine.cards import Card

if TYPE_CHECKING:
    from bot.service import SeatSnapshot


async def hand_files(
    snap: SeatSnapshot,
    sort: SortMode,
    mode: Mode = "main",
    language: Language = DEFAULT_LANGUAGE,
) -> list[discord.File]:
    """The picture of the hand, the proposed lay-down's cards raised in ``down``; text and
    picture always show the same hand, because both come from the same snapshot."""
    if snap.over:
        return []
    proposal = _proposal(snap, mode)
    return [
        await hand_picture_for(
            snap.view.hand or (),
            proposal,
            by_rank=sort == "r",
            language=language,
            four_colour=snap.four_colour,
        )
    ]


def _proposal(snap: SeatSnapshot, mode: Mode) -> tuple[Card, ...]:
    """The cards of the proposed lay-down, raised in the picture of ``mode``."""
    if mode not in ("down", "main"):
        return ()
    down = next((a for a in snap.legal if isinstance(a, GoDown)), None)
    return () if down is None else tuple(c.card for m in down.melds for c in m.cards)


def picture_key(
    snap: SeatSnapshot, sort: SortMode, mode: Mode = "main", language: Language = DEFAULT_LANGUAGE
) -> Hashable:
    """Everything the picture of ``hand_files`` depends on: two screens with the same key
    show the same picture, so a message that shows it already keeps it (no upload)."""
    proposal = tuple(sorted(str(c) for c in _proposal(snap, mode)))
    hand = tuple(str(c) for c in snap.view.hand or ())
    return (hand, proposal, sort, language, snap.four_colour)


def following(
    interaction: discord.Interaction[Any],
    follower: Any,
    snap: SeatSnapshot,
    sort: SortMode,
    mode: Mode,
    *,
    fresh: bool,
) -> bool:
    """Tell the ``follower`` (if any) what the answer to ``interaction`` shows, before anything
    is awaited; ``True`` when the message answered (``fresh``: a new one) shows the same
    picture already, as the follower knows: the answer's layout names it, nothing is sent."""
    if follower is None:
        return False
    picture = picture_key(snap, sort, mode, interaction_language(interaction))
    message_id = None if fresh or interaction.message is None else interaction.message.id
    kept = message_id is not None and bool(
        follower.shows(snap.table_id, snap.user_id, message_id, picture)
    )
    if not snap.over:
        follower.shown(interaction, snap, sort, message_id=message_id, picture=picture)
    return kept


@contextlib.asynccontextmanager
async def answering_hand(
    interaction: discord.Interaction[Any], table_id: int
) -> AsyncIterator[None]:
    """While a click or a submitted form on this player's hand is answered, no push redraws
    that hand (one already on its way lands first): a push of the change the answer made
    could otherwise land after the answer and wipe its note ("You went down!")."""
    follower = getattr(interaction.client, "hands", None)
    if follower is None:
        yield
        return
    await follower.answering(table_id, interaction.user.id)
    try:
        yield
    finally:
        follower.answered(table_id, interaction.user.id, click=True)


def stale_note(key: str, language: Language) -> str:
    """The note above a hand redrawn because the control clicked was on an older screen."""
    return t(key, language, stale=refusal_text(StaleControl(), language))
