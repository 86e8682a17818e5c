"""``python -m tools.screen_searcher``: ``tools.simulate``'s seat-rotated games, counting
where the searching expert's rollouts changed the expert's answer (issue 28).

Example::

    python -m tools.screen_searcher --games 200 --seed 2028 \\
        --seats searcher,normal,normal,normal --records run.jsonl --changes run-changes.json

The games are exactly ``tools.simulate``'s (the same seeds, seating and buy window: it calls
its ``play_game``), and ``--records`` appends the same JSON lines, so ``python -m
tools.simulate --summarise run.jsonl`` prints the usual table and ``--against`` pairs it.
``--changes`` (rewritten after every game) holds the searchers' decisions searched and
changed, by kind and deal, summed over the run: where the search acts.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict

from engine.players.levels import STRATEGIES, make_strategy
from engine.players.search_expert import SearchExpertStrategy
from engine.rules import Rules
from tools.simulate import play_game, seating


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tools.screen_searcher", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", default="searcher,normal,normal,normal")
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--records", required=True, help="append each game's record here")
    parser.add_argument("--changes", required=True, help="the searches' tallies (JSON)")
    args = parser.parse_args(argv)
    names = [name.strip().lower() for name in args.seats.split(",") if name.strip()]
    for name in names:
        if name not in STRATEGIES:
            parser.error(f"unknown strategy {name!r}; choose from {', '.join(STRATEGIES)}")
    rules = Rules.preset(args.preset)
    searched: Counter[str] = Counter()
    changed: Counter[str] = Counter()
    start = time.process_time()
    for index in range(args.first, args.first + args.games):
        strategies = [make_strategy(name) for name in seating(names, index)]
        record = play_game(rules, strategies, args.seed * 1_000_003 + index)
        for strategy in strategies:
            if isinstance(strategy, SearchExpertStrategy):
                searched.update(strategy.searched)
                changed.update(strategy.changed)
        with open(args.records, "a", encoding="utf-8") as out:
            out.write(json.dumps(asdict(record)) + "\n")
        with open(args.changes, "w", encoding="utf-8") as out:
            tallies = {
                "games": index + 1 - args.first,
                "cpu_seconds": round(time.process_time() - start, 1),
                "searched": dict(sorted(searched.items())),
                "changed": dict(sorted(changed.items())),
            }
            json.dump(tallies, out, indent=1)


if __name__ == "__main__":
    main()
