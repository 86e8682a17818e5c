"""Notices that used to be English whatever the reader's language (issue 14): the host's
direct message about a missing permission names Discord's permissions as the host's settings
show them in the table's language, and a click during a restart is answered in the clicking
player's own language."""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from bot.i18n import t
from bot.process.app import RESTARTING

from .discord_locales import speaking
from .helpers import discard_id
from .test_languages import a_table

pytestmark = pytest.mark.simcord(settle_timeout=1)


def test_the_restart_reply_is_the_catalogues_english() -> None:
    assert t("error.restarting", "en") == RESTARTING


async def test_a_dutch_host_reads_the_missing_permission_in_dutch(
    env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = await a_table(env, monkeypatch, "nl", ["nl", "nl", "nl"])
    anna, bram, cor = world.players
    assert (await bram.click(world.message(), label="Meedoen")).acknowledged
    assert (await cor.click(world.message(), label="Meedoen")).acknowledged
    assert (await anna.click(world.message(), label="Start")).acknowledged
    await env.advance_time(9)
    env.backend.set_overwrite(
        world.channel.id,
        Overwrite(
            env.bot.user.id,
            OverwriteType.MEMBER,
            deny=discord.Permissions(send_messages=True).value,
        ),
    )
    player = world.current()
    hand = await player.click(world.message(), label="Mijn hand")
    assert (await player.click(hand.response, label="Trek van de trekstapel")).acknowledged
    card = world.table.game.hand_of(str(player.id))[-1]
    assert (
        await player.select(hand.response, [str(card)], custom_id=discard_id(hand.response))
    ).acknowledged
    await env.advance_time(9)
    told = [m.content for m in anna.user.dm_channel.history()]
    assert len(told) == 1
    # Without Send Messages, Discord counts Embed Links and Attach Files as missing too.
    assert "**Berichten versturen**, **Links insluiten**, **Bestanden bijvoegen**" in told[0]
    assert "Send Messages" not in told[0] and "Ik kan tafel #" in told[0]


async def test_a_click_during_a_restart_is_refused_in_the_players_language(
    env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = env.create_guild(preferred_locale="es-ES")
    channel = guild.create_text_channel("cartas")
    lucia = guild.add_member(env.create_user("lucia"))
    daan = guild.add_member(env.create_user("daan"))
    speaking(monkeypatch, {lucia.id: "es-ES", daan.id: "nl"})
    env.bot.accepting = False  # what ShanghaiBot.close sets first
    spanish = await lucia.slash(channel, "shanghai new")
    simcord.assert_responded(spanish, contains="El bot se está reiniciando", ephemeral=True)
    dutch = await daan.slash(channel, "shanghai new")
    simcord.assert_responded(dutch, contains="De bot start opnieuw op", ephemeral=True)
    assert env.bot.service.for_channel(channel.id) is None
