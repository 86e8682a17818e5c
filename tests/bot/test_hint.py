"""The Hint button, clicked like a player: its advice in the clicking player's language.

The engine's hint is language-free (a discard reason is a code with numbers); the bot words
it, so a Dutch or a Spanish player reads none of the engine's English. At a discard the card
is the expert computer player's choice (asked directly here with the same budget to compare),
and the plain hint's when the expert fails.
"""

from __future__ import annotations

from typing import Any, get_args

import pytest
import simcord

from bot.i18n import Language, t
from bot.screens.hint_text import reason_text
from bot.service.hints import expert_discard, plain_hint
from engine.cards import parse_cards
from engine.players.expert import ExpertStrategy
from engine.players.hints import DiscardReason, ReasonCode

from .discord_locales import speaking
from .helpers import open_hand, open_table, start, text_of

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
    content: str = text_of(opened.response)
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


# -- the expert's discard ----------------------------------------------------------------------

#: A hand (12 cards, after the draw) where the expert throws another card than the plain hint.
EXPERT_DISAGREES = "2D JC 3D KH 2C QD 7C AD 10S 8D 4C 2H"


async def hint_after_drawing(
    env: simcord.Env, hand: str, lead_in_deal_10: int | None = None
) -> tuple[str, Any, Any]:
    """The current player draws, holds ``hand``, clicks Hint: (hand text, game, player).
    ``lead_in_deal_10``: the game is first moved to its last deal with the player that far
    ahead of the other."""
    world = await open_table(env, 2)
    await start(world)
    player = world.current()
    game = world.table.game
    opened = await open_hand(world, player)
    assert (await player.click(opened.response, label="Draw from stock")).acknowledged
    assert game.step == "play"
    game.hands[game.current] = parse_cards(hand)
    if lead_in_deal_10 is not None:
        game.deal = 10
        row = [100 + lead_in_deal_10] * 2
        row[game.current] = 100
        game.score_sheet = [row] + [[0, 0]] * 8
    hinted = await player.click(opened.response, label="Hint")
    assert hinted.acknowledged
    return text_of(opened.response), game, player


async def test_hint_at_a_discard_gives_the_experts_card(env: Any) -> None:
    content, game, player = await hint_after_drawing(env, EXPERT_DISAGREES)
    view, legal = game.view(str(player.id)), game.legal_actions(str(player.id))
    expert = expert_discard(view, legal, None)
    plain = plain_hint(view).discard
    assert expert is not None and plain is not None and expert != plain  # the test's premise
    wording = "it is what the expert computer player would discard"
    assert f"Discard {expert.pretty()}: {wording}." in content
    assert f"Discard {plain.pretty()}" not in content


#: Deal 10 (three runs of 5), after the draw: two runs of four begun, a joker, an ace.
GUARDING = "3H 4H 5H 6H 8C 9C 10C JC KS QD AD JK"


async def test_a_hint_for_a_player_far_ahead_in_the_last_deal_says_to_keep_points_low(
    env: Any,
) -> None:
    """70 points ahead in deal 10, the expert only sheds points: the hint throws the joker
    (50 points if caught; the plain hint keeps wilds) and says why, in the player's words."""
    content, game, player = await hint_after_drawing(env, GUARDING, lead_in_deal_10=70)
    view = game.view(str(player.id))
    assert plain_hint(view).discard != parse_cards("JK")[0]  # the test's premise
    wording = "you lead by 70 points this late in the game: keep the points in your hand low"
    assert f"Discard {parse_cards('JK')[0].pretty()}: {wording}." in content
    content, _, _ = await hint_after_drawing(env, GUARDING, lead_in_deal_10=40)
    assert "you lead by" not in content


async def test_hint_falls_back_to_the_plain_discard_when_the_expert_fails(
    env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("search failed")

    monkeypatch.setattr(ExpertStrategy, "choose", broken)
    content, game, player = await hint_after_drawing(env, EXPERT_DISAGREES)
    plain = plain_hint(game.view(str(player.id)))
    assert plain.discard is not None
    assert f"Discard {plain.discard.pretty()}: {reason_text(plain.reason, 'en')}." in content
    assert "expert" not in content


async def test_hint_before_the_draw_does_not_ask_the_expert(
    env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[object] = []
    monkeypatch.setattr(ExpertStrategy, "choose", lambda *args: asked.append(args))
    content = await hint_in(env, monkeypatch, "en-US", BUILDING)
    assert asked == [] and "Discard 2♣: it is no part of any meld" in content


# -- the wording, directly ---------------------------------------------------------------------


@pytest.mark.parametrize("code", get_args(ReasonCode))
def test_every_reason_code_has_its_wording(code: str) -> None:
    from bot.i18n.catalogue import has_key

    assert all(has_key(f"hint.reason.{code}", lang) for lang in ("en", "nl", "es"))


@pytest.mark.parametrize("language", ["nl", "es"])
def test_a_rummy_hint_has_no_english_either(language: Language) -> None:
    from bot.screens.hint_text import hint_text
    from engine import Rules
    from engine.players.hints import hint

    rummy = Rules.preset("rummy")
    for hand in ("5H 6H 7H KS KD KC QC 9D 10D", "2C 5D 9S JH KC 4H", "AH 2H 3H 4S 4D 9C"):
        text = hint_text(hint(parse_cards(hand), 1, rummy), rummy, language)
        assert text, hand
        english = [word for word in ENGLISH_WORDS if word and word in text]
        assert english == [], f"English in the {language} Rummy hint: {english}\n{text}"


async def test_when_the_expert_agrees_the_plain_reason_stays_and_says_so(env: Any) -> None:
    content, game, player = await hint_after_drawing(env, BUILDING)
    view, legal = game.view(str(player.id)), game.legal_actions(str(player.id))
    plain = plain_hint(view)
    assert plain.discard is not None and expert_discard(view, legal, None) == plain.discard
    reason = reason_text(plain.reason, "en")
    agrees = "and the expert computer player would throw it too"
    assert f"Discard {plain.discard.pretty()}: {reason}, {agrees}." in content


async def test_once_down_the_hint_advises_lay_offs_and_a_discard_not_the_contract(
    env: simcord.Env,
) -> None:
    """Issue 23.4: a down player's Hint no longer says what the contract still needs; it
    names what to lay off now, then the card to throw."""
    from engine import Meld, TableMeld

    world = await open_table(env, 3)
    await start(world)
    p = world.current()
    game = world.table.game
    seat = game.current
    game.step = "play"
    game.down[seat] = True
    game.hands[seat] = parse_cards("7H KS 2C")
    game.melds = [
        TableMeld(seat, Meld.parse("set: 7S 7D 7C")),
        TableMeld(seat, Meld.parse("set: 9S 9D 9C")),
    ]
    hand = await open_hand(world, p)
    await p.click(hand.response, label="Hint")
    content = text_of(hand.response)
    assert "Lay off first: 7♥ on #1" in content
    assert "more card" not in content and "K♠" in content  # the dearest card that fits nowhere
