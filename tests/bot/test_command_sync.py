"""Issues 12.6 / 13.4: the slash commands are uploaded only when they changed (a hash kept in the
database), only by the process that owns shard 0, and always with ``--sync``."""

from __future__ import annotations

import simcord

from bot import Settings, create_bot
from bot.command_sync import command_payload, payload_hash


def command_uploads(env: simcord.Env) -> int:
    """How many bulk command overwrites the bot sent to Discord so far."""
    return sum(1 for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands"))


async def test_a_restart_with_the_same_commands_does_not_sync(
    env: simcord.Env, settings: Settings
) -> None:
    assert command_uploads(env) == 1  # the first start ever syncs
    stored = await env.bot.store.get_meta("commands_hash:global")
    assert stored == payload_hash(await command_payload(env.bot.tree, None))

    await env.restart_bot(create_bot(settings))
    assert command_uploads(env) == 1
    # The commands synced before still work after the restart.
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    simcord.assert_responded(await alice.slash(channel, "shanghai rules"))


async def test_sync_flag_forces_an_upload(env: simcord.Env, settings: Settings) -> None:
    await env.restart_bot(create_bot(settings.model_copy(update={"force_sync": True})))
    assert command_uploads(env) == 2


async def test_changed_commands_are_synced(env: simcord.Env, settings: Settings) -> None:
    await env.bot.store.set_meta("commands_hash:global", "the hash of older commands")
    await env.restart_bot(create_bot(settings))
    assert command_uploads(env) == 2
    assert await env.bot.store.get_meta("commands_hash:global") != "the hash of older commands"


async def test_only_the_owner_of_shard_0_syncs(env: simcord.Env, settings: Settings) -> None:
    assert command_uploads(env) == 1
    await env.bot.store.set_meta("commands_hash:global", "stale")
    shard_one = settings.model_copy(update={"shard_count": 2, "shard_ids": "1"})
    await env.restart_bot(create_bot(shard_one))
    assert command_uploads(env) == 1  # shard 1's process leaves the commands alone
    assert await env.bot.store.get_meta("commands_hash:global") == "stale"
