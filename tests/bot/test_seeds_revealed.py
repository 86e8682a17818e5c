"""The shuffle seeds through simcord: secret while the game is played (not in anything the bot
sends, and a forged "Shuffle seeds" click is refused), then listed by the game-over message's
button, each beside the hash the channel was shown when its deal was dealt."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
import simcord

from bot.i18n import Language, t
from bot.service.results import record_of_table
from bot.views.seeds import seeds_embed
from engine.events import DealStarted
from engine.replay import replay

from .helpers import button_labels, open_table, start, text_of
from .test_forged_controls import forge
from .test_i18n_audit import english_words
from .test_restart_and_results import flush_outboxes, play_to_the_end
from .test_shuffle_commitment import announced


def sent_so_far(env: simcord.Env) -> str:
    """Everything the bot has sent Discord, as one text."""
    return "\n".join(json.dumps(request.json, default=str) for request in env.http_requests)


def game_over_message(world: Any) -> Any:
    return next(m for m in world.channel.history() if "Shuffle seeds" in button_labels(m))


async def test_seeds_stay_secret_in_play_and_are_listed_once_the_game_is_over(
    env: simcord.Env,
) -> None:
    world = await open_table(env, 2, deals=2)
    await start(world)
    alice, bob = world.players
    table_id = world.table.id
    game = world.table.game
    first = game.deal_seed(0)
    assert first is not None
    # In play: no seed in anything sent, and a forged button is refused without one.
    await flush_outboxes(world, env)
    assert first.hex() not in sent_so_far(env)
    forged = await forge(alice, world.message(), f"sh:seeds:{table_id}")
    simcord.assert_responded(forged, contains="revealed when the game is over", ephemeral=True)
    assert first.hex() not in sent_so_far(env)
    assert not any("Shuffle seeds" in button_labels(m) for m in world.channel.history())

    await play_to_the_end(world, env)
    await flush_outboxes(world, env)
    seeds = game.revealed_seeds
    assert len(seeds) >= 2 and seeds[0] == first.hex()
    over = game_over_message(world)
    assert "The shuffle seeds are public now" in text_of(over)
    assert not any(seed in text_of(over) for seed in seeds)  # the message stays short
    stranger = world.guild.add_member(env.create_user("mallory"))
    for person in (bob, stranger):  # public now: anyone may check the deals
        listed = await person.click(over, label="Shuffle seeds")
        simcord.assert_responded(listed, ephemeral=True)
        embed = listed.response.embeds[0]
        assert embed.title == f"🔑 Shuffle seeds of game #{table_id}"
        text = embed.description
        hashes = [hashlib.sha256(bytes.fromhex(seed)).hexdigest() for seed in seeds]
        for number, (seed, digest) in enumerate(zip(seeds, hashes, strict=True), start=1):
            assert f"**{number}.** seed `{seed}`\nhash `{digest}`" in text
        assert "`docs/shuffle.md`" in text
    # Each hash is the one its deal began with (the channel showed the first one).
    record = await record_of_table(env.bot.store, table_id)  # type: ignore[attr-defined]
    steps = list(replay(record))
    begun = [steps[0].view(None).commitment] + [
        event.commitment
        for step in steps
        for event in step.events
        if isinstance(event, DealStarted)
    ]
    assert begun == hashes and announced(world)[0] == hashes[0][:16]
    # The game's record, which the replay's Download sends, carries the same seeds.
    assert record.deal_seeds == seeds


async def test_the_seeds_of_another_servers_game_are_not_listed(env: simcord.Env) -> None:
    world = await open_table(env, 2, deals=1)
    await start(world)
    table_id = world.table.id
    game = world.table.game
    await play_to_the_end(world, env)
    await flush_outboxes(world, env)
    other = env.create_guild()
    elsewhere = other.create_text_channel("cards")
    eve = other.add_member(env.create_user("eve"))
    opened = await eve.slash(elsewhere, "shanghai new")
    refused = await forge(eve, opened.response.message, f"sh:seeds:{table_id}")
    simcord.assert_responded(refused, contains="There is no finished game", ephemeral=True)
    assert game.revealed_seeds[0] not in (refused.response.content or "")


@pytest.mark.parametrize("language", ["nl", "es"])
def test_the_seeds_are_listed_in_the_readers_language(language: Language) -> None:
    seeds = ("ab" * 32, "cd" * 32)
    embed = seeds_embed(7, seeds, language)
    texts = [embed.title or "", embed.description or "", t("notice.seeds_revealed", language)]
    texts.append(t("button.shuffle_seeds", language))
    for text in texts:
        assert english_words(text, set()) == [], text
    assert all(seed in (embed.description or "") for seed in seeds)
