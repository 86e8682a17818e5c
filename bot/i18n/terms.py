"""The game's terms in words, shared by the text (``bot.screens.text``) and the pictures."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from bot.i18n.catalogue import DEFAULT_LANGUAGE, LANGUAGES, Language, t
from engine.melds import Meld
from engine.rules import Contract


def contract_text(contract: Contract, language: Language = DEFAULT_LANGUAGE) -> str:
    """``1 set of 3 + 1 run of 7`` in ``language``: the words players use for a contract."""
    parts: list[str] = []
    for kind in ("set", "run"):
        sizes = [size for k, size in contract if k == kind]
        if sizes:
            parts.append(t(f"contract.{kind}s", language, count=len(sizes), size=sizes[0]))
    return t("contract.join", language).join(parts)


def melds_for_form(melds: Iterable[Meld], language: Language = DEFAULT_LANGUAGE) -> str:
    """Melds as a player edits them in the melds form, with the kind in their words:
    ``reeks: 3H 4H 5H 6H | set: 8H 8S 8C`` (card codes stay as printed on the cards)."""
    return " | ".join(
        f"{t(f'term.{meld.kind}', language)}: " + " ".join(str(card) for card in meld.cards)
        for meld in melds
    )


#: Other words players write for a kind (GLOSSARY.md: Dutch 003 says "groep", Spanish players
#: call a set of three a "trío"), read like the catalogue's.
OTHER_WORDS = {"groep": "set", "trio": "set"}


def melds_from_form(text: str) -> str:
    """The form's text with each meld's kind in the engine's words (``set``/``run``), whichever
    of the bot's languages the player wrote it in (``grupo:``, ``Reeks:``, ``escalera:``)."""
    kinds = OTHER_WORDS | {
        _folded(t(f"term.{kind}", language)): kind
        for language in LANGUAGES
        for kind in ("set", "run")
    }
    text = cards_as_typed(text)
    parts = []
    for part in text.split("|"):
        head, colon, body = part.partition(":")
        kind = kinds.get(_folded(head)) if colon else None
        parts.append(f"{kind}:{body}" if kind else part)
    return "|".join(parts)


#: The bot prints cards with symbols (``8♥``, ``10♦``, ``🃏``); a player may copy them into
#: the form as shown. Each symbol becomes the letter the engine reads.
_CARD_SYMBOLS = {
    "\N{PLAYING CARD BLACK JOKER}": "JK",
    "\N{BLACK HEART SUIT}": "H",
    "\N{WHITE HEART SUIT}": "H",
    "\N{BLACK DIAMOND SUIT}": "D",
    "\N{WHITE DIAMOND SUIT}": "D",
    "\N{BLACK CLUB SUIT}": "C",
    "\N{WHITE CLUB SUIT}": "C",
    "\N{BLACK SPADE SUIT}": "S",
    "\N{WHITE SPADE SUIT}": "S",
    "\N{VARIATION SELECTOR-16}": "",
}


def cards_as_typed(text: str) -> str:
    """``text`` with every card symbol the bot prints replaced by the letters it parses."""
    for symbol, letters in _CARD_SYMBOLS.items():
        text = text.replace(symbol, letters)
    return text


def _folded(word: str) -> str:
    """``word`` compared loosely: case and accents ignored (``Trío`` = ``trio``)."""
    decomposed = unicodedata.normalize("NFKD", word.strip().casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))
