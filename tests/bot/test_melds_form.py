"""Issue 29.3: the melds form uses Discord's current modal layout (the text input inside a
``Label``, component type 18) and its submission is read in that shape, and still in the
action-row shape of a form opened before the change."""

from __future__ import annotations

from typing import Any

import simcord

from bot.views.melds_form import modal_fields
from engine.cards import parse_cards

from .helpers import open_hand, open_table, start

LABEL, TEXT_INPUT, ACTION_ROW, MODAL = 18, 4, 1, 9


def _modal_payload(env: simcord.Env) -> dict[str, Any]:
    """The last modal the bot sent Discord (an interaction callback of type 9)."""
    sent = [
        r.json
        for r in env.http_requests
        if r.method == "POST"
        and r.path.endswith("/callback")
        and (r.json or {}).get("type") == MODAL
    ]
    assert sent, "no modal was sent"
    return dict(sent[-1]["data"])


async def test_the_melds_form_wraps_its_text_input_in_a_label_and_reads_it(
    env: simcord.Env,
) -> None:
    world = await open_table(env, 3)
    await start(world)
    p = world.current()
    game = world.table.game
    seat = game.current
    game.hands[seat] = parse_cards("8H 8S 8C 8D KD KC KS 3D 5C 7S 9H 10D")
    hand = await open_hand(world, p)
    await p.click(hand.response, label="Draw from stock")
    await env.advance_time(8)
    shown = await p.click(hand.response, label="Choose my own melds")
    assert shown.modal is not None
    data = _modal_payload(env)
    (label,) = data["components"]
    assert label["type"] == LABEL and 1 <= len(label["label"]) <= 45
    field = label["component"]
    assert field["type"] == TEXT_INPUT and field["custom_id"] == "melds"
    assert field.get("label") is None  # the deprecated place for the field's label
    assert field["style"] == 2 and field["max_length"] == 400
    assert len(field.get("placeholder", "")) <= 100 and len(field.get("value", "")) <= 400
    # Cards as the bot prints them are read as before (issue 29: keep 8♥, 10♦, 🃏).
    good = await p.submit_modal(shown, {"melds": "set: 8♥ 8♠ 8♣ 8♦ | set: K♦ K♣ K♠"})
    assert good.acknowledged
    assert game.down[seat] and len(game.melds) == 2


def test_both_submission_shapes_are_read() -> None:
    """The label shape Discord sends now, and the action rows of a form opened earlier."""
    field = {"type": TEXT_INPUT, "custom_id": "melds", "value": "set: 🃏 10♦ 10♠"}
    now = [{"type": LABEL, "id": 1, "component": field}]
    old = {"type": TEXT_INPUT, "custom_id": "melds", "value": "set: 8♥ 8♠ 8♣"}
    before = [{"type": ACTION_ROW, "components": [old]}]
    assert [f["value"] for f in modal_fields(now)] == ["set: 🃏 10♦ 10♠"]
    assert [f["value"] for f in modal_fields(before)] == ["set: 8♥ 8♠ 8♣"]
    assert modal_fields([{"type": 10, "content": "text"}, "junk"]) == []
