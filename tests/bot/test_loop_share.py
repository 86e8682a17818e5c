"""Clicks take turns on the event loop: a burst of clicks on many tables never runs all of
their parts in one turn of the loop, so the gateway and the timers get theirs in between."""

from __future__ import annotations

import asyncio
import time

from bot.service.tables_commit import SHARE_BATCH, SHARE_SECONDS, let_others_in


def burn(seconds: float) -> None:
    """CPU work of a click's part (busy, as the engine's work is)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


async def parts_per_turn(clicks: int, part: float) -> tuple[list[int], list[int]]:
    """Run ``clicks`` clicks of two parts each at once; how many parts ran in each turn of
    the loop, and the order in which the clicks finished."""
    loop = asyncio.get_running_loop()
    ran = 0
    turns: list[int] = []
    done = asyncio.Event()

    def count_turn() -> None:  # one call per turn of the loop: a chain of call_soon
        nonlocal ran
        turns.append(ran)
        ran = 0
        if not done.is_set():
            loop.call_soon(count_turn)

    finished: list[int] = []

    async def click(index: int) -> None:
        nonlocal ran
        burn(part)
        ran += 1
        await let_others_in()
        burn(part)
        ran += 1
        finished.append(index)

    loop.call_soon(count_turn)
    await asyncio.gather(*(click(i) for i in range(clicks)))
    done.set()
    await asyncio.sleep(0)
    return turns, finished


async def test_a_burst_of_clicks_runs_a_few_parts_per_turn_of_the_loop() -> None:
    part = SHARE_SECONDS / 2  # two parts fill a share
    turns, finished = await parts_per_turn(100, part)
    # The first parts all start in the gather's own turn; every later turn lets in at most a
    # batch of waiting clicks (a plain sleep(0) let all 100 second parts run in one turn).
    assert max(turns[2:]) <= SHARE_BATCH
    assert sum(turns) == 200
    assert finished == sorted(finished), "clicks go on in the order they arrived"


def test_clicks_left_waiting_on_a_closed_loop_hold_nobody_on_the_next() -> None:
    async def left_waiting() -> None:
        burn(SHARE_SECONDS * 2)
        waiting = [asyncio.ensure_future(let_others_in()) for _ in range(3)]
        await asyncio.sleep(0)
        # queued; the loop closes before their turn comes
        assert not any(click.done() for click in waiting)

    old = asyncio.new_event_loop()
    old.run_until_complete(left_waiting())
    old.close()

    async def one_click() -> None:
        burn(SHARE_SECONDS * 2)
        await asyncio.wait_for(let_others_in(), 5)

    asyncio.run(one_click())


async def test_a_cancelled_click_leaves_its_place_to_the_next() -> None:
    burn(SHARE_SECONDS * 2)  # the stretch is used up: the next clicks queue
    first = asyncio.ensure_future(let_others_in())
    second = asyncio.ensure_future(let_others_in())
    await asyncio.sleep(0)
    first.cancel()
    await asyncio.wait_for(second, 5)
    assert first.cancelled() and second.done()
