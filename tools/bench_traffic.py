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

from bot.channel.budget import PING, RECAP, TABLE, TokenBudget, process_share

ROOT = Path(__file__).resolve().parent.parent

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
    "busy tables per 50 req/s": r"-> ([\d,]+) busy tables",
}


def play(tree: Path, seed: int) -> dict[str, str]:
    """One whole game of 4 people through ``tree``'s own ``tools.bench_play``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    command = [sys.executable, "-m", "tools.bench_play", "--layouts", "4+0", "--seed", str(seed)]
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
    lags: list[float] = field(default_factory=list)
    #: How long a ping's move or a recap waited for the token, from the change.
    player_lags: list[float] = field(default_factory=list)
    stale: list[float] = field(default_factory=list)
    pings: int = 0
    pings_out: int = 0
    recaps: int = 0
    recaps_out: int = 0
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


async def game(box: Box, rng: random.Random, turns: int, ping_share: float) -> None:
    """A turn every 5 s, whatever the channel does meanwhile."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(rng.uniform(0, 5))
    dealt = rng.randrange(45)  # the turn of its deal each table starts at
    for turn in range(1, turns + 1):
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
            await sim.send(PING)
            await sim.send(PING)
            sim.pings_out += pings
            sim.player_lags.append(loop.time() - asked)
            box.unshown, last = None, loop.time()
            continue
        if box.unshown is None:
            continue
        due = max(last + pace, box.unshown)
        if loop.time() < due:
            await asyncio.sleep(due - loop.time())
        if sim.after and not sim.budget.has_room(TABLE):
            await sim.budget.wait_room(TABLE)  # merging: the edit draws the latest state
        if box.unshown is None:  # a move showed it meanwhile
            continue
        sim.lags.append(loop.time() - due)
        sim.stale.append(loop.time() - box.unshown)
        box.unshown = None
        await sim.send(TABLE)
        last = loop.time()
        box.wake.set()  # look again: changes may have come while it was sent


async def table(sim: Sim, rng: random.Random, turns: int, ping_share: float) -> None:
    box = Box()
    await asyncio.gather(game(box, rng, turns, ping_share), publisher(sim, box))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def token_run(tables: int, after: bool, rate: float, turns: int, ping_share: float) -> Sim:
    loop = VirtualLoop()
    try:
        budget = TokenBudget(process_share(1, 1, rate))
        sim = Sim(after, Token(rate), budget)
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


def row(name: str, before: object, after: object) -> None:
    print(f"  {name:<34} {before!s:>18} {after!s:>18}")


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
    parser.add_argument("--skip-games", action="store_true", help="only the token's model")
    args = parser.parse_args()
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
                figures = (play(old, args.seed), play(ROOT, args.seed))
            finally:
                subprocess.run(
                    ["git", "worktree", "remove", "--force", str(old)], cwd=ROOT, check=False
                )
        print(f"== whole game, 4 people, seed {args.seed}: {args.before} | this tree")
        for name in PLAY_FIGURES:
            row(name, figures[0][name], figures[1][name])
    for count in (int(n) for n in args.tables.split(",")):
        sims = [
            token_run(count, after, args.rate, args.turns, args.ping_share)
            for after in (False, True)
        ]
        print(
            f"== {count} busy tables on one token of {args.rate:g} req/s, a turn every 5 s, "
            f"{args.turns} turns each: before | after"
        )
        row("global 429s caused by the bot", *(s.token.refused for s in sims))
        row("calls a second", *(f"{s.token.total / s.length:.1f}" for s in sims))
        row("ping or recap behind, p99 s", *(f"{percentile(s.player_lags, 99):.2f}" for s in sims))
        row("edit behind its pacing, p99 s", *(f"{percentile(s.lags, 99):.2f}" for s in sims))
        row("oldest change unshown, p99 s", *(f"{percentile(s.stale, 99):.2f}" for s in sims))
        row("pings made / delivered", *(f"{s.pings} / {s.pings_out}" for s in sims))
        row("recaps made / delivered", *(f"{s.recaps} / {s.recaps_out}" for s in sims))
        row("calls that waited for the budget", "-", sims[1].budget.waited)


if __name__ == "__main__":
    main()
