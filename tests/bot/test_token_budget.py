"""The token's budget: never more calls in a window than its limit, waiting calls go out by
priority (a ping before a recap before a spectator's edit), a spectator's edit waits for
room without holding anything, and every REST call the bot makes on its token is counted."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
import simcord

from bot.channel.budget import (
    PING,
    RECAP,
    STRIP,
    TABLE,
    URGENT,
    TokenBudget,
    process_share,
)
from bot.channel.courier import Courier
from bot.i18n import t
from bot.views.table import render_table

from .helpers import (
    World,
    container_text,
    draw_and_discard,
    open_hand,
    open_table,
    start,
)

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


async def test_a_strip_waits_behind_a_spectators_edit_and_a_waiter_may_give_up(
    env: simcord.Env,
) -> None:
    """An old copy's strip (``STRIP``) is let through after a spectator's edit that came
    later; a waiter whose call found another way (``until``) leaves the line holding nothing."""
    budget = TokenBudget(per_second=4)
    for _ in range(4):
        await budget.spend(URGENT)
    order: list[str] = []

    async def wait(name: str, rank: int) -> None:
        await budget.wait_room(rank)
        order.append(name)
        await budget.spend(rank)

    strip = asyncio.create_task(wait("strip", STRIP))
    await asyncio.sleep(0)
    edit = asyncio.create_task(wait("edit", TABLE))
    carried: list[bool] = []
    gave_up = asyncio.create_task(budget.wait_room(TABLE, until=lambda: bool(carried)))
    await asyncio.sleep(0)
    carried.append(True)  # a click came: the call goes through its webhook
    await env.advance_time(2)
    assert await gave_up is False
    await env.advance_time(2)
    await asyncio.gather(strip, edit)
    assert order == ["edit", "strip"]
    assert not budget.held and budget.spent == 6


def posted_pings(env: simcord.Env, world: World) -> list[str]:
    """The "your turn" lines of the bot's posts in the channel, in order (a post notifies;
    a later edit of the same message does not), by REST or as a click's public follow-up."""
    found = re.compile(r"▶️ <@\d+>, your turn \(deal \d+\)\.")
    path = f"/channels/{world.channel.id}/messages"
    return [
        line
        for r in env.http_requests
        if r.method == "POST" and (r.path == path or r.path.startswith("/webhooks/"))
        for line in found.findall(json.dumps(r.json, ensure_ascii=False))
    ]


async def test_a_token_of_one_call_a_second_loses_no_ping_and_shows_the_last_state(
    env: simcord.Env,
) -> None:
    """A turn that begins for a player whose hand is closed moves the table message with a
    ping (a strip and a post), on a token the bot may call once a second: each ping arrives
    once, in order, and the table message ends showing the game as it is."""
    world = await open_table(env, 3)
    await start(world)
    budget = TokenBudget(per_second=1)
    budget.attach(env.bot.http)
    env.bot.publisher.budget = budget
    await env.advance_time(9)
    env.http_requests.clear()
    publisher = env.bot.publisher
    # The REST path: a courier no click is offered to, so every call is the token's
    # (tests/bot/test_courier.py has the table riding on the clicks).
    publisher.courier = Courier()
    decide, decided = publisher._ping_for, []

    def recorded(change: Any) -> int | None:
        user = decide(change)
        decided.extend([user] if user is not None else [])
        return user

    publisher._ping_for = recorded
    for _ in range(4):
        await draw_and_discard(world, world.current())
        await env.advance_time(9)  # the buy window of the third seat
    await env.advance_time(60)
    assert decided, "no turn began for a closed hand"
    assert posted_pings(env, world) == [f"▶️ <@{u}>, your turn (deal 1)." for u in decided]
    alt = t("picture.alt_table", "en")  # the table message has its picture
    latest = render_table(world.service.public(world.table.id), picture=alt).to_components()
    assert container_text(world.message()) == container_text(latest)
    assert budget.waited > 0  # the token was tight: calls did wait for it
