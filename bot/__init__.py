"""The Discord face of the engine: ``create_bot(Settings(...))`` builds the bot.

Layers, one way: a click (``views``/``cogs``) becomes an engine action, ``service`` applies and
commits it, ``publisher`` redraws the channel. ``screens`` turns engine views into
what players see: text and pictures.

The names below are imported on first use (PEP 562), so ``python -m bot.process.health``, which a
container runs every 30 s, and ``python -m bot --help`` load neither discord.py nor pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.process.app import ShanghaiBot, create_bot
    from bot.process.settings import Settings

__all__ = ["Settings", "ShanghaiBot", "create_bot"]


def __getattr__(name: str) -> Any:
    if name in ("ShanghaiBot", "create_bot"):
        from bot.process import app

        return getattr(app, name)
    if name == "Settings":
        from bot.process.settings import Settings

        return Settings
    raise AttributeError(f"module 'bot' has no attribute {name!r}")
