"""Texts cut to Discord's length limits on a word boundary, never mid-word.

Discord refuses a command whose choice names pass 100 characters (the whole sync fails), so
a long name must be cut; cutting at a fixed index left "go out with or without a discar" in
the preset choices. ``fit`` cuts at the last space that leaves room for an
ellipsis, so the reader sees the text was shortened and every word shown is whole.
"""

from __future__ import annotations

from typing import Final

#: Discord's limit on an application command choice's name (and on its localisations).
CHOICE_NAME_LIMIT: Final = 100
ELLIPSIS: Final = "…"


def fit(text: str, limit: int = CHOICE_NAME_LIMIT) -> str:
    """``text`` if it fits in ``limit`` characters, else its longest prefix ending on a whole
    word (trailing punctuation and spaces dropped) followed by an ellipsis."""
    if len(text) <= limit:
        return text
    room = text[: limit - len(ELLIPSIS) + 1]  # one more: a space there ends a whole word
    cut = room.rfind(" ")
    head = room[:cut] if cut > 0 else text[: limit - len(ELLIPSIS)]
    return head.rstrip(" ,;:.-–—") + ELLIPSIS
