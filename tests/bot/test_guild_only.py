"""Issue 10.3: /shanghai and /rummy are guild-only for real: in the synced payload, and in DMs."""

from __future__ import annotations

import pytest
import simcord


def synced(env: simcord.Env) -> list[dict]:
    puts = [r for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert puts, "the commands were never synced"
    return list(puts[-1].json)


async def test_the_groups_are_guild_only_in_the_synced_payload(env: simcord.Env) -> None:
    commands = {c["name"]: c for c in synced(env)}
    for name in ("shanghai", "rummy"):
        command = commands[name]
        assert command.get("contexts") == [0] or command.get("dm_permission") is False, command


async def test_a_dm_does_not_offer_the_commands(env: simcord.Env) -> None:
    user = env.create_user("dana")
    with pytest.raises(simcord.SetupError, match="not visible"):
        await user.slash("shanghai new")
    with pytest.raises(simcord.SetupError, match="not visible"):
        await user.slash("rummy new")
