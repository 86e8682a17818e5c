"""``python -m bot``: the command line of ``bot.process.cli`` (``python -m bot --help``)."""

from __future__ import annotations

import sys

from bot.process.cli import main

if __name__ == "__main__":
    sys.exit(main())
