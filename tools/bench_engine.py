"""``python -m tools.bench_engine``: the engine's speed figures (printed, never asserted).

Sections: ``find_contract`` per contract (see ``bench_solver``), random play of 4-player
10-deal games (actions and games per second), and the JSON round trip of a mid-game
8-player state. Targets (issue 2): find_contract p99 <= 0.5 ms and max <= 5 ms per contract,
>= 6,000 random-play actions per second, round trip <= 0.5 ms.

Random play is measured against OpenSpiel's gin rummy (C++, driven from Python the same
way: ``legal_actions``, a random pick, ``apply``) when OpenSpiel can be reached: imported
here, or run by ``--openspiel-python PATH`` (a Python that has ``open_spiel`` installed; it
is no dependency of this project). The two alternate for ``--rounds`` rounds on this
machine, and the medians and their ratio are printed (issue 28's target: >= 1.2x); the
machine is shared, so only alternating runs' medians mean anything.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from engine.game import Game
from engine.players.random_play import random_step
from engine.rules import Rules
from tools.bench_solver import bench_find_contract


def bench_random_play(games: int, seed: int = 1) -> tuple[float, float, int]:
    """(actions per second, games per second, actions) over ``games`` 4-player games, per
    second of this process's CPU time (the machine is shared: wall time would count the
    other processes' turns too; OpenSpiel's figure is taken the same way)."""
    rules = Rules.preset("standard")
    actions = 0
    start = time.process_time()
    for index in range(games):
        game = Game.new(["a", "b", "c", "d"], rules, seed + index)
        rng = random.Random(seed + index)
        while not game.is_over:
            game.apply(*random_step(game, rng))
            actions += 1
    elapsed = time.process_time() - start
    return actions / elapsed, games / elapsed, actions


OPENSPIEL_SCRIPT = Path(__file__).with_name("openspiel_random_play.py")


def openspiel_rate(games: int, python: str | None, seed: int = 1) -> float | None:
    """OpenSpiel gin rummy's random-play actions per second, or None when unreachable."""
    if python is None:
        if importlib.util.find_spec("pyspiel") is None:
            return None
        python = sys.executable
    done = subprocess.run(
        [python, str(OPENSPIEL_SCRIPT), "--games", str(games), "--seed", str(seed)],
        capture_output=True,
        text=True,
        check=True,
    )
    figures = json.loads(done.stdout)
    return float(figures["actions"]) / float(figures["seconds"])


def compare_random_play(
    rounds: int, games: int, openspiel_games: int, python: str | None
) -> tuple[list[float], list[float]]:
    """Alternating rounds of this engine's and OpenSpiel's random play (actions/s each).

    Every round plays new games (its own seeds): replaying the same games would answer the
    contract searches from the solver's memo and flatter the engine."""
    ours: list[float] = []
    theirs: list[float] = []
    for round_index in range(rounds):
        ours.append(bench_random_play(games, seed=1 + round_index * games)[0])
        rate = openspiel_rate(openspiel_games, python, seed=1 + round_index)
        if rate is not None:
            theirs.append(rate)
    return ours, theirs


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
    parser.add_argument("--games", type=int, default=10, help="random 4-player games a round")
    parser.add_argument("--rounds", type=int, default=5, help="alternating random-play rounds")
    parser.add_argument(
        "--openspiel-python", metavar="PATH", help="a Python with open_spiel, for the ratio"
    )
    parser.add_argument(
        "--openspiel-games", type=int, default=400, help="OpenSpiel gin rummy games a round"
    )
    parser.add_argument("--skip-solver", action="store_true", help="no find_contract section")
    args = parser.parse_args()

    if not args.skip_solver:
        print(f"find_contract, {args.hands} random 12-card hands per contract (standard rules)")
        print(f"{'deal':>4} {'contract':<26} {'median µs':>10} {'p99 µs':>9} {'max µs':>9}")
        for row in bench_find_contract(args.hands):
            print(
                f"{row['deal']:>4} {row['contract']:<26} {row['median_us']:>10.1f} "
                f"{row['p99_us']:>9.1f} {row['max_us']:>9.1f}"
            )
    ours, theirs = compare_random_play(
        args.rounds, args.games, args.openspiel_games, args.openspiel_python
    )
    print(
        f"\nrandom play, {args.games} 4-player 10-deal games a round, {args.rounds} rounds: "
        f"median {statistics.median(ours):,.0f} actions/s "
        f"(rounds: {', '.join(f'{r:,.0f}' for r in ours)})"
    )
    if theirs:
        ratio = statistics.median(ours) / statistics.median(theirs)
        print(
            f"OpenSpiel gin rummy (C++), {args.openspiel_games} games a round, alternating: "
            f"median {statistics.median(theirs):,.0f} actions/s "
            f"(rounds: {', '.join(f'{r:,.0f}' for r in theirs)})\n"
            f"ratio of the medians: {ratio:.2f}x OpenSpiel"
        )
    else:
        print("OpenSpiel not reachable (--openspiel-python PATH): no ratio")
    median, p99, size = bench_round_trip()
    print(
        f"\nto_json + from_json, mid-game 8-player state ({size:,} bytes): "
        f"median {median:.0f} µs, p99 {p99:.0f} µs"
    )


if __name__ == "__main__":
    main()
