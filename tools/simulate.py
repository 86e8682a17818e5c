"""``python -m tools.simulate``: computer players against each other, for strength figures.

Example::

    python -m tools.simulate --games 1000 --players 4 --preset standard \\
        --seats normal,random,random,random --seed 1 --jobs 2

Seat rotation: game ``g`` gives seat ``s`` the strategy ``seats[(s + g) % players]``, so over
a multiple of ``players`` games every strategy sits in every seat equally often (the first
player and the dealer button both depend on the seat, so fixed seats would bias the result).

Printed per strategy: the win rate per seat it held (a shared win is split between the tied
players; a fair share is 1 / players), the mean final total with its 95% confidence interval
(the unit is the game: the mean over that strategy's seats in each game, so three easy seats
of one game do not count as three independent samples), and the share of deals it went out
in. Then the deals that ended by stock exhaustion and the games per second.

Every game is seeded from ``--seed`` and its index, and each seat's strategy draws from its
own ``random.Random``, so a run is reproducible, whatever ``--jobs`` is.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass

from engine.actions import RequestBuy
from engine.events import DealEnded, Event
from engine.game import Game
from engine.players.levels import STRATEGIES, make_strategy
from engine.players.strategy import Strategy
from engine.rules import PRESETS, Rules


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The outcome of one simulated game, by seat."""

    strategies: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    deals_out: tuple[int, ...]
    deals: int
    exhausted: int
    actions: int
    #: The game's seed (``--seed`` and the game's index): two record files of the same
    #: seed hold the same deals game by game, so strategies can be compared in pairs.
    seed: int | None = None


def play_game(
    rules: Rules,
    strategies: Sequence[Strategy],
    seed: int,
    max_actions: int = 200_000,
    on_event: Callable[[Event], None] | None = None,
    on_start: Callable[[Game], None] | None = None,
    secret: bytes | None = None,
) -> GameRecord:
    """Play one whole game with ``strategies[s]`` in seat ``s``; each gets only its view.

    Buying follows the bot's buy window: when an upcard is live, every other seat for which
    ``RequestBuy`` is legal is asked ``wants_buy`` before the player in turn draws.
    ``on_event`` sees every event of the turns' actions (a tool's per-deal tallies);
    ``on_start`` the game itself before its first action (``tools.foresight``'s oracle, which
    peeks at the hidden cards to measure what knowing them is worth). ``secret`` deals from
    the checkable shuffle's game secret (``engine/shuffle.py``), so that games given the same
    secret and seed are dealt the same cards (``tools.duplicate_strength``'s tables).
    """
    n = len(strategies)
    players = [f"seat{s}" for s in range(n)]
    game = Game.new(players, rules, seed, secret=secret)
    if on_start is not None:
        on_start(game)
    rngs = [random.Random(f"{seed}:{s}") for s in range(n)]
    exhausted = deals = actions = 0
    while not game.is_over:
        current = game.current
        if game.buy_window_open:
            for offset in range(1, n):
                seat = (current + offset) % n
                player = players[seat]
                if RequestBuy() in game.legal_actions(player) and strategies[seat].wants_buy(
                    game.view(player), rngs[seat]
                ):
                    game.apply(player, RequestBuy())
        player = players[current]
        action = strategies[current].choose(
            game.view(player), game.legal_actions(player), rngs[current]
        )
        for event in game.apply(player, action):
            if on_event is not None:
                on_event(event)
            if isinstance(event, DealEnded) and event.reason != "void":
                deals += 1
                exhausted += event.reason == "exhausted"
        actions += 1
        if actions > max_actions:
            raise RuntimeError(f"game {seed} did not end within {max_actions} actions")
    return GameRecord(
        strategies=tuple(s.name for s in strategies),
        totals=tuple(game.totals),
        winners=tuple(game.seat_of(w) for w in game.winners),
        deals_out=tuple(game.deals_out),
        deals=deals,
        exhausted=exhausted,
        actions=actions,
        seed=seed,
    )


def seating(names: Sequence[str], game_index: int) -> list[str]:
    """The strategy name of each seat in game ``game_index`` (rotated one seat per game)."""
    n = len(names)
    return [names[(seat + game_index) % n] for seat in range(n)]


def _run_chunk(args: tuple[str, tuple[str, ...], int, int, int, int | None]) -> list[GameRecord]:
    preset, names, seed, start, stop, deals = args
    rules = Rules.preset(preset)
    if deals is not None:
        rules = rules.with_options(num_deals=deals)
    records = []
    for index in range(start, stop):
        strategies = [make_strategy(name) for name in seating(names, index)]
        records.append(play_game(rules, strategies, seed * 1_000_003 + index))
    return records


def simulate(
    games: int,
    names: Sequence[str],
    preset: str = "standard",
    seed: int = 1,
    jobs: int = 1,
    deals: int | None = None,
    first: int = 0,
    records_path: str | None = None,
) -> list[GameRecord]:
    """``games`` seat-rotated games from index ``first``; ``jobs`` worker processes share
    them out. With ``records_path`` each chunk's records are appended there as JSON lines
    as soon as it is done, so a long run can be summarised while it runs (``--summarise``)."""
    chunks = max(1, min(games, jobs * 8 if records_path is None else (games + 9) // 10))
    bounds = [first + games * i // chunks for i in range(chunks + 1)]
    work = [
        (preset, tuple(names), seed, bounds[i], bounds[i + 1], deals)
        for i in range(chunks)
        if bounds[i] < bounds[i + 1]
    ]
    results: list[GameRecord] = []
    if jobs <= 1:
        for chunk in work:
            results += _saved(_run_chunk(chunk), records_path)
        return results
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for records in pool.map(_run_chunk, work):
            results += _saved(records, records_path)
    return results


def _saved(records: list[GameRecord], path: str | None) -> list[GameRecord]:
    if path is not None:
        with open(path, "a", encoding="utf-8") as out:
            out.writelines(json.dumps(asdict(record)) + "\n" for record in records)
    return records


def load_records(paths: Sequence[str]) -> list[GameRecord]:
    """The records appended by ``simulate(records_path=...)`` to each of ``paths``."""
    records: list[GameRecord] = []
    for path in paths:
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                data = json.loads(line)
                records.append(
                    GameRecord(
                        strategies=tuple(data["strategies"]),
                        totals=tuple(data["totals"]),
                        winners=tuple(data["winners"]),
                        deals_out=tuple(data["deals_out"]),
                        deals=data["deals"],
                        exhausted=data["exhausted"],
                        actions=data["actions"],
                        seed=data.get("seed"),
                    )
                )
    return records


@dataclass(frozen=True, slots=True)
class StrategyStats:
    """The per-strategy figures the simulator prints."""

    name: str
    seats: int
    win_rate: float
    mean_total: float
    ci_low: float
    ci_high: float
    out_rate: float
    win_low: float = 0.0
    win_high: float = 0.0


def mean_half(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and the half-width of its 95% interval (normal approximation)."""
    count = len(values)
    mean = sum(values) / count
    variance = sum((x - mean) ** 2 for x in values) / (count - 1) if count > 1 else 0.0
    return mean, 1.96 * math.sqrt(variance / count)


def _seats(record: GameRecord, name: str) -> list[int]:
    return [s for s, n in enumerate(record.strategies) if n == name]


def _seat_figures(record: GameRecord, name: str) -> tuple[float, float, float] | None:
    """For the seats ``name`` played in ``record``: its share of the win, its mean total, and
    that total minus the other seats' mean (None if it did not play)."""
    seats = _seats(record, name)
    if not seats:
        return None
    won = sum(1 for s in seats if s in record.winners) / len(record.winners) / len(seats)
    own = sum(record.totals[s] for s in seats) / len(seats)
    others = [t for s, t in enumerate(record.totals) if s not in seats]
    return won, own, own - (sum(others) / len(others) if others else 0.0)


def summarise(records: Sequence[GameRecord]) -> list[StrategyStats]:
    """Win rate per seat, mean total with a 95% interval (game as the unit), outs per deal."""
    names = list(dict.fromkeys(name for r in records for name in r.strategies))
    stats: list[StrategyStats] = []
    for name in names:
        wins = 0.0
        seat_games = 0
        outs = 0
        deals = 0
        per_game: list[float] = []
        win_share: list[float] = []
        for record in records:
            figures = _seat_figures(record, name)
            if figures is None:
                continue
            seats = _seats(record, name)
            seat_games += len(seats)
            wins += figures[0] * len(seats)
            win_share.append(figures[0])
            per_game.append(figures[1])
            outs += sum(record.deals_out[s] for s in seats)
            deals += record.deals * len(seats)
        mean, half = mean_half(per_game)
        win_mean, win_half = mean_half(win_share)
        stats.append(
            StrategyStats(
                name=name,
                seats=round(seat_games / len(per_game)),
                win_rate=wins / seat_games,
                mean_total=mean,
                ci_low=mean - half,
                ci_high=mean + half,
                out_rate=outs / deals if deals else 0.0,
                # A rate's interval stops at 0% and 100% (99% wins must not print [97.6, 100.4]).
                win_low=max(0.0, win_mean - win_half),
                win_high=min(1.0, win_mean + win_half),
            )
        )
    return stats


@dataclass(frozen=True, slots=True)
class PairedStats:
    """One strategy's figures minus a baseline run's on the same games (same seeds, same
    seating), each as (mean difference, 95% half-width). Pairing removes the luck of the deal,
    so a difference far too small to see in two separate runs shows."""

    name: str
    games: int
    win_share: tuple[float, float]
    total: tuple[float, float]
    relative: tuple[float, float]


def paired(records: Sequence[GameRecord], baseline: Sequence[GameRecord]) -> list[PairedStats]:
    """``records`` against ``baseline`` game by game, per strategy name both runs seated;
    ``relative`` is the total minus the other seats' mean (what a change did to the table)."""
    base = {r.seed: r for r in baseline if r.seed is not None}
    pairs = [
        (r, base[r.seed])
        for r in records
        if r.seed in base and base[r.seed].strategies == r.strategies
    ]
    names = list(dict.fromkeys(name for r, _ in pairs for name in r.strategies))
    stats: list[PairedStats] = []
    for name in names:
        diffs = []
        for record, before in pairs:
            now, then = _seat_figures(record, name), _seat_figures(before, name)
            if now is not None and then is not None:
                diffs.append([a - b for a, b in zip(now, then, strict=True)])
        if diffs:
            wins, totals, relatives = ([d[i] for d in diffs] for i in range(3))
            stats.append(
                PairedStats(
                    name, len(diffs), mean_half(wins), mean_half(totals), mean_half(relatives)
                )
            )
    return stats


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tools.simulate", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--players", type=int, default=None, help="seats (default: --seats)")
    parser.add_argument("--preset", default="standard", choices=sorted(PRESETS))
    parser.add_argument(
        "--seats",
        default="normal,easy,easy,easy",
        help=f"comma-separated strategies, one per seat ({', '.join(STRATEGIES)})",
    )
    parser.add_argument("--seed", type=int, default=1, help="base seed (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--deals", type=int, default=None, help="deals per game (default 10)")
    parser.add_argument("--first", type=int, default=0, help="index of the first game (split runs)")
    parser.add_argument("--records", default=None, help="append each game's record to this file")
    parser.add_argument(
        "--summarise", nargs="+", default=None, metavar="FILE", help="only summarise record files"
    )
    parser.add_argument(
        "--against",
        nargs="+",
        default=None,
        metavar="FILE",
        help="with --summarise: also compare game by game with these records (same seed)",
    )
    args = parser.parse_args(argv)
    if args.against and not args.summarise:
        parser.error("--against compares record files: give them with --summarise")
    if args.summarise:
        records = load_records(args.summarise)
        print(f"{len(records)} games from {', '.join(args.summarise)}")
        _print_summary(records)
        if args.against:
            _print_paired(records, load_records(args.against), args.against)
        return

    names = [name.strip().lower() for name in args.seats.split(",") if name.strip()]
    players = args.players or len(names)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        parser.error(f"--seats names {len(names)} strategies for {players} players")
    for name in names:
        if name not in STRATEGIES:
            parser.error(f"unknown strategy {name!r}; choose from {', '.join(STRATEGIES)}")
    rules = Rules.preset(args.preset)
    try:
        rules.check_player_count(players)
    except ValueError as error:
        parser.error(str(error))

    start = time.perf_counter()
    records = simulate(
        args.games, names, args.preset, args.seed, args.jobs, args.deals, args.first, args.records
    )
    elapsed = time.perf_counter() - start

    print(
        f"{players} players, preset {args.preset}, {len(records)} games, seed {args.seed}, "
        f"seats rotated from {','.join(names)}"
    )
    if Rules.preset(args.preset).game == "rummy":
        print("(classic Rummy scores points won: the highest total wins)")
    _print_summary(records)
    actions = sum(r.actions for r in records)
    print(
        f"{len(records)} games in {elapsed:.1f} s with {args.jobs} job(s): "
        f"{len(records) / elapsed:.2f} games/s, {actions / elapsed:,.0f} actions/s"
    )


def _print_summary(records: Sequence[GameRecord]) -> None:
    """The per-strategy table and the exhaustion count."""
    print(
        f"{'strategy':<9} {'seats':>5} {'win rate':>9} {'win 95% CI':>15} {'mean total':>11} "
        f"{'95% CI':>19} {'out/deal':>9}"
    )
    for row in summarise(records):
        interval = f"[{row.ci_low:.1f}, {row.ci_high:.1f}]"
        wins = f"[{row.win_low:.1%}, {row.win_high:.1%}]"
        print(
            f"{row.name:<9} {row.seats:>5} {row.win_rate:>8.1%} {wins:>15} "
            f"{row.mean_total:>11.1f} {interval:>19} {row.out_rate:>8.1%}"
        )
    deals = sum(r.deals for r in records)
    exhausted = sum(r.exhausted for r in records)
    share = exhausted / deals if deals else 0.0
    print(f"deals ended by exhaustion: {exhausted} of {deals} ({share:.1%})")


def _print_paired(
    records: Sequence[GameRecord], baseline: Sequence[GameRecord], paths: Sequence[str]
) -> None:
    """The paired differences against ``baseline`` (read from ``paths``)."""
    rows = paired(records, baseline)
    if not rows:
        print(f"no game in common with {', '.join(paths)} (records of the same seed needed)")
        return
    print(f"paired with {', '.join(paths)}, the same games (difference, 95% interval):")
    print(f"{'strategy':<9} {'games':>6} {'win share':>16} {'mean total':>16} {'vs others':>16}")
    for row in rows:
        cells = [
            f"{row.win_share[0]:+.1%} ±{row.win_share[1]:.1%}",
            f"{row.total[0]:+.1f} ±{row.total[1]:.1f}",
            f"{row.relative[0]:+.1f} ±{row.relative[1]:.1f}",
        ]
        print(f"{row.name:<9} {row.games:>6} " + " ".join(f"{c:>16}" for c in cells))


if __name__ == "__main__":
    main()
