"""``python -m tools.bench_replay``: how fast the replay message answers a step click.

A finished 4-player, 10-deal Shanghai game (the easy computer strategy on every seat, a few
thousand actions) is written to a fresh SQLite store as the bot writes one (its action log,
its final state, its results). Through simcord a member then opens ``/shanghai replay`` (the
*cold* answer: the game is rebuilt by the engine from the store, then drawn) and clicks
**Next** ``--steps`` times, and **Next deal** through every deal (each a *warm* answer: the
replay is in the process's LRU, so a click costs one picture and one message edit).
Per click it records the *first answer*, in wall seconds from the click to the bot's first
interaction callback (what Discord's 3 s rule is about; a game not in the cache is deferred at
once), and the *last answer* (the replay message drawn), and prints p50 / p99 / max.

Measured December 3 (seeds 21 and 5: 3,323 and 3,272 actions; 200 Next, 8 Next deal each;
load average 8-13 from other work on the machine): first answer of a step p50 0.03-0.04 s,
p99 0.10-0.16 s, max 0.21 s (every step answered by its one edit); the cold open deferred in
0.002 s, its message drawn after 0.8-1.7 s (the engine replaying the whole game from the
store, in a thread).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
from pathlib import Path
from typing import Any

import simcord
from pydantic import SecretStr

from bot import Settings, create_bot
from data import ResultRow, Seat
from engine import Game, Rules
from engine.players.strategy import EasyStrategy
from tools.bench_answer import TOKEN, Figures, Timed, percentile, timed_click

NAMES = ["alice", "bob", "carol", "dave"]


def played_game(user_ids: list[int], seed: int) -> tuple[Game, list[tuple[int, str]]]:
    """A whole game by the easy strategy: the game and its log as (user id, action text)."""
    rules = Rules.preset("standard").with_options(num_deals=10)
    game = Game.new(
        [str(user) for user in user_ids], rules, seed, secret=random.Random(seed).randbytes(32)
    )
    rng = random.Random(seed)
    strategy = EasyStrategy(buy_chance=0.2)
    log = []
    while not game.is_over:
        player = game.current_player
        action = strategy.choose(game.view(player), game.legal_actions(player), rng)
        game.apply(player, action)
        log.append((int(player), str(action)))
    return game, log


async def measure(steps: int, seed: int, folder: Path) -> tuple[Figures, int]:
    settings = Settings(
        discord_token=SecretStr(TOKEN),
        database=folder / "bench-replay.sqlite3",
        seed=1,
        threads=False,
    )
    timed = Timed()
    figures = Figures()
    with timed.installed():
        async with simcord.run(create_bot(settings), settle_timeout=120) as env:
            guild = env.create_guild()
            channel = guild.create_text_channel("cards")
            members = [guild.add_member(env.create_user(name)) for name in NAMES]
            store = env.bot.store  # type: ignore[attr-defined]
            game, log = played_game([m.id for m in members], seed)
            seats = tuple(Seat(m.id, m.name) for m in members)
            table = await store.create_table(
                guild.id, channel.id, "shanghai", seats[0].user_id, seats, {}
            )
            await store.start_game(table.id, seats, "{}", None, None)
            version = 0
            for user_id, text in log:
                version = await store.save_action(
                    table.id, version, user_id, text, "{}", None, None, ()
                )
            rows = [
                ResultRow(m.id, m.name, seat, game.totals[seat], seat in game.winner_seats)
                for seat, m in enumerate(members)
            ]
            await store.finish_game(table.id, version, game.to_json(), rows)
            opened = await timed_click(
                figures,
                timed,
                "open (cold)",
                members[0].slash(channel, "shanghai replay", game=table.id),
            )
            message = opened.response
            for _ in range(steps):
                await timed_click(figures, timed, "Next", members[1].click(message, label="Next ▶"))
            while not _disabled(message, "Next deal ⏭"):
                await timed_click(
                    figures, timed, "Next deal", members[2].click(message, label="Next deal ⏭")
                )
    return figures, len(log)


def _disabled(message: Any, label: str) -> bool:
    return any(
        item.get("label") == label and item.get("disabled", False)
        for row in message.components
        for item in row.get("components", [])
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200, help="Next clicks (default 200)")
    parser.add_argument("--seed", type=int, default=21, help="the game's seed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        figures, actions = asyncio.run(measure(args.steps, args.seed, Path(folder)))
    print(f"a game of {actions} actions")
    print("click          first answer p50 / p99 / max     last answer p50 / p99 / max")
    for label, firsts in figures.first.items():
        lasts = figures.last[label]
        print(
            f"{label:<14} {percentile(firsts, 50):6.3f} / {percentile(firsts, 99):6.3f} / "
            f"{max(firsts):6.3f} s     {percentile(lasts, 50):6.3f} / "
            f"{percentile(lasts, 99):6.3f} / {max(lasts):6.3f} s  ({len(firsts)} clicks)"
        )


if __name__ == "__main__":
    main()
