"""``python -m bot try``: the real bot in a simulated Discord in your browser (in progress)."""

from __future__ import annotations

import sys


def main(*, seed: int | None, port: int | None, viewers: int, open_browser: bool) -> int:
    print("shanghai: try is not available in this version yet", file=sys.stderr)
    return 2
