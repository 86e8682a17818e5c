"""The replay page: one self-contained HTML file that steps through a game record.

It names no card before the table saw it (each step's data is the spectator's view and the
hands laid open where a deal ended), it carries the record itself, it asks for nothing from
the network, and in a real browser (Debian's chromium, offline) its last step shows the
totals the engine's replay ends with.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest

from bot.process.cli import main
from bot.screens.replay_html import replay_data, replay_html
from engine import Game, Rules
from engine.actions import Action
from engine.players.random_play import random_step
from engine.record import GameRecord, read_record, record_game, write_record
from engine.replay import replay
from engine.view import PlayerView

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
#: A card named in the page's data (not a wild's identity, as in ``JK=4H``).
CARD = re.compile(r"(?<!=)\b(?:JK|(?:10|[2-9AJQK])[CDHS])\b")


def finished(seats: int = 4, deals: int = 10, seed: int = 5) -> GameRecord:
    rules = Rules.preset("standard").with_options(num_deals=deals)
    players = ["ann", "bob", "<cy>", "dee"][:seats]
    game = Game.new(players, rules, seed, secret=random.Random(seed).randbytes(32))
    rng = random.Random(seed)
    actions: list[tuple[int, Action]] = []
    while not game.is_over:
        player, action = random_step(game, rng)
        game.apply(player, action)
        actions.append((game.seat_of(player), action))
    return record_game(game, actions)


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return finished(deals=5)


def _public_cards(view: PlayerView) -> set[str]:
    seen = {str(p.card) for m in view.melds for p in m.meld.cards}
    for move in view.history:
        seen |= {str(c) for c in (move.card, move.wild) if c is not None}
        seen |= {str(p.card) for m in move.melds for p in m.cards}
    if view.upcard is not None:
        seen.add(str(view.upcard))
    return seen


def test_each_step_names_only_cards_the_table_had_seen(record: GameRecord) -> None:
    data = replay_data(record)
    layouts = data["layouts"]
    rows = data["steps"]
    steps = list(replay(record))
    assert len(rows) == len(steps)
    for row, step in zip(rows, steps, strict=True):
        view = step.view(None)
        allowed = _public_cards(view) | {str(c) for h in step.revealed for c in h}
        allowed |= set(CARD.findall(str(step.action)))  # what was played, the table saw
        shown = json.dumps({**row, "m": layouts[row["m"]]})
        assert set(CARD.findall(shown)) <= allowed, step.index
        assert row["h"] == [[s.hand_size, int(s.is_down), s.buys_used, s.total] for s in view.seats]
    assert any("r" in row for row in rows)


def test_the_file_is_self_contained_and_carries_the_record(record: GameRecord) -> None:
    page = replay_html(record)
    for outside in ("http:", "https:", "//", "src=", "<link", "@import", "url("):
        assert outside not in page.replace("://", ""), outside
    found = re.search(r'<script type="application/json" id="record">(.*?)</script>', page, re.S)
    assert found is not None
    assert read_record(found[1]) == record
    assert "<cy>" not in page  # a player's id cannot close an element
    assert len(page.encode()) < 1_500_000
    for seed in record.deal_seeds:
        assert seed in page


def test_the_command_line_writes_the_page(
    record: GameRecord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "game.json"
    source.write_text(write_record(record), encoding="utf-8")
    out = tmp_path / "game.html"
    assert main(["replay", str(source), "--html", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == replay_html(record)
    assert str(out) in capsys.readouterr().out
    assert main(["replay", str(source), "--html", str(tmp_path / "no" / "such.html")]) == 2
    assert "cannot write" in capsys.readouterr().err


def _need(available: bool, what: str) -> None:
    if not available:
        if os.environ.get("SHANGHAI_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{what} is missing (SHANGHAI_REQUIRE_BROWSER=1)")
        pytest.skip(f"{what} is missing")


@pytest.mark.slow
def test_a_browser_offline_steps_to_the_final_scores(record: GameRecord, tmp_path: Path) -> None:
    _need(CHROMIUM.exists(), "/usr/bin/chromium (apt-get install chromium)")
    try:
        from playwright.sync_api import Route, sync_playwright
    except ImportError:
        _need(False, "playwright (pip install -e '.[dev]')")
    path = tmp_path / "game.html"
    path.write_text(replay_html(record), encoding="utf-8")
    final = list(replay(record))[-1].view(None)
    asked: list[str] = []

    def refuse(route: Route) -> None:
        asked.append(route.request.url)
        route.abort()

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            context = browser.new_context()
            context.set_offline(True)
            context.route(re.compile(r"^(?!file:).*"), refuse)
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(path.as_uri())
            where = page.locator("#where")
            assert "Step 0 of" in where.inner_text()
            page.click("#next")
            assert "Step 1 of" in where.inner_text()
            page.click("#nextDeal")
            assert where.inner_text().startswith("Deal 2:")
            page.select_option("#jump", label="Deal 5")
            assert where.inner_text().startswith("Deal 5:")
            assert page.locator("#final").is_hidden()
            page.click("#last")
            page.click("#prev")
            page.click("#next")
            assert page.locator("#next").is_disabled()
            assert page.locator("#final").is_visible()
            totals = page.locator("#totals td[data-seat]").all_inner_texts()
            assert [int(text) for text in totals] == [seat.total for seat in final.seats]
            assert record.result is not None
            assert tuple(int(t) for t in totals) == record.result.totals
            assert page.locator(".ok").count() == len(record.deal_seeds)
            assert errors == [] and asked == []
        finally:
            browser.close()


def test_each_step_names_the_player_as_the_table_did() -> None:
    """The page's lines name each player by the name the table showed, never by an id; a
    record read alone names a computer as the bot does and a person by their seat, counted
    from 1."""
    record = finished(deals=2)
    names = {"ann": "Ann", "bob": "Bob", "<cy>": "Cy", "dee": "Dee"}
    data = replay_data(record, names)
    lines = [row["t"] for row in data["steps"][1:]]
    assert all(line.split(": ")[0] in names.values() for line in lines), lines[:3]
    assert not any("(seat" in line for line in lines)
    alone = replay_data(record.model_copy(update={"seats": ("-3", "17", "-1", "18")}))
    assert alone["names"] == ["Computer 3", "Player 2", "Computer 1", "Player 4"]
    page = replay_html(record, names)
    assert '(i + 1) + ". " + names[i]' in page  # the seats table counts from 1
