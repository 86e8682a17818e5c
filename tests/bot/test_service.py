"""The table service without Discord: one outcome under concurrent clicks, atomic commits."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import LiveTable, TableService
from data import SqliteStore
from engine.actions import Discard, DrawStock, GoDown, RequestBuy
from engine.errors import IllegalAction
from engine.events import BuyAwarded
from engine.melds import Meld
from tests.clock import FakeClock


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    store = await SqliteStore.open(tmp_path / "db.sqlite3")
    # Every person asked about each buy: these tests are about the window's mechanics.
    svc = TableService(
        store, buy_seconds=8, turn_seconds=90, seed=3, clock=FakeClock(), buy_preference="ask"
    )
    yield svc
    await svc.close()
    await store.close()


async def started(service: TableService, players: int) -> LiveTable:
    table = await service.open_table(1, 2, 100, "p100", {"preset": "standard"})
    for user in range(101, 100 + players):
        await service.join(table.id, user, f"p{user}")
    return await service.start(table.id, 100)


def others(table: LiveTable) -> list[int]:
    game = table.game
    assert game is not None
    n = len(game.players)
    return [int(game.players[(game.current + k) % n]) for k in range(1, n)]


async def test_eight_simultaneous_buys_and_a_draw_give_one_award(service: TableService) -> None:
    table = await started(service, 8)
    game = table.game
    assert game is not None
    p = int(game.current_player)
    buyers = others(table)
    clicks = [service.act(table.id, user, RequestBuy()) for user in reversed(buyers)]
    results = await asyncio.gather(*clicks, service.act(table.id, p, DrawStock()))
    awards = [e for r in results for e in r.events if isinstance(e, BuyAwarded)]
    pending = results[-1].pending
    if pending is not None:
        awards += [e for e in (await pending).events if isinstance(e, BuyAwarded)]
    assert len(awards) == 1
    assert game.players[awards[0].player] == str(buyers[0])  # the next seat, not the first click
    sizes = sorted(len(game.hand_of(str(u))) for u in buyers)
    assert sizes == [11] * 6 + [13]
    assert game.step == "play"
    stored = await service.store.get_table(table.id)
    assert stored is not None and stored.version == table.version == len(buyers) + 1


async def test_concurrent_buys_while_the_draw_waits(service: TableService) -> None:
    table = await started(service, 4)
    game = table.game
    assert game is not None
    p = int(game.current_player)
    _first, second, third = others(table)
    held = await service.act(table.id, p, DrawStock())
    assert held.pending is not None and game.step == "draw"
    await asyncio.gather(
        service.act(table.id, third, RequestBuy()), service.act(table.id, second, RequestBuy())
    )
    assert game.step == "draw"  # `first` may still ask
    service.clock.now += 9  # type: ignore[attr-defined]
    await service.run_due(table.id)
    result = await held.pending
    awards = [e for e in result.events if isinstance(e, BuyAwarded)]
    assert [game.players[a.player] for a in awards] == [str(second)]
    assert len(game.hand_of(str(second))) == 13 and len(game.hand_of(str(third))) == 11


async def test_double_clicked_discard_gives_one_outcome(service: TableService) -> None:
    table = await started(service, 2)  # two players: the draw is not held
    game = table.game
    assert game is not None
    p = int(game.current_player)
    await service.act(table.id, p, DrawStock())
    card = game.hand_of(str(p))[0]
    version = table.version
    results = await asyncio.gather(
        service.act(table.id, p, Discard(card)),
        service.act(table.id, p, Discard(card)),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(errors) == 1 and isinstance(errors[0], IllegalAction)
    assert table.version == version + 1
    assert len(game.hand_of(str(p))) == 11
    stored = await service.store.get_table(table.id)
    assert stored is not None and stored.version == version + 1
    log = await service.store.actions(table.id)
    assert [a.action for a in log][-1] == f"discard {card}"


async def test_illegal_meld_changes_nothing(service: TableService) -> None:
    table = await started(service, 2)
    game = table.game
    assert game is not None
    p = int(game.current_player)
    await service.act(table.id, p, DrawStock())
    before, version = game.to_json(), table.version
    bogus = GoDown((Meld.parse("set: 8H 8S 9C"), Meld.parse("set: 3H 3S 3C")))
    with pytest.raises(IllegalAction):
        await service.act(table.id, p, bogus)
    assert game.to_json() == before and table.version == version


async def test_failed_commit_rolls_the_game_back(service: TableService) -> None:
    table = await started(service, 2)
    game = table.game
    assert game is not None
    p = int(game.current_player)
    before = game.to_json()

    async def broken(*args: object, **kwargs: object) -> int:
        raise OSError("disk full")

    original = service.store.save_action
    service.store.save_action = broken  # type: ignore[method-assign]
    with pytest.raises(OSError):
        await service.act(table.id, p, DrawStock())
    service.store.save_action = original  # type: ignore[method-assign]
    assert table.game is not None and table.game.to_json() == before
    with contextlib.suppress(IllegalAction):
        await service.act(table.id, p, DrawStock())
    assert table.game.step == "play"


async def test_restore_rearms_and_resolves_past_deadlines(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "db.sqlite3")
    clock = FakeClock()
    first = TableService(store, seed=3, clock=clock)
    table = await started(first, 3)
    await first.close()
    clock.now += 1_000  # the bot was down past both deadlines
    second = TableService(store, seed=3, clock=clock)
    [restored] = await second.restore()
    assert restored.game is not None
    seat = restored.game.current
    await asyncio.sleep(0.05)  # the past-due timer fires at once
    assert restored.game.current != seat
    assert restored.away[seat].timeouts == 1
    await second.close()
    await store.close()
    assert table.id == restored.id
