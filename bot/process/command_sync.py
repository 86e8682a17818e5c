"""Sync the slash commands only when they changed, and from one process only.

Every sync is a bulk overwrite that Discord rate-limits, and discord.py's own examples advise
against syncing on every start. So start-up computes a hash of exactly the payload a sync would
upload (translated, if the tree has a translator) and compares it with the hash stored in the
database at the last sync, per target (global, or the development guild). Only a change, or
``python -m bot --sync``, uploads. With several shard processes, only the owner of shard 0
syncs: the commands are the same for every shard.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands

from data import Store

log = logging.getLogger(__name__)


async def command_payload(
    tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None
) -> list[dict[str, Any]]:
    """What ``tree.sync(guild=guild)`` would upload, in the same order."""
    commands = tree.get_commands(guild=guild)  # type=None: every kind, as sync uploads
    translator = tree.translator
    if translator is not None:
        return [await command.get_translated_payload(tree, translator) for command in commands]
    return [command.to_dict(tree) for command in commands]


def payload_hash(payload: list[dict[str, Any]]) -> str:
    """A stable digest of a command payload (key order and spacing do not matter)."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def meta_key(application_id: int | None, guild: discord.abc.Snowflake | None) -> str:
    """Where the last sync's digest is kept: per Discord application, since a database moved
    to another application (a test bot's to production, a backup restored under a new one)
    must upload that application's commands once."""
    where = "global" if guild is None else f"guild:{guild.id}"
    return f"commands_hash:app:{application_id or 0}:{where}"


async def sync_if_changed(
    tree: app_commands.CommandTree[Any],
    store: Store,
    *,
    guild: discord.abc.Snowflake | None = None,
    force: bool = False,
) -> bool:
    """Sync ``tree`` to ``guild`` (``None``: globally) if it changed since the last sync.

    Returns whether it synced. The hash is stored only after Discord accepted the commands, so
    a failed sync is tried again at the next start.
    """
    digest = payload_hash(await command_payload(tree, guild))
    key = meta_key(tree.client.application_id, guild)
    if not force and await store.get_meta(key) == digest:
        log.info("slash commands unchanged since the last sync; not syncing (--sync forces it)")
        return False
    await tree.sync(guild=guild)
    await store.set_meta(key, digest)
    log.info("synced the slash commands (%s)", "forced" if force else "they changed")
    return True
