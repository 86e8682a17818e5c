"""Controls whose custom_id was forged (issue 16.7).

Discord only delivers custom_ids the bot itself put on a message today, but a bot must not
rely on that: a modified client, or a future Discord change, can send any id. These tests send
ids by hand through simcord's component dispatch (the one place they bypass what a person can
see, because that is the attack), and check that the bot re-checks who clicked and where.
"""

from __future__ import annotations

from typing import Any

import simcord
from simcord.actors import _dispatch_actor_interaction
from simcord.backend import serializers
from simcord.builders import ChannelHandle
from simcord.enums import InteractionType

from .helpers import World, custom_ids, open_hand, open_table, start


async def forge(actor: Any, message: Any, custom_id: str) -> simcord.InteractionResult:
    """``actor`` clicks a button with ``custom_id`` on ``message``, as a modified client would:
    the interaction carries the message with that button added to it."""
    stored = actor._message(message)
    backend = actor._env.backend
    payload = dict(serializers.message_payload(backend, stored))
    button = {"type": 2, "style": 2, "label": "forged", "custom_id": custom_id}
    payload["components"] = [*payload.get("components", []), {"type": 1, "components": [button]}]
    channel = ChannelHandle(actor._env, actor.guild, backend.get_channel(stored.channel_id))
    return await _dispatch_actor_interaction(
        actor,
        InteractionType.MESSAGE_COMPONENT,
        channel,
        {"component_type": 2, "custom_id": custom_id},
        extra={"message": payload},
        source_message_id=stored.id,
    )


async def other_server(env: simcord.Env) -> tuple[Any, Any]:
    """Mallory hosts a lobby in a server of her own: a message she can click on."""
    guild = env.create_guild()
    channel = guild.create_text_channel("elsewhere")
    mallory = guild.add_member(env.create_user("mallory"))
    opened = await mallory.slash(channel, "shanghai new")
    assert opened.acknowledged
    return mallory, opened.response.message


async def test_a_forged_end_from_another_server_ends_nothing(env: simcord.Env) -> None:
    world = await open_table(env, 2)
    await start(world)
    mallory, her_message = await other_server(env)
    result = await forge(mallory, her_message, f"sh:end:{world.table.id}:{mallory.id}:yes")
    simcord.assert_responded(result, ephemeral=True)
    assert world.table is not None and not world.table.closed


async def test_the_end_confirmation_rechecks_the_host(env: simcord.Env) -> None:
    world = await open_table(env, 2)
    await start(world)
    bob = world.players[1]  # seated, not the host, no Manage Channels
    hand = await open_hand(world, bob)  # a private message of his to carry the forged id
    result = await forge(bob, hand.response, f"sh:end:{world.table.id}:{bob.id}:yes")
    simcord.assert_responded(result, contains="Only the host", ephemeral=True)
    assert world.table is not None and not world.table.closed


async def test_a_forged_join_cannot_seat_a_member_of_another_server(env: simcord.Env) -> None:
    world = await open_table(env, 2)
    mallory, her_message = await other_server(env)
    result = await forge(mallory, her_message, f"sh:join:{world.table.id}")
    simcord.assert_responded(result, ephemeral=True)
    assert world.table.seat_of(mallory.id) is None


async def test_a_table_button_clicked_in_another_channel_does_nothing(
    env: simcord.Env,
) -> None:
    world = await open_table(env, 2)
    other = world.guild.create_text_channel("other")
    carol = world.guild.add_member(env.create_user("carol"))
    opened = await carol.slash(other, "shanghai new")
    result = await forge(carol, opened.response.message, f"sh:join:{world.table.id}")
    simcord.assert_responded(result, ephemeral=True)
    assert world.table.seat_of(carol.id) is None


async def test_a_hand_control_on_the_public_message_answers_privately(
    env: simcord.Env,
) -> None:
    world: World = await open_table(env, 2)
    await start(world)
    bob = world.players[1]
    hand = await open_hand(world, bob)
    refresh = next(cid for cid in custom_ids(hand.response) if cid.endswith(":refresh"))
    public = world.message()
    before = (public.content, [e.to_dict() for e in public.embeds])
    result = await forge(bob, public, refresh)
    assert result.acknowledged and result.ephemeral
    after = world.message()
    assert (after.content, [e.to_dict() for e in after.embeds]) == before
