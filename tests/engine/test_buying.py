"""The upcard and buying: S26-S33, E1-E9, E31-E34, D4, D6."""

from __future__ import annotations

import pytest

from engine import (
    BuyInTurn,
    BuyRefused,
    CancelBuy,
    Card,
    Discard,
    DrawStock,
    Game,
    IllegalAction,
    NotYourTurn,
    RequestBuy,
    Rules,
    TakeUpcard,
)
from engine.events import BuyAwarded, Restocked, UpcardDead

from .positions import cards, hand, position

STANDARD = Rules.preset("standard")


def buy(game, seat: int) -> None:  # type: ignore[no-untyped-def]
    game.apply(f"p{seat}", RequestBuy())


def test_s27_buyer_gets_upcard_and_penalty_card_then_p_draws() -> None:
    game = position(pile="4C 7H", stock="2S 3S 5S", current=1, discarder=0)
    before = len(game.hands[2])
    buy(game, 2)
    events = game.apply("p1", DrawStock())
    assert BuyAwarded(2, Card.parse("7H"), 1) in events
    assert len(game.hands[2]) == before + 2
    assert Card.parse("7H") in game.hands[2] and Card.parse("5S") in game.hands[2]
    assert Card.parse("3S") in game.hands[1]
    assert game.buys_used[2] == 1 and game.step == "play"


def test_s27_two_penalty_cards_under_preset_004_option() -> None:
    game = position(
        rules=STANDARD.with_options(buy_penalty_cards=2), pile="7H", stock="2S 3S 5S 6S"
    )
    before = len(game.hands[3])
    buy(game, 3)
    game.apply("p1", DrawStock())
    assert len(game.hands[3]) == before + 3


def test_s28_p_taking_the_upcard_beats_every_request_and_uses_no_buy() -> None:
    game = position(pile="7H", current=1, discarder=0)
    buy(game, 2)
    buy(game, 3)
    game.apply("p1", TakeUpcard())
    assert Card.parse("7H") in game.hands[1]
    assert game.buys_used == [0, 0, 0, 0]


def test_e2_e3_requests_after_the_draw_are_refused() -> None:
    game = position(pile="7H", current=1, discarder=0)
    game.apply("p1", TakeUpcard())
    with pytest.raises(BuyRefused, match="buy window is closed"):
        buy(game, 2)
    game = position(pile="7H", current=1, discarder=0)
    game.apply("p1", DrawStock())
    with pytest.raises(BuyRefused, match="closed"):
        buy(game, 2)
    assert game.buys_used == [0, 0, 0, 0]


def test_d4_priority_next_in_turn_and_dealer_left() -> None:
    # 5 players, dealer 0, D = 2, P = 3; seats 1 and 4 ask.
    for priority, winner in (("next_in_turn", 4), ("dealer_left", 1)):
        rules = STANDARD.with_options(buy_priority=priority)
        game = position(5, rules, pile="9C 7H", current=3, discarder=2, dealer=0)
        assert game.buy_priority() == ([4, 0, 1] if priority == "next_in_turn" else [1, 4, 0])
        buy(game, 1)
        buy(game, 4)
        events = game.apply("p3", DrawStock())
        assert [e.player for e in events if isinstance(e, BuyAwarded)] == [winner]


def test_s29_priority_does_not_depend_on_click_order() -> None:
    outcomes = set()
    for order in ([2, 3, 0], [0, 3, 2], [3, 0, 2]):
        game = position(5, pile="9C 7H", current=1, discarder=4)
        for seat in order:
            buy(game, seat)
        events = game.apply("p1", DrawStock())
        outcomes.add(next(e.player for e in events if isinstance(e, BuyAwarded)))
    assert outcomes == {2}


def test_s29_first_upcard_every_seat_but_p_may_buy() -> None:
    game = position(4, pile="7H", current=1, discarder=None)
    assert game.buy_priority() == [2, 3, 0]


def test_e4_limit_reached_passes_to_next_requester() -> None:
    game = position(pile="7H", current=1, discarder=0, buys_used={2: 3})
    with pytest.raises(BuyRefused, match="used your 3 buys"):
        buy(game, 2)
    buy(game, 3)
    events = game.apply("p1", DrawStock())
    assert [e.player for e in events if isinstance(e, BuyAwarded)] == [3]


def test_e5_discarder_cannot_buy_own_discard() -> None:
    game = position(pile="7H", current=1, discarder=0)
    with pytest.raises(BuyRefused, match="your own discard"):
        buy(game, 0)


def test_e6_down_player_may_not_buy_by_default() -> None:
    game = position(pile="7H", current=1, discarder=0, down=(2,))
    with pytest.raises(BuyRefused, match="down"):
        buy(game, 2)
    game = position(
        rules=STANDARD.with_options(down_player_may_buy=True),
        pile="7H",
        current=1,
        discarder=0,
        down=(2,),
    )
    buy(game, 2)
    assert game.buy_requests == [2]


def test_e6_down_p_may_take_the_upcard() -> None:
    game = position(pile="7H", current=1, discarder=0, down=(1,), step="draw")
    game.apply("p1", TakeUpcard())
    assert Card.parse("7H") in game.hands[1]


def test_in_turn_player_is_told_to_take() -> None:
    game = position(pile="7H", current=1, discarder=0)
    with pytest.raises(BuyRefused, match="your turn: take"):
        buy(game, 1)


def test_e7_everyone_passes_upcard_goes_dead_for_good() -> None:
    game = position(pile="7H", current=1, discarder=0, hands={1: "3C 4C 5C 9D 9S"})
    events = game.apply("p1", DrawStock())
    assert UpcardDead(Card.parse("7H")) in events
    game.apply("p1", Discard(Card.parse("9D")))
    # The next player may take the new discard, never the dead 7H below it.
    game.apply("p2", TakeUpcard())
    assert Card.parse("9D") in game.hands[2] and game.pile[-1] == Card.parse("7H")
    assert not game.upcard_live


def test_e8_card_under_a_bought_upcard_is_dead() -> None:
    game = position(pile="8S 7H", current=1, discarder=0)
    buy(game, 2)
    game.apply("p1", DrawStock())
    assert game.pile[-1] == Card.parse("8S") and not game.upcard_live
    with pytest.raises(IllegalAction):
        game.apply("p1", TakeUpcard())


def test_e1_buy_with_one_stock_card_rebuilds_for_p() -> None:
    game = position(pile="XC 7H".replace("XC", "8C"), stock="9S", current=1, discarder=0)
    buy(game, 2)
    events = game.apply("p1", DrawStock())
    assert any(isinstance(e, BuyAwarded) for e in events)
    assert any(isinstance(e, Restocked) for e in events)
    assert Card.parse("7H") in game.hands[2] and Card.parse("9S") in game.hands[2]
    assert Card.parse("8C") in game.hands[1]
    assert game.stock == [] and game.pile == [] and game.restocks == 1


def test_e1_s31_buy_refused_when_supply_short() -> None:
    game = position(pile="7H", stock="9S", current=1, discarder=0)
    assert RequestBuy() not in game.legal_actions("p2")
    with pytest.raises(BuyRefused, match="Too few cards"):
        buy(game, 2)  # refused with a reason, never recorded and silently dropped
    assert game.buy_requests == []
    events = game.apply("p1", DrawStock())
    assert UpcardDead(Card.parse("7H")) in events
    assert game.buys_used[2] == 0


def test_s31_pile_counts_only_while_a_restock_is_allowed() -> None:
    game = position(pile="8C 7H", stock="9S", current=1, discarder=0, restocks=3)
    assert RequestBuy() not in game.legal_actions("p2")
    with pytest.raises(BuyRefused, match="Too few cards"):
        buy(game, 2)
    unlimited = position(
        rules=STANDARD.with_options(max_restocks=None),
        pile="8C 7H",
        stock="9S",
        current=1,
        discarder=0,
        restocks=3,
    )
    assert RequestBuy() in unlimited.legal_actions("p2")


def test_s49_no_buy_offered_when_p_is_forced_to_take() -> None:
    game = position(pile="8C 7H", stock="", current=1, discarder=0, restocks=3)
    assert game.legal_actions("p1") == [TakeUpcard()]
    for seat in (2, 3):
        assert game.legal_actions(f"p{seat}") == []
        with pytest.raises(BuyRefused):
            buy(game, seat)


def test_every_offered_buy_is_awarded_when_p_draws() -> None:
    game = position(pile="8C 7H", stock="9S", current=1, discarder=0)
    assert RequestBuy() in game.legal_actions("p2")
    buy(game, 2)
    events = game.apply("p1", DrawStock())
    assert BuyAwarded(2, Card.parse("7H"), 1) in events


def test_view_names_the_owner_of_the_card_left_on_top_after_a_buy() -> None:
    game = position(pile="8S", current=1, discarder=None, hands={1: "3C 4C 5C 9D 9S"})
    game.apply("p1", DrawStock())  # the first upcard 8S goes dead: nobody discarded it
    game.apply("p1", Discard(Card.parse("9D")))
    assert game.view("p0").discarder == 1
    game.apply("p2", DrawStock())
    game.apply("p2", Discard(game.hands[2][0]))
    assert game.view("p0").discarder == 2
    buy(game, 0)
    game.apply("p3", DrawStock())  # p0 buys p2's discard: 9D (p1's) is on top again
    view = game.view("p0")
    assert view.upcard == Card.parse("9D") and view.discarder == 1 and not view.upcard_live
    game.apply("p3", Discard(game.hands[3][0]))
    buy(game, 1)
    game.apply("p0", DrawStock())  # p1 buys p3's discard
    game.apply("p0", Discard(game.hands[0][0]))
    buy(game, 2)
    game.apply("p1", DrawStock())  # p2 buys p0's discard: 9D on top again, still p1's
    assert game.view(None).discarder == 1
    restored = type(game).from_json(game.to_json())
    assert restored.view(None).discarder == 1


def test_e9_empty_stock_declined_upcard_is_shuffled_in() -> None:
    game = position(pile="8C 7H", stock="", current=1, discarder=0)
    events = game.apply("p1", DrawStock())
    assert any(isinstance(e, Restocked) for e in events)
    assert game.restocks == 1 and game.pile == []
    assert len(game.stock) == 1  # two cards rebuilt, one drawn by P


def test_e10_dead_stock_p_must_take_live_upcard() -> None:
    game = position(pile="8C 7H", stock="", current=1, discarder=0, restocks=3)
    assert game.legal_actions("p1") == [TakeUpcard()]
    with pytest.raises(IllegalAction, match="take the upcard"):
        game.apply("p1", DrawStock())


def test_preset_000_reshuffles_without_limit() -> None:
    rules = Rules.preset("preset_000")
    game = position(rules=rules, pile="8C 7H", stock="", current=1, discarder=0, restocks=40)
    assert DrawStock() in game.legal_actions("p1")
    events = game.apply("p1", DrawStock())
    assert any(isinstance(e, Restocked) for e in events) and game.restocks == 41


def test_e11_dead_stock_exhausts_after_a_lap() -> None:
    game = position(3, pile="8C 7H", stock="", current=1, discarder=0, restocks=3)
    deal = game.deal
    for _ in range(10):
        if game.deal != deal:
            break
        player = game.current_player
        game.apply(player, TakeUpcard())
        game.apply(player, Discard(game.hands[game.current][0]))
    assert game.deal == deal + 1
    assert len(game.score_sheet) == 1 and min(game.score_sheet[0]) > 0  # S49 score_all


def test_s28_exception_down_p_cannot_block_under_preset_004_option() -> None:
    rules = STANDARD.with_options(down_player_blocks_buy=False)
    game = position(rules=rules, pile="7H", current=1, discarder=0, down=(1,), hands={1: "3C 4C"})
    buy(game, 2)
    events = game.apply("p1", TakeUpcard())
    assert [e.player for e in events if isinstance(e, BuyAwarded)] == [2]
    assert Card.parse("7H") not in game.hands[1] and game.step == "play"


def test_cancel_buy_withdraws_request() -> None:
    game = position(pile="7H", current=1, discarder=0)
    buy(game, 2)
    game.apply("p2", CancelBuy())
    events = game.apply("p1", DrawStock())
    assert not any(isinstance(e, BuyAwarded) for e in events)
    with pytest.raises(BuyRefused):
        game.apply("p2", CancelBuy())


def test_d6_fourth_buy_refused_in_deal_8_accepted_in_deal_9() -> None:
    game = position(pile="7H", current=1, discarder=0, deal=8, buys_used={2: 3})
    with pytest.raises(BuyRefused, match="3 buys"):
        buy(game, 2)
    game = position(pile="7H", current=1, discarder=0, deal=9, buys_used={2: 3})
    buy(game, 2)
    game.apply("p1", DrawStock())
    assert game.buys_used[2] == 4


def test_d6_buys_reset_every_deal() -> None:
    game = position(pile="7H", current=1, discarder=0, buys_used={2: 3})
    game._exhaust()
    assert game.buys_used == [0, 0, 0, 0]


def test_e31_first_upcard_joker_may_be_bought() -> None:
    game = position(pile="JK", current=1, discarder=None)
    buy(game, 0)
    game.apply("p1", DrawStock())
    assert Card.parse("JK") in game.hands[0]


def test_e32_buying_keeps_turn_order_and_buyer_still_draws() -> None:
    game = position(pile="7H", current=1, discarder=0, hands={1: "3C 9D"})
    buy(game, 3)
    game.apply("p1", DrawStock())
    game.apply("p1", Discard(Card.parse("9D")))
    assert game.current == 2  # not the buyer
    with pytest.raises(NotYourTurn):
        game.apply("p3", DrawStock())


def test_e33_two_players_buy_in_turn() -> None:
    game = position(2, pile="8C 7H", stock="2S 3S 4S", current=1, discarder=0)
    with pytest.raises(BuyRefused, match="two players"):
        buy(game, 0)
    assert BuyInTurn() in game.legal_actions("p1")
    before = len(game.hands[1])
    game.apply("p1", BuyInTurn())
    assert len(game.hands[1]) == before + 2 and game.buys_used[1] == 1
    none = position(
        2, STANDARD.with_options(two_player_buy="none"), pile="7H", current=1, discarder=0
    )
    assert BuyInTurn() not in none.legal_actions("p1")


def test_s21_two_player_first_upcard_is_not_bought_out_of_turn() -> None:
    game = Game.new(["a", "b"], STANDARD, seed=3)
    other = game.players[1 - game.current]
    assert game.discarder is None and game.buy_window_open
    assert game.legal_actions(other) == []
    with pytest.raises(BuyRefused, match="two players"):
        game.apply(other, RequestBuy())
    assert BuyInTurn() in game.legal_actions(game.current_player)


def test_e34_going_out_discard_opens_no_window() -> None:
    game = position(pile="7H", current=1, discarder=0, step="play", hands={1: "9D"}, down=(1,))
    game.apply("p1", Discard(Card.parse("9D")))
    assert game.deal == 2 and not any(r for r in game.buy_requests)


def test_illegal_buy_changes_nothing() -> None:
    game = position(pile="7H", current=1, discarder=0)
    before = game.to_json()
    with pytest.raises(BuyRefused):
        buy(game, 0)
    assert game.to_json() == before
    assert hand(game, 0) == hand(position(pile="7H", current=1, discarder=0), 0)
    assert cards("7H") == "7H"
