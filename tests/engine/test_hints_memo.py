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


def test_each_tables_own_rules_object_is_not_kept_for_ever() -> None:
    """Every table restores its own (equal) ``Rules``: the analysis must not hold them all."""
    text = Rules.preset("standard").model_dump_json()
    contract = Rules.preset("standard").contract_for(1)
    for _ in range(2 * hints._RECENT_LIMIT + 50):
        rules = Rules.model_validate_json(text)  # a new object each time, as for a new table
        hints.deficiency_of_key(hints.hand_key(HANDS[0]), contract, rules)
    assert len(hints._RECENT) <= hints._RECENT_LIMIT
    assert len(hints._CANONICAL) <= 20  # distinct rule sets this test session saw, not tables


def test_a_reused_object_id_never_answers_with_another_rule_sets_memo() -> None:
    """Rule sets created and dropped in turn (ids get reused): with deuces wild the 2s in this
    hand are wilds, without they are not, and every answer must be the fresh one."""
    cards = hand("2C 2D 7H 7S 9C 10C JC QC KD KH AD")
    key = hints.hand_key(cards)
    base = Rules.preset("standard")
    contract = base.contract_for(1)
    expected = {
        wild: hints._search(key, contract, hints._Profile(base.with_options(deuces_wild=wild), 4))[
            :2
        ]
        for wild in (True, False)
    }
    assert expected[True] != expected[False]
    for turn in range(600):
        wild = turn % 3 == 0
        rules = base.with_options(deuces_wild=wild)
        assert hints.deficiency_of_key(key, contract, rules) == expected[wild]
        del rules
