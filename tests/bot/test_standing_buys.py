"""At a relaxed table nobody waits on a buy: each waiting person's standing order answers the
moment a card is offered (buy it when it helps my contract, never, or ask me), without a click;
only those who asked to be asked hold the window, and never longer than the relaxed window."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot import Settings, create_bot
from bot.service.buy_window import upcard_helps
from engine.actions import RequestBuy

from .helpers import button_labels, discard_id, open_hand, open_table, start, text_of

pytestmark = pytest.mark.simcord(settle_timeout=1)


@pytest.fixture
def simcord_bot(settings: Settings) -> Any:
    return create_bot(settings.model_copy(update={"buy_preference": "helps"}))


async def test_standing_orders_answer_at_once(env: Any) -> None:
    bought = 0
    for seed_round in range(4):  # several deals' first upcards: some help someone
        world = await open_table(env, 4, pace="relaxed", turn_hours=12)
        await start(world)
        table = world.table
        game = table.game
        others = [s for s in range(4) if s != game.current]
        asked = set(game.buy_requests)
        wanted = {
            s
            for s in others
            if upcard_helps(game, s)
            and (s in asked or game.is_legal(game.players[s], RequestBuy()))
        }
        assert asked == wanted, seed_round
        bought += len(asked)
        assert not table.window.is_running(game, world.service.clock())  # nobody to ask
        await world.service.end(table.id, world.players[0].id)
    assert bought  # some order bought a card, with no click


async def test_those_who_asked_to_be_asked_hold_the_window_at_most_the_relaxed_window(
    env: Any,
) -> None:
    world = await open_table(env, 3, pace="relaxed", turn_hours=12, buy_wait_minutes=30)
    await start(world)
    table = world.table
    game = table.game
    asker = world.player(int(game.players[(game.current + 2) % 3]))
    hand = await open_hand(world, asker)
    options = await asker.click(hand.response, label="⚙️ Options")
    assert "Your standing buy order" in text_of(options.response)
    chosen = await asker.click(options.response, label="Ask me (the game waits)")
    assert chosen.acknowledged and table.buy_prefs[table.seat_of(asker.id)] == "ask"
    player = world.current()  # draws and throws: a new upcard is offered
    turn = await open_hand(world, player)
    await player.click(turn.response, label="Draw from stock")
    card = game.hand_of(str(player.id))[-1]
    await player.select(turn.response, [str(card)], custom_id=discard_id(turn.response))
    now = world.service.clock()
    assert table.window.is_running(game, now)
    assert table.window.deadline is not None and 29 * 60 < table.window.deadline - now <= 30 * 60
    await env.advance_time(5)
    notices = [
        entry
        for entry in env.http_requests
        if entry.method == "POST"
        and f"<@{asker.id}>, " in repr(entry.json)
        and "is on offer: buy it?" in repr(entry.json)
    ]
    assert len(notices) == 1  # told in the thread, once, since their hand is not open
    hand = await open_hand(world, asker)
    assert any(label.startswith("Buy ") for label in button_labels(hand.response))
    await env.advance_time(31 * 60 - 5)
    assert not table.window.is_running(game, world.service.clock())


async def test_a_standing_order_keeps_to_its_buy_limit(
    env: Any, make_bot: Callable[[], Any]
) -> None:
    from bot.service.buy_window import order_limit, standing_order

    world = await open_table(env, 3, pace="relaxed")
    await start(world)
    table = world.table
    game = table.game
    person = world.player(int(game.players[(game.current + 1) % 3]))
    seat = table.seat_of(person.id)
    hand = await open_hand(world, person)
    options = await person.click(hand.response, label="⚙️ Options")
    limited = await person.click(options.response, label="At most 1 buy a deal")
    assert limited.acknowledged
    stored = await env.bot.store.get_table(table.id)
    assert stored.away[seat].buy_limit == 1
    await env.restart_bot(make_bot())
    table = world.table
    assert order_limit(table, seat) == 1
    table.game.buys_used[seat] = 1  # one card bought this deal already
    assert standing_order(table, seat, "ask", order_limit(table, seat)) == "pass"
    table.game.buys_used[seat] = 0
    assert standing_order(table, seat, "ask", order_limit(table, seat)) == "ask"
