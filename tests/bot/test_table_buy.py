"""The table message carries no Buy / Pass: a channel message's buttons show to everyone,
spectators too, who could only be refused. The buy window is told in the table's text, and
a seated person buys from their hand, which **My hand** opens with Buy / Pass on it while
the window is open for them."""

from __future__ import annotations

import simcord

from .helpers import button_labels, custom_ids, old_table_click, open_table, start, text_of


def _window_controls(message: object) -> list[str]:
    """The Buy / Pass controls on ``message``, by label or by id."""
    labels = [x for x in button_labels(message) if x.startswith("Buy ") or x == "Pass"]
    ids = [x for x in custom_ids(message) if x.startswith(("sh:buy:", "sh:pass:"))]
    return labels + ids


async def test_a_spectator_sees_no_buy_and_a_seated_player_buys_from_my_hand(
    env: simcord.Env,
) -> None:
    world = await open_table(env, 3)
    await start(world)
    game = world.table.game
    assert world.table.window.is_running(game, world.service.clock())
    upcard = game.view(None).upcard
    spectator = world.guild.add_member(env.create_user("mallory"))

    # The spectator reads the table message while the window runs: no control of the buy,
    # only its words (the card and a countdown Discord draws).
    seen = next(m for m in world.channel.history(viewer=spectator) if m.id == world.message().id)
    assert _window_controls(seen) == []
    text = text_of(seen)
    assert f"Upcard: **{upcard.pretty()}** (buy in **My hand**; closes <t:" in text
    assert "My hand" in text

    # A seated player who never opened their hand opens My hand and finds Buy / Pass there.
    buyer = world.player(int(game.players[(game.current + 1) % 3]))
    hand = await buyer.click(world.message(), label="My hand")
    assert hand.acknowledged and hand.ephemeral
    buy = f"Buy {upcard.pretty()}"
    assert buy in button_labels(hand.response) and "Pass" in button_labels(hand.response)
    assert (await buyer.click(hand.response, label=buy)).acknowledged
    assert game.seat_of(str(buyer.id)) in game.buy_requests
    assert "Buy request for" in text_of(hand.response)


async def test_an_old_table_pass_still_passes_and_a_spectators_changes_nothing(
    env: simcord.Env,
) -> None:
    """A table message posted before the upgrade still carries Pass: a seated player's click
    decides for them, privately; a spectator's is refused and decides nothing."""
    world = await open_table(env, 3)
    await start(world)
    game = world.table.game
    passer = world.player(int(game.players[(game.current + 1) % 3]))
    spectator = world.guild.add_member(env.create_user("mallory"))
    refused = await old_table_click(world, spectator, "pass")
    simcord.assert_responded(refused, contains="not playing", ephemeral=True)
    decided = set(world.table.window.decided)
    passed = await old_table_click(world, passer, "pass")
    simcord.assert_responded(passed, contains="You pass", ephemeral=True)
    assert set(world.table.window.decided) == decided | {game.seat_of(str(passer.id))}
    assert game.buy_requests == []
