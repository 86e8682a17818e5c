"""/shanghai new and /rummy new refuse, privately and in the member's language, to open a table
where the bot lacks a permission it needs; the refusal names exactly what is missing."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from bot.interactions.permissions import NEEDED, missing_here
from bot.interactions.threads import THREAD_PERMISSIONS

from .discord_locales import speaking

pytestmark = pytest.mark.simcord(settle_timeout=1)


def deny(env: Any, channel: Any, **flags: bool) -> None:
    """A member overwrite on the bot itself, as a moderator would set it."""
    env.backend.set_overwrite(
        channel.id,
        Overwrite(env.bot.user.id, OverwriteType.MEMBER, deny=discord.Permissions(**flags).value),
    )


def world(env: Any) -> tuple[Any, Any, Any]:
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    return guild, channel, guild.add_member(env.create_user("alice"))


async def test_no_send_embed_attach_is_refused_with_the_exact_list(env: Any) -> None:
    _, channel, alice = world(env)
    deny(env, channel, send_messages=True, embed_links=True, attach_files=True)
    result = await alice.slash(channel, "shanghai new")
    assert result.acknowledged and result.ephemeral
    text = result.response.content
    assert "**Send Messages**, **Embed Links**, **Attach Files** here" in text
    assert "View Channel" not in text and "Read Message History" not in text
    assert env.bot.service.for_channel(channel.id) is None
    assert list(channel.history()) == []  # nothing posted


async def test_a_dutch_member_reads_it_in_dutch(env: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    _, channel, alice = world(env)
    speaking(monkeypatch, {alice.id: "nl"})
    deny(env, channel, read_message_history=True)
    result = await alice.slash(channel, "shanghai new")
    assert result.ephemeral
    assert "ik mis hier **Berichtgeschiedenis lezen**" in result.response.content
    assert env.bot.service.for_channel(channel.id) is None


async def test_rummy_new_is_refused_too_in_spanish(
    env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, channel, alice = world(env)
    speaking(monkeypatch, {alice.id: "es-ES"})
    deny(env, channel, attach_files=True)
    result = await alice.slash(channel, "rummy new")
    assert result.ephemeral
    assert "me faltan permisos (**Adjuntar archivos**)" in result.response.content
    assert env.bot.service.for_channel(channel.id) is None


async def test_with_every_permission_the_table_opens(env: Any) -> None:
    _, channel, alice = world(env)
    deny(env, channel, add_reactions=True)  # one the bot does not need
    result = await alice.slash(channel, "shanghai new")
    assert result.acknowledged and not result.ephemeral
    assert env.bot.service.for_channel(channel.id) is not None


def test_missing_here_keeps_the_order_of_needed() -> None:
    assert missing_here(discord.Permissions.all()) == []
    assert missing_here(discord.Permissions.none()) == list(NEEDED)
    some = discord.Permissions.all()
    some.update(embed_links=False, view_channel=False)
    assert missing_here(some) == ["view_channel", "embed_links"]


def test_the_readme_invite_section_names_the_same_permissions() -> None:
    import re
    from pathlib import Path

    from bot.i18n import t

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Creating the Discord application") :]
    section = section[: section.index("\n## ", 5)]
    number = re.search(r"permissions integer `(\d+)`; `(\d+)` without the threads", section)
    assert number is not None
    everything = dict.fromkeys((*NEEDED, *THREAD_PERMISSIONS), True)
    assert int(number[1]) == discord.Permissions(**everything).value
    assert int(number[2]) == discord.Permissions(**dict.fromkeys(NEEDED, True)).value
    flat = " ".join(section.split())
    for flag in (*NEEDED, *THREAD_PERMISSIONS):
        assert f"*{t(f'permission.{flag}', 'en')}*" in flat, flag
