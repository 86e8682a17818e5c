"""``python -m tools.bench_traffic``: the channel traffic of this tree beside another commit's.

Two parts, each printed side by side (``--before`` names the other commit; the default is the
parent of HEAD):

1. Whole games through simcord (``tools.bench_play``, 4 people, the same seed): clicks and
   seconds a turn, channel calls a turn, bytes to the channel and to the hands. The other
   commit's tree is checked out in a temporary git worktree and its own ``bench_play`` runs
   there, so each side measures its own code.
2. One bot token shared by 300, 600 and 1,000 busy tables (a turn every 5 s each) on a
   virtual clock. Discord is modelled as a token allowing ``--rate`` requests a second (a
   call beyond that in any second earns a *global* 429). Each table makes the calls its
   publisher makes: the table message redrawn at its pace (7.5 s before, 12 s after, when
   every person follows their hand), a move that pings a player whose hand is closed
   (``--ping-share`` of turns: a strip and a post), a deal's recap every 45 turns (before:
   the last moves' line, the recap and the table posted again; after: the recap alone). The
   "after" side spends through ``bot.channel.budget.TokenBudget`` as the publisher does
   (pings and recaps first, a spectator's edit waits for room and merges); the "before" side
   sends as soon as its pacing allows. Printed: global 429s caused by the bot, how long a
   ping's move or a recap waited for the token (p99), how far each spectators' table edit
   went out behind the moment its own pacing made it due (p99), the oldest change
   a table message did not show yet when it was drawn (p99), pings and recaps made and
   delivered, and the calls a second. A click's first answer is an interaction response,
   which Discord does not count against the token: it never waits for this budget.

   A third column, "clicks", is the publisher with its courier (``bot.channel.courier``):
   people and computers alternate at each table (``--people`` of its 4 seats are people, so
   that share of turns is a person's, who clicks in their hand during it), and while a
   person clicked within the last 14 minutes the table message rides on that click's
   webhook: its edits, and the posts of its moves, cost the token nothing, and they keep the
   publisher's carried pace (``CARRIED_TURNS`` intervals, or ``--spectator-seconds``) rather
   than the quiet pace; moving it onto a click posts the new copy first and strips the old
   one afterwards, by REST at
   the lowest priority unless the click that posted it still lives. Without a fresh click it
   is the "after" column's REST path, budgeted. Every table starts within the same 5 s with
   a message posted by REST, so the first move of each onto a click leaves a burst of strips
   that waits for the token's room while the new copies already show the game; the oldest
   change unshown is printed for the whole run and for the edits after the first minute.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import selectors
import subprocess
import sys
import tempfile
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.channel.budget import PING, RECAP, STRIP, TABLE, TokenBudget, process_share
from bot.channel.courier import EDIT_SECONDS, HANDOVER_SECONDS
from bot.channel.outbox import CARRIED_TURNS

ROOT = Path(__file__).resolve().parent.parent

#: The publisher's ordinary pace between two redraws of a table message (``edit_interval``),
#: and its pace for a redraw carried on a click while every person follows their hand.
INTERVAL = 1.5
CARRIED = CARRIED_TURNS * INTERVAL

#: The figures read from ``tools.bench_play``'s report, by a pattern each.
PLAY_FIGURES = {
    "clicks a turn (mean)": r"clicks per turn median [\d.]+, mean ([\d.]+)",
    "seconds a turn": r", ([\d.]+) s a turn",
    "channel messages": r"channel: (\d+) messages",
    "channel edits": r"messages, (\d+) edits",
    "channel calls a turn": r"= ([\d.]+) per turn",
    "MiB to the channel": r"uploaded: channel ([\d.]+) MiB",
    "MiB to the hands": r"interaction responses ([\d.]+) MiB",
    "most channel calls in 5 s": r"most channel calls in 5 s: (\d+)",
    "channel calls a turn on the token": r"on the token: \d+ calls = ([\d.]+) per turn",
    "busy tables per 50 req/s": r"-> ([\d,]+) busy tables",
    "table message behind its game, p99 s": r"behind its game: median [\d.]+ s, p99 ([\d.]+)",
}


def play(tree: Path, seed: int, *options: str) -> dict[str, str]:
    """One whole game of 4 people through ``tree``'s own ``tools.bench_play``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    command = [sys.executable, "-m", "tools.bench_play", "--layouts", "4+0", "--seed", str(seed)]
    command += options
    out = subprocess.run(
        command, cwd=tree, env=env, capture_output=True, text=True, check=True
    ).stdout
    return {
        name: (m.group(1) if (m := re.search(p, out)) else "?") for name, p in PLAY_FIGURES.items()
    }


class _VirtualSelector(selectors.DefaultSelector):
    """A selector whose waits move the loop's clock instead of sleeping."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def select(self, timeout: float | None = None) -> Any:
        if timeout is not None and timeout > 0:
            self.now += timeout
        return super().select(0)


class VirtualLoop(asyncio.SelectorEventLoop):
    """An event loop on a virtual clock: an hour of tables runs in seconds."""

    def __init__(self) -> None:
        self._virtual = _VirtualSelector()
        super().__init__(self._virtual)

    def time(self) -> float:
        return self._virtual.now


@dataclass
class Token:
    """Discord's side: the calls of the last second, and the global 429s they earned."""

    rate: float
    calls: deque[float] = field(default_factory=deque)
    refused: int = 0
    total: int = 0

    def call(self, now: float) -> None:
        while self.calls and now - self.calls[0] >= 1.0:
            self.calls.popleft()
        self.total += 1
        if len(self.calls) >= self.rate:
            self.refused += 1  # a global 429: every table of the token stops
        self.calls.append(now)


@dataclass
class Sim:
    after: bool
    token: Token
    budget: TokenBudget
    #: Whether the table message rides on people's clicks (the courier) when it can.
    clicks: bool = False
    #: Seats of 4 that people hold (they alternate with computers).
    people: int = 2
    #: Calls carried through clicks' webhooks instead of the token.
    carried: int = 0
    #: The pace of a redraw carried on a click (``SHANGHAI_SPECTATOR_SECONDS``).
    carried_pace: float = CARRIED
    lags: list[float] = field(default_factory=list)
    #: How long a ping's move or a recap waited for the token, from the change.
    player_lags: list[float] = field(default_factory=list)
    stale: list[float] = field(default_factory=list)
    #: ``stale`` of the edits drawn after the first minute, once every table has begun.
    stale_later: list[float] = field(default_factory=list)
    pings: int = 0
    pings_out: int = 0
    recaps: int = 0
    recaps_out: int = 0
    late_strips: int = 0
    length: float = 0.0

    async def send(self, rank: int) -> None:
        if self.after:
            await self.budget.spend(rank)
        self.token.call(asyncio.get_running_loop().time())


@dataclass
class Box:
    """What one table's publisher still has to send."""

    pings: int = 0
    recaps: int = 0
    #: When the oldest change the table message does not show yet came (None: it shows all).
    unshown: float | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    over: bool = False
    #: When a person last clicked in their hand (None: never), and when the click whose
    #: webhook posted the table message was made (None: posted by REST).
    clicked: float | None = None
    carrier: float | None = None
    #: The strips of old copies waiting for the token's room (``strip_later``).
    late: list[asyncio.Task[None]] = field(default_factory=list)


def young(since: float | None, now: float, life: float) -> bool:
    return since is not None and now - since < life


def rides(sim: Sim, box: Box, now: float) -> bool:
    """Whether the table message's next edit goes through a click's webhook."""
    if not sim.clicks:
        return False
    return young(box.carrier, now, EDIT_SECONDS) or young(box.clicked, now, HANDOVER_SECONDS)


async def show(sim: Sim, box: Box, rank: int, move: bool) -> None:
    """Edit the table message, or ``move`` it (a strip and a post), the way the publisher
    does: through a young click's webhook when it can (``bot.channel.courier``), else REST."""
    now = asyncio.get_running_loop().time()
    if not sim.clicks:
        for _ in range(2 if move else 1):
            await sim.send(rank)
        return
    alive = young(box.carrier, now, EDIT_SECONDS)
    fresh = young(box.clicked, now, HANDOVER_SECONDS)
    handover = fresh and (not alive or (now - (box.carrier or now) >= HANDOVER_SECONDS))
    if not move and alive and not handover:
        sim.carried += 1  # an edit through the click that posted it
        return
    if not (move or handover):
        await sim.send(rank)  # no young click: the REST edit
        return
    if fresh:  # the new copy first, through the click: it shows at once
        sim.carried += 1
        box.carrier = box.clicked
        if alive:  # the old message is stripped through its own click
            sim.carried += 1
        else:  # by REST, when the token has room for a call only spectators need
            box.late.append(asyncio.get_running_loop().create_task(strip_later(sim)))
        return
    if alive:
        sim.carried += 1
    else:
        await sim.send(rank)
    await sim.send(rank)
    box.carrier = None


async def strip_later(sim: Sim) -> None:
    """The old copy's REST strip after a move onto a click, at the lowest priority."""
    await sim.budget.wait_room(STRIP)
    await sim.send(STRIP)
    sim.late_strips += 1


async def game(box: Box, rng: random.Random, turns: int, ping_share: float, people: int) -> None:
    """A turn every 5 s, whatever the channel does meanwhile; of each 4 turns, ``people``
    are people's (they click in their hand), the others computers'."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(rng.uniform(0, 5))
    dealt = rng.randrange(45)  # the turn of its deal each table starts at
    for turn in range(1, turns + 1):
        if PEOPLE_SEATS[people][turn % 4]:
            box.clicked = loop.time()
        box.unshown = loop.time() if box.unshown is None else box.unshown
        box.recaps += (turn + dealt) % 45 == 0  # a deal's end
        box.pings += rng.random() < ping_share  # a turn begins for a closed hand
        box.wake.set()
        await asyncio.sleep(5.0)
    box.over = True
    box.wake.set()


async def publisher(sim: Sim, box: Box) -> None:
    """The table's outbox: pings and recaps at once, the table message at its pace; after,
    through the budget, where a spectator's edit waits for room and merges meanwhile."""
    loop = asyncio.get_running_loop()
    pace = 12.0 if sim.after else 7.5
    last = float("-inf")
    while not (box.over and not box.pings and not box.recaps and box.unshown is None):
        await box.wake.wait()
        box.wake.clear()
        while box.recaps:
            box.recaps -= 1
            sim.recaps += 1
            asked = loop.time()
            for _ in range(1 if sim.after else 3):
                await sim.send(RECAP)
            sim.recaps_out += 1
            sim.player_lags.append(loop.time() - asked)
        if box.pings:  # one move carries every ping waiting: a strip and a post
            pings, box.pings = box.pings, 0
            sim.pings += pings
            asked = loop.time()
            await show(sim, box, PING, move=True)
            sim.pings_out += pings
            sim.player_lags.append(loop.time() - asked)
            box.unshown, last = None, loop.time()
            continue
        if box.unshown is None:
            continue
        # A redraw carried on a click costs the token nothing: it keeps the publisher's
        # carried pace, a little faster than the quiet pace that spares the token.
        step = sim.carried_pace if rides(sim, box, loop.time()) else pace
        due = max(last + step, box.unshown)
        if loop.time() < due:
            await asyncio.sleep(due - loop.time())
        busy = sim.after and not sim.budget.has_room(TABLE)
        if busy and not rides(sim, box, loop.time()):
            # Merging: the edit draws the latest state; a click meanwhile carries it at once.
            await sim.budget.wait_room(TABLE, until=lambda: rides(sim, box, loop.time()))
        if box.unshown is None:  # a move showed it meanwhile
            continue
        sim.lags.append(loop.time() - due)
        sim.stale.append(loop.time() - box.unshown)
        if loop.time() >= 60.0:
            sim.stale_later.append(loop.time() - box.unshown)
        box.unshown = None
        await show(sim, box, TABLE, move=False)
        last = loop.time()
        box.wake.set()  # look again: changes may have come while it was sent


#: Which of a table's 4 seats people hold, by how many: people and computers alternate.
PEOPLE_SEATS = {
    0: (False, False, False, False),
    1: (True, False, False, False),
    2: (True, False, True, False),
    3: (True, True, True, False),
    4: (True, True, True, True),
}


async def table(sim: Sim, rng: random.Random, turns: int, ping_share: float) -> None:
    box = Box()
    await asyncio.gather(game(box, rng, turns, ping_share, sim.people), publisher(sim, box))
    await asyncio.gather(*box.late)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def token_run(
    tables: int,
    after: bool,
    rate: float,
    turns: int,
    ping_share: float,
    clicks: bool = False,
    people: int = 2,
    carried_pace: float = CARRIED,
) -> Sim:
    loop = VirtualLoop()
    try:
        budget = TokenBudget(process_share(1, 1, rate))
        sim = Sim(after, Token(rate), budget, clicks, people, carried_pace=carried_pace)
        rng = random.Random(tables)

        async def main() -> None:
            await asyncio.gather(
                *(table(sim, random.Random(rng.random()), turns, ping_share) for _ in range(tables))
            )

        loop.run_until_complete(main())
        sim.length = loop.time()
        return sim
    finally:
        loop.close()


def row(name: str, *figures: object) -> None:
    print(f"  {name:<34}" + "".join(f" {figure!s:>18}" for figure in figures))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="HEAD~1", help="the commit to compare with")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate", type=float, default=50.0, help="the token's requests a second")
    parser.add_argument("--tables", default="300,600,1000")
    parser.add_argument("--turns", type=int, default=40, help="turns each table plays")
    parser.add_argument(
        "--ping-share", type=float, default=0.05, help="turns that ping a closed hand"
    )
    parser.add_argument(
        "--people", type=int, default=2, choices=range(5), help="seats of 4 held by people"
    )
    parser.add_argument("--skip-games", action="store_true", help="only the token's model")
    parser.add_argument(
        "--spectator-seconds",
        type=float,
        default=CARRIED,
        help="this tree's pace of redraws carried on clicks (SHANGHAI_SPECTATOR_SECONDS)",
    )
    args = parser.parse_args()
    pace = ("--spectator-seconds", f"{args.spectator_seconds:g}")
    if not args.skip_games:
        with tempfile.TemporaryDirectory() as folder:
            old = Path(folder) / "before"
            subprocess.run(
                ["git", "worktree", "add", "--detach", str(old), args.before],
                cwd=ROOT,
                check=True,
                capture_output=True,
            )
            try:
                figures = (play(old, args.seed), play(ROOT, args.seed, *pace))
            finally:
                subprocess.run(
                    ["git", "worktree", "remove", "--force", str(old)], cwd=ROOT, check=False
                )
        print(f"== whole game, 4 people, seed {args.seed}: {args.before} | this tree")
        for name in PLAY_FIGURES:
            row(name, figures[0][name], figures[1][name])
    share = args.people / 4
    for count in (int(n) for n in args.tables.split(",")):
        sims = [
            token_run(
                count,
                after,
                args.rate,
                args.turns,
                args.ping_share,
                clicks,
                args.people,
                args.spectator_seconds,
            )
            for after, clicks in ((False, False), (True, False), (True, True))
        ]
        print(
            f"== {count} busy tables on one token of {args.rate:g} req/s, a turn every 5 s, "
            f"{args.turns} turns each, {share:.0%} of turns people's, redraws carried on "
            f"clicks every {args.spectator_seconds:g} s: before | after, REST only | after, clicks"
        )
        row("global 429s caused by the bot", *(s.token.refused for s in sims))
        row("calls a second", *(f"{s.token.total / s.length:.1f}" for s in sims))
        row("ping or recap behind, p99 s", *(f"{percentile(s.player_lags, 99):.2f}" for s in sims))
        row("edit behind its pacing, p99 s", *(f"{percentile(s.lags, 99):.2f}" for s in sims))
        row("oldest change unshown, p99 s", *(f"{percentile(s.stale, 99):.2f}" for s in sims))
        later = (f"{percentile(s.stale_later, 99):.2f}" for s in sims)
        row("  the same after the first minute", *later)
        row("pings made / delivered", *(f"{s.pings} / {s.pings_out}" for s in sims))
        row("recaps made / delivered", *(f"{s.recaps} / {s.recaps_out}" for s in sims))
        row("calls that waited for the budget", "-", *(s.budget.waited for s in sims[1:]))
        row("calls carried on clicks", "-", "-", sims[2].carried)
        row("old copies stripped later by REST", "-", "-", sims[2].late_strips)


if __name__ == "__main__":
    main()
