"""``python -m tools.soak_service``: issue 16's soak at 500 tables, below Discord.

``python -m tools.soak`` drives the whole bot through simcord, which is the honest way to click
but whose settling costs grow with every parked timer: on this machine it stops settling
within its timeout at about 50 open tables. This soak keeps the parts that matter for faults
at full scale: the real ``TableService`` (timers, back-off, restore, abandon), the real SQLite
store on a real file, the real ``Publisher`` (retries, the host's DM, outboxes) and the real
``ChannelWatch`` start-up check, against a small stand-in for Discord (``FakeDiscord``) whose
channels can be deleted and can refuse messages with the same ``discord.NotFound`` and
``discord.Forbidden`` errors (same codes) discord.py raises. Clicks are service calls, so a
burst is truly concurrent: every buy and the in-turn player's draw of a table go in one
``asyncio.gather``, and ``--concurrent`` tables burst at the same moment. Pictures are a
1x1 PNG (``bot.soak.no_pictures``).

Faults, between rounds: channels deleted (half found by the gateway listener, half by the
publisher's next Unknown Channel), Send Messages revoked and given back, the disk filled with a
filler file and freed (``--db-dir`` on a small tmpfs; else ``max_page_count``), the database
made read-only, and kills: the service, publisher and store are dropped without their shutdown
(tasks cancelled, one kill in the middle of a burst), then rebuilt on the same file and
restored, with the start-up check for channels deleted meanwhile. At the end the hosts end most
tables and ``--finish`` are played out by the turn timers. It reports lost actions, phantom
results, lost notices, log records with a traceback per phase, traced memory once every table
has ended, and click latency (``TableService.act`` with its commit; p50, p99).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord

from bot.channel.publisher import Publisher
from bot.cogs.channel_watch import ChannelWatch
from bot.service import TableService
from data import SqliteStore
from engine.actions import Action, Discard, DrawStock, RequestBuy
from tools.soak import (
    Tracebacks,
    missing,
    no_pictures,
    percentile,
    print_sources,
    rss_mb,
    small_filesystem,
)

BUY_SECONDS = 8.0
TURN_SECONDS = 90.0


def http_error(kind: type[discord.HTTPException], status: int, code: int) -> Exception:
    response = SimpleNamespace(status=status, reason="soak")
    return kind(response, {"code": code, "message": "soak"})


# -- a stand-in for Discord ------------------------------------------------------------------------


@dataclass
class FakeChannel:
    id: int
    guild: Any
    deleted: bool = False
    can_send: bool = True
    lines: int = 0
    edits: int = 0
    posted: int = 0

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:
        """The posted message, as discord.py returns it (the publisher records its id)."""
        await asyncio.sleep(0)
        if self.deleted:
            raise http_error(discord.NotFound, 404, 10003)
        if not self.can_send:
            raise http_error(discord.Forbidden, 403, 50013)
        if content:
            self.lines += len(content.splitlines())
        self.posted += 1
        return SimpleNamespace(id=self.id * 100_000 + self.posted)

    def get_partial_message(self, message_id: int) -> Any:
        channel = self

        class Message:
            async def edit(self, **kwargs: Any) -> None:
                await asyncio.sleep(0)
                if channel.deleted:
                    raise http_error(discord.NotFound, 404, 10003)
                channel.edits += 1

        return Message()

    def permissions_for(self, member: Any) -> Any:
        return SimpleNamespace(
            view_channel=True,
            send_messages=self.can_send,
            embed_links=True,
            attach_files=True,
            read_message_history=True,
        )


class FakeUser:
    def __init__(self, user_id: int, dms: Counter[int]) -> None:
        self.id, self.dms = user_id, dms

    async def send(self, text: str) -> None:
        self.dms[self.id] += 1


class FakeDiscord:
    """Channels and DMs, and what the bot object offers the publisher and ChannelWatch."""

    def __init__(self) -> None:
        self.guild = SimpleNamespace(id=1, me=object())
        self.channels: dict[int, FakeChannel] = {}
        self.dms: Counter[int] = Counter()
        self.service: Any = None
        self.publisher: Any = None

    def channel(self, channel_id: int) -> FakeChannel:
        return self.channels.setdefault(channel_id, FakeChannel(channel_id, self.guild))

    def get_channel(self, channel_id: int) -> FakeChannel | None:
        channel = self.channels.get(channel_id)
        return None if channel is None or channel.deleted else channel

    async def fetch_channel(self, channel_id: int) -> FakeChannel:
        channel = self.get_channel(channel_id)
        if channel is None:
            raise http_error(discord.NotFound, 404, 10003)
        return channel

    def get_guild(self, guild_id: int) -> Any:
        return self.guild if guild_id == self.guild.id else None

    def get_user(self, user_id: int) -> FakeUser:
        return FakeUser(user_id, self.dms)

    async def fetch_user(self, user_id: int) -> FakeUser:
        return self.get_user(user_id)


# -- the soak -----------------------------------------------------------------------------------


class SimClock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@dataclass
class Table:
    index: int
    channel_id: int
    people: list[int]
    table_id: int = 0
    confirmed: list[tuple[int, str]] = field(default_factory=list)
    fate: str = "playing"


class ServiceSoak:
    def __init__(self, args: argparse.Namespace, database: Path, log: Tracebacks) -> None:
        self.args = args
        self.database = database
        self.log = log
        self.rng = random.Random(args.seed)
        self.clock = SimClock()
        self.discord = FakeDiscord()
        self.tables: list[Table] = []
        self.latency: list[float] = []
        self.kills = 0
        self.refused = 0
        self.disk_method = ""
        self.dropped_by_kills = 0
        #: Notice lines the publishers meant for each channel.
        self.meant: Counter[int] = Counter()
        self.started = time.perf_counter()
        self.gate = asyncio.Semaphore(args.concurrent)
        self.revoked: list[Table] = []
        self.store: SqliteStore
        self.service: TableService
        self.publisher: Publisher

    # -- the bot's parts ----------------------------------------------------------------------

    async def boot(self) -> None:
        """Open the store and build the service and publisher, as ``setup_hook`` does."""
        self.store = await SqliteStore.open(self.database)
        self.publisher = Publisher(self.discord, interval=0.0)
        self.service = TableService(
            self.store,
            buy_seconds=BUY_SECONDS,
            turn_seconds=TURN_SECONDS,
            seed=self.args.seed,
            clock=self.clock,
            listener=self.publisher,
        )
        self.discord.service, self.discord.publisher = self.service, self.publisher
        original = self.publisher._lines
        meant = self.meant

        def counting(change: Any) -> list[str]:
            lines = original(change)
            meant[change.table.channel_id] += len(lines)
            return lines

        self.publisher._lines = counting  # type: ignore[method-assign]

    async def kill(self) -> None:
        """Drop the bot without its shutdown path: every task of it cancelled, its connection
        gone; then a new one on the same file restores the tables and checks their channels."""
        self.service.timers.halt()
        for table in list(self.service.tables.values()):
            if table.timer is not None:
                table.timer.cancel()
        for box in list(self.publisher.boxes.values()):
            self.dropped_by_kills += len(box.lines)  # an outbox lives in memory only
            if box.task is not None:
                box.task.cancel()
        await asyncio.sleep(0)
        await self.store.close()
        self.kills += 1
        await self.boot()
        await self.service.restore()
        await ChannelWatch(self.discord).on_ready()  # type: ignore[arg-type]

    async def settle(self) -> None:
        """Let every due timer and outbox finish what it is doing now."""
        for _ in range(50):
            busy = [
                t.timer
                for t in self.service.tables.values()
                if t.timer is not None and t.timer_busy
            ]
            boxes = [
                b.task
                for b in self.publisher.boxes.values()
                if b.task is not None and not b.task.done() and not b.pacing
            ]
            if not busy and not boxes:
                await asyncio.sleep(0)
                return
            await asyncio.wait([*busy, *boxes], timeout=0.5)

    async def advance(self, seconds: float) -> None:
        """Move the clock on and wake every table's timer for it."""
        self.clock.now += seconds
        for table in list(self.service.tables.values()):
            self.service.timers.arm(table)
        await asyncio.sleep(0)
        await self.settle()

    # -- playing ------------------------------------------------------------------------------

    async def timed(self, table: Table, user: int, action: Action) -> Any:
        start = time.perf_counter()
        try:
            result = await self.service.act(table.table_id, user, action)
        except ValueError:
            return None
        except Exception:
            self.refused += 1
            return None
        finally:
            self.latency.append(time.perf_counter() - start)
        return result

    async def open_all(self) -> None:
        for index in range(self.args.tables):
            channel_id = 10_000 + index
            people = [1_000_000 + 3 * index + k for k in range(3)]
            t = Table(index, channel_id, people)
            self.discord.channel(channel_id)
            options = {"preset": "standard", "rules": {"num_deals": self.args.deals}}
            live = await self.service.open_table(1, channel_id, people[0], "host", options)
            t.table_id = live.id
            await self.service.set_message(live.id, 500_000 + index)
            for person in people[1:]:
                await self.service.join(live.id, person, f"p{person}")
            await self.service.start(live.id, people[0])
            self.tables.append(t)
        await self.settle()

    def playing(self) -> list[Table]:
        return [t for t in self.tables if t.fate == "playing" and t.table_id in self.service.tables]

    async def round(self) -> None:
        """A burst at every open table, the windows closing, then every discard."""
        await asyncio.gather(*(self.limited(self.burst, t) for t in self.playing()))
        await self.settle()
        await self.advance(BUY_SECONDS + 1)
        await asyncio.gather(*(self.limited(self.discard, t) for t in self.playing()))
        await self.settle()

    async def limited(self, step: Callable[[Table], Awaitable[None]], t: Table) -> None:
        """``step`` at table ``t`` once at most ``--concurrent`` tables are clicking."""
        async with self.gate:
            await step(t)

    async def burst(self, t: Table) -> None:
        live = self.service.tables.get(t.table_id)
        if live is None or live.game is None or live.game.is_over:
            return
        current = int(live.game.current_player)
        others = [p for p in t.people if p != current]
        clicks = [(p, RequestBuy()) for p in [*others, others[0]]] + [(current, DrawStock())]
        self.rng.shuffle(clicks)
        results = await asyncio.gather(*(self.timed(t, p, a) for p, a in clicks))
        for (person, action), result in zip(clicks, results, strict=True):
            if result is None:
                continue
            if isinstance(action, RequestBuy) and not result.superseded:
                t.confirmed.append((person, "buy"))
            elif isinstance(action, DrawStock):
                self.follow_draw(t, person, result)

    def follow_draw(self, t: Table, person: int, result: Any) -> None:
        """A held draw is confirmed to the player when it happens (the hand follower's note)."""
        if result.pending is None:
            t.confirmed.append((person, "draw"))
            return

        def done(future: asyncio.Future[Any]) -> None:
            if not future.cancelled() and future.exception() is None:
                t.confirmed.append((person, "draw"))

        result.pending.add_done_callback(done)

    async def discard(self, t: Table) -> None:
        live = self.service.tables.get(t.table_id)
        if live is None or live.game is None or live.game.is_over:
            return
        current = live.game.current_player
        if live.game.step != "play":
            return
        card = self.rng.choice(list(live.game.hand_of(current)))
        if await self.timed(t, int(current), Discard(card)) is not None:
            t.confirmed.append((int(current), f"discard {card}"))

    # -- faults ---------------------------------------------------------------------------------

    def enter(self, phase: str) -> None:
        self.log.phase = phase
        elapsed = time.perf_counter() - self.started
        print(f"[{elapsed:6.0f} s] {phase}", file=sys.stderr)

    async def delete_channels(self, count: int) -> None:
        """Half heard by the gateway listener, half left for the publisher to find."""
        watch = ChannelWatch(self.discord)  # type: ignore[arg-type]
        for k, t in enumerate(self.rng.sample(self.playing(), count)):
            self.discord.channel(t.channel_id).deleted = True
            t.fate = "abandoned"
            if k % 2 == 0:
                await watch.on_guild_channel_delete(SimpleNamespace(id=t.channel_id))  # type: ignore[arg-type]

    async def fill_disk(self, full: bool) -> None:
        folder = self.database.parent
        filler = folder / "filler.bin"
        if small_filesystem(folder):
            self.disk_method = "filesystem filled"
            if full:
                with filler.open("wb", buffering=0) as out:
                    for size in (1 << 20, 4096, 1):
                        with contextlib.suppress(OSError):
                            while out.write(b"\0" * size):
                                pass
            else:
                filler.unlink(missing_ok=True)
            return
        self.disk_method = "max_page_count pinned"
        assert isinstance(self.store, SqliteStore), "the disk faults are SQLite's"
        db = self.store._db
        if full:
            pages = next(iter(await db.execute_fetchall("PRAGMA page_count")))[0]
            await db.execute_fetchall(f"PRAGMA max_page_count = {int(pages)}")
        else:
            await db.execute_fetchall("PRAGMA max_page_count = 4294967294")

    async def read_only(self, on: bool) -> None:
        assert isinstance(self.store, SqliteStore), "the disk faults are SQLite's"
        await self.store._db.execute_fetchall(f"PRAGMA query_only = {int(on)}")

    async def kill_mid_burst(self) -> None:
        """A kill while a round's burst is in flight: whatever was answered must be saved."""
        bursts = (self.limited(self.burst, t) for t in self.playing())
        task = asyncio.ensure_future(asyncio.gather(*bursts))
        await asyncio.sleep(0.05)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await self.kill()

    async def run(self) -> None:
        args = self.args
        revoked: list[Table] = []
        await self.boot()
        await self.open_all()
        self.enter("play")
        for _ in range(2):
            await self.round()

        self.enter("channel deleted")
        await self.delete_channels(max(2, args.tables // 100))
        await self.round()

        self.enter("permission revoked")
        revoked = self.rng.sample(self.playing(), max(2, args.tables // 100))
        for t in revoked:
            self.discord.channel(t.channel_id).can_send = False
        await self.round()
        await self.round()

        self.enter("disk full")
        await self.fill_disk(True)
        await self.round()
        for _ in range(4):
            await self.advance(30)
        await self.fill_disk(False)
        self.enter("disk freed")
        await self.advance(65)
        await self.round()

        self.enter("read-only")
        await self.read_only(True)
        await self.round()
        await self.advance(30)
        await self.read_only(False)
        await self.advance(65)

        self.enter("kills")
        await self.kill()
        await self.round()
        for t in self.rng.sample(self.playing(), 1):  # deleted while the bot is down
            self.discord.channel(t.channel_id).deleted = True
            t.fate = "abandoned"
        await self.kill_mid_burst()
        await self.round()
        await self.kill()
        await self.round()

        self.enter("permission given back")
        for t in revoked:
            self.discord.channel(t.channel_id).can_send = True
        for _ in range(70):  # the publisher's back-off is in real seconds (at most a minute)
            if not any(b.backoff.failing for b in self.publisher.boxes.values()):
                break
            await asyncio.sleep(1)
        await self.settle()
        self.revoked = revoked

        self.enter("end")
        await self.end_all()

    async def end_all(self) -> None:
        playing = self.playing()
        finish = set(self.rng.sample(range(len(playing)), min(self.args.finish, len(playing))))
        for k, t in enumerate(playing):
            if k not in finish:
                await self.service.end(t.table_id, t.people[0])
                t.fate = "ended"
        for t in self.tables:
            if t.fate == "playing" and t.table_id not in self.service.tables:
                t.fate = "finished"
        for _ in range(600):
            if not self.service.tables:
                break
            await self.advance(TURN_SECONDS + 1)
        await self.settle()
        for t in self.tables:
            if t.fate == "playing":
                t.fate = "finished" if t.table_id not in self.service.tables else "still open"

    # -- checking ---------------------------------------------------------------------------------

    async def verify(self) -> dict[str, Any]:
        lost = phantom = 0
        statuses: Counter[str] = Counter()
        for t in self.tables:
            record = await self.store.get_table(t.table_id)
            assert record is not None
            statuses[record.status] += 1
            log = [(a.user_id, a.action) for a in await self.store.actions(t.table_id)]
            lost += missing(t.confirmed, log)
            results = await self.store.table_results(t.table_id)
            if t.fate in ("abandoned", "ended"):
                phantom += len(results) + (record.status != t.fate)
            elif t.fate == "finished":
                winners = sum(1 for r in results if r.is_winner)
                if record.status != "finished" or len(results) != 3 or winners < 1:
                    phantom += 1
        lost_notices = 0
        for t in self.tables:
            channel = self.discord.channels[t.channel_id]
            if t.fate != "abandoned":
                lost_notices += max(0, self.meant[t.channel_id] - channel.lines)
        return {
            "lost": lost,
            "phantom": phantom,
            "statuses": statuses,
            "lost notices": lost_notices,
        }


async def main_async(args: argparse.Namespace) -> None:
    no_pictures()
    log = Tracebacks()
    root = logging.getLogger()
    root.addHandler(log)
    root.setLevel(logging.INFO)
    with tempfile.TemporaryDirectory(dir=args.db_dir) as scratch:
        gc.collect()
        tracemalloc.start()
        before, _ = tracemalloc.get_traced_memory()
        soak = ServiceSoak(args, Path(scratch) / "soak.sqlite3", log)
        try:
            await soak.run()
            elapsed = time.perf_counter() - soak.started
            checked = await soak.verify()
            gc.collect()
            after, peak = tracemalloc.get_traced_memory()
            from engine.players import hints

            report(soak, checked, elapsed, before, after, peak, len(hints._MEMO))
        finally:
            await soak.service.close()
            await soak.store.close()
            tracemalloc.stop()
            root.removeHandler(log)


def report(
    soak: ServiceSoak,
    checked: dict[str, Any],
    elapsed: float,
    before: int,
    after: int,
    peak: int,
    memo: int,
) -> None:
    fates = Counter(t.fate for t in soak.tables)
    confirmed = sum(len(t.confirmed) for t in soak.tables)
    dms = sum(soak.discord.dms.values())
    print(
        f"soak (service layer): {len(soak.tables)} tables, {len(soak.latency)} clicks, "
        f"{soak.kills} kills, {elapsed:.0f} s wall"
    )
    print(f"  fates: {dict(fates)}; database statuses: {dict(checked['statuses'])}")
    print(f"  actions confirmed to players: {confirmed}; lost: {checked['lost']}")
    print(
        f"  phantom results: {checked['phantom']}; notice lines never posted: "
        f"{checked['lost notices']}, of which queued in memory when a kill came: "
        f"{soak.dropped_by_kills}"
    )
    print(
        f"  disk full by: {soak.disk_method}; clicks the database refused: {soak.refused}; "
        f"hosts DM'd about a permission: {dms} for {len(soak.revoked)} revoked channel(s)"
    )
    print("  log per phase (tracebacks / errors / warnings):")
    phases = list(dict.fromkeys([*soak.log.tracebacks, *soak.log.errors, *soak.log.warnings]))
    for phase in phases:
        print(
            f"    {phase:<22} {soak.log.tracebacks[phase]:>5} / {soak.log.errors[phase]:>5} / "
            f"{soak.log.warnings[phase]:>5}"
        )
    print_sources(soak.log)
    samples = soak.latency
    print(
        f"  click latency (act + commit, ms): p50 {statistics.median(samples) * 1000:.2f}, "
        f"p99 {percentile(samples, 99) * 1000:.2f}, max {max(samples) * 1000:.1f}"
    )
    print(
        f"  after every table ended: traced {(after - before) / 1e6:.1f} MB above the start "
        f"(peak {peak / 1e6:.0f} MB), RSS {rss_mb():.0f} MB; open tables "
        f"{len(soak.service.tables)}, outboxes {len(soak.publisher.boxes)}, hint memo {memo}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--finish", type=int, default=20)
    parser.add_argument("--deals", type=int, default=1, help="deals per game")
    parser.add_argument(
        "--concurrent", type=int, default=25, help="tables whose bursts run at the same moment"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db-dir", default=None, help="as for python -m tools.soak")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
