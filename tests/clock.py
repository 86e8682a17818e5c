"""The tests' clock: a unix time that moves only when a test moves it.

Pass it as the service's ``clock`` and deadlines, buy windows and idle timeouts become exact:
a test steps past a deadline with ``advance`` (or ``now += ...``) instead of sleeping.
"""

from __future__ import annotations


class FakeClock:
    """A unix clock that moves only when told."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
