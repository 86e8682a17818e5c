"""The expert's notes in a player's words: one line a note, grouped by deal.

``engine.players.review`` writes a note as language-free parts: the action texts of what the
player did and what the expert would have done, and a ``NoteReason`` code with numbers and
card codes. Here each part gets the reader's words: an action by its verb (``notes.did.*``
and ``notes.would.*``), a reason by its code (``notes.reason.<code>``), a card code as the
screens print it (``7♥``). Nothing is added to what the note says, so a line can name only
the cards the reviewer read from the player's own view.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Language, t
from bot.screens.card_words import card_text
from engine.actions import (
    Action,
    BuyInTurn,
    Discard,
    DrawStock,
    GoDown,
    LayOff,
    TakeUpcard,
    parse_action,
)
from engine.cards import Card
from engine.errors import Param
from engine.players.review import Note, NoteReason

#: The reason params that hold a card code, worded as the screens print a card.
CARD_PARAMS = frozenset({"card", "thrown"})
#: The reason param that counts cards, by reason code: it picks the message's plural form
#: ("1 card", "2 cards").
COUNTED = {
    "go_down_now": "cards",
    "hold_for_out_in_one": "cards",
    "buy_needed": "short",
    "buy_close": "left",
    "buy_no_help": "penalty",
    "buy_too_costly": "penalty",
    "upcard_shortens": "gain",
    "threw_needed": "needs",
}
#: Discord's limits: an embed field's value, and the whole embed's text.
FIELD_LIMIT = 1024
EMBED_LIMIT = 6000


def reason_text(reason: NoteReason, language: Language) -> str:
    """The reason in one plain line of the reader's language."""
    params: dict[str, Param] = {
        key: _card(value) if key in CARD_PARAMS else value for key, value in reason.params.items()
    }
    counted = COUNTED.get(reason.code)
    if counted is not None and isinstance(params.get(counted), int):
        params["count"] = params[counted]
    return t(f"notes.reason.{reason.code}", language, **params)


def action_words(text: str, language: Language, *, done: bool) -> str:
    """A note's action text (``discard 7H``, ``take``, ``buy``, ``pass``) as a verb phrase:
    what the player did (``done``) or what the expert would do."""
    tense = "did" if done else "would"
    if text in ("buy", "pass"):  # a buy window: asked to buy the upcard, or let it go
        return t(f"notes.{tense}.{text}", language)
    try:
        action = parse_action(text)
    except ValueError:
        return t(f"notes.{tense}.other", language)
    verb, params = _verb(action)
    return t(f"notes.{tense}.{verb}", language, **params)


def _verb(action: Action) -> tuple[str, dict[str, Param]]:
    if isinstance(action, DrawStock):
        return "draw", {}
    if isinstance(action, TakeUpcard):
        return "take", {}
    if isinstance(action, BuyInTurn):
        return "buy_in_turn", {}
    if isinstance(action, GoDown):
        return "down", {}
    if isinstance(action, LayOff):
        return "layoff", {"cards": " ".join(card_text(item.card) for item in action.items)}
    if isinstance(action, Discard):
        return "discard", {"card": card_text(action.card)}
    return "other", {}


def _card(value: Param) -> Param:
    try:
        return card_text(Card.parse(str(value)))
    except ValueError:
        return value


def note_line(note: Note, language: Language) -> str:
    """One note: the step it was decided at, what was done, the expert's choice, and why."""
    return t(
        "notes.line",
        language,
        step=note.step,
        did=action_words(note.played, language, done=True),
        would=action_words(note.expert, language, done=False),
        reason=reason_text(note.reason, language),
    )


def notes_fields(notes: Sequence[Note], language: Language) -> list[tuple[str, str]]:
    """(deal heading, its lines) for each deal with notes, in game order, held within
    Discord's limits (a field's 1,024 characters, the embed's 6,000 with room for its title):
    at most three notes a deal keep them well inside."""
    by_deal: dict[int, list[str]] = {}
    for note in notes:
        by_deal.setdefault(note.deal, []).append("• " + note_line(note, language))
    fields: list[tuple[str, str]] = []
    room = EMBED_LIMIT - 500
    for deal, lines in by_deal.items():
        name = t("notes.deal", language, deal=deal)
        value = "\n".join(lines)[:FIELD_LIMIT]
        room -= len(name) + len(value)
        if room < 0:
            break
        fields.append((name, value))
    return fields
