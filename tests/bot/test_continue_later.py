"""Continue later: a live game whose people all ask (``/shanghai pace pace:relaxed``) goes on at
a relaxed pace, its turn counted anew in hours, saved for a restart; and back to live the same
way. A person the computer plays does not hold it up; a spectator cannot ask."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import simcord

from .helpers import open_table, start

pytestmark = pytest.mark.simcord(settle_timeout=1)


async def test_all_the_people_agree_and_the_game_goes_on_relaxed_then_live(
    env: Any, make_bot: Callable[[], Any]
) -> None:
    world = await open_table(env, 3)
    await start(world)
    alice, bob, carol = world.players
    asked = await alice.slash(world.channel, "shanghai pace", pace="relaxed", turn_hours=10)
    simcord.assert_responded(asked, contains="(1 of 3 agree)", ephemeral=False)
    await bob.slash(world.channel, "shanghai pace", pace="relaxed")
    assert "pace" not in world.table.record.options  # not yet: carol has not asked
    done = await carol.slash(world.channel, "shanghai pace", pace="relaxed")
    simcord.assert_responded(done, contains="continues later", ephemeral=False)
    table = world.table
    assert table.record.options["pace"] == "relaxed" and table.record.options["turn_hours"] == 10
    left = table.turn_deadline - world.service.clock()
    assert 9.9 * 3600 < left <= 10 * 3600
    await env.restart_bot(make_bot())
    again = world.table
    assert again.record.options["pace"] == "relaxed"
    assert again.turn_deadline == table.turn_deadline
    refused = await alice.slash(world.channel, "shanghai pace", pace="relaxed")
    simcord.assert_responded(refused, contains="relaxed already", ephemeral=True)
    for person in (alice, bob, carol):
        await person.slash(world.channel, "shanghai pace", pace="live")
    back = world.table
    assert "pace" not in back.record.options
    assert back.turn_deadline - world.service.clock() <= 90


async def test_a_spectator_cannot_ask(env: Any) -> None:
    world = await open_table(env, 2)
    await start(world)
    stranger = world.guild.add_member(env.create_user("zed"))
    refused = await stranger.slash(world.channel, "shanghai pace", pace="relaxed")
    simcord.assert_responded(refused, contains="not playing at this table", ephemeral=True)
    assert "pace" not in world.table.record.options
