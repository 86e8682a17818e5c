"""The table service and its collaborators (see ``tables.py`` for the tour)."""

from data.errors import TableExists

from .computers import choose_auto_action
from .live import REMOVED, ActResult, Change, Listener, Listeners, LiveTable, rules_for
from .snapshot import Changed, SeatSnapshot, seat_tag
from .tables import TableService

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
