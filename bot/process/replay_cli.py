"""``python -m bot replay FILE``: a game record's deals and final scores, replayed.

The record (``docs/game-record.md``) is played again with the engine, so what is printed is
what the rules make of the recorded actions, not what the file claims; a record the engine
refuses, or whose result differs, is an error.

With ``--html OUT`` the command writes the record's replay page (one self-contained HTML
file, ``bot.screens.replay_html``) to OUT instead of printing the replay.

Exit status: 0 when the record replays, 2 with one line on stderr when it cannot be read,
does not replay, or its page cannot be written.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bot.screens.replay_html import replay_html
from engine.events import DealEnded
from engine.record import GameRecord, read_record
from engine.replay import ReplayError, describe_hands, replay

PROG = "shanghai"
EXIT_BAD_RECORD = 2


def main(path: Path, html: Path | None = None) -> int:
    """Print the replay of the record at ``path``, or with ``html`` write its replay page
    there (``bot.screens.replay_html``) and print where."""
    try:
        record = read_record(path.read_text(encoding="utf-8"))
        lines = list(report(record)) if html is None else [_write_page(record, html)]
    except _Unwritable as error:
        return _fail(str(error))
    except OSError as error:
        return _fail(f"cannot read {path}: {error.strerror or error}")
    except UnicodeDecodeError:
        return _fail(f"{path} is not a text file")
    except ValueError as error:  # ReplayError is one
        return _fail(f"{path}: {error}")
    print("\n".join(lines))
    return 0


def _write_page(record: GameRecord, html: Path) -> str:
    page = replay_html(record).encode("utf-8")
    try:
        html.write_bytes(page)
    except OSError as error:
        raise _Unwritable(f"cannot write {html}: {error.strerror or error}") from None
    return f"Wrote {html} ({len(page):,} bytes): open it in any browser"


class _Unwritable(Exception):
    """The page could not be written (its own kind: an ``OSError`` here is the record's)."""


def _fail(message: str) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return EXIT_BAD_RECORD


def report(record: GameRecord) -> list[str]:
    """The lines printed for ``record``: the table, each deal's end with the hands it laid
    open, the totals and the winners. Raises ``ReplayError`` if it does not replay."""
    names = record.seats
    lines = [
        f"{record.rules.game.capitalize()} game, {len(names)} seats, "
        f"{len(record.actions)} actions, "
        + ("checkable shuffle" if record.deal_seeds else "older shuffle (no deal seeds)"),
        "Seats: " + ", ".join(f"{seat} {name}" for seat, name in enumerate(names)),
    ]
    last = None
    for step in replay(record):
        last = step
        for event in step.events:
            if isinstance(event, DealEnded):
                lines.append(_deal_line(event, names))
                lines.extend(f"  {line}" for line in describe_hands(step))
    if last is None:  # pragma: no cover - replay always yields the dealt game
        raise ReplayError("nothing to replay")
    final = last.view(None)
    totals = ", ".join(f"{s.player} {s.total}" for s in final.seats)
    lines.append(f"Final totals: {totals}")
    lines.append("Won by " + ", ".join(names[seat] for seat in final.winners))
    return lines


def _deal_line(event: DealEnded, names: tuple[str, ...]) -> str:
    scores = ", ".join(f"{name} {score}" for name, score in zip(names, event.scores, strict=True))
    if event.reason == "out" and event.out_player is not None:
        how = f"{names[event.out_player]} went out"
    elif event.reason == "void":
        how = "void (no one went out; dealt again)"
    else:
        how = "the stock ran out"
    return f"Deal {event.deal}: {how}; {scores}"
