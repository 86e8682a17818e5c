"""How a hand message is answered besides its controls: the picture beside its text, the
note above a hand redrawn after a click on an older screen, and the hand's follower held off
while the answer goes out.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import DEFAULT_LANGUAGE, Language, t
from bot.i18n.refusals import refusal_text
from bot.interactions.errors import StaleControl
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
    hand = snap.view.hand or ()
    proposal: tuple[Card, ...] = ()
    if mode in ("down", "main"):
        down = next((a for a in snap.legal if isinstance(a, GoDown)), None)
        if down is not None:
            proposal = tuple(c.card for m in down.melds for c in m.cards)
    return [
        await hand_picture_for(
            hand, proposal, by_rank=sort == "r", language=language, four_colour=snap.four_colour
        )
    ]


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
