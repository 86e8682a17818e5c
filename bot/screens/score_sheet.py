"""The score sheet as a PNG: a table of deal scores with totals, and a chart of running totals.

Each player keeps one colour and one marker shape in the table header, the chart and the
legend, so a line can be followed without telling colours apart.
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
    star_points,
    text_width,
)

WIDTH = 1040
MARGIN = 20
HEADER_HEIGHT = 54
ROW_HEIGHT = 30
DEAL_COLUMN = 78
CHART_HEIGHT = 330
LEGEND_ROW = 30

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
    legend_rows = math.ceil(players / 4)
    height = (
        HEADER_HEIGHT
        + 16
        + table_height
        + 24
        + CHART_HEIGHT
        + 16
        + legend_rows * LEGEND_ROW
        + MARGIN
    )
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)

    # Header.
    draw.rectangle((0, 0, WIDTH, HEADER_HEIGHT), fill=FELT_DARK)
    title = t("picture.score_sheet", language)
    bold_text(draw, (MARGIN, HEADER_HEIGHT / 2), title, 26, fill=INK_LIGHT, anchor="lm", weight=0.6)
    played = (
        t("picture.no_deals_short", language)
        if deals == 0
        else t("picture.after_deals", language, count=deals)
    )
    draw.text(
        (MARGIN + text_width(title, 26) + 18, HEADER_HEIGHT / 2),
        played,
        fill=GOLD,
        font=font(20),
        anchor="lm",
    )

    top = HEADER_HEIGHT + 16
    _draw_table(draw, labels, sheet, totals, top, language, starred)
    chart_top = top + table_height + 24
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
    _draw_legend(draw, labels, totals, chart_top + CHART_HEIGHT + 16, starred, marks)
    return encode_png(image)


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
    column = min(150.0, (WIDTH - 2 * MARGIN - DEAL_COLUMN) / players)
    left = MARGIN
    right = left + DEAL_COLUMN + column * players

    def centre(player: int) -> float:
        return left + DEAL_COLUMN + column * (player + 0.5)

    deal = t("picture.deal", language)
    draw.text((left + 8, top + ROW_HEIGHT / 2), deal, fill=FAINT, font=font(16), anchor="lm")
    for player, label in enumerate(labels):
        name = fit(label, 16, column - 30)
        width = text_width(name, 16) + 20
        x = centre(player) - width / 2
        _marker(draw, player, x + 6, top + ROW_HEIGHT / 2, 5)
        draw.text((x + 20, top + ROW_HEIGHT / 2), name, fill=INK, font=font(16), anchor="lm")
    draw.line((left, top + ROW_HEIGHT, right, top + ROW_HEIGHT), fill=INK, width=2)

    y = top + ROW_HEIGHT
    for number, row in enumerate(sheet, start=1):
        if number % 2 == 0:
            draw.rectangle((left, y, right, y + ROW_HEIGHT - 1), fill=STRIPE)
        draw.text(
            (left + 8, y + ROW_HEIGHT / 2), str(number), fill=FAINT, font=font(16), anchor="lm"
        )
        for player, score in enumerate(row):
            x, cy = centre(player), y + ROW_HEIGHT / 2
            if score == 0:
                draw.rounded_rectangle(
                    (x - 16, cy - 10, x + 16, cy + 10), radius=10, fill=(210, 236, 214)
                )
            draw.text((x, cy), str(score), fill=INK, font=font(16), anchor="mm")
        y += ROW_HEIGHT
    draw.rectangle((left, y, right, y + ROW_HEIGHT), fill=TOTAL_BAND)
    draw.line((left, y, right, y), fill=INK, width=2)
    bold_text(
        draw,
        (left + 8, y + ROW_HEIGHT / 2),
        t("picture.total", language),
        16,
        fill=INK,
        anchor="lm",
        weight=0.4,
    )
    for player, total in enumerate(totals):
        cx, cy = centre(player), y + ROW_HEIGHT / 2
        if player in starred:
            half = text_width(str(total), 17) / 2 + 8
            draw.rounded_rectangle(
                (cx - half - 22, cy - 12, cx + half, cy + 12), radius=12, fill=GOLD
            )
            _star(draw, cx - half - 9, cy, 8)
        bold_text(draw, (cx, cy), str(total), 17, fill=INK, anchor="mm", weight=0.4)
    for player in range(1, players):
        x = left + DEAL_COLUMN + column * player
        draw.line((x, top + 4, x, y + ROW_HEIGHT), fill=RULE, width=1)
    draw.line((left + DEAL_COLUMN, top + 4, left + DEAL_COLUMN, y + ROW_HEIGHT), fill=RULE)


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

    plot_left = MARGIN + 58
    plot_right = WIDTH - MARGIN - 16
    plot_top = top + 30
    plot_bottom = top + CHART_HEIGHT - 34
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
    # Equal totals are spread 5 px apart, so tied players' lines run side by side.
    offsets = [dodge([line[deal] for line in running], 5.0) for deal in range(deals + 1)]

    def point(player: int, deal: int) -> tuple[float, float]:
        return at(px(deal), py(running[player][deal]) + offsets[deal][player])

    for player in range(players if deals else 0):
        points = [point(player, deal) for deal in range(deals + 1)]
        pen.line(points, fill=player_colour(player), width=3 * ss, joint="curve")
    for player in range(players if deals else 0):
        for deal in range(1, deals + 1):
            _marker(pen, player, *point(player, deal), 4.5 * ss)
    image.paste(
        layer.resize((layer.width // ss, layer.height // ss), Image.Resampling.BOX), (ox, oy)
    )

    heading = t("picture.running_totals", language)
    draw.text((MARGIN, top + 8), heading, fill=INK, font=font(18), anchor="lm")
    for value in ticks:
        draw.text((plot_left - 10, py(value)), str(value), fill=FAINT, font=font(14), anchor="rm")
    for deal in range(deals + 1):
        x = px(deal)
        draw.line((x, plot_bottom + pad, x, plot_bottom + pad + 4), fill=INK, width=1)
        label = t("picture.start", language) if deal == 0 else str(deal)
        draw.text((x, plot_bottom + pad + 6), label, fill=FAINT, font=font(14), anchor="mt")
    if deals == 0:
        draw.text(
            ((plot_left + plot_right) / 2, (plot_top + plot_bottom) / 2),
            t("picture.no_deals", language),
            fill=FAINT,
            font=font(20),
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
    column = (WIDTH - 2 * MARGIN) / 4
    for player, label in enumerate(labels):
        x = MARGIN + column * (player % 4)
        y = top + LEGEND_ROW * (player // 4) + LEGEND_ROW / 2
        colour = player_colour(player)
        draw.line((x, y, x + 30, y), fill=colour, width=3)
        _marker(draw, player, x + 15, y, 5)
        total = f"{totals[player]}"
        mark = marks[player] if player < len(marks) else ""
        star = player in starred
        extra = (
            text_width(total, 16) + (20 if star else 0) + (text_width(mark, 14) + 6 if mark else 0)
        )
        name = fit(label, 16, column - 40 - 8 - extra - 18)
        draw.text((x + 40, y), name, fill=INK, font=font(16), anchor="lm")
        tx = x + 48 + text_width(name, 16)
        draw.text((tx, y), total, fill=FAINT, font=font(16), anchor="lm")
        tx += text_width(total, 16) + 4
        if star:
            _star(draw, tx + 8, y, 8)
            tx += 20
        if mark:
            draw.text((tx, y), mark, fill=INK, font=font(14), anchor="lm")
