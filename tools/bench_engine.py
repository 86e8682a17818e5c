"""``python -m tools.bench_engine``: the engine's speed figures (printed, never asserted).

Sections: ``find_contract`` per contract (see ``bench_solver``), random play of 4-player
10-deal games (actions and games per second), and the JSON round trip of a mid-game
8-player state. Targets (issue 2): find_contract p99 <= 0.5 ms and max <= 5 ms per contract,
>= 6,000 random-play actions per second, round trip <= 0.5 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.game import Game
from engine.players.random_play import random_step
from engine.rules import Rules
from tools.bench_solver import bench_find_contract


def bench_random_play(games: int, seed: int = 1) -> tuple[float, float, int]:
    """(actions per second, games per second, actions) over ``games`` 4-player games."""
    rules = Rules.preset("standard")
    actions = 0
    start = time.perf_counter()
    for index in range(games):
        game = Game.new(["a", "b", "c", "d"], rules, seed + index)
        rng = random.Random(seed + index)
        while not game.is_over:
            game.apply(*random_step(game, rng))
            actions += 1
    elapsed = time.perf_counter() - start
    return actions / elapsed, games / elapsed, actions


def mid_game_state(players: int = 8, seed: int = 3) -> Game:
    """An 8-player game in deal 5 with melds on the table."""
    game = Game.new([f"player{i}" for i in range(players)], Rules.preset("standard"), seed)
    rng = random.Random(seed)
    while not game.is_over and (game.deal < 5 or len(game.melds) < 4):
        game.apply(*random_step(game, rng))
    return game


def bench_round_trip(repeats: int = 2000) -> tuple[float, float, int]:
    """(median µs, p99 µs, JSON bytes) of ``to_json`` + ``from_json``."""
    game = mid_game_state()
    timings = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        Game.from_json(game.to_json())
        timings.append((time.perf_counter_ns() - start) / 1000)
    timings.sort()
    return statistics.median(timings), timings[int(len(timings) * 0.99)], len(game.to_json())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=10_000, help="hands per contract")
    parser.add_argument("--games", type=int, default=30, help="random 4-player games")
    args = parser.parse_args()

    print(f"find_contract, {args.hands} random 12-card hands per contract (standard rules)")
    print(f"{'deal':>4} {'contract':<26} {'median µs':>10} {'p99 µs':>9} {'max µs':>9}")
    for row in bench_find_contract(args.hands):
        print(
            f"{row['deal']:>4} {row['contract']:<26} {row['median_us']:>10.1f} "
            f"{row['p99_us']:>9.1f} {row['max_us']:>9.1f}"
        )
    rate, games_rate, actions = bench_random_play(args.games)
    print(
        f"\nrandom play, {args.games} 4-player 10-deal games ({actions} actions): "
        f"{rate:,.0f} actions/s, {games_rate:.2f} games/s"
    )
    median, p99, size = bench_round_trip()
    print(
        f"\nto_json + from_json, mid-game 8-player state ({size:,} bytes): "
        f"median {median:.0f} µs, p99 {p99:.0f} µs"
    )


if __name__ == "__main__":
    main()
