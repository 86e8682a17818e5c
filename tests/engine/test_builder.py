"""GoDownBuilder: any go-down built step by step, the engine judging each step (issue 11)."""

from __future__ import annotations

import pytest

from engine import (
    Card,
    CardNotInHand,
    ContractNotMet,
    HandSizeRule,
    IllegalAction,
    IllegalMeld,
    LayOffItem,
    Meld,
    NotYourTurn,
    Rules,
    Swap,
    WrongStep,
    parse_action,
    parse_cards,
)
from engine.builder import GoDownBuilder, meld_readings

from .positions import position

STANDARD = Rules.preset("standard")
P004 = Rules.preset("preset_004")


def play_position(rules: Rules = STANDARD, **kw: object):  # type: ignore[no-untyped-def]
    return position(rules=rules, step="play", current=1, discarder=0, pile="4D", **kw)  # type: ignore[arg-type]


def test_meld_readings_spell_out_every_wild_identity() -> None:
    sets = meld_readings(parse_cards("8H 8S JK"), "set", STANDARD)
    assert sorted(str(m) for m in sets) == [f"set: 8H 8S JK=8{s}" for s in "CDHS"]
    assert [str(m) for m in meld_readings(parse_cards("8H 8S JK"), "set", P004)] == [
        "set: 8H 8S JK=8"
    ]
    runs = {str(m) for m in meld_readings(parse_cards("7H JK 5H 6H"), "run", STANDARD)}
    assert runs == {"run: JK=4H 5H 6H 7H", "run: 5H 6H 7H JK=8H"}
    assert meld_readings(parse_cards("7H 5S 6H 8H"), "run", STANDARD) == []
    aces = {str(m) for m in meld_readings(parse_cards("AH KH QH JH"), "run", STANDARD)}
    assert aces == {"run: JH QH KH AH"}


def test_build_a_go_down_the_solver_would_not_propose() -> None:
    game = play_position(hands={1: "8H 8S 8C 8D 9H 9S 9C JK KD"})
    builder = GoDownBuilder.start(game, "p1")
    assert builder.open_slots() == [("set", 3), ("set", 3)]
    builder = builder.with_meld(Meld.parse("set: 8H 8S 8C 8D"))
    with pytest.raises(ContractNotMet, match="no set is left"):
        builder.with_meld(Meld.parse("set: 9H 9S 9C")).with_meld(Meld.parse("set: 9H 9S 9C"))
    with pytest.raises(CardNotInHand):
        builder.with_meld(Meld.parse("set: 8H 8S JK=8C"))
    builder = builder.with_meld(Meld.parse("set: 9H 9S 9C JK=9D"))
    assert builder.complete and builder.hand() == {Card.parse("KD"): 1}
    builder.check()
    game.apply("p1", builder.action())
    assert game.down[1] and str(game.melds[1].meld) == "set: 9H 9S 9C JK=9D"


def test_each_step_names_what_it_breaks_and_the_builder_is_unchanged() -> None:
    game = play_position(deal=3, hands={1: "3H 4H 5H 6H 7H 8H 9H 10H KD"})
    builder = GoDownBuilder.start(game, "p1")
    first = builder.with_meld(Meld.parse("run: 3H 4H 5H 6H"))
    with pytest.raises(ContractNotMet, match="gap"):  # S16: runs of one suit touch
        first.with_meld(Meld.parse("run: 7H 8H 9H 10H"))
    with pytest.raises(IllegalMeld):
        first.with_meld(Meld.parse("run: 7H 8H 10H 9H KD"))
    assert first.melds == (Meld.parse("run: 3H 4H 5H 6H"),)
    with pytest.raises(IllegalAction):  # no lay-off on the going-down turn here
        first.with_layoff(LayOffItem(Card.parse("7H"), 0, "high"))


def test_final_check_applies_the_going_out_rule() -> None:
    rules = STANDARD.with_options(final_discard="required")
    game = play_position(rules, hands={1: "8H 8S 8C 9H 9S 9C"})
    builder = GoDownBuilder.start(game, "p1")
    builder = builder.with_meld(Meld.parse("set: 8H 8S 8C")).with_meld(Meld.parse("set: 9H 9S 9C"))
    with pytest.raises(IllegalAction, match="discarding"):
        builder.check()


def test_swaps_first_then_melds_then_lay_offs_under_preset_004() -> None:
    game = play_position(
        P004,
        hands={1: "9S 9C 4D 4C 4S 6H 4H KS"},
        melds=[(2, "run: 5H JK=6H 7H 8H"), (2, "set: KH KD KC")],
        down=(2,),
    )
    builder = GoDownBuilder.start(game, "p1")
    assert builder.swap_options() == [Swap(Card.parse("6H"), 0, 1)]
    builder = builder.with_swap(Swap(Card.parse("6H"), 0, 1))
    assert builder.hand()[Card.parse("JK")] == 1
    builder = builder.with_meld(Meld.parse("set: 9S 9C JK=9"))
    with pytest.raises(WrongStep):
        builder.with_swap(Swap(Card.parse("6H"), 0, 1))
    builder = builder.with_meld(Meld.parse("set: 4D 4C 4S"))
    options = builder.layoff_options()
    assert LayOffItem(Card.parse("KS"), 1) in options
    assert LayOffItem(Card.parse("4H"), 0, "low") in options
    builder = builder.with_layoff(LayOffItem(Card.parse("KS"), 1))
    with pytest.raises(HandSizeRule):  # one card left under final_discard: forbidden
        builder.check()
    builder = builder.with_layoff(LayOffItem(Card.parse("4H"), 0, "low"))
    builder.check()
    game.apply("p1", builder.action())
    assert game.deal == 2  # went out


def test_start_refuses_whoever_cannot_go_down_now() -> None:
    game = play_position(hands={1: "8H 8S 8C 9H 9S 9C KD"})
    with pytest.raises(NotYourTurn):
        GoDownBuilder.start(game, "p2")
    drawn = position(current=1, discarder=0)
    with pytest.raises(WrongStep):
        GoDownBuilder.start(drawn, "p1")
    game.apply("p1", parse_action("down set: 8H 8S 8C | set: 9H 9S 9C"))
    with pytest.raises(IllegalAction, match="already down"):
        GoDownBuilder.start(game, "p1")
