"""Names cut to a width so that players can still be told apart, the same on every line.

A column of names ("Computer 1 (normal)", "Computer 2 (easy)", "Bartholomew",
"Bartholomew2") cut at a fixed length reads "Compu…" three times and "Barthol…" twice. Here
a name first loses what tells nobody apart (the words after a number, "(normal)"), then its
later words become initials, then it is cut; and where two cuts still meet, each keeps the
end of its name that differs ("Barth…w", "Barth…2"), or its seat number when the names are
the same. ``fits`` says what fits: characters for the text, pixels for a picture.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Fits = Callable[[str], bool]


def char_fits(width: int) -> Fits:
    """A ``fits`` for text: at most ``width`` characters."""
    return lambda text: len(text) <= width


def shortened(name: str, fits: Fits) -> str:
    """``name`` made to fit, still recognisable: whole; without the words after a number
    ("Computer 1 (normal)" → "Computer 1"); later words as initials ("Bartholomew t. M.");
    the first words only; at last cut, with an ellipsis."""
    if fits(name):
        return name
    words = name.split()
    numbered = next((i for i, word in enumerate(words) if word.isdigit()), None)
    if numbered is not None and numbered > 0 and fits(kept := " ".join(words[: numbered + 1])):
        return kept
    for index in range(len(words) - 1, 0, -1):
        word = words[index]
        letters = [i for i, ch in enumerate(word) if ch.isalnum()]
        if len(letters) > 1:
            first = letters[0]
            words[index] = word[: first + 1] + "." + (")" if word.endswith(")") else "")
            if fits(candidate := " ".join(words)):
                return candidate
    return _cut(name, "", fits)


def _cut(name: str, tail: str, fits: Fits) -> str:
    """The longest head of ``name`` that fits with an ellipsis and ``tail`` after it."""
    head = name
    while head and not fits(head.rstrip() + "…" + tail):
        head = head[:-1]
    return head.rstrip() + "…" + tail


def distinct_names(names: Sequence[str], fits: Fits) -> list[str]:
    """Each of ``names`` made to fit (``shortened``), no two the same unless the names are:
    where two cuts meet, each keeps the shortest end of its own name that tells them apart
    ("Bartholomew" and "Bartholomew2" → "Barth…w", "Barth…2"); names that are the same take
    their seat's number ("Sam 1", "Sam 2")."""
    cuts = [shortened(name, fits) for name in names]
    for _ in range(2):  # a mended cut may meet another one: look once more
        groups: dict[str, list[int]] = {}
        for seat, cut in enumerate(cuts):
            groups.setdefault(cut, []).append(seat)
        for seats in groups.values():
            if len(seats) > 1:
                for seat, mended in zip(
                    seats, _apart([names[s] for s in seats], seats, fits), strict=True
                ):
                    cuts[seat] = mended
    return cuts


def _apart(names: Sequence[str], seats: Sequence[int], fits: Fits) -> list[str]:
    """Names whose cuts met, told apart by the word where they differ ("Co… 1", "Co… 2"),
    else by their ends ("Barth…w", "Barth…2"), else by their seat numbers."""
    if len(set(names)) == len(names):
        found = _word_tails(names) or _end_tails(names)
        if found is not None:
            return [
                name if fits(name) else _cut(head, tail, fits)
                for name, (head, tail) in zip(names, found, strict=True)
            ]
    out = []
    for name, seat in zip(names, seats, strict=True):
        number = f" {seat + 1}"
        out.append(name + number if fits(name + number) else _cut(name, number, fits))
    return out


def _word_tails(names: Sequence[str]) -> list[tuple[str, str]] | None:
    """(head, tail) per name: the words before the first one that differs, and the shortest
    start of that word telling the names apart; None when they differ in the first word."""
    split = [name.split() for name in names]
    index = 0
    while all(len(words) > index for words in split) and len({w[index] for w in split}) == 1:
        index += 1
    if index == 0 or any(len(words) <= index for words in split):
        return None
    words = [w[index] for w in split]
    for size in range(1, max(len(word) for word in words) + 1):
        starts = [word[:size] for word in words]
        if len(set(starts)) == len(starts):
            return [
                (" ".join(w[:index]), " " + start) for w, start in zip(split, starts, strict=True)
            ]
    return None


def _end_tails(names: Sequence[str]) -> list[tuple[str, str]] | None:
    """(head, tail) per name: the shortest ends of the names telling them apart."""
    for size in range(1, max(len(name) for name in names) + 1):
        tails = [name[-size:] for name in names]
        if len(set(tails)) == len(tails):
            return [(name[:-size], tail.strip()) for name, tail in zip(names, tails, strict=True)]
    return None
