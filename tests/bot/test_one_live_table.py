"""While the table message moves (posted anew at the bottom, the old one stripped of its
controls), Discord may refuse any of those calls: a 429, a 500, a post that lands and still
answers 500. Checked after every call the bot makes, not only at the end: the new copy comes
first (carried on the click, so the table shows its game at once), the old copy alone keeps
its controls beside it until its strip goes through, no third message ever has them, and once
the move is over the new copy is the only one."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import simcord
import simcord.http.router as router
from simcord.backend.errors import BackendError

from .helpers import World, custom_ids, discard_id, open_hand, open_table, start, text_of

pytestmark = pytest.mark.simcord(settle_timeout=1)


def live(world: World) -> list[int]:
    """The channel's messages that carry table controls."""
    return [m.id for m in world.channel.history() if custom_ids(m)]


class Watch:
    """After every REST call: the messages with live controls, once a new one is posted."""

    def __init__(self, world: World, old: int) -> None:
        self.world, self.old = world, old
        self.seen: list[list[int]] = []
        #: POSTs to the channel that get a 500 after the message was made (``landed``).
        self.land_then_fail = 0

    @contextmanager
    def installed(self) -> Iterator[None]:
        original = router.dispatch

        def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            result = original(backend, method, path, **kwargs)
            posted = method == "POST" and path.endswith(f"/{self.world.channel.id}/messages")
            if posted and self.land_then_fail > 0:
                self.land_then_fail -= 1
                self.look()
                raise BackendError(500, 0, "Internal Server Error (after the write)")
            self.look()
            return result

        router.dispatch = dispatch
        try:
            yield
        finally:
            router.dispatch = original

    def look(self) -> None:
        ids = live(self.world)
        if any(i != self.old for i in ids) or self.seen:
            self.seen.append(ids)


@pytest.mark.parametrize(
    "fault",
    ["429 on the strip", "500 on the strip", "500 on the post", "post lands then 500", "429 all"],
)
async def test_one_message_has_live_controls_whatever_fails_in_a_move(
    env: simcord.Env, fault: str
) -> None:
    world = await open_table(env, 2)
    await start(world)
    await env.advance_time(9)
    old = world.message().id
    watch = Watch(world, old)
    if fault == "429 on the strip":
        env.inject_error("PATCH", f"/channels/*/messages/{old}", status=429, times=4)
    elif fault == "500 on the strip":
        env.inject_error("PATCH", f"/channels/*/messages/{old}", status=500, times=4)
    elif fault == "500 on the post":
        env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=500, times=2)
    elif fault == "post lands then 500":
        watch.land_then_fail = 1
    else:
        env.inject_error("*", f"/channels/{world.channel.id}/messages*", status=429, times=3)
    with watch.installed():
        p = world.current()
        hand = await open_hand(world, p)
        await p.click(hand.response, label="Draw from stock")
        card = world.table.game.hand_of(str(p.id))[-1]
        await p.select(hand.response, [str(card)], custom_id=discard_id(hand.response))
        nxt = world.current()
        for _ in range(40):
            await env.advance_time(1)
    assert watch.seen, "the table message never moved"
    final = live(world)
    assert final == [world.message().id] and final[0] != old
    assert all(set(ids) <= {old, final[0]} and final[0] in ids for ids in watch.seen), watch.seen
    assert world.table.record.message_id == final[0]
    pings = [line for m in world.channel.history() for line in text_of(m).splitlines()]
    turns = [line for line in pings if "your turn" in line]
    assert turns.count(f"▶️ <@{nxt.id}>, your turn (deal 1).") == 1, turns
