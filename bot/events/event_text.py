"""The event message: who signed up, then each round's tables, the standings and the winner.

Drawn whole from an ``EventView`` each time (the runner reads it from the store), so a
restart or a missed edit never leaves it out of date for longer than the next change.
"""

from __future__ import annotations

from bot.events.duplicate_round import number_text
from bot.events.runner import EventView
from bot.events.standings import points_text
from bot.i18n import Language, t

#: Discord's limit on a message's text, less room for safety.
TEXT_LIMIT = 1900


def event_text(view: EventView, language: Language) -> str:
    """The event message's text, cut to fit a message (the oldest rounds go first)."""
    event = view.event
    options = event.options
    rounds = int(options.get("rounds", 1))
    deals = options.get("deals")
    head = [
        t("event.header", language, name=event.name, organiser=event.organiser_id),
        t(
            "event.settings",
            language,
            preset=str(options.get("preset", "standard")),
            deals=deals if deals else t("event.all_deals", language),
            size=int(options.get("table_size", 4)),
            rounds=rounds,
        ),
    ]
    if options.get("final"):
        head.append(t("event.final", language))
    head.append(t("event.ranked" if options.get("ranked", True) else "event.casual", language))
    if options.get("duplicate"):
        head.append(t("event.duplicate", language))
    elif options.get("full_tables"):
        head.append(t("event.full_tables", language))
    head.append(_status(view, rounds, language))
    starts = options.get("starts_at")
    if event.status == "signup" and starts is not None:
        # Discord shows each reader the time in their own zone, and counts down the time left.
        when = int(starts)
        key = "event.start_waiting" if options.get("start_waiting") else "event.starts_at"
        head.append(t(key, language, full=f"<t:{when}:F>", left=f"<t:{when}:R>"))
    names = [view.names.get(p, str(p)) for p in view.names]
    head.append(
        t("event.signups", language, count=len(names), names=", ".join(names))
        if names
        else t("event.nobody", language)
    )
    body: list[str] = []
    for number in sorted({table.round for table in view.tables}):
        title = "event.final_round" if number > rounds else "event.round"
        lines = [t(title, language, round=number)]
        for table in (x for x in view.tables if x.round == number):
            where = "…" if table.channel_id is None else f"<#{table.channel_id}>"
            players = ", ".join(view.names.get(p, str(p)) for p in table.players)
            if table.computers:
                players += t("event.computers", language, count=table.computers)
            key = "event.table_over" if table.is_over else "event.table"
            lines.append(t(key, language, number=table.position + 1, where=where, players=players))
        body.append("\n".join(lines))
    if view.tables:
        standing_lines = [t("event.standings", language)]
        for standing in view.standings:
            average = standing.average
            line = t(
                "event.standing",
                language,
                rank=standing.rank,
                name=view.names.get(standing.player, str(standing.player)),
                points=points_text(standing.points),
                average="–" if average is None else f"{float(average):.0f}",
            )
            if standing.removed:
                line += " " + t("event.standing_removed", language)
            standing_lines.append(line)
        found = view.best
        if found is not None and found.average is not None:
            standing_lines.append(
                t(
                    "event.dup_best",
                    language,
                    round=view.best_round,
                    name=view.names.get(found.player, str(found.player)),
                    deal=found.deal,
                    score=found.score,
                    average=number_text(found.average),
                )
            )
        body.append("\n".join(standing_lines))
    if view.winners:
        winners = ", ".join(f"**{view.names.get(p, str(p))}**" for p in view.winners)
        key = "event.winner" if len(view.winners) == 1 else "event.winners"
        body.append(t(key, language, names=winners))
    text = "\n".join(head)
    while body and len(text + "\n\n" + "\n\n".join(body)) > TEXT_LIMIT:
        body.pop(0)
    return text + ("\n\n" + "\n\n".join(body) if body else "")


def _status(view: EventView, rounds: int, language: Language) -> str:
    event = view.event
    if event.status == "signup":
        return t("event.status.signup", language)
    if event.status == "cancelled":
        return t("event.status.cancelled", language)
    if event.status == "finished":
        return t("event.status.finished", language)
    if event.round > rounds:
        return t("event.status.final", language)
    return t("event.status.running", language, round=event.round, rounds=rounds)
