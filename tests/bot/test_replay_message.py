"""``/shanghai replay`` and ``/shanghai history`` through simcord: a finished game stepped to its
end shows the stored results, never a card the table had not seen at that step, shows a
player (only a player) their own hand privately, keeps working after a restart, and offers
its record as a file."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import fields, is_dataclass
from typing import Any

import discord
import pytest
import simcord

from bot.i18n import Language, t
from bot.screens.attachments import HAND_FILE, TABLE_FILE
from bot.service.results import record_of_table
from bot.views.replay import replay_button
from engine.cards import Card
from engine.record import read_record
from engine.replay import ReplayStep, replay

from .discord_locales import speaking
from .helpers import World, button_labels, custom_ids, open_table, start
from .test_i18n_audit import english_words, shown_texts
from .test_languages import a_table
from .test_restart_and_results import play_to_the_end

#: A card as the screens write it (``10♥``, ``A♠``, ``🃏``).
CARD_WORD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[♥♦♣♠]|🃏")

#: Not cards: the joker that opens a new deal's line (a picture), and what a wild plays as in
#: a meld (``🃏=10♣``: no 10♣ is shown).
DECORATION = re.compile(r"^🃏 |=(?:10|[2-9AJQK])[♥♦♣♠]", re.MULTILINE)


async def finished_game(env: simcord.Env, deals: int = 1) -> tuple[World, int]:
    world = await open_table(env, 2, deals=deals)
    await start(world)
    table_id = world.table.id
    await play_to_the_end(world, env)
    return world, table_id


def cards_in(value: Any) -> Iterator[Card]:
    """Every card anywhere in an engine value (a view, its melds, its history)."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, (tuple, list, frozenset, set)):
        for item in value:
            yield from cards_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from cards_in(item)
    elif is_dataclass(value) and not isinstance(value, type):
        for field in fields(value):
            yield from cards_in(getattr(value, field.name))


def public_words(step: ReplayStep) -> set[str]:
    """The cards a spectator could name at ``step``, as the screens write them."""
    seen = set(cards_in(step.view(None))) | set(cards_in(step.revealed))
    return {card.pretty() for card in seen}


def shown_text(message: Any) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [f"{field.name}\n{field.value}" for field in embed.fields]
    return "\n".join(parts)


def step_of(message: Any) -> int:
    found = re.search(r"step (\d+) of (\d+)", message.embeds[0].title)
    assert found, message.embeds[0].title
    return int(found.group(1))


async def test_a_finished_game_replays_to_its_stored_results_without_peeking(
    env: simcord.Env,
) -> None:
    world, table_id = await finished_game(env)
    alice = world.players[0]
    store = env.bot.store  # type: ignore[attr-defined]
    steps = list(replay(await record_of_table(store, table_id)))

    opened = await alice.slash(world.channel, "shanghai replay", game=table_id)
    simcord.assert_responded(opened, ephemeral=False)
    message = opened.response
    assert [a.filename for a in message.attachments] == [TABLE_FILE]
    assert message.embeds[0].image.url == f"attachment://{TABLE_FILE}"
    timings = []
    while True:
        index = step_of(message)
        text = shown_text(message)
        allowed = public_words(steps[index])
        named = set(CARD_WORD.findall(DECORATION.sub("", text)))
        assert named <= allowed, (index, named - allowed, text)
        if "Next ▶" not in [
            label for label in button_labels(message) if not _disabled(message, label)
        ]:
            break
        begun = time.perf_counter()
        clicked = await alice.click(message, label="Next ▶")
        timings.append(time.perf_counter() - begun)
        assert clicked.acknowledged and not clicked.ephemeral
        assert step_of(message) == index + 1
    assert index == len(steps) - 1
    # The last step: the stored results' totals, the winners starred, the game over.
    results = await store.table_results(table_id)
    totals = next(f.value for f in message.embeds[0].fields if f.name == "Totals")
    for row in results:
        star = "🏆 " if row.is_winner else ""
        assert f"{star}{row.name} {row.total}" in totals
    assert "Game over, won by" in message.embeds[0].description
    timings.sort()
    assert timings[len(timings) * 99 // 100] < 3.0  # Discord's deadline, however loaded


def _disabled(message: Any, label: str) -> bool:
    for row in message.components:
        for item in row.children if hasattr(row, "children") else row["components"]:
            item_label = getattr(item, "label", None) or (
                item.get("label") if isinstance(item, dict) else None
            )
            if item_label == label:
                return bool(
                    getattr(item, "disabled", None)
                    or (item.get("disabled") if isinstance(item, dict) else False)
                )
    return False


async def test_show_my_hand_is_private_and_only_for_players(env: simcord.Env) -> None:
    world, table_id = await finished_game(env)
    alice, bob = world.players
    store = env.bot.store  # type: ignore[attr-defined]
    steps = list(replay(await record_of_table(store, table_id)))
    opened = await bob.slash(world.channel, "shanghai replay", game=table_id)
    message = opened.response
    await bob.click(message, label="Next ▶")
    await bob.click(message, label="Next ▶")
    mine = await alice.click(message, label="Show my hand")
    simcord.assert_responded(mine, contains="Your hand at step 2", ephemeral=True)
    hand = steps[2].view(str(alice.id)).hand
    assert hand and " ".join(card.pretty() for card in hand) in mine.response.content
    assert [a.filename for a in mine.response.attachments] == [HAND_FILE]
    assert step_of(message) == 2  # the shared message did not move
    stranger = world.guild.add_member(env.create_user("mallory"))
    refused = await stranger.click(message, label="Show my hand")
    simcord.assert_responded(refused, contains="You did not play game", ephemeral=True)
    # Anyone may step the shared message, and fetch the record.
    assert (await stranger.click(message, label="Next deal ⏭")).acknowledged
    record = await stranger.click(message, label="Download")
    simcord.assert_responded(record, ephemeral=True)
    [attachment] = [
        a for a in record.response.attachments if a.filename == f"shanghai-game-{table_id}.json"
    ]
    parsed = read_record((await attachment.read()).decode())
    assert parsed == await record_of_table(store, table_id)
    [page] = [
        a for a in record.response.attachments if a.filename == f"shanghai-game-{table_id}.html"
    ]
    html = (await page.read()).decode()
    assert html.startswith("<!DOCTYPE html>") or html.lstrip().lower().startswith("<!doctype")
    assert "alice" in html and "bob" in html  # the seats by their display names


async def test_stepping_works_after_a_restart(
    env: simcord.Env, make_bot: Callable[[], Any]
) -> None:
    world, table_id = await finished_game(env, deals=2)
    alice = world.players[0]
    opened = await alice.slash(world.channel, "shanghai replay", game=table_id)
    message = opened.response
    await alice.click(message, label="Next ▶")
    await env.restart_bot(make_bot())
    again = await alice.click(message, label="Next ▶")
    assert again.acknowledged and step_of(message) == 2
    back = await alice.click(message, label="◀ Previous")
    assert back.acknowledged and step_of(message) == 1
    jump = [cid for cid in custom_ids(message) if cid.startswith("sh:rpd:")]
    assert jump == [f"sh:rpd:{table_id}:0"]
    chose = await alice.select(message, ["0"], custom_id=jump[0])
    assert chose.acknowledged and step_of(message) == 0
    await alice.click(message, label="Next deal ⏭")
    # The select says the deal now shown: its id changes with the deal, so no client keeps
    # showing the deal picked before.
    assert [cid for cid in custom_ids(message) if cid.startswith("sh:rpd:")] == [
        f"sh:rpd:{table_id}:1"
    ]


async def test_history_lists_the_game_and_opens_its_replay(env: simcord.Env) -> None:
    world, table_id = await finished_game(env)
    alice, bob = world.players
    mine = await alice.slash(world.channel, "shanghai history")
    simcord.assert_responded(mine, ephemeral=True)
    listed = mine.response.embeds[0].description
    assert f"**#{table_id}**" in listed
    assert f"<#{world.channel.id}>" in listed and "<t:" in listed
    results = await env.bot.store.table_results(table_id)  # type: ignore[attr-defined]
    for row in results:
        assert f"{row.name} {row.total}" in listed
    server = await bob.slash(world.channel, "shanghai history", server=True)
    simcord.assert_responded(server, ephemeral=True)
    assert f"**#{table_id}**" in server.response.embeds[0].description
    stranger = world.guild.add_member(env.create_user("mallory"))
    none = await stranger.slash(world.channel, "shanghai history")
    simcord.assert_responded(none, ephemeral=True)
    assert none.response.embeds[0].description == "No finished games yet."
    opened = await alice.select(mine.response, [str(table_id)], custom_id="sh:rpg")
    simcord.assert_responded(opened, ephemeral=False)
    assert step_of(opened.response) == 0
    choices = await alice.autocomplete(world.channel, "shanghai replay", "game", "")
    assert [choice["value"] for choice in choices] == [table_id]


async def test_bad_numbers_get_a_polite_private_refusal(env: simcord.Env) -> None:
    world, table_id = await finished_game(env)
    alice = world.players[0]
    for number in (table_id + 1, 999_999_999):
        refused = await alice.slash(world.channel, "shanghai replay", game=number)
        simcord.assert_responded(refused, contains="There is no finished game", ephemeral=True)
    # A game of another server is not this server's to replay.
    other = env.create_guild()
    elsewhere = other.create_text_channel("cards")
    eve = other.add_member(env.create_user("eve"))
    refused = await eve.slash(elsewhere, "shanghai replay", game=table_id)
    simcord.assert_responded(refused, contains="There is no finished game", ephemeral=True)


@pytest.mark.parametrize(("language", "locale"), [("nl", "nl"), ("es", "es-ES")])
async def test_a_dutch_or_spanish_replay_shows_no_english(
    language: Language, locale: str, env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The replay message of a Dutch or Spanish table stepped to its end, a player's hand, a
    stranger's refusal, the record and the history, every word read from what the bot sent."""
    world = await a_table(env, monkeypatch, locale, [locale] * 3)
    anna, bram, cor = world.players
    for member in (bram, cor):
        assert (await member.click(world.message(), label=t("button.join", language))).acknowledged
    assert (await anna.click(world.message(), label=t("button.start", language))).acknowledged
    table_id = world.table.id
    await play_to_the_end(world, env)
    before = len(env.http_requests)
    opened = await bram.slash(world.channel, "shanghai replay", game=table_id)
    message = opened.response
    for key in (
        "replay.next",
        "replay.next",
        "replay.my_hand",
        "replay.my_notes",
        "replay.download",
    ):
        assert (await anna.click(message, label=t(key, language))).acknowledged
    while not _disabled(message, t("replay.next_deal", language)):
        assert (await anna.click(message, label=t("replay.next_deal", language))).acknowledged
    stranger = world.guild.add_member(env.create_user("dirk"))
    speaking(monkeypatch, {p.id: locale for p in (*world.players, stranger)})
    refused = await stranger.click(message, label=t("replay.my_hand", language))
    simcord.assert_responded(refused, ephemeral=True)
    assert (await anna.slash(world.channel, "shanghai history")).acknowledged
    assert (await stranger.slash(world.channel, "shanghai history", server=True)).acknowledged
    found = []
    for request in env.http_requests[before:]:
        for text in shown_texts(request.json):
            found += [(word, text[:160]) for word in english_words(text, {"anna", "bram", "cor"})]
    assert found == [], "\n".join(f"{word!r} in {where!r}" for word, where in found)


async def test_the_replay_button_of_another_message_opens_a_replay(env: simcord.Env) -> None:
    """``replay_button``, as the game-over message will carry it: a new public replay."""
    world, table_id = await finished_game(env)
    view = discord.ui.View(timeout=None)
    view.add_item(replay_button(table_id, "en"))
    channel = env.bot.get_channel(world.channel.id)  # type: ignore[attr-defined]
    sent = await channel.send("Game over!", view=view)
    posted = next(m for m in world.channel.history() if m.id == sent.id)
    assert button_labels(posted) == ["Replay"]
    opened = await world.players[1].click(posted, label="Replay")
    simcord.assert_responded(opened, ephemeral=False)
    assert step_of(opened.response) == 0 and opened.response.message.id != posted.id


async def test_a_rummy_game_replays_to_its_end(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Rummy table's game, played to its target score, replays with its deals unnumbered."""
    world = await a_table(env, monkeypatch, "en-US", ["en-US"] * 3, game="rummy")
    anna, bram, cor = world.players
    for member in (bram, cor):
        assert (await member.click(world.message(), label="Join")).acknowledged
    assert (await anna.click(world.message(), label="Start")).acknowledged
    table_id = world.table.id
    await play_to_the_end(world, env)
    opened = await anna.slash(world.channel, "shanghai replay", game=table_id)
    message = opened.response
    assert message.embeds[0].title.startswith("🎞️ Rummy game")
    assert message.embeds[0].footer.text == "Deal 1"
    while not _disabled(message, "Next deal ⏭"):
        assert (await anna.click(message, label="Next deal ⏭")).acknowledged
    results = await env.bot.store.table_results(table_id)  # type: ignore[attr-defined]
    totals = message.embeds[0].fields[0].value
    assert all(f"{row.name} {row.total}" in totals for row in results)
