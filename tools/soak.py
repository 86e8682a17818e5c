"""``python -m tools.soak``: many tables through the whole bot while things go wrong (issue 16).

The bot runs unmodified against simcord's in-memory Discord and a real SQLite file, on
simcord's virtual clock. ``--tables`` tables of three people each (spread over servers of at
most 100 channels) are opened, joined and started by clicks, then played in rounds: each round
``--per-round`` tables see a *burst* (every other seat clicks **Buy** in their hand message, one
of them twice, then the in-turn person draws or discards from their own hand message), then
the clock moves past the buy windows. The publisher is not paced (``edit_interval`` 0: every
change is its own edit, the most work for the outboxes), and pictures are a 1x1 PNG unless
``--pictures`` (see ``no_pictures``). Between rounds, issue 16's faults:

- *disk full*: with ``--db-dir`` on a small filesystem (a tmpfs of at most 1 GB) a filler
  file takes every free byte, so SQLite meets a real ENOSPC, then it is deleted; elsewhere
  SQLite's ``max_page_count`` is pinned to the file's size instead (never fill a real disk).
  People keep clicking and the clock runs past the turn timers meanwhile;
- *read-only*: ``PRAGMA query_only`` makes every write fail, then is lifted;
- *channels deleted* mid-game (one more while the bot is down), and *the bot removed* from a
  small server of its own;
- *a permission revoked*: Send Messages denied to the bot in some channels, given back later;
- *kills*: the bot is replaced by a fresh one on the same database several times, without its
  shutdown path running (simcord lets the old bot go idle, then cancels its tasks; its
  database connection is dropped).

At the end the hosts end most tables and ``--finish`` of them are played out by the turn
timers. Then it checks, from the database: every action a person was told was done is in the
table's action log, in order (*lost actions*, want 0); no results exist for a table that was
not played to its end, every abandoned table is ended without results, and every finished
game has a result per person and a winner (*phantom results*, want 0). It prints the log
records with a traceback in each phase, the memory the process holds once every table has
ended (simcord's in-memory Discord, with every message, lives in the same process), and the
bot-side click latency: from the interaction's arrival to its answer (p50, p99).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import simcord
from discord.state import ConnectionState
from pydantic import SecretStr
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from bot import Settings, create_bot
from tools.message_parts import items, text

TOKEN = "x" * 24 + ".abcdef." + "y" * 27
CHANNELS_PER_GUILD = 100
#: Long timers: simcord also fires a virtual timer once as much *real* time has passed, and
#: 500 tables take minutes of real time; with these, only ``advance_time`` moves the game.
BUY_SECONDS = 120
TURN_SECONDS = 3600
#: Tables opened between two moves of the clock.
OPEN_BATCH = 25
#: Virtual seconds between two tables' bursts, so that their timers fall due apart.
SPACING = 0.5
SEND = discord.Permissions(send_messages=True).value


# -- measuring -----------------------------------------------------------------------------------


class Latency:
    """Bot-side answer time of each interaction: from discord.py parsing its gateway event to
    the bot's first answer (``send_message``, ``edit_message``, ``defer`` or ``send_modal``)."""

    METHODS = ("send_message", "edit_message", "defer", "send_modal")

    def __init__(self) -> None:
        self.arrived: dict[int, float] = {}
        self.samples: list[float] = []
        self._originals: list[tuple[Any, str, Any]] = []

    def install(self) -> None:
        for name in self.METHODS:
            self._patch(discord.InteractionResponse, name, self._timed)
        self._patch(ConnectionState, "parse_interaction_create", self._arrival)

    def uninstall(self) -> None:
        for owner, name, original in reversed(self._originals):
            setattr(owner, name, original)
        self._originals.clear()

    def _patch(self, owner: Any, name: str, wrap: Callable[[Any], Any]) -> None:
        original = getattr(owner, name)
        self._originals.append((owner, name, original))
        setattr(owner, name, wrap(original))

    def _arrival(self, original: Callable[..., Any]) -> Callable[..., Any]:
        arrived = self.arrived

        def parse(state: Any, data: dict[str, Any]) -> Any:
            arrived[int(data["id"])] = time.perf_counter()
            return original(state, data)

        return parse

    def _timed(self, original: Callable[..., Any]) -> Callable[..., Any]:
        samples, arrived = self.samples, self.arrived

        async def answer(response: Any, *args: Any, **kwargs: Any) -> Any:
            start = arrived.pop(response._parent.id, None)
            if start is not None:
                samples.append(time.perf_counter() - start)
            return await original(response, *args, **kwargs)

        return answer


class Tracebacks(logging.Handler):
    """Log records with a traceback (or at ERROR and above), counted by the phase they fell in."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.phase = "set-up"
        self.tracebacks: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()
        self.warnings: Counter[str] = Counter()
        #: What logged them: (phase, logger, message template, exception type) -> count.
        self.sources: Counter[tuple[str, str, str, str]] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or record.levelno >= logging.WARNING:
            kind = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else ""
            self.sources[(self.phase, record.name, str(record.msg)[:60], kind)] += 1
        if record.exc_info:
            self.tracebacks[self.phase] += 1
        if record.levelno >= logging.ERROR:
            self.errors[self.phase] += 1
        elif record.levelno >= logging.WARNING:
            self.warnings[self.phase] += 1


#: A 1x1 PNG, attached in place of every picture unless ``--pictures``.
TINY_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)


async def _no_render(fn: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes:
    return TINY_PNG


def no_pictures() -> None:
    """Attach a 1x1 PNG instead of drawing the table, hand and score pictures.

    Their cost is ``bot.bench_render``'s subject, not this one's; and under simcord 3.2 a
    burst of renders in worker threads (``asyncio.to_thread``) was seen to stall its settle at
    50 tables (the work finished, its completion was never delivered), which ``--pictures``
    may still show. Every message carries an attachment all the same."""
    import bot.screens.attachments

    setattr(bot.screens.attachments, "render_in_thread", _no_render)  # noqa: B010


def small_filesystem(folder: Path) -> bool:
    """Whether ``folder`` is on a filesystem small enough to fill (a tmpfs made for this)."""
    stats = os.statvfs(folder)
    return stats.f_blocks * stats.f_frsize <= 1 << 30


def rss_mb() -> float:
    """Resident memory of this process now, in MB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


# -- what people see -------------------------------------------------------------------------------


def _items(message: Any) -> list[dict[str, Any]]:
    """The buttons and selects of a discord.Message or a simcord ResponseMessage, as payload
    dicts (nested in a Components V2 layout or in classic rows)."""
    return items(message)


def labels(message: Any) -> list[str]:
    return [str(item["label"]) for item in _items(message) if item.get("label")]


def discard_select(message: Any) -> tuple[str, list[str]] | None:
    """The discard select of a hand message: its custom_id and the cards it offers."""
    for item in _items(message):
        if item.get("type") == 3 and str(item.get("custom_id", "")).endswith(":discard"):
            return str(item["custom_id"]), [str(o["value"]) for o in item.get("options", [])]
    return None


def content(result: simcord.InteractionResult) -> str:
    return text(result.response) if result.response is not None else ""


@dataclass
class Soaked:
    """One table as its three people see it."""

    index: int
    guild: Any
    channel: Any
    people: list[Any]
    table_id: int = 0
    message_id: int = 0
    hands: dict[int, simcord.InteractionResult] = field(default_factory=dict)
    #: (user id, action) for every action the bot told a person it had done.
    confirmed: list[tuple[int, str]] = field(default_factory=list)
    #: playing, abandoned (its channel or server went), ended (by its host), finished.
    fate: str = "playing"
    revoked: bool = False

    def person(self, user_id: int) -> Any:
        return next(p for p in self.people if p.id == user_id)


class Soak:
    def __init__(self, env: simcord.Env, settings: Settings, args: argparse.Namespace) -> None:
        self.env = env
        self.settings = settings
        self.args = args
        self.rng = random.Random(args.seed)
        self.tables: list[Soaked] = []
        self.clicks = 0
        self.refused = 0
        self.apologies = 0
        self.storage_refusals = 0
        self.unanswered = 0
        self.kills = 0
        self.next_burst = 0
        self.started = time.perf_counter()
        self.disk_method = ""
        self.rss_before = 0.0
        self.latency = Latency()
        self.log = Tracebacks()

    @property
    def bot(self) -> Any:
        return self.env.bot

    @property
    def service(self) -> Any:
        return self.bot.service

    def live(self, t: Soaked) -> Any:
        return self.service.tables.get(t.table_id)

    def table_message(self, t: Soaked) -> Any:
        for message in reversed(t.channel.history()):
            if message.id == t.message_id:
                return message
        return None

    async def click(self, actor: Any, message: Any, **kwargs: Any) -> simcord.InteractionResult:
        self.clicks += 1
        result: simcord.InteractionResult = await actor.click(message, **kwargs)
        self._count(result)
        return result

    async def select(
        self, actor: Any, message: Any, values: list[str], custom_id: str
    ) -> simcord.InteractionResult:
        self.clicks += 1
        result: simcord.InteractionResult = await actor.select(message, values, custom_id=custom_id)
        self._count(result)
        return result

    def _count(self, result: simcord.InteractionResult) -> None:
        if not result.acknowledged:
            self.unanswered += 1
        text = content(result)
        if "something went wrong" in text:
            self.apologies += 1
        if "can't save anything" in text:
            self.storage_refusals += 1

    # -- setting up ----------------------------------------------------------------------------

    async def open_all(self) -> None:
        env = self.env
        guild = None
        pool: list[Any] = []
        for index in range(self.args.tables):
            if index % CHANNELS_PER_GUILD == 0:
                guild = env.create_guild()
                pool = [guild.add_member(env.create_user(f"p{index}_{k}")) for k in range(12)]
            assert guild is not None
            channel = guild.create_text_channel(f"table-{index}")
            people = [pool[(3 * index + k) % len(pool)] for k in range(3)]
            self.tables.append(Soaked(index, guild, channel, people))
        # A small server of its own, which removes the bot mid-game.
        self.lonely = env.create_guild()
        lonely_pool = [self.lonely.add_member(env.create_user(f"l{k}")) for k in range(3)]
        for k in range(2):
            channel = self.lonely.create_text_channel(f"lonely-{k}")
            self.tables.append(Soaked(len(self.tables), self.lonely, channel, lonely_pool))
        for t in self.tables:
            host = t.people[0]
            opened = await host.slash(
                t.channel,
                "shanghai new",
                deals=self.args.deals,
                turn_seconds=TURN_SECONDS,
                buy_seconds=BUY_SECONDS,
            )
            self.clicks += 1
            t.message_id = opened.response.message.id
            t.table_id = self.service.for_channel(t.channel.id).id
            for person in t.people[1:]:
                await self.click(person, self.table_message(t), label="Join")
            await self.click(host, self.table_message(t), label="Start")
            await self.env.advance_time(SPACING)
            if t.index % OPEN_BATCH == OPEN_BATCH - 1:
                await self.clock_to(self.now() + BUY_SECONDS + 1)

    # -- one round -------------------------------------------------------------------------------

    async def round(self) -> None:
        """A burst at ``--per-round`` of the open tables (the next ones in turn)."""
        playing = [t for t in self.tables if t.fate == "playing" and self.live(t) is not None]
        count = min(len(playing), self.args.per_round or len(playing))
        for k in range(count):
            t = playing[(self.next_burst + k) % len(playing)]
            await self.burst(t)
            await self.env.advance_time(SPACING)
        self.next_burst += count
        await self.clock_to(self.now() + BUY_SECONDS + 1)

    def now(self) -> float:
        return float(self.service.clock())

    async def clock_to(self, target: float) -> None:
        """Move the virtual clock to ``target`` one due timer at a time.

        simcord gives one ``advance_time`` a few real seconds to settle everything it fires;
        stepping from one table's wake-up to the next keeps each step to the few tables due
        at that instant, however many are open."""
        while True:
            now = self.now()
            if now >= target:
                return
            wakes = [self.next_wake(live) for live in list(self.service.tables.values())]
            due = min([w for w in wakes if w is not None and w > now] + [target])
            await self.env.advance_time(max(due - now, 0.0) + 0.01)

    def next_wake(self, live: Any) -> float | None:
        timers = getattr(self.service, "timers", None)
        if timers is not None:
            return timers.next_wake(live)  # type: ignore[no-any-return]
        deadlines = [live.window.deadline, live.turn_deadline]
        return min((d for d in deadlines if d is not None), default=None)

    async def burst(self, t: Soaked) -> None:
        """Buys from every other seat (one of them twice), each from their own hand message
        (the table message carries no Buy), then the in-turn person's next step."""
        live = self.live(t)
        game = live.game
        if game is None or game.is_over:
            return
        current = int(game.current_player)
        if self.table_message(t) is None:
            return
        buyers = [p for p in t.people if p.id != current]
        for person in [*buyers, buyers[0]]:  # the first one clicks twice
            hand = await self.hand(t, person)
            buy = next((x for x in labels(hand) if x.startswith("Buy ")), None) if hand else None
            if buy is None:
                continue  # not offered to this one (asked already, or the window closed)
            await self.click(person, hand, label=buy)
            if "Buy request for" in text(hand):
                t.confirmed.append((person.id, "buy"))
        await self.turn(t, t.person(current))

    async def hand(self, t: Soaked, person: Any, fresh: bool = False) -> Any:
        result = t.hands.get(person.id)
        if result is None or fresh:
            message = self.table_message(t)
            if message is None or "My hand" not in labels(message):
                return None
            result = await self.click(person, message, label="My hand")
            if not result.ephemeral:
                return None
            t.hands[person.id] = result
        return result.response

    async def turn(self, t: Soaked, person: Any) -> None:
        """The in-turn person's next step: draw (held while the buy window runs), or discard."""
        hand = await self.hand(t, person, fresh=True)
        if hand is None:
            return
        if "Draw from stock" in labels(hand):
            drawn = await self.click(person, hand, label="Draw from stock")
            if "You got" in content(drawn):
                t.confirmed.append((person.id, "draw"))
            return
        found = discard_select(hand)
        if found is None:
            return
        custom_id, cards = found
        card = self.rng.choice(cards)
        done = await self.select(person, hand, [card], custom_id)
        if "You discarded" in content(done):
            t.confirmed.append((person.id, f"discard {card}"))

    # -- faults --------------------------------------------------------------------------------

    def playing(self) -> list[Soaked]:
        return [t for t in self.tables if t.fate == "playing" and t.guild is not self.lonely]

    async def kill(self) -> None:
        """Replace the bot by a fresh one on the same database; no shutdown path runs."""
        old = self.bot
        await self.env.restart_bot(self.make_bot())
        self.kills += 1
        # The killed process's connection would be gone with it.
        await old.store.close()

    def make_bot(self) -> Any:
        return create_bot(self.settings)

    async def fill_disk(self, full: bool) -> None:
        """Fill the database's filesystem with a filler file, or free it again. On a large
        filesystem (never fill a real disk) SQLite's ``max_page_count`` is pinned instead."""
        folder = Path(self.settings.database).parent  # the soak runs on SQLite
        filler = folder / "filler.bin"
        if small_filesystem(folder):
            self.disk_method = "filesystem filled"
            if full:
                fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                try:
                    for size in (1 << 20, 4096, 1):
                        with contextlib.suppress(OSError):
                            while os.write(fd, b"\0" * size):
                                pass
                finally:
                    os.close(fd)
            else:
                filler.unlink(missing_ok=True)
            return
        self.disk_method = "max_page_count pinned"
        db = self.service.store._db
        if full:
            pages = (await db.execute_fetchall("PRAGMA page_count"))[0][0]
            await db.execute_fetchall(f"PRAGMA max_page_count = {int(pages)}")
        else:
            await db.execute_fetchall("PRAGMA max_page_count = 4294967294")

    async def read_only(self, on: bool) -> None:
        await self.service.store._db.execute_fetchall(f"PRAGMA query_only = {int(on)}")

    async def delete_channels(self, count: int) -> None:
        for t in self.rng.sample(self.playing(), count):
            self.env.backend.delete_channel(t.channel.id)
            t.fate = "abandoned"

    async def kill_after_a_silent_delete(self) -> None:
        """A channel deleted while the bot is down: the new bot must notice at start-up."""
        t = self.rng.choice(self.playing())
        backend: Any = self.env.backend
        emit = backend.emit
        backend.emit = lambda *args, **kwargs: None
        try:
            backend.delete_channel(t.channel.id)
        finally:
            backend.emit = emit
        t.fate = "abandoned"
        await self.kill()

    def revoke(self, count: int) -> list[Soaked]:
        chosen = self.rng.sample(self.playing(), count)
        for t in chosen:
            self.env.backend.set_overwrite(
                t.channel.id, Overwrite(self.bot.user.id, OverwriteType.MEMBER, deny=SEND)
            )
            t.revoked = True
        return chosen

    def give_back(self, tables: list[Soaked]) -> None:
        for t in tables:
            self.env.backend.delete_overwrite(t.channel.id, self.bot.user.id)

    def remove_bot_from_lonely(self) -> None:
        self.env.backend.remove_guild(self.lonely.id)
        for t in self.tables:
            if t.guild is self.lonely:
                t.fate = "abandoned"

    # -- the whole run ----------------------------------------------------------------------------

    def enter(self, phase: str) -> None:
        """Start counting log records for ``phase``; say so on stderr (a long run's progress)."""
        self.log.phase = phase
        elapsed = time.perf_counter() - self.started
        print(f"[{elapsed:6.0f} s] {phase}: {self.clicks} clicks so far", file=sys.stderr)

    async def run(self) -> None:
        args = self.args
        self.started = time.perf_counter()
        gc.collect()
        self.rss_before = rss_mb()
        await self.open_all()
        self.enter("play")
        await self.round()
        await self.round()

        self.enter("channel deleted")
        await self.delete_channels(max(1, args.tables // 100))
        self.remove_bot_from_lonely()
        await self.round()

        self.enter("kill")
        await self.kill()
        await self.round()

        self.enter("permission revoked")
        revoked = self.revoke(max(1, args.tables // 100))
        await self.round()
        await self.round()

        self.enter("disk full")
        await self.fill_disk(True)
        await self.round()  # clicks are refused; held draws fail at the windows' close
        await self.clock_to(self.now() + 120)  # the timers retry, backing off
        await self.fill_disk(False)
        self.enter("disk freed")
        await self.clock_to(self.now() + 65)
        await self.round()

        self.enter("read-only")
        await self.read_only(True)
        await self.round()
        await self.clock_to(self.now() + 120)
        await self.read_only(False)
        await self.clock_to(self.now() + 65)

        self.enter("permission given back")
        self.give_back(revoked)
        await self.clock_to(self.now() + 65)

        self.enter("kills (one after a silent delete)")
        await self.kill_after_a_silent_delete()
        await self.round()
        await self.kill()
        await self.round()

        self.enter("end")
        await self.end_all()
        self.elapsed = time.perf_counter() - self.started

    async def end_all(self) -> None:
        """Hosts end most tables; the rest are played out by the turn timers."""
        playing = [t for t in self.tables if t.fate == "playing" and self.live(t) is not None]
        finish = set(self.rng.sample(range(len(playing)), min(self.args.finish, len(playing))))
        for k, t in enumerate(playing):
            if k in finish:
                continue
            host = t.people[0]
            ask = await host.slash(t.channel, "shanghai end")
            self.clicks += 1
            if ask.response is not None and "End the table" in labels(ask.response):
                await self.click(host, ask.response, label="End the table")
            t.fate = "ended"
        for t in self.tables:  # games that ended by play before now
            if t.fate == "playing" and self.live(t) is None:
                t.fate = "finished"
        for _ in range(200):
            if not self.service.tables:
                break
            await self.clock_to(self.now() + TURN_SECONDS + 1)
        for t in self.tables:
            if t.fate == "playing":
                t.fate = "finished" if self.live(t) is None else "still open"

    # -- checking ----------------------------------------------------------------------------------

    async def verify(self) -> dict[str, Any]:
        store = self.service.store
        lost = 0
        phantom = 0
        statuses: Counter[str] = Counter()
        for t in self.tables:
            record = await store.get_table(t.table_id)
            assert record is not None
            statuses[record.status] += 1
            log = [(a.user_id, a.action) for a in await store.actions(t.table_id)]
            lost += missing(t.confirmed, log)
            results = await store.table_results(t.table_id)
            if t.fate in ("abandoned", "ended"):
                phantom += len(results)
                if record.status != t.fate:  # "abandoned" or "ended" (by its host)
                    phantom += 1
            elif t.fate == "finished":
                humans = sum(1 for seat in record.seats if not seat.is_computer)
                winners = sum(1 for r in results if r.is_winner)
                if record.status != "finished" or len(results) != humans or winners < 1:
                    phantom += 1
        return {"lost": lost, "phantom": phantom, "statuses": statuses}


def missing(confirmed: list[tuple[int, str]], log: list[tuple[int, str]]) -> int:
    """How many confirmed actions are not in the log, matched in order."""
    position = 0
    lost = 0
    for action in confirmed:
        try:
            position = log.index(action, position) + 1
        except ValueError:
            lost += 1
    return lost


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(dir=args.db_dir) as scratch:
        settings = Settings(
            discord_token=SecretStr(TOKEN),
            database=Path(scratch) / "soak.sqlite3",
            seed=args.seed,
            edit_interval=0.0,
        )
        soak_log = Tracebacks()
        root = logging.getLogger()
        root.addHandler(soak_log)
        root.setLevel(logging.INFO)
        for noisy in ("discord", "simcord"):
            logging.getLogger(noisy).setLevel(logging.WARNING)
        if not args.pictures:
            no_pictures()
        latency = Latency()
        latency.install()  # before the first bot: its gateway parsers are bound at creation
        try:
            async with simcord.run(create_bot(settings), settle_timeout=8.0) as env:
                soak = Soak(env, settings, args)
                soak.log, soak.latency = soak_log, latency
                await soak.run()
                checked = await soak.verify()
                gc.collect()
                bot: Any = env.bot
                service, publisher = bot.service, bot.publisher
                from engine.players import hints

                memory = {
                    "rss": rss_mb(),
                    "tables": len(service.tables),
                    "outboxes": len(publisher.boxes),
                    "hint memo": len(hints._MEMO),
                    "tasks": len(asyncio.all_tasks()),
                }
                report(soak, checked, memory, env)
        finally:
            latency.uninstall()
            root.removeHandler(soak_log)


def print_sources(log: Tracebacks) -> None:
    """The loggers and messages behind the counts, most frequent first."""
    print("  what logged them (phase: logger: message [exception] x count):")
    for (phase, name, message, kind), count in log.sources.most_common(12):
        print(f"    {phase}: {name}: {message!r} [{kind or '-'}] x {count}")


def report(soak: Soak, checked: dict[str, Any], memory: dict[str, Any], env: Any) -> None:
    fates = Counter(t.fate for t in soak.tables)
    confirmed = sum(len(t.confirmed) for t in soak.tables)
    samples = soak.latency.samples
    dms = 0
    for t in soak.tables:
        if t.revoked:
            dms += len(t.people[0].user.dm_channel.history())
    revoked = sum(1 for t in soak.tables if t.revoked)
    print(
        f"soak: {len(soak.tables)} tables, {soak.clicks} clicks, {soak.kills} kills, "
        f"{soak.elapsed:.0f} s wall"
    )
    print(f"  fates: {dict(fates)}; database statuses: {dict(checked['statuses'])}")
    print(f"  actions confirmed to people: {confirmed}; lost: {checked['lost']}")
    print(f"  phantom results: {checked['phantom']}; clicks left unanswered: {soak.unanswered}")
    print(
        f"  disk full by: {soak.disk_method}; clicks refused because the database refused "
        f"them: {soak.storage_refusals}; apologies for a bug: {soak.apologies}"
    )
    print(f"  hosts told of a missing permission: {dms} DM(s) for {revoked} revoked channel(s)")
    print("  log per phase (tracebacks / errors / warnings):")
    phases = list(dict.fromkeys([*soak.log.tracebacks, *soak.log.errors, *soak.log.warnings]))
    for phase in phases:
        print(
            f"    {phase:<22} {soak.log.tracebacks[phase]:>5} / {soak.log.errors[phase]:>5} / "
            f"{soak.log.warnings[phase]:>5}"
        )
    print_sources(soak.log)
    if samples:
        print(
            f"  click latency, bot side (ms): p50 {statistics.median(samples) * 1000:.1f}, "
            f"p99 {percentile(samples, 99) * 1000:.1f}, max {max(samples) * 1000:.1f} "
            f"over {len(samples)} interactions"
        )
    print(
        f"  after every table ended: RSS {memory['rss']:.0f} MB (before opening them: "
        f"{soak.rss_before:.0f} MB); open tables "
        f"{memory['tables']}, outboxes {memory['outboxes']}, hint memo entries "
        f"{memory['hint memo']}, asyncio tasks {memory['tasks']}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--deals", type=int, default=1, help="deals per game (1-10)")
    parser.add_argument(
        "--finish", type=int, default=50, help="tables played out by the timers at the end"
    )
    parser.add_argument(
        "--per-round", type=int, default=100, help="tables that get a burst of clicks each round"
    )
    parser.add_argument(
        "--pictures", action="store_true", help="draw the real pictures (see the docstring)"
    )
    parser.add_argument(
        "--db-dir",
        default=None,
        help="where the database goes; on a filesystem of at most 1 GB (e.g. "
        "`mount -t tmpfs -o size=64m tmpfs DIR`) the disk-full phase really fills it",
    )
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
