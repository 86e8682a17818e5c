"""Plays the engine offers since issue 11 reach the player's hand controls."""

from __future__ import annotations

import simcord

from bot.screens.text import table_text
from engine import Card, Game, Meld, Rules, TableMeld, parse_action
from engine.cards import parse_cards
from tools.reachable import unreachable

from .helpers import controls, open_hand, open_table, start, text_of


async def test_spanish_rules_go_down_and_lay_off_the_last_card_in_one_click(
    env: simcord.Env,
) -> None:
    """preset_004, deal 6 (D3): the 12th card only fits a meld on the table; the hand offers
    the go-down with that lay-off as one play (S37, E13)."""
    world = await open_table(env, 3, preset="preset_004")
    await start(world)
    p = world.current()
    game = world.table.game
    seat = game.current
    other = (seat + 1) % 3
    game.deal = 6
    game.hands[seat] = parse_cards("8H 8S 8C 3H 4H 5H 6H 9D 10D JD QD")
    game.stock[-1] = Card.parse("KS")
    game.down[other] = True
    game.melds = [TableMeld(other, Meld.parse("set: KH KD KC"))]
    hand = await open_hand(world, p)
    await p.click(hand.response, label="Draw from stock")
    await env.advance_time(8)
    assert "then lay off K♠ on #1" in text_of(hand.response)  # on the hand screen itself
    confirmed = await p.click(hand.response, label="Lay down these melds")
    assert confirmed.acknowledged
    assert game.deal == 7  # p went out, so deal 6 ended
    assert game.score_sheet[-1][seat] == 0


def test_rummy_table_text_says_who_laid_off_each_card() -> None:
    """R7: the engine keeps who laid off what; the table shows it next to the meld."""
    game = Game.new(["1", "2", "3"], Rules.preset("rummy"), seed=4)
    game.step, game.current = "play", 1
    game.hands[1] = parse_cards("9H 5H KD QC")
    game.melds = [TableMeld(2, Meld.parse("run: 6H 7H 8H"))]
    game.apply("2", parse_action("layoff 9H>0:high"))
    text = table_text(
        game.view(None), ["alice", "bob", "carol"], buy_deadline=None, turn_deadline=None
    )
    assert "#1 carol:" in text and "9♥ by bob" in text


async def test_spanish_rules_a_pair_that_may_only_be_laid_off_together_goes_out(
    env: simcord.Env,
) -> None:
    """Issue 29.1: at preset_004 a down player with ``JK JH`` may only lay both off together
    (no one-card lay-off is legal); the hand offers that play, and choosing it goes out."""
    from .helpers import custom_ids

    world = await open_table(env, 3, preset="preset_004")
    await start(world)
    p = world.current()
    game = world.table.game
    seat = game.current
    other = (seat + 1) % 3
    game.deal = 3
    game.step = "play"
    game.hands[seat] = parse_cards("JK JH")
    game.down[seat] = game.down[other] = True
    game.melds = [TableMeld(other, Meld.parse("set: JS JD JC"))]
    legal = game.legal_actions(str(p.id))
    assert not [a for a in legal if str(a).startswith("layoff") and "," not in str(a)]
    hand = await open_hand(world, p)
    batch = next(cid for cid in custom_ids(hand.response) if ":laybatch" in cid)
    choice = await p.select(hand.response, ["layoff JK>0, JH>0"], custom_id=batch)
    assert choice.acknowledged
    assert game.deal == 4  # p went out, so deal 3 ended
    assert game.score_sheet[-1][seat] == 0


async def test_spanish_rules_hundreds_of_pairs_ask_the_first_place_first(
    env: simcord.Env,
) -> None:
    """Two wild 2s on a dozen melds may only go together (preset_004): 240 pairs, too many
    for the four selects a screen has beside its Back button. Lay off asks where the first
    card goes, then lists only the pairs that start there; the pick goes out."""
    from .helpers import button_labels, custom_ids

    world = await open_table(env, 3, preset="preset_004")
    await start(world)
    p = world.current()
    game = world.table.game
    seat = game.current
    other = (seat + 1) % 3
    game.deal = 6
    game.step = "play"
    game.hands[seat] = parse_cards("2D 2S")
    game.down[seat] = game.down[other] = True
    runs = ["4C 5C 6C 7C", "4D 5D 6D 7D", "4H 5H 6H 7H", "4S 5S 6S 7S", "8C 9C 10C JC"]
    runs += ["8D 9D 10D JD", "8H 9H 10H JH", "8S 9S 10S JS"]
    sets = ["KH KD KC", "QH QD QC", "AH AD AC", "9H 9D 9C"]
    game.melds = [TableMeld(other, Meld.parse(f"run: {r}")) for r in runs] + [
        TableMeld(other, Meld.parse(f"set: {s}")) for s in sets
    ]
    together = [a for a in game.legal_actions(str(p.id)) if str(a).startswith("layoff")]
    assert len(together) > 100 and all("," in str(a) for a in together)
    snap = world.service.snapshot(world.table.id, p.id)
    assert unreachable(snap, game) == []  # every pair, through the first place
    hand = await open_hand(world, p)
    shown = await p.click(hand.response, label="Lay off")
    assert shown.acknowledged
    rows = hand.response.components
    assert len(rows) <= 5 and "Back" in button_labels(hand.response)
    start_id = next(cid for cid in custom_ids(hand.response) if ":laystart" in cid)
    first = str(together[0].items[0])
    await p.select(hand.response, [first], custom_id=start_id)
    pairs = [
        o["value"]
        for item in controls(hand.response)
        if ":laybatch" in (item.get("custom_id") or "")
        for o in item["options"]
    ]
    assert pairs and all(v.startswith(f"layoff {first},") for v in pairs)
    batch = next(cid for cid in custom_ids(hand.response) if ":laybatch" in cid)
    done = await p.select(hand.response, [pairs[0]], custom_id=batch)
    assert done.acknowledged
    assert game.deal == 7  # p went out, so deal 6 ended
    assert game.score_sheet[-1][seat] == 0
