"""``python -m tools.replay_check``: replaying stored games reproduces them exactly, at scale.

Plays ``--games`` random legal games (random players who buy, lay down, lay off and use
jokers, across the Shanghai presets and Rummy, with and without the checkable shuffle; one
in ``FULL_EVERY`` at full length, the others of 1-3 deals), and
part way through each game "restarts" it as the bot does: the game is written to its stored
JSON and read back, and play goes on from the copy. Each game keeps the bot's stored log
(the player's id and the action's text, as ``data`` writes them). Once over, the game is
rebuilt twice, from the stored state and log (``record_from_stored``, what ``/shanghai
replay`` does) and from its exported record read back (``write_record`` / ``read_record``,
what the download and ``python -m bot replay`` do); every deal's scored hands and scores,
and the final score sheet, must equal what was seen as the game was played.

Prints games, deals, actions, buys and jokers laid, the mismatches (0 expected) and the
time; exits 1 on any mismatch. Runs the games on ``--jobs`` processes.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from engine import Game, Rules
from engine.actions import RequestBuy
from engine.cards import Card
from engine.events import DealEnded
from engine.players.random_play import random_step
from engine.record import GameRecord, read_record, record_from_stored, write_record
from engine.replay import replay

#: The rule sets played, in turn: every Shanghai preset the bot offers, and Rummy.
RULE_SETS: dict[str, Rules] = {
    "standard": Rules.preset("standard"),
    "preset_000": Rules.preset("preset_000"),
    "preset_004": Rules.preset("preset_004"),
    "rummy": Rules.preset("rummy").with_options(win_condition="fixed_hands"),
    "void_deals": Rules.preset("standard").with_options(on_exhaustion="void_deal"),
}

#: Every this many games is played at full length; the others have 1-3 deals, so that a
#: thousand games fit in minutes (a random full game is thousands of actions).
FULL_EVERY = 25

#: One scored deal as seen while playing: (deal, the hands as scored, the deal's scores).
DealEnd = tuple[int, tuple[tuple[Card, ...], ...], tuple[int, ...]]


@dataclass
class Outcome:
    """What one game's check found."""

    deals: int
    actions: int
    buys: int
    jokers: int
    mismatches: list[str]


def _deal_ends(record: GameRecord) -> tuple[list[DealEnd], tuple[tuple[int, ...], ...]]:
    ends: list[DealEnd] = []
    steps = list(replay(record))
    for step in steps:
        for event in step.events:
            if isinstance(event, DealEnded) and event.reason != "void":
                ends.append((event.deal, step.revealed, event.scores))
    sheet = tuple(map(tuple, steps[-1].view(None).score_sheet))
    return ends, sheet


def check_game(index: int, seed: int) -> Outcome:
    """Play game ``index`` (its rules, seats and shuffle chosen from ``seed``) with a restart
    in the middle, then compare both rebuilt replays with what the play saw."""
    rng = random.Random(seed * 1_000_003 + index)
    name = list(RULE_SETS)[index % len(RULE_SETS)]
    rules = RULE_SETS[name]
    if name != "rummy" and index % FULL_EVERY:  # mostly short games; every so often all ten
        rules = rules.with_options(num_deals=rng.randint(1, 3))
    low, high = rules.players
    players = rng.randint(low, min(high, 6))
    secret = rng.randbytes(32) if index % 2 == 0 else None
    game = Game.new([f"p{i}" for i in range(players)], rules, rng.getrandbits(62), secret=secret)
    log: list[tuple[str, str]] = []
    seen: list[DealEnd] = []
    buys = jokers = 0
    restart_at = rng.randrange(20, 400)
    while not game.is_over:
        if len(log) == restart_at:
            game = Game.from_json(game.to_json())  # the bot restarted: play goes on from disk
        player, action = random_step(game, rng)
        buys += isinstance(action, RequestBuy)
        jokers += str(action).count("JK")
        for event in game.apply(player, action):
            if isinstance(event, DealEnded) and event.reason != "void":
                seen.append((event.deal, event.hands, event.scores))
        log.append((player, str(action)))
    sheet = tuple(map(tuple, game.score_sheet))
    mismatches: list[str] = []
    stored = record_from_stored(game.to_json(), log)
    exported = read_record(write_record(stored))
    for source, record in (("stored log", stored), ("exported record", exported)):
        ends, final = _deal_ends(record)
        if ends != seen:
            mismatches.append(f"game {index} ({name}): {source}: a deal's hands or scores differ")
        if final != sheet:
            mismatches.append(f"game {index} ({name}): {source}: the score sheet differs")
    return Outcome(len(seen), len(log), buys, jokers, mismatches)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        outcomes = list(
            pool.map(check_game, range(args.games), [args.seed] * args.games, chunksize=10)
        )
    mismatches = [m for outcome in outcomes for m in outcome.mismatches]
    print(
        f"{len(outcomes)} games, {sum(o.deals for o in outcomes)} scored deals, "
        f"{sum(o.actions for o in outcomes)} actions, {sum(o.buys for o in outcomes)} buys, "
        f"{sum(o.jokers for o in outcomes)} actions naming a joker; "
        f"{len(mismatches)} mismatches; {time.perf_counter() - started:.0f} s"
    )
    for line in mismatches[:20]:
        print(" ", line)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
