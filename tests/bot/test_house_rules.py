"""The host's House rules panel (issue 11): every option O1-O26 in the lobby, the presets by
the names players know, shown by /shanghai rules, kept with the table across a restart."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import simcord

from bot.ground.errors import NotHost, UserError
from bot.views.house_rules import GROUPS, PRESET_NAMES, choices
from engine.rules import Rules

from .helpers import button_labels, custom_ids, open_table, start, text_of


def every_option() -> list[str]:
    return [option for _, names in GROUPS.values() for option in names]


def test_every_option_o1_to_o26_is_in_exactly_one_group_with_its_values() -> None:
    options = every_option()
    shanghai_only = set(Rules.model_fields) - {
        "game", "ace_mode", "win_condition", "target_points", "dealer_rotation",
        "layoff_requires_own_meld",
        "stock_draws",  # set by duplicate events, not chosen by a host
    }  # fmt: skip
    assert len(options) == 26 and set(options) == shanghai_only
    rules = Rules()
    for option in options:
        values = choices(option)
        assert len(values) >= 2
        for value in values:  # every listed value makes valid rules
            rules.with_options(**{option: value})
    assert [name for name, _ in PRESET_NAMES.values()] == [
        "Standard",
        "Dutch rules (000)",
        "Spanish rules (004)",
    ]


async def open_panel(world: Any, who: Any) -> simcord.InteractionResult:
    return await who.click(world.message(), label="House rules")


async def test_host_picks_house_rules_and_the_game_starts_with_them(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    alice = world.players[0]
    panel = await open_panel(world, alice)
    simcord.assert_responded(panel, contains="House rules of table", ephemeral=True)
    assert len(custom_ids(panel.response)) == 5  # the rule sets and four themes
    chosen = await alice.select(
        panel.response, ['first_dealer="low_card"'], custom_id=f"sh:hr:{world.table.id}:table"
    )
    assert chosen.acknowledged
    await alice.select(
        panel.response, ['buy_priority="dealer_left"'], custom_id=f"sh:hr:{world.table.id}:buying"
    )
    await alice.select(
        panel.response, ["max_restocks=null"], custom_id=f"sh:hr:{world.table.id}:table"
    )
    assert world.table.record.options["rules"] == {
        "first_dealer": "low_card",
        "buy_priority": "dealer_left",
        "max_restocks": None,
    }
    rules_reply = await world.players[1].slash(world.channel, "shanghai rules")
    # The basics come first; the house rules may follow in a second reply.
    content = "\n".join(
        [rules_reply.response.content, *(f.content or "" for f in rules_reply.followups)]
    )
    assert "First dealer: lowest card cut" in content and "New stocks: unlimited" in content
    assert "Who buys first: left of the dealer" in content
    await start(world)
    game = world.table.game
    assert game.rules.first_dealer == "low_card" and game.rules.max_restocks is None
    assert game.rules.buy_priority == "dealer_left"


async def test_presets_are_offered_by_name_and_reset_the_options(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    alice = world.players[0]
    panel = await open_panel(world, alice)
    tid = world.table.id
    await alice.select(panel.response, ["deuces_wild=true"], custom_id=f"sh:hr:{tid}:table")
    await alice.select(panel.response, ["preset_000"], custom_id=f"sh:hr:{tid}:preset")
    assert world.table.record.options["preset"] == "preset_000"
    assert world.table.record.options["rules"] == {}
    assert "Dutch rules (000)" in text_of(world.message())


async def test_a_non_host_cannot_change_house_rules(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    bob = world.players[1]
    refused = await open_panel(world, bob)
    simcord.assert_responded(refused, contains="Only the host", ephemeral=True)
    with pytest.raises(NotHost):  # nor through the service the panel calls
        await world.service.set_house_rule(world.table.id, bob.id, option="deuces_wild", value=True)
    assert not world.table.record.options.get("rules")


async def test_an_impossible_value_is_refused_and_changes_nothing(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    alice = world.players[0]
    with pytest.raises(UserError, match="can't be used"):
        await world.service.set_house_rule(
            world.table.id, alice.id, option="joker_limit", value="lots"
        )
    assert not world.table.record.options.get("rules")


async def test_a_restart_keeps_the_house_rules(
    env: simcord.Env, make_bot: Callable[[], Any]
) -> None:
    world = await open_table(env, 3)
    alice = world.players[0]
    panel = await open_panel(world, alice)
    tid = world.table.id
    await alice.select(panel.response, ['joker_swap="off"'], custom_id=f"sh:hr:{tid}:out")
    await env.restart_bot(make_bot())
    assert world.table.record.options["rules"] == {"joker_swap": "off"}
    # The panel sent before the restart still works.
    again = await alice.select(panel.response, ["blind_bonus=false"], custom_id=f"sh:hr:{tid}:out")
    assert again.acknowledged
    assert world.table.record.options["rules"] == {"joker_swap": "off", "blind_bonus": False}
    await start(world)
    assert world.table.game.rules.joker_swap == "off" and not world.table.game.rules.blind_bonus
    assert "House rules" not in button_labels(world.message())
