"""``bot.interactions.answers``: a click is acknowledged in time and answered exactly once, its
deferral
and its answer ordered by one lock (Discord refuses a second answer with 40060)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.interactions import answers
from bot.service import TableService
from bot.service.legal_plays import BIG_HAND, needs_time
from data.sqlite_store import SqliteStore
from engine import Game, Rules
from tools.big_hands import pile_up


class FakeResponse:
    def __init__(self, log: list[str]) -> None:
        self.log, self.done = log, False

    def is_done(self) -> bool:
        return self.done

    async def _answer(self, what: str) -> None:
        assert not self.done, "answered twice"
        await asyncio.sleep(0.01)  # the trip to Discord
        self.log.append(what)
        self.done = True

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        await self._answer("defer thinking" if thinking else "defer")

    async def send_message(self, content: str, **kwargs: Any) -> None:
        await self._answer(f"send {content}")

    async def edit_message(self, *, content: str, **kwargs: Any) -> None:
        await self._answer(f"edit {content}")


class FakeFollowup:
    def __init__(self, log: list[str]) -> None:
        self.log = log

    async def send(self, content: str, **kwargs: Any) -> None:
        self.log.append(f"followup {content}")


class FakeInteraction:
    id = 1

    def __init__(self) -> None:
        self.log: list[str] = []
        self.extras: dict[str, Any] = {}
        self.response = FakeResponse(self.log)
        self.followup = FakeFollowup(self.log)

    async def edit_original_response(self, *, content: str, **kwargs: Any) -> Any:
        assert self.response.done, "edited before any answer"
        self.log.append(f"edit original {content}")
        return SimpleNamespace(id=2)  # the message edited, as Discord gives it back


async def test_a_quick_click_is_answered_in_one_trip() -> None:
    click: Any = FakeInteraction()
    async with answers.in_time(click, fresh=False):
        await answers.update(click, "hand", view=None)
    await asyncio.sleep(answers.DEFER_AFTER + 0.1)  # the watchdog is gone
    assert click.log == ["edit hand"]


async def test_a_slow_click_is_deferred_by_the_watchdog_then_edited() -> None:
    click: Any = FakeInteraction()
    async with answers.in_time(click, fresh=True):
        await asyncio.sleep(answers.DEFER_AFTER + 0.2)  # the work takes long
        assert click.log == ["defer thinking"]
        await answers.show(click, "hand")
    assert click.log == ["defer thinking", "edit original hand"]
    assert not answers.awaiting_answer(click)


async def test_a_click_known_to_be_slow_is_deferred_before_its_work() -> None:
    click: Any = FakeInteraction()
    async with answers.in_time(click, fresh=False, at_once=True):
        assert click.log == ["defer"]
        assert answers.awaiting_answer(click)  # a push must not overwrite what is to come
        await answers.update(click, "hand", view=None)
    assert click.log == ["defer", "edit original hand"]


async def test_the_answer_racing_the_watchdog_goes_out_once() -> None:
    for delay in (answers.DEFER_AFTER - 0.005, answers.DEFER_AFTER, answers.DEFER_AFTER + 0.005):
        click: Any = FakeInteraction()
        async with answers.in_time(click, fresh=False):
            await asyncio.sleep(delay)
            await answers.update(click, "hand", view=None)
        assert click.log in (["edit hand"], ["defer", "edit original hand"]), click.log


@pytest.mark.parametrize(
    ("fresh", "said"), [(True, "edit original busy"), (False, "followup busy")]
)
async def test_a_refusal_after_a_deferral_replaces_the_placeholder_or_follows_up(
    fresh: bool, said: str
) -> None:
    click: Any = FakeInteraction()
    await answers.defer(click, fresh=fresh)
    await answers.tell(click, "busy", ephemeral=True)
    assert click.log[-1] == said


def test_the_watchdog_defers_well_inside_discords_three_seconds() -> None:
    assert 0 < answers.DEFER_AFTER <= 1.0


async def test_needs_time_for_a_held_lock_or_a_big_hand_not_computed_yet() -> None:
    from bot.service.live import LiveTable
    from data.records import Seat, TableRecord

    players = [str(i) for i in range(1, 9)]
    game = Game.new(players, Rules.preset("standard"), seed=5)
    seats = tuple(Seat(int(p), f"p{p}") for p in players)
    record = TableRecord(
        id=1, guild_id=1, channel_id=1, game_kind="shanghai", status="playing", host_id=1,
        message_id=None, seats=seats, options={}, state=None, version=0,
        buy_deadline=None, turn_deadline=None, away=(), created_at=0.0, updated_at=0.0,
    )  # fmt: skip
    table = LiveTable(record, game, 0)
    mover = int(game.players[game.current])
    assert not needs_time(table, mover)  # 11 cards: quick whatever happens
    pile_up(game, BIG_HAND, seed=1)
    assert needs_time(table, mover)  # a big hand to move: its clicks compute or search
    other = int(game.players[(game.current + 1) % 8])
    assert not needs_time(table, other)  # not their turn
    async with table.lock:
        assert needs_time(table, other)


async def test_the_service_says_whether_a_click_needs_time(tmp_path: Path) -> None:
    """``answers.for_click`` asks the service, which answers from its own tables: a big hand
    to move needs time, a table it does not hold never does."""
    store = await SqliteStore.open(tmp_path / "db.sqlite3")
    service = TableService(store, seed=5)
    try:
        table = await service.open_table(1, 2, 100, "alice", {"preset": "standard"})
        await service.join(table.id, 101, "bob")
        live = await service.start(table.id, 100)
        assert live.game is not None
        mover = int(live.game.players[live.game.current])
        assert not service.needs_time(table.id, mover)
        pile_up(live.game, BIG_HAND, seed=1)
        assert service.needs_time(table.id, mover)
        assert not service.needs_time(table.id + 1, mover)
    finally:
        await service.close()
        await store.close()
