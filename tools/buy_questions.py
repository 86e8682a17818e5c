"""``python -m tools.buy_questions``: the buy questions a player with the default preference
gets, and whether the expert's notes agree with a Yes to them, over whole games.

Example::

    python -m tools.buy_questions --games 20 --players 4 --seed 1

Seat 0 is the person: their turns are played by the normal computer player, and at every
buy window they may buy in, the default preference (``helps``) decides whether they are
asked; asked, they answer Yes. The other seats are normal computers. Each game is then
recorded and replayed, and every buy window of seat 0 is judged by the expert's notes
(``engine.players.review``) one decision at a time (so the notes' limit of a few a deal
hides no disagreement): a Yes the notes would have let go is a disagreement.

Printed for each rule (``worth``: the preference's judgement now, ``buy_window.buy_worth_it``;
``closer``: the former rule, any upcard that brings the contract closer): the questions a
game and a turn of the person, the buys the notes agree with, and the windows seen.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.service.buy_window import buy_worth_it
from engine.actions import Action, RequestBuy
from engine.game import Game
from engine.players.hints import deficiency
from engine.players.levels import make_strategy
from engine.players.review import decisions, review_decisions
from engine.record import record_game
from engine.replay import replay
from engine.rules import Rules
from engine.view import PlayerView


def closer(view: PlayerView) -> bool:
    """The former default: the upcard brings the contract closer, whatever the buy costs."""
    upcard = view.upcard
    if upcard is None or view.hand is None or view.seat is None or view.seats[view.seat].is_down:
        return False
    hand = list(view.hand)
    players = len(view.seats)
    return deficiency([*hand, upcard], view.contract, view.rules, players) < deficiency(
        hand, view.contract, view.rules, players
    )


RULES: dict[str, Callable[[PlayerView], bool]] = {
    "worth": lambda view: buy_worth_it(view) is not None,
    "closer": closer,
}


@dataclass
class Tally:
    """One rule's figures over the games played."""

    games: int = 0
    turns: int = 0
    windows: int = 0
    questions: int = 0
    judged: int = 0
    agreed: int = 0


def play(rules: Rules, players: int, seed: int, asks: Callable[[PlayerView], bool]) -> Tally:
    """One whole game with seat 0 asked by ``asks``; the notes' verdict on its Yes buys."""
    names = [f"seat{s}" for s in range(players)]
    game = Game.new(names, rules, seed)
    strategies = [make_strategy("normal") for _ in range(players)]
    rngs = [random.Random(f"{seed}:{s}") for s in range(players)]
    actions: list[tuple[int, Action]] = []
    tally = Tally(games=1)
    while not game.is_over:
        current = game.current
        if game.buy_window_open:
            for offset in range(1, players):
                seat = (current + offset) % players
                name = names[seat]
                if RequestBuy() not in game.legal_actions(name):
                    continue
                view = game.view(name)
                if seat == 0:
                    tally.windows += 1
                    wants = asks(view)
                    tally.questions += wants
                else:
                    wants = strategies[seat].wants_buy(view, rngs[seat])
                if wants:
                    game.apply(name, RequestBuy())
                    actions.append((seat, RequestBuy()))
        name = names[current]
        tally.turns += current == 0
        action = strategies[current].choose(
            game.view(name), game.legal_actions(name), rngs[current]
        )
        game.apply(name, action)
        actions.append((current, action))
    record = record_game(game, actions)
    for decision in decisions(replay(record), 0, names[0]):
        if decision.action is None and decision.bought:
            tally.judged += 1
            tally.agreed += not review_decisions([decision])
    return tally


def run(games: int, players: int, seed: int, preset: str, rule: str) -> Tally:
    total = Tally()
    for index in range(games):
        one = play(Rules.preset(preset), players, seed * 1_000_003 + index, RULES[rule])
        for field in ("games", "turns", "windows", "questions", "judged", "agreed"):
            setattr(total, field, getattr(total, field) + getattr(one, field))
    return total


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--rules", default="worth,closer", help="rules to compare, by name")
    args = parser.parse_args(argv)
    for rule in args.rules.split(","):
        started = time.perf_counter()
        tally = run(args.games, args.players, args.seed, args.preset, rule)
        agreed = tally.agreed / tally.judged if tally.judged else 1.0
        print(
            f"{rule:>7}: {tally.questions} questions in {tally.games} games "
            f"({tally.questions / tally.games:.1f} a game, "
            f"{tally.questions / max(1, tally.turns):.2f} a turn of the person), "
            f"{tally.windows} windows; the notes agree with {tally.agreed} of "
            f"{tally.judged} Yes buys ({agreed:.0%}) [{time.perf_counter() - started:.0f} s]"
        )


if __name__ == "__main__":
    main()
