"""The pieces of ``python -m bot try`` that need no browser: the settings, the world and the
table one click from Start, and ``republish``, the one private simcord call, held against the
pinned simcord (a renamed internal fails here, not in a newcomer's browser)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.process.try_it import build_world, lay_the_table, republish, try_settings

pytestmark = pytest.mark.simcord(settle_timeout=1)


def test_try_settings_are_what_the_prototype_needed(tmp_path: Path) -> None:
    settings = try_settings(tmp_path, seed=7)
    assert settings.edit_interval == 0 and settings.force_sync
    assert settings.computer_delay == 1 and settings.buy_seconds == 3 and settings.seed == 7
    assert Path(settings.database).parent == tmp_path and settings.token_is_well_formed()


async def test_the_table_is_one_click_from_start(env: simcord.Env) -> None:
    world = build_world(env, 2)
    assert [m.name for m in world.viewers] == ["you", "friend"]
    table = await lay_the_table(world)
    seats = table.record.seats
    assert [s.is_computer for s in seats] == [False, True, True, True]
    assert table.record.options["rules"] == {"num_deals": 2}
    assert table.record.options["buy_seconds"] == 3.0 and table.game is None


def page_text(preview: Any) -> str:
    return json.dumps(preview._page_payload(preview._python), ensure_ascii=False)


async def test_republish_shows_what_the_bot_did_outside_the_page(env: simcord.Env) -> None:
    world = build_world(env, 1)
    await lay_the_table(world)
    latecomer = world.guild.add_member(env.create_user("latecomer"))
    async with env.preview(world.channel, viewers=world.viewers, layout="channel") as preview:
        assert "latecomer" not in page_text(preview)
        table = env.bot.service.for_channel(world.channel.id)
        message = next(m for m in world.channel.history() if m.id == table.record.message_id)
        joined = await latecomer.click(message, label="Join")  # not through the page
        assert joined.acknowledged
        assert "latecomer" not in page_text(preview), "the page followed by itself"
        republish(preview)
        assert "latecomer" in page_text(preview)
