"""Issue 23.3: jokers and lay-offs in few clicks. Each test clicks only what the player sees
and counts the clicks of the turn."""

from __future__ import annotations

from typing import Any

import simcord

from engine.actions import Discard, RequestBuy, TakeUpcard
from engine.cards import Card, parse_cards
from engine.melds import Meld
from engine.view import TableMeld

from .helpers import (
    World,
    button_labels,
    controls,
    custom_ids,
    open_hand,
    open_table,
    start,
    text_of,
)


def select_id(message: Any, verb: str) -> str:
    return next(cid for cid in custom_ids(message) if f":{verb}" in cid)


def select_of(message: Any, verb: str) -> dict[str, Any]:
    """The first select of ``verb`` on ``message``, as its payload."""
    for item in controls(message):
        if f":{verb}" in (item.get("custom_id") or ""):
            return dict(item)
    raise AssertionError(f"no {verb} select")


def options_of(message: Any, verb: str) -> list[dict[str, Any]]:
    return list(select_of(message, verb)["options"])


async def three_started(env: simcord.Env, preset: str | None = None) -> tuple[World, Any, Any, int]:
    """A started table of three (of ``preset``, if given): the world, the player to move, the
    game and their seat."""
    world = await open_table(env, 3, **({"preset": preset} if preset else {}))
    await start(world)
    game = world.table.game
    return world, world.current(), game, game.current


async def down_with(
    world: World,
    env: simcord.Env,
    hand_now: str,
    melds: tuple[str, ...] = ("set: 8H 8S 8C", "set: KD KC KS"),
    drawn: str | None = None,
) -> Any:
    """The player to move is down with ``melds`` on the table (by default 8♥ 8♠ 8♣ and
    K♦ K♣ K♠), holds ``hand_now`` and has drawn (``drawn``, if given): their play step."""
    game = world.table.game
    seat = game.current
    game.down[seat] = True
    game.played_this_deal[seat] = True
    game.melds = [TableMeld(seat, Meld.parse(meld)) for meld in melds]
    return await drawn_with(world, env, hand_now, drawn)


async def drawn_with(world: World, env: simcord.Env, hand_now: str, drawn: str | None) -> Any:
    """The player to move holds ``hand_now``, clicks Draw from stock (drawing ``drawn``, if
    given) and is at their play step: the hand message, redrawn for it."""
    game = world.table.game
    game.hands[game.current] = parse_cards(hand_now)
    if drawn is not None:
        game.stock[-1] = Card.parse(drawn)
    p = world.current()
    hand = await open_hand(world, p)
    await p.click(hand.response, label="Draw from stock")
    await env.advance_time(8)
    return hand


async def test_lay_down_and_discard_in_one_pick(env: simcord.Env) -> None:
    """The turn of going down is two clicks: draw, then "lay down these melds, then discard"."""
    world, p, game, seat = await three_started(env)
    hand = await drawn_with(world, env, "8H 8S 8C KD KC KS 3C 5D 7S 9H JD", None)
    values = [o["value"] for o in options_of(hand.response, "finish")]
    assert "d:3C" in values and not any(v.startswith("d:8") for v in values)
    picked = await p.select(hand.response, ["d:3C"], custom_id=select_id(hand.response, "finish"))
    assert picked.acknowledged
    assert game.down[seat] and len(game.melds) == 2
    assert game.current != seat and str(game.pile[-1]) == "3C"
    assert "You went down" in text_of(hand.response) and "You discarded 3♣" in text_of(
        hand.response
    )


async def test_lay_off_all_takes_a_second_copy_for_the_same_set(env: simcord.Env) -> None:
    """Two 8♦ and a K♥ fit the sets: "lay off all that fits" lays all three (it left the
    second 8♦ behind)."""
    world, p, game, seat = await three_started(env)
    hand = await down_with(world, env, "8D 8D KH 4C 6S")
    label = next(label for label in button_labels(hand.response) if label.startswith("Lay off all"))
    assert label == "Lay off all that fits (3)"
    done = await p.click(hand.response, label=label)
    assert done.acknowledged
    assert [len(m.meld) for m in game.melds] == [5, 4]
    assert Card.parse("8D") not in game.hand_of(str(p.id))
    assert game.current == seat  # the discard is still to come


async def test_lay_off_all_then_discard_in_one_pick(env: simcord.Env) -> None:
    world, p, game, seat = await three_started(env)
    hand = await down_with(world, env, "8D KH 4C 6S")
    drawn = game.hands[seat][-1]
    finish = options_of(hand.response, "finish")
    assert all(not o["value"].startswith("a:8") for o in finish)
    choice = f"a:{drawn}" if not drawn.is_joker and drawn.rank not in (8, 13) else "a:4C"
    picked = await p.select(hand.response, [choice], custom_id=select_id(hand.response, "finish"))
    assert picked.acknowledged
    assert game.current != seat and [len(m.meld) for m in game.melds][:2] == [4, 4]


async def test_a_joker_on_a_set_asks_no_suit(env: simcord.Env) -> None:
    """A joker that fits two sets has two places (one per set), not eight (four suits each);
    on the 8s it plays as the suit with the fewest naturals out of the player's sight. The
    lay-off select lists both places, so the joker goes where it is picked in one pick."""
    world, p, game, _ = await three_started(env)
    hand = await down_with(world, env, "JK 8D 8D 4C")
    places = [o["value"] for o in options_of(hand.response, "layoff") if o["value"][:2] == "JK"]
    assert len(places) == 2, places
    on_eights = next(v for v in places if v.startswith("JK>0"))
    # Both 8♦ of the two decks are in the hand: no one else can ever swap a joker declared 8♦
    # (one 8♥, 8♠ and 8♣ each are still out of sight).
    assert on_eights.endswith(":D"), on_eights
    laid = await p.select(hand.response, [on_eights], custom_id=select_id(hand.response, "layoff"))
    assert laid.acknowledged
    assert len(game.melds[0].meld) == 4 and Card.parse("JK") not in game.hand_of(str(p.id))


async def test_a_card_with_too_many_places_for_the_select_is_asked_where(
    env: simcord.Env,
) -> None:
    """When the places of the cards do not fit one select (a joker on sixteen runs), a card
    with several says how many, and the picker asks where it goes."""
    world, p, _, _ = await three_started(env)
    ranks = ("2 3 4", "5 6 7", "8 9 10", "J Q K")
    melds = tuple(
        "run: " + " ".join(f"{rank}{suit}" for rank in run.split())
        for run in ranks
        for suit in "CDHS"
    )
    hand = await down_with(world, env, "JK 9S 9H", melds=melds)
    joker = next(o for o in options_of(hand.response, "layoff") if o["value"] == "JK")
    assert "places" in joker["label"], joker
    shown = await p.select(hand.response, ["JK"], custom_id=select_id(hand.response, "layoff"))
    assert shown.acknowledged
    assert "Where does 🃏 go?" in text_of(hand.response)
    assert len(options_of(hand.response, "place")) == 25  # the first of the picker's pages


async def test_swap_a_joker_and_place_it_in_one_pick(env: simcord.Env) -> None:
    world, p, game, _ = await three_started(env)
    hand = await down_with(world, env, "8C 4C 6S 9H", melds=("set: 8H 8S JK=8C", "set: KD KC KS"))
    clicks = 0
    await p.click(hand.response, label="Swap joker")
    clicks += 1
    combined = [o for o in options_of(hand.response, "swap") if "|" in o["value"]]
    on_kings = next(o for o in combined if "|JK>1" in o["value"])
    assert ", then " in on_kings["label"]
    picked = await p.select(
        hand.response, [on_kings["value"]], custom_id=select_id(hand.response, "swap")
    )
    clicks += 1
    assert picked.acknowledged and clicks == 2
    assert not any(c.is_joker for c in game.hand_of(str(p.id)))
    assert [len(m.meld) for m in game.melds] == [3, 4]
    assert any(c.card.is_joker for c in game.melds[1].meld.cards)


async def test_with_nothing_else_to_pick_the_swaps_are_on_the_turns_screen(
    env: simcord.Env,
) -> None:
    """No lay-down or lay-off to finish with: the swaps (each with the joker's place) fill the
    free row of the play step, so swapping, placing and discarding take two picks."""
    world, p, game, seat = await three_started(env)
    melds = ("run: 5H JK=6H 7H 8H", "set: KD KC KS")
    hand = await down_with(world, env, "6H 2C 3D 9S", melds=melds, drawn="4C")
    assert "Swap joker" not in button_labels(hand.response)
    on_kings = next(o for o in options_of(hand.response, "swap") if "|JK>1" in o["value"])
    swap = select_id(hand.response, "swap")
    assert (await p.select(hand.response, [on_kings["value"]], custom_id=swap)).acknowledged
    discard = select_id(hand.response, "discard")
    assert (await p.select(hand.response, ["4C"], custom_id=discard)).acknowledged
    assert game.current != seat
    assert [len(m.meld) for m in game.melds] == [4, 4]


async def test_take_the_upcard_and_discard_in_one_pick(env: simcord.Env) -> None:
    """Taking the upcard hides nothing, so the whole turn is one pick: "Take 7♥, then
    discard…" offers the cards the rules let the player throw after taking it."""
    world, p, game, seat = await three_started(env)
    game.hands[seat] = parse_cards("3C 5D 7S 9H JD QS 2C 4D 6H 8S TC")
    game.pile[-1] = Card.parse("KH")
    hand = await open_hand(world, p)
    trial = game.copy()
    trial.apply(str(p.id), TakeUpcard())
    allowed = {str(a.card) for a in trial.legal_actions(str(p.id)) if isinstance(a, Discard)}
    options = options_of(hand.response, "takethrow")
    assert {o["value"] for o in options} == allowed and "QS" in allowed
    assert "Discard Q♠" in [o["label"] for o in options]
    picked = await p.select(hand.response, ["QS"], custom_id=select_id(hand.response, "takethrow"))
    assert picked.acknowledged
    assert game.current != seat and str(game.pile[-1]) == "QS"
    assert Card.parse("KH") in game.hand_of(str(p.id))
    assert Card.parse("QS") not in game.hand_of(str(p.id))
    content = text_of(hand.response)
    assert "You got K♥" in content and "You discarded Q♠" in content


async def test_take_and_discard_after_the_upcard_is_gone_changes_nothing(
    env: simcord.Env,
) -> None:
    """A pick from an older hand message, drawn before the player drew from the stock on a
    newer one (the upcard is no longer theirs to take), takes nothing and throws nothing."""
    world, p, game, seat = await three_started(env)
    old = await open_hand(world, p)
    takethrow = select_id(old.response, "takethrow")
    value = options_of(old.response, "takethrow")[0]["value"]
    new = await open_hand(world, p)
    await p.click(new.response, label="Draw from stock")
    await env.advance_time(8)
    held = list(game.hand_of(str(p.id)))
    pile = list(game.pile)
    answer = await p.select(old.response, [value], custom_id=takethrow)
    assert answer.acknowledged
    assert game.current == seat and game.step == "play"
    assert list(game.hand_of(str(p.id))) == held and list(game.pile) == pile
    assert "nothing was done" in text_of(answer.response)


async def test_a_take_from_an_older_screen_takes_nothing_when_another_card_is_up(
    env: simcord.Env,
) -> None:
    """A hand that drew a card and threw it back holds the same cards on its next turn. A
    take names no card, so Take (or Take …, then discard) on the older screen, which named
    the upcard of then, would take the card up now: it takes nothing, and says so."""
    world, p, game, seat = await three_started(env)
    old = await open_hand(world, p)
    older = await open_hand(world, p)  # a second message: an answer redraws the one clicked
    take_label = next(label for label in button_labels(old.response) if label.startswith("Take "))
    takethrow = select_id(older.response, "takethrow")
    value = options_of(older.response, "takethrow")[0]["value"]
    # Another card comes up over the same hand: the upcard and a stock card change places.
    shown = game.pile[-1]
    at = next(i for i, card in enumerate(game.stock) if card != shown)
    game.stock[at], game.pile[-1] = shown, game.stock[at]
    held = sorted(game.hand_of(str(p.id)), key=str)
    pile = list(game.pile)
    by_button = await p.click(old.response, label=take_label)
    by_pick = await p.select(older.response, [value], custom_id=takethrow)
    for answer in (by_button, by_pick):
        assert answer.acknowledged
        assert "nothing was done" in text_of(answer.response)
    assert game.current == seat and game.step == "draw"
    assert sorted(game.hand_of(str(p.id)), key=str) == held and list(game.pile) == pile
    fresh = await open_hand(world, p)
    now_up = [label for label in button_labels(fresh.response) if label.startswith("Take ")]
    assert now_up and take_label not in now_up


async def test_a_finish_pick_from_an_older_screen_lays_down_nothing(env: simcord.Env) -> None:
    """The pick "Lay down these melds, then discard 3♣" names the card, not the melds: on a
    hand that changed since the screen was drawn (three queens where it showed three kings)
    it would lay down melds the player never saw. It lays down nothing and shows the
    lay-down now."""
    world, p, game, seat = await three_started(env)
    hand = await drawn_with(world, env, "8H 8S 8C KD KC KS 3C 5D 7S 9H JD", None)
    finish = select_id(hand.response, "finish")
    assert "d:3C" in [o["value"] for o in options_of(hand.response, "finish")]
    kings = [Card.parse(text) for text in ("KD", "KC", "KS")]
    queens = {c: Card.parse("Q" + str(c)[1]) for c in kings}
    game.hands[seat] = [queens.get(c, c) for c in game.hands[seat]]
    held = sorted(game.hand_of(str(p.id)), key=str)
    answer = await p.select(hand.response, ["d:3C"], custom_id=finish)
    assert answer.acknowledged
    assert not game.down[seat] and not game.melds and game.current == seat
    assert sorted(game.hand_of(str(p.id)), key=str) == held
    assert "nothing was done" in text_of(answer.response)
    assert "Your hand changed" in text_of(answer.response)
    assert "Q♦" in text_of(answer.response) and "K♦" not in text_of(answer.response)


async def test_lay_off_all_then_discard_from_an_older_screen_lays_off_nothing(
    env: simcord.Env,
) -> None:
    """The pick "Lay off all that fits (2), then discard 4♣" on a hand that changed since (the 8♦ is
    gone) would lay off another count of cards than it said: nothing is done."""
    world, p, game, seat = await three_started(env)
    hand = await down_with(world, env, "8D KH 4C 6S", drawn="5S")
    assert "a:4C" in [o["value"] for o in options_of(hand.response, "finish")]
    game.hands[seat] = [Card.parse("9C") if str(c) == "8D" else c for c in game.hands[seat]]
    held = sorted(game.hand_of(str(p.id)), key=str)
    tables = [len(m.meld) for m in game.melds]
    answer = await p.select(hand.response, ["a:4C"], custom_id=select_id(hand.response, "finish"))
    assert answer.acknowledged
    assert game.current == seat and [len(m.meld) for m in game.melds] == tables
    assert sorted(game.hand_of(str(p.id)), key=str) == held
    assert "Your hand or the table changed" in text_of(answer.response)


async def test_lay_off_all_from_an_older_screen_lays_off_nothing(env: simcord.Env) -> None:
    """The button "Lay off all that fits (3)" on a hand that lost an 8♦ since would lay off
    two cards, not the three it said: nothing is done, and the turn is shown as it is now."""
    world, p, game, seat = await three_started(env)
    hand = await down_with(world, env, "8D 8D KH 4C 6S", drawn="5S")
    assert "Lay off all that fits (3)" in button_labels(hand.response)
    game.hands[seat].remove(Card.parse("8D"))
    game.hands[seat].append(Card.parse("9C"))
    held = sorted(game.hand_of(str(p.id)), key=str)
    answer = await p.click(hand.response, label="Lay off all that fits (3)")
    assert answer.acknowledged
    assert [len(m.meld) for m in game.melds] == [3, 3]
    assert sorted(game.hand_of(str(p.id)), key=str) == held
    assert "Your hand or the table changed" in text_of(answer.response)


async def test_a_take_that_buys_may_beat_offers_no_discard_with_it(env: simcord.Env) -> None:
    """Under preset_004 a down player's take waits for the buy window (buys beat it), so the
    card is not sure to be theirs: their hand offers Take alone, not "Take …, then discard"."""
    world, p, game, seat = await three_started(env, preset="preset_004")
    undown = await open_hand(world, p)
    assert options_of(undown.response, "takethrow")
    game.down[seat] = True
    game.played_this_deal[seat] = True
    hand = await open_hand(world, p)
    assert any(label.startswith("Take ") for label in button_labels(hand.response))
    assert not any(":takethrow" in cid for cid in custom_ids(hand.response))


async def test_lay_down_lay_off_and_discard_in_one_pick(env: simcord.Env) -> None:
    """Where a player may lay off on the turn they go down (preset_004), the finish is "lay
    down these melds, lay off all that fits, then discard": the 8♣ left over goes on the
    8s on the table."""
    world, p, game, seat = await three_started(env, preset="preset_004")
    other = (seat + 1) % 3
    game.down[other] = game.played_this_deal[other] = True
    game.melds = [TableMeld(other, Meld.parse("set: 8H 8S 8D"))]
    hand = await drawn_with(world, env, "5H 5S 5C KD KC KS 8C 4D 7S 9H JD", "QC")
    finish = select_of(hand.response, "finish")
    assert finish["placeholder"].startswith("Lay down these melds, lay off all that fits (1)")
    assert "b:4D" in [o["value"] for o in finish["options"]]
    picked = await p.select(hand.response, ["b:4D"], custom_id=finish["custom_id"])
    assert picked.acknowledged
    assert game.down[seat] and len(game.melds) == 3 and len(game.melds[0].meld) == 4
    assert game.current != seat and str(game.pile[-1]) == "4D"


async def test_one_card_picked_at_two_places_is_refused_and_changes_nothing(
    env: simcord.Env,
) -> None:
    world, p, game, _ = await three_started(env)
    hand = await down_with(world, env, "JK 8D 8D 4C")
    places = [o["value"] for o in options_of(hand.response, "layoff") if o["value"][:2] == "JK"]
    held = list(game.hand_of(str(p.id)))
    answer = await p.select(hand.response, places, custom_id=select_id(hand.response, "layoff"))
    assert answer.acknowledged
    assert list(game.hand_of(str(p.id))) == held and [len(m.meld) for m in game.melds] == [3, 3]
    text = (text_of(answer.response) if answer.response else "") + text_of(hand.response)
    assert "Pick one place for each 🃏 you hold." in text, text


async def test_take_and_discard_beats_a_buy_request_in_its_window(env: simcord.Env) -> None:
    """The player to move comes first: their take-and-discard takes the upcard while another
    player's buy request waits in the window, and that request comes to nothing."""
    world, p, game, seat = await three_started(env)
    buyer = int(game.players[(seat + 1) % 3])
    upcard = game.pile[-1]
    assert world.table.window.is_running(game, world.service.clock())
    await world.service.act(world.table.id, buyer, RequestBuy())
    hand = await open_hand(world, p)
    throw = options_of(hand.response, "takethrow")[0]["value"]
    picked = await p.select(hand.response, [throw], custom_id=select_id(hand.response, "takethrow"))
    assert picked.acknowledged
    assert upcard in game.hand_of(str(p.id)) and len(game.hand_of(str(p.id))) == 11
    assert len(game.hand_of(str(buyer))) == 11 and str(game.pile[-1]) == throw
