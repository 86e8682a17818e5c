"""The Hint button's advice in the reader's language.

The engine's ``Hint`` (``engine/players/hints.py``) is language-free: cards, melds, a
contract and a ``DiscardReason`` code with its numbers. Every word here comes from the
catalogue's ``hint.*`` keys, so a Dutch or Spanish player reads no English advice.
"""

from __future__ import annotations

from bot.i18n import Language, t
from bot.i18n.terms import contract_text
from bot.screens.card_words import card_text, meld_text
from engine.cards import rank_text
from engine.players.hints import DiscardReason, Hint, NeededCard
from engine.rules import Rules


def needed_card_text(need: NeededCard, rules: Rules, language: Language) -> str:
    """``8♥``, ``any 8`` or ``9♠, 10♠``, with ``or a joker`` when a wild would do."""
    if len(need.options) == 1:
        text = card_text(need.options[0])
    elif len({card.rank for card in need.options}) == 1:
        text = t("hint.any_rank", language, rank=rank_text(need.options[0].rank))
    else:
        text = ", ".join(card_text(card) for card in need.options)
    if not need.wild_ok:
        return text
    wild = t("hint.wild.joker_or_two" if rules.deuces_wild else "hint.wild.joker", language)
    return t("hint.or_wild", language, cards=text, wild=wild)


def reason_text(reason: DiscardReason, language: Language) -> str:
    """The reason alone (``it cannot be laid off and costs 10 points``); ``points`` chooses
    the plural form."""
    points = reason.params.get("points")
    key = f"hint.reason.{reason.code}"
    text = t(key, language, count=points) if isinstance(points, int) else t(key, language)
    return t("hint.expert_agrees", language, reason=text) if reason.expert_agrees else text


def hint_text(advice: Hint, rules: Rules, language: Language) -> str:
    """The advice's lines: the lay-down or what is still needed, then the discard and why."""
    lines: list[str] = []
    needed = "; ".join(needed_card_text(n, rules, language) for n in advice.needed)
    if advice.lay_down:
        melds = " | ".join(meld_text(meld, language) for meld in advice.lay_down)
        lines.append(t("hint.lay_down", language, melds=melds))
    elif advice.contract:
        goal = contract_text(advice.contract, language)
        if not advice.needed:
            lines.append(t("hint.holding", language, contract=goal))
        else:
            count = len(advice.needed)
            lines.append(t("hint.needed", language, count=count, contract=goal, cards=needed))
    elif advice.needed:
        lines.append(t("hint.would_complete", language, cards=needed))
    if advice.discard is not None:
        key = "hint.discard_after_down" if advice.reason.after_lay_down else "hint.discard"
        why = reason_text(advice.reason, language)
        lines.append(t(key, language, card=card_text(advice.discard), reason=why))
    elif advice.reason.code == "go_out":
        lines.append(reason_text(advice.reason, language))
    return "\n".join(lines)
