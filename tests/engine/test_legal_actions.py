"""``legal_actions`` offers every play the rules allow (issue 11): the go-down bundled with
the lay-off of the card left over (S37, E13), chained lay-off batches (S39, S41), go-downs
with joker swaps (S42), and the same play whichever order a run is typed in."""

from __future__ import annotations

from engine import Card, GoDown, LayOff, LayOffItem, Rules, Swap, find_contract, parse_action
from engine.events import DealEnded, WentOut

from .positions import hand, position

STANDARD = Rules.preset("standard")
P004 = Rules.preset("preset_004")


def play_position(rules: Rules = P004, **kw: object):  # type: ignore[no-untyped-def]
    return position(rules=rules, step="play", current=1, discarder=0, pile="4D", **kw)  # type: ignore[arg-type]


def test_s37_e13_go_down_and_lay_off_the_last_card_is_offered_as_one_play() -> None:
    # D3, preset_004 deal 6 (1 set of 3 + 2 runs of 4 = 11 cards): the 12th card fits only
    # a meld already on the table, so going down alone would leave one card (forbidden).
    game = play_position(
        deal=6,
        hands={1: "8H 8S 8C 3H 4H 5H 6H 9D 10D JD QD KS"},
        melds=[(2, "set: KH KD KC")],
        down=(2,),
    )
    alone = parse_action("down set: 8H 8S 8C | run: 3H 4H 5H 6H | run: 9D 10D JD QD")
    assert not game.is_legal("p1", alone)
    bundles = [a for a in game.legal_actions("p1") if isinstance(a, GoDown) and a.layoffs]
    assert bundles and all(a.layoffs == (LayOffItem(Card.parse("KS"), 0),) for a in bundles)
    events = game.apply("p1", bundles[0])
    assert any(isinstance(e, WentOut) for e in events)
    assert any(isinstance(e, DealEnded) for e in events)


def test_bundled_lay_off_may_go_onto_a_meld_laid_in_the_same_play() -> None:
    game = play_position(deal=6, hands={1: "8H 8S 8C 3H 4H 5H 6H 9D 10D JD QD 8D QS KS"})
    typed = parse_action("down set: 8H 8S 8C | run: 3H 4H 5H 6H | run: 9D 10D JD QD then 8D>0")
    assert game.is_legal("p1", typed)
    game.apply("p1", typed)
    assert str(game.melds[0].meld) == "set: 8H 8S 8C 8D" and hand(game, 1) == "KS QS"
    assert game.melds[0].laid_off == ((1, Card.parse("8D")),)


def test_bundles_need_the_same_turn_lay_off_option() -> None:
    rules = STANDARD.with_options(final_discard="forbidden")
    game = play_position(
        rules,
        deal=6,
        hands={1: "8H 8S 8C 3H 4H 5H 6H 9D 10D JD QD KS"},
        melds=[(2, "set: KH KD KC")],
        down=(2,),
    )
    assert not [a for a in game.legal_actions("p1") if isinstance(a, GoDown)]
    typed = parse_action("down set: 8H 8S 8C | run: 3H 4H 5H 6H | run: 9D 10D JD QD then KS>0")
    assert not game.is_legal("p1", typed)


def test_s39_chained_going_out_batch_is_offered() -> None:
    game = play_position(hands={1: "10H 9H"}, down=(1,), melds=[(2, "run: 5H 6H 7H 8H")])
    offered = [a for a in game.legal_actions("p1") if isinstance(a, LayOff)]
    chain = LayOff(
        (LayOffItem(Card.parse("9H"), 0, "high"), LayOffItem(Card.parse("10H"), 0, "high"))
    )
    assert chain in offered
    for action in offered:
        assert len(action.items) == 2  # one card alone would leave exactly one (E13)
    game.apply("p1", chain)
    assert game.deal == 2


def test_s42_go_down_with_a_swap_is_offered_under_anyone_then_go_down() -> None:
    game = play_position(
        hands={1: "9S 9C 4D 4C 4S 6H QD KH"}, melds=[(2, "run: 5H JK=6H 7H 8H")], down=(2,)
    )
    downs = [a for a in game.legal_actions("p1") if isinstance(a, GoDown)]
    assert downs and all(a.swaps == (Swap(Card.parse("6H"), 0, 1),) for a in downs)
    game.apply("p1", downs[0])
    assert str(game.melds[0].meld) == "run: 5H 6H 7H 8H" and hand(game, 1) == "KH QD"


def test_go_down_offered_first_is_the_solvers_plain_arrangement() -> None:
    game = play_position(STANDARD, hands={1: "8H 8S 8C 9H 9S 9C 5D KD"}, melds=[], down=())
    downs = [a for a in game.legal_actions("p1") if isinstance(a, GoDown)]
    assert downs[0] == GoDown(tuple(find_contract(game.hands[1], 1, STANDARD) or ()))


def test_bundle_whose_lay_off_makes_two_same_suit_runs_touch() -> None:
    # Deal 6 of list_004: 1 set + 2 runs. 7H may not join a run (S16: 3-6H and 8-JH would
    # touch), but laying it off afterwards is allowed ("later lay-offs may make runs touch").
    game = play_position(deal=6, hands={1: "8S 8C 8D 3H 4H 5H 6H 8H 9H 10H JH 7H"})
    bundles = [a for a in game.legal_actions("p1") if isinstance(a, GoDown) and a.layoffs]
    assert bundles and {a.layoffs[0].card for a in bundles} == {Card.parse("7H")}
    game.apply("p1", bundles[0])
    assert game.deal == 7


def test_s47_going_down_and_out_in_one_play_when_the_rest_can_be_laid_off() -> None:
    game = play_position(
        deal=1,
        hands={1: "8H 8S 8C 9H 9S 9C 3H 4H"},
        melds=[(2, "run: 5H 6H 7H 8H")],
        down=(2,),
    )
    downs = [a for a in game.legal_actions("p1") if isinstance(a, GoDown)]
    plain = [a for a in downs if not a.layoffs]
    out = [a for a in downs if a.layoffs]
    assert plain and out  # go down keeping 3H 4H, or go down and lay them off (4H, 3H)
    assert [str(i.card) for i in out[0].layoffs] == ["4H", "3H"]
    game.apply("p1", out[0])
    assert game.deal == 2


def test_check_raises_what_apply_would_and_changes_nothing() -> None:
    game = play_position(hands={1: "3H 4H 5H 9D"})
    before = game.to_json()
    game.check("p1", parse_action("discard 9D"))  # legal: nothing raised
    try:
        game.check("p2", parse_action("discard 9D"))
    except ValueError as error:
        refused = getattr(error, "code", None)
    else:
        raise AssertionError("a play out of turn was not refused")
    assert refused == "turn.not_yours" and game.to_json() == before


def test_the_stock_is_drawable_while_it_or_a_rebuild_can_give_a_card() -> None:
    from engine.actions import DrawStock

    assert position(stock="2S", pile="4D").stock_drawable
    assert position(stock="", pile="3C 4D").stock_drawable  # the pile rebuilds it
    spent = position(stock="", pile="3C 4D", restocks=STANDARD.max_restocks or 0)
    assert STANDARD.max_restocks == 3 and not spent.stock_drawable
    assert not spent.is_legal("p1", DrawStock())  # the live upcard must be taken instead
