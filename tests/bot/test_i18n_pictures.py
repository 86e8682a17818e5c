"""The words drawn on card faces (the joker's, a wild's "as") are the picture's language."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import t
from bot.screens.cards import HAND, TABLE, card_face
from engine.cards import Card

JOKER, DEUCE = Card.parse("JK"), Card.parse("2C")


def _pixels(card: Card, language: str, **kwargs: object) -> bytes:
    return card_face(card, language=language, **kwargs).tobytes()  # type: ignore[arg-type]


def test_the_jokers_word_is_the_pictures_language() -> None:
    assert t("picture.joker", "es") == "COMODÍN"
    assert _pixels(JOKER, "es", size=HAND) != _pixels(JOKER, "en", size=HAND)


def test_a_wilds_tag_is_the_pictures_language() -> None:
    assert (t("picture.as", "en"), t("picture.as", "nl")) == ("as", "als")
    for card in (JOKER, DEUCE):
        english = _pixels(card, "en", size=TABLE, identity=(8, "H"))
        assert _pixels(card, "nl", size=TABLE, identity=(8, "H")) != english
        assert _pixels(card, "es", size=TABLE, identity=(8, "H")) != english


def test_a_card_without_words_is_the_same_in_every_language() -> None:
    eight = Card.parse("8H")
    assert _pixels(eight, "nl", size=HAND) == _pixels(eight, "en", size=HAND)


@pytest.mark.parametrize("language", ["nl", "es"])
def test_no_picture_draws_an_english_word(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text drawn on the table, a hand and the score sheet, caught as it is drawn."""
    from PIL import ImageDraw

    from bot.screens import draw_hand, render_score_sheet, render_table
    from bot.screens.cards import clear_caches
    from bot.screens.samples import HAND_15, NAMES, SHEET_8x10, table_view

    from .test_i18n_audit import english_words

    drawn: list[str] = []
    draw_text = ImageDraw.ImageDraw.text

    def recording(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        drawn.append(str(text))
        return draw_text(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recording)
    clear_caches()  # faces are cached: draw them again, in this language
    for players in (2, 4, 8):
        render_table(table_view(players), language=language)  # type: ignore[arg-type]
    draw_hand(HAND_15, language=language)  # type: ignore[arg-type]
    draw_hand([], language=language)  # type: ignore[arg-type]
    render_score_sheet(NAMES, SHEET_8x10, language)  # type: ignore[arg-type]
    clear_caches()
    names = {word.lower() for name in NAMES for word in name.split()}
    found = [(word, text) for text in drawn for word in english_words(text, names)]
    assert len(drawn) > 50 and found == []
