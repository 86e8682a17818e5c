"""The table's story for the top of a player's hand: what the others did since your last turn.

At a real table you see who threw the card now on top, who took it or bought it, who went
down; in a private hand you would have to scroll the channel for it. This is one
or two lines, read from the view's public history alone (``PlayerView.history``: no stock
draw, no penalty card, so nothing hidden), counting from the player's own last discard of
this deal (from the deal's start before their first), leaving out their own moves, which
they know. When the others did more than fits, the oldest of it is left out first.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Language, t
from bot.screens.card_words import card_text, cards_text
from bot.screens.history_text import merged_lay_offs, runs
from engine.view import PlayerView, PublicMove

#: About two lines of a phone's hand message.
STORY_LIMIT = 200


def table_story(
    view: PlayerView, names: Sequence[str], language: Language, limit: int = STORY_LIMIT
) -> str | None:
    """What the others did since ``view``'s player last discarded, in one or two lines of
    at most ``limit`` characters; None for a spectator, when nobody else did anything, or
    when a deal has only turned its first upcard."""
    seat = view.seat
    if seat is None:
        return None
    moves = view.history
    start = 0
    for index in range(len(moves) - 1, -1, -1):
        if moves[index].seat == seat and moves[index].kind == "discarded":
            start = index + 1
            break
    key = "story.since" if start else "story.this_deal"
    told = [
        _run_text(run, names, language)
        for run in runs(moves[start:])
        if run[0].kind == "turned" or run[0].seat != seat
    ]
    only_turned = len(told) == 1 and start == 0 and moves[0].kind == "turned"
    if not told or only_turned:
        return None  # nothing yet, or only the first upcard, which the table shows anyway
    for skipped in range(len(told)):  # the newest moves matter most: drop the oldest first
        shown = told[skipped:]
        text = " · ".join(shown if not skipped else ["…", *shown])
        line = t(key, language, moves=text)
        if len(line) <= limit or len(shown) == 1:
            return line[:limit]
    raise AssertionError("unreachable: the newest run is always told")


def _run_text(run: Sequence[PublicMove], names: Sequence[str], language: Language) -> str:
    first = run[0]
    if first.kind == "turned":
        return t("story.turned", language, card=_cards(run))
    phrases = [_phrase(m, g, language) for m, g in merged_lay_offs(run)]
    return t("story.run", language, name=names[first.seat], moves=", ".join(phrases))


def _cards(moves: Sequence[PublicMove]) -> str:
    return cards_text(m.card for m in moves if m.card is not None)


def _phrase(move: PublicMove, group: Sequence[PublicMove], language: Language) -> str:
    """A move in few words: the table's picture shows the melds, so a lay-down is just said."""
    if move.kind == "swapped":
        wild = "" if move.wild is None else card_text(move.wild)
        return t("story.swapped", language, card=_cards(group), wild=wild)
    if move.kind in ("went_down", "went_out"):
        return t(f"story.{move.kind}", language)
    return t(f"story.{move.kind}", language, cards=_cards(group))


#: A few lines: a relaxed table's player comes back after hours, so more of it is told.
RELAXED_STORY_LIMIT = 480


def relaxed_story(view: PlayerView, names: Sequence[str], language: Language) -> str | None:
    """What happened since the player's last turn at a relaxed table, in a few lines: the
    last deal's end when a new deal began since (who went out, what the player scored),
    then the others' moves (``table_story``, with room for more of them)."""
    story = table_story(view, names, language, limit=RELAXED_STORY_LIMIT)
    seat = view.seat
    if seat is None or view.deal <= 1 or not view.score_sheet:
        return story
    mine = any(m.seat == seat and m.kind == "discarded" for m in view.history)
    if mine:  # the player has played in this deal: the last deal's end is old news
        return story
    last = view.score_sheet[-1]
    winners = [names[s] for s, points in enumerate(last) if points == 0]
    ended = t(
        "story.deal_ended",
        language,
        deal=view.deal - 1,
        winner=", ".join(winners) or "—",
        points=last[seat],
    )
    return ended if story is None else f"{ended}\n{story}"
