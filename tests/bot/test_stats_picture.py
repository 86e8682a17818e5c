"""The stats card picture (issue 26): deterministic bytes, in each language, for any history."""

from __future__ import annotations

import io

from PIL import Image

from bot.screens.stats_picture import WIDTH, render_stats, stat_tiles
from data.records import HistoryEntry, PlayerCard, PlayerStats


def card(recent: int) -> PlayerCard:
    games = tuple(
        HistoryEntry(i, float(i), 100 + 37 * i % 300, i % 3 == 0, i % 4 != 0, 1, 2, 0, 3)
        for i in range(recent)
    )
    stats = PlayerStats(7, "Ann", "shanghai", max(recent, 1), 2, 210.0, 100, 9, 1, 30)
    return PlayerCard(stats, recent - recent // 4, games, 100, 2, 1, 3.25, 4)


def test_the_card_is_the_same_png_every_time_and_differs_by_language() -> None:
    english = render_stats(card(20), "Ann", "Shanghai", "en")
    assert english == render_stats(card(20), "Ann", "Shanghai", "en")
    assert english != render_stats(card(20), "Ann", "Shanghai", "nl")
    picture = Image.open(io.BytesIO(english))
    assert picture.format == "PNG" and picture.width == WIDTH


def test_any_history_draws_even_none_or_a_negative_total() -> None:
    for recent in (0, 1, 2, 20):
        assert render_stats(card(recent), "José", "Rummy", "es").startswith(b"\x89PNG")
    blind = PlayerCard(
        PlayerStats(7, "Ann", "shanghai", 1, 1, -50.0, -50, 1, 1, 0),
        1,
        (HistoryEntry(1, 1.0, -50, True, True, 1, 1, 1, 0),),
        -50,
        1,
        1,
        None,
        1,
    )
    assert render_stats(blind, "Ann", "Shanghai").startswith(b"\x89PNG")


def test_the_tiles_say_what_the_card_holds() -> None:
    tiles = dict(stat_tiles(card(20), "en"))
    assert tiles["Games"] == "20" and tiles["Ranked games"] == "15"
    assert tiles["Best ranked game"] == "100" and tiles["Rating, season 1"] == "3.2"
    assert tiles["Blind outs · buys"] == "1 · 30"


def test_a_rummy_card_shows_its_average_instead_of_blind_outs_and_buys() -> None:
    rummy = card(4)
    rummy = PlayerCard(
        PlayerStats(7, "Ann", "rummy", 4, 2, 95.5, 160, 3, 0, 0),
        4,
        rummy.recent,
        160,
        2,
        1,
        None,
        4,
    )
    tiles = dict(stat_tiles(rummy, "en"))
    assert tiles["Average points"] == "95.5" and "Blind outs · buys" not in tiles
