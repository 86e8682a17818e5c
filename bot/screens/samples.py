"""Sample inputs for the renderers: built by hand from plain engine values (no game needed).

Used by the tests, the benchmark (``python -m tools.bench_render``) and for previewing pictures.
"""

from __future__ import annotations

from engine.cards import Card, parse_cards
from engine.melds import Meld
from engine.rules import Rules
from engine.view import PlayerView, SeatView, TableMeld

NAMES: tuple[str, ...] = (
    "Alice",
    "Bartholomew the Magnificent",
    "Chloé",
    "Dmitri",
    "Eun-ji",
    "Farah",
    "Gus",
    "Hiroshi",
)

#: A 15-card hand (after a couple of buys), with two jokers.
HAND_15: tuple[Card, ...] = tuple(parse_cards("3H 4H 5H JK 9S 9C 9D KD 2C AS 10S QH 7D 7D JK"))

#: Ten deals of scores for eight players (0 marks the player who went out).
SHEET_8x10: tuple[tuple[int, ...], ...] = (
    (0, 45, 30, 85, 20, 65, 15, 110),
    (35, 0, 60, 25, 90, 10, 55, 40),
    (20, 75, 0, 50, 35, 80, 120, 5),
    (60, 30, 45, 0, 70, 25, 40, 95),
    (15, 95, 20, 65, 0, 50, 30, 70),
    (80, 10, 55, 35, 45, 0, 85, 20),
    (40, 60, 75, 15, 25, 105, 0, 50),
    (25, 40, 10, 90, 60, 30, 45, 0),
    (0, 85, 35, 20, 55, 70, 15, 60),
    (50, 20, 65, 45, 0, 40, 90, 30),
)


def _melds(*texts: str) -> tuple[Meld, ...]:
    return tuple(Meld.parse(text) for text in texts)


def table_view(players: int = 8, *, seat: int | None = 0) -> PlayerView:
    """A mid-game table in deal 5 (1 set of 3 + 1 run of 7): several seats down, wilds out."""
    rules = Rules()
    deal = 5
    laid: list[tuple[int, Meld]] = []
    meld_texts: dict[int, tuple[str, ...]] = {
        0: ("set: 9S 9C JK=9H", "run: 3H 4H 5H 6H JK=7H 8H 9H"),
        2: ("set: KD KS KC KH", "run: 5C 6C 7C JK=8C 9C 10C JC QC"),
        3: ("set: 4D 4S JK=4C", "run: 8S 9S 10S JS QS KS AS"),
        5: ("set: QH QD QS", "run: AD 2D 3D 4D JK=5D 6D 7D"),
        6: ("set: 7C 7S 7H 7D JK=7C", "run: 2S 3S 4S 5S 6S 7S 8S 9S"),
    }
    for owner, texts in meld_texts.items():
        if owner < players:
            laid.extend((owner, meld) for meld in _melds(*texts))
    down = {owner for owner, _ in laid}
    hand_sizes = (4, 13, 2, 6, 11, 3, 1, 15)
    buys = (1, 3, 0, 2, 3, 1, 0, 2)
    totals = tuple(sum(row[i] for row in SHEET_8x10[: deal - 1]) for i in range(8))
    seats = tuple(
        SeatView(NAMES[i], hand_sizes[i], i in down, buys[i], totals[i]) for i in range(players)
    )
    sheet = tuple(row[:players] for row in SHEET_8x10[: deal - 1])
    return PlayerView(
        player=None if seat is None else NAMES[seat],
        seat=seat,
        rules=rules,
        deal=deal,
        contract=rules.contract_for(deal),
        dealer=3 % players,
        current=1 % players,
        step="play",
        hand=None if seat is None else HAND_15[: hand_sizes[seat]],
        seats=seats,
        melds=tuple(TableMeld(owner, meld) for owner, meld in laid),
        upcard=Card.parse("QH"),
        upcard_live=True,
        discarder=0,
        stock_size=48,
        discard_size=17,
        buy_limit=rules.buy_limit_for(deal),
        my_buy_requested=False,
        taken_upcard=None,
        went_down_this_turn=False,
        score_sheet=sheet,
        is_over=False,
        winners=(),
        restocks=0,
    )
