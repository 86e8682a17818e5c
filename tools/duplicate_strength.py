"""``python -m tools.duplicate_strength``: does duplicate scoring rank stronger players higher?

Example::

    python -m tools.duplicate_strength --events 200 --players 16 --rounds 2 --deals 4 \
        --mixed --budget 1260 --seed 21

Each simulated event seats computer players of known strength (a third each of ``easy``,
``normal`` and ``expert``, the levels of ``docs/computer-players.md``) at tables of 4, over
several rounds, as a duplicate event: every table of a round dealt the same deals (one game
secret and first dealer per round), later rounds seated by the duplicate standings
(``--mixed``: by bands, as the bot seats them). The same games are then scored every way:

- **duplicate**: each player's deals compared with the same seat at the other tables, the
  difference from their average (``bot.events.duplicate``), as the bot scores;
- **places**: ordinary scoring of the same games, places at the table earning event points
  (``bot.events.standings``), as an ordinary event scores;
- each of ``ALTERNATIVES`` (matchpoints, a signed square root of each board's difference,
  and ``relative``: each board's score taken relative to its own table's mean before the
  same seats are compared, which takes out how fast that table's deal went as well as the
  cards; and ``ranked``: places at the table as ordinary scoring gives them, but ranked by
  each person's duplicate points for the round instead of the game's totals, so a seat's
  cards no longer decide its place against the seats beside it).

``--graded`` seats a quarter each of four levels a step apart instead: easy, two blends
(``blend:P`` plays each decision as the normal player with probability P, else as the easy
one) and normal. The expert and the normal computer are barely apart (a coin decides which
finishes above the other), and easy is ordered almost perfectly by any scoring, so the
default levels leave a scoring little to gain; graded levels have a known order with room
between each.

The duplicate games draw their stock as the bot's duplicate events do, one lane a seat
(``--stock per_seat``, ``engine.rules.Rules.stock_draws``); ``--stock shared`` plays them
from one shared stock, as duplicate events did before, for the comparison.

Scoring identical games is the paired design: the play, the cards and the seating are the
same, so the difference between two scorings is the scoring's alone, not the luck of
different deals, and a few events measure it. (Ordinary scoring's tie-break, the game
totals, is if anything helped by the tables sharing deals.) ``--separate`` also plays an
ordinary event on the same players: its own deals at every table, later rounds seated by its
own standings, and compares whole events (far noisier: two sets of deals).

Round 1 is seated in a random order (the players have no rating), cut into tables as the bot
cuts them (``bot.events.seating``). A count that does not divide by 4 gets computers of level
normal in the empty seats (every table filled to 4 in duplicate), who earn nothing.

Printed, for each scoring: the share of pairs of players of different strength (pairs of the
same level have no right order and are not counted) that the final standings order correctly
(the stronger ranked above the weaker; a shared rank counts half), overall and per pair of
levels, as the mean over events with its 95% confidence interval (the unit is the event);
then each paired difference, event by event: its mean with the normal interval and a paired
bootstrap percentile interval (events resampled with replacement), and its median. A
difference whose interval lies above 0 means the first orders strength measurably better.
``--budget`` starts no event after that many seconds, so a run fits the time there is.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

from bot.events.duplicate import TableDeals, compare, groups, matchpoints, round_points
from bot.events.seating import mixed as seat_mixed
from bot.events.seating import seat_round
from bot.events.standings import (
    Finish,
    Standing,
    places_from_totals,
    standings,
    standings_from_points,
)
from engine.actions import Action
from engine.game import Game
from engine.players.levels import make_strategy
from engine.players.strategy import Strategy
from engine.rules import Rules
from engine.view import PlayerView
from tools.simulate import play_game

LEVELS = ("easy", "normal", "expert")
#: ``--graded``: four levels a step apart, weakest first (``Blend``).
GRADED = ("easy", "blend:0.33", "blend:0.67", "normal")
TABLE_SIZE = 4
#: Other scorings of the same duplicate games: ``places`` (ordinary scoring, places at the
#: table, ``bot.events.standings``), matchpoints (each board's share of the other tables
#: beaten, ``bot.events.duplicate.matchpoints``), and the sum of the signed square root of
#: each board's gain (``root``: the size of a difference counts, a huge one less than in
#: proportion).
ALTERNATIVES = ("places", "matchpoints", "root", "relative", "ranked")
#: The level of the computers that fill empty seats (as in the bot's events).
FILLER = "normal"
#: Resamples of the paired bootstrap.
RESAMPLES = 10_000


class Blend:
    """A player between the easy and the normal computer: each decision (a move or a buy)
    is the normal player's with probability ``share``, else the easy one's. Its strength
    grows with ``share``, so blends give levels of known order a chosen step apart."""

    def __init__(self, share: float) -> None:
        self.share = share
        self.strong: Strategy = make_strategy("normal")
        self.weak: Strategy = make_strategy("easy")
        self.name = f"blend:{share}"

    def _pick(self, rng: random.Random) -> Strategy:
        return self.strong if rng.random() < self.share else self.weak

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        return self._pick(rng).choose(view, legal, rng)

    def wants_buy(self, view: PlayerView, rng: random.Random) -> bool:
        return self._pick(rng).wants_buy(view, rng)


def make_player(level: str) -> Strategy:
    """A computer of ``level``: a level of ``engine.players.levels`` or ``blend:P``."""
    if level.startswith("blend:"):
        return Blend(float(level.removeprefix("blend:")))
    return make_strategy(level)


def pair_keys(levels: Sequence[str]) -> tuple[str, ...]:
    """The pairs of levels reported, "all" (every pair of different strength) first, then
    each pair stronger>weaker, neighbours first."""
    pairs = sorted(
        combinations(range(len(levels)), 2), key=lambda pair: (pair[1] - pair[0], pair[0])
    )
    return ("all", *(f"{levels[high]}>{levels[low]}" for low, high in pairs))


def relative_points(group: Sequence[TableDeals], deals: int) -> dict[int, Fraction]:
    """Each person's points for the round when every board's score is first taken relative
    to its own table's mean on that deal: the same seat's relative score at the other tables
    (their mean) minus the person's. A table whose deal ended fast has low scores all round;
    relative scores take that out, leaving how the seat did against its own table."""
    points: dict[int, Fraction] = dict.fromkeys(
        (player for table in group for player in table.players if player > 0), Fraction(0)
    )

    def relative(table: TableDeals, deal: int, seat: int) -> Fraction:
        row = table.sheet[deal]
        return row[seat] - Fraction(sum(row), len(row))

    for table in group:
        for seat, player in enumerate(table.players):
            if player <= 0:
                continue
            for deal in range(min(deals, len(table.sheet))):
                others = [
                    relative(other, deal, seat)
                    for other in group
                    if other.table != table.table and deal < len(other.sheet)
                ]
                if others:
                    mean = sum(others, Fraction(0)) / len(others)
                    points[player] += mean - relative(table, deal, seat)
    return points


def ranked_finishes(group: Sequence[TableDeals], deals: int) -> list[list[Finish]]:
    """Each table's finishes with the people placed by their duplicate points for the round
    (``round_points``, highest first; equal points share a place) instead of their game
    totals, which stay the tie-break: the cards of each seat compared across the tables,
    the place still earned against the people at one's own table."""
    gains = round_points(group, deals)
    finishes: list[list[Finish]] = []
    for table in group:
        people = [(seat, player) for seat, player in enumerate(table.players) if player > 0]
        order = sorted(-gains[player] for _, player in people)
        finishes.append(
            [
                Finish(player, order.index(-gains[player]) + 1, sum(r[seat] for r in table.sheet))
                for seat, player in people
            ]
        )
    return finishes


@dataclass(frozen=True, slots=True)
class EventOutcome:
    """One event: the share of well-ordered pairs, overall and per pair of levels
    (``"normal>easy"`` and so on), for the duplicate scoring, each of ``ALTERNATIVES`` on the
    same games, and (``--separate``) a separately played ordinary event."""

    duplicate: dict[str, float]
    games: int
    others: dict[str, dict[str, float]] = field(default_factory=dict)
    ordinary: dict[str, float] | None = None


def play_table(
    rules: Rules, levels: Sequence[str], seed: int, secret: bytes
) -> tuple[tuple[int, ...], ...]:
    """Play one game with ``levels[s]`` in seat ``s`` (``tools.simulate.play_game``, the bot's
    buy window); its score sheet, deal by deal."""
    started: list[Game] = []
    play_game(
        rules,
        [make_player(level) for level in levels],
        seed,
        on_start=started.append,
        secret=secret,
    )
    return tuple(tuple(row) for row in started[0].score_sheet)


def _secret(*parts: object) -> bytes:
    return hashlib.sha256(":".join(map(str, parts)).encode()).digest()


def play_event(
    strengths: dict[int, str],
    rounds: int,
    seed: int,
    duplicate: bool,
    deals: int | None,
    mixed: bool = False,
    alternatives: dict[str, list[Standing]] | None = None,
    stock_draws: str = "per_seat",
) -> tuple[list[Standing], int]:
    """One event of ``strengths`` (player id -> level); its final standings and games. A
    duplicate event also fills ``alternatives`` (if given) with the final standings the same
    games give under each scoring of ``ALTERNATIVES``, the seating kept as the event's own
    scoring drew it. Its games draw from the stock as ``stock_draws`` says (a duplicate event
    of the bot's draws ``per_seat``; an ordinary event always shares the stock)."""
    rules = Rules.preset("standard")
    if deals is not None:
        rules = rules.with_options(num_deals=deals)
    if duplicate:
        rules = rules.with_options(stock_draws=stock_draws)
    order = sorted(strengths)
    random.Random(seed).shuffle(order)
    played: list[list[Finish]] = []
    ranked: list[list[Finish]] = []
    points: dict[int, Fraction] = dict.fromkeys(strengths, Fraction(0))
    alt: dict[str, dict[int, Fraction]] = {
        name: dict.fromkeys(strengths, Fraction(0))
        for name in ALTERNATIVES
        if name not in ("places", "ranked")
    }
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
                for person, earned in matchpoints(group, rules.num_deals).items():
                    alt["matchpoints"][person] += earned
                for comparison in compare(group, rules.num_deals):
                    if comparison.average is not None:
                        gain = comparison.gain
                        alt["root"][comparison.player] += Fraction(
                            math.copysign(math.sqrt(abs(gain)), gain)
                        )
                for person, earned in relative_points(group, rules.num_deals).items():
                    alt["relative"][person] += earned
                ranked.extend(ranked_finishes(group, rules.num_deals))
            if alternatives is not None:
                for name, table in alt.items():
                    alternatives[name] = standings_from_points(
                        list(strengths), table, totals, dict.fromkeys(strengths, number)
                    )
                alternatives["places"] = standings(list(strengths), played, [], TABLE_SIZE)
                alternatives["ranked"] = standings(list(strengths), ranked, [], TABLE_SIZE)
            ordered = standings_from_points(
                list(strengths), points, totals, dict.fromkeys(strengths, number)
            )
        else:
            ordered = standings(list(strengths), played, [], TABLE_SIZE)
        order = [s.player for s in ordered]
    return ordered, games


def concordance(
    ordered: Sequence[Standing], strengths: dict[int, str], levels: Sequence[str] = LEVELS
) -> dict[str, float]:
    """The share of pairs of unequal strength the standings put the right way round
    (``levels`` weakest first)."""
    strength = {level: position for position, level in enumerate(levels)}
    rank = {s.player: s.rank for s in ordered}
    right: dict[str, float] = {}
    count: dict[str, int] = {}
    for a, b in combinations(strengths, 2):
        if strength[strengths[a]] == strength[strengths[b]]:
            continue
        strong, weak = (a, b) if strength[strengths[a]] > strength[strengths[b]] else (b, a)
        key = f"{strengths[strong]}>{strengths[weak]}"
        score = 1.0 if rank[strong] < rank[weak] else 0.5 if rank[strong] == rank[weak] else 0.0
        for name in (key, "all"):
            right[name] = right.get(name, 0.0) + score
            count[name] = count.get(name, 0) + 1
    return {name: right[name] / count[name] for name in right}


def run_event(
    args: tuple[int, int, int, int | None, bool, bool, tuple[str, ...], str],
) -> EventOutcome:
    """Event ``index`` scored every way: its player count and rounds drawn from its seed
    (``mixed``: later rounds seated with every band of the standings at each table, as the
    bot seats them: ``bot.events.seating.mixed``; ``separate``: an ordinary event played
    too)."""
    index, players, rounds, deals, mixed, separate, levels, stock_draws = args
    seed = index
    rng = random.Random(f"strengths:{seed}")
    drawn = [levels[i % len(levels)] for i in range(players)]
    rng.shuffle(drawn)
    strengths = {player + 1: level for player, level in enumerate(drawn)}
    others: dict[str, list[Standing]] = {}
    duplicate, games = play_event(strengths, rounds, seed, True, deals, mixed, others, stock_draws)
    ordinary: dict[str, float] | None = None
    if separate:
        ordinary_standings, ordinary_games = play_event(strengths, rounds, seed, False, deals)
        ordinary = concordance(ordinary_standings, strengths, levels)
        games += ordinary_games
    return EventOutcome(
        concordance(duplicate, strengths, levels),
        games,
        {name: concordance(ordered, strengths, levels) for name, ordered in others.items()},
        ordinary,
    )


def mean_half(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% confidence interval (normal approximation)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def bootstrap(values: Sequence[float], seed: int = 0) -> tuple[float, float]:
    """The 95% percentile interval of the mean of ``values`` over ``RESAMPLES`` resamples of
    the events with replacement (no assumption of normality; the pairing is kept because
    each value is already one event's paired difference)."""
    rng = random.Random(seed)
    n = len(values)
    means = sorted(sum(rng.choices(values, k=n)) / n for _ in range(RESAMPLES))
    return means[int(0.025 * RESAMPLES)], means[int(0.975 * RESAMPLES) - 1]


def _difference(label: str, values: Sequence[float]) -> str:
    mean, half = mean_half(values)
    low, high = bootstrap(values)
    return (
        f"{label:<28} {mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}] "
        f"bootstrap [{low:+.3f}, {high:+.3f}] median {statistics.median(values):+.3f}"
    )


def _progress(number: int, outcome: EventOutcome) -> EventOutcome:
    """Print one event's figures as it ends (a long run shows it is moving)."""
    parts = [f"duplicate {outcome.duplicate['all']:.3f}"]
    parts += [f"{name} {shares['all']:.3f}" for name, shares in outcome.others.items()]
    if outcome.ordinary is not None:
        parts.append(f"ordinary {outcome.ordinary['all']:.3f}")
    print(f"event {number}: " + ", ".join(parts), flush=True)
    return outcome


def report(outcomes: Sequence[EventOutcome], levels: Sequence[str] = LEVELS) -> None:
    """Print each scoring's shares and the paired differences."""
    print("share of pairs of different strength ordered stronger-above-weaker")
    print("(mean over events, 95% CI; the same games under each scoring)")
    names = ("duplicate", *ALTERNATIVES) + (("ordinary",) if outcomes[0].ordinary else ())

    def shares(outcome: EventOutcome, name: str) -> dict[str, float]:
        if name == "duplicate":
            return outcome.duplicate
        if name == "ordinary":
            assert outcome.ordinary is not None
            return outcome.ordinary
        return outcome.others[name]

    print(f"{'pair':<15}" + "".join(f"{name:>16}" for name in names))
    keys = pair_keys(levels)
    for key in keys:
        cells = []
        for name in names:
            mean, half = mean_half([shares(o, name)[key] for o in outcomes])
            cells.append(f"{mean:>8.3f} ± {half:.3f}")
        print(f"{key:<15}" + "".join(cells))
    print("paired differences, event by event: mean [95% CI], bootstrap [95%], median")
    pairs = [
        ("duplicate", "places"),
        ("duplicate", "matchpoints"),
        ("root", "places"),
        ("relative", "places"),
        ("relative", "duplicate"),
        ("ranked", "places"),
        ("ranked", "duplicate"),
    ]
    if outcomes[0].ordinary is not None:
        pairs.append(("duplicate", "ordinary"))
    for first, second in pairs:
        for key in keys:
            values = [shares(o, first)[key] - shares(o, second)[key] for o in outcomes]
            print(_difference(f"{first} - {second} {key}", values))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.duplicate_strength")
    parser.add_argument("--events", type=int, default=40)
    parser.add_argument("--players", default="16,20,24,28,32", help="player counts, cycled")
    parser.add_argument("--rounds", default="2,3,4", help="round counts, cycled")
    parser.add_argument("--deals", type=int, default=None, help="deals per game (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--budget", type=float, default=None, help="start no event after this many seconds"
    )
    parser.add_argument(
        "--mixed",
        action="store_true",
        help="seat later rounds with every band of the standings at each table",
    )
    parser.add_argument(
        "--graded",
        action="store_true",
        help="four levels a step apart (easy, two blends of easy and normal, normal)",
    )
    parser.add_argument(
        "--separate",
        action="store_true",
        help="also play an ordinary event (its own deals and seating) on the same players",
    )
    parser.add_argument(
        "--stock",
        choices=("per_seat", "shared"),
        default="per_seat",
        help="how the duplicate games draw (per_seat, as the bot's duplicate events; shared)",
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
            args.separate,
            GRADED if args.graded else LEVELS,
            args.stock,
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
            if args.budget is not None and time.perf_counter() - started > args.budget:
                break
            outcomes.append(_progress(len(outcomes) + 1, run_event(job)))
    elapsed = time.perf_counter() - started
    games = sum(o.games for o in outcomes)
    print(
        f"{len(outcomes)} events (players {args.players}, rounds {args.rounds}, tables of "
        f"{TABLE_SIZE}, deals {args.deals or 10}, stock {args.stock}), {games} games in "
        f"{elapsed:.0f} s"
    )
    if outcomes:
        report(outcomes, GRADED if args.graded else LEVELS)


if __name__ == "__main__":
    main()
