"""The custom ids of the private hand's controls: the verbs a button or a select may carry,
and the templates that read the table, the state tag and the sort order back from a click.

    sh:h:<table>:<tag>:<s|r>:<verb>              buttons
    sh:hs:<table>:<tag>:<s|r>:<verb>[:<page>]    selects (discard, lay off, place, swap, meld)

A verb that is not listed here never matches, so a forged custom id reaches no handler.
"""

from __future__ import annotations

BUTTON_VERBS = (
    "draw",
    "take",
    "buyin",
    "down",
    "downok",
    "downedit",
    "layoff",
    "swap",
    "sort",
    "refresh",
    "back",
    "hint",
    "layall",
    "leave",
    "leaveok",
    "opts",
    "bask",
    "bhelp",
    "bnever",
    "buy",
    "pass",
    "unbuy",
)
SELECT_VERBS = (
    "discard",
    "layoff",
    "swap",
    "meld",
    "place",
    "laybatch",
    "finish",
    "downpick",
    "takethrow",
    "laystart",
)

_PREFIX = r"(?P<table>[0-9]{1,19}):(?P<tag>[0-9a-f]{8}):(?P<sort>[sr]):"
HAND_BUTTON_TEMPLATE = r"sh:h:" + _PREFIX + r"(?P<verb>" + "|".join(BUTTON_VERBS) + r")"
HAND_SELECT_TEMPLATE = (
    r"sh:hs:"
    + _PREFIX
    + r"(?P<verb>"
    + "|".join(SELECT_VERBS)
    + r")(?::(?P<arg>[0-9A-Za-z]{1,4}))?"
)
