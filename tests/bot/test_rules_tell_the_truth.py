"""What the bot tells players matches what the table does.

``/shanghai rules`` at a relaxed table gives the turn time and the buy wait its timers really
run (hours and minutes), not the live seconds stored beside them; and a Rummy table, which has
no buying, never shows buy preferences, a standing buy order or its help, neither in ⚙️ Options
nor in the relaxed lobby, and refuses an old buy-preference click politely.
"""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from .helpers import button_labels, custom_ids, open_hand, open_table, start, text_of
from .test_forged_controls import forge
from .test_rummy import open_rummy

pytestmark = pytest.mark.simcord(settle_timeout=1)

BUY_LABELS = {
    "Ask me about every buy",
    "Only when it helps me",
    "Never ask me",
    "Ask me (the game waits)",
    "Buy when it helps me",
    "Never buy",
    "At most 1 buy a deal",
    "At most 2",
    "No limit of mine",
}


def rules_words(reply: simcord.InteractionResult) -> str:
    """Everything ``/shanghai rules`` answered, its follow-ups included."""
    return "\n".join([text_of(reply.response), *(f.content or "" for f in reply.followups)])


async def test_the_rules_of_a_relaxed_table_give_its_hours_and_minutes(env: Any) -> None:
    world = await open_table(env, 3, pace="relaxed", turn_hours=10, buy_wait_minutes=30)
    reply = await world.players[1].slash(world.channel, "shanghai rules")
    simcord.assert_responded(reply, ephemeral=True)
    words = rules_words(reply)
    assert "10 h" in words and "30 min" in words
    assert "after 2 missed turns" in words  # what a relaxed turn that runs out leads to
    assert "90 s" not in words and "8 s" not in words


async def test_the_rules_of_a_live_table_still_give_its_seconds(env: Any) -> None:
    world = await open_table(env, 3, turn_seconds=45, buy_seconds=6)
    words = rules_words(await world.players[1].slash(world.channel, "shanghai rules"))
    assert "45 s" in words and "6 s" in words
    assert "missed turns" not in words


async def test_the_rules_of_a_relaxed_rummy_table_give_its_hours(env: Any) -> None:
    world = await open_rummy(env, 2, pace="relaxed", turn_hours=10)
    words = rules_words(await world.players[1].slash(world.channel, "shanghai rules"))
    assert "10 h" in words and "90 s" not in words
    assert "buy" not in words.lower()  # Rummy has no buying


@pytest.mark.parametrize("pace", ["live", "relaxed"])
async def test_rummy_options_offer_no_buying(env: Any, pace: str) -> None:
    world = await open_rummy(env, 2, pace=pace)
    if pace == "relaxed":
        lobby = text_of(world.message())
        assert "Relaxed" in lobby and "buy" not in lobby.lower()
    await start(world)
    bob = world.players[1]
    hand = await open_hand(world, bob)
    options = await bob.click(hand.response, label="⚙️ Options")
    assert options.acknowledged
    labels = set(button_labels(options.response))
    assert not labels & BUY_LABELS, labels
    assert "Leave game" in labels and "Back" in labels
    assert not any(
        cid.endswith((":bask", ":bhelp", ":bnever", ":lim0", ":lim1", ":lim2"))
        for cid in custom_ids(options.response)
    )
    words = text_of(options.response)
    assert "buying the upcard" not in words and "standing buy order" not in words
    if pace == "relaxed":  # where the turn's notice goes is still theirs to choose
        assert any(label.startswith("🔔") for label in labels), labels


async def test_an_old_buy_preference_click_at_rummy_is_refused_politely(env: Any) -> None:
    world = await open_rummy(env, 2, pace="relaxed")
    await start(world)
    bob = world.players[1]
    table = world.table
    seat = table.seat_of(bob.id)
    hand = await open_hand(world, bob)
    hand_id = next(cid for cid in custom_ids(hand.response) if cid.startswith("sh:h:"))
    prefix = hand_id.rsplit(":", 1)[0]
    before = dict(table.buy_prefs), table.away[seat].buy_limit
    for verb in ("bask", "lim1"):
        result = await forge(bob, hand.response, f"{prefix}:{verb}")
        assert "There is no buying in Rummy" in rules_words(result), verb
    assert (dict(table.buy_prefs), table.away[seat].buy_limit) == before


@pytest.mark.parametrize("pace", ["live", "relaxed"])
async def test_shanghai_options_still_offer_buying(env: Any, pace: str) -> None:
    world = await open_table(env, 3, pace=pace)
    if pace == "relaxed":  # the lobby explains the standing buy order
        assert "standing buy order" in text_of(world.message())
    await start(world)
    bob = world.players[1]
    options = await bob.click((await open_hand(world, bob)).response, label="⚙️ Options")
    labels = set(button_labels(options.response))
    expected = "Buy when it helps me" if pace == "relaxed" else "Only when it helps me"
    assert expected in labels, labels
    assert "buy" in text_of(options.response).lower()
