"""The public messages are Components V2 layouts: words in text displays inside a container,
the picture in a media gallery that names its attachment, the buttons in action rows last; an
edit that keeps the picture uploads nothing; messages posted by an older release (content,
an embed, classic rows) still answer their clicks and are edited into a layout."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
import pytest
import simcord

from bot.screens.attachments import SHEET_FILE, TABLE_FILE
from bot.screens.sheet_text import TEXT_WIDTH as SHEET_TEXT_WIDTH
from bot.screens.sheet_text import visible
from bot.views.table import TableButton
from bot.views.table_layout import public_layout
from engine.cards import Card, parse_cards
from tools.bench_play import Recorder

from .helpers import (
    button_labels,
    container_text,
    controls,
    custom_ids,
    discard_id,
    gallery_urls,
    heading_of,
    is_layout,
    open_hand,
    open_table,
    start,
    text_of,
)
from .test_deal_pause import end_deal_one, two_deal_table
from .test_languages import flush_outboxes

V2 = 1 << 15


def walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component of a payload, nested ones included."""
    for component in components:
        yield component
        yield from walk(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            yield component["accessory"]


def sent(env: simcord.Env, channel_id: int, since: int = 0) -> list[Any]:
    """The bot's posts and edits of messages in ``channel_id`` since request ``since``."""
    prefix = f"/channels/{channel_id}/messages"
    return [
        r
        for r in env.http_requests[since:]
        if r.path.startswith(prefix) and r.method in ("POST", "PATCH") and r.json
    ]


def assert_within_limits(payload: dict[str, Any]) -> None:
    """A V2 payload as Discord takes it: the flag, no content nor embeds, a container, at most
    40 components and 4,000 characters of text displays."""
    assert payload["flags"] & V2
    assert not payload.get("content") and not payload.get("embeds")
    components = list(walk(payload["components"]))
    assert len(components) <= 40
    assert sum(len(c["content"]) for c in components if c["type"] == 10) <= 4000
    assert any(c["type"] == 17 for c in payload["components"])
    # The buttons come last, in action rows, after the words and the picture.
    kinds = [c["type"] for c in payload["components"]]
    assert kinds[kinds.index(17) + 1 :] == [1] * (len(kinds) - kinds.index(17) - 1)


async def test_the_lobby_is_a_layout_with_its_buttons_in_rows(env: simcord.Env) -> None:
    world = await open_table(env, 3)
    lobby = world.message()
    assert is_layout(lobby) and lobby.flags.value & V2
    assert heading_of(lobby) == "Shanghai: table open"
    text = text_of(lobby)
    assert all(f"{n}. {p.name}" in text for n, p in enumerate(world.players, start=1))
    assert button_labels(lobby)[:3] == ["Join", "Leave", "Start"]
    table_id = world.table.id
    assert f"sh:join:{table_id}" in custom_ids(lobby)
    (edit,) = [r for r in sent(env, world.channel.id) if r.method == "PATCH"][-1:]
    assert_within_limits(edit.json)
    # The host is named, not pinged: the lobby was posted with no mentions allowed.
    opened = next(r for r in env.http_requests if r.path.endswith("/callback"))
    assert opened.json["data"]["allowed_mentions"]["parse"] == []


async def test_the_table_message_is_a_layout_and_an_edit_keeping_the_picture_uploads_nothing(
    env: simcord.Env,
) -> None:
    """The table message is a layout naming its picture. The first click in a hand carries it
    (posted anew as that click's follow-up: a new message uploads its picture, Discord takes
    no attachment of another message); from then on an edit that keeps the picture, through
    the click's webhook, uploads nothing and names the attachment the message has."""
    world = await open_table(env, 2)
    await start(world)
    await env.advance_time(9)  # the first upcard's buy window
    p = world.current()
    other = next(m for m in world.players if m.id != p.id)
    hand = await open_hand(world, p)
    await open_hand(world, other)
    message = world.message()
    assert is_layout(message)
    assert [a.filename for a in message.attachments] == [TABLE_FILE]
    assert gallery_urls(message) == [message.attachments[0].url]
    assert button_labels(message)[0] == "My hand" and len(button_labels(message)) == 4
    tables = [r.json for r in sent(env, world.channel.id) if "sh:hand:" in str(r.json)]
    drawn = tables[-1]  # the last draw of the table message (after it, the lobby's strip)
    assert_within_limits(drawn)
    [gallery] = [c for c in walk(drawn["components"]) if c["type"] == 12]
    assert gallery["items"][0]["media"]["url"] == f"attachment://{TABLE_FILE}"
    assert gallery["items"][0]["description"]  # alt text for screen readers

    assert (await p.click(hand.response, label="Draw from stock")).acknowledged
    card = world.table.game.hand_of(str(p.id))[0]
    await p.select(hand.response, [str(card)], custom_id=discard_id(hand.response))
    await env.advance_time(9)  # the buy window
    await flush_outboxes(env)
    moved = world.message()  # carried on p's click from here on
    assert moved.id != message.id and is_layout(moved)
    assert [a.filename for a in moved.attachments] == [TABLE_FILE]
    q = world.current()
    assert q.id == other.id
    screen = await open_hand(world, q)
    before = len(env.http_requests)
    recorder = Recorder()
    with recorder.installed():
        assert (await q.click(screen.response, label="Draw from stock")).acknowledged
        card = world.table.game.hand_of(str(q.id))[0]
        await q.select(screen.response, [str(card)], custom_id=discard_id(screen.response))
        await flush_outboxes(env)
    edits = [
        r
        for r in env.http_requests[before:]
        if r.json and r.path.endswith(f"/messages/{moved.id}") and r.method == "PATCH"
    ]
    assert edits and all(r.path.startswith("/webhooks/") for r in edits)
    assert not sent(env, world.channel.id, before)  # nothing by REST on the token
    for edit in edits:
        assert_within_limits(edit.json)
        assert "attachments" not in edit.json
    carried = [c for c in recorder.calls if c.path.endswith(f"/messages/{moved.id}")]
    assert carried and sum(c.uploaded for c in carried) == 0  # no picture went up again
    message = world.message()
    assert message.id == moved.id
    assert [a.filename for a in message.attachments] == [TABLE_FILE]
    assert gallery_urls(message) == [message.attachments[0].url]
    assert f"Upcard: **{card.pretty()}**" in container_text(message)


async def test_a_moved_table_message_keeps_its_words_and_loses_its_controls(
    env: simcord.Env,
) -> None:
    world = await open_table(env, 2)
    await start(world)
    await env.advance_time(9)
    first = world.message().id
    p = world.current()
    hand = await open_hand(world, p)
    await p.click(hand.response, label="Draw from stock")
    card = world.table.game.hand_of(str(p.id))[0]
    await p.select(hand.response, [str(card)], custom_id=discard_id(hand.response))
    await env.advance_time(5)
    assert world.message().id != first  # the turn's ping moved it to the bottom
    old = next(m for m in world.channel.history() if m.id == first)
    assert is_layout(old) and custom_ids(old) == [] and old.attachments == []
    assert text_of(old)  # never left empty
    nxt = world.current()
    assert f"<@{nxt.id}>" in text_of(world.message())


async def test_the_deal_recap_is_a_layout_with_its_chart_and_next_deal_button(
    env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.service import timers

    monkeypatch.setattr(timers, "DEAL_PAUSE_SECONDS", 600.0)
    world = await two_deal_table(env)
    await end_deal_one(world, env)
    await flush_outboxes(env)
    sheet = next(m for m in world.channel.history() if "Score sheet after deal 1" in text_of(m))
    assert is_layout(sheet)
    assert [a.filename for a in sheet.attachments] == [SHEET_FILE]
    assert gallery_urls(sheet) == [sheet.attachments[0].url]
    assert button_labels(sheet) == ["Next deal now"]


async def go_out_with(world: Any, env: Any, hand: str) -> None:
    """The player to move holds ``hand`` (the deal's contract), draws KD, lays the contract
    down and goes out discarding KD: every other seat scores the cards left in their hand."""
    game = world.table.game
    player = world.current()
    game.hands[game.current] = parse_cards(hand)
    game.stock[-1] = Card.parse("KD")
    screen = await open_hand(world, player)
    assert (await player.click(screen.response, label="Draw from stock")).acknowledged
    await env.advance_time(8)
    assert (await player.click(screen.response, label="Lay down these melds")).acknowledged
    picked = await player.select(screen.response, ["KD"], custom_id=discard_id(screen.response))
    assert picked.acknowledged


def recap_of(world: Any, deal: int) -> tuple[Any, list[str]]:
    """Deal ``deal``'s recap as the channel shows it, and the lines of its score sheet."""
    title = f"Score sheet after deal {deal}"
    recap = next(m for m in world.channel.history() if title in text_of(m))
    assert is_layout(recap)
    lines = container_text(recap).partition(title)[2].splitlines()[1:]
    over = [n for n, line in enumerate(lines) if "Game over" in line]  # the standings follow
    return recap, lines[: over[0]] if over else lines


@pytest.mark.parametrize("deals", [3, 2])
async def test_the_recap_says_which_number_is_the_deal_and_which_the_total(
    env: Any, monkeypatch: pytest.MonkeyPatch, deals: int
) -> None:
    """Four players, two deals (the second the game's last when ``deals`` is 2): each
    player's line names this deal's score and the running total, fits a phone, and keeps the
    seat order and the leader's star."""
    from bot.service import timers

    monkeypatch.setattr(timers, "DEAL_PAUSE_SECONDS", 600.0)
    world = await open_table(env, 4, deals=deals)
    await start(world)
    names = [p.name for p in world.players]
    sheets: list[list[int]] = []
    for deal, hand in ((1, "8H 8S 8C 5H 5S 5C"), (2, "8H 8S 8C 4H 5H 6H 7H")):
        game = world.table.game  # the table is gone once the game is over
        await go_out_with(world, env, hand)
        await flush_outboxes(env)
        sheets.append(list(game.score_sheet[-1]))
        recap, lines = recap_of(world, deal)
        totals = [sum(row[p] for row in sheets) for p in range(4)]
        fence = [n for n, line in enumerate(lines) if line == "```"]
        assert lines[fence[0] + 1].split() == ["Deal", "Total"]
        rows = lines[fence[0] + 2 : fence[1]]
        assert [row.split()[0] for row in rows] == names  # the seats' order
        for player, row in enumerate(rows):
            assert row.split()[1:3] == [str(sheets[-1][player]), str(totals[player])], row
        leader = min(range(4), key=lambda p: totals[p])
        starred = [row for row in rows if "★" in row]
        assert starred == ([] if deal == deals else [rows[leader]])  # none once it is over
        assert max(len(visible(line)) for line in lines) <= SHEET_TEXT_WIDTH
        if deal == deals:  # the game-over recap: the same sheet, then the standings
            assert "Game over" in text_of(recap)
            break
        assert (await world.players[0].click(recap, label="Next deal now")).acknowledged
        await flush_outboxes(env)


async def test_an_old_release_table_message_still_answers_and_becomes_a_layout(
    env: simcord.Env,
) -> None:
    """A table message posted before the layouts (content, an embed and classic rows): its
    My hand still opens the hand, and the next redraw turns it into a layout (Discord allows
    the V2 flag on an edit once content and embeds are cleared): the click moves the table
    onto its follow-up and strips the old message into a layout of words."""
    world = await open_table(env, 2)
    await start(world)
    await env.advance_time(9)
    table = world.table
    channel = env.bot.get_channel(world.channel.id)
    classic = discord.ui.View(timeout=None)
    classic.add_item(TableButton("hand", table.id, label="My hand"))
    old = await channel.send(
        "what happened", embed=discord.Embed(title="Shanghai: deal 1"), view=classic
    )
    await world.service.set_message(table.id, old.id)
    env.bot.publisher.posted(world.service.public(table.id), old.id)
    message = world.message()
    assert message.id == old.id and not is_layout(message) and message.embeds
    p = world.current()
    hand = await p.click(message, label="My hand")
    assert hand.acknowledged and hand.ephemeral
    env.bot.publisher.refresh(world.service.public(table.id))
    await env.advance_time(5)
    await flush_outboxes(env)
    # The click carries the table message from now on (posted anew as its follow-up); the old
    # release's message is stripped into a layout that keeps only words.
    stripped = next(m for m in world.channel.history() if m.id == old.id)
    assert is_layout(stripped) and not stripped.embeds and not stripped.content
    assert not controls(stripped) and text_of(stripped)
    message = world.message()
    assert is_layout(message) and not message.embeds and not message.content
    assert gallery_urls(message) == [message.attachments[0].url]
    assert "My hand" in button_labels(message)


async def test_the_layouts_buttons_work_after_a_restart(env: simcord.Env, make_bot: Any) -> None:
    world = await open_table(env, 2)
    await start(world)
    await env.advance_time(9)
    await env.restart_bot(make_bot())
    message = world.message()
    assert is_layout(message)
    hand = await world.current().click(message, label="My hand")
    assert hand.acknowledged and hand.ephemeral
    history = await world.players[0].click(message, label="History")
    simcord.assert_responded(history, contains="First upcard:", ephemeral=True)


def test_a_layout_stays_within_discords_limits_whatever_it_is_given() -> None:
    """Many long blocks, long news and full rows: at most 40 components and 4,000 characters
    of words, the first blocks kept whole, the picture and every button kept."""
    rows = [[TableButton("join", 1, label=f"b{row}{n}") for n in range(5)] for row in range(3)]
    layout = public_layout(
        [f"block {n} " + "x" * 600 for n in range(30)],
        news="n" * 2500,
        picture=(TABLE_FILE, "the table"),
        rows=rows,
    )
    payload = {"flags": V2, "components": layout.to_components()}
    assert_within_limits(payload)
    texts = [c["content"] for c in walk(payload["components"]) if c["type"] == 10]
    assert texts[0] == "n" * 2000 and texts[1].startswith("block 0 ") and len(texts[1]) == 608
    assert sum(1 for c in walk(payload["components"]) if c["type"] == 12) == 1
    assert sum(1 for c in walk(payload["components"]) if c["type"] == 2) == 15


async def test_a_table_of_eight_stays_within_discords_limits(env: simcord.Env) -> None:
    world = await open_table(env, 8)
    assert_within_limits([r for r in sent(env, world.channel.id) if r.method == "PATCH"][-1].json)
    await start(world)
    await env.advance_time(9)
    drawn = [r.json for r in sent(env, world.channel.id) if "sh:hand:" in str(r.json)]
    assert drawn and all(assert_within_limits(payload) is None for payload in drawn)


async def test_an_old_release_lobby_starts_into_a_layout(env: simcord.Env) -> None:
    """Start on a lobby posted before the layouts (an embed and classic rows) answers the
    click by redrawing that message as the game's layout, its embed cleared."""
    world = await open_table(env, 2)
    table = world.table
    channel = env.bot.get_channel(world.channel.id)
    classic = discord.ui.View(timeout=None)
    for verb in ("join", "leave", "start"):
        classic.add_item(TableButton(verb, table.id, label=verb.title()))
    old = await channel.send(embed=discord.Embed(title="Shanghai: table open"), view=classic)
    await world.service.set_message(table.id, old.id)
    env.bot.publisher.posted(world.service.public(table.id), old.id)
    assert not is_layout(world.message())
    before = len(env.http_requests)
    started = await world.players[0].click(world.message(), label="Start")
    assert started.acknowledged and world.table.game is not None
    answer = next(r.json for r in env.http_requests[before:] if r.path.endswith("/callback"))
    assert answer["type"] == 7  # the clicked message itself, redrawn
    assert answer["data"]["embeds"] == [] and answer["data"]["content"] is None
    assert "sh:hand:" in str(answer["data"]["components"])
    assert answer["data"]["flags"] & V2
    # The first turn's ping then moved the table below; the old lobby keeps words only.
    lobby = next(m for m in world.channel.history() if m.id == old.id)
    assert is_layout(lobby) and not lobby.embeds and custom_ids(lobby) == []
    message = world.message()
    assert is_layout(message) and heading_of(message).startswith("Deal 1 of ")
    assert "My hand" in button_labels(message)
