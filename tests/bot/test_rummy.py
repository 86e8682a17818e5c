"""/rummy: a Rummy table on the same service and views: no buying, free melds from a
multi-select, the discard-pile rule, and its own leaderboard."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from bot.ground.errors import UserError
from bot.views.hand_choices import meld_from_cards
from engine import Rules
from engine.actions import Discard, DrawStock, LayMelds
from engine.cards import parse_cards
from engine.errors import IllegalAction

from .helpers import World, button_labels, controls, custom_ids, heading_of, open_hand, text_of


async def open_rummy(env: simcord.Env, count: int, **options: Any) -> World:
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    names = ["alice", "bob", "carol", "dave"][:count]
    players = [guild.add_member(env.create_user(name)) for name in names]
    result = await players[0].slash(channel, "rummy new", **options)
    assert result.acknowledged and not result.ephemeral
    world = World(env, guild, channel, players, result.response.message)
    for player in players[1:]:
        assert (await player.click(world.message(), label="Join")).acknowledged
    return world


async def test_rummy_lobby_and_no_buy_window(env: simcord.Env) -> None:
    world = await open_rummy(env, 2, target=50, ace_mode="high_or_low")
    lobby = world.message()
    assert heading_of(lobby) == "Rummy: table open"
    assert "to 50 points" in text_of(lobby) and "high or low" in text_of(lobby)
    assert world.table.record.game_kind == "rummy"
    rules = await world.players[1].slash(world.channel, "shanghai rules")
    simcord.assert_responded(rules, contains="52-card deck", ephemeral=True)
    assert "contract" not in text_of(rules.response).lower()
    await world.players[0].click(world.message(), label="Start")
    game = world.table.game
    assert game.rules.game == "rummy" and game.rules.target_points == 50
    message = world.message()
    assert heading_of(message) == "Rummy: hand 1"
    assert not any(label.startswith("Buy") for label in button_labels(message))
    assert not world.table.window.is_running(world.table.game, world.service.clock())
    hand = await open_hand(world, world.current())
    assert "Rummy, hand 1" in text_of(hand.response)
    assert not any(label.startswith("Buy") for label in button_labels(hand.response))


async def test_taken_card_cannot_be_discarded_and_bad_meld_is_refused(env: simcord.Env) -> None:
    world = await open_rummy(env, 2)
    await world.players[0].click(world.message(), label="Start")
    table, game = world.table, world.table.game
    player = world.current()
    upcard = game.view(None).upcard
    hand = await open_hand(world, player)
    take = next(label for label in button_labels(hand.response) if label.startswith("Take"))
    assert (await player.click(hand.response, label=take)).acknowledged
    assert "can't discard it this turn" in text_of(hand.response)
    with pytest.raises(IllegalAction) as refused:
        await world.service.act(table.id, player.id, Discard(upcard))
    assert str(refused.value)
    # Three cards that make no meld: a clear, private refusal.
    cards = list(game.hand_of(str(player.id)))
    odd = _no_meld(cards, game.rules)
    result = await player.select(
        hand.response, [str(c) for c in odd], custom_id=_meld_select(hand.response)
    )
    assert result.acknowledged and result.ephemeral
    assert "don't form a meld" in text_of(result.response)
    # A meld the hand does hold is laid through the same control.
    melds = [a for a in game.legal_actions(str(player.id)) if isinstance(a, LayMelds)]
    if melds:
        chosen = [str(c) for c in melds[0].melds[0].plain_cards]
        laid = await player.select(hand.response, chosen, custom_id=_meld_select(hand.response))
        assert laid.acknowledged
        assert "You laid" in text_of(hand.response)
        assert len(game.view(None).melds) == 1


def _meld_select(message: Any) -> str:
    for cid in custom_ids(message):
        if cid.endswith(":meld"):
            return cid
    raise AssertionError("no meld select")


def _no_meld(cards: list[Any], rules: Rules) -> list[Any]:
    from itertools import combinations

    for trio in combinations(cards, 3):
        try:
            meld_from_cards(list(trio), rules)
        except UserError:
            return list(trio)
    raise AssertionError("every three cards make a meld")


def test_meld_from_cards() -> None:
    rules = Rules.preset("rummy")
    assert meld_from_cards(parse_cards("7H 7S 7C"), rules).kind == "set"
    run = meld_from_cards(parse_cards("5D 3D 4D"), rules)
    assert run.kind == "run" and [c.rank for c in run.plain_cards] == [3, 4, 5]
    with pytest.raises(UserError):
        meld_from_cards(parse_cards("QH KH AH"), rules)  # aces low by default
    high = rules.with_options(ace_mode="high_or_low")
    assert meld_from_cards(parse_cards("QH KH AH"), high).kind == "run"
    with pytest.raises(UserError):
        meld_from_cards(parse_cards("2H 9S KD"), rules)


async def test_whole_rummy_game_goes_to_the_rummy_leaderboard(env: simcord.Env) -> None:
    world = await open_rummy(env, 2, target=1, turn_seconds=10)
    alice = world.players[0]
    await alice.click(world.message(), label="Add computer (normal)")
    lobby = text_of(world.message())
    assert "**Casual**, because the game is shortened to 1 point" in lobby
    await alice.click(world.message(), label="Start")
    game = world.table.game
    for _ in range(400):
        if game.is_over:
            break
        await env.advance_time(10)
    assert game.is_over and world.table is None
    notices = "\n".join(text_of(m) for m in world.channel.history())
    assert "Game over!" in notices and "Score sheet after hand" in notices
    # A game to 1 point is casual (issue 26): off the board, in the stats.
    board = await alice.slash(world.channel, "rummy leaderboard")
    assert board.acknowledged
    assert "Nobody is on the Rummy leaderboard" in text_of(board.response)
    other = await alice.slash(world.channel, "shanghai leaderboard")
    assert other.acknowledged
    assert "Nobody is on the Shanghai leaderboard" in text_of(other.response)
    mine = await alice.slash(world.channel, "rummy stats")
    simcord.assert_responded(mine, contains="1 Rummy game (0 ranked, 1 casual)")
    shanghai = await alice.slash(world.channel, "shanghai stats")
    simcord.assert_responded(shanghai, contains="no finished Shanghai games")


async def test_meld_laid_from_the_multi_select(env: simcord.Env) -> None:
    world = await open_rummy(env, 2)
    await world.players[0].click(world.message(), label="Start")
    table, game = world.table, world.table.game
    service = world.service
    for _ in range(60):  # draw and throw until someone holds a meld on their play step
        player = world.current()
        await service.act(table.id, player.id, DrawStock())
        legal = game.legal_actions(str(player.id))
        melds = [a for a in legal if isinstance(a, LayMelds)]
        if melds:
            break
        throw = next(a for a in legal if isinstance(a, Discard))
        await service.act(table.id, player.id, throw)
    assert melds, "nobody held a meld in 60 turns"
    hand = await open_hand(world, player)
    hinted = await player.click(hand.response, label="Hint")  # hints work for Rummy too
    assert hinted.acknowledged and "💡" in text_of(hand.response)
    chosen = [str(c) for c in melds[0].melds[0].plain_cards]
    laid = await player.select(hand.response, chosen, custom_id=_meld_select(hand.response))
    assert laid.acknowledged
    assert "You laid" in text_of(hand.response)
    assert len(game.view(None).melds) == 1


def test_the_melds_form_reads_cards_as_the_bot_prints_them() -> None:
    """Issue 24.5: ``8♥``, ``10♦`` and ``🃏`` (copied from the hand) read like ``8H``, ``10D``
    and ``JK``, in every language's meld words."""
    from bot.i18n.terms import melds_from_form
    from engine.actions import parse_action

    typed = "grupo: 8♥ 8♠ 8♣ | Reeks: 9♦ 10♦ 🃏=J♦ Q♦"
    written = "set: 8H 8S 8C | run: 9D 10D JK=JD QD"
    assert parse_action("down " + melds_from_form(typed)) == parse_action(
        "down " + melds_from_form(written)
    )


async def test_a_rummy_hand_offers_no_swap(env: simcord.Env) -> None:
    """Issue 24.5: Rummy has no jokers, so its turn line offers no swap."""
    world = await open_rummy(env, 2)
    await world.players[0].click(world.message(), label="Start")
    player = world.current()
    hand = await open_hand(world, player)
    await player.click(hand.response, label="Draw from stock")
    text = text_of(hand.response)
    assert "**Your turn.**" in text and "swap" not in text.lower()
    assert "Swap joker" not in button_labels(hand.response)


async def test_new_melds_then_discard_in_one_pick(env: simcord.Env) -> None:
    """Rummy's turn of melding is two picks too: draw, then "Lay run 2♥ 3♥ 4♥ 5♥ + set
    6♣ 6♦ 6♠, then discard…" (the hand's melds that share no card, the longest first)."""
    world = await open_rummy(env, 2)
    await world.players[0].click(world.message(), label="Start")
    game = world.table.game
    player = world.current()
    seat = game.current
    game.hands[seat] = parse_cards("6C 6D 6S 2H 3H 4H 5H 9C JD")
    hand = await open_hand(world, player)
    await player.click(hand.response, label="Draw from stock")
    drawn = game.hands[seat][-1]
    finish = next(
        item for item in controls(hand.response) if ":finish" in (item.get("custom_id") or "")
    )
    placeholder = finish["placeholder"]
    assert placeholder.startswith("Lay run 2♥ 3♥ 4♥ 5♥ + set 6♣ 6♦ 6♠"), placeholder
    assert placeholder.endswith(", then discard…")
    assert "m:9C" in [o["value"] for o in finish["options"]]
    picked = await player.select(hand.response, ["m:9C"], custom_id=finish["custom_id"])
    assert picked.acknowledged
    assert len(game.melds) == 2 and game.current != seat and str(game.pile[-1]) == "9C"
    assert sorted(map(str, game.hands[seat])) == sorted(["JD", str(drawn)])
    assert "You laid" in text_of(hand.response) and "You discarded 9♣" in text_of(hand.response)
