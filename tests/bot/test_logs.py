"""The log of a whole game: one line when it starts and one when it ends, guild and table ids
on every line about a table, and never a card of a hand, the token or message text, even with
the bot's own loggers at DEBUG (the database drivers stay at WARNING unless named)."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
import simcord

from bot.ground import logs

from .conftest import TOKEN
from .helpers import discard_id, open_hand, open_table, start, text_of

pytestmark = pytest.mark.simcord(settle_timeout=1)


@pytest.fixture
def debug_log(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """Everything at DEBUG, with the levels ``SHANGHAI_LOG_LEVEL=DEBUG`` gives the libraries."""
    levels = {name: logging.getLogger(name).level for name in logs.QUIET}
    caplog.set_level(logging.DEBUG)
    logs.hold_quiet(logs.parse_levels("DEBUG")[1])
    yield caplog
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


def hands_now(game: Any) -> set[str]:
    return {str(card) for seat in game.players for card in game.hand_of(seat)}


@pytest.mark.simcord(settle_timeout=10)  # a whole game draws a picture a turn: real work
async def test_a_whole_game_logs_its_start_and_end_and_no_secret(
    env: simcord.Env, debug_log: pytest.LogCaptureFixture
) -> None:
    world = await open_table(env, 1, deals=1, buy_seconds=5, turn_seconds=30)
    alice = world.players[0]
    for label in ("Add computer (normal)", "Add computer (easy)", "Add computer (normal)"):
        assert (await alice.click(world.message(), label=label)).acknowledged
    await start(world)
    table = world.table
    game = table.game
    held = hands_now(game)
    # alice plays her first turn herself: a hand, a draw and a discard through the controls.
    for _ in range(100):
        if int(game.current_player) == alice.id:
            break
        await env.advance_time(5)
        held |= hands_now(game)
    hand = await open_hand(world, alice)
    await alice.click(hand.response, label="Draw from stock")
    await env.advance_time(6)
    held |= hands_now(game)
    card = game.hand_of(str(alice.id))[-1]
    assert (
        await alice.select(hand.response, [str(card)], custom_id=discard_id(hand.response))
    ).acknowledged
    for _ in range(600):
        if game.is_over:
            break
        await env.advance_time(5)
        held |= hands_now(game)
    assert game.is_over

    records = [r for r in debug_log.records if not r.name.startswith("simcord")]
    text = "\n".join(f"{r.name} {r.getMessage()}" for r in records)
    where = f"guild {world.guild.id} table {table.id}"
    assert len([r for r in records if "game started" in r.getMessage()]) == 1
    assert f"{where}: game started: 4 seat(s), 3 computer(s), preset standard, 1 deal(s)" in text
    assert len([r for r in records if "game finished" in r.getMessage()]) == 1
    assert f"{where}: game finished after" in text
    # Every line of the bot's that names a table names its guild too.
    for record in records:
        message = record.getMessage()
        if record.name.startswith("bot") and re.search(r"\btable\b", message):
            assert re.search(r"guild \d+ table \d+", message), message
    # No card of any hand, no token, no message text.
    assert len(held) > 20
    leaked = sorted(card for card in held if re.search(rf"(?<![\w#]){card}(?!\w)", text))
    assert leaked == [], f"cards in the log: {leaked}"
    assert TOKEN not in text and TOKEN.split(".")[0] not in text
    # The channel's words are in its messages' text displays (Components V2), not content.
    posted = [text_of(m) for m in world.channel.history()]
    lines = {line.strip() for content in posted for line in content.splitlines()}
    lines = {line for line in lines if len(line) >= 12}
    assert lines, "the channel showed no text to look for"
    assert not [line for line in lines if line in text]
    # The database driver stayed quiet even at DEBUG.
    assert not [r for r in records if r.name.startswith("aiosqlite")]


def test_a_named_library_may_be_asked_for() -> None:
    assert logs.parse_levels("DEBUG,aiosqlite=INFO") == ("DEBUG", {"aiosqlite": "INFO"})
    assert logs.parse_levels("warning") == ("WARNING", {})
    for bad in ("LOUD", "INFO,DEBUG", "INFO,aiosqlite=LOUD", "INFO,=DEBUG"):
        with pytest.raises(ValueError):
            logs.parse_levels(bad)
