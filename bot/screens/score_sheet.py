"""The score sheet as a PNG: a table of deal scores with totals, and a chart of running totals.

Each player keeps one colour and one marker shape in the table header, the chart and the
legend, so a line can be followed without telling colours apart.

Discord shows the picture about 300 px wide on a phone, so it is narrow (``WIDTH``) and every
word and number is drawn at ``TEXT`` or larger: capitals and digits at least ``MIN_CAP`` (8)
px tall once the picture is scaled to ``PHONE_WIDTH``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Sequence
from itertools import accumulate

from PIL import Image, ImageDraw

from bot.i18n import DEFAULT_LANGUAGE, Language, t
from bot.screens._draw import (
    CARD_BG,
    FELT_DARK,
    GOLD,
    INK_LIGHT,
    RGB,
    bold_text,
    drawable,
    encode_png,
    fit,
    font,
    size_for_cap,
    star_points,
    text_width,
)
from bot.screens.short_names import distinct_names

WIDTH = 480
#: The width a phone shows the picture at, and the cap height every text keeps there.
PHONE_WIDTH = 300
MIN_CAP = 8
#: The font size of every number and name: ``MIN_CAP`` px capitals at ``PHONE_WIDTH``.
TEXT = size_for_cap(MIN_CAP * WIDTH / PHONE_WIDTH)
TITLE = TEXT + 6
MARGIN = 12
HEADER_HEIGHT = 44
ROW_HEIGHT = 28
CHART_HEIGHT = 250
LEGEND_ROW = 28
#: Players per legend line.
LEGEND_COLUMNS = 2

PAPER: RGB = CARD_BG
INK: RGB = (32, 36, 40)
FAINT: RGB = (120, 126, 132)
RULE: RGB = (214, 212, 204)
STRIPE: RGB = (241, 239, 230)
TOTAL_BAND: RGB = (226, 236, 229)

#: One colour per player (Tableau 10, which stays distinct for common colour blindness).
PLAYER_COLOURS: tuple[RGB, ...] = (
    (31, 119, 180),
    (255, 127, 14),
    (44, 160, 44),
    (214, 39, 40),
    (148, 103, 189),
    (140, 86, 75),
    (227, 119, 194),
    (23, 190, 207),
)
MARKERS: tuple[str, ...] = ("circle", "square", "triangle", "diamond")


def player_colour(player: int) -> RGB:
    return PLAYER_COLOURS[player % len(PLAYER_COLOURS)]


def _marker(draw: ImageDraw.ImageDraw, player: int, x: float, y: float, r: float) -> None:
    """The player's marker shape, centred on (x, y), with a paper-coloured rim."""
    colour = player_colour(player)
    shape = MARKERS[player % len(MARKERS)]
    rim = max(1.0, r * 0.3)
    for radius, fill in ((r + rim, PAPER), (r, colour)):
        if shape == "circle":
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill)
        elif shape == "square":
            q = radius * 0.9
            draw.rectangle((x - q, y - q, x + q, y + q), fill=fill)
        elif shape == "triangle":
            draw.polygon(
                [
                    (x, y - radius * 1.2),
                    (x + radius * 1.1, y + radius * 0.8),
                    (x - radius * 1.1, y + radius * 0.8),
                ],
                fill=fill,
            )
        else:
            q = radius * 1.25
            draw.polygon([(x, y - q), (x + q, y), (x, y + q), (x - q, y)], fill=fill)


def _nice_step(span: float, ticks: int = 5) -> int:
    """A round tick step (1, 2 or 5 times a power of ten) giving about ``ticks`` ticks."""
    raw = max(span / ticks, 1)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return int(factor * power)
    return int(10 * power)  # pragma: no cover - the loop always returns


def _labels(names: Sequence[str], language: Language) -> list[str]:
    return [
        drawable(name) or t("picture.player", language, number=i + 1)
        for i, name in enumerate(names)
    ]


def best_seats(totals: Sequence[int], *, low_wins: bool = True) -> tuple[int, ...]:
    """The seats with the best total (the lowest in Shanghai, the highest when not
    ``low_wins``): the winners of a finished game without a tie-break, the leaders of one in
    play."""
    if not totals:
        return ()
    best = min(totals) if low_wins else max(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)


def tied_seats(totals: Sequence[int]) -> frozenset[int]:
    """The seats whose total another seat shares."""
    counts = Counter(totals)
    return frozenset(seat for seat, total in enumerate(totals) if counts[total] > 1)


def dodge(values: Sequence[float], spacing: float) -> list[float]:
    """Offsets that spread equal ``values`` ``spacing`` apart around their value (in the
    order given), and leave a value nobody shares where it is.

    Two players with the same running total used to draw the same line and the same markers
    on the same pixels, so the line drawn first vanished under the second.
    """
    groups: dict[float, list[int]] = {}
    for index, value in enumerate(values):
        groups.setdefault(value, []).append(index)
    offsets = [0.0] * len(values)
    for members in groups.values():
        for position, index in enumerate(members):
            offsets[index] = (position - (len(members) - 1) / 2) * spacing
    return offsets


def _star(draw: ImageDraw.ImageDraw, x: float, y: float, radius: float) -> None:
    draw.polygon(star_points(x, y, radius), fill=GOLD, outline=INK)


def render_score_sheet(
    names: Sequence[str],
    sheet: Sequence[Sequence[int]],
    language: Language = DEFAULT_LANGUAGE,
    *,
    winners: Collection[int] | None = None,
    low_wins: bool = True,
) -> bytes:
    """PNG bytes in ``language``: deal scores (a row per deal, a column per player, a totals
    row) and a chart.

    Every player's line shows, tied or not. A gold star marks ``winners`` (seats: the game's
    own decision, tie-break included), labelled "winner"; without them, the best totals
    (``low_wins``) get the star unlabelled (the leaders so far). A total another player shares
    is labelled "tied" in the legend.

    Raises ``ValueError`` when a row of ``sheet`` does not have one score per name.
    """
    if not names:
        raise ValueError("A score sheet needs at least one player")
    for number, row in enumerate(sheet, start=1):
        if len(row) != len(names):
            raise ValueError(f"Deal {number} has {len(row)} scores for {len(names)} players")
    players = len(names)
    deals = len(sheet)
    labels = _labels(names, language)
    totals = [sum(row[p] for row in sheet) for p in range(players)]
    final = winners is not None
    starred = frozenset(winners) if winners is not None else frozenset()
    if winners is None and deals:
        starred = frozenset(best_seats(totals, low_wins=low_wins))
    tied = tied_seats(totals) if deals else frozenset()

    table_height = (deals + 2) * ROW_HEIGHT
    legend_rows = math.ceil(players / LEGEND_COLUMNS)
    height = (
        HEADER_HEIGHT
        + 12
        + table_height
        + 16
        + CHART_HEIGHT
        + 8
        + legend_rows * LEGEND_ROW
        + MARGIN
    )
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)

    # Header.
    draw.rectangle((0, 0, WIDTH, HEADER_HEIGHT), fill=FELT_DARK)
    title = t("picture.score_sheet", language)
    bold_text(
        draw, (MARGIN, HEADER_HEIGHT / 2), title, TITLE, fill=INK_LIGHT, anchor="lm", weight=0.6
    )
    played = (
        t("picture.no_deals_short", language)
        if deals == 0
        else t("picture.after_deals", language, count=deals)
    )
    x = MARGIN + text_width(title, TITLE) + 12
    draw.text(
        (x, HEADER_HEIGHT / 2),
        fit(played, TEXT, WIDTH - MARGIN - x),
        fill=GOLD,
        font=font(TEXT),
        anchor="lm",
    )

    top = HEADER_HEIGHT + 12
    _draw_table(draw, labels, sheet, totals, top, language, starred)
    chart_top = top + table_height + 16
    _draw_chart(image, players, sheet, chart_top, language)
    marks = [
        " ".join(
            word
            for word, on in (
                (t("picture.winner", language), final and player in starred),
                (t("picture.tied", language), player in tied),
            )
            if on
        )
        for player in range(players)
    ]
    _draw_legend(draw, labels, totals, chart_top + CHART_HEIGHT + 8, starred, marks)
    return encode_png(image)


def deal_column(language: Language) -> float:
    """The first column's width: its heading and the totals row's label, whole."""
    words = (t("picture.deal", language), t("picture.total", language), "10")
    return max(text_width(word, TEXT) for word in words) + 14


def _draw_table(
    draw: ImageDraw.ImageDraw,
    labels: Sequence[str],
    sheet: Sequence[Sequence[int]],
    totals: Sequence[int],
    top: int,
    language: Language,
    starred: Collection[int] = (),
) -> None:
    players = len(labels)
    first = deal_column(language)
    column = min(130.0, (WIDTH - 2 * MARGIN - first) / players)
    left = MARGIN
    right = left + first + column * players
    middle = ROW_HEIGHT / 2

    def centre(player: int) -> float:
        return left + first + column * (player + 0.5)

    deal = t("picture.deal", language)
    draw.text((left + 6, top + middle), deal, fill=FAINT, font=font(TEXT), anchor="lm")
    # A column too narrow for a readable name keeps the marker only (the legend below
    # names everyone); the names are cut alike and kept apart ("Computer 1", "Computer 2").
    room = column - 26
    heads = distinct_names(labels, lambda text: text_width(text, TEXT) <= room)
    for player, label in enumerate(heads):
        name = label if room >= text_width("Ab…", TEXT) else ""
        width = text_width(name, TEXT) + 16 if name else 0
        x = centre(player) - width / 2
        _marker(draw, player, x + (5 if name else 0), top + middle, 5)
        if name:
            draw.text((x + 16, top + middle), name, fill=INK, font=font(TEXT), anchor="lm")
    draw.line((left, top + ROW_HEIGHT, right, top + ROW_HEIGHT), fill=INK, width=2)

    y = top + ROW_HEIGHT
    pill = TEXT * 0.62
    for number, row in enumerate(sheet, start=1):
        if number % 2 == 0:
            draw.rectangle((left, y, right, y + ROW_HEIGHT - 1), fill=STRIPE)
        draw.text((left + 6, y + middle), str(number), fill=FAINT, font=font(TEXT), anchor="lm")
        for player, score in enumerate(row):
            x, cy = centre(player), y + middle
            if score == 0:  # who went out
                draw.rounded_rectangle(
                    (x - pill * 1.4, cy - pill, x + pill * 1.4, cy + pill),
                    radius=pill,
                    fill=(210, 236, 214),
                )
            draw.text((x, cy), str(score), fill=INK, font=font(TEXT), anchor="mm")
        y += ROW_HEIGHT
    draw.rectangle((left, y, right, y + ROW_HEIGHT), fill=TOTAL_BAND)
    draw.line((left, y, right, y), fill=INK, width=2)
    bold_text(
        draw,
        (left + 6, y + middle),
        t("picture.total", language),
        TEXT,
        fill=INK,
        anchor="lm",
        weight=0.4,
    )
    for player, total in enumerate(totals):
        cx, cy = centre(player), y + middle
        if player in starred:
            half = text_width(str(total), TEXT) / 2 + 4
            star = min(7.0, (column / 2 - half - 4) / 2)
            draw.rounded_rectangle(
                (cx - half - 2 * star - 4, cy - 12, cx + half, cy + 12), radius=12, fill=GOLD
            )
            if star >= 4:
                _star(draw, cx - half - star - 1, cy, star)
        bold_text(draw, (cx, cy), str(total), TEXT, fill=INK, anchor="mm", weight=0.4)
    for player in range(1, players):
        x = left + first + column * player
        draw.line((x, top + 4, x, y + ROW_HEIGHT), fill=RULE, width=1)
    draw.line((left + first, top + 4, left + first, y + ROW_HEIGHT), fill=RULE)


def _draw_chart(
    image: Image.Image,
    players: int,
    sheet: Sequence[Sequence[int]],
    top: int,
    language: Language,
) -> None:
    """Running totals per player: x is deals played (0 = the start), y is points.

    Grid, lines and markers are drawn at twice the size and scaled down (smooth lines); the
    labels are drawn afterwards at full size so they stay crisp.
    """
    draw = ImageDraw.Draw(image)
    deals = len(sheet)
    running = [[0, *accumulate(row[p] for row in sheet)] for p in range(players)]
    low = min(0, *(min(line) for line in running))
    high = max(1, *(max(line) for line in running))
    step = _nice_step(high - low)
    y_min = math.floor(low / step) * step
    y_max = math.ceil(high / step) * step

    plot_left = MARGIN + round(text_width(str(y_min), TEXT) + text_width("000", TEXT) / 3) + 10
    plot_left = max(plot_left, MARGIN + round(text_width(str(y_max), TEXT)) + 12)
    plot_right = WIDTH - MARGIN - 16
    plot_top = top + 34
    plot_bottom = top + CHART_HEIGHT - 36
    # The supersampled layer covers the plot with a margin for markers at the edges.
    pad = 10
    ox, oy = plot_left - pad, plot_top - pad
    ss = 2
    layer = Image.new(
        "RGB",
        ((plot_right - plot_left + 2 * pad) * ss, (plot_bottom - plot_top + 2 * pad) * ss),
        PAPER,
    )
    pen = ImageDraw.Draw(layer)

    def py(value: float) -> float:
        return plot_bottom - (value - y_min) / (y_max - y_min) * (plot_bottom - plot_top)

    def px(deal: int) -> float:
        return plot_left + deal / max(deals, 1) * (plot_right - plot_left)

    def at(x: float, y: float) -> tuple[float, float]:
        return ((x - ox) * ss, (y - oy) * ss)

    ticks = range(y_min, y_max + 1, step)
    for value in ticks:
        pen.line((*at(plot_left, py(value)), *at(plot_right, py(value))), fill=RULE, width=ss)
    pen.line((*at(plot_left, plot_top - 6), *at(plot_left, plot_bottom)), fill=INK, width=2 * ss)
    pen.line((*at(plot_left, py(0)), *at(plot_right, py(0))), fill=INK, width=2 * ss)
    # Equal totals are spread 4 px apart, so tied players' lines run side by side.
    offsets = [dodge([line[deal] for line in running], 4.0) for deal in range(deals + 1)]

    def point(player: int, deal: int) -> tuple[float, float]:
        return at(px(deal), py(running[player][deal]) + offsets[deal][player])

    for player in range(players if deals else 0):
        points = [point(player, deal) for deal in range(deals + 1)]
        pen.line(points, fill=player_colour(player), width=3 * ss, joint="curve")
    for player in range(players if deals else 0):
        for deal in range(1, deals + 1):
            _marker(pen, player, *point(player, deal), 4 * ss)
    image.paste(
        layer.resize((layer.width // ss, layer.height // ss), Image.Resampling.BOX), (ox, oy)
    )

    heading = t("picture.running_totals", language)
    draw.text((MARGIN, top + 12), heading, fill=INK, font=font(TEXT), anchor="lm")
    # Deal numbers under the axis: every one while they fit side by side, else every other.
    every = 1 if (plot_right - plot_left) / max(deals, 1) >= text_width("10", TEXT) + 6 else 2
    for value in ticks:
        draw.text((plot_left - 8, py(value)), str(value), fill=FAINT, font=font(TEXT), anchor="rm")
    for deal in range(deals + 1):
        x = px(deal)
        draw.line((x, plot_bottom + pad, x, plot_bottom + pad + 4), fill=INK, width=1)
        if deal % every and deal != deals:
            continue
        label = "0" if deal == 0 else str(deal)
        draw.text((x, plot_bottom + pad + 6), label, fill=FAINT, font=font(TEXT), anchor="mt")
    if deals == 0:
        draw.text(
            ((plot_left + plot_right) / 2, (plot_top + plot_bottom) / 2),
            fit(t("picture.no_deals", language), TEXT, plot_right - plot_left),
            fill=FAINT,
            font=font(TEXT),
            anchor="mm",
        )


def _draw_legend(
    draw: ImageDraw.ImageDraw,
    labels: Sequence[str],
    totals: Sequence[int],
    top: int,
    starred: Collection[int] = (),
    marks: Sequence[str] = (),
) -> None:
    """A line, marker, name and total per player; a star for the winners (or leaders) and
    "winner" / "tied" after the total."""
    column = (WIDTH - 2 * MARGIN) / LEGEND_COLUMNS
    # Every name cut alike, to the room the widest total and marks leave, and kept apart.
    widest = max((text_width(f"{total}", TEXT) for total in totals), default=0) + 14
    widest += (18 if starred else 0) + max((text_width(m, TEXT) + 4 for m in marks), default=0)
    cuts = distinct_names(labels, lambda text: text_width(text, TEXT) <= column - 30 - widest)
    for player, name in enumerate(cuts):
        x = MARGIN + column * (player % LEGEND_COLUMNS)
        y = top + LEGEND_ROW * (player // LEGEND_COLUMNS) + LEGEND_ROW / 2
        draw.line((x, y, x + 24, y), fill=player_colour(player), width=3)
        _marker(draw, player, x + 12, y, 5)
        total = f"{totals[player]}"
        mark = marks[player] if player < len(marks) else ""
        star = player in starred
        draw.text((x + 30, y), name, fill=INK, font=font(TEXT), anchor="lm")
        tx = x + 36 + text_width(name, TEXT)
        draw.text((tx, y), total, fill=FAINT, font=font(TEXT), anchor="lm")
        tx += text_width(total, TEXT) + 3
        if star:
            _star(draw, tx + 8, y, 7)
            tx += 18
        if mark:
            draw.text((tx, y), mark, fill=INK, font=font(TEXT), anchor="lm")
