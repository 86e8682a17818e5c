"""The Hint button, clicked like a player: its advice in the clicking player's language.

The engine's hint is language-free (a discard reason is a code with numbers); the bot words
it, so a Dutch or a Spanish player reads none of the engine's English.
"""

from __future__ import annotations

from typing import Any, get_args

import pytest
import simcord

from bot.i18n import Language, t
from engine.cards import parse_cards
from engine.players.hints import DiscardReason, ReasonCode

from .discord_locales import speaking
from .helpers import open_hand, open_table, start

#: What the engine's own English rendering of a hint says (``str(Hint)``): none of it may
#: reach a Dutch or Spanish player.
ENGLISH_WORDS = [
    "Discard",
    "Lay down now",
    "after laying down",
    "card(s)",
    "more card",
    "You hold",
    "or a joker",
    "points",
    *(str(DiscardReason(code, {"points": 0})).split(" 0")[0] for code in get_args(ReasonCode)),
]

#: Deal 1 (two sets of 3): a hand still building, and one that lays down with cards to spare.
BUILDING = "8H 8S 9H 9S JK KD 3C 4D 6H QH 2C 5S"
LAYS_DOWN = "8H 8S 8C 9H 9S 9C KD 3C"


async def hint_in(env: simcord.Env, monkeypatch: pytest.MonkeyPatch, locale: str, hand: str) -> str:
    """The hand message's text after the player in turn, speaking ``locale``, clicks Hint."""
    world = await open_table(env, 2)
    await start(world)
    player = world.current()
    game = world.table.game
    game.hands[game.current] = parse_cards(hand)
    speaking(monkeypatch, {player.id: locale})
    opened = await open_hand(world, player)
    language: Language = "nl" if locale == "nl" else "es" if locale.startswith("es") else "en"
    hinted = await player.click(opened.response, label=t("button.hint", language))
    assert hinted.acknowledged
    content: str = opened.response.content
    assert t("hand.hint", language) in content
    return content


@pytest.mark.parametrize("locale", ["nl", "es-ES"])
@pytest.mark.parametrize("hand", [BUILDING, LAYS_DOWN])
async def test_a_dutch_or_spanish_hint_has_no_english_reason(
    env: Any, monkeypatch: pytest.MonkeyPatch, locale: str, hand: str
) -> None:
    content = await hint_in(env, monkeypatch, locale, hand)
    note = content.split(t("hand.hint", "nl" if locale == "nl" else "es"))[1]
    english = [word for word in ENGLISH_WORDS if word and word in note]
    assert english == [], f"English in the {locale} hint: {english}\n{note}"


async def test_dutch_hint_words_the_reason_and_the_lay_down(
    env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    content = await hint_in(env, monkeypatch, "nl", LAYS_DOWN)
    assert "Nu uitleggen: set 8♣ 8♥ 8♠ | set 9♣ 9♥ 9♠" in content
    reason = t("hint.reason.cannot_lay_off", "nl", count=10)
    assert f"Leg na het uitleggen K♦ af: {reason}." in content
    assert reason == "je kunt hem nergens aanleggen en hij kost 10 punten"


async def test_spanish_hint_names_the_cards_still_needed_and_why_to_discard(
    env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    content = await hint_in(env, monkeypatch, "es-ES", BUILDING)
    assert "Te falta 1 carta para 2 grupos de 3:" in content
    assert "o un comodín" in content
    assert "Descarta 2♣: " in content


async def test_english_hint_reads_as_before(env: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    content = await hint_in(env, monkeypatch, "en-US", LAYS_DOWN)
    assert "After laying down, discard K♦: it cannot be laid off and costs 10 points." in content
