"""The game's terms in words, shared by the text (``bot.screens.text``) and the pictures."""

from __future__ import annotations

from engine.rules import Contract

from .catalogue import DEFAULT_LANGUAGE, Language, t


def contract_text(contract: Contract, language: Language = DEFAULT_LANGUAGE) -> str:
    """``1 set of 3 + 1 run of 7`` in ``language``: the words players use for a contract."""
    parts: list[str] = []
    for kind in ("set", "run"):
        sizes = [size for k, size in contract if k == kind]
        if sizes:
            parts.append(t(f"contract.{kind}s", language, count=len(sizes), size=sizes[0]))
    return t("contract.join", language).join(parts)
