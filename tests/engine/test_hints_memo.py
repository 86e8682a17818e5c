"""The hint memo is bounded and keeps what was used last (issue 16.9): a long-running bot with
many tables must not grow it to hundreds of megabytes, nor lose every answer at once."""

from __future__ import annotations

import pytest

from engine.cards import Card
from engine.players import hints
from engine.rules import Rules


def hand(text: str) -> list[Card]:
    return [Card.parse(card) for card in text.split()]


HANDS = [
    hand("3H 4H 5H 8S 8C 9D 10D JD QS KS AC"),
    hand("2C 2D 7H 7S 9C 10C JC QC KD KH AD"),
    hand("3S 3D 5C 6C 7C 8H 8D 9S JH QH AS"),
    hand("4C 4S 6D 6H 9H 10H JS QD KC AH 2H"),
    hand("5S 5D 7D 8C 9C 10S JD QC KS AC 3C"),
]


def test_the_memo_is_a_bounded_lru(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Rules.preset("standard")
    contract = rules.contract_for(1)
    monkeypatch.setattr(hints, "_MEMO", type(hints._MEMO)())
    monkeypatch.setattr(hints, "_CACHE_LIMIT", 3)
    first = hints.hand_key(HANDS[0])
    for cards in (HANDS[0], HANDS[1], HANDS[2], HANDS[0], HANDS[3], HANDS[4]):
        hints.deficiency(cards, contract, rules)
    keys = [key[0] for key in hints._MEMO]
    assert len(keys) == 3
    assert first in keys  # used again recently, so it was kept
    assert hints.hand_key(HANDS[1]) not in keys  # the least recently used went first


def test_the_production_bound_is_about_twenty_thousand_entries() -> None:
    assert 10_000 <= hints._CACHE_LIMIT <= 20_000
