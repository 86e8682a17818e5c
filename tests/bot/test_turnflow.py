"""Issue 9: the hand follows its player, no dead waits, every legal play reachable, notices
that say what happened. Each test clicks only what a player sees."""

from __future__ import annotations

from dataclasses import replace

import simcord

from bot.screens.attachments import HAND_FILE
from bot.screens.hand_screen import MAX_OPTIONS
from bot.views.hand import render_hand
from engine.actions import LayOff, LayOffItem
from engine.cards import Card, parse_cards

from .helpers import (
    World,
    button_labels,
    decide_in_hand,
    discard_id,
    old_table_click,
    open_hand,
    open_table,
    start,
    text_of,
)


def seat_after(world: World, steps: int):
    game = world.table.game
    seat = (game.current + steps) % len(game.players)
    return world.player(int(game.players[seat]))


async def test_the_hand_follows_its_player_when_their_turn_begins(env: simcord.Env) -> None:
    world = await open_table(env, 2)
    await start(world)
    p, nxt = world.current(), seat_after(world, 1)
    waiting = await open_hand(world, nxt)
    assert "Draw from stock" not in button_labels(waiting.response)
    hand = await open_hand(world, p)
    await p.click(hand.response, label="Draw from stock")
    card = world.table.game.hand_of(str(p.id))[-1]
    await p.select(hand.response, [str(card)], custom_id=discard_id(hand.response))
    # Nobody clicked Refresh: the waiting player's message now offers the turn's controls.
    assert world.current().id == nxt.id
    assert "Draw from stock" in button_labels(waiting.response)
    assert "**Your turn.**" in text_of(waiting.response)


async def test_pass_closes_the_window_and_the_held_draw_runs_at_once(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    await start(world)
    p, first, second = world.current(), seat_after(world, 1), seat_after(world, 2)
    hand = await open_hand(world, p)
    await p.click(hand.response, label="Draw from stock")
    assert world.table.game.step == "draw"  # held: the others may still buy
    assert "when the buy window closes" in text_of(hand.response)
    first_hand, passed = await decide_in_hand(world, first, "pass")
    assert passed.acknowledged and "You pass" in text_of(first_hand.response)
    assert world.table.game.step == "draw"  # one still to decide
    await decide_in_hand(world, second, "pass")
    game = world.table.game
    assert game.step == "play"  # no time passed: everyone decided
    assert len(game.hand_of(str(p.id))) == 12
    # Text and picture of the held draw's hand follow at once, with what was drawn.
    assert "12 cards" in text_of(hand.response) and "You got" in text_of(hand.response)
    assert [a.filename for a in hand.response.attachments] == [HAND_FILE]


async def test_an_old_table_buy_still_buys_and_is_taken_back(env: simcord.Env) -> None:
    """A table message posted before Buy / Pass left it still carries them: a seated
    player's click buys as the hand does, and the private reply takes the request back."""
    world = await open_table(env, 3)
    await start(world)
    first = seat_after(world, 1)
    asked = await old_table_click(world, first, "buy")
    simcord.assert_responded(asked, contains="Buy request for", ephemeral=True)
    seat = world.table.game.players.index(str(first.id))
    assert seat in world.table.game.buy_requests
    took_back = await first.click(asked.response, label="Take my request back")
    assert took_back.acknowledged
    assert "took back" in text_of(asked.response)
    assert seat not in world.table.game.buy_requests


async def test_a_stale_hand_still_does_what_is_legal_now(env: simcord.Env) -> None:
    world = await open_table(env, 2)
    await start(world)
    p = world.current()
    old = await open_hand(world, p)
    new = await open_hand(world, p)
    await p.click(new.response, label="Draw from stock")
    assert world.table.game.step == "play"
    # The older message has no discard select yet; its Draw is refused with the reason.
    refused = await p.click(old.response, label="Draw from stock")
    assert refused.acknowledged and "earlier moment" in text_of(old.response)
    # Redrawn, the old message now discards like the new one.
    card = world.table.game.hand_of(str(p.id))[0]
    done = await p.select(old.response, [str(card)], custom_id=discard_id(old.response))
    assert done.acknowledged and f"You discarded {card.pretty()}" in text_of(old.response)


async def test_no_select_is_cut_off_and_every_place_is_offered(env: simcord.Env) -> None:
    """A joker with 40 places (20 runs, both ends): the place picker pages them all."""
    world = await open_table(env, 2)
    await start(world)
    p = world.current()
    snap = world.service.snapshot(world.table.id, p.id)
    joker = Card.parse("JK")
    ends = ("low", "high")
    items = [LayOffItem(joker, meld, end, None) for meld in range(20) for end in ends]
    snap = replace(snap, legal=tuple(LayOff((item,)) for item in items))
    ui = render_hand(snap, "s", mode="layoff", picked=joker)
    selects = [getattr(child, "item", child) for child in ui.walk_children()]
    selects = [select for select in selects if hasattr(select, "options")]
    offered = [o.value for select in selects for o in select.options]
    assert sorted(offered) == sorted(str(item) for item in items)
    assert len(selects) == 2 and all(len(s.options) <= MAX_OPTIONS for s in selects)
    # Melds are numbered from 1 in the options, as in the table's text.
    labels = [o.label for select in selects for o in select.options]
    assert any("on #1 " in label for label in labels) and any("#20" in label for label in labels)


async def test_lay_off_all_that_fits_in_one_click(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    await start(world)
    p = world.current()
    game = world.table.game
    seat = game.current
    game.hands[seat] = parse_cards("8H 8S 8C KD KC KS 3C 5D 7S 9H JD")
    hand = await open_hand(world, p)
    await p.click(hand.response, label="Draw from stock")
    await env.advance_time(8)
    await p.click(hand.response, label="Lay down these melds")
    assert game.down[seat]
    await p.select(hand.response, ["3C"], custom_id=discard_id(hand.response))
    await env.advance_time(91)  # the others time out; the bot plays for them
    await env.advance_time(91)
    assert world.current().id == p.id
    game.hands[seat].extend(parse_cards("8D KH"))  # two cards that fit, one place each
    await p.click(hand.response, label="Draw from stock")  # the hand followed its player
    await env.advance_time(8)
    label = next(x for x in button_labels(hand.response) if x.startswith("Lay off all"))
    before = len(game.hand_of(str(p.id)))
    done = await p.click(hand.response, label=label)
    assert done.acknowledged
    assert len(game.hand_of(str(p.id))) <= before - 2
    assert "Done: Lay off" in text_of(hand.response)


async def test_timeout_notice_names_what_the_bot_did(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    await start(world)
    p = world.current()
    game = world.table.game
    seat = game.current
    game.hands[seat] = parse_cards("8H 8S 8C KD KC KS 3D 5C 7S 9H JD")
    await env.advance_time(91)
    notices = "\n".join(text_of(m) for m in world.channel.history())
    assert game.down[seat]
    assert f"Out of time, **{p.name}**: I played the turn (" in notices
    assert "went down" in notices and "discarded" in notices


async def test_the_melds_form_still_works_after_a_restart(env: simcord.Env, make_bot) -> None:
    world = await open_table(env, 3)
    await start(world)
    p = world.current()
    game = world.table.game
    seat = game.current
    game.hands[seat] = parse_cards("8H 8S 8C 8D KD KC KS 3D 5C 7S 9H")
    hand = await open_hand(world, p)
    await p.click(hand.response, label="Draw from stock")
    await env.advance_time(8)
    shown = await p.click(hand.response, label="Choose my own melds")
    assert shown.modal is not None
    await env.restart_bot(make_bot())
    good = await p.submit_modal(shown, {"melds": "set: 8H 8S 8C 8D | set: KD KC KS"})
    assert good.acknowledged
    game = world.table.game
    assert game.down[seat] and len(game.melds[0].meld) == 4


async def test_buy_and_pass_are_in_the_open_hands_of_those_who_may_buy(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    await start(world)
    p, first, second = world.current(), seat_after(world, 1), seat_after(world, 2)
    upcard = world.table.game.view(None).upcard
    first_hand = await open_hand(world, first)
    second_hand = await open_hand(world, second)
    buy = next(b for b in button_labels(second_hand.response) if b.startswith("Buy "))
    await second.click(second_hand.response, label=buy)
    assert "Buy request for" in text_of(second_hand.response)
    seat = world.table.game.players.index(str(second.id))
    await second.click(second_hand.response, label="Take my request back")
    assert seat not in world.table.game.buy_requests
    assert "took back" in text_of(second_hand.response)
    assert "Pass" not in button_labels(second_hand.response)  # took back: decided
    assert "Pass" in button_labels(first_hand.response)
    buy = next(b for b in button_labels(first_hand.response) if b.startswith("Buy "))
    await first.click(first_hand.response, label=buy)
    assert "Pass" not in button_labels(first_hand.response)  # decided: the buttons go
    game = world.table.game
    hand = await open_hand(world, p)
    await p.click(hand.response, label="Draw from stock")
    # Everyone had decided: the draw ran at once and the card went to the buyer.
    assert upcard in game.hand_of(str(first.id))
    # The next window reaches the open hands by itself (pushed, no click).
    card = game.hand_of(str(p.id))[-1]
    await p.select(hand.response, [str(card)], custom_id=discard_id(hand.response))
    assert world.table.game.current_player == str(first.id)
    assert "Pass" in button_labels(second_hand.response)  # the next seat takes it instead
    await first.click((await open_hand(world, first)).response, label="Draw from stock")
    assert world.table.game.step == "draw"  # held: the second seat still decides
    await second.click(second_hand.response, label="Pass")
    assert world.table.game.step == "play"  # that was the last decision
