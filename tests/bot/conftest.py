"""Fixtures for the bot tests: a bot on a temporary database, and helpers to seat players."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot import Settings, create_bot

TOKEN = "x" * 24 + ".abcdef." + "y" * 27


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(
        discord_token=TOKEN,
        database=tmp_path / "db.sqlite3",
        seed=1,
        buy_seconds=8,
        turn_seconds=90,
        edit_interval=0,
        # The buy window's mechanics are tested with every person asked; the default
        # ("helps": asked only when the card helps) has tests of its own.
        buy_preference="ask",
        # Games stay in their channel here; a thread per game has tests of its own
        # (test_threads.py), which turn it on.
        threads=False,
    )


@pytest.fixture
def simcord_bot(settings: Settings) -> Any:
    return create_bot(settings)


@pytest.fixture
def make_bot(settings: Settings) -> Callable[[], Any]:
    return lambda: create_bot(settings)


@pytest.fixture
async def env(simcord_env: simcord.Env) -> Any:
    """``simcord_env``, checked afterwards for bugs the bot answered with an apology."""
    yield simcord_env
    errors = getattr(simcord_env.bot, "unexpected_errors", [])
    assert not errors, f"the bot met unexpected errors: {errors!r}"


def labels(message: Any) -> list[str]:
    """Labels of every button on a message (discord.Message or simcord ResponseMessage), nested
    ones in a Components V2 layout too."""
    from .helpers import button_labels

    return button_labels(message)


def assert_ok(result: simcord.InteractionResult) -> None:
    assert result.acknowledged, "the interaction was left unanswered"
