"""How long the event loop keeps a callback waiting: its lag, measured from another thread.

A coroutine that computes for two seconds without awaiting blocks every other task for those
two seconds (every table on the bot). ``LoopProbe`` hands the loop a callback every
``every`` seconds from a thread of its own (``call_soon_threadsafe``) and records how long it
took to run: a free loop runs it within a millisecond or so, a loop busy with a click's work
only when the work yields. Timers are not involved, so a simulated clock (simcord's) does not
skew it.
"""

from __future__ import annotations

import asyncio
import threading
import time
from types import TracebackType


class LoopProbe:
    """The event loop's worst and all lags while the probe is on (a context manager)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, every: float = 0.01) -> None:
        self.loop, self.every = loop, every
        self.lags: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="loop-probe", daemon=True)

    @property
    def worst(self) -> float:
        return max(self.lags, default=0.0)

    def _run(self) -> None:
        while not self._stop.is_set():
            ran = threading.Event()
            asked = time.perf_counter()
            self.loop.call_soon_threadsafe(ran.set)
            while not ran.wait(0.05):
                if self._stop.is_set():
                    self.lags.append(time.perf_counter() - asked)  # still stuck at the end
                    return
            self.lags.append(time.perf_counter() - asked)
            time.sleep(self.every)

    def __enter__(self) -> LoopProbe:
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join()
