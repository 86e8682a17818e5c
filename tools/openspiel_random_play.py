"""Random legal play of OpenSpiel's gin rummy (C++ behind pyspiel), the yardstick of
``tools.bench_engine``.

OpenSpiel is not a dependency of this project: run this file with a Python that has it, e.g.
``python3 -m venv /work/venv-openspiel && /work/venv-openspiel/bin/pip install open_spiel``
then ``/work/venv-openspiel/bin/python tools/openspiel_random_play.py --games 400``. It needs
only the standard library and ``pyspiel``, and prints one JSON line: the player actions
applied (each after a ``legal_actions`` call, as the engine's random play does), the chance
outcomes applied (the deal and the stock draws) and the seconds both took.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import time
from typing import Any


def random_play(games: int, seed: int = 1) -> dict[str, float]:
    """Play ``games`` random games of gin rummy; the counts and the elapsed seconds."""
    pyspiel: Any = importlib.import_module("pyspiel")
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    actions = chance = 0
    start = time.process_time()  # CPU time, as tools.bench_engine takes its own
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                chance += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                actions += 1
    seconds = time.process_time() - start
    return {"actions": actions, "chance": chance, "seconds": seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps(random_play(args.games, args.seed)))


if __name__ == "__main__":
    main()
