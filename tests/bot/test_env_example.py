"""``.env.example`` documents exactly the settings the bot reads.

The names come from the ``Settings`` class itself, so a setting added later (by anyone) fails
this test until it is documented, and a documented setting the code no longer reads fails too.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import AliasChoices

from bot.process.settings import Settings

EXAMPLE = Path(__file__).resolve().parents[2] / ".env.example"
#: ``NAME=value`` lines, commented out or not (optional settings are shown commented).
_ASSIGNMENT = re.compile(r"^#?\s*([A-Z][A-Z0-9_]*)=", re.MULTILINE)


def environment_names() -> dict[str, set[str]]:
    """Each field's names in the environment: its upper-case aliases, else SHANGHAI_<FIELD>."""
    prefix = Settings.model_config.get("env_prefix", "")
    names: dict[str, set[str]] = {}
    for field_name, field in Settings.model_fields.items():
        alias = field.validation_alias
        choices = alias.choices if isinstance(alias, AliasChoices) else [alias] if alias else []
        upper = {c for c in choices if isinstance(c, str) and c.isupper()}
        names[field_name] = upper or {f"{prefix}{field_name}".upper()}
    return names


def test_every_setting_is_in_env_example() -> None:
    listed = set(_ASSIGNMENT.findall(EXAMPLE.read_text(encoding="utf-8")))
    missing = [field for field, names in environment_names().items() if not names & listed]
    assert not missing, f".env.example does not mention: {missing}"


def test_env_example_lists_nothing_the_code_does_not_read() -> None:
    listed = set(_ASSIGNMENT.findall(EXAMPLE.read_text(encoding="utf-8")))
    known = set().union(*environment_names().values())
    assert listed <= known, f"not read by Settings: {sorted(listed - known)}"


def test_example_values_are_the_defaults() -> None:
    """Each uncommented value (the token aside) is valid and is what the bot uses without it."""
    text = EXAMPLE.read_text(encoding="utf-8")
    values = dict(re.findall(r"^([A-Z][A-Z0-9_]*)=(.*)$", text, re.MULTILINE))
    values.pop("DISCORD_TOKEN")
    field_of = {name: field for field, names in environment_names().items() for name in names}
    given = {field_of[name]: value for name, value in values.items()}
    from_example = Settings(discord_token="x", **given)  # type: ignore[arg-type]
    defaults = Settings(discord_token="x")  # type: ignore[arg-type]
    for field in given:
        assert getattr(from_example, field) == getattr(defaults, field), field
