"""``python -m tools.relaxed_week``: a relaxed game over a simulated week, through simcord.

Four people play a whole ten-deal relaxed Shanghai game in its own thread. Each lives in
their own time zone: twelve waking hours a day (the other twelve without a click), and one to
three sittings a day at random moments of those hours, of 15 to 60 minutes. In a sitting a
person opens **My hand** from the table message (their old hand's token is long dead) and
plays the turns that are theirs, clicking only what their own messages show, with the
engine's ``normal`` strategy choosing (``tools.bench_play``); a person who waits clicks only
what their hand asks (Buy / Pass, if their standing order asks them). Outside a sitting they
do nothing: the turn waits, times out, and after two missed turns in a row the computer
plays the seat until its person opens their hand again. The bot restarts twice a day
(04:00 and 16:00 UTC), each time from its database alone.

It prints what the issue measures:

- whether the game completed, and in how many days; the turns, and how many the computer
  played for someone absent;
- clicks of the people who wait, per turn;
- each person's turn start: told exactly once (a mention in the thread, or their open hand
  showing it), how many were told twice or never; reminders per turn (at most one);
- edits of a message older than an hour that keep live controls (the hot path: must be 0),
  and the strips of an old table message's controls (one per move, allowed);
- actions lost across the restarts (the table's version before and after);
- the most messages in the thread with live table controls at any look (must be 1);
- every REST request the bot made checked against Discord's OpenAPI description
  (``tools.discord_api``: a documented route, documented top-level body keys), when the
  description is at ``/work/shared/discord-api-spec/`` (it is not in the repository).

Measured on December 6 (seed 1, 7 days at most; the 2-hour game run again on the code of
December 6's evening, whose game plays out differently from the same seed):

======================================  ===================  =====================
figure                                  ``--turn-hours 2``   ``--turn-hours 24``
======================================  ===================  =====================
game completed                          yes, in 2.4 days     no (26 turns a week)
actions by their person / computer      378 / 854            62 / 0
clicks of those who wait                0 a turn             0 a turn
person's turn starts told exactly once  187 of 187           26 of 26
reminders of one turn                   at most 1            at most 1
edits of an hour-old message            0 (29 strips)        0 (36 strips)
restarts / actions lost                 5 / 0                14 / 0
messages with live controls             always 1             always 1
======================================  ===================  =====================

With 24-hour turns a turn waits for its person's next sitting, so four people who each sit
one to three times a day play a few turns a day: a ten-deal game takes weeks. With short
turns the computer stands in for whoever is away and the people play many turns a sitting.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import simcord
import simcord.http.router as simcord_router
from pydantic import SecretStr

from bot import Settings, create_bot
from tools.bench_play import TOKEN, Game, _labels
from tools.discord_api import DEFAULT_SPEC, ApiDescription, check_requests

DAY = 86_400.0
HOUR = 3_600.0
#: When the bot restarts each day (hours, UTC).
RESTARTS = (4.0, 16.0)
#: How far the clock moves while nobody of the turn is at the table.
STEP = 300.0
TURN_PING = re.compile(r"<@(\d+)>, your turn")
REMINDER = re.compile(r"<@(\d+)>, a reminder")
#: A message edited by REST, or through a click's webhook (a table message carried on it).
MESSAGE_EDIT = re.compile(r"^/(?:channels/\d+|webhooks/\d+/[^/]+)/messages/(\d+)$")
#: A message posted by REST, or as a click's follow-up (a table message and its pings moved
#: onto a click); an ephemeral follow-up (``EPHEMERAL``) tells nobody but its reader.
POSTED = re.compile(r"^/(?:channels/\d+/messages|webhooks/\d+/[^/]+)$")
FLAGS = re.compile(r"'flags': (\d+)")
EPHEMERAL = 1 << 6


@dataclass
class Request:
    """One REST request: its Discord time (unix), method, path and body's words."""

    at: float
    method: str
    path: str
    body: str


class Requests:
    """Every REST request with its time and body, for the checks afterwards."""

    def __init__(self) -> None:
        self.seen: list[Request] = []
        self.env: simcord.Env | None = None

    @contextmanager
    def installed(self) -> Iterator[None]:
        original = simcord_router.dispatch

        def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            at = backend.clock.now().timestamp()
            self.seen.append(Request(at, method, path, repr(kwargs.get("json"))))
            return original(backend, method, path, **kwargs)

        simcord_router.dispatch = dispatch
        try:
            yield
        finally:
            simcord_router.dispatch = original


@dataclass
class TurnStart:
    """A person's turn began: when, whose, and whether their open hand showed it."""

    at: float
    user_id: int
    followed: bool
    pings: int = 0
    reminders: int = 0


@dataclass
class WeekFigures:
    completed: bool = False
    status: str = ""
    days: float = 0.0
    turns: int = 0
    #: The game's actions, by their people and by the computer for someone absent.
    actions: int = 0
    person_actions: int = 0
    computer_actions: int = 0
    waiting_clicks: int = 0
    turn_starts: list[TurnStart] = field(default_factory=list)
    old_edits: int = 0
    old_strips: int = 0
    restarts: int = 0
    lost_actions: int = 0
    most_live_tables: int = 0
    fewest_live_tables: int = 99
    sittings: int = 0
    #: REST requests checked against Discord's API description (None: no description here),
    #: and why each invalid one is.
    api_checked: int | None = None
    api_invalid: list[str] = field(default_factory=list)
    api_library_only: int = 0

    @property
    def told_twice(self) -> int:
        return sum(1 for s in self.turn_starts if s.pings + s.followed > 1)

    @property
    def told_never(self) -> int:
        return sum(1 for s in self.turn_starts if s.pings + s.followed == 0)

    @property
    def most_reminders(self) -> int:
        return max((s.reminders for s in self.turn_starts), default=0)


def sittings(rng: Any, wake: float, days: int) -> list[tuple[float, float]]:
    """One person's sittings (start, end in seconds from the start), 1 to 3 a day within
    their twelve waking hours from ``wake`` o'clock."""
    found: list[tuple[float, float]] = []
    for day in range(days):
        awake = day * DAY + wake * HOUR
        for _ in range(rng.randint(1, 3)):
            length = rng.uniform(15, 60) * 60
            start = awake + rng.uniform(0, 12 * HOUR - length)
            found.append((start, start + length))
    found.sort()
    merged: list[tuple[float, float]] = []
    for start, end in found:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


class Week(Game):
    """The game of ``Game`` (``tools.bench_play``), played at a relaxed table over days."""

    def __init__(
        self,
        env: simcord.Env,
        make_bot: Callable[[], Any],
        requests: Requests,
        seed: int,
        turn_hours: int,
        days: int,
    ) -> None:
        super().__init__(env, 4, 0, 20.0, None, seed)
        self.make_bot = make_bot
        self.requests = requests
        self.turn_hours = turn_hours
        self.days = days
        wakes = (6.0, 9.0, 13.0, 20.0)  # four time zones
        self.sittings = {
            member.id: sittings(self.rng, wake, days + 1)
            for member, wake in zip(self.members, wakes, strict=True)
        }
        self.week = WeekFigures()
        self.opened: dict[int, float] = {}  # the sitting in which each opened their hand
        self.start = env.backend.clock.now().timestamp()
        self.restarted: set[tuple[int, float]] = set()

    # -- the clock ---------------------------------------------------------------------------

    async def wait(self, seconds: float) -> None:
        """``Game.wait``, patient while the clock moves: a table whose seats all play at once
        (everyone away) keeps the bot busy for many settles in a row."""
        clock = self.env.backend.clock
        target = clock.elapsed + seconds
        stuck = 0
        while stuck < 60:
            reached = clock.elapsed
            try:
                await self.env.advance_time(max(0.0, target - clock.elapsed))
                # A relaxed table rests out of memory between its wakes; the week reads it
                # where it is, as a click would bring it back.
                await self.service.resident(self.table_id)
                return
            except TimeoutError:
                stuck = 0 if clock.elapsed > reached else stuck + 1
        raise TimeoutError("the bot does not settle")

    @property
    def elapsed(self) -> float:
        return float(self.env.backend.clock.elapsed)

    def sitting(self, user_id: int) -> tuple[float, float] | None:
        now = self.elapsed
        return next(((a, b) for a, b in self.sittings[user_id] if a <= now < b), None)

    def next_sitting(self, user_id: int) -> float:
        now = self.elapsed
        return min((a for a, _ in self.sittings[user_id] if a > now), default=now + DAY)

    # -- the watch on turn starts -------------------------------------------------------------

    def watch(self) -> None:
        """Note every turn start of a person as the bot tells its listeners (again after
        each restart: a new bot)."""
        service = self.env.bot.service  # type: ignore[attr-defined]
        listener = service.listener
        hands = self.env.bot.hands  # type: ignore[attr-defined]
        told = listener.table_changed

        def table_changed(change: Any) -> None:
            view = change.table.view
            if change.new_turn and change.kind != "restore" and view and not view.is_over:
                self.week.turns += 1
                seat = view.current
                table = change.table
                if not table.is_computer(seat) and not table.is_away(seat):
                    user = table.record.seats[seat].user_id
                    follows = bool(hands.follows(table.id, user))
                    self.week.turn_starts.append(TurnStart(self.now(), user, follows))
            told(change)

        listener.table_changed = table_changed

    def now(self) -> float:
        return float(self.env.backend.clock.now().timestamp())

    # -- the week ----------------------------------------------------------------------------

    async def restart_if_due(self) -> None:
        day = int(self.elapsed // DAY)
        for hour in RESTARTS:
            at = day * DAY + hour * HOUR
            if self.elapsed >= at and (day, hour) not in self.restarted:
                self.restarted.add((day, hour))
                before = self.table.version
                stored = await self.env.bot.store.get_table(self.table_id)  # type: ignore[attr-defined]
                await self.env.restart_bot(self.make_bot())
                await self.wait(1)
                self.watch()
                self.week.restarts += 1
                after = self.table.version if self.table is not None else stored.version
                self.week.lost_actions += max(0, max(before, stored.version) - after)
                self.hands.clear()
                self.opened.clear()

    def look_at_thread(self) -> None:
        table = self.table
        if table is None:
            return
        home = self.channel
        if table.channel_id != self.channel.id:
            home = next(t for t in self.channel.threads if t.id == table.channel_id)
        live = sum(1 for m in home.history() if "My hand" in _labels(m))
        self.week.most_live_tables = max(self.week.most_live_tables, live)
        self.week.fewest_live_tables = min(self.week.fewest_live_tables, live)

    async def play_week(self) -> WeekFigures:
        host = self.members[0]
        opened = await host.slash(
            self.channel, "shanghai new", pace="relaxed", turn_hours=self.turn_hours
        )
        assert opened.acknowledged, "could not open a table"
        self.table_id = self.service.for_channel(self.channel.id).id
        for member in self.members[1:]:
            await self.settled(member.click(self.table_message(), label="Join"))
        self.watch()
        await self.settled(host.click(self.table_message(), label="Start"))
        await self.wait(self.pace)
        week = self.week
        while self.table is not None and not self.table.game.is_over:
            if self.elapsed > self.days * DAY:
                break
            await self.restart_if_due()
            table = self.table
            if table is None:
                break
            game = table.game
            if table.pause_until is not None:
                await self.wait(max(0.0, table.pause_until - self.service.clock()) + 0.01)
                continue
            seat = game.current
            user_id = int(game.players[seat])
            # A person away from the table does nothing, whatever their old hand shows; one
            # who sits down opens their hand (which brings back a seat the computer played).
            self.hands = {u: h for u, h in self.hands.items() if self.sitting(u) is not None}
            for member in self.members:
                sitting = self.sitting(member.id)
                if sitting is not None and self.opened.get(member.id) != sitting[0]:
                    self.opened[member.id] = sitting[0]
                    week.sittings += 1
                    self.hands[member.id] = await self.settled(
                        member.click(self.table_message(), label="My hand")
                    )
            if self.table is None or self.table.game.is_over:
                break
            game = self.table.game
            user_id = int(game.players[game.current])
            here = self.sitting(user_id)
            if here is None:
                soonest = min(self.next_sitting(m.id) for m in self.members)
                wait = min(STEP, max(1.0, soonest - self.elapsed))
                before = table.version
                await self.wait(wait)
                self.look_at_thread()
                if self.table is not None and self.table.version != before:
                    await self.buyers()
                continue
            others = self.figures.other_clicks
            await self.person_turn(user_id)
            week.waiting_clicks += self.figures.other_clicks - others
            self.look_at_thread()
        stored = await self.env.bot.store.get_table(self.table_id)  # type: ignore[attr-defined]
        week.status = stored.status
        week.completed = stored.status == "finished" or (
            self.table is not None and self.table.game.is_over
        )
        week.days = self.elapsed / DAY
        week.actions = sum(state.own + state.auto for state in stored.away)
        week.computer_actions = sum(state.auto for state in stored.away)
        week.person_actions = sum(state.own for state in stored.away)
        self.check_requests()
        self.check_against_api()
        return week

    def check_against_api(self) -> None:
        """Every request the bot made, matched to a documented route and body keys."""
        if not DEFAULT_SPEC.exists():
            return
        checked = check_requests(self.env.http_requests, ApiDescription.load())
        self.week.api_checked = checked.count
        self.week.api_invalid = checked.invalid
        self.week.api_library_only = checked.library_only

    def check_requests(self) -> None:
        """Old messages edited, and the pings and reminders of each turn start."""
        week = self.week
        starts = week.turn_starts
        for request in self.requests.seen:
            edit = MESSAGE_EDIT.match(request.path)
            if request.method == "PATCH" and edit:
                posted = discord.utils.snowflake_time(int(edit.group(1))).timestamp()
                if request.at - posted >= HOUR:
                    if "'custom_id': 'sh:" in request.body:
                        week.old_edits += 1
                    else:
                        week.old_strips += 1
            if request.method != "POST" or not POSTED.match(request.path):
                continue
            flags = FLAGS.search(request.body)
            if flags and int(flags.group(1)) & EPHEMERAL:
                continue
            for pattern, what in ((TURN_PING, "pings"), (REMINDER, "reminders")):
                for user in pattern.findall(request.body):
                    mine = [s for s in starts if s.user_id == int(user) and s.at <= request.at]
                    if mine:
                        setattr(mine[-1], what, getattr(mine[-1], what) + 1)


async def run_week(seed: int, folder: Path, *, turn_hours: int = 2, days: int = 10) -> WeekFigures:
    settings = Settings(
        discord_token=SecretStr(TOKEN),
        database=folder / f"week-{seed}.sqlite3",
        seed=seed,
        threads=True,
    )
    requests = Requests()
    with requests.installed():
        async with simcord.run(create_bot(settings), settle_timeout=1.0) as env:
            requests.env = env
            game = Week(env, lambda: create_bot(settings), requests, seed, turn_hours, days)
            return await game.play_week()


def report(week: WeekFigures) -> None:
    turns = max(1, week.turns)
    told = Counter(s.pings + s.followed for s in week.turn_starts)
    print(
        f"game completed:               {week.completed} ({week.days:.1f} days, "
        f"table {week.status})"
    )
    print(f"turns:                        {week.turns}")
    print(
        f"actions:                      {week.actions} ({week.person_actions} by their person, "
        f"{week.computer_actions} by the computer for someone absent)"
    )
    print(f"sittings:                     {week.sittings}")
    print(f"clicks of those who wait:     {week.waiting_clicks / turns:.3f} a turn")
    print(
        f"turn starts of people:        {len(week.turn_starts)}; told once {told[1]}, "
        f"twice or more {week.told_twice}, never {week.told_never}"
    )
    print(f"reminders of one turn:        at most {week.most_reminders}")
    print(
        f"edits of an hour-old message: {week.old_edits} "
        f"(strips of old controls: {week.old_strips})"
    )
    print(f"restarts:                     {week.restarts}; actions lost {week.lost_actions}")
    print(
        f"messages with live controls:  {week.fewest_live_tables}-{week.most_live_tables} "
        "at any look"
    )
    if week.api_checked is None:
        print(f"requests against the API:     not checked ({DEFAULT_SPEC} is absent)")
    else:
        print(
            f"requests against the API:     {week.api_checked} checked, "
            f"{len(week.api_invalid)} kinds invalid (and {week.api_library_only} edits "
            "with discord.py's own tts: false, undocumented for an edit)"
        )
        for reason in week.api_invalid[:20]:
            print(f"  invalid: {reason}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turn-hours", type=int, default=2)
    parser.add_argument("--days", type=int, default=10, help="give up after this many days")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        week = asyncio.run(
            run_week(args.seed, Path(folder), turn_hours=args.turn_hours, days=args.days)
        )
    report(week)


if __name__ == "__main__":
    main()
