"""``python -m tools.phone_heights``: how tall the table's public messages stand on a phone.

Example::

    python -m tools.phone_heights --seed 1

The try session's table (``bot.process.try_it``: you and three computers, two deals) is
started in simcord; the table message at deal 1 is measured, then the game is played to its
end (your seat's turns by the bot's own autoplay, as an away player's are) and every public
message from the last deal's end on is measured.

Without a browser the height is worked out from the layout the way Discord's phone client
stacks it, at 390 px wide: the message column is ``COLUMN`` px (the avatar's gutter and the
margins taken off), a container's words ``COLUMN - 2 * PAD`` px, a text line ``LINE`` px for
about ``CHARS`` characters, a ``###`` heading ``HEADING`` px, a separator ``SEPARATOR`` px, a
picture scaled to the container's width, a row of buttons ``BUTTONS`` px (wrapping when the
labels do not fit), a code block's lines not wrapped. The figures are estimates, within a few
lines of a screenshot; they compare one layout with another.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import math
import tempfile
from pathlib import Path
from typing import Any

#: The message column at 390 px: 390 minus the avatar's gutter (72) and the right margin (16).
COLUMN = 302
#: A container's padding on each side (its coloured edge included).
PAD = 16
#: A line of body text, and the characters one holds at the container's width.
LINE = 22
CHARS = 34
#: A code block's line (monospace, 14 px) and its characters before a phone scrolls it.
CODE_LINE = 18
CODE_CHARS = 32
HEADING = 28
SEPARATOR = 17
GAP = 8
BUTTONS = 40
#: Characters of button labels one row holds before the next button wraps.
ROW_CHARS = 30
#: The author's line above a message.
AUTHOR = 24


def _lines(text: str, chars: int) -> int:
    return max(1, math.ceil(len(text) / chars)) if text else 1


def text_height(text: str, width_chars: int = CHARS) -> int:
    """The height of a text display's words: each line wrapped at ``width_chars``."""
    height = 0
    code = False
    for line in text.split("\n"):
        if line.startswith("```"):
            code = not code
            height += 4
            continue
        if code:
            height += CODE_LINE
        elif line.startswith("### "):
            height += HEADING * _lines(line[4:], width_chars - 8)
        else:
            height += LINE * _lines(line, width_chars)
    return height


def layout_height(components: list[dict[str, Any]], pictures: dict[str, tuple[int, int]]) -> int:
    """A V2 message's height at 390 px from its components' payload and its pictures' sizes."""
    height = AUTHOR
    for item in components:
        height += _item_height(item, pictures, COLUMN, CHARS + 4) + GAP
    return height


def _item_height(
    item: dict[str, Any], pictures: dict[str, tuple[int, int]], width: int, chars: int
) -> int:
    kind = item.get("type")
    if kind == 10:
        return text_height(str(item.get("content", "")), chars)
    if kind == 14:
        return SEPARATOR
    if kind == 17:  # container
        inner = [_item_height(c, pictures, width - 2 * PAD, CHARS) for c in item["components"]]
        return 2 * PAD + sum(inner) + GAP * (len(inner) - 1)
    if kind == 12:  # media gallery
        total = 0
        for media in item.get("items", []):
            url = str(media.get("media", {}).get("url", ""))
            w, h = pictures.get(url.removeprefix("attachment://"), (width, width))
            total += round(h * (width - 2 * PAD) / w)
        return total
    if kind == 1:  # a row of buttons
        rows, used = 1, 0
        for button in item.get("components", []):
            size = len(str(button.get("label") or "")) + 4
            if used and used + size > ROW_CHARS:
                rows, used = rows + 1, 0
            used += size
        return rows * BUTTONS
    return 0


def measure(message: Any, env: Any, save: Path | None = None) -> int:
    """The height of a simcord message at 390 px (its pictures kept in ``save``, if given)."""
    from PIL import Image

    pictures: dict[str, tuple[int, int]] = {}
    for attachment in getattr(message, "attachments", []) or []:
        data = env.backend.cdn.get(attachment.url)
        if isinstance(data, bytes):
            if save is not None:
                (save / f"{message.id}-{attachment.filename}").write_bytes(data)
            with Image.open(io.BytesIO(data)) as image:
                pictures[attachment.filename] = image.size
    components = [c if isinstance(c, dict) else c.to_dict() for c in message.components]
    return layout_height(components, pictures)


def describe(message: Any) -> str:
    """Each part of a message with its height: what to shorten."""
    from tools.message_parts import tree

    out = []
    for item in tree(message):
        kind = item.get("type")
        if kind == 10:
            words = str(item.get("content", ""))
            out.append(f"  [{text_height(words)} px] " + words.replace("\n", "\n  "))
        elif kind == 12:
            out.append("  [picture]")
        elif kind == 1:
            labels = [str(b.get("label")) for b in item.get("components", [])]
            out.append(f"  [buttons] {labels}")
    return "\n".join(out)


async def run(seed: int, show: bool, save: Path | None) -> None:
    import simcord

    from bot import create_bot
    from bot.process.try_it import build_world, lay_the_table, try_settings

    with tempfile.TemporaryDirectory() as folder:
        settings = try_settings(Path(folder), seed)
        bot = create_bot(settings)
        env = simcord.Env(bot, settle_timeout=120)
        world = build_world(env, 1)
        await env.start()
        try:
            with env.time_context():
                table = await lay_the_table(world)
                you = world.viewers[0]
                message = next(
                    m for m in world.channel.history() if m.id == table.record.message_id
                )
                await you.click(message, label="Start")
                await env.advance_time(2)
                table = bot.service.for_channel(world.channel.id)
                assert table is not None
                message = next(
                    m for m in world.channel.history() if m.id == table.record.message_id
                )
                print(f"table message at deal 1: {measure(message, env, save)} px")
                if show:
                    print(describe(message))
                seen = {m.id for m in world.channel.history()}
                for _ in range(2000):  # your turns time out and the bot plays them
                    await env.advance_time(30)
                    table = bot.service.for_channel(world.channel.id)
                    if table is None or table.game is None or table.game.is_over:
                        break
                await env.advance_time(60)
                ended = [m for m in world.channel.history() if m.id not in seen]
                for message in ended:
                    if message.components:
                        print(f"message at the game's end: {measure(message, env, save)} px")
                        if show:
                            print(describe(message))
        finally:
            await env.shutdown()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", action="store_true", help="print each message's parts")
    parser.add_argument("--save", type=Path, help="a folder to keep the messages' pictures in")
    args = parser.parse_args(argv)
    asyncio.run(run(args.seed, args.show, args.save))


if __name__ == "__main__":
    main()
