"""A table's house rules in plain words (``/shanghai rules``, and the lobby's rules).

A relaxed table's timings are words of hours and minutes (``duration``), and its lines say what
its pace does instead of the live window: a standing buy order answers at once, and a turn that
runs out leads to the away rule of ``bot.service.pace``.
"""

from __future__ import annotations

from bot.i18n import DEFAULT_LANGUAGE, Language, duration, t
from bot.i18n.terms import contract_text
from bot.service.pace import RELAXED_AWAY_AFTER
from engine.rules import Rules


def rules_text(
    rules: Rules,
    *,
    buy_seconds: float,
    turn_seconds: float,
    relaxed: bool = False,
    language: Language = DEFAULT_LANGUAGE,
) -> str:
    """The house rules of a table in plain words. ``buy_seconds`` and ``turn_seconds`` are
    what the table's timers run (``restore.table_seconds``); ``relaxed`` words them for a
    relaxed table, whose timings run to hours."""
    if rules.game == "rummy":
        return rummy_rules_text(
            rules, turn_seconds=turn_seconds, relaxed=relaxed, language=language
        )
    contracts = [
        f"{deal}. {contract_text(rules.contract_for(deal), language)}"
        for deal in range(1, rules.num_deals + 1)
    ]
    decks, jokers = rules.pack_for(rules.players[1])
    limit = t(f"rules.wild_limit.{rules.joker_limit}", language)
    buying = t(
        "rules.buying_relaxed" if relaxed else "rules.buying",
        language,
        seconds=buy_seconds,
        wait=duration(buy_seconds, language),
        limit=t(f"rules.buy_limit.{rules.buy_limit}", language),
        count=rules.buy_penalty_cards,
        priority=t(f"rules.priority.{rules.buy_priority}", language),
    )
    if not rules.down_player_may_buy:
        buying += t("rules.down_cannot_buy", language)
    layoff = t(
        "rules.layoff_same_turn"
        if rules.layoff_on_going_down_turn
        else "rules.no_layoff_same_turn",
        language,
    )
    lines = [
        t("rules.players", language, low=rules.players[0], high=rules.players[1]),
        t("rules.deals", language, count=rules.num_deals),
        *contracts,
        "",  # a blank line ends the numbered list: what follows is not part of its last item
        t("rules.wilds_deuces" if rules.deuces_wild else "rules.wilds", language, limit=limit),
        buying,
        t(f"rules.{rules.contract_meld_size}", language, layoff=layoff),
        t(f"rules.joker_swap.{rules.joker_swap}", language),
        t(f"rules.final.{rules.final_discard}", language),
        t("rules.scoring_blind" if rules.blind_bonus else "rules.scoring", language),
        timer_text(turn_seconds, relaxed, language),
        t("rules.pack", language, decks=decks, jokers=jokers),
    ]
    return "\n".join(lines)


def timer_text(
    turn_seconds: float, relaxed: bool, language: Language, live: str = "rules.timer"
) -> str:
    """The turn's time limit, and what happens when it runs out: at a relaxed table the turn
    is played for the player and, after ``RELAXED_AWAY_AFTER`` such turns, so is their seat;
    at a live one the game's own line (``live``) says it."""
    if relaxed:
        turn = duration(turn_seconds, language)
        return t("rules.timer_relaxed", language, turn=turn, count=RELAXED_AWAY_AFTER)
    return t(live, language, seconds=turn_seconds)


def rummy_rules_text(
    rules: Rules,
    *,
    turn_seconds: float,
    relaxed: bool = False,
    language: Language = DEFAULT_LANGUAGE,
) -> str:
    """The house rules of a Rummy table in plain words."""
    aces = "rummy.aces_high_or_low" if rules.ace_mode == "high_or_low" else "rummy.aces_low"
    lines = [
        t("rummy.players", language, low=rules.players[0], high=rules.players[1]),
        t("rummy.turn", language),
        t(aces, language),
        t(f"rummy.final.{rules.final_discard}", language),
        t("rummy.scoring", language, target=rules.target_points),
        timer_text(turn_seconds, relaxed, language, live="rummy.timer"),
    ]
    return "\n".join(lines)
