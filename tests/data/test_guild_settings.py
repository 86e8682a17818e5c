"""Per-server defaults (/shanghai settings) on both stores: stored per guild, replaced whole,
kept across a reopen."""

from __future__ import annotations

from typing import Any

from data import Store


async def test_a_guild_without_settings_reads_empty(store: Store) -> None:
    assert await store.guild_settings(1) == {}


async def test_settings_are_per_guild_and_replaced_whole(store: Store) -> None:
    await store.set_guild_settings(1, {"language": "nl", "buy_seconds": 5})
    await store.set_guild_settings(2, {"preset": "quick"})
    assert await store.guild_settings(1) == {"language": "nl", "buy_seconds": 5}
    await store.set_guild_settings(1, {"turn_seconds": 60})
    assert await store.guild_settings(1) == {"turn_seconds": 60}
    assert await store.guild_settings(2) == {"preset": "quick"}


async def test_settings_survive_a_reopen(backend: Any, clock: Any) -> None:
    store = await backend.open(clock)
    await store.set_guild_settings(7, {"ranked": True, "threads": False})
    await store.close()
    again = await backend.open(clock)
    try:
        assert await again.guild_settings(7) == {"ranked": True, "threads": False}
    finally:
        await again.close()
