"""Where everything of a table picture goes: ``layout_table`` picks the largest scale (and
the name column, and the fewest meld summaries) at which every seat's row fits the square,
then places each meld's badge, tiles and bridges.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from functools import cache, partial

from bot.i18n import DEFAULT_LANGUAGE, Language, t
from bot.screens._draw import CAP_HEIGHT, text_width
from bot.screens.table_picture.measures import (
    BADGE_GAP,
    COMPACT_HEIGHTS,
    HEADER_HEIGHT,
    INFO_WIDTH,
    LINE_GAP,
    MAX_SCALE,
    MIN_SCALE,
    OUTER,
    PHONE,
    SIZE,
    Box,
    PlacedMeld,
    PlacedTile,
    Row,
    Scale,
    TableLayout,
    px,
)
from bot.screens.table_picture.names import cut_names
from bot.screens.table_picture.summaries import (
    ENDS,
    FULL,
    Attempt,
    Pieces,
    Shown,
    badge_width,
    choose_summaries,
    flow_melds,
    meld_gap,
    meld_pieces,
    row_height,
    widest_fits,
)
from engine.melds import Meld
from engine.view import PlayerView


def seat_stats(view: PlayerView, seat: int, language: Language) -> tuple[str, str]:
    """The second line of a seat: cards in hand, and the buys of the limit."""
    info = view.seats[seat]
    limit = "∞" if view.buy_limit is None else str(view.buy_limit)
    return str(info.hand_size), t("picture.buys", language, used=info.buys_used, limit=limit)


def stats_width(count: str, buys: str, scale: Scale) -> float:
    """The pixels the second line needs: the card-back icon, the count and the buys."""
    size = scale.text_size
    icon = size * CAP_HEIGHT * 1.25 * 0.7
    return icon + scale.of(2) + text_width(count, size) + scale.of(6) + text_width(buys, size)


#: Narrower name columns tried, in phone px, before the rows shrink below the legible size:
#: names shorten further ("Bartholomew") so that a line holds more cards.
NARROWER_INFO = (110.0, 100.0, 90.0)


def layout_table(
    view: PlayerView, *, compact: bool = False, language: Language = DEFAULT_LANGUAGE
) -> TableLayout:
    """Where everything goes: the full picture is the square; the compact one is the
    shortest of ``COMPACT_HEIGHTS`` at which every card still shows at the legible size
    (``TableLayout.whole``) and no name is cut shorter than in the square, else the square."""
    square = layout_at(view, SIZE, compact, language)
    if compact:
        cut = cut_names(view, square.scale, language)
        for height in COMPACT_HEIGHTS[:-1]:
            found = layout_at(view, height, compact, language)
            if found.whole and cut_names(view, found.scale, language) <= cut:
                return found
    return square


def layout_at(view: PlayerView, tall: int, compact: bool, language: Language) -> TableLayout:
    """The rows of the picture, ``tall`` pixels high, at the largest scale that fits: with the
    widest name column down to the legible size, then with narrower ones (never narrower than
    the cards-and-buys line of ``language``); a table still too full keeps the legible size and
    summarises its melds (``choose_summaries``); only one past all summaries shrinks."""
    head = 0.0 if compact else float(px(HEADER_HEIGHT))
    available = tall - head - px(OUTER)
    by_owner: dict[int, list[tuple[int, Meld]]] = {seat: [] for seat in range(len(view.seats))}
    for number, table_meld in enumerate(view.melds, start=1):
        by_owner.setdefault(table_meld.owner, []).append((number, table_meld.meld))
    stats = [seat_stats(view, seat, language) for seat in range(len(view.seats))]
    rules = view.rules
    melds_by_number = {n: m for melds in by_owner.values() for n, m in melds}

    @cache
    def pieces(number: int, mode: int) -> Pieces:
        return meld_pieces(melds_by_number[number], mode, rules)

    def column(factor: float, info: float, buys: bool) -> float:
        """``info``, or wider: never narrower than the widest cards-and-buys line ("▮25
        gekocht 12/∞"): the names may shorten, that line may not."""
        widest = max(
            (stats_width(count, bought if buys else "", Scale(factor)) for count, bought in stats),
            default=0.0,
        )
        return max(info, math.ceil(widest / (PHONE * factor)) + 2)

    def attempt(
        factor: float,
        info: float,
        modes: Mapping[int, int],
        *,
        buys: bool = True,
        tight: bool = False,
    ) -> Attempt:
        scale = Scale(factor, column(factor, info, buys), tight)
        flows = {
            seat: flow_melds(
                [(n, m, pieces(n, modes.get(n, FULL))) for n, m in melds], scale, compact
            )
            for seat, melds in by_owner.items()
        }
        heights = {seat: row_height(lines, scale) for seat, lines in flows.items()}
        room = scale.of(scale.info) - scale.of(1)
        fits = (
            sum(heights.values()) <= available
            and all(widest_fits(lines, scale, compact) for lines in flows.values())
            and all(
                stats_width(count, bought if buys else "", scale) <= room for count, bought in stats
            )
        )
        return Attempt(scale, flows, heights, fits, buys)

    def factors(low: float) -> list[float]:
        return [round(MAX_SCALE - 0.02 * i, 2) for i in range(round((MAX_SCALE - low) / 0.02) + 1)]

    def first_fit(plans: Iterable[tuple[float, float, Mapping[int, int]]]) -> Attempt | None:
        for factor, info, modes in plans:
            if (tried := attempt(factor, info, modes)).fits:
                return tried
        return None

    whole: dict[int, int] = {}
    ends = {number: ENDS for number in range(1, len(view.melds) + 1)}
    found = None
    # Larger scales and wider name columns only need more room: when every card does not
    # fit at the legible size with the narrowest column, no larger plan does either.
    if attempt(1.0, NARROWER_INFO[-1], whole).fits:
        found = first_fit((f, INFO_WIDTH, whole) for f in factors(1.0)) or first_fit(
            (f, info, whole) for f in factors(1.0) for info in NARROWER_INFO
        )
    # Summaries at the legible size; then without the buys (the text has them), for the
    # widest seat lines. Whole names first ("Comp… 1" tells little): of the name columns
    # cutting the fewest names, the narrowest, which leaves the melds the most room, so that
    # the fewest cards are left out.
    for buys in (True, False):
        if found is not None:
            break
        columns = sorted(
            {column(1.0, info, buys) for info in (INFO_WIDTH, *NARROWER_INFO)},
            key=lambda info: (cut_names(view, Scale(1.0, info), language), info),
        )
        for info in columns:
            if found is not None:
                break
            tried = partial(attempt, 1.0, info, buys=buys, tight=True)
            if (modes := choose_summaries(by_owner, pieces, compact, tried)) is not None:
                found = tried(modes)
    if found is None:
        shrunk = (
            attempt(f, info, ends, tight=True)
            for f in factors(MIN_SCALE)
            if f < 1.0
            for info in NARROWER_INFO
        )
        found = next((tried for tried in shrunk if tried.fits), None) or attempt(
            MIN_SCALE, INFO_WIDTH, ends, tight=True
        )
    scale, flows, heights = found.scale, found.flows, dict(found.heights)
    # Equal rows when the tallest fits that way (a tidy grid), else each row its own height.
    tallest = max(heights.values(), default=0.0)
    if tallest * len(heights) <= available:
        heights = {seat: available / max(1, len(heights)) for seat in heights}
    else:
        spare = (available - sum(heights.values())) / max(1, len(heights))
        heights = {seat: height + max(0.0, spare) for seat, height in heights.items()}
    rows: list[Row] = []
    top = head
    for seat, lines in flows.items():
        height = heights[seat]
        rows.append(Row(seat, top, height, place_melds(lines, scale, top, height, compact)))
        top += height
    return TableLayout(scale, head, tuple(rows), compact, found.buys, tall)


def place_melds(
    lines: Sequence[Sequence[Shown]], scale: Scale, top: float, height: float, compact: bool
) -> tuple[PlacedMeld, ...]:
    """Where each meld's badge, tiles, bridges and count go, its lines centred in the row."""
    tile = scale.tile
    count = len([line for line in lines if line])
    block = count * tile.height + max(0, count - 1) * scale.of(LINE_GAP)
    y = top + (height - block) / 2
    placed: list[PlacedMeld] = []
    r, s = tile.rank_box, tile.suit_box
    for line in lines:
        if not line:
            continue
        x = scale.melds_left
        for number, meld, pieces in line:
            badge = None
            if compact:
                w = badge_width(number, scale)
                h = scale.text_size * 1.15
                badge = Box(x, y + (tile.height - h) / 2, x + w, y + (tile.height + h) / 2)
                x += w + scale.of(BADGE_GAP)
            tiles: list[PlacedTile] = []
            bridges: list[tuple[int, int, int]] = []
            end = x
            for position, piece in enumerate(pieces):
                tx, ty = round(x), round(y)
                if piece < 0:
                    bridges.append((tx, ty, -piece))
                    end = x + tile.bridge_width
                    x += tile.bridge_step
                    continue
                end = x + tile.width
                tiles.append(
                    PlacedTile(
                        tx,
                        ty,
                        Box(tx + r[0], ty + r[1], tx + r[2], ty + r[3]),
                        Box(tx + s[0], ty + s[1], tx + s[2], ty + s[3]),
                        position == len(pieces) - 1,
                        piece,
                    )
                )
                x += tile.step
            x = end
            x += meld_gap(scale, compact)
            placed.append(PlacedMeld(meld, number, tuple(tiles), badge, tuple(bridges)))
        y += tile.height + scale.of(LINE_GAP)
    return tuple(placed)
