"""``python -m tools.phone_heights``: how tall the table's public messages stand on a phone.

Example::

    python -m tools.phone_heights --seed 1 --shots /tmp/phone

The try session's table (``bot.process.try_it``: you and three computers, two deals) is
started in simcord and shown on simcord's page, the one ``python -m bot try`` serves, in
Chromium (``/usr/bin/chromium``, driven by Playwright) at 390x844, a phone's size. Measured
from the page: the table message at deal 1 (its pictures loaded), then, the game played to
its end (your seat's turns by the bot's own autoplay, as an away player's are), every public
message from the last deal's end on; and the game's offline HTML replay
(``bot.screens.replay_html``) at 390 px, whose page must not scroll sideways. With
``--shots`` each measured message and the replay are kept there as screenshots.

The heights are the page's: simcord draws Components V2 as Discord's client does, not pixel
for pixel; they compare one layout with another and hold a line (``tests/bot/
test_phone_heights.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: A phone's viewport: the width every figure is taken at.
WIDTH = 390
HEIGHT = 844
CHROMIUM = Path("/usr/bin/chromium")
#: The button the message that carries the game's end offers.
PLAY_AGAIN = "Play again"
#: Chromium as CI drives it: headless, no sandbox (containers), nothing fetched on its own.
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

#: The page's messages: each ``article.channel-message`` with its id, height and words;
#: a message is measured once its pictures have loaded (a picture not yet loaded is short).
_MESSAGES = """() => Array.from(document.querySelectorAll('article.channel-message')).map(a => ({
    id: a.dataset.messageId,
    height: Math.round(a.getBoundingClientRect().height),
    text: a.innerText,
    buttons: Array.from(a.querySelectorAll('button.component-button')).map(b => b.innerText.trim()),
    pending: Array.from(a.querySelectorAll('img')).some(i => !i.complete || !i.naturalHeight),
}))"""


@dataclass(frozen=True)
class Shown:
    """A message as the page shows it: its height, its words and its buttons' labels."""

    height: int
    text: str
    buttons: tuple[str, ...] = ()


@dataclass
class Heights:
    """The figures one run takes, in CSS px at 390 px wide."""

    deal_one: Shown = Shown(0, "")
    #: The public messages with components the game's last step posted or changed.
    end: list[Shown] = field(default_factory=list)
    replay_width: int = 0
    replay_height: int = 0


@asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    """A Chromium browser as CI runs it."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            await browser.close()


async def page_messages(
    env: Any,
    channel: Any,
    viewers: list[Any],
    browser: Any,
    wanted: set[int],
    shots: Path | None,
    name: str,
) -> dict[int, Shown]:
    """The heights of the messages ``wanted`` as simcord's page shows ``channel`` at 390x844;
    each kept in ``shots`` as ``{name}-{n}.png`` when given."""
    preview = env.preview(channel, viewers=viewers, layout="channel", width=WIDTH, height=HEIGHT)
    async with preview:
        page = await browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
        try:
            await page.goto(preview.url)
            found: dict[int, Shown] = {}
            for _ in range(240):  # a minute at most for the page and its pictures
                listed = await page.evaluate(_MESSAGES)
                ready = {int(m["id"]): m for m in listed if int(m["id"]) in wanted}
                if len(ready) == len(wanted) and not any(m["pending"] for m in ready.values()):
                    found = {
                        key: Shown(int(m["height"]), str(m["text"]), tuple(m["buttons"]))
                        for key, m in ready.items()
                    }
                    break
                await asyncio.sleep(0.25)
            else:
                raise RuntimeError(f"the page never showed messages {sorted(wanted)} loaded")
            if shots is not None:
                # A viewport as tall as the message, so the screenshot holds it whole.
                tallest = max(shown.height for shown in found.values())
                await page.set_viewport_size({"width": WIDTH, "height": tallest + 300})
                for n, key in enumerate(sorted(found), 1):
                    article = page.locator(f'article.channel-message[data-message-id="{key}"]')
                    await article.scroll_into_view_if_needed()
                    await article.screenshot(path=str(shots / f"{name}-{n}.png"))
            return found
        finally:
            await page.close()


async def replay_figures(html: str, browser: Any, shots: Path | None) -> tuple[int, int]:
    """The replay page's scroll width and height at 390 px wide, offline, at its last step."""
    page = await browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
    try:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "replay.html"
            path.write_text(html, encoding="utf-8")
            await page.goto(path.as_uri())
            await page.click("#last")
            width, height = await page.evaluate(
                "() => [document.documentElement.scrollWidth,"
                " document.documentElement.scrollHeight]"
            )
            if shots is not None:
                await page.screenshot(path=str(shots / "replay.png"), full_page=True)
            return int(width), int(height)
    finally:
        await page.close()


def looks(channel: Any) -> dict[int, str]:
    """Each public message of ``channel`` as it looks (its words, components and files)."""
    seen: dict[int, str] = {}
    for message in channel.history():
        parts = [c if isinstance(c, dict) else c.to_dict() for c in message.components or []]
        files = [a.url for a in getattr(message, "attachments", []) or []]
        look = repr((message.content, files))
        seen[message.id] = look + (f" components {parts!r}" if parts else "")
    return seen


async def measure(seed: int, shots: Path | None) -> Heights:
    """Play the try table at ``seed`` and take its figures from Chromium."""
    import simcord

    from bot import create_bot
    from bot.process.try_it import build_world, lay_the_table, try_settings
    from bot.screens.replay_html import replay_html
    from bot.service.results import record_of_table

    heights = Heights()
    with tempfile.TemporaryDirectory() as folder:
        bot = create_bot(try_settings(Path(folder), seed))
        env = simcord.Env(bot, settle_timeout=120)
        world = build_world(env, 1)
        await env.start()
        bot.publisher.ping_turns = False  # as on the try page: one person sees everything
        try:
            async with chromium() as browser:
                with env.time_context():
                    table = await lay_the_table(world)
                    you = world.viewers[0]
                    message = next(
                        m for m in world.channel.history() if m.id == table.record.message_id
                    )
                    await you.click(message, label="Start")
                    await env.advance_time(1)
                    table = bot.service.for_channel(world.channel.id)
                    assert table is not None and table.record.message_id is not None
                    dealt = table.record.message_id
                    table_id = table.record.id
                    names = {str(seat.user_id): seat.name for seat in table.record.seats}
                    shown = await page_messages(
                        env, world.channel, world.viewers, browser, {dealt}, shots, "deal-1"
                    )
                    heights.deal_one = shown[dealt]
                    before: dict[int, str] = {}
                    for _ in range(2000):  # your turns time out and the bot plays them
                        before = looks(world.channel)
                        await env.advance_time(30)
                        table = bot.service.for_channel(world.channel.id)
                        if table is None or table.game is None or table.game.is_over:
                            break
                    await env.advance_time(60)
                    # The game's end: the messages the last step posted or changed.
                    ended = {
                        key
                        for key, look in looks(world.channel).items()
                        if look != before.get(key) and "components" in look
                    }
                    shown = await page_messages(
                        env, world.channel, world.viewers, browser, ended, shots, "end"
                    )
                    heights.end = [shown[key] for key in sorted(shown)]
                    record = await record_of_table(bot.store, table_id)
                html = replay_html(record, {key: names.get(key, key) for key in record.seats})
                heights.replay_width, heights.replay_height = await replay_figures(
                    html, browser, shots
                )
        finally:
            await env.shutdown()
    return heights


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shots", type=Path, help="a folder to keep the screenshots in")
    args = parser.parse_args(argv)
    if args.shots is not None:
        args.shots.mkdir(parents=True, exist_ok=True)
    heights = asyncio.run(measure(args.seed, args.shots))
    print(f"table message at deal 1: {heights.deal_one.height} px (at {WIDTH}x{HEIGHT})")
    for shown in heights.end:
        buttons = "with" if any(PLAY_AGAIN in b for b in shown.buttons) else "without"
        print(f"message at the game's end: {shown.height} px, {buttons} {PLAY_AGAIN}")
    print(
        f"HTML replay at {WIDTH} px: scroll width {heights.replay_width} px, "
        f"height {heights.replay_height} px"
    )


if __name__ == "__main__":
    main()
