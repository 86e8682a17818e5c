"""Tables in Dutch and Spanish servers, played through simcord like their players would.

The server's preferred locale picks the table's language at ``/shanghai new``: the lobby, the
table message, the notices and the score sheet speak it. Each member's own Discord language
picks the words of what only they see (their replies, refusals and hand), so an English player
at a Dutch table reads English in private and Dutch in public.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

import pytest
import simcord

from engine.cards import Card, parse_cards

from .discord_locales import speaking
from .helpers import (
    World,
    button_labels,
    discard_id,
    gallery_urls,
    heading_of,
    old_table_click,
    text_of,
)


@dataclass(frozen=True)
class Words:
    """What a player of each language reads at each step."""

    locale: str
    join: str
    start: str
    my_hand: str
    joined: str
    lobby_title: str
    not_host: str
    dealt: str
    table_title: str
    seats: str
    own_turn_buy: str
    draw: str
    your_hand: str
    lay_down: str
    went_down: str
    sheet_notice: str
    game_over_notice: str
    final_title: str


DUTCH = Words(
    locale="nl",
    join="Meedoen",
    start="Start",
    my_hand="Mijn hand",
    joined="Je zit aan tafel (plaats 2).",
    lobby_title="Shanghai: tafel open",
    not_host="Alleen de host kan het spel starten.",
    dealt="Er is gedeeld!",
    table_title="Ronde 1 van 1 · 2 sets van 3",
    seats="**Plaatsen**",
    own_turn_buy="Je bent aan de beurt",
    draw="Trek van de trekstapel",
    your_hand="**Jouw hand**",
    lay_down="Leg deze combinaties uit",
    went_down="Je hebt uitgelegd!",
    sheet_notice="**Scorelijst na ronde 1**",
    game_over_notice="🏁 **Einde van het spel!** Eindstand van spel #",
    final_title="Shanghai: einde van het spel",
)

SPANISH = Words(
    locale="es-ES",
    join="Unirse",
    start="Empezar",
    my_hand="Mi mano",
    joined="Te has sentado a la mesa (asiento 2).",
    lobby_title="Shanghai: mesa abierta",
    not_host="Solo el anfitrión puede empezar la partida.",
    dealt="¡Cartas repartidas!",
    table_title="Ronda 1 de 1 · 2 grupos de 3",
    seats="**Asientos**",
    own_turn_buy="Es tu turno",
    draw="Robar del mazo",
    your_hand="**Tu mano**",
    lay_down="Bajar estas combinaciones",
    went_down="¡Te has bajado!",
    sheet_notice="**Hoja de puntos tras la ronda 1**",
    game_over_notice="🏁 **¡Fin de la partida!** Clasificación final de la partida n.º ",
    final_title="Shanghai: fin de la partida",
)


async def flush_outboxes(env: simcord.Env) -> None:
    """Let the channel outbox post what it coalesced (it renders pictures in threads)."""
    publisher = env.bot.publisher  # type: ignore[attr-defined]
    for _ in range(100):
        if all(box.task is None or box.task.done() for box in publisher.boxes.values()):
            return
        await asyncio.to_thread(time.sleep, 0.05)
        await env.advance_time(2)
    raise AssertionError("the channel outbox never drained")


async def a_table(
    env: simcord.Env,
    monkeypatch: pytest.MonkeyPatch,
    server_locale: str,
    locales: list[str],
    game: str = "shanghai",
) -> World:
    """A short ``game`` (one deal, or Rummy to 30 points) opened in a server whose preferred
    locale is ``server_locale``; the members' own Discord languages are ``locales`` (the host
    first)."""
    guild = env.create_guild(preferred_locale=server_locale)
    channel = guild.create_text_channel("cartas")
    names = ["anna", "bram", "cor"]
    players = [guild.add_member(env.create_user(name)) for name in names]
    speaking(monkeypatch, {p.id: locale for p, locale in zip(players, locales, strict=True)})
    short = {"deals": 1} if game == "shanghai" else {"target": 30}
    opened = await players[0].slash(channel, f"{game} new", **short)
    assert opened.acknowledged and not opened.ephemeral
    return World(env, guild, channel, players, opened.response.message)


async def play_a_table_in(words: Words, env: simcord.Env, monkeypatch: pytest.MonkeyPatch) -> None:
    """Lobby, a refusal, a turn that goes out, and the score sheet, all in ``words``."""
    world = await a_table(env, monkeypatch, words.locale, [words.locale] * 3)
    anna, bram, cor = world.players

    lobby = world.message()
    assert heading_of(lobby) == words.lobby_title
    assert {words.join, words.start} <= set(button_labels(lobby))
    joined = await bram.click(lobby, label=words.join)
    simcord.assert_responded(joined, contains=words.joined, ephemeral=True)
    assert (await cor.click(world.message(), label=words.join)).acknowledged

    refused = await bram.click(world.message(), label=words.start)
    simcord.assert_responded(refused, contains=words.not_host, ephemeral=True)
    assert world.table.game is None

    dealt = await anna.click(world.message(), label=words.start)
    assert dealt.acknowledged and not dealt.ephemeral  # the lobby became the table at once
    assert any(words.dealt in (f.content or "") and f.ephemeral for f in dealt.followups)
    table = world.message()
    assert heading_of(table) == words.table_title
    # The seats are said once, by the table picture under the words.
    assert words.seats not in text_of(table) and gallery_urls(table)
    assert words.my_hand in button_labels(table)

    game = world.table.game
    player = world.current()
    assert len(button_labels(table)) == 4  # My hand, History, Nudge, Skip: no Buy / Pass
    own_buy = await old_table_click(world, player, "buy")  # an old message's Buy, own turn
    simcord.assert_responded(own_buy, contains=words.own_turn_buy, ephemeral=True)

    # A hand that meets deal 1's contract (two sets of 3) and goes out with the card it draws.
    seat = game.current
    game.hands[seat] = parse_cards("8H 8S 8C 5H 5S 5C")
    game.stock[-1] = Card.parse("KD")
    hand = await player.click(world.message(), label=words.my_hand)
    assert hand.ephemeral and words.your_hand in text_of(hand.response)
    assert (await player.click(hand.response, label=words.draw)).acknowledged
    await env.advance_time(8)
    assert (await player.click(hand.response, label=words.lay_down)).acknowledged
    assert words.went_down in text_of(hand.response)
    assert (
        await player.select(hand.response, ["KD"], custom_id=discard_id(hand.response))
    ).acknowledged
    assert game.is_over

    await flush_outboxes(env)
    history = world.channel.history()
    notices = "\n".join(text_of(m) for m in history)
    assert words.sheet_notice in notices and words.game_over_notice in notices
    assert [a.filename for m in history for a in m.attachments if a.filename == "scores.png"]
    tables = [m for m in history if heading_of(m).startswith("Shanghai")]
    assert [heading_of(m) for m in tables] == [words.final_title]


async def test_a_table_in_a_dutch_server(env: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    await play_a_table_in(DUTCH, env, monkeypatch)


async def test_a_table_in_a_spanish_server(env: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    await play_a_table_in(SPANISH, env, monkeypatch)


async def test_an_english_player_reads_english_in_private_at_a_dutch_table(
    env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = await a_table(env, monkeypatch, "nl", ["nl", "en-GB", "nl"])
    anna, emma, cor = world.players
    joined = await emma.click(world.message(), label="Meedoen")  # the button is Dutch ...
    simcord.assert_responded(joined, contains="You joined the table (seat 2).", ephemeral=True)
    refused = await emma.click(world.message(), label="Start")
    simcord.assert_responded(refused, contains="Only the host can start the game.", ephemeral=True)
    assert (await cor.click(world.message(), label="Meedoen")).acknowledged
    assert (await anna.click(world.message(), label="Start")).acknowledged

    table = world.message()
    assert heading_of(table) == "Ronde 1 van 1 · 2 sets van 3"  # ... and so is the table
    hand = await emma.click(table, label="Mijn hand")
    assert hand.ephemeral
    assert "**Your hand**" in text_of(hand.response)  # ... but her hand is English
    rules = await emma.slash(world.channel, "shanghai rules")
    simcord.assert_responded(rules, contains="**Rules of table #", ephemeral=True)
    dutch_rules = await cor.slash(world.channel, "shanghai rules")
    simcord.assert_responded(dutch_rules, contains="**Regels van tafel #", ephemeral=True)
