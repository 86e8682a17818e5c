"""The people who wait are asked about a buy only when it matters to them.

With the default preference (``helps``), a person is asked (Buy / Pass in their hand) only
when buying the upcard is worth it by the expert's judgement (the one the notes use), and the
question says why; everyone else is decided for at once, and with
nobody left to ask the window closes there and then, so P's draw is never held for nothing.
A person may choose to be asked about every buy or never, in their hand's Options (the table
message carries no Buy: a person who wants every chance to buy chooses to be asked)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import simcord

from bot import Settings, create_bot
from bot.service.buy_window import upcard_helps
from engine.actions import RequestBuy

from .helpers import World, button_labels, custom_ids, open_hand, open_table, start, text_of


@pytest.fixture
def simcord_bot(settings: Settings) -> Any:
    return create_bot(settings.model_copy(update={"buy_preference": "helps"}))


def offered(world: World, hands: dict[int, Any], user_id: int) -> bool:
    return any(label.startswith("Buy ") for label in button_labels(hands[user_id].response))


async def take_a_turn(world: World, hands: dict[int, Any], env: simcord.Env) -> None:
    """The in-turn person draws and throws their last card, as people click."""
    p = world.current()
    hand = hands[p.id]
    await p.click(hand.response, label="Draw from stock")
    await env.advance_time(9)  # if someone is asked, the draw waits for the window
    card = world.table.game.hand_of(str(p.id))[-1]
    cid = next(cid for cid in custom_ids(hand.response) if ":discard" in cid)
    assert (await p.select(hand.response, [str(card)], custom_id=cid)).acknowledged


async def test_only_those_the_upcard_helps_are_asked(env: simcord.Env) -> None:
    world = await open_table(env, 4)
    await start(world)
    await env.advance_time(9)
    hands = {p.id: await open_hand(world, p) for p in world.players}
    asked_turns = closed_at_once = 0
    for _ in range(14):
        await take_a_turn(world, hands, env)
        table = world.table
        game = table.game
        if game.deal != 1:
            break
        anyone = False
        for seat, player in enumerate(game.players):
            if seat == game.current:
                continue
            may_buy = game.is_legal(player, RequestBuy())
            should = may_buy and upcard_helps(game, seat)
            assert offered(world, hands, int(player)) == should, (seat, should)
            if should:  # the question says why, in a few words, with the hand's size after it
                why = text_of(hands[int(player)].response)
                after = len(game.hands[seat]) + 1 + game.rules.buy_penalty_cards
                assert "💡 Buy " in why and f"you would hold {after} cards" in why, why
            anyone = anyone or should
        running = table.window.is_running(game, world.service.clock())
        assert running == anyone  # nobody to ask: the window closed with the discard
        asked_turns += anyone
        closed_at_once += not anyone
        if anyone:  # those asked pass, at a person's pace
            for seat, player in enumerate(game.players):
                if seat != game.current and offered(world, hands, int(player)):
                    member = world.player(int(player))
                    await member.click(hands[member.id].response, label="Pass")
    assert asked_turns and closed_at_once  # both paths were played


async def test_never_is_never_asked_and_survives_a_restart(
    env: simcord.Env, make_bot: Callable[[], Any], settings: Settings
) -> None:
    world = await open_table(env, 3)
    await start(world)
    p = world.players[1]
    hand = await open_hand(world, p)
    await p.click(hand.response, label="⚙️ Options")
    await p.click(hand.response, label="Never ask me")
    seat = world.table.seat_of(p.id)
    assert world.table.buy_prefs[seat] == "never"
    assert "Never ask me" in button_labels(hand.response)
    await env.restart_bot(create_bot(settings.model_copy(update={"buy_preference": "helps"})))
    assert world.table.buy_prefs[seat] == "never"
    hands = {q.id: await open_hand(world, q) for q in world.players}
    for _ in range(6):
        await take_a_turn(world, hands, env)
        assert not offered(world, hands, p.id)


def test_the_default_asks_what_the_notes_would_buy() -> None:
    """Over whole games, every buy the default asks about is one the expert's notes agree
    with afterwards, and it asks fewer questions than the former rule (any upcard that
    brings the contract closer), whose Yes the notes often disagree with."""
    from tools.buy_questions import run

    worth = run(3, 4, 7, "standard", "worth")
    closer = run(3, 4, 7, "standard", "closer")
    assert worth.judged and worth.agreed == worth.judged
    assert worth.questions < closer.questions and closer.agreed < closer.judged
