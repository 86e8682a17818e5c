"""Fixtures for the storage tests: a store in a fresh directory, with a clock we control."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data import Seat, SqliteStore, Store


class FakeClock:
    """A unix clock that moves only when told, so time stamps can be asserted exactly."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


HUMANS = (Seat(101, "Ann"), Seat(102, "Bob"))
COMPUTER = Seat(-1, "Robo", is_computer=True, level="hard")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    # A directory that does not exist yet: Store.open must create it.
    return tmp_path / "state" / "bot.sqlite3"


@pytest.fixture
async def store(db_path: Path, clock: FakeClock) -> AsyncIterator[Store]:
    opened = await SqliteStore.open(db_path, clock=clock)
    yield opened
    await opened.close()
