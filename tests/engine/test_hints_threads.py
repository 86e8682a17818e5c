"""The hints memo is shared by the bot's worker threads (computer seats, Hint's expert)."""

from __future__ import annotations

import random
import sys
import threading

import pytest

from engine.cards import ALL_NATURALS
from engine.players import hints
from engine.rules import Rules


def test_threads_sharing_the_memo_never_trip_over_each_others_evictions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A tiny memo and a fast thread switch make evictions race with lookups constantly.
    monkeypatch.setattr(hints, "_CACHE_LIMIT", 2)
    old_interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    rules = Rules.preset("standard")
    contract = rules.contract_for(1)
    keys = [hints.hand_key(random.Random(seed).sample(list(ALL_NATURALS), 11)) for seed in range(3)]
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        rng = random.Random(seed)
        try:
            for _ in range(4000):
                hints.deficiency_of_key(rng.choice(keys), contract, rules)
        except BaseException as error:  # reported by the main thread below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(4)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(old_interval)
    assert not errors, repr(errors[0])
