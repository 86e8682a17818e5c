"""``python -m tools.contract_bench``: where in the game a player gains, one contract at a time.

Example::

    python -m tools.contract_bench --contract 8 --games 100 --seed 77 \\
        --seats expert,normal,normal,normal --records c8-expert.jsonl
    python -m tools.contract_bench --summarise c8-expert.jsonl c8-variant.jsonl

Why a bench of its own: a whole game's total mixes ten contracts whose stakes differ tenfold
(against three normal players the expert is caught before going down, with 75-110 points,
in about 3% of deal 1's deals and 60% of deal 10's), so a change that helps one contract
and hurts another hides in the game's noise, and a 2,000-game run only says *whether* a
player is stronger, not *where*. Here every deal of the game is dealt contract
``--contract`` (with that deal's buy limit), so one game gives ``--count`` deals of it, and
the figure is the first seat's **relative deal score**: its deal score minus the mean of the
others', averaged over the game's counted deals (negative is better; 0 is an equal of the
others). The last two deals are left out by default because the expert guards a lead there,
which a game of one contract would trigger out of place.

Seats rotate one per game as in ``tools.simulate``; the figure is the first name's (a
variant screened with ``--set`` keeps its name, and ``--summarise`` pairs two record files
game by game: the same seeds deal the same first hands). Also printed: the share of deals it
went out in, and the share it was caught before going down (the deals that cost most).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from engine.events import DealEnded, Event, WentDown
from engine.players.levels import make_strategy
from engine.rules import Contract, Rules, describe_contract

from .screen_searcher import configure, parse_setting, seat_names
from .simulate import mean_half, play_game, seating


class OneContractRules(Rules):
    """A preset's rules in which every deal is dealt deal ``only``'s contract and buy limit."""

    only: int = 1

    def contract_for(self, deal: int) -> Contract:
        super().contract_for(deal)  # the deal number is still checked
        return super().contract_for(self.only)

    def buy_limit_for(self, deal: int) -> int | None:
        return super().buy_limit_for(self.only)


@dataclass(frozen=True, slots=True)
class DealRow:
    """One counted deal, seen from the first name's seat."""

    own: int
    others: float
    out: bool
    down: bool
    caught_up: bool


@dataclass(frozen=True, slots=True)
class ContractGame:
    """One game's counted deals (the record file holds one per line)."""

    index: int
    seat: int
    rows: tuple[DealRow, ...]

    @property
    def relative(self) -> float:
        """Own deal score minus the others' mean, averaged over the counted deals."""
        return statistics.fmean(row.own - row.others for row in self.rows)


def play_contract_game(
    rules: OneContractRules,
    names: Sequence[str],
    index: int,
    seed: int,
    count: int,
    settings: Sequence[tuple[str, str, object]] = (),
) -> ContractGame:
    """Game ``index`` of the run: seats rotated, the first name's deals 1..``count`` kept."""
    seats = seating(names, index)
    strategies = [make_strategy(name) for name in seats]
    configure(strategies, settings)
    me = (-index) % len(names)  # the seat rotation gave names[0]; names may repeat
    rows: list[DealRow] = []
    down: set[int] = set()

    def on_event(event: Event) -> None:
        if isinstance(event, WentDown):
            down.add(event.player)
        elif isinstance(event, DealEnded):
            if event.reason != "void" and event.deal <= count:
                others = [score for seat, score in enumerate(event.scores) if seat != me]
                rows.append(
                    DealRow(
                        own=event.scores[me],
                        others=sum(others) / len(others),
                        out=event.out_player == me,
                        down=me in down,
                        caught_up=event.out_player not in (None, me) and me not in down,
                    )
                )
            down.clear()

    play_game(rules, strategies, seed * 1_000_003 + index, on_event=on_event)
    return ContractGame(index, me, tuple(rows))


def load(path: str) -> dict[int, ContractGame]:
    """A record file's games by index."""
    games: dict[int, ContractGame] = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            data = json.loads(line)
            rows = tuple(DealRow(**row) for row in data["rows"])
            games[data["index"]] = ContractGame(data["index"], data["seat"], rows)
    return games


def summary_lines(paths: Sequence[str]) -> list[str]:
    """One line per file; every file after the first also paired with the first."""
    lines: list[str] = []
    baseline: dict[int, ContractGame] | None = None
    for path in paths:
        games = load(path)
        rows = [row for game in games.values() for row in game.rows]
        mean, half = mean_half([game.relative for game in games.values()])
        line = (
            f"{path}: {len(games)} games, relative deal score {mean:+.2f} ± {half:.2f}, "
            f"out {sum(r.out for r in rows) / len(rows):.1%}, "
            f"caught before going down {sum(r.caught_up for r in rows) / len(rows):.1%}"
        )
        if baseline is None:
            baseline = games
        else:
            common = sorted(set(games) & set(baseline))
            diff, diff_half = mean_half([games[i].relative - baseline[i].relative for i in common])
            line += f"; paired with the first {diff:+.2f} ± {diff_half:.2f} ({len(common)} games)"
        lines.append(line)
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tools.contract_bench", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--contract", type=int, default=1, help="the deal whose contract is dealt")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", default="expert,normal,normal,normal")
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--count", type=int, default=8, help="deals 1..COUNT of a game count")
    parser.add_argument("--records", help="append each game's counted deals here")
    parser.add_argument("--summarise", nargs="+", metavar="FILE", help="only print figures")
    parser.add_argument("--set", action="append", default=[], metavar="NAME.ATTR=VALUE")
    args = parser.parse_args(argv)
    if args.summarise:
        print("\n".join(summary_lines(args.summarise)))
        return
    if not args.records:
        parser.error("--records is needed to play games")
    if not 1 <= args.contract <= 10:
        parser.error("--contract is a deal number, 1 to 10")
    names = seat_names(parser, args.seats)
    settings = [parse_setting(parser, text) for text in args.set]
    try:
        configure([make_strategy(name) for name, _, _ in settings], settings)
    except ValueError as error:
        parser.error(str(error))
    base = Rules.preset(args.preset)
    rules = OneContractRules(**base.model_dump(), only=args.contract)
    print(f"contract {args.contract}: {describe_contract(rules.contract_for(1))}")
    start = time.process_time()
    for index in range(args.first, args.first + args.games):
        game = play_contract_game(rules, names, index, args.seed, args.count, settings)
        with open(args.records, "a", encoding="utf-8") as out:
            out.write(json.dumps(asdict(game)) + "\n")
    print(f"{args.games} games in {time.process_time() - start:.0f} s of CPU")
    print("\n".join(summary_lines([args.records])))


if __name__ == "__main__":
    main()
