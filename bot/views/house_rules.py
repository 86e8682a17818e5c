"""The host's *House rules* panel in the lobby: every Shanghai option of ``engine.rules.Rules``,
grouped by theme, plus the presets under the names players know them by. ``stock_draws`` is
not offered: duplicate events set it (each seat draws its own lane) and no table needs it
otherwise.

The lobby's *House rules* button (``sh:house:<table>``, in ``views/table.py``) opens this
panel privately. Each select lists ``option = value`` pairs of one theme; choosing one sets
that option through ``TableService.set_house_rule``, which checks the host, validates the
whole ``Rules`` and stores the change with the table's options (so a restart keeps it).
Custom ids ``sh:hr:<table>:<group>`` are parsed by one ``DynamicItem``, so the panel keeps
working after a restart.
"""

from __future__ import annotations

import json
import re
import typing
from typing import TYPE_CHECKING, Any

import discord

from bot.ground.errors import UserError
from bot.i18n import DEFAULT_LANGUAGE, Language, interaction_language, t
from bot.interactions.controls import Control
from bot.interactions.ids import parse_id
from engine.rules import Rules

if TYPE_CHECKING:
    from bot.service.table_snapshot import TableSnapshot

#: Preset ids, the names players know them by, and one line on what each one is.
PRESET_NAMES: dict[str, tuple[str, str]] = {
    "standard": (
        "Standard",
        "The common English rules: full 54-card decks, 2-8 players, go out with or without "
        "a discard.",
    ),
    "preset_000": (
        "Dutch rules (000)",
        "Exact contract melds, discard to go out, 105/158-card packs, lowest cut deals.",
    ),
    "preset_004": (
        "Spanish rules (004)",
        "2s wild, buys cost 2 cards, lay off on the turn you go down, no discard to go out.",
    ),
}

#: The themes of the panel, each an ordered list of option names (every Shanghai option once).
GROUPS: dict[str, tuple[str, tuple[str, ...]]] = {
    "table": (
        "Table, deck and deals",
        (
            "players",
            "deck_profile",
            "deuces_wild",
            "num_deals",
            "first_dealer",
            "max_restocks",
            "on_exhaustion",
            "tie_break",
        ),
    ),
    "melds": (
        "Contracts and melds",
        (
            "contract_list",
            "contract_meld_size",
            "joker_limit",
            "joker_identity",
            "same_suit_runs",
            "same_rank_sets",
            "run_ace_both_ends",
        ),
    ),
    "buying": (
        "Buying",
        (
            "buy_penalty_cards",
            "buy_limit",
            "buy_priority",
            "down_player_may_buy",
            "down_player_blocks_buy",
            "two_player_buy",
        ),
    ),
    "out": (
        "Going down and going out",
        ("layoff_on_going_down_turn", "joker_swap", "final_discard", "blind_bonus", "score_table"),
    ),
}

HOUSE_RULES_TEMPLATE = r"sh:hr:(?P<table>[0-9]{1,19}):(?P<group>preset|table|melds|buying|out)"


def choices(option: str) -> list[Any]:
    """Every value the host may pick for ``option``, in the order the panel lists them."""
    if option == "players":
        return [[2, 8], [3, 8]]
    if option == "num_deals":
        return list(range(10, 0, -1))
    if option == "max_restocks":
        return [3, None]
    annotation = Rules.model_fields[option].annotation
    if annotation is bool:
        return [False, True]
    return list(typing.get_args(annotation))


def option_label(option: str, language: Language = DEFAULT_LANGUAGE) -> str:
    """An option's name as players read it (``deuces_wild`` → "2s are wild", "Tweeën zijn
    joker"); the identifiers of ``engine.rules`` stay the data, the catalogue words them."""
    return t(f"house.option.{option}", language)


def option_line(option: str, language: Language = DEFAULT_LANGUAGE) -> str:
    """One short sentence on what ``option`` decides."""
    return t(f"house.option.{option}.line", language)


def value_text(option: str, value: Any, language: Language = DEFAULT_LANGUAGE) -> str:
    """A value as players read it: ``2-8``, ``unlimited``, ``on``/``off``, and a named value
    in words (``forbidden`` → "not allowed", "mag niet")."""
    if option == "players":
        return f"{value[0]}-{value[1]}"
    if value is None:
        return t("house.unlimited", language)
    if isinstance(value, bool):
        return t("house.on" if value else "house.off", language)
    if isinstance(value, int):
        return str(value)
    return t(f"house.value.{option}.{value}", language)


def _current(rules: Rules, option: str) -> Any:
    value = getattr(rules, option)
    return list(value) if isinstance(value, tuple) else value


def house_rules_text(rules: Rules, language: Language = DEFAULT_LANGUAGE) -> str:
    """Every house rule of ``rules``, one line per theme (for ``/shanghai rules``)."""
    lines = [t("house.heading", language)]
    for group, (_, options) in GROUPS.items():
        values = " · ".join(
            f"{option_label(option, language)}: "
            f"{value_text(option, _current(rules, option), language)}"
            for option in options
        )
        lines.append(f"*{t(f'house.group.{group}', language)}:* {values}")
    return "\n".join(lines)


def preset_label(preset: str) -> str:
    return PRESET_NAMES.get(preset, (preset, ""))[0]


def house_rules_panel(
    table: TableSnapshot, language: Language = DEFAULT_LANGUAGE
) -> tuple[str, discord.ui.View]:
    """The content and selects of the host's private panel for ``table``, in the host's
    language."""
    from bot.service import rules_for

    options = dict(table.record.options)
    rules = rules_for(options)
    preset = str(options.get("preset", "standard"))
    ui = discord.ui.View(timeout=None)
    ui.add_item(
        HouseRulesSelect(
            table.id,
            "preset",
            options=[
                discord.SelectOption(
                    label=t(f"preset.{key}", language),
                    value=key,
                    description=t(f"preset.{key}.line", language)[:100],
                    default=key == preset,
                )
                for key in PRESET_NAMES
            ],
            placeholder=t("house.rule_set", language),
        )
    )
    for group, (_, names) in GROUPS.items():
        entries = []
        for option in names:
            current = _current(rules, option)
            label, line = option_label(option, language), option_line(option, language)
            for value in choices(option):
                entries.append(
                    discord.SelectOption(
                        label=f"{label}: {value_text(option, value, language)}"[:100],
                        value=f"{option}={json.dumps(value)}"[:100],
                        description=line[:100],
                        default=False,
                        emoji="✅" if value == current else None,
                    )
                )
        title = t(f"house.group.{group}", language)
        ui.add_item(HouseRulesSelect(table.id, group, options=entries[:25], placeholder=title))
    name = t(f"preset.{preset}", language) if preset in PRESET_NAMES else preset_label(preset)
    content = t("house.panel", language, table=table.id, preset=name)
    return content, ui


class HouseRulesSelect(Control[discord.ui.Select[Any]], template=HOUSE_RULES_TEMPLATE):
    """One select of the panel: the rule sets, or one theme's ``option = value`` pairs."""

    def __init__(
        self,
        table_id: int,
        group: str,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"sh:hr:{table_id}:{group}",
                options=options or [discord.SelectOption(label="…")],
                placeholder=placeholder,
            )
        )
        self.table_id, self.group = table_id, group

    @classmethod
    def from_match(cls, match: re.Match[str]) -> HouseRulesSelect:
        return cls(parse_id(match["table"]), match["group"])

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        service = interaction.client.service
        data: Any = interaction.data or {}
        values = list(self.item.values) or list(data.get("values", []))
        choice = str(values[0]) if values else ""
        if self.group == "preset":
            table = await service.set_house_rule(self.table_id, interaction.user.id, preset=choice)
        else:
            option, _, text = choice.partition("=")
            try:
                value = json.loads(text)
            except ValueError:
                value = None
            if option not in GROUPS[self.group][1] or value not in choices(option):
                raise UserError("That is not a house rule of this panel.", code="not_a_house_rule")
            table = await service.set_house_rule(
                self.table_id, interaction.user.id, option=option, value=value
            )
        content, ui = house_rules_panel(table, interaction_language(interaction))
        await interaction.response.edit_message(content=content, view=ui)
