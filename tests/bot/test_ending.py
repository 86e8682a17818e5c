"""The game's end for everyone: each open hand says who won and where its player finished,
with the total and the gap to the winner; the channel celebrates the winner, says in words
that the lowest total wins, and offers Play again beside the final standings."""

from __future__ import annotations

from typing import Any

from engine.cards import Card, parse_cards

from .helpers import World, button_labels, discard_id, open_hand, open_table, start, text_of
from .test_languages import flush_outboxes


async def one_deal_table(env: Any) -> World:
    """A started table of three people playing 1 deal(s)."""
    world = await open_table(env, 3, deals=1)
    await start(world)
    return world


async def go_out(world: World, env: Any) -> tuple[Any, dict[int, Any]]:
    """Everyone opens their hand; the player to move goes out with the card drawn."""
    hands = {p.id: await open_hand(world, p) for p in world.players}
    game = world.table.game
    player = world.current()
    game.hands[game.current] = parse_cards("8H 8S 8C 5H 5S 5C")
    game.stock[-1] = Card.parse("KD")
    hand = await open_hand(world, player)
    hands[player.id] = hand
    assert (await player.click(hand.response, label="Draw from stock")).acknowledged
    await env.advance_time(8)
    assert (await player.click(hand.response, label="Lay down these melds")).acknowledged
    picked = await player.select(hand.response, ["KD"], custom_id=discard_id(hand.response))
    assert picked.acknowledged and game.is_over
    await flush_outboxes(env)
    return player, hands


async def test_every_open_hand_says_who_won_and_where_its_player_finished(env: Any) -> None:
    world = await one_deal_table(env)
    winner, hands = await go_out(world, env)
    mine = text_of(hands[winner.id].response)
    assert "You won" in mine and "lowest total wins" in mine
    for player in world.players:
        if player is winner:
            continue
        text = text_of(hands[player.id].response)
        assert "You finished in place 2 of 3" in text or "You finished in place 3 of 3" in text
        assert f"behind {winner.name}" in text and "lowest total wins" in text


async def test_the_channel_celebrates_the_winner_and_offers_play_again(env: Any) -> None:
    world = await one_deal_table(env)
    number = world.table.id
    winner, _ = await go_out(world, env)
    history = world.channel.history()
    final = next(
        m
        for m in history
        if "Final standings" in text_of(m)
        and m.attachments
        and m.attachments[0].filename == "scores.png"
    )
    assert f"**{winner.name}** wins" in text_of(final)
    assert "lowest total wins" in text_of(final)
    assert any("Play again" in label for label in button_labels(final))
    assert f"game #{number}" in text_of(final)
    assert "Replay" in button_labels(final)
    replay = await winner.click(final, label="Replay")
    assert replay.acknowledged
