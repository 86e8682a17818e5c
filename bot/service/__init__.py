"""The table service and its collaborators (see ``tables.py`` for the tour)."""

from bot.service.computers import choose_auto_action
from bot.service.live import REMOVED, ActResult, Change, Listener, Listeners, LiveTable, rules_for
from bot.service.snapshot import Changed, SeatSnapshot, seat_tag
from bot.service.tables import TableService
from data.errors import TableExists

__all__ = [
    "REMOVED",
    "ActResult",
    "Change",
    "Changed",
    "Listener",
    "Listeners",
    "LiveTable",
    "SeatSnapshot",
    "TableExists",
    "TableService",
    "choose_auto_action",
    "rules_for",
    "seat_tag",
]
