"""``python -m tools.bench_players``: how long the computer players take per decision.

Plays ``--games`` seat-rotated 4-player games of the ``standard`` preset with ``--seats``
(default ``expert,normal,normal,normal``) and times every decision each strategy makes, its
turn's moves (``choose``) and its buy answers (``wants_buy``), on this process's one core.
Prints per strategy the decisions timed and the median, p90, p99 and maximum in milliseconds
of CPU time (``time.process_time``: what one core spends, whatever else the machine runs) and
the p99 of wall time, and for the expert the hand evaluations a searched decision used. The
target (issue 15) is an expert p99 of at most 0.5 s at the default budget.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Sequence

from engine.actions import RequestBuy
from engine.game import Game
from engine.players.expert import ExpertStrategy
from engine.players.levels import STRATEGIES, make_strategy
from engine.players.search_expert import SearchExpertStrategy
from engine.players.strategy import Strategy
from engine.rules import PRESETS, Rules
from tools.simulate import seating

Timings = dict[str, list[tuple[float, float]]]
#: Per searched decision of a searching expert: (CPU seconds, rollouts, rollout actions).
Searches = list[tuple[float, int, int]]


def time_decisions(
    games: int,
    names: Sequence[str],
    preset: str = "standard",
    seed: int = 1,
    searches: Searches | None = None,
) -> tuple[Timings, list[int]]:
    """(CPU seconds, wall seconds) per decision by strategy name, and the expert's
    evaluations per search; each searching expert's rollout searches go to ``searches``."""
    rules = Rules.preset(preset)
    timings: Timings = defaultdict(list)
    evaluations: list[int] = []
    for index in range(games):
        strategies: list[Strategy] = [make_strategy(n) for n in seating(names, index)]
        players = [f"seat{s}" for s in range(len(strategies))]
        game = Game.new(players, rules, seed * 1_000_003 + index)
        rngs = [random.Random(f"{seed}:{index}:{s}") for s in range(len(players))]
        while not game.is_over:
            if game.buy_window_open:
                for offset in range(1, len(players)):
                    seat = (game.current + offset) % len(players)
                    player = players[seat]
                    if RequestBuy() not in game.legal_actions(player):
                        continue
                    view = game.view(player)
                    cpu, wall = time.process_time(), time.perf_counter()
                    wants = strategies[seat].wants_buy(view, rngs[seat])
                    timings[strategies[seat].name].append(
                        (time.process_time() - cpu, time.perf_counter() - wall)
                    )
                    _note_search(strategies[seat], timings, searches)
                    if wants:
                        game.apply(player, RequestBuy())
            seat = game.current
            player = players[seat]
            view, legal = game.view(player), game.legal_actions(player)
            strategy = strategies[seat]
            cpu, wall = time.process_time(), time.perf_counter()
            action = strategy.choose(view, legal, rngs[seat])
            timings[strategy.name].append((time.process_time() - cpu, time.perf_counter() - wall))
            _note_search(strategy, timings, searches)
            if isinstance(strategy, ExpertStrategy) and strategy.last_evaluations:
                evaluations.append(strategy.last_evaluations)
            game.apply(player, action)
    return dict(timings), evaluations


def _note_search(strategy: Strategy, timings: Timings, searches: Searches | None) -> None:
    """Record the last decision of a searching expert that played rollouts."""
    if (
        searches is not None
        and isinstance(strategy, SearchExpertStrategy)
        and strategy.last_rollouts
    ):
        cpu = timings[strategy.name][-1][0]
        searches.append((cpu, strategy.last_rollouts, strategy.last_rollout_actions))


def _percentile(sorted_values: Sequence[float], share: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * share))]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench_players", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--games", type=int, default=12, help="games to play (default 12)")
    parser.add_argument("--seats", default="expert,normal,normal,normal")
    parser.add_argument("--preset", default="standard", choices=sorted(PRESETS))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    names = [n.strip().lower() for n in args.seats.split(",") if n.strip()]
    for name in names:
        if name not in STRATEGIES:
            parser.error(f"unknown strategy {name!r}; choose from {', '.join(STRATEGIES)}")
    searches: Searches = []
    timings, evaluations = time_decisions(args.games, names, args.preset, args.seed, searches)
    print(
        f"decision times, {args.games} games of {args.preset}, seats rotated from "
        f"{','.join(names)} (one core)"
    )
    print(
        f"{'strategy':<9} {'decisions':>9} {'median ms':>10} {'p90 ms':>8} "
        f"{'p99 ms':>8} {'max ms':>8} {'wall p99 ms':>12}"
    )
    for name, pairs in sorted(timings.items()):
        values = sorted(cpu for cpu, _ in pairs)
        walls = sorted(wall for _, wall in pairs)
        print(
            f"{name:<9} {len(values):>9} {statistics.median(values) * 1000:>10.2f} "
            f"{_percentile(values, 0.9) * 1000:>8.2f} {_percentile(values, 0.99) * 1000:>8.2f} "
            f"{values[-1] * 1000:>8.2f} {_percentile(walls, 0.99) * 1000:>12.2f}"
        )
    if evaluations:
        evaluations.sort()
        print(
            f"expert searches: {len(evaluations)}, hand evaluations per search median "
            f"{statistics.median(evaluations):.0f}, max {evaluations[-1]} "
            f"(budget {ExpertStrategy().budget.evaluations})"
        )
    if searches:
        cpus = sorted(cpu for cpu, _, _ in searches)
        rollouts = sorted(count for _, count, _ in searches)
        actions = sorted(count for _, _, count in searches)
        print(
            f"rollout searches: {len(searches)} ({len(searches) / args.games:.1f} a game), CPU "
            f"median {statistics.median(cpus) * 1000:.1f} ms, p99 "
            f"{_percentile(cpus, 0.99) * 1000:.1f} ms, max {cpus[-1] * 1000:.1f} ms; rollouts "
            f"median {statistics.median(rollouts):.0f}, max {rollouts[-1]}; rollout actions "
            f"median {statistics.median(actions):.0f}, max {actions[-1]}"
        )


if __name__ == "__main__":
    main()
