"""The buttons of the full rules' pages: **📖 Full rules** under ``/shanghai rules`` opens the
first page privately, **◀ Back** and **Next ▶** turn the pages of that private message.

Custom id ``sh:rules:<how>:<page>``: ``open`` sends the page as a new private message (the
table's rules stay readable above), ``go`` redraws the message clicked. The pages are the
same for everyone and depend on nothing stored, so a click after a restart works as well.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.i18n import Language, interaction_language, t
from bot.interactions import answers
from bot.interactions.controls import Control
from bot.screens.rules_pages import RULES_PAGES, rules_page

RULES_BUTTON_TEMPLATE = r"sh:rules:(?P<how>open|go):(?P<page>[0-9]{1,2})"


class RulesPageButton(Control[discord.ui.Button[Any]], template=RULES_BUTTON_TEMPLATE):
    """Shows one page of the full rules, privately."""

    def __init__(
        self,
        how: str,
        page: int,
        *,
        label: str = "…",
        emoji: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji=emoji,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"sh:rules:{how}:{page}",
            )
        )
        self.how = how
        self.page = page

    @classmethod
    def from_match(cls, match: re.Match[str]) -> RulesPageButton:
        return cls(match["how"], int(match["page"]))

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        language = interaction_language(interaction)
        page = max(0, min(self.page, len(RULES_PAGES) - 1))
        text, view = rules_page(page, language), pages_view(page, language)
        if self.how == "open":
            await answers.show(interaction, text, view=view)
        else:
            await answers.update(interaction, text, view=view)


def full_rules_view(language: Language) -> discord.ui.View:
    """**📖 Full rules**, under the table's rules."""
    view = discord.ui.View(timeout=None)
    view.add_item(RulesPageButton("open", 0, label=t("button.full_rules", language), emoji="📖"))
    return view


def pages_view(page: int, language: Language) -> discord.ui.View:
    """**◀ Back** and **Next ▶** under page ``page``, each greyed at its end."""
    view = discord.ui.View(timeout=None)
    last = len(RULES_PAGES) - 1
    back = t("button.rules_back", language)
    ahead = t("button.rules_next", language)
    view.add_item(RulesPageButton("go", max(0, page - 1), label=back, disabled=page == 0))
    view.add_item(RulesPageButton("go", min(last, page + 1), label=ahead, disabled=page == last))
    return view
