"""A melds form submitted from somewhere other than its table's channel changes nothing.

Discord only delivers a form's submission from the channel it was opened in, but the bot must
not rely on that: a modified client can submit ``sh:melds:<table>:s`` from any channel of the
server, and the form must be checked like every other control (the table AND its channel)."""

from __future__ import annotations

from typing import Any

import simcord
from simcord.actors import _dispatch_actor_interaction
from simcord.enums import InteractionType

from engine.cards import parse_cards

from .helpers import open_hand, open_table, start

LABEL, TEXT_INPUT = 18, 4


async def forge_form(actor: Any, channel: Any, custom_id: str, text: str) -> Any:
    """``actor`` submits a melds form with ``custom_id`` from ``channel``."""
    field = {"type": TEXT_INPUT, "id": 2, "custom_id": "melds", "value": text}
    data = {"custom_id": custom_id, "components": [{"type": LABEL, "id": 1, "component": field}]}
    return await _dispatch_actor_interaction(actor, InteractionType.MODAL_SUBMIT, channel, data)


async def test_a_melds_form_from_another_channel_lays_nothing_down(env: simcord.Env) -> None:
    world = await open_table(env, 2)
    await start(world)
    game = world.table.game
    seat = game.current
    p = world.current()
    game.hands[seat] = parse_cards("8H 8S 8C 8D KD KC KS 3D 5C 7S 9H 10D")
    hand = await open_hand(world, p)
    await p.click(hand.response, label="Draw from stock")
    await env.advance_time(8)
    shown = await p.click(hand.response, label="Choose my own melds")
    assert shown.modal is not None
    other = world.guild.create_text_channel("other")
    text = "set: 8H 8S 8C 8D | set: KD KC KS"
    result = await forge_form(p, other, f"sh:melds:{world.table.id}:s", text)
    simcord.assert_responded(result, contains="another channel", ephemeral=True)
    assert not game.down[seat] and not game.melds
    # The form itself, submitted where it was opened, is still read and laid down.
    here = await p.submit_modal(shown, {"melds": text})
    assert here.acknowledged
    assert game.down[seat] and len(game.melds) == 2
