"""Ids too large (or zero) in a forged custom_id: one polite private refusal, nothing logged.

Discord ids and the stores' row ids fit a signed 64-bit integer; a custom_id holding
``9999999999999999999`` used to reach a store, which raised OverflowError, logged as a bug.
Every parser reads its ids through ``bot.interactions.ids.parse_id``.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
import pytest
import simcord
from simcord.actors import _dispatch_actor_interaction
from simcord.backend import serializers
from simcord.builders import ChannelHandle
from simcord.enums import InteractionType

from bot.interactions.ids import LIMIT, NO_ID, parse_id

from .helpers import open_hand, open_table, start
from .test_forged_controls import forge

HUGE = "9999999999999999999"  # 19 digits, past 2**63 - 1


async def forge_select(actor: Any, message: Any, custom_id: str, value: str) -> Any:
    """``actor`` picks ``value`` in a select with ``custom_id`` added to ``message``."""
    stored = actor._message(message)
    backend = actor._env.backend
    payload = dict(serializers.message_payload(backend, stored))
    select = {"type": 3, "custom_id": custom_id, "options": [{"label": value, "value": value}]}
    payload["components"] = [*payload.get("components", []), {"type": 1, "components": [select]}]
    channel = ChannelHandle(actor._env, actor.guild, backend.get_channel(stored.channel_id))
    return await _dispatch_actor_interaction(
        actor,
        InteractionType.MESSAGE_COMPONENT,
        channel,
        {"component_type": 3, "custom_id": custom_id, "values": [value]},
        extra={"message": payload},
        source_message_id=stored.id,
    )


def test_parse_id_keeps_what_fits_and_turns_the_rest_into_no_id() -> None:
    assert parse_id("1") == 1
    assert parse_id(str(LIMIT - 1)) == LIMIT - 1
    for text in (str(LIMIT), HUGE, "0", "", "12a", "-3", "9" * 40):
        assert parse_id(text) == NO_ID, text


@pytest.mark.parametrize(
    "custom_id",
    [
        f"sh:again:{HUGE}",
        f"sh:join:{HUGE}",
        f"sh:hand:{HUGE}",
        f"sh:buy:{HUGE}:1.1.1.1",
        f"sh:h:{HUGE}:deadbeef:s:draw",
        f"sh:end:{HUGE}:{{user}}:yes",
        f"sh:end:1:{HUGE}:yes",
        f"sh:unboard:{HUGE}:{{user}}:yes",
        f"sh:unboard:{{user}}:{HUGE}:yes",
    ],
)
async def test_a_forged_huge_id_is_refused_politely_and_logged_as_nothing(
    env: simcord.Env, custom_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    world = await open_table(env, 2)
    await start(world)
    alice = world.players[0]  # the host, who may manage the server in the test world
    hand = await open_hand(world, alice)  # a private message of hers to carry the id
    with caplog.at_level(logging.WARNING):
        result = await forge(alice, hand.response, custom_id.format(user=alice.id))
    simcord.assert_responded(result, ephemeral=True)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert world.table is not None and not world.table.closed


async def test_a_forged_huge_table_in_a_select_is_refused_politely(
    env: simcord.Env, caplog: pytest.LogCaptureFixture
) -> None:
    world = await open_table(env, 2)
    alice = world.players[0]
    with caplog.at_level(logging.WARNING):
        house = await forge_select(alice, world.message(), f"sh:hr:{HUGE}:preset", "classic")
        hand = await forge_select(alice, world.message(), f"sh:hs:{HUGE}:deadbeef:s:discard", "AS")
    for result in (house, hand):
        simcord.assert_responded(result, ephemeral=True)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


async def test_a_forged_huge_member_to_remove_is_refused_before_the_store(
    env: simcord.Env, caplog: pytest.LogCaptureFixture
) -> None:
    world = await open_table(env, 2)
    admins = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = world.guild.add_member(env.create_user("admin"), roles=[admins])
    with caplog.at_level(logging.WARNING):
        result = await forge(admin, world.message(), f"sh:unboard:{HUGE}:{admin.id}:yes")
    simcord.assert_responded(result, ephemeral=True)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
