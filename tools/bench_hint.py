"""The Hint button's cost: ``python -m tools.bench_hint [--games N] [--seed S]``.

Plays standard 4-player games with the normal computer in every seat (nobody buys; a game is
cut short after ``MAX_ACTIONS``) and, at each discard
where the bot would ask the expert for a hint (``bot.service.hints.wants_expert``), times the
plain hint and the expert's discard at the hint's budget (CPU time of this thread, no clock
cap, so the figures are the search's own cost). Prints the median, p90, p99 and max of each,
and how often the expert's card differs from the plain hint's. The click waits for the expert
(in a worker thread, capped at ``HINT_BUDGET.seconds``), so its p99 is the Hint button's added
latency.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from bot.service.hints import HINT_BUDGET, expert_discard, plain_hint, wants_expert
from engine import Game, Rules
from engine.actions import RequestBuy
from engine.players.levels import make_strategy

#: Actions after which a game is cut short, a guard only: a whole game of four normal players
#: takes about 2,300 (before the normal player stopped taking cards it would throw straight
#: back, such a table could pass one card round for ever).
MAX_ACTIONS = 4000
T = TypeVar("T")


def _percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def _timed(fn: Callable[[], T]) -> tuple[float, T]:
    """(CPU milliseconds of this thread, result) of ``fn()``."""
    start = time.thread_time()
    result = fn()
    return (time.thread_time() - start) * 1000, result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=6, help="games of 10 deals to play")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    rules = Rules.preset("standard")
    normal = make_strategy("normal")
    plain_ms: list[float] = []
    expert_ms: list[float] = []
    differ = 0
    for game_number in range(args.games):
        seed = args.seed + game_number
        game = Game.new(["a", "b", "c", "d"], rules, seed)
        rng = random.Random(seed)
        for _ in range(MAX_ACTIONS):
            if game.is_over:
                break
            player = game.current_player
            view = game.view(player)
            legal = [a for a in game.legal_actions(player) if a != RequestBuy()]
            plain_time, advice = _timed(partial(plain_hint, view))
            if wants_expert(view, legal, advice):
                expert_time, card = _timed(partial(expert_discard, view, legal, None))
                plain_ms.append(plain_time)
                expert_ms.append(expert_time)
                differ += card != advice.discard
            game.apply(player, normal.choose(view, legal, rng))
    print(f"hint at a discard, {len(expert_ms)} decisions over {args.games} games")
    print(f"expert budget: {HINT_BUDGET.evaluations} evaluations, cap {HINT_BUDGET.seconds} s")
    for name, samples in (("plain hint", plain_ms), ("expert's discard", expert_ms)):
        figures = ", ".join(
            f"{label} {_percentile(samples, q):.1f} ms"
            for label, q in (("median", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0))
        )
        print(f"  {name:17} {figures}")
    share = 100 * differ / max(len(expert_ms), 1)
    print(f"  the expert's card differs from the plain hint's in {share:.1f}% of decisions")


if __name__ == "__main__":
    main()
