"""The hand analysis behind hints and the computer players: deficiency, needed cards, the
lay-down and the discard advice, on hand-made hands and against the exact solver."""

from __future__ import annotations

import random

import pytest

from engine import Card, Rules, parse_cards
from engine.cards import make_pack
from engine.contracts import check_contract
from engine.players.hints import deficiency, hint, plan_contract, rummy_melds, suggest_discard
from engine.solver import find_contract

STANDARD = Rules.preset("standard")
P004 = Rules.preset("preset_004")
P000 = Rules.preset("preset_000")
RUMMY = Rules.preset("rummy")


def needed_text(hand: str, deal: int, rules: Rules = STANDARD) -> list[str]:
    return [str(n) for n in hint(parse_cards(hand), deal, rules).needed]


def test_lay_down_offered_when_the_contract_is_in_hand() -> None:
    hand = parse_cards("8H 8S 8C 9H 9S JK KD 3C 4D 5S 6H QH")
    advice = hint(hand, 1, STANDARD)
    assert advice.lay_down is not None
    check_contract(advice.lay_down, STANDARD.contract_for(1), STANDARD)
    assert advice.needed == ()
    assert advice.discard is not None and advice.discard not in parse_cards("8H 8S 8C 9H 9S JK")
    assert "Lay down now" in str(advice)


def test_no_lay_down_without_the_contract() -> None:
    advice = hint(parse_cards("8H 8S 9H 9S KD 3C 4D 5S 6H QH 2C"), 1, STANDARD)
    assert advice.lay_down is None
    assert advice.cards_needed == 2


def test_two_pairs_need_one_card_each() -> None:
    assert needed_text("8H 8S 9H 9S KD 3C 4D 5S 6H QH 2C", 1) == [
        "any 8 or a joker",
        "any 9 or a joker",
    ]


def test_a_joker_in_hand_counts() -> None:
    assert len(needed_text("8H 8S 9H 9S JK KD 3C 4D 5S 6H QH", 1)) == 1


def test_set_joker_limit_one_wild_in_a_set_of_three() -> None:
    # A lone natural with two jokers is not a set under majority (S13): one more natural.
    (need,) = hint(parse_cards("8H JK JK 9H 9S 9C 3C 4D 5S 6H QH"), 1, STANDARD).needed
    assert len({c.rank for c in need.options}) == 1 and need.wild_ok
    # Under ``none`` a single natural carries two wilds.
    loose = STANDARD.with_options(joker_limit="none")
    assert needed_text("8H JK JK 9H 9S 9C 3C 4D 5S 6H QH", 1, loose) == []


def test_run_gap_names_the_exact_card() -> None:
    assert needed_text("5H 6H 8H 9C 9D 9S 2C 4D KS QS JC", 2) == ["7♥ or a joker"]


def test_set_and_run_each_missing_one() -> None:
    assert sorted(needed_text("5H 6H 8H 9C 9D KD 2C 4D KS QS JC", 2)) == [
        "7♥ or a joker",
        "any 9 or a joker",
    ]


def test_two_runs_of_four() -> None:
    (need,) = hint(parse_cards("3H 4H 5H 6H 8S 9S 10S 2C 2D KD QC"), 3, STANDARD).needed
    assert {c for c in need.options} <= set(parse_cards("7S JS"))


def test_two_runs_in_one_suit_must_leave_a_gap() -> None:
    # 3-6H and 7-10H touch (S16): 3-6H and 8-JH need the JH.
    assert needed_text("3H 4H 5H 6H 8H 9H 10H 2C 5D KD QC", 3) == ["J♥ or a joker"]


def test_a_longer_run_carries_two_jokers() -> None:
    # 4C JK 6C JK 8C is a run of five with two wilds (S13 majority), so only the set is short.
    assert needed_text("4C 6C 8C JK JK 10C 10S 3D 7H KD QS", 2) == ["any 10 or a joker"]


def test_deal_8_run_of_ten() -> None:
    plan = plan_contract(
        parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S KH KD 5C"), STANDARD.contract_for(8), STANDARD
    )
    assert plan.deficiency == 2  # the 10S and a king
    assert sorted(str(n) for n in plan.needed) == ["10♠ or a joker", "any K or a joker"]


def test_deuces_wild_and_natural_set_of_twos() -> None:
    # Three sets: the 2s must play as a natural set of 2s (S6), not as wilds.
    hand = "2C 2D 2H 5C 5D 5S 9S 9H 9C 7D JH"
    assert deficiency(parse_cards(hand), P004.contract_for(4), P004) == 0
    assert hint(parse_cards(hand), 4, P004).lay_down is not None


def test_exact_meld_size_plans_no_stretched_run() -> None:
    hand = parse_cards("4C 6C 8C JK JK 10C 10S 10D 7H KD QS")
    assert deficiency(hand, STANDARD.contract_for(2), STANDARD) == 0
    assert deficiency(hand, P000.contract_for(2), P000) == 1


@pytest.mark.parametrize("deal", [1, 2, 3, 4, 6])
def test_deficiency_agrees_with_the_solver(deal: int) -> None:
    """Zero exactly when ``find_contract`` finds an arrangement; and when one card is
    missing, the card the hint names really completes the contract."""
    rng = random.Random(deal)
    pack = make_pack(2, 4)
    contract = STANDARD.contract_for(deal)
    checked_one = 0
    for _ in range(150):
        hand = rng.sample(pack, 12 + deal // 2)
        plan = plan_contract(hand, contract, STANDARD)
        solvable = find_contract(hand, deal, STANDARD, cards_left_rule=False) is not None
        assert (plan.deficiency == 0) == solvable, hand
        if plan.deficiency == 1:
            (need,) = plan.needed
            for card in need.options:
                assert find_contract([*hand, card], deal, STANDARD, cards_left_rule=False)
            checked_one += 1
    assert checked_one >= 3


def test_plan_spare_and_slot_cards_partition_the_hand() -> None:
    hand = parse_cards("3H 4H 5H 6H 8S 9S JK QS KD 2C 2D")
    plan = plan_contract(hand, STANDARD.contract_for(3), STANDARD)
    used = [c for slot in plan.slots for c in slot.cards]
    assert sorted([*used, *plan.spare], key=Card.sort_key) == sorted(hand, key=Card.sort_key)


def test_suggested_discard_keeps_pairs_and_wilds() -> None:
    hand = parse_cards("8H 8S 9H 9S JK KD 3C 4D 6H QH 2C 5S")
    card, reason = suggest_discard(hand, STANDARD.contract_for(1), STANDARD)
    assert card in parse_cards("2C KD QH")  # lone and costly; 2C scores 20
    assert card == Card.parse("2C")
    assert reason


def test_after_laying_down_the_discard_is_unplayable_and_costly() -> None:
    hand = parse_cards("8H 8S 8C 9H 9S 9C KD 3C")
    advice = hint(hand, 1, STANDARD)
    assert advice.discard == Card.parse("KD")
    assert advice.reason.code == "cannot_lay_off" and advice.reason.after_lay_down
    assert advice.reason.params == {"points": 10}
    assert str(advice.reason) == "after laying down, it cannot be laid off and costs 10 points"


def test_going_out_by_laying_down() -> None:
    advice = hint(parse_cards("8H 8S 8C 9H 9S 9C"), 1, STANDARD)
    assert advice.lay_down is not None and advice.discard is None


def test_rummy_hint_lays_melds_and_names_completing_cards() -> None:
    hand = parse_cards("5H 6H 7H KS KD KC QC 9D 10D")
    advice = hint(hand, 1, RUMMY)
    assert advice.lay_down is not None
    laid = {c for meld in advice.lay_down for c in meld.plain_cards}
    assert laid == set(parse_cards("5H 6H 7H KS KD KC"))
    needed = {c for n in advice.needed for c in n.options}
    assert needed == set(parse_cards("8D JD"))
    assert advice.discard == Card.parse("QC")


def test_rummy_melds_are_disjoint_valid_and_leave_the_fewest_points() -> None:
    hand = parse_cards("9H 10H JH QH KH KS KD 4C")
    melds = rummy_melds(hand, RUMMY)
    laid = [c for meld in melds for c in meld.plain_cards]
    assert len(laid) == len(set(laid))
    for meld in melds:
        meld.check(RUMMY)
    # KH serves either the run or the kings; both ways leave only the 4C.
    assert set(hand) - set(laid) == {Card.parse("4C")}
