"""One click's work is done once: a discard builds each screen, each view and the stored state
a single time, however many listeners and waiting seats read them, and none that nobody reads.

The real methods are wrapped and counted while a person's discard is played through
``TableService.play`` at a table of four whose every player follows their open hand (the
listener asks for every seat's screen with the change), each asked about a buy only when the
card helps them (``helps``): the discard names its card, so no screen is built for it before it
is applied; the buy window's question is answered once per moment of the click, not once per
screen; and whether the card helps each waiting seat is searched once for that seat and card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator, Callable, Collection
from pathlib import Path
from typing import Any

import pytest

import bot.service.buy_window as buy_window
import bot.service.legal_plays as legal_plays
import bot.service.snapshot as snapshot
from bot.service import Change, LiveTable, TableService
from bot.views.hand_choices import resolver
from data import SqliteStore
from engine import Game
from engine.actions import Discard, DrawStock


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Followers:
    """A listener following every seat's open hand, as the hand follower does."""

    def __init__(self) -> None:
        self.users: list[int] = []
        self.changes: list[Change] = []

    def table_changed(self, change: Change) -> None:
        self.changes.append(change)

    def watched(self, table_id: int) -> Collection[int]:
        return self.users


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[tuple[TableService, LiveTable, Clock]]:
    store = await SqliteStore.open(tmp_path / "db.sqlite3")
    clock = Clock()
    followers = Followers()
    service = TableService(
        store, seed=11, clock=clock, buy_seconds=8, listener=followers, buy_preference="helps"
    )
    table = await service.open_table(1, 2, 100, "p100", {"preset": "standard"})
    for user in (101, 102, 103):
        await service.join(table.id, user, f"p{user}")
    table = await service.start(table.id, 100)
    followers.users = [100, 101, 102, 103]
    yield service, table, clock
    await service.close()
    await store.close()


def counting(monkeypatch: pytest.MonkeyPatch, counts: Counter[str]) -> None:
    """Count calls of the real methods, which still do their work."""

    def wrap(owner: Any, name: str, label: str) -> None:
        real: Callable[..., Any] = getattr(owner, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            counts[label] += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(owner, name, counted)

    wrap(Game, "view", "view")
    wrap(Game, "to_json", "to_json")
    wrap(Game, "copy", "game copy")
    wrap(buy_window.BuyWindow, "is_running", "window running")
    wrap(buy_window, "buy_worth_it", "helps search")
    for module in (snapshot, *_importers("seat_snapshot")):
        wrap(module, "seat_snapshot", "snapshot")
    for module in (legal_plays, *_importers("prepare")):
        wrap(module, "prepare", "prepare")
    for module in (snapshot, *_importers("shortcuts_for")):
        wrap(module, "shortcuts_for", "shortcuts")


def _importers(name: str) -> list[Any]:
    """The service's modules that imported ``name`` by itself (each keeps its own reference)."""
    import sys

    return [
        module
        for key, module in list(sys.modules.items())
        if key.startswith("bot.service.")
        and key not in ("bot.service.snapshot", "bot.service.legal_plays", "bot.service.shortcuts")
        and name in vars(module)
    ]


async def test_a_discard_does_each_piece_of_work_once(
    world: tuple[TableService, LiveTable, Clock], monkeypatch: pytest.MonkeyPatch
) -> None:
    service, table, clock = world
    game = table.game
    assert game is not None
    clock.now += 10  # the first upcard's window is long over
    await service.run_due(table.id)
    player = int(game.current_player)
    await service.play(table.id, player, DrawStock())
    clock.now += 10
    await service.run_due(table.id)  # the held draw runs when its window ends
    game = table.game
    assert game is not None
    assert game.step == "play" and int(game.current_player) == player
    card = game.hand_of(str(player))[0]
    before = service.snapshot(table.id, player)
    shown = before.tag
    assert Discard(card) in before.legal
    nxt = (game.current + 1) % 4  # takes the upcard rather than buying it
    waiting = [
        seat
        for seat in range(4)
        if seat not in (game.current, nxt) and not game.down[seat] and not table.is_computer(seat)
    ]

    counts: Counter[str] = Counter()
    counting(monkeypatch, counts)
    discard = resolver("discard", [str(card)])  # the hand's discard select
    snap = await service.play(table.id, player, discard, shown=shown)

    assert snap.action == Discard(card) and not snap.my_turn and not snap.stale
    # One screen per followed seat after the discard (the clicker's answer is its screen in
    # the change) and none before it: the select names its card. One view per seat and the
    # spectators' after, and the clicker's before (its screen's tag, to tell a stale control);
    # the state serialised once, for its one save; no legal plays prepared for a screen nobody
    # reads, so no copy of the game for them nor shortcuts; one copy for the next player's
    # legal plays, computed off the loop. The window asked once for the click's screens and
    # once for the action's hold check before the discard, and once in each of the commit's
    # moments (the window it opens, the timer, the change told); the card searched once for
    # each seat that may buy it.
    assert dict(counts) == {
        "snapshot": 4,
        "view": 6,
        "to_json": 1,
        "game copy": 1,
        "window running": 5,
        "helps search": len(waiting),
    }
    assert len(waiting) == 2
    # Asked again about the same seat and card (a preference changed, a screen drawn), the
    # answer is the one searched with the discard.
    answers = [buy_window.upcard_helps_seat(table, seat) for seat in waiting]
    assert counts["helps search"] == len(waiting)
    assert answers == [buy_window.upcard_helps(game, seat) for seat in waiting]
