"""The private hand is a Components V2 layout, drawn for a phone first: the turn's prompt on
top, the picture of the hand at full width (a media gallery naming the attachment), the
hand's words, then the controls in action rows. Every screen keeps inside Discord's 40
components and 4,000 characters, and a follow edit that does not change the hand sends no
picture again: the layout names the one the message has."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord
import pytest
import simcord

from bot.screens.attachments import HAND_FILE
from bot.screens.hand_controls import MAX_OPTIONS, HandText
from bot.views.hand import HandButton, render_hand
from bot.views.hand_layout import MAX_COMPONENTS, MAX_TEXT, count_components, hand_layout
from engine.actions import LayOff, LayOffItem
from engine.cards import Card
from tools.big_hands import pile_up

from .helpers import button_labels, discard_id, open_hand, open_table, start, text_of

V2 = 1 << 15
CONTAINER, GALLERY, TEXT, ROW = 17, 12, 10, 1
SEED = 7


def _tree(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for component in components:
        out.append(component)
        out.extend(_tree(component.get("components") or []))
    return out


def _gallery_urls(components: list[dict[str, Any]]) -> list[str]:
    return [
        str(item["media"]["url"])
        for component in _tree(components)
        if component.get("type") == GALLERY
        for item in component.get("items", [])
    ]


def _controls(ui: discord.ui.LayoutView) -> list[Any]:
    """The buttons and selects of ``ui`` (a hand's are ``DynamicItem``s around them)."""
    items = [getattr(child, "item", child) for child in ui.walk_children()]
    return [item for item in items if isinstance(item, (discord.ui.Button, discord.ui.Select))]


def _hand_payloads(env: simcord.Env, since: int) -> list[dict[str, Any]]:
    """The bodies of the requests since ``since`` that drew a hand (a callback or a webhook
    edit carrying a V2 layout)."""
    out = []
    for request in env.http_requests[since:]:
        body = request.json or {}
        data = body.get("data", body) if isinstance(body, dict) else {}
        if isinstance(data, dict) and int(data.get("flags") or 0) & V2:
            out.append(data)
    return out


async def test_the_open_hand_is_a_v2_layout_with_its_picture_in_a_gallery(
    env: simcord.Env,
) -> None:
    world = await open_table(env, 3)
    await start(world)
    p = world.current()
    before = len(env.http_requests)
    hand = await open_hand(world, p)
    message = hand.response
    assert message.flags.value & V2
    assert message.content == ""  # a V2 message carries its words in text displays
    top = [component["type"] for component in message.components]
    assert top[0] == CONTAINER and set(top[1:]) == {ROW}  # the controls last, in rows
    inside = [component["type"] for component in message.components[0]["components"]]
    assert inside[0] == TEXT and GALLERY in inside  # the prompt first, then the picture
    assert "Your turn" in message.components[0]["components"][0]["content"]
    # The gallery names the attachment, which the message carries.
    sent = _hand_payloads(env, before)
    assert sent and _gallery_urls(sent[-1]["components"]) == [f"attachment://{HAND_FILE}"]
    assert [a.filename for a in message.attachments] == [HAND_FILE]
    assert _gallery_urls(message.components) == [message.attachments[0].url]
    assert len(_tree(message.components)) <= MAX_COMPONENTS
    words = text_of(message)
    assert "Your hand" in words and "Deal 1" in words
    # The controls still work: a draw, then a discard.
    await p.click(message, label="Draw from stock")
    await env.advance_time(8)  # the buy window of the upcard closes: the card comes
    card = world.table.game.hand_of(str(p.id))[0]
    done = await p.select(message, [str(card)], custom_id=discard_id(message))
    assert done.acknowledged and f"You discarded {card.pretty()}" in text_of(message)


async def test_a_follow_edit_that_keeps_the_hand_sends_no_picture(env: simcord.Env) -> None:
    """Another player's draw and discard reach this one's open hand: it is edited (what the
    table did, whose turn it is), its picture kept as it was (the same attachment, nothing
    uploaded)."""
    world = await open_table(env, 3)
    await start(world)
    p = world.current()
    other = next(m for m in world.players if m.id != p.id)
    theirs = await open_hand(world, other)
    shown = theirs.response.attachments
    assert [a.filename for a in shown] == [HAND_FILE]
    cards = list(world.table.game.hand_of(str(other.id)))
    said = text_of(theirs.response)
    mine = await open_hand(world, p)
    await p.click(mine.response, label="Draw from stock")
    await env.advance_time(8)
    card = world.table.game.hand_of(str(p.id))[0]
    before = len(env.http_requests)
    await p.select(mine.response, [str(card)], custom_id=discard_id(mine.response))
    assert list(world.table.game.hand_of(str(other.id))) == cards  # their hand is the same
    pushes = [
        r
        for r in env.http_requests[before:]
        if r.method == "PATCH" and r.path.endswith("/messages/@original")
    ]
    assert pushes, "the other hand was not followed"
    assert text_of(theirs.response) != said  # redrawn: the discard, the turn moved on
    for push in pushes:
        body = push.json or {}
        assert "attachments" not in body  # nothing uploaded, nothing dropped
    assert [a.id for a in theirs.response.attachments] == [a.id for a in shown]
    assert theirs.response.flags.value & V2
    assert _gallery_urls(theirs.response.components) == [shown[0].url]


async def test_the_biggest_hands_keep_inside_the_limits(env: simcord.Env) -> None:
    """An 80-card hand on every screen, and a joker with 40 places (the paged place picker):
    each layout within 40 components, nested ones counted, and 4,000 characters."""
    world = await open_table(env, 8, buy_limit="unlimited")
    await start(world)
    game = world.table.game
    seat = pile_up(game, seed=SEED)
    user = int(game.players[seat])
    snap = world.service.snapshot(world.table.id, user)
    assert len(snap.view.hand or ()) >= 80
    joker = Card.parse("JK")
    items = [LayOffItem(joker, meld, end, None) for meld in range(20) for end in ("low", "high")]
    places = replace(snap, legal=tuple(LayOff((item,)) for item in items))
    screens = [
        render_hand(snap, "s"),
        render_hand(snap, "r", mode="down"),
        render_hand(snap, "s", mode="layoff"),
        render_hand(snap, "s", mode="swap"),
        render_hand(snap, "s", mode="options"),
        render_hand(places, "s", mode="layoff", picked=joker),
    ]
    for ui in screens:
        assert isinstance(ui, discord.ui.LayoutView)
        assert count_components(ui) <= MAX_COMPONENTS
        texts = [c for c in ui.walk_children() if isinstance(c, discord.ui.TextDisplay)]
        assert texts and sum(len(c.content) for c in texts) <= MAX_TEXT
    picker = screens[-1]
    selects = [item for item in _controls(picker) if isinstance(item, discord.ui.Select)]
    offered = [option.value for select in selects for option in select.options]
    assert sorted(offered) == sorted(str(item) for item in items)
    assert len(selects) == 2 and all(len(s.options) <= MAX_OPTIONS for s in selects)


@pytest.mark.parametrize("words", [10, 5000])
def test_five_full_rows_and_long_words_fit(words: int) -> None:
    """The most a hand screen can hold (5 rows of 5 buttons) with words of any length: the
    text displays merge to leave the controls room, and the words are cut at 4,000."""
    rows = [
        [HandButton(1, f"{row}{column}".zfill(8), "s", "draw", label="x") for column in range(5)]
        for row in range(5)
    ]
    parts = HandText("Your turn", "n" * words, "h" * words, "e" * words)
    ui = hand_layout(parts, rows, alt="Your hand")
    assert count_components(ui) <= MAX_COMPONENTS
    texts = [c.content for c in ui.walk_children() if isinstance(c, discord.ui.TextDisplay)]
    assert sum(map(len, texts)) <= MAX_TEXT
    assert texts[0].startswith("Your turn")
    assert len(_controls(ui)) == 25


async def test_a_hand_redrawn_over_the_leave_question_has_its_picture_again(
    env: simcord.Env,
) -> None:
    """The question "Leave this game?" shows no picture; a push that draws the hand over it
    sends the picture again (a layout naming a picture the message lacks is refused)."""
    world = await open_table(env, 3)
    await start(world)
    p = world.current()
    other = next(m for m in world.players if m.id != p.id)
    theirs = await open_hand(world, other)
    await other.click(theirs.response, label="⚙️ Options")
    asked = await other.click(theirs.response, label="Leave game")
    assert asked.acknowledged and "Leave this game?" in text_of(theirs.response)
    assert theirs.response.attachments == [] and theirs.response.flags.value & V2
    mine = await open_hand(world, p)
    await p.click(mine.response, label="Draw from stock")
    await env.advance_time(8)
    card = world.table.game.hand_of(str(p.id))[0]
    await p.select(mine.response, [str(card)], custom_id=discard_id(mine.response))
    words = text_of(theirs.response)
    assert "Leave this game?" not in words and "Your hand" in words  # followed, redrawn
    assert [a.filename for a in theirs.response.attachments] == [HAND_FILE]
    assert _gallery_urls(theirs.response.components) == [theirs.response.attachments[0].url]


def _answer_bodies(env: simcord.Env, since: int) -> list[dict[str, Any]]:
    """What the answers to clicks since ``since`` sent: each callback's or each edit of the
    original response's data."""
    out = []
    for request in env.http_requests[since:]:
        body = request.json if isinstance(request.json, dict) else {}
        if request.path.endswith("/callback") and isinstance(body.get("data"), dict):
            out.append(body["data"])
        elif request.path.endswith("/messages/@original") and request.method == "PATCH":
            out.append(body)
    return out


async def test_a_click_that_keeps_the_picture_sends_none_and_one_that_changes_it_does(
    env: simcord.Env,
) -> None:
    world = await open_table(env, 3)
    await start(world)
    p = world.current()
    hand = await open_hand(world, p)
    shown = [a.id for a in hand.response.attachments]
    before = len(env.http_requests)
    await p.click(hand.response, label="⚙️ Options")
    await p.click(hand.response, label="Back")
    hinted = await p.click(hand.response, label="Hint")
    assert hinted.acknowledged and "💡" in text_of(hand.response)
    sent = _answer_bodies(env, before)
    assert len(sent) >= 3 and all(V2 & int(body.get("flags") or 0) for body in sent)
    assert all("attachments" not in body for body in sent)  # nothing uploaded, nothing dropped
    assert [a.id for a in hand.response.attachments] == shown
    assert _gallery_urls(hand.response.components) == [hand.response.attachments[0].url]
    before = len(env.http_requests)
    await p.click(hand.response, label="Sort by rank")  # the picture groups by rank now
    sent = _answer_bodies(env, before)
    assert [len(body.get("attachments", [])) for body in sent] == [1]
    assert [a.id for a in hand.response.attachments] != shown


async def test_buy_and_pass_in_a_followed_hand_keep_its_picture(env: simcord.Env) -> None:
    """Asked about the upcard by a push, a player who waits answers in their hand: the
    answer keeps the picture (their cards did not change), nothing is uploaded."""
    world = await open_table(env, 3)
    await start(world)
    p = world.current()
    game = world.table.game
    other = world.player(int(game.players[(game.current + 2) % 3]))  # not next: may buy
    theirs = await open_hand(world, other)
    await other.click(theirs.response, label="⚙️ Options")
    await other.click(theirs.response, label="Ask me about every buy")
    await other.click(theirs.response, label="Back")
    mine = await open_hand(world, p)
    await p.click(mine.response, label="Draw from stock")
    await env.advance_time(8)
    card = game.hand_of(str(p.id))[0]
    await p.select(mine.response, [str(card)], custom_id=discard_id(mine.response))
    shown = [a.id for a in theirs.response.attachments]
    labels = button_labels(theirs.response)
    assert "Pass" in labels, labels  # the push asked them
    before = len(env.http_requests)
    passed = await other.click(theirs.response, label="Pass")
    assert passed.acknowledged
    sent = _answer_bodies(env, before)
    assert sent and all("attachments" not in body for body in sent)
    assert [a.id for a in theirs.response.attachments] == shown


#: Discord's component types: a button, and the selects (string, user, role, mentionable,
#: channel). An action row holds up to five buttons, or one select and nothing else.
BUTTON, SELECTS = 2, {3, 5, 6, 7, 8}


def _rows_breaking_discords_rule(components: list[dict[str, Any]]) -> list[list[int]]:
    """The action rows of a payload that Discord refuses (50035), as their children's types."""
    broken = []
    for component in _tree(components):
        if component.get("type") != ROW:
            continue
        kinds = [child["type"] for child in component.get("components", [])]
        one_select = len(kinds) == 1 and kinds[0] in SELECTS
        buttons = 1 <= len(kinds) <= 5 and all(kind == BUTTON for kind in kinds)
        if not (one_select or buttons):
            broken.append(kinds)
    return broken


def _give_distinct(game: Any, seat: int, count: int) -> None:
    """Give ``seat`` a hand of ``count`` different cards in its play step (the others 11
    each, the rest the stock); every card stays in the game exactly once."""
    pool = sorted(list(game.stock) + [card for hand in game.hands for card in hand], key=str)
    mine: list[Card] = []
    rest: list[Card] = []
    for card in pool:
        if len(mine) < count and str(card) not in {str(m) for m in mine}:
            mine.append(card)
        else:
            rest.append(card)
    assert len(mine) == count
    hands: list[list[Card]] = [[] for _ in game.players]
    hands[seat] = mine
    for other in range(len(game.players)):
        if other != seat:
            hands[other], rest = rest[:11], rest[11:]
    game.hands, game.stock, game.step = hands, rest, "play"


@pytest.mark.simcord(settle_timeout=30)  # 53 hands opened and drawn: real work on a busy machine
async def test_a_hand_of_every_distinct_card_count_opens_within_discords_row_rule(
    env: simcord.Env,
) -> None:
    """Hands of 1 to every distinct card of the deck (53: a third page of the discard), each
    opened as a player opens it; every payload's rows are five buttons or one select."""
    world = await open_table(env, 3)
    await start(world)
    game = world.table.game
    seat = game.current
    p = world.player(int(game.players[seat]))
    distinct = len({str(card) for card in [*game.stock, *(c for h in game.hands for c in h)]})
    assert distinct == 53
    for count in range(1, distinct + 1):
        _give_distinct(game, seat, count)
        before = len(env.http_requests)
        hand = await open_hand(world, p)
        payloads = _hand_payloads(env, before)
        assert payloads, count
        for payload in payloads:
            assert _rows_breaking_discords_rule(payload["components"]) == [], count
            assert len(_tree(payload["components"])) <= MAX_COMPONENTS, count
        offered = [
            option["value"]
            for component in _tree(hand.response.components)
            if component.get("type") in SELECTS and ":discard" in component.get("custom_id", "")
            for option in component["options"]
        ]
        assert len(offered) == count  # every card can be thrown, from one page or another
