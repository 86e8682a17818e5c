"""What a person sees of a message in simcord, for the tools that play through it: its
controls and its words, from a classic message (content, rows) and a Components V2 layout
(text displays, action rows nested in containers and sections) alike.

A ``discord.Message`` gives component objects, a simcord ``ResponseMessage`` payload dicts;
both are walked the same way.
"""

from __future__ import annotations

from typing import Any

#: Discord's component types read here.
TEXT_DISPLAY = 10
INTERACTIVE = (2, 3, 5, 6, 7, 8)


def _dict(item: Any) -> dict[str, Any]:
    if isinstance(item, dict):
        return item
    to_dict = getattr(item, "to_dict", None)
    return dict(to_dict()) if to_dict is not None else {}


def tree(message: Any) -> list[dict[str, Any]]:
    """Every component of ``message`` as a payload dict, nested ones included, in reading
    order (a container before what it holds)."""
    out: list[dict[str, Any]] = []

    def walk(items: Any) -> None:
        for item in items or ():
            data = _dict(item)
            out.append(data)
            walk(data.get("components"))
            accessory = data.get("accessory")
            if isinstance(accessory, dict):
                out.append(accessory)

    walk(message.components)
    return out


def items(message: Any) -> list[dict[str, Any]]:
    """The buttons and selects of ``message``, in reading order."""
    return [item for item in tree(message) if item.get("type") in INTERACTIVE]


def text(message: Any) -> str:
    """Everything ``message`` says in words: its content and its text displays."""
    parts = [str(getattr(message, "content", "") or "")]
    parts += [str(i.get("content") or "") for i in tree(message) if i.get("type") == TEXT_DISPLAY]
    return "\n".join(part for part in parts if part)
