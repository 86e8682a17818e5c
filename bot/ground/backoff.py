"""Exponential back-off for work that keeps failing: a table's timer, a channel's outbox.

When the database refuses writes (a full disk, a read-only file) a table timer used to retry
at once, forever: hundreds of attempts and tracebacks per second per table, on a disk that
was already full. A ``Backoff`` spaces the attempts (5 s, doubling, at most a minute by
default) and says when a failure or a recovery is worth a log line, so each table logs once
when it starts failing and once when it recovers, not once per attempt.

It keeps no clock of its own: callers pass the time they already use for their deadlines, so
it agrees with simulated clocks in tests and benchmarks.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Backoff:
    """Failures in a row of one piece of work, and the earliest time to try it again."""

    first: float = 5.0
    ceiling: float = 60.0
    failures: int = 0
    not_before: float | None = None

    @property
    def failing(self) -> bool:
        return self.failures > 0

    def delay(self) -> float:
        """Seconds to wait after the latest failure: ``first``, doubling, up to ``ceiling``."""
        if self.failures == 0:
            return 0.0
        return float(min(self.ceiling, self.first * 2 ** min(self.failures - 1, 30)))

    def failed(self, now: float) -> bool:
        """Count a failure at ``now``; ``True`` only for the first of a run (log that one)."""
        self.failures += 1
        self.not_before = now + self.delay()
        return self.failures == 1

    def succeeded(self) -> int:
        """Forget the failures; returns how many there were (non-zero: log the recovery)."""
        failures, self.failures, self.not_before = self.failures, 0, None
        return failures

    def hold(self, when: float | None) -> float | None:
        """``when``, but not before the back-off allows another attempt."""
        if when is None or self.not_before is None:
            return when
        return max(when, self.not_before)
