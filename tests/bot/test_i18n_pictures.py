"""The words drawn on card faces (the joker's, a wild's "as") are the picture's language."""

from __future__ import annotations

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
