"""``python -m tools.bench_answer``: how fast a click on the largest hand is answered.

An 8-player table with unlimited buys (``/shanghai new buy_limit:unlimited``), played through
simcord; at deal 10 the seat to move holds 80 cards (``tools.big_hands.pile_up``, a new hand
per ``--hands`` seed). For each hand the player clicks **My hand** on the table message, then
**Hint** and **Refresh** on the hand. Per click it records, in wall seconds from the click:

- the *first answer*: the first interaction callback the bot sends (what Discord's 3 s rule
  is about; a deferral counts, and is what a slow click sends first);
- the *last answer*: the last request of that click (the finished hand, edited in);

and, from a probe thread (``tools.loop_probe``), the event loop's worst lag while the clicks
ran: how long every other table on the bot waited. It prints p50 / p99 / max of each.

Issue 29.2 measured before: the first answer of My hand on such hands 7.1-9.4 s (2.7-31.6 s
for random 60-95-card hands), the loop blocked for as long.

Measured December 2 (10 hands, seeds 0-9, this 2-core machine at load 2.8): first answer p99
My hand 0.002 s, Hint 0.021 s, Refresh 0.001 s (every one deferred at once); last answer
My hand p50 1.29 s, p99 9.75 s (the engine's legal plays of the hand, in the worker
process), Hint p99 9.34 s (the plain hint's search, in a thread); the loop's lag p99 17.7 ms,
max 44.3 ms, beside 7.4 ms idle. With the legal plays in a thread instead of the process
(load 5.5-7): max 243-258 ms, p99 76-105 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import simcord
import simcord.http.router as simcord_router
from pydantic import SecretStr

from bot import Settings, create_bot
from tools.big_hands import LARGEST, pile_up
from tools.loop_probe import LoopProbe

TOKEN = "x" * 24 + ".abcdef." + "y" * 27
DEFERRED_MESSAGE, DEFERRED_UPDATE = 5, 6
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]


@dataclass
class Timed:
    """Requests with their wall time (``perf_counter``)."""

    #: (wall time, method, path, interaction callback type or 0)
    calls: list[tuple[float, str, str, int]] = field(default_factory=list)

    @contextmanager
    def installed(self) -> Iterator[None]:
        original = simcord_router.dispatch

        def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            body = kwargs.get("json")
            kind = body.get("type", 0) if isinstance(body, dict) else 0
            self.calls.append((time.perf_counter(), method, path, int(kind or 0)))
            return original(backend, method, path, **kwargs)

        simcord_router.dispatch = dispatch
        try:
            yield
        finally:
            simcord_router.dispatch = original


@dataclass
class Figures:
    first: dict[str, list[float]] = field(default_factory=dict)
    last: dict[str, list[float]] = field(default_factory=dict)
    deferred: dict[str, int] = field(default_factory=dict)
    lags: list[float] = field(default_factory=list)
    #: The lag of the same loop doing nothing, for as long: the machine's own noise.
    idle: list[float] = field(default_factory=list)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


async def measure(
    hands: int, size: int, first_seed: int, folder: Path, idle: float = 10.0
) -> Figures:
    settings = Settings(
        discord_token=SecretStr(TOKEN),
        database=folder / "bench-answer.sqlite3",
        seed=1,
        turn_seconds=3600,
        threads=False,  # the game stays in the channel, where the benchmark looks
    )
    timed = Timed()
    figures = Figures()
    with timed.installed():
        async with simcord.run(create_bot(settings), settle_timeout=120) as env:
            guild = env.create_guild()
            channel = guild.create_text_channel("cards")
            members = [guild.add_member(env.create_user(name)) for name in NAMES]
            opened = await members[0].slash(channel, "shanghai new", buy_limit="unlimited")
            assert opened.response is not None, "no lobby"
            service = env.bot.service  # type: ignore[attr-defined]
            table = service.for_channel(channel.id)

            def table_message() -> Any:
                message_id = service.for_channel(channel.id).record.message_id
                return next(m for m in channel.history() if m.id == message_id)

            for member in members[1:]:
                await member.click(opened.response.message, label="Join")
            await members[0].click(table_message(), label="Start")
            loop = asyncio.get_running_loop()
            with LoopProbe(loop) as probe:
                await asyncio.get_running_loop().run_in_executor(None, time.sleep, idle)
            figures.idle.extend(probe.lags)
            for number in range(hands):
                game = table.game
                seat = pile_up(game, size, seed=first_seed + number)
                player = next(m for m in members if str(m.id) == game.players[seat])
                with LoopProbe(loop) as probe:
                    hand = await timed_click(
                        figures, timed, "My hand", player.click(table_message(), label="My hand")
                    )
                    for label in ("Hint", "Refresh"):
                        await timed_click(
                            figures, timed, label, player.click(hand.response, label=label)
                        )
                figures.lags.extend(probe.lags)
                print(
                    f"  hand {number + 1}/{hands} (seed {first_seed + number}): My hand first "
                    f"{figures.first['My hand'][-1]:.3f} s, last {figures.last['My hand'][-1]:.2f}"
                    f" s; worst loop lag {probe.worst * 1000:.0f} ms",
                    flush=True,
                )
    return figures


async def timed_click(figures: Figures, timed: Timed, label: str, click: Any) -> Any:
    index = len(timed.calls)
    started = time.perf_counter()
    result = await click
    calls = timed.calls[index:]
    answers = [c for c in calls if c[2].startswith("/interactions/")]
    assert answers, f"{label}: never answered"
    figures.first.setdefault(label, []).append(answers[0][0] - started)
    figures.last.setdefault(label, []).append(calls[-1][0] - started)
    deferred = answers[0][3] in (DEFERRED_MESSAGE, DEFERRED_UPDATE)
    figures.deferred[label] = figures.deferred.get(label, 0) + deferred
    return result


def report(figures: Figures) -> None:
    print("click        first answer p50 / p99 / max    last answer p50 / p99 / max   deferred")
    for label, firsts in figures.first.items():
        lasts = figures.last[label]
        print(
            f"{label:<12} {percentile(firsts, 50):6.3f} / {percentile(firsts, 99):6.3f} / "
            f"{max(firsts):6.3f} s      {percentile(lasts, 50):6.2f} / "
            f"{percentile(lasts, 99):6.2f} / {max(lasts):6.2f} s   "
            f"{figures.deferred[label]}/{len(firsts)}"
        )
    lags = figures.lags
    print(
        f"event loop lag: p50 {percentile(lags, 50) * 1000:.1f} ms, p99 "
        f"{percentile(lags, 99) * 1000:.1f} ms, max {max(lags, default=0) * 1000:.1f} ms "
        f"({len(lags)} samples)"
    )
    idle = figures.idle
    print(
        f"the same loop idle (the machine's noise): p50 {percentile(idle, 50) * 1000:.1f} ms, "
        f"p99 {percentile(idle, 99) * 1000:.1f} ms, max {max(idle, default=0) * 1000:.1f} ms "
        f"({len(idle)} samples)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20, help="hands to try (default 20)")
    parser.add_argument("--size", type=int, default=LARGEST, help="cards in the hand (80)")
    parser.add_argument("--seed", type=int, default=0, help="the first hand's seed")
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(measure(args.hands, args.size, args.seed, Path(folder)))
    report(figures)
    print(f"({time.perf_counter() - started:.0f} s in all)")


if __name__ == "__main__":
    main()
