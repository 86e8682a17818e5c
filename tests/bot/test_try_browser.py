"""``python -m bot try`` in a real browser: Debian's chromium driven by Playwright.

The newcomer's first minute, as they would live it: the page opens on the #shanghai channel
with a table one click from Start; they start it, open their hand, draw, discard, and see a
computer move without touching anything. Screenshots of each step land in the test's folder
(and in ``SHANGHAI_SCREENSHOTS`` when set; CI keeps them).

Slow (a whole browser and a bot process, about half a minute): ``.ci/run`` runs it alone, after
the other slow tests (busy workers beside it slow the page's clicks down to refusals), with
``SHANGHAI_REQUIRE_BROWSER=1`` so a missing browser fails rather than skips.
Playwright's own browser download is not used: the system's ``/usr/bin/chromium`` is.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: Whose turn the table message says it is.
TURN = re.compile(r"Turn: (.+?) \((?:drawing|playing)\)")


def _need(available: bool, what: str) -> None:
    if not available:
        if os.environ.get("SHANGHAI_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{what} is missing (SHANGHAI_REQUIRE_BROWSER=1)")
        pytest.skip(f"{what} is missing")


@pytest.fixture
def try_session(tmp_path: Path) -> Iterator[str]:
    """``python -m bot try --no-browser --seed 1`` as a process; yields the page's address."""
    _need(CHROMIUM.exists(), "/usr/bin/chromium (apt-get install chromium)")
    try:
        import playwright.sync_api  # noqa: F401
        import simcord.preview  # noqa: F401
    except ImportError:
        _need(False, "the try extra and playwright (pip install -e '.[try,dev]')")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SHANGHAI_", "DISCORD_"))}
    env["PYTHONPATH"] = str(ROOT)
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "try", "--no-browser", "--seed", "1"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert process.stdout is not None
        seen: list[str] = []
        found = None
        while found is None and len(seen) < 40:
            line = process.stdout.readline()
            if not line:
                break
            seen.append(line)
            found = re.search(r"http://127\.0\.0\.1:\d+/#\S+", line)
        assert found, f"no address in {seen!r}"
        assert len(seen) == 1, f"the newcomer reads noise before the address: {seen!r}"
        yield found[0]
    finally:
        process.terminate()
        out, _ = process.communicate(timeout=30)
        assert process.returncode == 0, out
        assert "Traceback" not in out, out
        assert "temporary database is deleted" in out


def until(check: Callable[[], bool], seconds: float, what: str) -> None:
    """Wait for ``check()``, looking as a person looks at a page: every quarter second."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.25)
    raise AssertionError(f"timed out waiting for {what}")


def press(page: Any, name: str, then: Callable[[], bool], what: str, seconds: float = 40) -> None:
    """Click the latest button ``name`` until ``then()`` holds, as a person clicks again when
    the page answers "Action was not completed" (a click on a page one revision old)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        button = page.get_by_role("button", name=name, exact=True)
        if button.count():
            button.last.click()
            try:
                until(then, 6, what)
                return
            except AssertionError:
                continue
        time.sleep(0.5)
    raise AssertionError(f"clicking {name!r} never led to {what}; the page says {status(page)!r}")


def choose(page: Any, menu: str, option: str, then: Callable[[], bool]) -> str:
    """Open the latest select ``menu`` and pick an option matching ``option`` until ``then()``
    holds; the option's text. A pick the page answers "Action was not completed" (it was one
    revision old) leaves that option shown as chosen, and choosing it again changes nothing:
    so each attempt picks the next option, as a person would pick another card."""
    deadline = time.monotonic() + 40
    attempt = 0
    while time.monotonic() < deadline:
        box = page.get_by_role("combobox", name=menu)
        if not box.count():
            box = page.get_by_text(menu)
        if box.count():
            box.last.click()
            choices = page.get_by_role("option", name=re.compile(option))
            try:
                choices.first.wait_for(timeout=3000)
                choice = choices.nth(attempt % choices.count())
                attempt += 1
                picked = str(choice.inner_text()).strip()
                choice.click()
                until(then, 6, f"{picked} to take effect")
                return picked
            except (AssertionError, Exception):  # a re-render or a stale page: again
                page.keyboard.press("Escape")
        time.sleep(0.5)
    raise AssertionError(
        f"choosing from {menu!r} never took effect; the page says {status(page)!r}; "
        f"its end reads {text(page)[-800:]!r}"
    )


def status(page: Any) -> str:
    """The page's own line on the last action ("Callback completed", "Action was not
    completed", ...), which the failure messages quote."""
    return str(page.evaluate("() => document.getElementById('action-status')?.innerText ?? ''"))


def turn(page: Any) -> str:
    """The seat the table message says is to play ("" if none shows)."""
    found = TURN.search(text(page))
    return found[1] if found else ""


def text(page: Any) -> str:
    return str(page.evaluate("() => document.body.innerText"))


def test_a_newcomer_starts_plays_a_turn_and_sees_a_computer_move(
    try_session: str, tmp_path: Path
) -> None:
    from playwright.sync_api import sync_playwright

    shots = [tmp_path]
    if os.environ.get("SHANGHAI_SCREENSHOTS"):
        shots.append(Path(os.environ["SHANGHAI_SCREENSHOTS"]))
        shots[-1].mkdir(parents=True, exist_ok=True)

    def snap(page: Any, name: str) -> None:
        page.screenshot(path=str(tmp_path / f"{name}.png"))
        for folder in shots[1:]:
            shutil.copy(tmp_path / f"{name}.png", folder / f"{name}.png")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        try:
            page.goto(try_session)
            # The lobby: one click from Start, three computers seated.
            page.get_by_role("button", name="Start", exact=True).wait_for(timeout=30_000)
            lobby = text(page)
            assert "#shanghai" in lobby or "shanghai" in lobby
            for seat in ("Computer 1 (normal)", "Computer 2 (easy)", "Computer 3 (normal)"):
                assert seat in lobby
            assert "2 deals" in lobby and "Buy window 3 s" in lobby
            snap(page, "1-lobby")
            press(page, "Start", lambda: "Deal 1 of 2" in text(page), "the game's table message")
            snap(page, "2-dealt")
            # A newcomer reads the table first: their turn begins before they open their hand.
            # (On Discord that mentions them and posts the table again; on the try page it
            # must not, or simcord's page can no longer keep the hand's menus open.)
            until(lambda: turn(page) == "you", 60, "the newcomer's turn on the table")
            press(page, "My hand", lambda: "Your turn." in text(page), "the private hand")
            snap(page, "3-hand")
            press(page, "Draw from stock", lambda: "You got" in text(page), "the drawn card")
            # The hand's "You discarded" note lasts until the next redraw: the turn moving on
            # to a computer shows the discard as well.
            discarded = choose(page, "Discard…", r"^Discard ", lambda: turn(page) != "you")
            assert discarded.startswith("Discard ")
            snap(page, "4-discarded")
            computer = ""

            def a_computer_moved() -> bool:
                """Nobody clicks: a computer's turn passes on the page by itself."""
                nonlocal computer
                now = turn(page)
                if now == "you":  # every computer has played already
                    return True
                if not computer:
                    computer = now if now.startswith("Computer") else ""
                    return False
                return now != computer

            until(a_computer_moved, 45, "a computer to play on the page by itself")
            snap(page, "5-computer-moved")
        except BaseException:
            snap(page, "failed")  # what the page showed when the test gave up
            raise
        finally:
            browser.close()
