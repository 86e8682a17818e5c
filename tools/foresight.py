"""``python -m tools.foresight``: what knowing the hidden cards would be worth to the expert's
discards, and how much of it a search over them gets back (issue 28).

Example::

    python -m tools.foresight --mode lap --games 200 --seed 4242 --records lap.jsonl
    python -m tools.simulate --games 200 --seed 4242 --seats expert,normal,normal,normal \\
        --records expert.jsonl
    python -m tools.foresight --summarise lap.jsonl --against expert.jsonl

The expert judges its close discards (the best few of the normal player's ranking, within
``margin`` points of the best) by the hand each leaves after the next draw: an expectation
over the cards it has not seen, weighted by their live copies. Here the same candidates, with
the same costs, are judged by the next lap itself: a game is copied, the candidate thrown, and
the opponents play on as normal players until this seat draws again (its own buys meanwhile
are the normal player's too); the hand then scores the deficiency left by the better of the
upcard and the stock card it would get, each with its best discard, times the expert's
``draw_weight``. A lap in which the deal ends scores ``ENDED``, so a discard that lets an
opponent go out is shunned. Three modes, the ``--mode`` of the seat named ``foresight``:

- ``lap``: the real game copied: perfect foresight of one lap (the stock's order, the
  opponents' hands and so what they throw and buy). A ceiling, not a player: it peeks.
- ``stock``: the real game copied, but only the stock card the seat would draw counts: what
  knowing the next card alone is worth.
- ``sampled``: ``--samples`` games dealt from the seat's own view
  (``engine.players.determinize``, which never reads the real game), the same games for every
  candidate, their scores averaged: what a search over the hidden cards can know, at its CPU
  cost (printed per searched decision).
- ``draw``: the expert's discards, but at its draw it sees the stock's top card and takes
  whichever of it and the upcard leaves the lower deficiency after its best discard (a tie:
  the expert's own choice): what knowing the card under the stock is worth to the draw.

Measured (docs/computer-players.md): against three normal players, seed 4242, 200
games each paired with the expert's, ``lap`` won 24.0 ± 8.9 more games in a hundred and
``stock`` 19.0 ± 8.2, while ``sampled`` changed 37-40% of the close discards and won -3.5 to
+0.2 (± 8) with a mean total 22-26 points higher: the headroom is the next card itself,
which the expert's expectation over the unseen cards already weighs as well as a seat can.

The oracle modes peek at the real game through ``tools.simulate.play_game``'s ``on_start``;
they are never a level of the product (``engine.players.levels`` does not know them).
``--summarise`` pairs the records game by game with an expert's run on the same seed, the
foresight seat standing for the expert.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Literal

from engine.actions import Action, Discard, DrawStock, RequestBuy, TakeUpcard
from engine.cards import Card
from engine.game import Game
from engine.players.determinize import sample_game
from engine.players.expert import ExpertStrategy
from engine.players.hints import card_index, deficiency_of_key, hand_key
from engine.players.levels import make_strategy
from engine.players.reading import read_table
from engine.players.strategy import NormalStrategy, Strategy, hand_in_view, seat_is_down
from engine.rules import Rules
from engine.view import PlayerView

from .simulate import GameRecord, load_records, paired, play_game, seating, summarise

Mode = Literal["lap", "stock", "sampled", "draw"]
MODES: tuple[Mode, ...] = ("lap", "stock", "sampled", "draw")
#: What a lap in which the deal ends scores (a hand as far from going down as can be).
ENDED = 99.0
#: A lap longer than this many actions (buys and restocks) is given up: the classic answer.
LAP_ACTIONS = 60


@dataclass(slots=True)
class Tally:
    """What the foresight seat's searches did, over a run."""

    searched: int = 0
    changed: int = 0
    ended: int = 0
    #: Searched decisions whose candidates differ in how often the deal ends in their laps
    #: (counted only where such laps score ``ENDED``).
    split: int = 0
    counts_splits: bool = True
    seconds: list[float] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [
            f"searched decisions {self.searched} (discards; draws in draw mode), changed from "
            f"the expert's {self.changed} "
            f"({self.changed / max(1, self.searched):.1%}); laps ending the deal {self.ended}"
            + (
                f", in {self.split} decisions for some candidates and not others"
                if self.counts_splits
                else " (dropped)"
            )
        ]
        if self.seconds:
            ranked = sorted(self.seconds)
            p99 = ranked[min(len(ranked) - 1, int(0.99 * len(ranked)))]
            out.append(
                f"CPU per searched decision: median {statistics.median(ranked) * 1000:.1f} ms, "
                f"p99 {p99 * 1000:.1f} ms, max {ranked[-1] * 1000:.1f} ms"
            )
        return out


def best_deficiency(
    hand: Sequence[Card], view: PlayerView, drawn: Card, may_throw_drawn: bool
) -> int:
    """The fewest cards ``hand`` plus ``drawn`` still needs after its best discard (a taken
    upcard may not be thrown straight back)."""
    cards = [*hand, drawn]
    last = len(cards) - 1 if not may_throw_drawn else None
    return min(
        deficiency_of_key(
            hand_key(cards[:i] + cards[i + 1 :]), view.contract, view.rules, len(view.seats)
        )[0]
        for i in range(len(cards))
        if i != last
    )


def play_to_the_draw_of(game: Game, seat: int) -> bool | None:
    """Play ``game`` on, every seat (this one's buys too) as a normal player, until ``seat``
    is to draw again: True, or False when the deal ends first, None past ``LAP_ACTIONS``."""
    normal = NormalStrategy()
    rng = random.Random(0)
    n = len(game.players)
    deal = game.deal
    actions = 0
    while not game.is_over and game.deal == deal:
        current = game.current
        if current == seat and game.step == "draw":
            return True
        if game.buy_window_open:
            for offset in range(1, n):
                other = game.players[(current + offset) % n]
                if RequestBuy() in game.legal_actions(other) and normal.wants_buy(
                    game.view(other), rng
                ):
                    game.apply(other, RequestBuy())
        mover = game.players[current]
        game.apply(mover, normal.choose(game.view(mover), game.legal_actions(mover), rng))
        actions += 1
        if actions > LAP_ACTIONS:
            return None
    return False


def lap_value(
    game: Game,
    seat: int,
    card: Card,
    stock_only: bool,
    tally: Tally,
    ended: float | None = ENDED,
) -> float | None:
    """The deficiency ``seat`` is left with at its next draw after throwing ``card`` in a copy
    of ``game`` (see the module's docstring), ``ended`` if the deal ends first; None when the
    lap is given up (or ends, with ``ended`` None: the lap then does not count)."""
    lap = game.copy()
    player = lap.players[seat]
    lap.apply(player, Discard(card))
    reached = play_to_the_draw_of(lap, seat)
    if reached is None:
        return None
    if not reached:
        tally.ended += 1
        return ended
    view = lap.view(player)
    hand = list(view.hand or ())
    legal = lap.legal_actions(player)
    options = []
    if not stock_only and view.upcard is not None and TakeUpcard() in legal:
        options.append(best_deficiency(hand, view, view.upcard, False))
    if DrawStock() in legal and lap.stock:
        options.append(best_deficiency(hand, view, lap.stock[-1], True))
    return float(min(options)) if options else None


class ForesightExpert(ExpertStrategy):
    """The expert whose close discards are judged by the next lap (``mode``); the rest of its
    play is the expert's. ``game`` is the real game, for the modes that peek."""

    name = "foresight"

    def __init__(
        self, mode: Mode, samples: int = 8, width: int = 6, ended: float | None = ENDED
    ) -> None:
        super().__init__()
        self.mode = mode
        #: What a lap in which the deal ends scores (None: it does not count).
        self.ended = ended
        self.samples = samples
        self.lap_width = width
        self.game: Game | None = None
        self.tally = Tally(counts_splits=ended is not None)

    def _draw(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        action = super()._draw(view, legal)
        game = self.game
        if (
            self.mode != "draw"
            or game is None
            or view.upcard is None
            or TakeUpcard() not in legal
            or DrawStock() not in legal
            or seat_is_down(view)
            or self._guarding(view)
            or not game.stock
            or self._only_points_count(view, hand_in_view(view))
        ):
            return action
        hand = hand_in_view(view)
        upcard = best_deficiency(hand, view, view.upcard, False)
        stock = best_deficiency(hand, view, game.stock[-1], True)
        choice = action if upcard == stock else TakeUpcard() if upcard < stock else DrawStock()
        self.tally.searched += 1
        self.tally.changed += choice != action
        return choice

    def _discard(self, view: PlayerView, allowed: Sequence[Card]) -> Card:
        if (
            self.mode == "draw"
            or view.step != "play"
            or seat_is_down(view)
            or not self.search
            or self._only_points_count(view, hand_in_view(view))
            or (self.mode != "sampled" and not self._is_the_real_turn(view))
        ):
            return super()._discard(view, allowed)
        ranked, close, cost = self._close_discards(view, allowed, read_table(view), self.lap_width)
        if len(close) == 1:
            return ranked[0]
        start = time.process_time()
        classic = super()._discard(view, allowed)
        games = self._games(view)
        assert view.seat is not None
        draw_weight = self._draw_term_weight(view)
        scored: list[tuple[float, int, Card]] = []
        endings: set[float] = set()
        for card in close:
            values = [
                value
                for game in games
                if (
                    value := lap_value(
                        game, view.seat, card, self.mode == "stock", self.tally, self.ended
                    )
                )
                is not None
            ]
            if not values:
                return classic
            after = sum(values) / len(values)
            endings.add(sum(value == ENDED for value in values) / len(values))
            scored.append((cost(card) + draw_weight * after, card_index(card), card))
        choice = min(scored)[2]
        if self.mode == "sampled":
            self.tally.seconds.append(time.process_time() - start)
        self.tally.searched += 1
        self.tally.changed += choice != classic
        self.tally.split += len(endings) > 1
        return choice

    def _is_the_real_turn(self, view: PlayerView) -> bool:
        """Whether ``view`` is this seat's play step in the real game (not a hypothetical view,
        such as the normal player's "would I throw the upcard straight back?")."""
        game = self.game
        return (
            game is not None
            and view.seat is not None
            and game.step == "play"
            and game.current == view.seat
            and sorted(map(str, view.hand or ())) == sorted(map(str, game.hands[view.seat]))
        )

    def _games(self, view: PlayerView) -> list[Game]:
        """The games the laps are played on: the real one, or samples of the view."""
        if self.mode != "sampled":
            assert self.game is not None
            return [self.game]
        reading = read_table(view)
        seed = repr(hand_key(view.hand or ())) + str(view.deal) + str(len(view.history))
        rng = random.Random(seed)
        return [sample_game(view, rng, reading) for _ in range(self.samples)]


def foresight_game(rules: Rules, index: int, seed: int, oracle: ForesightExpert) -> GameRecord:
    """Game ``index`` of a run: the foresight seat and three normal players (as its laps play
    them), seats rotated as ``tools.simulate`` rotates them (so its records pair with an
    expert's run)."""
    names = seating(["foresight", "normal", "normal", "normal"], index)
    strategies: list[Strategy] = [
        oracle if name == "foresight" else make_strategy(name) for name in names
    ]

    def attach(game: Game) -> None:
        oracle.game = game

    return play_game(rules, strategies, seed * 1_000_003 + index, on_start=attach)


def as_expert(records: Sequence[GameRecord]) -> list[GameRecord]:
    """The records with the foresight seat named ``expert``, to pair with an expert's run."""
    return [
        replace(r, strategies=tuple("expert" if s == "foresight" else s for s in r.strategies))
        for r in records
    ]


def summary_lines(paths: Sequence[str], against: Sequence[str]) -> list[str]:
    """The foresight seat's figures, and its paired differences with the expert's run."""
    records = as_expert(load_records(paths))
    lines = [f"{len(records)} games from {', '.join(paths)} (the foresight seat as expert)"]
    for stats in summarise(records):
        lines.append(
            f"{stats.name}: wins {stats.win_rate:.1%}, mean total {stats.mean_total:.1f}, "
            f"out {stats.out_rate:.1%} of the deals"
        )
    for pair in paired(records, load_records(against)):
        (wins, wins_half), (total, total_half), (rel, rel_half) = (
            pair.win_share,
            pair.total,
            pair.relative,
        )
        lines.append(
            f"paired, {pair.name}, {pair.games} games: wins {wins:+.1%} ± {wins_half:.1%}, "
            f"mean total {total:+.1f} ± {total_half:.1f}, against the others {rel:+.1f} ± "
            f"{rel_half:.1f}"
        )
    return lines


def main(argv: Sequence[str] | None = None, out: Callable[[str], None] = print) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tools.foresight", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--mode", choices=MODES, default="sampled")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--seed", type=int, default=4242)
    parser.add_argument("--samples", type=int, default=8, help="sampled mode: games per lap")
    parser.add_argument("--width", type=int, default=6, help="close discards searched at most")
    parser.add_argument(
        "--drop-ended",
        action="store_true",
        help=f"a lap in which the deal ends does not count (else it scores {ENDED:g})",
    )
    parser.add_argument("--records", default=None, help="append each game's record here")
    parser.add_argument("--summarise", nargs="+", default=None, metavar="FILE")
    parser.add_argument("--against", nargs="+", default=None, metavar="FILE")
    args = parser.parse_args(argv)
    if args.summarise:
        if not args.against:
            parser.error("--summarise pairs with an expert's records: give them with --against")
        for line in summary_lines(args.summarise, args.against):
            out(line)
        return
    rules = Rules.preset("standard")
    oracle = ForesightExpert(
        args.mode, args.samples, args.width, None if args.drop_ended else ENDED
    )
    records = []
    for index in range(args.first, args.first + args.games):
        record = foresight_game(rules, index, args.seed, oracle)
        records.append(record)
        if args.records is not None:  # as tools.simulate writes them, a line a game
            with open(args.records, "a", encoding="utf-8") as lines:
                lines.write(json.dumps(asdict(record)) + "\n")
    for stats in summarise(records):
        out(f"{stats.name}: wins {stats.win_rate:.1%}, mean total {stats.mean_total:.1f}")
    for line in oracle.tally.lines():
        out(line)


if __name__ == "__main__":
    main(sys.argv[1:])
