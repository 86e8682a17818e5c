"""``python -m tools.duplicate_strength``: does duplicate scoring rank stronger players higher?

Example::

    python -m tools.duplicate_strength --events 40 --players 16,20,24 --rounds 2,3 --seed 1

Each simulated event seats computer players of known strength (a third each of ``easy``,
``normal`` and ``expert``, the levels of ``docs/computer-players.md``) at tables of 4, over
several rounds, and is played twice on the same players and seed:

- **ordinary**: every table dealt its own deals, places at the table earn event points
  (``bot.events.standings``), later rounds seated by those standings;
- **duplicate**: every table of a round dealt the same deals (one game secret and first
  dealer per round), each player's deals compared with the same seat at the other tables by
  matchpoints (``bot.events.duplicate``), later rounds seated by those standings.

Round 1 is seated in a random order (the players have no rating), cut into tables as the bot
cuts them (``bot.events.seating``). A count that does not divide by 4 gets computers of level
normal in the empty seats (every table filled to 4 in duplicate), who earn nothing.

Printed: for each scoring, the share of pairs of players of different strength that the
final standings order correctly (the stronger ranked above the weaker; a shared rank counts
half), overall and per pair of levels, as the mean over events with its 95% confidence
interval (the unit is the event); then the paired difference duplicate minus ordinary, event
by event, with its interval. A difference whose interval lies above 0 means duplicate scoring
orders strength measurably better.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from bot.events.duplicate import TableDeals, groups, round_points
from bot.events.seating import mixed as seat_mixed
from bot.events.seating import seat_round
from bot.events.standings import (
    Finish,
    Standing,
    places_from_totals,
    standings,
    standings_from_points,
)
from engine.actions import RequestBuy
from engine.game import Game
from engine.players.levels import make_strategy
from engine.players.strategy import Strategy
from engine.rules import Rules

LEVELS = ("easy", "normal", "expert")
STRENGTH = {"easy": 0, "normal": 1, "expert": 2}
TABLE_SIZE = 4
#: The level of the computers that fill empty seats (as in the bot's events).
FILLER = "normal"


@dataclass(frozen=True, slots=True)
class EventOutcome:
    """One event played both ways: the share of well-ordered pairs, overall and per pair of
    levels (``"normal>easy"`` and so on), for each scoring."""

    ordinary: dict[str, float]
    duplicate: dict[str, float]
    games: int


def play_table(
    rules: Rules, levels: Sequence[str], seed: int, secret: bytes
) -> tuple[tuple[int, ...], ...]:
    """Play one game with ``levels[s]`` in seat ``s``; its score sheet, deal by deal. The
    buy window is played as the bot plays it (``tools.simulate.play_game``)."""
    n = len(levels)
    strategies: list[Strategy] = [make_strategy(level) for level in levels]
    players = [f"seat{s}" for s in range(n)]
    game = Game.new(players, rules, seed, secret=secret)
    rngs = [random.Random(f"{seed}:{secret.hex()}:{s}") for s in range(n)]
    actions = 0
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
        game.apply(
            player,
            strategies[current].choose(
                game.view(player), game.legal_actions(player), rngs[current]
            ),
        )
        actions += 1
        if actions > 200_000:
            raise RuntimeError(f"game {seed} did not end")
    return tuple(tuple(row) for row in game.score_sheet)


def _secret(*parts: object) -> bytes:
    return hashlib.sha256(":".join(map(str, parts)).encode()).digest()


def play_event(
    strengths: dict[int, str],
    rounds: int,
    seed: int,
    duplicate: bool,
    deals: int | None,
    mixed: bool = False,
) -> tuple[list[Standing], int]:
    """One event of ``strengths`` (player id -> level); its final standings and games."""
    rules = Rules.preset("standard")
    if deals is not None:
        rules = rules.with_options(num_deals=deals)
    order = sorted(strengths)
    random.Random(seed).shuffle(order)
    played: list[list[Finish]] = []
    points: dict[int, Fraction] = dict.fromkeys(strengths, Fraction(0))
    totals: dict[int, int] = dict.fromkeys(strengths, 0)
    games = 0
    ordered: list[Standing] = []
    for number in range(1, rounds + 1):
        seated = seat_mixed(order, TABLE_SIZE) if mixed and number > 1 else order
        seating = seat_round(seated, TABLE_SIZE, computers=True, full=duplicate)
        round_tables: list[TableDeals] = []
        for position, people in enumerate(seating.tables):
            extra = seating.computers[position] if seating.computers else 0
            seats = [*people, *([0] * extra)]
            levels = [strengths[p] if p else FILLER for p in seats]
            if duplicate:
                secret = _secret("duplicate", seed, number, len(seats))
                game_seed = seed * 1_000 + number
            else:
                secret = _secret("ordinary", seed, number, position)
                game_seed = seed * 1_000_000 + number * 1_000 + position
            sheet = play_table(rules, levels, game_seed, secret)
            games += 1
            round_tables.append(TableDeals(position, tuple(seats), sheet))
            game_totals = [sum(row[s] for row in sheet) for s in range(len(seats))]
            for seat, person in enumerate(seats):
                if person:
                    totals[person] += game_totals[seat]
            people_totals = {p: game_totals[s] for s, p in enumerate(seats) if p}
            played.append(places_from_totals(people_totals))
        if duplicate:
            for group in groups(round_tables):
                for person, earned in round_points(group, rules.num_deals).items():
                    points[person] += earned
            ordered = standings_from_points(
                list(strengths), points, totals, dict.fromkeys(strengths, number)
            )
        else:
            ordered = standings(list(strengths), played, [], TABLE_SIZE)
        order = [s.player for s in ordered]
    return ordered, games


def concordance(ordered: Sequence[Standing], strengths: dict[int, str]) -> dict[str, float]:
    """The share of pairs of unequal strength the standings put the right way round."""
    rank = {s.player: s.rank for s in ordered}
    right: dict[str, float] = {}
    count: dict[str, int] = {}
    for a, b in combinations(strengths, 2):
        if STRENGTH[strengths[a]] == STRENGTH[strengths[b]]:
            continue
        strong, weak = (a, b) if STRENGTH[strengths[a]] > STRENGTH[strengths[b]] else (b, a)
        key = f"{strengths[strong]}>{strengths[weak]}"
        score = 1.0 if rank[strong] < rank[weak] else 0.5 if rank[strong] == rank[weak] else 0.0
        for name in (key, "all"):
            right[name] = right.get(name, 0.0) + score
            count[name] = count.get(name, 0) + 1
    return {name: right[name] / count[name] for name in right}


def run_event(args: tuple[int, int, int, int | None, bool]) -> EventOutcome:
    """Both scorings of event ``index``: its player count and rounds drawn from its seed
    (``mixed``: later duplicate rounds seated with every band of the standings at each
    table, as the bot seats them: ``bot.events.seating.mixed``)."""
    index, players, rounds, deals, mixed = args
    seed = index
    rng = random.Random(f"strengths:{seed}")
    levels = [LEVELS[i % 3] for i in range(players)]
    rng.shuffle(levels)
    strengths = {player + 1: level for player, level in enumerate(levels)}
    ordinary, ordinary_games = play_event(strengths, rounds, seed, False, deals)
    duplicate, duplicate_games = play_event(strengths, rounds, seed, True, deals, mixed)
    return EventOutcome(
        concordance(ordinary, strengths),
        concordance(duplicate, strengths),
        ordinary_games + duplicate_games,
    )


def mean_half(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% confidence interval (normal approximation)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def _progress(number: int, outcome: EventOutcome) -> EventOutcome:
    """Print one event's figures as it ends (a long run shows it is moving)."""
    print(
        f"event {number}: ordinary {outcome.ordinary['all']:.3f}, "
        f"duplicate {outcome.duplicate['all']:.3f}",
        flush=True,
    )
    return outcome


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.duplicate_strength")
    parser.add_argument("--events", type=int, default=40)
    parser.add_argument("--players", default="16,20,24,28,32", help="player counts, cycled")
    parser.add_argument("--rounds", default="2,3,4", help="round counts, cycled")
    parser.add_argument("--deals", type=int, default=None, help="deals per game (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--mixed",
        action="store_true",
        help="seat later duplicate rounds with every band of the standings at each table",
    )
    args = parser.parse_args(argv)
    counts = [int(x) for x in args.players.split(",")]
    rounds = [int(x) for x in args.rounds.split(",")]
    jobs = [
        (
            args.seed * 100_000 + i,
            counts[i % len(counts)],
            rounds[(i // len(counts)) % len(rounds)],
            args.deals,
            args.mixed,
        )
        for i in range(args.events)
    ]
    started = time.perf_counter()
    outcomes: list[EventOutcome] = []
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for outcome in pool.map(run_event, jobs):
                outcomes.append(_progress(len(outcomes) + 1, outcome))
    else:
        for job in jobs:
            outcomes.append(_progress(len(outcomes) + 1, run_event(job)))
    elapsed = time.perf_counter() - started
    games = sum(o.games for o in outcomes)
    print(
        f"{len(outcomes)} events (players {args.players}, rounds {args.rounds}, tables of "
        f"{TABLE_SIZE}, deals {args.deals or 10}), {games} games in {elapsed:.0f} s"
    )
    print("share of pairs ordered stronger-above-weaker (mean over events, 95% CI)")
    print(f"{'pair':<15} {'ordinary':>16} {'duplicate':>16} {'duplicate - ordinary':>22}")
    for key in ("all", "expert>normal", "normal>easy", "expert>easy"):
        plain = [o.ordinary[key] for o in outcomes if key in o.ordinary]
        dup = [o.duplicate[key] for o in outcomes if key in o.duplicate]
        diff = [o.duplicate[key] - o.ordinary[key] for o in outcomes if key in o.ordinary]
        (pm, ph), (dm, dh), (fm, fh) = mean_half(plain), mean_half(dup), mean_half(diff)
        print(
            f"{key:<15} {pm:>8.3f} ± {ph:.3f} {dm:>8.3f} ± {dh:.3f} "
            f"{fm:>+12.3f} [{fm - fh:+.3f}, {fm + fh:+.3f}]"
        )


if __name__ == "__main__":
    main()
