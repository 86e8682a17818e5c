"""The melds form: the player writes the melds to lay down (``set: 8H 8S 8C | run: 3H 4H JK=5H
6H``), opened from the hand's *Own melds* button.

The form has a stable custom id (``MELDS_MODAL_PREFIX`` with the table and the sort order), so
a form opened before a restart is still understood after it; its submission is answered in
``bot.views.hand`` (``melds_form_submitted``), the same way before and after a restart.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import DEFAULT_LANGUAGE, Language, t
from bot.screens.card_words import SortMode

#: The start of every melds form's custom id; the table and the sort order follow.
MELDS_MODAL_PREFIX = "sh:melds:"


class MeldsModal(discord.ui.Modal, title="Lay down your melds"):
    """The player writes the melds: ``set: 8H 8S 8C | run: 3H 4H JK=5H 6H``.

    The text input sits in a ``Label`` (component type 18), the modal layout Discord
    documents now; a text input's own ``label`` in an action row is deprecated."""

    field: discord.ui.Label[MeldsModal] = discord.ui.Label(
        text="Melds, separated by |",
        component=discord.ui.TextInput(
            custom_id="melds",
            style=discord.TextStyle.paragraph,
            max_length=400,
            placeholder="set: 8H 8S 8C | run: 3H 4H JK=5H 6H",
        ),
    )

    def __init__(
        self,
        table_id: int,
        sort: SortMode,
        proposal: str,
        language: Language = DEFAULT_LANGUAGE,
    ) -> None:
        # A stable id, so a form opened before a restart is still understood after it.
        super().__init__(
            timeout=600,
            custom_id=f"{MELDS_MODAL_PREFIX}{table_id}:{sort}",
            title=t("modal.title", language),
        )
        self.table_id, self.sort = table_id, sort
        self.field.text = t("modal.label", language)
        self.melds.default = proposal
        self.melds.placeholder = t("modal.placeholder", language)

    @property
    def melds(self) -> discord.ui.TextInput[MeldsModal]:
        """The text input inside the label."""
        component = self.field.component
        assert isinstance(component, discord.ui.TextInput)
        return component


async def open_melds_form(interaction: discord.Interaction[Any], form: MeldsModal) -> None:
    """Show the melds form, then stop listening to it: its submission is answered by
    ``melds_form_submitted``, the same way before and after a restart."""
    await interaction.response.send_modal(form)
    form.stop()


def modal_fields(components: list[Any]) -> list[dict[str, Any]]:
    """The submitted fields of a modal: each inside a label (type 18, ``component``), as
    forms are drawn now, or inside an action row (``components``), as a form opened before
    the label layout is still submitted."""
    fields: list[dict[str, Any]] = []
    for item in components:
        if not isinstance(item, dict):
            continue
        if isinstance(item.get("component"), dict):
            fields.append(item["component"])
        fields.extend(child for child in item.get("components", []) if isinstance(child, dict))
    return fields
