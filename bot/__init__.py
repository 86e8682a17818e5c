"""The Discord face of the engine: ``create_bot(Settings(...))`` builds the bot.

Layers, one way: a click (``views``/``cogs``) becomes an engine action, ``service`` applies and
commits it, ``publisher`` redraws the channel. ``screens`` turns engine views into
what players see: text and pictures.
"""

from .app import ShanghaiBot, create_bot
from .settings import Settings

__all__ = ["Settings", "ShanghaiBot", "create_bot"]
