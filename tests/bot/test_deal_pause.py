"""A breath between deals: the recap stands alone for the table's ``deal_pause`` (5 s), the
host may skip it with Next deal now, and then the next deal starts with its own line; each
open hand says its cards were dealt. The turn's limit starts after the pause."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from bot.service import timers
from engine.cards import Card, parse_cards

from .helpers import (
    World,
    button_labels,
    discard_id,
    heading_of,
    open_hand,
    open_table,
    start,
    text_of,
)
from .test_languages import flush_outboxes


async def two_deal_table(env: Any) -> World:
    """A started table of three people playing 2 deal(s)."""
    world = await open_table(env, 3, deals=2)
    await start(world)
    return world


async def end_deal_one(world: World, env: Any) -> tuple[Any, dict[int, Any]]:
    """Everyone opens their hand; the player to move goes out with the card drawn."""
    game = world.table.game
    player = world.current()
    game.hands[game.current] = parse_cards("8H 8S 8C 5H 5S 5C")
    game.stock[-1] = Card.parse("KD")
    hands = {p.id: await open_hand(world, p) for p in world.players}
    hand = hands[player.id]
    assert (await player.click(hand.response, label="Draw from stock")).acknowledged
    await env.advance_time(8)
    assert (await player.click(hand.response, label="Lay down these melds")).acknowledged
    picked = await player.select(hand.response, ["KD"], custom_id=discard_id(hand.response))
    assert picked.acknowledged and game.deal == 2
    return player, hands


async def test_the_recap_stands_alone_then_the_next_deal_is_announced(env: Any) -> None:
    world = await two_deal_table(env)
    _, hands = await end_deal_one(world, env)
    table = world.table
    # The turn's limit starts after the pause.
    assert table.turn_deadline - world.service.clock() >= 90 + 5 - 0.5
    for player in world.players:
        text = text_of(hands[player.id].response)
        assert "Deal 1: you scored" in text
        assert "Your turn" not in text and "You got" not in text
        assert "next deal starts" in text
    assert "deal 2" not in heading_of(world.message())
    await env.advance_time(6)
    await flush_outboxes(env)
    assert "Deal 2" in heading_of(world.message())
    notices = "\n".join(text_of(m) for m in world.channel.history())
    assert "**Deal 2 of 2:** 1 set of 3 + 1 run of 4" in notices
    for player in world.players:
        text = text_of(hands[player.id].response)
        assert "Deal 2: you were dealt" in text and "You got" not in text


async def test_the_host_may_skip_the_pause(env: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(timers, "DEAL_PAUSE_SECONDS", 600.0)  # long past the outbox's flush
    world = await two_deal_table(env)
    await end_deal_one(world, env)
    await flush_outboxes(env)
    sheet = next(m for m in world.channel.history() if "Score sheet after deal 1" in text_of(m))
    assert "Next deal now" in button_labels(sheet)
    refused = await world.players[1].click(sheet, label="Next deal now")
    simcord.assert_responded(refused, contains="Only the host", ephemeral=True)
    skipped = await world.players[0].click(sheet, label="Next deal now")
    assert skipped.acknowledged
    await flush_outboxes(env)
    assert "Deal 2" in heading_of(world.message())
    assert world.table.pause_until is None


async def test_a_table_restored_mid_pause_resumes_with_the_pause_in_its_deadlines(
    env: Any, make_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(timers, "DEAL_PAUSE_SECONDS", 60.0)
    world = await two_deal_table(env)
    await end_deal_one(world, env)
    paused = world.table
    assert paused.pause_until is not None
    deadline = paused.turn_deadline
    assert deadline - world.service.clock() >= 90 + 60 - 1  # stored with the pause in it
    await env.restart_bot(make_bot())
    restored = world.table
    assert restored.game.deal == 2 and restored.pause_until is None
    assert restored.turn_deadline == pytest.approx(deadline)
    await flush_outboxes(env)
    assert "Deal 2" in heading_of(world.message())  # the next deal is on the table


def test_a_table_of_computers_only_does_not_pause() -> None:
    from bot.service.live import LiveTable
    from data.records import Seat, TableRecord

    def table(*computers: bool) -> LiveTable:
        seats = tuple(Seat(n, f"p{n}", c, "normal" if c else None) for n, c in enumerate(computers))
        record = TableRecord(
            1, 1, 1, "shanghai", "playing", 0, None, seats, {}, None, 0, None, None, (), 0.0, 0.0
        )
        return LiveTable(record, None, 0)

    assert timers.deal_pause(table(False, True)) == 5.0
    assert timers.deal_pause(table(True, True)) == 0.0
