"""Render timings: ``python -m tools.bench_render [--repeat N]``.

For a 15-card hand, an 8-player mid-game table (melds with jokers) and a 10-deal score sheet,
prints the cold first render (all caches cleared: fonts, card faces), then the median and p99
of warm renders, and the PNG size. Targets: hand <= 30 ms, table <= 60 ms, files <= 300 KB.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from bot.screens import draw_hand, render_score_sheet, render_table
from bot.screens.cards import clear_caches
from bot.screens.samples import HAND_15, NAMES, SHEET_8x10, table_view

TARGETS_MS = {"hand (15 cards)": 30.0, "table (8 players)": 60.0}
MAX_KB = 300.0


def _time(fn: Callable[[], bytes]) -> tuple[float, bytes]:
    start = time.perf_counter()
    data = fn()
    return (time.perf_counter() - start) * 1000, data


def _percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=200, help="warm renders per picture")
    args = parser.parse_args(argv)

    view = table_view(8)
    cases: list[tuple[str, Callable[[], bytes]]] = [
        ("hand (15 cards)", lambda: draw_hand(HAND_15, highlight=range(0, 7))),
        ("table (8 players)", lambda: render_table(view)),
        ("score sheet (8x10)", lambda: render_score_sheet(NAMES, SHEET_8x10)),
    ]
    print(f"{'picture':<20} {'cold ms':>8} {'median ms':>10} {'p99 ms':>8} {'KB':>7}  target")
    for name, fn in cases:
        clear_caches()
        cold, data = _time(fn)
        warm = [_time(fn)[0] for _ in range(args.repeat)]
        median, p99 = statistics.median(warm), _percentile(warm, 0.99)
        size_kb = len(data) / 1024
        target = TARGETS_MS.get(name)
        verdict = ""
        if target is not None:
            verdict = f"<= {target:.0f} ms " + ("ok" if median <= target else "MISSED")
        if size_kb > MAX_KB:
            verdict += f"  file over {MAX_KB:.0f} KB"
        print(f"{name:<20} {cold:>8.1f} {median:>10.1f} {p99:>8.1f} {size_kb:>7.1f}  {verdict}")


if __name__ == "__main__":
    main()
