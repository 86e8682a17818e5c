"""D3 / D3a: how many buys a player needs before going down is even legal.

P holds 12 + b(1 + p) cards at the moment of going down (b buys, p penalty cards). Each case
builds a hand that holds exactly the contract's cards plus filler and asks ``find_contract``
(which applies the going-out rule of S45) whether a go-down exists.
"""

from __future__ import annotations

import pytest

from engine import Rules, find_contract, parse_cards

# Hands that meet each contract with its minimum number of cards (list_000).
CONTRACT_CARDS = {
    6: "8H 8S 8C 9H 9S 9C 3D 4D 5D 6D 7D",  # 2 sets + run of 5
    7: "3H 4H 5H 6H 3S 4S 5S 6S 3C 4C 5C 6C",  # 3 runs of 4
    8: "KH KS KC 3D 4D 5D 6D 7D 8D 9D 10D JD QD",  # set + run of 10
    9: "8H 8S 8C 9H 9S 9C 10H 10S 10C 3D 4D 5D 6D 7D",  # 3 sets + run of 5
    10: "3H 4H 5H 6H 7H 3S 4S 5S 6S 7S 3C 4C 5C 6C 7C",  # 3 runs of 5
}
UNHELPFUL = "KD QC JS 9D 10H 4S"  # cards that extend none of the melds above


def can_go_down(deal: int, holding: int, rules: Rules, extra: str = UNHELPFUL) -> bool:
    cards = parse_cards(CONTRACT_CARDS[deal]) + parse_cards(extra)
    hand = cards[:holding]
    return find_contract(hand, deal, rules) is not None


def held(buys: int, penalty: int) -> int:
    return 12 + buys * (1 + penalty)


STANDARD = Rules.preset("standard")
P000 = Rules.preset("preset_000")
P004 = Rules.preset("preset_004")


@pytest.mark.parametrize(("deal", "buys"), [(6, 0), (7, 0), (8, 1), (9, 1), (10, 2)])
def test_standard_fewest_buys(deal: int, buys: int) -> None:
    assert can_go_down(deal, held(buys, 1), STANDARD)
    if buys:
        assert not can_go_down(deal, held(buys - 1, 1), STANDARD)


@pytest.mark.parametrize(("deal", "buys"), [(6, 0), (7, 1), (8, 1), (9, 2), (10, 2)])
def test_preset_000_fewest_buys(deal: int, buys: int) -> None:
    """Exact sizes and a required final discard: the contract alone is never enough."""
    assert can_go_down(deal, held(buys, 1), P000)
    if buys:
        assert not can_go_down(deal, held(buys - 1, 1), P000)


def test_standard_deal_7_and_9_go_out_at_once() -> None:
    for deal, holding in ((7, 12), (9, 14)):
        melds = find_contract(parse_cards(CONTRACT_CARDS[deal]), deal, STANDARD)
        assert melds is not None and sum(len(m) for m in melds) == holding


def test_preset_004_deal_6_depends_on_the_twelfth_card() -> None:
    """Forbidden final discard: exactly one card left is illegal (S45)."""
    rules = P004.with_options(contract_list="list_000")  # the D3 row uses the 11-card contract
    assert can_go_down(6, 12, rules, extra="8D")  # the 12th card joins a set
    assert not can_go_down(6, 12, rules, extra="KD")


def test_preset_004_deal_10_one_buy_goes_out_at_once() -> None:
    # 1 buy with 2 penalty cards: 15 cards, exactly the contract, emptied by melding.
    assert can_go_down(10, held(1, 2), P004)
    assert not can_go_down(10, held(0, 2), P004)


def test_d3a_two_player_in_turn_buys() -> None:
    """Each in-turn buy replaces the draw: 12 + b*p cards; deal 10 needs b = 3."""
    assert 12 + 3 * 1 == 15
    assert can_go_down(10, 12 + 3 * 1, STANDARD)
    assert not can_go_down(10, 12 + 2 * 1, STANDARD)
