"""Melds, going down, laying off, swapping and going out: S7-S17, S34-S47, E12-E30."""

from __future__ import annotations

import pytest

from engine import (
    Card,
    ContractNotMet,
    Discard,
    HandSizeRule,
    IllegalAction,
    IllegalMeld,
    LayOff,
    LayOffItem,
    Meld,
    Rules,
    Swap,
    SwapJoker,
    parse_action,
)
from engine.events import WentOut

from .positions import hand, position

STANDARD = Rules.preset("standard")
P004 = Rules.preset("preset_004")


def check(text: str, rules: Rules = STANDARD) -> None:
    Meld.parse(text).check(rules)


@pytest.mark.parametrize(
    "text",
    [
        "set: 8H 8H 8S",  # S7: duplicates from several decks
        "set: 8H 8S 8C 8D 8H 8S",
        "run: 3H 4H 5H 6H",
        "run: 3H JK=4H 5H 6H",
        "run: AH 2H 3H 4H",  # S4 ace low
        "run: JH QH KH AH",  # S4 ace high
        "run: AS 2S 3S 4S 5S 6S 7S 8S 9S 10S",  # E20
        "run: 5S 6S 7S 8S 9S 10S JS QS KS AS",  # E20
        "set: 8H 8S JK=8C",
    ],
)
def test_valid_melds(text: str) -> None:
    check(text)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("set: 8H 8S", "at least 3"),
        ("run: 3H 4H 5H", "at least 4"),
        ("run: 3H 4H 6H 7H", "consecutive"),
        ("run: 3H 4H 5S 6H", "mixes suits"),
        ("set: 8H 8S 9C", "mixes ranks"),
        ("run: QH KH AH 2H", "consecutive"),  # E23 / S4: no wrap
        ("set: JK=8H JK=8S JK=8C", "natural"),  # S9
        ("set: 8H JK=8S JK=8C", "wild"),  # majority: 2 wilds of 3
        ("run: 3H JK=4H JK=5H 6H", "wild"),
        ("set: 8H 8S JK", "identity"),
    ],
)
def test_invalid_melds(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        check(text)


def test_s13_parity_allows_half_wilds() -> None:
    parity = STANDARD.with_options(joker_limit="parity")
    check("set: 8H 8S JK=8C JK=8D", parity)  # 8-8-Jk-Jk legal under parity
    with pytest.raises(IllegalMeld):
        check("set: 8H JK=8S JK=8C", parity)  # 8-Jk-Jk is not
    with pytest.raises(IllegalMeld):
        check("set: 8H 8S JK=8C JK=8D", STANDARD)


def test_s6_deuce_is_natural_at_its_own_rank_and_suit() -> None:
    wild2 = STANDARD.with_options(deuces_wild=True)
    check("run: AH 2H 3H 4H", wild2)  # natural 2H
    check("set: 2H 2S 2C", wild2)  # a set of 2s is all natural
    check("run: 3H 2C=4H 5H 6H", wild2)  # a wild 2
    with pytest.raises(IllegalMeld, match="not wild"):
        check("run: 3H 2C=4H 5H 6H", STANDARD)
    assert Meld.parse("run: 3H 2C=4H 5H 6H").wild_count(wild2) == 1
    assert Meld.parse("run: AH 2H 3H 4H").wild_count(wild2) == 0


def test_s5_e21_e22_run_of_fourteen_only_with_both_ends() -> None:
    text = "run: AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
    both = STANDARD.with_options(run_ace_both_ends=True)
    check(text, both)
    with pytest.raises(IllegalMeld, match="both ends"):
        check(text, STANDARD)


def test_meld_prints_and_parses_back() -> None:
    for text in ("run: JK=10H JH QH KH AH", "set: 8H 8S JK=8C", "run: AH 2H 3H 4H"):
        assert str(Meld.parse(text)) == text


# -- going down -------------------------------------------------------------------------------


def play_position(rules: Rules = STANDARD, **kw: object):  # type: ignore[no-untyped-def]
    return position(rules=rules, step="play", current=1, discarder=0, pile="4D", **kw)  # type: ignore[arg-type]


def test_s34_go_down_deal_1_and_then_discard() -> None:
    game = play_position(hands={1: "8H 8S 8C 9H 9S 9C 5D KD"})
    game.apply("p1", parse_action("down set: 8H 8S 8C | set: 9H 9S 9C"))
    assert game.down[1] and len(game.melds) == 2 and hand(game, 1) == "5D KD"
    game.apply("p1", Discard(Card.parse("KD")))
    assert game.current == 2


def test_e25_engine_checks_the_players_split() -> None:
    game = play_position(deal=2, hands={1: "8H 8S 8C 5H 6H 7H 9D"})
    with pytest.raises(IllegalAction, match="don't hold enough 8"):
        game.apply("p1", parse_action("down set: 8H 8S 8C | run: 5H 6H 7H 8H"))


def test_s15_wrong_number_of_melds_e28_extra_melds() -> None:
    game = play_position(hands={1: "8H 8S 8C 9H 9S 9C 5D 5S 5C KD"})
    with pytest.raises(ContractNotMet, match="2 sets of 3"):
        game.apply("p1", parse_action("down set: 8H 8S 8C | set: 9H 9S 9C | set: 5D 5S 5C"))
    with pytest.raises(ContractNotMet):
        game.apply("p1", parse_action("down set: 8H 8S 8C"))


def test_e28_oversized_melds_minimum_vs_exact() -> None:
    hands = {1: "8H 8S 8C 8D 9H 9S 9C 5D KD"}
    down = parse_action("down set: 8H 8S 8C 8D | set: 9H 9S 9C")
    play_position(hands=hands).apply("p1", down)
    exact = STANDARD.with_options(contract_meld_size="exact")
    with pytest.raises(ContractNotMet, match="exactly 3"):
        play_position(exact, hands=hands).apply("p1", down)


def test_e26_separated_same_suit_runs() -> None:
    hands = {1: "3H 4H 5H 6H 7H 8H 9H 10H JH KD"}
    touching = parse_action("down run: 3H 4H 5H 6H | run: 7H 8H 9H 10H")
    with pytest.raises(ContractNotMet, match="gap"):
        play_position(deal=3, hands=hands).apply("p1", touching)
    gap = parse_action("down run: 3H 4H 5H 6H | run: 8H 9H 10H JH")
    play_position(deal=3, hands=hands).apply("p1", gap)
    loose = STANDARD.with_options(same_suit_runs="unrestricted")
    play_position(loose, deal=3, hands=hands).apply("p1", touching)


def test_e27_two_sets_of_the_same_rank() -> None:
    hands = {1: "8H 8S 8C 8D 8H 8S 5D KD"}
    twice = parse_action("down set: 8H 8S 8C | set: 8D 8H 8S")
    with pytest.raises(ContractNotMet, match="different ranks"):
        play_position(hands=hands).apply("p1", twice)
    play_position(STANDARD.with_options(same_rank_sets=True), hands=hands).apply("p1", twice)


def test_s35_cards_must_be_in_hand_and_failure_changes_nothing() -> None:
    game = play_position(hands={1: "8H 8S 9H 9S 9C 5D KD JK"})
    before = game.to_json()
    with pytest.raises(IllegalAction, match="don't hold"):
        game.apply("p1", parse_action("down set: 8H 8S 8C | set: 9H 9S 9C"))
    assert game.to_json() == before


def test_e12_zero_cards_after_going_down() -> None:
    hands = {1: "8H 8S 8C 9H 9S 9C"}
    down = parse_action("down set: 8H 8S 8C | set: 9H 9S 9C")
    game = play_position(hands=hands)
    events = game.apply("p1", down)
    assert WentOut(1, True) in events and game.score_sheet[0][1] == -50
    required = STANDARD.with_options(final_discard="required")
    with pytest.raises(HandSizeRule, match="keep one card"):
        play_position(required, hands=hands).apply("p1", down)


def test_e13_forbidden_one_card_left_is_illegal() -> None:
    game = play_position(P004, hands={1: "8H 8S 8C 9H 9S 9C 5D"})
    with pytest.raises(HandSizeRule, match="exactly one card"):
        game.apply("p1", parse_action("down set: 8H 8S 8C | set: 9H 9S 9C"))


def test_s45_forbidden_may_not_discard_last_card() -> None:
    game = play_position(P004, hands={1: "5D"}, down=(1,))
    with pytest.raises(HandSizeRule, match="not go out by discarding"):
        game.apply("p1", Discard(Card.parse("5D")))


# -- laying off -------------------------------------------------------------------------------


def test_s37_no_lay_off_on_going_down_turn_by_default() -> None:
    game = play_position(hands={1: "8H 8S 8C 9H 9S 9C 8D 5D KD"})
    game.apply("p1", parse_action("down set: 8H 8S 8C | set: 9H 9S 9C"))
    with pytest.raises(IllegalAction, match="turn you go down"):
        game.apply("p1", LayOff((LayOffItem(Card.parse("8D"), 0),)))
    same_turn = STANDARD.with_options(layoff_on_going_down_turn=True)
    game = play_position(same_turn, hands={1: "8H 8S 8C 9H 9S 9C 8D 5D KD"})
    game.apply("p1", parse_action("down set: 8H 8S 8C | set: 9H 9S 9C"))
    game.apply("p1", LayOff((LayOffItem(Card.parse("8D"), 0),)))
    assert len(game.melds[0].meld) == 4


def test_s38_not_down_may_not_lay_off() -> None:
    game = play_position(hands={1: "8D 5D"}, melds=[(2, "set: 8H 8S 8C")])
    with pytest.raises(IllegalAction, match="after you have gone down"):
        game.apply("p1", LayOff((LayOffItem(Card.parse("8D"), 0),)))


@pytest.mark.parametrize(
    ("typed", "reads"),
    [
        ("run: 4H 3H 5H 6H", "run: 3H 4H 5H 6H"),
        ("run: AH KH QH JH", "run: JH QH KH AH"),
        ("run: 3H AH 2H 4H", "run: AH 2H 3H 4H"),
        ("run: 7S JK=5S 6S JK=8S", "run: JK=5S 6S 7S JK=8S"),
        ("run: KH 2H AH QH 3H", "run: KH 2H AH QH 3H"),  # no reading makes it a run
    ],
)
def test_runs_may_be_typed_in_any_order(typed: str, reads: str) -> None:
    assert str(Meld.parse(typed)) == reads


def test_run_with_two_aces_typed_in_any_order_under_both_ends() -> None:
    rules = STANDARD.with_options(run_ace_both_ends=True)
    meld = Meld.parse("run: AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")
    meld.check(rules)
    shuffled = Meld.parse("run: KH AH 5H 2H 3H 4H AH 6H 7H 8H 9H 10H JH QH")
    assert shuffled == meld


def test_go_down_with_a_run_typed_out_of_order() -> None:
    game = play_position(hands={1: "8H 8S 8C 4H 3H 5H 6H KD"}, deal=2)
    game.apply("p1", parse_action("down set: 8H 8S 8C | run: 4H 3H 5H 6H"))
    assert str(game.melds[1].meld) == "run: 3H 4H 5H 6H"


def test_s12_s41_the_engine_places_a_card_when_only_one_end_can_take_it() -> None:
    game = play_position(
        hands={1: "JK 6H 9D KD"},
        down=(1,),
        melds=[(2, "run: JH QH KH AH"), (2, "run: AH 2H 3H 4H 5H")],
    )
    game.apply("p1", parse_action("layoff JK>0"))  # only the 10H end is open
    assert str(game.melds[0].meld) == "run: JK=10H JH QH KH AH"
    game.apply("p1", parse_action("layoff 6H>1"))  # a natural: only the high end
    assert str(game.melds[1].meld) == "run: AH 2H 3H 4H 5H 6H"
    with pytest.raises(IllegalMeld, match="does not fit"):
        game.apply("p1", parse_action("layoff 9D>1"))


def test_s39_lay_off_batch_extends_runs_repeatedly() -> None:
    game = play_position(hands={1: "9H 10H 2C KD"}, down=(1,), melds=[(1, "run: 5H 6H 7H 8H")])
    game.apply("p1", parse_action("layoff 9H>0:high, 10H>0:high"))
    assert str(game.melds[0].meld) == "run: 5H 6H 7H 8H 9H 10H"


def test_s41_batch_is_all_or_none() -> None:
    game = play_position(hands={1: "9H QH 2C KD"}, down=(1,), melds=[(1, "run: 5H 6H 7H 8H")])
    before = game.to_json()
    with pytest.raises(IllegalMeld):
        game.apply("p1", parse_action("layoff 9H>0:high, QH>0:high"))
    assert game.to_json() == before


def test_e15_laying_off_a_wild_needs_its_place_and_respects_the_limit() -> None:
    game = play_position(
        hands={1: "JK JK 2C KD"},
        down=(1,),
        melds=[(1, "run: 5H JK=6H 7H 8H"), (2, "set: 8H 8S JK=8C")],
    )
    with pytest.raises(IllegalMeld, match="which end"):
        game.apply("p1", LayOff((LayOffItem(Card.parse("JK"), 0),)))
    game.apply("p1", LayOff((LayOffItem(Card.parse("JK"), 0, "high"),)))
    assert str(game.melds[0].meld) == "run: 5H JK=6H 7H 8H JK=9H"
    with pytest.raises(IllegalMeld):  # 8-8-Jk + Jk: 2 wilds, 2 naturals
        game.apply("p1", LayOff((LayOffItem(Card.parse("JK"), 1, None, "D"),)))


def test_e16_playing_the_jokers_card_is_a_swap_not_an_extension() -> None:
    game = play_position(hands={1: "4H 3H 8H KD"}, down=(1,), melds=[(2, "run: JK=4H 5H 6H 7H")])
    with pytest.raises(IllegalMeld):
        game.apply("p1", LayOff((LayOffItem(Card.parse("4H"), 0, "low"),)))
    game.apply("p1", parse_action("layoff 3H>0:low, 8H>0:high"))
    assert str(game.melds[0].meld) == "run: 3H JK=4H 5H 6H 7H 8H"


def test_e23_wrap_lay_offs_are_rejected() -> None:
    game = play_position(
        hands={1: "2H KH 5D"},
        down=(1,),
        melds=[(2, "run: JH QH KH AH"), (2, "run: AH 2H 3H 4H")],
    )
    with pytest.raises(IllegalMeld):
        game.apply("p1", parse_action("layoff 2H>0:high"))
    with pytest.raises(IllegalMeld):
        game.apply("p1", parse_action("layoff KH>1:low"))


def test_e24_player_names_the_meld() -> None:
    game = play_position(
        hands={1: "8D 9D"}, down=(1,), melds=[(2, "set: 8H 8S 8C"), (2, "set: 8H 8S 8C")]
    )
    game.apply("p1", parse_action("layoff 8D>1"))
    assert len(game.melds[1].meld) == 4 and len(game.melds[0].meld) == 3


# -- swaps ----------------------------------------------------------------------------------


def test_s42_swap_frees_the_joker() -> None:
    game = play_position(hands={1: "6H 5D"}, down=(1,), melds=[(2, "run: 5H JK=6H 7H 8H")])
    game.apply("p1", SwapJoker(Swap(Card.parse("6H"), 0, 1)))
    assert str(game.melds[0].meld) == "run: 5H 6H 7H 8H" and hand(game, 1) == "5D JK"


def test_e17_set_joker_swap_needs_the_declared_suit() -> None:
    melds = [(2, "set: 8H 8S JK=8C")]
    game = play_position(hands={1: "8D 8C 5D"}, down=(1,), melds=melds)
    with pytest.raises(IllegalAction, match="8C"):
        game.apply("p1", SwapJoker(Swap(Card.parse("8D"), 0, 2)))
    game.apply("p1", SwapJoker(Swap(Card.parse("8C"), 0, 2)))
    rank_only = STANDARD.with_options(joker_identity="rank_only")
    game = play_position(rank_only, hands={1: "8D 5D"}, down=(1,), melds=[(2, "set: 8H 8S JK=8")])
    game.apply("p1", SwapJoker(Swap(Card.parse("8D"), 0, 2)))
    assert "JK" in hand(game, 1)


def test_e18_swap_by_a_player_not_down() -> None:
    melds = [(2, "run: 5H JK=6H 7H 8H")]
    game = play_position(hands={1: "6H 5D"}, melds=melds)
    with pytest.raises(IllegalAction, match="after you have gone down"):
        game.apply("p1", SwapJoker(Swap(Card.parse("6H"), 0, 1)))
    anyone = STANDARD.with_options(joker_swap="anyone_then_go_down")
    game = play_position(anyone, hands={1: "6H 8S 8C 9H 9S 9C KD"}, melds=melds)
    with pytest.raises(IllegalAction, match="part of going down"):
        game.apply("p1", SwapJoker(Swap(Card.parse("6H"), 0, 1)))
    # Inside a go-down the swap happens first, and the freed joker may be used.
    game.apply("p1", parse_action("down set: 8S 8C JK=8H | set: 9H 9S 9C with 6H>0@1"))
    assert game.down[1] and str(game.melds[0].meld) == "run: 5H 6H 7H 8H"
    # A failing contract undoes the swaps too.
    game = play_position(anyone, hands={1: "6H 8S 8C 9H 9S KD"}, melds=melds)
    before = game.to_json()
    with pytest.raises(IllegalAction):
        game.apply("p1", parse_action("down set: 8S 8C JK=8H | set: 9H 9S KD with 6H>0@1"))
    assert game.to_json() == before


def test_e19_no_swap_on_the_turn_of_going_down() -> None:
    game = play_position(hands={1: "8H 8S 8C 9H 9S 9C 6H KD"}, melds=[(2, "run: 5H JK=6H 7H 8H")])
    game.apply("p1", parse_action("down set: 8H 8S 8C | set: 9H 9S 9C"))
    with pytest.raises(IllegalAction, match="turn you go down"):
        game.apply("p1", SwapJoker(Swap(Card.parse("6H"), 0, 1)))


def test_s43_natural_deuce_cannot_be_swapped() -> None:
    wild2 = STANDARD.with_options(deuces_wild=True)
    game = play_position(wild2, hands={1: "2H 5D"}, down=(1,), melds=[(2, "run: AH 2H 3H 4H")])
    with pytest.raises(IllegalAction, match="not a wild"):
        game.apply("p1", SwapJoker(Swap(Card.parse("2H"), 0, 1)))


# -- going out -------------------------------------------------------------------------------


def test_e30_discarding_a_wild_or_a_fitting_card_is_legal() -> None:
    game = play_position(hands={1: "JK 8D 5C"}, down=(1,), melds=[(2, "set: 8H 8S 8C")])
    game.apply("p1", Discard(Card.parse("8D")))
    assert game.pile[-1] == Card.parse("8D")


def test_s47_go_down_and_discard_the_last_card_is_a_blind_out() -> None:
    game = play_position(hands={1: "8H 8S 8C 9H 9S 9C 5D"})
    game.apply("p1", parse_action("down set: 8H 8S 8C | set: 9H 9S 9C"))
    events = game.apply("p1", Discard(Card.parse("5D")))
    assert WentOut(1, True) in events


def test_s46_deal_ends_when_a_hand_empties_by_lay_off() -> None:
    game = play_position(hands={1: "9H"}, down=(1,), melds=[(1, "run: 5H 6H 7H 8H")])
    events = game.apply("p1", parse_action("layoff 9H>0:high"))
    assert WentOut(1, False) in events and game.deal == 2
    required = STANDARD.with_options(final_discard="required")
    game = play_position(required, hands={1: "9H"}, down=(1,), melds=[(1, "run: 5H 6H 7H 8H")])
    with pytest.raises(HandSizeRule):
        game.apply("p1", parse_action("layoff 9H>0:high"))
