"""A player's stats card as a PNG: headline numbers and the trend of their last games' totals.

The score sheet's paper, ink and header band (``score_sheet.py``), so the bot's pictures look
like one family. Ranked games are filled dots, casual ones hollow (the legend says so, and the
text beside the picture says it again for screen readers); a won game's dot is gold.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from bot.i18n import DEFAULT_LANGUAGE, Language, decimal, t
from bot.screens._draw import FELT_DARK, GOLD, INK_LIGHT, bold_text, drawable, encode_png, fit, font
from bot.screens.score_sheet import FAINT, INK, PAPER, RULE, STRIPE, player_colour
from data.records import PlayerCard

WIDTH = 880
MARGIN = 20
HEADER_HEIGHT = 54
TILE_HEIGHT = 64
TILE_COLUMNS = 4
CHART_HEIGHT = 300
LINE = player_colour(0)


def _step(span: float) -> int:
    """A round tick step for ``span`` points: 1, 2, 5, 10, 20, 50... about five ticks."""
    raw = max(span / 5, 1)
    power = 10 ** math.floor(math.log10(raw))
    return int(next(m * power for m in (1, 2, 5, 10) if m * power >= raw))


def stat_tiles(card: PlayerCard, language: Language) -> list[tuple[str, str]]:
    """The headline numbers as (label, value), in the order drawn (and written)."""
    stats = card.stats
    best = "—" if card.best_ranked_total is None else str(card.best_ranked_total)
    rating = "—" if card.rating is None else decimal(card.rating, language)
    return [
        (t("picture.stats.games", language), f"{stats.games}"),
        (t("picture.stats.ranked", language), f"{card.ranked_games}"),
        (t("picture.stats.wins", language), f"{stats.wins}"),
        (t("picture.stats.rating", language, season=card.season), rating),
        (t("picture.stats.best", language), best),
        (t("picture.stats.streak", language), f"{card.longest_win_streak}"),
        (t("picture.stats.zero_deals", language), f"{stats.deals_out}"),
        (t("picture.stats.blind_buys", language), f"{stats.blind_outs} · {stats.buys_used}")
        if stats.game_kind == "shanghai"
        # Rummy has neither blind outs nor buys: its average points instead.
        else (t("picture.stats.average", language), decimal(stats.average_total, language)),
    ]


def render_stats(
    card: PlayerCard, name: str, game_name: str, language: Language = DEFAULT_LANGUAGE
) -> bytes:
    """PNG bytes of ``card`` in ``language``: a header, eight number tiles, the trend chart."""
    tiles = stat_tiles(card, language)
    rows = math.ceil(len(tiles) / TILE_COLUMNS)
    tiles_top = HEADER_HEIGHT + 14
    chart_top = tiles_top + rows * (TILE_HEIGHT + 10) + 6
    height = chart_top + CHART_HEIGHT + MARGIN
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)

    draw.rectangle((0, 0, WIDTH, HEADER_HEIGHT), fill=FELT_DARK)
    title = fit(drawable(name) or t("picture.player", language, number=1), 26, WIDTH / 2)
    bold_text(draw, (MARGIN, HEADER_HEIGHT / 2), title, 26, fill=INK_LIGHT, anchor="lm", weight=0.6)
    draw.text(
        (WIDTH - MARGIN, HEADER_HEIGHT / 2),
        t("picture.stats.title", language, game=game_name),
        fill=GOLD,
        font=font(20),
        anchor="rm",
    )

    width = (WIDTH - 2 * MARGIN - (TILE_COLUMNS - 1) * 10) / TILE_COLUMNS
    for index, (label, value) in enumerate(tiles):
        x = MARGIN + (index % TILE_COLUMNS) * (width + 10)
        y = tiles_top + (index // TILE_COLUMNS) * (TILE_HEIGHT + 10)
        draw.rounded_rectangle((x, y, x + width, y + TILE_HEIGHT), radius=8, fill=STRIPE)
        label = fit(label, 14, width - 20)
        draw.text((x + 12, y + 16), label, fill=FAINT, font=font(14), anchor="lm")
        bold_text(draw, (x + 12, y + 42), value, 24, fill=INK, anchor="lm", weight=0.5)

    _chart(image, card, chart_top, language)
    return encode_png(image)


def _chart(image: Image.Image, card: PlayerCard, top: int, language: Language) -> None:
    draw = ImageDraw.Draw(image)
    games = card.recent
    heading = t("picture.stats.trend", language, count=len(games))
    draw.text((MARGIN, top + 10), heading, fill=INK, font=font(18), anchor="lm")
    legend = t("picture.stats.legend", language)
    draw.text((WIDTH - MARGIN, top + 10), legend, fill=FAINT, font=font(14), anchor="rm")
    left, right = MARGIN + 58, WIDTH - MARGIN - 16
    plot_top, bottom = top + 36, top + CHART_HEIGHT - 30
    totals = [g.total for g in games]
    low, high = min([0, *totals]), max([1, *totals])
    step = _step(high - low)
    y_min, y_max = math.floor(low / step) * step, math.ceil(high / step) * step

    def py(value: float) -> float:
        return bottom - (value - y_min) / (y_max - y_min) * (bottom - plot_top)

    def px(index: int) -> float:
        return left + (index + 0.5) / max(len(games), 1) * (right - left)

    for value in range(y_min, y_max + 1, step):
        draw.line((left, py(value), right, py(value)), fill=RULE, width=1)
        draw.text((left - 10, py(value)), str(value), fill=FAINT, font=font(14), anchor="rm")
    draw.line((left, plot_top - 6, left, bottom), fill=INK, width=2)
    if not games:
        return
    points = [(px(i), py(g.total)) for i, g in enumerate(games)]
    if len(points) > 1:
        draw.line(points, fill=LINE, width=3, joint="curve")
    for i, ((x, y), game) in enumerate(zip(points, games, strict=True)):
        fill = GOLD if game.is_winner else LINE
        box = (x - 6, y - 6, x + 6, y + 6)
        if game.ranked:
            draw.ellipse(box, fill=fill, outline=INK, width=1)
        else:
            draw.ellipse(box, fill=PAPER, outline=fill, width=3)
        if len(games) <= 20 or i % 2 == 0:
            draw.text((x, bottom + 8), str(i + 1), fill=FAINT, font=font(12), anchor="mt")
