"""The token's budget: never more calls in a window than its limit, waiting calls go out by
priority (a ping before a recap before a spectator's edit), a spectator's edit waits for
room without holding anything, and every REST call the bot makes on its token is counted."""

from __future__ import annotations

import asyncio

import pytest
import simcord

from bot.channel.budget import PING, RECAP, TABLE, URGENT, TokenBudget, process_share

from .helpers import open_hand, open_table, start

pytestmark = pytest.mark.simcord(settle_timeout=1)


def test_a_process_spends_its_shards_share_of_the_token_with_headroom() -> None:
    assert process_share(1, 1) == pytest.approx(45.0)
    assert process_share(2, 4) == pytest.approx(22.5)
    assert process_share(0, 1) == pytest.approx(45.0)  # one process owning everything


async def test_waiting_calls_go_by_priority_and_no_window_holds_more_than_the_limit(
    env: simcord.Env,
) -> None:
    loop = asyncio.get_running_loop()
    budget = TokenBudget(per_second=4)
    sent: list[tuple[float, str]] = []

    async def call(name: str, priority: int) -> None:
        await budget.spend(priority)
        sent.append((loop.time(), name))

    start_at = loop.time()
    # Four fill the window; the rest arrive in the worst order for the players.
    tasks = [asyncio.create_task(call(f"fill{i}", URGENT)) for i in range(4)]
    tasks += [
        asyncio.create_task(call(name, rank))
        for name, rank in [("table1", TABLE), ("table2", TABLE), ("recap", RECAP), ("ping", PING)]
    ]
    tasks.append(asyncio.create_task(call("command", URGENT)))
    for _ in range(4):
        await env.advance_time(1)
    await asyncio.gather(*tasks)
    names = [name for _, name in sent]
    assert names[:4] == ["fill0", "fill1", "fill2", "fill3"]
    assert names[4:] == ["command", "ping", "recap", "table1", "table2"]
    times = [at - start_at for at, _ in sent]
    for first in times:  # any window of one second
        assert sum(1 for at in times if first <= at < first + 1) <= 4
    assert budget.waited == 5 and budget.spent == 9


async def test_a_spectators_edit_needs_room_and_a_ping_does_not(env: simcord.Env) -> None:
    budget = TokenBudget(per_second=8)
    for _ in range(5):
        await budget.spend(URGENT)
    assert budget.has_room(TABLE) and budget.has_room(RECAP)
    for _ in range(2):  # 7 of 8: more than the 85% a spectator's edit may fill
        await budget.spend(URGENT)
    assert budget.has_room(PING) and budget.has_room(RECAP) and not budget.has_room(TABLE)
    await budget.spend(URGENT)
    assert not budget.has_room(PING)
    assert budget.spent == 8 and budget.waited == 0


async def test_every_rest_call_of_the_bot_counts_and_interaction_answers_do_not(
    env: simcord.Env,
) -> None:
    world = await open_table(env, 2)
    await start(world)
    budget = env.bot.publisher.budget
    before, calls = budget.spent, len(env.http_requests)
    await open_hand(world, world.current())  # an interaction answer only
    await env.advance_time(20)
    rest = [
        r
        for r in env.http_requests[calls:]
        if not r.path.startswith(("/interactions/", "/webhooks/"))
    ]
    assert budget.spent - before == len(rest)
    assert budget.spent > 0


async def test_a_budget_attached_anew_replaces_the_last_one(env: simcord.Env) -> None:
    class Http:
        async def request(self, *args: object, **kwargs: object) -> str:
            return "sent"

    http = Http()
    first, second = TokenBudget(), TokenBudget()
    first.attach(http)
    second.attach(http)
    assert await http.request() == "sent"
    assert (first.spent, second.spent) == (0, 1)


async def test_a_full_window_holds_every_priority_until_it_frees(env: simcord.Env) -> None:
    budget = TokenBudget(per_second=4)
    for _ in range(4):
        await budget.spend(URGENT)
    edit = asyncio.create_task(budget.spend(TABLE))
    await asyncio.sleep(0)
    assert not budget.has_room(TABLE) and not budget.has_room(RECAP)
    await env.advance_time(2)
    await edit
    assert budget.has_room(RECAP)
