"""``python -m tools.screen_searcher``: ``tools.simulate``'s seat-rotated games, counting
where the searching expert's rollouts changed the expert's answer (issue 28).

Example::

    python -m tools.screen_searcher --games 200 --seed 2028 \\
        --seats searcher,normal,normal,normal --records run.jsonl --changes run-changes.json

The games are exactly ``tools.simulate``'s (the same seeds, seating and buy window: it calls
its ``play_game``), and ``--records`` appends the same JSON lines, so ``python -m
tools.simulate --summarise run.jsonl`` prints the usual table and ``--against`` pairs it.
``--changes`` (rewritten after every game) holds the searchers' decisions searched and
changed, by kind and deal, summed over the run: where the search acts. ``--set
NAME.ATTR=VALUE`` (repeatable) screens a variant: it sets an attribute on every seat of
strategy NAME (``expert-classic.chase=True``, ``searcher.rollouts={'samples': 20}``), and
the variant keeps its name, so ``--against`` pairs it game by game with the records of the
player unchanged on the same seed. ``--wilson FILE...``
only prints, from record files, each strategy's wins (a shared win split) with the Wilson
95% interval over the seats it held (``tools.simulate`` prints a normal interval).
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import json
import math
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import asdict

from engine.players.levels import STRATEGIES, make_strategy
from engine.players.search_expert import SearchExpertStrategy
from engine.players.strategy import Strategy
from engine.rules import Rules
from tools.simulate import load_records, play_game, seating


def wilson(wins: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / trials`` (95% by default)."""
    if trials == 0:
        return 0.0, 1.0
    share = wins / trials
    centre = (share + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials))
    return max(0.0, centre - half / (1 + z * z / trials)), min(
        1.0, centre + half / (1 + z * z / trials)
    )


def print_wilson(paths: Sequence[str]) -> None:
    """Per strategy of the records in ``paths``: seats, wins and the Wilson interval."""
    wins: defaultdict[str, float] = defaultdict(float)
    seats: Counter[str] = Counter()
    for record in load_records(paths):
        for seat, name in enumerate(record.strategies):
            seats[name] += 1
            if seat in record.winners:
                wins[name] += 1 / len(record.winners)
    for name in seats:
        low, high = wilson(wins[name], seats[name])
        print(
            f"{name}: {seats[name]} seats, wins {wins[name]:.1f} = "
            f"{wins[name] / seats[name]:.1%}, Wilson 95% [{low:.1%}, {high:.1%}]"
        )


def parse_setting(parser: argparse.ArgumentParser, text: str) -> tuple[str, str, object]:
    """``NAME.ATTR=VALUE`` as (name, attribute, value); the value a Python literal."""
    target, _, literal = text.partition("=")
    name, _, attribute = target.rpartition(".")
    try:
        value = ast.literal_eval(literal)
    except (ValueError, SyntaxError):
        parser.error(f"--set {text!r}: the value must be a Python literal")
    if not name or not attribute:
        parser.error(f"--set {text!r}: expected NAME.ATTR=VALUE")
    return name.strip().lower(), attribute.strip(), value


def merged_setting(current: object, value: object) -> object:
    """``value``, or for a dataclass attribute (a budget) set from a dict, the current
    dataclass with those fields replaced: ``searcher.rollouts={'samples': 20}``."""
    if isinstance(value, dict) and dataclasses.is_dataclass(current):
        return dataclasses.replace(current, **value)  # type: ignore[type-var]
    return value


def seat_names(parser: argparse.ArgumentParser, text: str) -> list[str]:
    """``--seats``: the strategy of each seat, in order, every one a known level."""
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    for name in names:
        if name not in STRATEGIES:
            parser.error(f"unknown strategy {name!r}; choose from {', '.join(STRATEGIES)}")
    return names


def configure(strategies: Sequence[Strategy], settings: Sequence[tuple[str, str, object]]) -> None:
    """Apply ``--set``'s settings to every strategy of the named level; ``ValueError`` for a
    setting the level does not have (a typo would otherwise screen the unchanged player)."""
    for strategy in strategies:
        for name, attribute, value in settings:
            if strategy.name == name:
                if not hasattr(strategy, attribute):
                    raise ValueError(f"--set: {name} has no setting {attribute!r}")
                current = getattr(strategy, attribute)
                setattr(strategy, attribute, merged_setting(current, value))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tools.screen_searcher", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", default="searcher,normal,normal,normal")
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--records", help="append each game's record here")
    parser.add_argument("--changes", help="the searches' tallies (JSON)")
    parser.add_argument("--wilson", nargs="+", metavar="FILE", help="only print win intervals")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME.ATTR=VALUE",
        help="set an attribute of every seat of strategy NAME (a screened variant keeps the "
        "name, so --against pairs it with the unchanged player's records)",
    )
    args = parser.parse_args(argv)
    if args.wilson:
        print_wilson(args.wilson)
        return
    if not args.records or not args.changes:
        parser.error("--records and --changes are needed to play games")
    names = seat_names(parser, args.seats)
    settings = [parse_setting(parser, text) for text in args.set]
    rules = Rules.preset(args.preset)
    searched: Counter[str] = Counter()
    changed: Counter[str] = Counter()
    start = time.process_time()
    for index in range(args.first, args.first + args.games):
        strategies = [make_strategy(name) for name in seating(names, index)]
        try:
            configure(strategies, settings)
        except ValueError as error:
            parser.error(str(error))
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
