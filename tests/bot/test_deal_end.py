"""Issue 23.2: a moment at each deal's end. Whoever goes out is told so (a blind out is
celebrated as Shanghai, with its bonus); every player gets a private recap (the deal's points,
the total, the place and the gap to the leader); the channel gets who went out and the deal's
scores in the same message as the score sheet picture."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bot.service import Change, TableService
from bot.views.hand import render_hand
from data import SqliteStore
from engine.actions import RequestBuy
from engine.events import DealEnded
from engine.players.levels import make_strategy
from tests.clock import FakeClock

from .helpers import layout_text


class Watcher:
    """A listener that follows every seat, as open hands do."""

    def __init__(self, users: list[int]) -> None:
        self.users = users
        self.changes: list[Change] = []

    def watched(self, table_id: int) -> list[int]:
        return self.users

    def table_changed(self, change: Change) -> None:
        self.changes.append(change)


async def test_the_player_who_goes_out_and_the_others_each_get_their_moment(
    tmp_path: Path,
) -> None:
    store = await SqliteStore.open(tmp_path / "db.sqlite3")
    users = [100, 101, 102]
    watcher = Watcher(users)
    clock = FakeClock()
    service = TableService(store, seed=4, clock=clock, listener=watcher, buy_preference="never")
    try:
        table = await service.open_table(1, 2, 100, "alice", {"preset": "standard"})
        await service.join(table.id, 101, "bob")
        await service.join(table.id, 102, "carol")
        live = await service.start(table.id, 100)
        strategy, rng = make_strategy("normal"), random.Random(1)
        answer: Any = None
        for _ in range(600):
            game = live.game
            assert game is not None
            if game.deal != 1:
                break
            clock.advance(10)  # past any window
            await service.run_due(table.id)
            user = int(game.current_player)
            legal = [a for a in game.legal_actions(str(user)) if not isinstance(a, RequestBuy)]
            action = strategy.choose(game.view(str(user)), legal, rng)
            answer = await service.play(table.id, user, action)
        assert answer is not None and answer.deal_end is not None
        recap = answer.deal_end
        ended = next(e for c in watcher.changes for e in c.events if isinstance(e, DealEnded))
        assert recap.deal == 1 and recap.points == ended.scores[answer.seat]
        assert recap.you_out == (ended.out_player == answer.seat)
        content = layout_text(render_hand(answer, "s"))
        assert ("You went out!" in content) == recap.you_out
        assert f"Deal 1: you scored {recap.points}" in content
        # Every other seat's screen in the same change carries its own recap.
        change = next(c for c in watcher.changes if any(isinstance(e, DealEnded) for e in c.events))
        for user in users:
            mine = change.seats[user].deal_end
            assert mine is not None and mine.out_seat == ended.out_player
            assert mine.points == ended.scores[change.seats[user].seat]
            totals = [sum(col) for col in zip(*change.table.view.score_sheet, strict=True)]
            assert mine.total == totals[change.seats[user].seat]
            assert mine.behind == mine.total - min(totals)
    finally:
        await service.close()
        await store.close()
