"""Seat names as the table picture draws them: whole when they fit, else shortened so that
players still tell each other apart ("Bartholomew t. M.", "Computer 1"), never a stump.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import DEFAULT_LANGUAGE, Language, t
from bot.screens._draw import drawable, text_width
from bot.screens.table_picture.measures import Scale
from engine.view import PlayerView, SeatView


def seat_label(seats: Sequence[SeatView], seat: int, language: Language = DEFAULT_LANGUAGE) -> str:
    """The drawable name of a seat, or ``Seat n`` when nothing of the name can be drawn."""
    if 0 <= seat < len(seats):
        name = drawable(seats[seat].player)
        if name:
            return name
    return t("picture.seat", language, number=seat + 1)


def short_name(name: str, size: int, width: float, *, bold: float = 0.0) -> str:
    """``name`` at most ``width`` pixels wide (font ``size``), still recognisable.

    Never a stump like "Comput…": the words after the first become initials from the last one
    back ("Bartholomew the Magnificent" → "Bartholomew t. M."), then they go ("Bartholomew";
    "Computer 1 (normal)" → "Computer 1 (n.)" → "Computer 1": a number after the first word
    stays, it tells computers apart); only a first word still too long is cut, keeping at
    least four letters.
    """

    def fits(text: str) -> bool:
        return text_width(text, size) + 2 * bold <= width

    if fits(name):
        return name
    words = name.split()
    for index in range(len(words) - 1, 0, -1):
        word = words[index]
        letters = [i for i, ch in enumerate(word) if ch.isalpha()]
        if len(letters) > 1:
            first = letters[0]
            words[index] = word[: first + 1] + "." + (")" if word.endswith(")") else "")
            if fits(candidate := " ".join(words)):
                return candidate
    words = words[: 1 + (len(words) > 1 and words[1].isdigit())]
    if fits(candidate := " ".join(words)):
        return candidate
    head, tail = words[0], " ".join(words[1:])
    while len(head) > 4 and not fits(" ".join(x for x in (head + "…", tail) if x)):
        head = head[:-1]
    return " ".join(x for x in (head.rstrip() + "…", tail) if x)


def name_lines(name: str, size: int, width: float, lines: int, *, bold: float = 0.0) -> list[str]:
    """``name`` wrapped at spaces into at most ``lines`` lines of ``width``; what still does
    not fit is shortened (``short_name``) on the last line."""
    words = name.split()
    out: list[str] = []
    while words and len(out) < lines - 1:
        line = words.pop(0)
        while words and text_width(f"{line} {words[0]}", size) + 2 * bold <= width:
            line = f"{line} {words.pop(0)}"
        if text_width(line, size) + 2 * bold > width:
            words.insert(0, line)  # one word too long for a line: shorten it below
            break
        out.append(line)
    if words:
        out.append(short_name(" ".join(words), size, width, bold=bold))
    return out


def cut_names(view: PlayerView, scale: Scale, language: Language) -> int:
    """How many seats' names a name column of ``scale`` cuts short with "…" on one line."""
    return sum(
        "…"
        in short_name(
            seat_label(view.seats, seat, language),
            *name_room(view, seat, scale),
            bold=name_weight(scale),
        )
        for seat in range(len(view.seats))
    )


def name_room(view: PlayerView, seat: int, scale: Scale) -> tuple[int, float]:
    """The name's font size and the width left to it beside the seat's total."""
    total_width = text_width(str(view.seats[seat].total), scale.text_size)
    return scale.name_size, scale.of(scale.info) - total_width - scale.of(4)


def name_weight(scale: Scale) -> float:
    return max(0.4, scale.name_size / 40)
