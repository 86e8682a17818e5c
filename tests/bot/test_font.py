"""Pictures keep accents: the bundled font covers Latin-1 and Latin Extended-A."""

from __future__ import annotations

import io
from dataclasses import replace

from PIL import Image, ImageChops

from bot.i18n import fonts
from bot.screens import render_score_sheet, render_table
from bot.screens._draw import drawable, has_glyph
from bot.screens.samples import SHEET_8x10, table_view

#: Names whose accents a stripping renderer would turn into the plain names below.
ACCENTED = ["José", "Muñoz", "Renée", "Zoë", "Ñandú", "Şükrü", "Ōtsuka", "Chloé"]
PLAIN = ["Jose", "Munoz", "Renee", "Zoe", "Nandu", "Sukru", "Otsuka", "Chloe"]
#: Letters without a decomposition, which a stripping renderer dropped altogether.
UNDECOMPOSABLE = ["Łukasz", "Ørjan", "Đorđe", "Æsa", "Øystein", "Œdipe", "Ħal", "ßeta"]


def test_the_font_and_its_licence_are_bundled() -> None:
    assert fonts.REGULAR.is_file() and fonts.REGULAR.stat().st_size > 100_000
    licence = (fonts.FONT_DIR / "LICENSE").read_text()
    assert "Bitstream" in licence and "Permission is hereby granted" in licence


def test_every_latin1_and_latin_extended_a_letter_has_a_glyph() -> None:
    letters = [chr(c) for c in range(0xC0, 0x180) if chr(c).isalpha()]
    missing = [ch for ch in letters if not has_glyph(ch)]
    assert len(letters) > 150
    assert missing == []


def test_names_keep_their_accents() -> None:
    for name in ACCENTED + UNDECOMPOSABLE:
        assert drawable(name) == name
    assert drawable("José 🎲") == "José"


def _differs(a: bytes, b: bytes) -> bool:
    first, second = (Image.open(io.BytesIO(x)).convert("RGB") for x in (a, b))
    return ImageChops.difference(first, second).getbbox() is not None


def test_the_score_sheet_draws_the_accents() -> None:
    """With the accents stripped both pictures would be the same pixels."""
    accented = render_score_sheet(ACCENTED, SHEET_8x10)
    assert _differs(accented, render_score_sheet(PLAIN, SHEET_8x10))


def test_the_table_picture_draws_the_accents() -> None:
    view = table_view(8)

    def named(names: list[str]) -> bytes:
        seats = tuple(
            replace(seat, player=name) for seat, name in zip(view.seats, names, strict=True)
        )
        return render_table(replace(view, seats=seats))

    assert _differs(named(ACCENTED), named(PLAIN))
