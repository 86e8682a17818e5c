"""A duplicate event through Discord: thirteen people at four tables of four (computers fill
the short ones), two rounds, a restart in round 2 and a player leaving their game. Every game
completes; the same seat at every table of a round was dealt the same cards (from the stored
games); the seeds posted at the round's end hash to the hashes posted at its start; and until
a round's last table ends, nothing of a finished table (its seeds, its replay, its hands)
reaches a player of a table still playing or a spectator."""

from __future__ import annotations

import asyncio
import hashlib
import random
import re
import time
from typing import Any

import discord
import pytest
import simcord
from simcord.backend.errors import SetupError
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from bot import Settings
from bot.events.runner import EventRunner
from bot.ground.errors import UserError
from bot.service.results import record_of_table
from engine.errors import IllegalAction
from engine.game import Game
from engine.players.strategy import EasyStrategy

from .conftest import labels
from .helpers import patient, text_of
from .test_events import event_message, open_event
from .test_forged_controls import forge
from .test_seeds_revealed import sent_so_far

# Four tables start at once, each drawing its pictures: more than a second of real work on a
# busy machine.
pytestmark = pytest.mark.simcord(settle_timeout=3)


@pytest.fixture
def settings(settings: Settings) -> Settings:
    # Nobody is asked about buying: the buy window closes once the computers have decided,
    # so a computer's turn never waits on people this test does not move.
    return settings.model_copy(update={"computer_delay": 0.0, "buy_preference": "never"})


HASH = re.compile(r"^\d+\. `([0-9a-f]{64})`$", re.MULTILINE)


def runner(env: Any) -> EventRunner:
    return env.bot.get_cog("Events").runner  # type: ignore[no-any-return]


async def settled(env: Any, seconds: float = 0) -> None:
    """Move the clock on and let the bot finish what it started. A round's end (its seeds,
    thirteen direct messages, four new tables drawn) can take more real time than the settle
    timeout on a busy machine: that is waited out, not failed."""
    for attempt in range(60):
        try:
            if seconds and attempt == 0:
                await env.advance_time(seconds)
            else:
                await env.settle()
            return
        except TimeoutError:
            continue
    raise AssertionError("the bot never settled")


async def delivered(env: Any, channel_id: int) -> None:
    """Wait until the publisher has sent everything it holds for ``channel_id``. The moves
    ``play_out`` makes are the test's own calls, not a member's click, so the settle does not
    wait for the channel work they start (its pictures are drawn in a worker thread): that
    work is waited for here, in real time, as the clock moves on."""
    for _ in range(600):
        box = env.bot.publisher.boxes.get(channel_id)
        if box is None or box.task is None or box.task.done():
            return
        await settled(env, 1)
        await asyncio.to_thread(time.sleep, 0.02)
    raise AssertionError(f"channel {channel_id} never received its last messages")


async def play_out(env: Any, table_id: int) -> None:
    """Play a table to its end: people by the easy computer's choices through the service,
    computers and a player who left by the bot (the clock moves on for them)."""
    rng, strategy = random.Random(7), EasyStrategy(buy_chance=0)
    for _ in range(20_000):
        service = env.bot.service
        table = service.tables.get(table_id)
        if table is None or table.closed or table.game.is_over:
            await settled(env, 10)  # the game's end reaches its channel
            return
        game = table.game
        seat = game.current
        if table.record.seats[seat].is_computer or table.is_away(seat):
            version = table.version
            await service.run_due(table_id)  # the computer's move, due at once
            await settled(env)
            if table.version == version:  # a pause between deals, say: let the clock run
                await settled(env, 10)
            continue
        player = int(game.current_player)
        action = strategy.choose(
            game.view(game.current_player), service.legal_actions(table_id, player), rng
        )
        try:
            acted = await service.act(table_id, player, action)
        except (IllegalAction, UserError):  # the bot moved first (a seat whose player left)
            await settled(env)
            continue
        if acted.pending is not None:
            await settled(env, 8)
        await settled(env)
    table = env.bot.service.tables.get(table_id)
    raise AssertionError(
        f"the game did not end: {table.game.current} {table.game.step} {table.window} "
        f"{table.record.seats} {table.record.status} {table.away} {env.bot.service.clock()}"
    )


def seen_in(where: Any, viewer: Any) -> list[Any]:
    """The messages of a channel or thread a member can read (none where they cannot)."""
    try:
        return list(where.history(viewer=viewer))
    except SetupError:  # simcord: that member cannot read this channel
        return []


def everything_seen(channel: Any, viewer: Any) -> str:
    """Every text a member can see in the event's channel and its threads (embeds too)."""
    parts: list[str] = []
    for where in [channel, *channel.threads]:
        for message in seen_in(where, viewer):
            parts.append(message.content or "")
            for embed in message.embeds:
                parts.append(f"{embed.title} {embed.description}")
                parts.extend(f"{f.name} {f.value}" for f in embed.fields)
    return "\n".join(parts)


def hashes_posted(channel: Any) -> list[str]:
    """The deals' hashes posted in the event's channel when each round began, in order."""
    said = [m.content or "" for m in channel.history() if (m.content or "").startswith("🔒")]
    return HASH.findall("\n".join(said))


def dm_text(env: Any, member: Any) -> str:
    return "\n".join(m.content or "" for m in member.user.dm_channel.history())


@pytest.mark.slow  # eight games of two deals through simcord: about 30 s
async def test_a_duplicate_event_deals_alike_hides_early_tables_and_scores_by_seat(
    env: Any,
) -> None:
    channel, organiser, players, message_id = await open_event(
        env, 13, table_size=4, rounds=2, deals=2, duplicate=True
    )
    spectator = channel.guild.add_member(env.create_user("watcher"))
    assert "Duplicate" in event_message(channel, message_id).content
    with patient(env, 30):
        started = await organiser.click(event_message(channel, message_id), label="Start")
    assert started.acknowledged
    await runner(env).idle()
    store = env.bot.store
    (event,) = await store.open_events()
    by_id = {p.id: p for p in players}
    tables = await store.event_tables(event.id)
    # Thirteen at tables of four: every table filled to four, so the round is one group.
    assert [(len(t.players), t.computers) for t in tables] == [(4, 0), (3, 1), (3, 1), (3, 1)]
    posted = hashes_posted(channel)
    assert len(posted) == 2  # round 1's two deals, posted before anyone played

    # Each table plays in a private thread of its own players.
    for table in tables:
        thread = _thread(channel, table)
        assert seen_in(thread, spectator) == []
        assert seen_in(thread, by_id[table.players[0]])
        assert all(
            seen_in(thread, by_id[p]) == [] for t in tables if t is not table for p in t.players
        )

    # Table 1 finishes while the others play: nothing of it reaches them.
    first, *others = tables
    await play_out(env, first.table_id)
    await runner(env).idle()
    live = env.bot.service
    assert all(live.tables.get(t.table_id) is not None for t in others)
    seeds = [s.hex() for s in (await _seeds_of(store, first.table_id))]
    # Nothing the bot sent anyone (messages, private answers, direct messages) holds them.
    assert not any(seed in sent_so_far(env) for seed in seeds)
    still_playing = by_id[others[0].players[0]]
    finished_thread = _thread(channel, first)
    # Its own players read, at its end, that the seeds wait for the round: not that they
    # are public (the Shuffle seeds button refuses until then).
    reader = by_id[first.players[0]]
    await delivered(env, finished_thread.id)  # the final recap follows the game-over line
    ended = "\n".join(text_of(m) for m in seen_in(finished_thread, reader))
    assert "seeds are revealed when the round ends at every table" in ended
    assert "seeds are public now" not in ended
    for member in (still_playing, spectator):
        # The finished table's thread is private to its players: its play, its final melds
        # and its score sheet are out of sight.
        assert seen_in(finished_thread, member) == []
        assert not any(seed in everything_seen(channel, member) for seed in seeds)
        # Its controls, clicked anyway (a forged click), and the replay command refuse.
        where = event_message(channel, message_id)
        refused = await forge(member, where, f"sh:seeds:{first.table_id}")
        simcord.assert_responded(refused, contains="still playing the same deals", ephemeral=True)
        refused = await forge(member, where, f"sh:rp:{first.table_id}:0:open")
        simcord.assert_responded(refused, contains="still playing the same deals")
        refused = await member.slash(channel, "shanghai replay", game=first.table_id)
        simcord.assert_responded(refused, contains="still playing the same deals")
    assert not any(seed in sent_so_far(env) for seed in seeds)
    text = event_message(channel, message_id).content
    assert "Best of round" not in text  # no comparison before the round is over

    for table in others:
        await play_out(env, table.table_id)
    await runner(env).idle()
    (event,) = await store.open_events()
    assert event.round == 2
    await _dealt_alike(store, tables, posted, channel)
    # Each person was told privately how their deals compared.
    for person in players:
        assert "against an average of" in dm_text(env, person)
    assert "Best of round 1" in event_message(channel, message_id).content
    # Now the replay opens, and links to the same deals at the other tables.
    opened = await spectator.slash(channel, "shanghai replay", game=first.table_id)
    assert opened.acknowledged
    replay = opened.response.message if opened.response else opened.followups[-1]
    field = next(f for f in replay.embeds[0].fields if "same deals" in f.name)
    assert all(f"#{t.table_id}" in field.value for t in others)

    # Round 2: a restart in the middle, and one player leaves their game.
    round_two = [t for t in await store.event_tables(event.id) if t.round == 2]
    posted_two = hashes_posted(channel)[2:]
    assert len(posted_two) == 2
    await play_out(env, round_two[0].table_id)
    await env.restart_bot(env.bot.__class__(env.bot.settings))
    await runner(env).idle()
    leaver = by_id[round_two[1].players[1]]
    thread = _thread(channel, round_two[1])
    table_message = next(m for m in thread.history() if "My hand" in labels(m))
    hand = await leaver.click(table_message, label="My hand")
    assert (await leaver.click(hand.response, label="⚙️ Options")).acknowledged
    assert (await leaver.click(hand.response, label="Leave game")).acknowledged
    assert (await leaver.click(hand.response, label="Yes, leave")).acknowledged
    for table in round_two[1:]:
        await play_out(env, table.table_id)
    await runner(env).idle()
    event = await store.get_event(event.id)
    assert event is not None and event.status == "finished"
    finished = await store.event_tables(event.id)
    assert all(t.table_status == "finished" for t in finished)  # every game completed
    await _dealt_alike(store, round_two, posted_two, channel)
    text = event_message(channel, message_id).content
    assert "The event is over." in text and "Best of round 2" in text
    view = await runner(env).view(event.id)
    # Points are each board's difference from the other tables' average: thirteen people
    # over four boards a round, some above the others and some below.
    points = [s.points for s in view.standings]
    assert max(points) > 0 > min(points)


async def _seeds_of(store: Any, table_id: int) -> list[bytes]:
    record = await record_of_table(store, table_id)
    return [bytes.fromhex(seed) for seed in record.deal_seeds]


def _thread(channel: Any, table: Any) -> Any:
    return next(t for t in channel.threads if t.id == table.channel_id)


async def _dealt_alike(store: Any, tables: list[Any], posted: list[str], channel: Any) -> None:
    """The same seat at every table was dealt the same hand, from the same seeds, which hash
    to what was posted and were posted themselves once the round was over."""
    records = [await record_of_table(store, t.table_id) for t in tables]
    seeds = {record.deal_seeds for record in records}
    assert len(seeds) == 1
    (round_seeds,) = seeds
    assert [hashlib.sha256(bytes.fromhex(s)).hexdigest() for s in round_seeds] == posted
    said = "\n".join(m.content or "" for m in channel.history())
    assert all(f"`{seed}`" in said for seed in round_seeds)
    first_deals = [record.new_game() for record in records]
    assert len({game.dealer for game in first_deals}) == 1
    for seat in range(4):
        hands = {tuple(sorted(map(str, game.hands[seat]))) for game in first_deals}
        assert len(hands) == 1, f"seat {seat} was dealt different cards"
        lanes = {tuple(map(str, g.stock_lane(seat))) for g in first_deals}
        assert len(lanes) == 1 and all(lanes), f"seat {seat} draws from different lanes"


@pytest.mark.simcord(settle_timeout=10)  # two tables start in one click: real work to draw
async def test_a_duplicate_round_posts_its_hashes_and_plays_in_private_threads(env: Any) -> None:
    channel, organiser, players, message_id = await open_event(
        env, 5, table_size=4, rounds=2, duplicate=True
    )
    assert "Duplicate" in event_message(channel, message_id).content
    spectator = channel.guild.add_member(env.create_user("watcher"))
    assert (await organiser.click(event_message(channel, message_id), label="Start")).acknowledged
    await runner(env).idle()
    store, service = env.bot.store, env.bot.service
    (event,) = await store.open_events()
    tables = await store.event_tables(event.id)
    # Five at tables of four: both filled to four, so both are dealt alike.
    assert [(len(t.players), t.computers) for t in tables] == [(3, 1), (2, 2)]
    games = [service.get(t.table_id).game for t in tables]
    assert games[0].secret == games[1].secret and games[0].dealer == games[1].dealer
    # The computers may already have played by now: compare the deals as dealt.
    first_deals = [Game.new(g.players, g.rules, g.seed, secret=g.secret) for g in games]
    assert [sorted(map(str, hand)) for hand in first_deals[0].hands] == [
        sorted(map(str, hand)) for hand in first_deals[1].hands
    ]
    # Each seat draws from its own lane of the stock, the same cards at both tables.
    assert all(g.rules.stock_draws == "per_seat" for g in games)
    lanes = [[list(map(str, g.stock_lane(seat))) for seat in range(4)] for g in first_deals]
    assert lanes[0] == lanes[1] and all(lanes[0])
    posted = hashes_posted(channel)
    assert posted == [games[0].commitment, *posted[1:]] and len(posted) == 10
    by_id = {p.id: p for p in players}
    for table in tables:
        thread = _thread(channel, table)
        assert seen_in(thread, spectator) == []
        assert all(seen_in(thread, by_id[p]) for p in table.players)
    # The organiser, who plays nowhere, may look into every table (to end a stuck one).
    assert all(seen_in(_thread(channel, t), organiser) for t in tables)


async def test_a_duplicate_event_needs_private_threads_to_start(env: Any) -> None:
    channel, organiser, _, message_id = await open_event(env, 3, duplicate=True)
    env.backend.set_overwrite(
        channel.id,
        Overwrite(
            env.bot.user.id,
            OverwriteType.MEMBER,
            deny=discord.Permissions(create_private_threads=True).value,
        ),
    )
    refused = await organiser.click(event_message(channel, message_id), label="Start")
    simcord.assert_responded(refused, contains="Create Private Threads", ephemeral=True)
    (event,) = await env.bot.store.open_events()
    assert event.status == "signup" and await env.bot.store.event_tables(event.id) == []
