"""A turn through the hand controls, the buy race, refusals, the turn timer and lay-downs."""

from __future__ import annotations

import simcord

from bot.screens.attachments import HAND_FILE
from engine.cards import parse_cards

from .helpers import (
    World,
    button_labels,
    decide_in_hand,
    discard_id,
    gallery_alts,
    old_table_click,
    open_hand,
    open_table,
    start,
    text_of,
    window_tag,
)


def seat_after(world: World, steps: int):
    game = world.table.game
    seat = (game.current + steps) % len(game.players)
    return world.player(int(game.players[seat]))


async def test_turn_through_hand_controls(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    await start(world)
    player = world.current()
    hand = await open_hand(world, player)
    drew = await player.click(hand.response, label="Draw from stock")
    assert drew.acknowledged
    # Others may still buy the first upcard: the draw waits for the window.
    assert "when the buy window closes" in text_of(hand.response)
    assert world.table.game.step == "draw"
    await env.advance_time(8)
    assert world.table.game.step == "play"
    assert "12 cards" in text_of(hand.response)
    card = max(world.table.game.hand_of(str(player.id)), key=lambda c: c.rank)
    discarded = await player.select(hand.response, [str(card)], custom_id=discard_id(hand.response))
    assert discarded.acknowledged
    assert f"You discarded {card.pretty()}" in text_of(hand.response)
    assert "11 cards" in text_of(hand.response)
    game = world.table.game
    assert game.current_player != str(player.id)
    nxt = world.current()
    assert f"{nxt.mention}, your turn" in text_of(world.channel.history()[-1])
    text = text_of(world.message())
    assert f"Upcard: **{card.pretty()}** (buy in **My hand**" in text


async def test_two_players_draw_at_once(env: simcord.Env) -> None:
    world = await open_table(env, 2)
    await start(world)
    player = world.current()
    hand = await open_hand(world, player)
    drew = await player.click(hand.response, label="Draw from stock")
    assert drew.acknowledged
    assert "12 cards" in text_of(hand.response) and "You got" in text_of(hand.response)


async def test_buy_race_goes_by_seat_not_by_click(env: simcord.Env) -> None:
    world = await open_table(env, 5, buy_penalty=2)
    await start(world)
    p = world.current()
    first, second, third, fourth = (seat_after(world, k) for k in (1, 2, 3, 4))
    upcard = world.table.game.view(None).upcard
    for buyer in (fourth, third, second):  # furthest seat clicks first
        hand, result = await decide_in_hand(world, buyer)
        assert result.acknowledged
        assert f"Buy request for {upcard.pretty()}" in text_of(hand.response)
    hand = await open_hand(world, p)
    await p.click(hand.response, label="Draw from stock")
    assert world.table.game.step == "draw"  # `first` could still ask: the draw waits
    await env.advance_time(8)
    game = world.table.game
    sizes = {u: len(game.hand_of(str(u.id))) for u in (first, second, third, fourth)}
    assert sizes == {first: 11, second: 14, third: 11, fourth: 11}  # card + 2 penalty cards
    assert upcard in game.hand_of(str(second.id))
    notices = "\n".join(text_of(m) for m in world.channel.history())
    assert f"**{second.name}** bought {upcard.pretty()} and 2 penalty cards" in notices
    assert len(game.hand_of(str(p.id))) == 12


async def test_buy_window_closes_early_when_everyone_asked(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    await start(world)
    p, first, second = world.current(), seat_after(world, 1), seat_after(world, 2)
    for buyer in (second, first):
        assert (await decide_in_hand(world, buyer))[1].acknowledged
    hand = await open_hand(world, p)
    await p.click(hand.response, label="Draw from stock")
    game = world.table.game
    assert game.step == "play"  # nobody else could ask: no wait
    assert len(game.hand_of(str(first.id))) == 13  # the card and one penalty card
    assert len(game.hand_of(str(second.id))) == 11


async def test_take_beats_buyers(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    await start(world)
    p, first = world.current(), seat_after(world, 1)
    tag = window_tag(world)
    assert (await decide_in_hand(world, first))[1].acknowledged
    hand = await open_hand(world, p)
    upcard = world.table.game.view(None).upcard
    took = await p.click(hand.response, label=f"Take {upcard.pretty()}")
    assert took.acknowledged
    game = world.table.game
    assert upcard in game.hand_of(str(p.id)) and len(game.hand_of(str(first.id))) == 11
    # A Buy button of that window on a table message drawn before Buy / Pass left it now
    # refuses politely.
    late = await old_table_click(world, first, "buy", tag)
    simcord.assert_responded(late, contains="window has closed", ephemeral=True)


async def test_ineligible_buys_get_reasons(env: simcord.Env) -> None:
    world = await open_table(env, 4)
    await start(world)
    p = world.current()
    # The hands offer Buy only to who may buy; a table message drawn before Buy / Pass left
    # it still carries them, and its clicks get the reasons.
    mine = await old_table_click(world, p, "buy")
    simcord.assert_responded(mine, contains="your turn", ephemeral=True)
    # No buys left.
    table = world.table
    broke = seat_after(world, 1)
    table.game.buys_used[table.game.seat_of(str(broke.id))] = 3
    result = await old_table_click(world, broke, "buy")
    simcord.assert_responded(result, contains="used your 3 buys", ephemeral=True)
    # Down players can't buy.
    down = seat_after(world, 2)
    table.game.down[table.game.seat_of(str(down.id))] = True
    result = await old_table_click(world, down, "buy")
    simcord.assert_responded(result, contains="You are down", ephemeral=True)
    assert table.game.buy_requests == []
    # Own discard: P draws and discards, then may not buy the card back.
    hand = await open_hand(world, p)
    await p.click(hand.response, label="Draw from stock")
    await env.advance_time(8)
    card = world.table.game.hand_of(str(p.id))[0]
    await p.select(hand.response, [str(card)], custom_id=discard_id(hand.response))
    tag = window_tag(world)
    result = await old_table_click(world, p, "buy", tag)
    simcord.assert_responded(result, contains="own discard", ephemeral=True)
    # After the window, its countdown shows it closed and an old button refuses.
    await env.advance_time(8)
    late = await old_table_click(world, seat_after(world, 1), "buy", tag)
    simcord.assert_responded(late, contains="window has closed", ephemeral=True)


async def test_out_of_turn_and_stale_controls(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    await start(world)
    p = world.current()
    other = seat_after(world, 1)
    others_hand = await open_hand(world, other)
    assert "Draw from stock" not in button_labels(others_hand.response)
    assert "Waiting for" in text_of(others_hand.response)
    hand = await open_hand(world, p)
    second = await open_hand(world, p)  # the same controls, in another message
    await p.click(second.response, label="Draw from stock")
    await env.advance_time(8)
    before = (world.table.version, world.table.game.step)
    # The first message's controls are from before the draw: stale, nothing done, explained.
    result = await p.click(hand.response, label="Draw from stock")
    assert result.acknowledged
    assert "earlier moment of the game" in text_of(hand.response)
    assert (world.table.version, world.table.game.step) == before
    assert "Draw from stock" not in button_labels(hand.response)
    # Redrawn: the message now has this moment's controls, and sorting works.
    sorted_ = await p.click(hand.response, label="Sort by rank")
    assert sorted_.acknowledged and "by rank" in text_of(hand.response)
    # Out of turn: another player's click on a play control is refused by the engine.
    other_hand = await open_hand(world, other)
    assert "Discard" not in " ".join(button_labels(other_hand.response))


async def test_turn_timer_plays_for_absent_player(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    await start(world)
    p = world.current()
    seat = world.table.game.current
    await env.advance_time(91)
    game = world.table.game
    assert game.current != seat
    assert len(game.hand_of(str(p.id))) == 11
    notices = "\n".join(text_of(m) for m in world.channel.history())
    assert f"Out of time, **{p.name}**" in notices
    assert world.table.away[seat].timeouts == 1 and not world.table.away[seat].away
    # Three timeouts in a row mark the seat away; a click brings the player back.
    for _ in range(12):
        if world.table.away[seat].away:
            break
        await env.advance_time(91)
    assert world.table.away[seat].away
    assert "is now marked away" in "\n".join(text_of(m) for m in world.channel.history())
    result = await p.click(world.message(), label="My hand")
    assert result.acknowledged
    assert not world.table.away[seat].away


async def test_lay_down_proposed_and_confirmed(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    await start(world)
    p = world.current()
    table = world.table
    game = table.game
    seat = game.current
    # Give P a hand that meets deal 1's contract (two sets of three) plus spare cards.
    cards = parse_cards("8H 8S 8C KD KC KS 3D 5C 7S 9H JD")
    game.hands[seat] = cards
    hand = await open_hand(world, p)
    await p.click(hand.response, label="Draw from stock")
    await env.advance_time(8)
    # The proposal is on the hand screen itself (issue 9: a turn in one or two clicks).
    assert "You can lay down these melds" in text_of(hand.response)
    assert [a.filename for a in hand.response.attachments] == [HAND_FILE]
    confirmed = await p.click(hand.response, label="Lay down these melds")
    assert confirmed.acknowledged
    assert "You went down" in text_of(hand.response)
    assert game.down[seat] and len(game.melds) == 2
    assert f"**{p.name}** went down" in "\n".join(text_of(m) for m in world.channel.history())
    # The melds are said once, by the table picture, whose alt text names them.
    shown = world.message()
    assert "Melds" not in text_of(shown) and "8♥" in " ".join(gallery_alts(shown))


async def test_own_melds_through_the_modal(env: simcord.Env) -> None:
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
    bad = await p.submit_modal(shown, {"melds": "set: 8H 8S | set: KD KC KS"})
    simcord.assert_responded(bad, contains="set needs at least 3", ephemeral=True)
    assert not game.down[seat]
    shown = await p.click(hand.response, label="Choose my own melds")
    good = await p.submit_modal(shown, {"melds": "set: 8H 8S 8C 8D | set: KD KC KS"})
    assert good.acknowledged
    assert game.down[seat] and len(game.melds[0].meld) == 4
    assert "You went down" in text_of(hand.response)
