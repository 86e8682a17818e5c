"""Settings mistakes in the words of the one who made them: the variable, not the field.

An admin writes ``SHANGHAI_TURN_SECONDS=abc`` in ``.env``; pydantic speaks of ``turn_seconds``
and "Input should be a valid number". ``explain`` turns a ``ValidationError`` into one line
naming each variable and why its value was refused; ``unknown_settings`` finds the
``SHANGHAI_*`` names nothing reads (a typo leaves the default in force without a word), each
with the known name it is closest to.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import AliasChoices, ValidationError
from pydantic_core import ErrorDetails

from bot.process.settings import Settings

PREFIX = "SHANGHAI_"

#: ``SHANGHAI_*`` names read by the test suite and CI, not by the bot: never reported.
NOT_SETTINGS = frozenset(
    {
        "SHANGHAI_REQUIRE_POSTGRES",
        "SHANGHAI_REQUIRE_BROWSER",
        "SHANGHAI_SCREENSHOTS",
        "SHANGHAI_PG_BINDIR",
    }
)

#: What a refused pattern expects, by field (pydantic would quote the regular expression).
_PATTERNS = {
    "shard_ids": "not shard numbers separated by commas (e.g. 0,2)",
    "rules_url": "not an http:// or https:// address",
}


def variable_names() -> dict[str, list[str]]:
    """Each field's names in the environment: its upper-case aliases, else SHANGHAI_<FIELD>."""
    names: dict[str, list[str]] = {}
    for field_name, field in Settings.model_fields.items():
        alias = field.validation_alias
        choices = alias.choices if isinstance(alias, AliasChoices) else []
        upper = [c for c in choices if isinstance(c, str) and c.isupper()]
        names[field_name] = upper or [f"{PREFIX}{field_name}".upper()]
    return names


def explain(errors: ValidationError | Sequence[ErrorDetails]) -> str:
    """Every refused value as ``VARIABLE: reason``, joined by ``; ``."""
    names = variable_names()
    parts: list[str] = []
    for problem in errors.errors() if isinstance(errors, ValidationError) else errors:
        field = str(problem["loc"][0]) if problem["loc"] else ""
        variable = " or ".join(names.get(field, [field.upper() or "settings"]))
        parts.append(f"{variable}: {reason(field, problem)}")
    return "; ".join(parts)


def reason(field: str, problem: ErrorDetails) -> str:
    """Why a value was refused, in an admin's words (pydantic's own message as a last resort)."""
    kind = problem["type"]
    ctx: dict[str, Any] = problem.get("ctx") or {}
    bounds = {
        "greater_than": ("must be greater than", "gt"),
        "greater_than_equal": ("must be at least", "ge"),
        "less_than": ("must be less than", "lt"),
        "less_than_equal": ("must be at most", "le"),
    }
    if kind in bounds and _is_nan(problem.get("input")):
        return "not a number"  # NaN fails every bound, so the bound it names says nothing
    if kind in bounds:
        words, key = bounds[kind]
        limit = ctx.get(key)
        return f"{words} {limit:g}" if isinstance(limit, int | float) else f"{words} {limit}"
    simple = {
        "missing": "is not set",
        "float_parsing": "not a number",
        "float_type": "not a number",
        "int_parsing": "not a whole number",
        "int_from_float": "not a whole number",
        "int_type": "not a whole number",
        "bool_parsing": "not true or false",
        "bool_type": "not true or false",
    }
    if kind in simple:
        return simple[kind]
    if kind == "literal_error":
        return f"must be one of {ctx.get('expected', '?')}"
    if kind == "string_pattern_mismatch":
        return _PATTERNS.get(field, "not in the form .env.example shows")
    if kind == "value_error" and "error" in ctx:
        return str(ctx["error"])
    return str(problem["msg"])


def _is_nan(value: object) -> bool:
    """Whether a setting's raw value is NaN ("nan", as text or a float)."""
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    return number != number


def unknown_settings(
    environ: Mapping[str, str] | None = None, env_file: Path | None = None
) -> list[str]:
    """The ``SHANGHAI_*`` names of the environment and ``env_file`` (default: the settings'
    ``.env``) that no setting reads, sorted, each with the known name it is closest to."""
    environ = os.environ if environ is None else environ
    if env_file is None:
        env_file = Path(str(Settings.model_config.get("env_file") or ".env"))
    known = {name for names in variable_names().values() for name in names}
    found: dict[str, str] = {}
    for name in _dotenv_names(env_file):
        found[name.upper()] = "in .env"
    for name in environ:
        found[name.upper()] = ""  # the environment's wins over .env, as in the settings
    lines = []
    for name, where in sorted(found.items()):
        if not name.startswith(PREFIX) or name in known or name in NOT_SETTINGS:
            continue
        close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.75)
        notes = [where] if where else []
        if close:
            notes.append(f"did you mean {close[0]}?")
        lines.append(f"{name} ({'; '.join(notes)})" if notes else name)
    return lines


def _dotenv_names(env_file: Path) -> list[str]:
    """The names a ``.env`` file assigns (python-dotenv, as the settings read it)."""
    if not env_file.is_file():
        return []
    from dotenv import dotenv_values

    try:
        return list(dotenv_values(env_file, encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return []
