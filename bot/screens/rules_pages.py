"""The full rules, for players, in pages a Discord message holds (``/shanghai rules`` without
a ``rules_url``): the idea, the contracts, a turn, buying, scoring and the bot's controls, in
the reader's language, each page under Discord's 2,000 characters with where it stands."""

from __future__ import annotations

from bot.i18n import Language, t

#: The pages in reading order (``rules.page.<name>`` in the catalogue).
RULES_PAGES = ("idea", "contracts", "turn", "buying", "scoring", "bot")


def rules_page(page: int, language: Language) -> str:
    """Page ``page`` (0-based, held to the first and last) with its footer."""
    page = max(0, min(page, len(RULES_PAGES) - 1))
    footer = t("rules.page_footer", language, page=page + 1, pages=len(RULES_PAGES))
    return t(f"rules.page.{RULES_PAGES[page]}", language) + "\n" + footer
