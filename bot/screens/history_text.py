"""The History button's answer: the deal's public moves, per player, in the reader's language.

What a player at a real table sees and remembers (issue 15): the first upcard turned, and per
player the cards they took from the discard pile, bought and discarded, each list in the order
it happened. It is read from ``PlayerView.history`` (``engine/view.py``), which holds only
public moves: a stock draw is not in it at all, and a buy's penalty cards are not, so nothing
hidden can be shown here. A long deal drops its oldest moves first to fit Discord's 2,000
characters, and says how many it left out.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Language, t
from engine.view import MoveKind, PlayerView, PublicMove

from .text import cards_text

#: Discord's limit for a message's content.
MESSAGE_LIMIT = 2000

#: Per player, the kinds of move in the order their lists are shown.
_PLAYER_KINDS: tuple[MoveKind, ...] = ("took", "bought", "discarded")


def history_text(
    view: PlayerView, names: Sequence[str], language: Language, limit: int = MESSAGE_LIMIT
) -> str:
    """The deal's public moves in at most ``limit`` characters, the oldest left out first."""
    moves = view.history
    if not moves:
        return t("history.title", language, deal=view.deal) + "\n" + t("history.empty", language)
    text = _render(view, names, moves, 0, language)
    if len(text) <= limit:
        return text
    # The fewest oldest moves to leave out so that the rest fits (longer drops, shorter text).
    low, high = 1, len(moves)
    while low < high:
        middle = (low + high) // 2
        if len(_render(view, names, moves[middle:], middle, language)) <= limit:
            high = middle
        else:
            low = middle + 1
    return _render(view, names, moves[low:], low, language)[:limit]


def _render(
    view: PlayerView,
    names: Sequence[str],
    moves: Sequence[PublicMove],
    left_out: int,
    language: Language,
) -> str:
    lines = [t("history.title", language, deal=view.deal)]
    if left_out:
        lines.append(t("history.left_out", language, count=left_out))
    turned = [move.card for move in moves if move.kind == "turned" and move.card is not None]
    if turned:
        lines.append(t("history.turned", language, card=cards_text(turned)))
    for seat, name in enumerate(names):
        parts = []
        for kind in _PLAYER_KINDS:
            cards = [
                move.card
                for move in moves
                if move.seat == seat and move.kind == kind and move.card is not None
            ]
            if cards:
                parts.append(t(f"history.{kind}", language, cards=cards_text(cards)))
        done = " · ".join(parts) if parts else t("history.nothing", language)
        lines.append(f"**{name}**: {done}")
    lines.append(t("history.hidden", language))
    return "\n".join(lines)
