"""How much of each meld the table picture draws, and how a seat's melds flow in lines.

A table too full for every card at the legible size summarises melds instead of shrinking
them: ``choose_summaries`` picks as few summaries as let the rows fit, the widest saving
first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from bot.screens._draw import text_width
from bot.screens.table_picture.measures import (
    BADGE_GAP,
    COMPACT_MELD_GAP,
    LINE_GAP,
    MELD_GAP,
    ROW_PAD,
    Scale,
)
from engine.melds import Meld
from engine.rules import Rules

#: How much of a meld is drawn: every card; its ends and its wilds, a bridge of card edges
#: standing for each stretch of naturals left out (a set: its first natural, the bridge, its
#: wilds); its ends only (a set: its first natural and the bridge). A crowded table summarises
#: its melds, the widest saving first, rather than shrinking its cards below the legible size
#: (at which a glyph is 8 px tall on a phone).
FULL, WILDS, ENDS = 0, 1, 2

#: A meld's pieces left to right: a card's index in the meld (>= 0) drawn as a tile, or
#: ``-n``, a bridge standing for ``n`` cards left out (last of a set: the stack behind it).
Pieces = tuple[int, ...]


def meld_pieces(meld: Meld, mode: int, rules: Rules) -> Pieces:
    """The pieces of ``meld`` drawn in ``mode``: ranks and suits stay whole, fewer cards show.

    What a player acts on survives every mode: a run's ends (where cards go) and, but in
    ``ENDS``, every wild with the identity it plays as (what may be swapped); a set's rank.
    A single card between two shown ones stays: a bridge would save almost nothing."""
    count = len(meld.cards)
    if mode == FULL or count <= 2:
        return tuple(range(count))
    wilds = {i for i, card in enumerate(meld.cards) if card.is_wild_in(meld.kind, rules)}
    kept = wilds if mode == WILDS else set()
    if meld.kind == "set":
        # Its first natural, the other naturals (the stretch left out), then its wilds.
        naturals = [i for i in range(count) if i not in wilds]
        order = naturals + sorted(wilds)
        kept |= {order[0]}
    else:
        order = list(range(count))
        kept |= {0, count - 1}
    pieces: list[int] = []
    hidden: list[int] = []
    for index in [*order, None]:
        if index is not None and index not in kept:
            hidden.append(index)
            continue
        if len(hidden) == 1:
            pieces.append(hidden[0])
        elif hidden:
            pieces.append(-len(hidden))
        hidden = []
        if index is not None:
            pieces.append(index)
    return tuple(pieces)


@lru_cache(maxsize=4096)
def _shape(pieces: Pieces) -> tuple[int, int, bool]:
    """(tiles, bridges) before the last piece, and whether that last piece is a tile."""
    bridges = sum(1 for piece in pieces[:-1] if piece < 0)
    return len(pieces) - 1 - bridges, bridges, pieces[-1] >= 0


@lru_cache(maxsize=16384)
def meld_width(pieces: Pieces, scale: Scale, compact: bool, number: int) -> float:
    """The pixels a meld drawn as ``pieces`` takes (cached: layouts try many scales)."""
    tile = scale.tile
    tiles, bridges, last_tile = _shape(pieces)
    width: float = (tile.width if last_tile else tile.bridge_width) + (
        tiles * tile.step + bridges * tile.bridge_step
    )
    if compact:
        width += badge_width(number, scale) + scale.of(BADGE_GAP)
    return width


def meld_gap(scale: Scale, compact: bool) -> float:
    return scale.of(COMPACT_MELD_GAP if compact and scale.tight else MELD_GAP)


def badge_width(number: int, scale: Scale) -> float:
    return text_width(str(number), scale.text_size) + scale.of(4 if scale.tight else 5)


#: One seat's melds as (number, meld, pieces drawn).
Shown = tuple[int, Meld, Pieces]


def flow_melds(melds: Sequence[Shown], scale: Scale, compact: bool) -> list[list[Shown]]:
    """Melds in lines no wider than the meld area (a meld wider than a line gets its own)."""
    width = scale.melds_width
    lines: list[list[Shown]] = [[]]
    used = 0.0
    for shown in melds:
        number, _, pieces = shown
        needed = meld_width(pieces, scale, compact, number)
        if lines[-1]:
            needed += meld_gap(scale, compact)
        if lines[-1] and used + needed > width:
            lines.append([])
            used, needed = 0.0, meld_width(pieces, scale, compact, number)
        lines[-1].append(shown)
        used += needed
    return lines


def row_height(lines: Sequence[Sequence[object]], scale: Scale) -> float:
    count = len([line for line in lines if line])
    melds = count * scale.tile.height + max(0, count - 1) * scale.of(LINE_GAP)
    # The lines of text carry their own leading; tiles get a padding above and below.
    return max(scale.info_height + scale.of(1), melds + 2 * scale.of(ROW_PAD))


def widest_fits(lines: Sequence[Sequence[Shown]], scale: Scale, compact: bool) -> bool:
    return all(
        len(line) != 1 or meld_width(line[0][2], scale, compact, line[0][0]) <= scale.melds_width
        for line in lines
    )


@dataclass(frozen=True, slots=True)
class Attempt:
    """One try at laying the rows out: the measures, each seat's lines, their heights,
    whether they fit and whether the seats' buys are drawn."""

    scale: Scale
    flows: dict[int, list[list[Shown]]]
    heights: dict[int, float]
    fits: bool
    buys: bool = True


def choose_summaries(
    by_owner: Mapping[int, Sequence[tuple[int, Meld]]],
    pieces: Callable[[int, int], Pieces],
    compact: bool,
    attempt: Callable[[Mapping[int, int]], Attempt],
) -> dict[int, int] | None:
    """The modes (meld number → ``WILDS`` or ``ENDS``) of few summaries that let the rows fit;
    None when even every meld summarised does not fit.

    Greedy: while the rows do not fit, the seat with the most lines of melds (a single meld
    too wide for its line first) summarises one more step the meld whose step saves the
    most width. A seat on one line is left alone: narrower melds would not lower its row."""
    modes: dict[int, int] = {}
    while True:
        tried = attempt(modes)
        if tried.fits:
            return modes
        scale = tried.scale
        order = sorted(
            tried.flows,
            key=lambda seat: (
                not widest_fits(tried.flows[seat], scale, compact),
                len([line for line in tried.flows[seat] if line]),
            ),
            reverse=True,
        )
        step: tuple[float, int, int] | None = None
        for seat in order:
            lines = [line for line in tried.flows[seat] if line]
            if len(lines) < 2 and widest_fits(lines, scale, compact):
                break
            for number, _, drawn in (shown for line in lines for shown in line):
                mode = modes.get(number, FULL)
                now = meld_width(drawn, scale, compact, number)
                for later in range(mode + 1, ENDS + 1):
                    saving = now - meld_width(pieces(number, later), scale, compact, number)
                    if saving > 0:
                        if step is None or saving > step[0]:
                            step = (saving, number, later)
                        break
            if step is not None:
                break
        if step is None:
            return None
        modes[step[1]] = step[2]
