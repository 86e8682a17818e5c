"""Computer seats: added in the lobby, playing through the service with the strategy's view only,
buying through the buy window, standing in for away players; and the Hint button."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import simcord

from engine.game import Game
from engine.players.expert import ExpertStrategy
from engine.players.strategy import EasyStrategy, NormalStrategy
from engine.view import PlayerView

from .helpers import button_labels, open_hand, open_table, start, text_of


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """Every call of a strategy's ``choose`` and ``wants_buy``: (kind, strategy, view, legal)."""
    calls: list[tuple[Any, ...]] = []
    for cls in (EasyStrategy, NormalStrategy):
        choose, wants_buy = cls.choose, cls.wants_buy

        def spied_choose(self, view, legal, rng, _choose=choose):  # type: ignore[no-untyped-def]
            calls.append(("choose", self, view, list(legal)))
            return _choose(self, view, legal, rng)

        def spied_buy(self, view, rng, _wants=wants_buy):  # type: ignore[no-untyped-def]
            calls.append(("buy", self, view, None))
            return _wants(self, view, rng)

        monkeypatch.setattr(cls, "choose", spied_choose)
        monkeypatch.setattr(cls, "wants_buy", spied_buy)
    return calls


async def test_lobby_adds_and_removes_computers(env: simcord.Env) -> None:
    world = await open_table(env, 2)
    alice, bob = world.players
    labels = button_labels(world.message())
    assert "Add computer (easy)" in labels and "Add computer (normal)" in labels
    assert "Remove computer" not in labels
    refused = await bob.click(world.message(), label="Add computer (easy)")
    assert refused.acknowledged and refused.ephemeral
    assert len(world.table.record.seats) == 2
    added = await alice.click(world.message(), label="Add computer (normal)")
    assert added.acknowledged
    await alice.click(world.message(), label="Add computer (easy)")
    seats = world.table.record.seats
    assert [s.name for s in seats[2:]] == ["Computer 1 (normal)", "Computer 2 (easy)"]
    assert all(s.is_computer and s.user_id < 0 for s in seats[2:])
    assert [s.level for s in seats[2:]] == ["normal", "easy"]
    text = text_of(world.message())
    assert "Computer 1 (normal)" in text and "Computer 2 (easy)" in text
    removed = await alice.click(world.message(), label="Remove computer")
    assert removed.acknowledged
    assert [s.name for s in world.table.record.seats] == ["alice", "bob", "Computer 1 (normal)"]


async def test_one_person_and_three_computers_play_to_the_end(
    env: simcord.Env, spy: list[tuple[Any, ...]]
) -> None:
    world = await open_table(env, 1, deals=1, buy_seconds=5, turn_seconds=30)
    alice = world.players[0]
    for label in ("Add computer (normal)", "Add computer (easy)", "Add computer (normal)"):
        assert (await alice.click(world.message(), label=label)).acknowledged
    await start(world)  # one person and three computers may start
    table = world.table
    game = table.game
    computer_ids = {str(s.user_id) for s in table.record.seats if s.is_computer}
    for _ in range(600):
        if game.is_over:
            break
        await env.advance_time(5)
    assert game.is_over, "the game did not finish"
    assert world.table is None
    choices = [c for c in spy if c[0] == "choose"]
    assert choices, "the computers never played"
    for _kind, _strategy, view, legal in spy:
        assert isinstance(view, PlayerView) and not isinstance(view, Game)
        assert view.player is not None and view.hand is not None
        if legal is not None:
            assert legal
    # Computers play with their own seat's view; alice (away after timeouts) with hers.
    assert {c[2].player for c in choices} >= computer_ids
    assert any(c[0] == "buy" for c in spy), "computers were never asked about the buy window"
    seats = game.view(None).seats
    computer_buys = sum(seats[game.seat_of(p)].buys_used for p in computer_ids)
    assert computer_buys >= 1, "no computer bought through the buy window (seed 1 does)"
    notices = "\n".join(text_of(m) for m in world.channel.history())
    assert "Game over!" in notices


async def test_computer_sees_only_its_own_hand(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = await open_table(env, 1, deals=1, buy_seconds=5, turn_seconds=30)
    alice = world.players[0]
    await alice.click(world.message(), label="Add computer (normal)")
    await start(world)
    table = world.table
    game = table.game
    checked: list[str] = []
    choose = NormalStrategy.choose

    def checking(self, view, legal, rng):  # type: ignore[no-untyped-def]
        assert isinstance(view, PlayerView)
        assert view.hand == tuple(game.hand_of(view.player))
        assert list(legal) == game.legal_actions(view.player)
        checked.append(view.player)
        return choose(self, view, legal, rng)

    monkeypatch.setattr(NormalStrategy, "choose", checking)
    computer = str(table.record.seats[1].user_id)
    for _ in range(60):
        if computer in checked:
            break
        await env.advance_time(5)
    assert computer in checked


async def test_away_player_is_played_by_the_computer(env: simcord.Env) -> None:
    world = await open_table(env, 2, turn_seconds=10, buy_seconds=3)
    await start(world)
    table = world.table
    game = table.game
    for _ in range(200):
        if table.away_seats:
            break
        await env.advance_time(10)
    assert table.away_seats
    text = text_of(world.message())
    assert "away — played by the computer" in text
    seat = table.away_seats[0]
    person = world.player(int(game.players[seat]))
    await open_hand(world, person)  # any click brings them back
    assert seat not in table.away_seats
    assert "played by the computer" not in text_of(world.message())


async def test_hint_shows_needed_cards(env: simcord.Env) -> None:
    world = await open_table(env, 2)
    await start(world)
    player = world.current()
    hand = await open_hand(world, player)
    assert "Hint" in button_labels(hand.response)
    hinted = await player.click(hand.response, label="Hint")
    assert hinted.acknowledged
    content = text_of(hand.response)
    assert "💡" in content
    assert "more card" in content or "Lay down now" in content
    assert "discard" in content.lower()


async def test_computers_resume_after_restart(env: simcord.Env, make_bot: Any) -> None:
    world = await open_table(env, 1, deals=1, buy_seconds=5, turn_seconds=30)
    alice = world.players[0]
    for _ in range(3):
        await alice.click(world.message(), label="Add computer (normal)")
    await start(world)
    before = world.table.version
    await env.bot.service.close()  # the old process dies with its timers
    await env.restart_bot(make_bot())
    table = world.table
    assert table is not None and table.game is not None
    for _ in range(20):
        await env.advance_time(5)
    assert table.version > before + 3, "the computers did not play after the restart"
    notices = "\n".join(text_of(m) for m in world.channel.history())
    assert "<@-" not in notices  # computers are not pinged


async def test_an_expert_computer_is_added_and_decides_off_the_event_loop(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host seats an expert from the lobby; its decisions are made from its own view in
    a worker thread (the event loop's thread never runs its search), and the deal ends."""
    threads: list[tuple[str, int, str]] = []
    loop_thread = threading.get_ident()
    choose, wants_buy = ExpertStrategy.choose, ExpertStrategy.wants_buy

    def spied_choose(self, view, legal, rng):  # type: ignore[no-untyped-def]
        assert isinstance(view, PlayerView) and view.hand is not None
        threads.append(("choose", threading.get_ident(), view.player))
        return choose(self, view, legal, rng)

    def spied_buy(self, view, rng):  # type: ignore[no-untyped-def]
        threads.append(("buy", threading.get_ident(), view.player))
        return wants_buy(self, view, rng)

    monkeypatch.setattr(ExpertStrategy, "choose", spied_choose)
    monkeypatch.setattr(ExpertStrategy, "wants_buy", spied_buy)
    world = await open_table(env, 1, deals=1, buy_seconds=5, turn_seconds=30)
    alice = world.players[0]
    assert "Add computer (expert)" in button_labels(world.message())
    for label in ("Add computer (expert)", "Add computer (normal)", "Add computer (easy)"):
        assert (await alice.click(world.message(), label=label)).acknowledged
    seats = world.table.record.seats
    assert seats[1].name == "Computer 1 (expert)" and seats[1].level == "expert"
    await start(world)
    game = world.table.game
    expert = str(seats[1].user_id)
    for _ in range(600):
        if game.is_over:
            break
        await env.advance_time(5)
    assert game.is_over
    assert any(kind == "choose" for kind, _, _ in threads), "the expert never played"
    assert {player for _, _, player in threads} == {expert}
    assert all(ident != loop_thread for _, ident, _ in threads)
