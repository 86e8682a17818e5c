"""``python -m tools.bench_rollouts``: what one determinized deal rollout costs (issue 28).

A search over the hidden cards (determinized rollouts) spends its budget on rollouts: from a
position, the cards the seat in turn cannot see (the other hands and the stock) are dealt
anew at random, and the deal is played to its end by four normal players on a
``Game.copy``. This measures, from mid-deal positions of ``--games`` games (deals 1 to 6,
twelve pile moves in), the CPU time and the actions per rollout, so that the number of
rollouts a 0.5 s decision can afford is known before such a search is built.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.actions import RequestBuy
from engine.game import Game
from engine.players.levels import make_strategy
from engine.rules import Rules
from engine.view import PILE_KINDS


def mid_deal(seed: int, deal: int) -> Game:
    """A 4-player ``standard`` game played by normal players to twelve pile moves (turned,
    taken, bought, discarded: the positions of the figures measured before the history also
    kept lay-downs) into ``deal``."""
    normal = make_strategy("normal")
    game = Game.new(["a", "b", "c", "d"], Rules.preset("standard"), seed)
    rng = random.Random(seed)
    while not game.is_over and (game.deal < deal or _pile_moves(game) < 12):
        player = game.current_player
        game.apply(player, normal.choose(game.view(player), game.legal_actions(player), rng))
    return game


def _pile_moves(game: Game) -> int:
    return sum(move.kind in PILE_KINDS for move in game.history)


def rollout(game: Game, seed: int) -> tuple[float, int]:
    """(CPU seconds, actions) of one determinized rollout of the deal from ``game``."""
    normal = make_strategy("normal")
    start = time.process_time()
    sim = game.copy()
    me = sim.current
    hidden = [card for seat, hand in enumerate(sim.hands) if seat != me for card in hand]
    hidden += sim.stock
    rng = random.Random(seed)
    rng.shuffle(hidden)
    for seat, hand in enumerate(sim.hands):
        if seat != me:
            sim.hands[seat], hidden = hidden[: len(hand)], hidden[len(hand) :]
    sim.stock = hidden
    deal, actions, n = sim.deal, 0, len(sim.players)
    while sim.deal == deal and not sim.is_over:
        if sim.buy_window_open:
            for offset in range(1, n):
                player = sim.players[(sim.current + offset) % n]
                if RequestBuy() in sim.legal_actions(player) and normal.wants_buy(
                    sim.view(player), rng
                ):
                    sim.apply(player, RequestBuy())
        player = sim.current_player
        sim.apply(player, normal.choose(sim.view(player), sim.legal_actions(player), rng))
        actions += 1
    return time.process_time() - start, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=6, help="starting positions")
    parser.add_argument("--rollouts", type=int, default=8, help="rollouts per position")
    args = parser.parse_args()
    seconds: list[float] = []
    lengths: list[int] = []
    for index in range(args.games):
        game = mid_deal(500 + index, 1 + index % 6)
        for number in range(args.rollouts):
            cpu, actions = rollout(game, number)
            seconds.append(cpu)
            lengths.append(actions)
    seconds.sort()
    median = statistics.median(seconds)
    print(
        f"{len(seconds)} rollouts (normal players, to the end of the deal): CPU median "
        f"{median * 1000:.1f} ms, p90 {seconds[int(len(seconds) * 0.9)] * 1000:.1f} ms, "
        f"median {statistics.median(lengths):.0f} actions; a 0.5 s decision affords about "
        f"{0.5 / median:.0f} rollouts"
    )


if __name__ == "__main__":
    main()
