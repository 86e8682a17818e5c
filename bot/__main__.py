"""``python -m bot``: the command line of ``bot.cli`` (``python -m bot --help``)."""

from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
