"""``SHANGHAI_SPECTATOR_SECONDS``: how soon spectators see a turn on a table message that rides
on people's clicks while every person follows their hand. The operator trades the channel's
calls a turn for a fresher table (``docs/admin.md``); the table is drawn at that pace, counted
from its last redraw, whatever the pace."""

from __future__ import annotations

import re

import pytest
import simcord

from bot import Settings

from .helpers import World, container_text, controls, discard_id, open_hand
from .helpers import open_table as open_world
from .helpers import start as start_game
from .test_courier import is_webhook, play_turn, table_message

#: A few seconds to settle: each turn draws the table picture, slow on a loaded machine.
pytestmark = pytest.mark.simcord(settle_timeout=3)


@pytest.fixture
def settings(settings: Settings, request: pytest.FixtureRequest) -> Settings:
    """The tests' settings with the spectators' pace of the test's parameter."""
    return settings.model_copy(update={"spectator_seconds": request.param})


def turn_of(world: World) -> str:
    found = re.search(r"Turn: \*\*(.+?)\*\*", container_text(table_message(world)))
    assert found is not None
    return found.group(1)


async def draw_and_discard(world: World, hand: simcord.InteractionResult) -> None:
    """The player to move draws from the stock and throws the last card their hand offers."""
    player = world.current()
    assert (await player.click(hand.response, label="Draw from stock")).acknowledged
    select = discard_id(hand.response)
    [discard] = [c for c in controls(hand.response) if c.get("custom_id") == select]
    card = discard["options"][-1]["value"]
    assert (await player.select(hand.response, [card], custom_id=select)).acknowledged


@pytest.mark.parametrize("settings", [4.5, 20.0], indirect=True)
async def test_spectators_see_a_turn_at_the_operators_pace(
    env: simcord.Env, settings: Settings
) -> None:
    """Two turns back to back: the first is drawn at once (nothing was drawn for a while), the
    second waits for the pace from that redraw. At 4.5 s it shows within 5 s; at 20 s it
    does not show within 15 s, then shows by 20 s, through the same click's webhook."""
    env.bot.publisher.interval = 1.5  # paced as a live bot is (the tests' bot is not)
    pace = settings.spectator_seconds
    assert pace is not None and env.bot.publisher.carried_interval == pace
    world = await open_world(env, 2)
    await start_game(world)
    await env.advance_time(9)
    await play_turn(world)  # the table message moves onto this click
    hands = {p.id: await open_hand(world, p) for p in world.players}  # everyone follows
    await env.advance_time(30)  # long after the last redraw
    first = world.current()
    await draw_and_discard(world, hands[first.id])
    await env.advance_time(0.5)
    second = world.current()
    assert turn_of(world) == second.name  # drawn at once
    carried = table_message(world).id
    since = len(env.http_requests)
    await draw_and_discard(world, hands[second.id])
    await env.advance_time(5)
    if pace < 5:
        assert turn_of(world) == first.name
        return
    assert turn_of(world) == second.name  # still waiting out the pace
    await env.advance_time(10)
    assert turn_of(world) == second.name
    await env.advance_time(5)
    assert turn_of(world) == first.name
    edits = [r for r in env.http_requests[since:] if r.path.endswith(f"/messages/{carried}")]
    assert edits and all(is_webhook(r.path) and r.method == "PATCH" for r in edits)
