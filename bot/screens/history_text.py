"""The History button's answer: the deal's public moves in order, in the reader's language.

What a player at a real table sees and remembers: the first upcard turned,
then every move in the order it happened, each run of one player's moves on one line: what
they took from the discard pile or bought, the melds they went down with, what they laid off
or swapped, what they discarded, and who went out. It is read from ``PlayerView.history``
(``engine/view.py``), which holds only public moves: a stock draw is not in it at all, and a
buy's penalty cards are not, so nothing hidden can be shown here. A long deal drops its
oldest moves first to fit Discord's 2,000 characters, and says how many it left out.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Language, t
from bot.screens.card_words import card_text, cards_text, meld_text
from engine.view import PlayerView, PublicMove

#: Discord's limit for a message's content.
MESSAGE_LIMIT = 2000


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


def runs(moves: Sequence[PublicMove]) -> list[list[PublicMove]]:
    """``moves`` cut into runs of one seat's consecutive moves (a turn, or a buy between
    turns); the deal's first upcard is a run of its own, whoever turned it."""
    found: list[list[PublicMove]] = []
    for move in moves:
        last = found[-1] if found else None
        if last is None or move.kind == "turned" or last[0].kind == "turned":
            found.append([move])
        elif last[-1].seat == move.seat:
            last.append(move)
        else:
            found.append([move])
    return found


def merged_lay_offs(run: Sequence[PublicMove]) -> list[tuple[PublicMove, tuple[PublicMove, ...]]]:
    """A run's moves, each consecutive string of lay-offs on one meld as one entry: (first
    move, all the moves it stands for), so "laid off 9♥ 🃏 on #1" is said once."""
    merged: list[tuple[PublicMove, tuple[PublicMove, ...]]] = []
    for move in run:
        if merged and move.kind == "laid_off":
            first, group = merged[-1]
            if first.kind == "laid_off" and first.meld == move.meld:
                merged[-1] = (first, (*group, move))
                continue
        merged.append((move, (move,)))
    return merged


def _cards(moves: Sequence[PublicMove]) -> str:
    return cards_text(m.card for m in moves if m.card is not None)


def move_phrase(move: PublicMove, group: Sequence[PublicMove], language: Language) -> str:
    """One move of a History line: ``took 7♥``, ``went down: set 8♥ 8♠ 8♣``, ``laid off 9♥
    on #1``."""
    number = None if move.meld is None else move.meld + 1
    if move.kind == "went_down":
        melds = " | ".join(meld_text(meld, language) for meld in move.melds)
        return t("history.went_down", language, melds=melds)
    if move.kind == "laid_off":
        return t("history.laid_off", language, cards=_cards(group), number=number)
    if move.kind == "swapped":
        wild = "" if move.wild is None else card_text(move.wild)
        return t("history.swapped", language, card=_cards(group), wild=wild, number=number)
    if move.kind == "went_out":
        return t("history.went_out", language)
    return t(f"history.{move.kind}", language, cards=_cards(group))


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
    for run in runs(moves):
        first = run[0]
        if first.kind == "turned":
            lines.append(t("history.turned", language, card=_cards(run)))
            continue
        done = " · ".join(move_phrase(m, g, language) for m, g in merged_lay_offs(run))
        lines.append(f"**{names[first.seat]}**: {done}")
    lines.append(t("history.hidden", language))
    return "\n".join(lines)
