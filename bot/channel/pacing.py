"""Each channel's budget of calls (Discord's 5 messages per 5 s), kept per channel.

The budget used to live in a table's outbox, so it started afresh whenever a table closed
and the next one opened in the same channel: lobbies opened and ended one after another made
7 calls in 5 s. Here it belongs to the channel for as long as its recent calls
matter, whichever table made them; a channel whose calls are all older than the window is
forgotten, so the map stays as small as the set of busy channels.
"""

from __future__ import annotations

import asyncio
from collections import deque

#: The shortest wait between two looks at a full budget, in seconds.
MIN_WAIT = 0.001


class ChannelPace:
    """The times of each channel's recent calls, and the wait before its next one."""

    def __init__(self) -> None:
        self.calls: dict[int, deque[float]] = {}

    async def spend(self, channel_id: int, rate: tuple[int, float]) -> None:
        """Wait until ``channel_id`` may make another call (at most ``rate[0]`` in any
        ``rate[1]`` seconds), then count it."""
        most, window = rate
        loop = asyncio.get_running_loop()
        while True:
            now = loop.time()
            self._prune(now, window)
            calls = self.calls.setdefault(channel_id, deque())
            if len(calls) < most:
                calls.append(now)
                return
            # Never a zero wait: a clock that only reaches the oldest call's expiry by
            # rounding would spin here without time passing.
            await asyncio.sleep(max(calls[0] + window - now, MIN_WAIT))

    def _prune(self, now: float, window: float) -> None:
        """Drop the calls older than ``window``, and the channels left with none."""
        for channel_id, calls in list(self.calls.items()):
            while calls and now - calls[0] >= window:
                calls.popleft()
            if not calls:
                del self.calls[channel_id]
