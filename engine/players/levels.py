"""The computer players by level name: what a table's seat or a simulation asks for.

A registry of its own, beside the strategies, because the expert builds on the normal player
(``expert.py`` imports ``strategy.py``): naming every level in ``strategy.py`` would make the
two import each other.
"""

from __future__ import annotations

from collections.abc import Callable

from .expert import ClassicExpertStrategy, ExpertStrategy
from .search_expert import SearchExpertStrategy
from .strategy import EasyStrategy, NormalStrategy, RandomStrategy, Strategy

STRATEGIES: dict[str, Callable[[], Strategy]] = {
    "random": RandomStrategy,
    "easy": EasyStrategy,
    "normal": NormalStrategy,
    "expert": ExpertStrategy,
    "searcher": SearchExpertStrategy,
    "expert-classic": ClassicExpertStrategy,
}


def make_strategy(name: str) -> Strategy:
    """A fresh strategy of level ``name`` ('random', 'easy', 'normal', 'expert', or for
    screens 'searcher' and 'expert-classic'); raises ``ValueError`` listing the levels for
    any other name.
    """
    try:
        return STRATEGIES[name.strip().lower()]()
    except KeyError:
        levels = ", ".join(STRATEGIES)
        raise ValueError(f"Unknown strategy {name!r}; choose one of: {levels}") from None
