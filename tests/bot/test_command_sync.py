"""Issues 12.6 / 13.4: the slash commands are uploaded only when they changed (a hash kept in the
database), only by the process that owns shard 0, and always with ``--sync``."""

from __future__ import annotations

import simcord

from bot import Settings, create_bot
from bot.process.command_sync import command_payload, meta_key, payload_hash, sync_if_changed


def global_key(env: simcord.Env) -> str:
    """Where the bot keeps its application's global commands' digest."""
    return meta_key(env.bot.application_id, None)


def command_uploads(env: simcord.Env) -> int:
    """How many bulk command overwrites the bot sent to Discord so far."""
    return sum(1 for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands"))


async def test_a_restart_with_the_same_commands_does_not_sync(
    env: simcord.Env, settings: Settings
) -> None:
    assert command_uploads(env) == 1  # the first start ever syncs
    stored = await env.bot.store.get_meta(global_key(env))
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
    await env.bot.store.set_meta(global_key(env), "the hash of older commands")
    await env.restart_bot(create_bot(settings))
    assert command_uploads(env) == 2
    assert await env.bot.store.get_meta(global_key(env)) != "the hash of older commands"


async def test_only_the_owner_of_shard_0_syncs(env: simcord.Env, settings: Settings) -> None:
    assert command_uploads(env) == 1
    await env.bot.store.set_meta(global_key(env), "stale")
    shard_one = settings.model_copy(update={"shard_count": 2, "shard_ids": "1"})
    await env.restart_bot(create_bot(shard_one))
    assert command_uploads(env) == 1  # shard 1's process leaves the commands alone
    assert await env.bot.store.get_meta(global_key(env)) == "stale"


class _Store:
    def __init__(self) -> None:
        self.meta: dict[str, str] = {}

    async def get_meta(self, key: str) -> str | None:
        return self.meta.get(key)

    async def set_meta(self, key: str, value: str) -> None:
        self.meta[key] = value


async def test_a_database_moved_to_another_application_syncs_its_commands() -> None:
    """Issue 25.5: the digest is the application's own. A database synced by one application
    (a test bot's) and opened by another (production) uploads the commands once, and a
    restart of the same application then uploads nothing."""
    import discord
    from discord import app_commands

    uploads: list[int | None] = []
    store = _Store()

    def tree_of(application_id: int) -> app_commands.CommandTree[discord.Client]:
        client = discord.Client(intents=discord.Intents.none())
        client._connection.application_id = application_id
        tree = app_commands.CommandTree(client)

        @tree.command(name="ping", description="A command to upload")
        async def ping(interaction: discord.Interaction) -> None: ...

        async def sync(*, guild: object = None) -> list[object]:
            uploads.append(application_id)
            return []

        tree.sync = sync  # type: ignore[method-assign]
        return tree

    assert await sync_if_changed(tree_of(1), store)  # type: ignore[arg-type]
    assert not await sync_if_changed(tree_of(1), store)  # type: ignore[arg-type]
    assert await sync_if_changed(tree_of(2), store)  # type: ignore[arg-type]
    assert uploads == [1, 2]
