"""Classic Rummy (RULES.md Part B) as another ruleset of the same engine: R1-R12, E29, D1, D5."""

from __future__ import annotations

import random

import pytest

from engine import (
    Card,
    Discard,
    DrawStock,
    Game,
    HandSizeRule,
    IllegalAction,
    IllegalMeld,
    LayMelds,
    Meld,
    RequestBuy,
    Rules,
    TakeUpcard,
    parse_action,
    parse_cards,
)
from engine.events import WentOut
from engine.players.random_play import play_random_game

from .positions import position

RUMMY = Rules.preset("rummy")


@pytest.mark.parametrize(
    ("players", "stock", "dealt"), [(2, 31, 10), (3, 30, 7), (4, 23, 7), (5, 21, 6), (6, 15, 6)]
)
def test_d1_r3_deal_sizes_and_stock(players: int, stock: int, dealt: int) -> None:
    game = Game.new([f"p{i}" for i in range(players)], RUMMY, seed=players)
    assert len(game.stock) == stock and all(len(h) == dealt for h in game.hands)
    assert not any(c.is_joker for h in game.hands for c in h)


def test_r1_player_range() -> None:
    with pytest.raises(ValueError, match="2 to 6"):
        Game.new([f"p{i}" for i in range(7)], RUMMY, seed=1)


def test_d5_r9_scores_to_the_winner_and_going_rummy_doubles() -> None:
    for ace_mode, plain in (("low", 18), ("high_or_low", 32)):
        rules = RUMMY.with_options(ace_mode=ace_mode)
        # Went rummy: nothing melded earlier in the deal, whole hand in one turn.
        game = position(
            3,
            rules,
            step="play",
            current=1,
            discarder=0,
            pile="4D",
            hands={0: "AS 7C", 1: "8H 8S 8C 5D", 2: "KD"},
        )
        events = game.apply("p1", parse_action("meld set: 8H 8S 8C"))
        assert not any(isinstance(e, WentOut) for e in events)
        game.apply("p1", Discard(Card.parse("5D")))
        assert game.score_sheet[-1] == [0, plain * 2, 0]
        # Not rummy: the player had melded on an earlier turn.
        game = position(
            3,
            rules,
            step="play",
            current=1,
            discarder=0,
            pile="4D",
            hands={0: "AS 7C", 1: "5D", 2: "KD"},
            down=(1,),
        )
        game.apply("p1", Discard(Card.parse("5D")))
        assert game.score_sheet[-1] == [0, plain, 0]


def test_r5_card_taken_from_the_pile_may_not_be_thrown_back() -> None:
    game = position(3, RUMMY, current=1, discarder=0, pile="4D 9S", hands={1: "3C 5H"})
    game.apply("p1", TakeUpcard())
    with pytest.raises(IllegalAction, match="discard another card"):
        game.apply("p1", Discard(Card.parse("9S")))
    assert Discard(Card.parse("9S")) not in game.legal_actions("p1")
    game.apply("p1", Discard(Card.parse("3C")))
    assert game.pile[-1] == Card.parse("3C")


def test_e29_may_not_keep_only_the_taken_card() -> None:
    game = position(3, RUMMY, current=1, discarder=0, pile="4D 9S", hands={1: "8H 8S 8C"})
    game.apply("p1", TakeUpcard())
    with pytest.raises(HandSizeRule, match="took from the discard pile"):
        game.apply("p1", parse_action("meld set: 8H 8S 8C"))


def test_r6_melds_groups_and_runs() -> None:
    Meld.parse("run: 3H 4H 5H").check(RUMMY)
    Meld.parse("set: 8H 8S 8C 8D").check(RUMMY)
    with pytest.raises(ValueError, match="at most 4"):
        Meld.parse("set: 8H 8S 8C 8D 8H").check(RUMMY)
    with pytest.raises(ValueError, match="Aces are low"):
        Meld.parse("run: QH KH AH").check(RUMMY)
    Meld.parse("run: QH KH AH").check(RUMMY.with_options(ace_mode="high_or_low"))
    Meld.parse("run: AH 2H 3H").check(RUMMY.with_options(ace_mode="high_or_low"))


def test_r7_anyone_may_lay_off_without_melding_first() -> None:
    game = position(
        3,
        RUMMY,
        step="play",
        current=1,
        discarder=0,
        pile="4D",
        hands={1: "9H KD QC"},
        melds=[(2, "run: 6H 7H 8H")],
    )
    game.apply("p1", parse_action("layoff 9H>0:high"))
    assert str(game.melds[0].meld) == "run: 6H 7H 8H 9H"
    strict = RUMMY.with_options(layoff_requires_own_meld=True)
    game = position(
        3,
        strict,
        step="play",
        current=1,
        discarder=0,
        pile="4D",
        hands={1: "9H KD QC"},
        melds=[(2, "run: 6H 7H 8H")],
    )
    with pytest.raises(IllegalAction, match="meld of your own"):
        game.apply("p1", parse_action("layoff 9H>0:high"))


def test_r7_who_laid_off_each_card_is_kept_in_state_and_view() -> None:
    game = position(
        3,
        RUMMY,
        step="play",
        current=1,
        discarder=0,
        pile="4D",
        hands={1: "9H 5H KD QC"},
        melds=[(2, "run: 6H 7H 8H")],
    )
    game.apply("p1", parse_action("layoff 9H>0:high, 5H>0:low"))
    laid = [(seat, str(card)) for seat, card in game.melds[0].laid_off]
    assert laid == [(1, "9H"), (1, "5H")] and game.melds[0].owner == 2
    restored = Game.from_json(game.to_json())
    assert restored.melds == game.melds
    assert game.view("p0").melds[0].laid_off == game.melds[0].laid_off
    assert restored.view(None).melds[0].laid_off == game.melds[0].laid_off


def test_r4_any_number_of_melds_in_a_turn() -> None:
    game = position(
        3,
        RUMMY,
        step="play",
        current=1,
        discarder=0,
        pile="4D",
        hands={1: "8H 8S 8C 3D 4D 5D KC QC"},
    )
    game.apply("p1", LayMelds((Meld.parse("set: 8H 8S 8C"), Meld.parse("run: 3D 4D 5D"))))
    assert len(game.melds) == 2 and len(game.hands[1]) == 2


def test_r8_required_final_discard() -> None:
    rules = RUMMY.with_options(final_discard="required")
    game = position(3, rules, step="play", current=1, discarder=0, pile="4D", hands={1: "8H 8S 8C"})
    with pytest.raises(HandSizeRule):
        game.apply("p1", parse_action("meld set: 8H 8S 8C"))
    game = position(3, RUMMY, step="play", current=1, discarder=0, pile="4D", hands={1: "8H 8S 8C"})
    events = game.apply("p1", parse_action("meld set: 8H 8S 8C"))
    assert WentOut(1, False, True) in events


def test_no_buying_in_rummy() -> None:
    game = position(3, RUMMY, current=1, discarder=0, pile="4D")
    with pytest.raises(IllegalAction, match="no buying"):
        game.apply("p2", RequestBuy())


def test_r11_restock_keeps_the_top_discard() -> None:
    game = position(3, RUMMY, current=1, discarder=0, pile="4D 5D 6D", stock="")
    game.apply("p1", DrawStock())
    assert game.pile == [Card.parse("6D")] and game.restocks == 1 and len(game.stock) == 1


def test_r11_no_card_available_ends_the_deal_without_points() -> None:
    game = position(3, RUMMY, current=1, discarder=0, pile="4D", stock="")
    game.apply("p1", DrawStock())
    assert game.score_sheet == [[0, 0, 0]]


def test_r12_target_reached_ends_the_game() -> None:
    rules = RUMMY.with_options(target_points=20)
    game = position(
        3,
        rules,
        step="play",
        current=1,
        discarder=0,
        pile="4D",
        hands={0: "KS QS", 1: "5D", 2: "KD"},
        down=(1,),
    )
    game.apply("p1", Discard(Card.parse("5D")))
    assert game.is_over and game.winners == ["p1"] and game.totals == [0, 30, 0]


def test_fixed_hands_highest_total_wins() -> None:
    rules = RUMMY.with_options(win_condition="fixed_hands", num_deals=1)
    game = position(
        3,
        rules,
        step="play",
        current=1,
        discarder=0,
        pile="4D",
        hands={0: "3S", 1: "5D", 2: "KD"},
        down=(1,),
    )
    game.apply("p1", Discard(Card.parse("5D")))
    assert game.is_over and game.winners == ["p1"]


def test_winner_deals_next_with_two_players() -> None:
    rules = RUMMY.with_options(dealer_rotation="winner_deals_2p")
    game = position(
        2,
        rules,
        step="play",
        current=1,
        dealer=0,
        discarder=0,
        pile="4D",
        hands={0: "3S", 1: "5D"},
        down=(1,),
    )
    game.apply("p1", Discard(Card.parse("5D")))
    assert game.dealer == 1 and game.current == 0


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_rummy_games_end_and_keep_every_card(players: int) -> None:
    for seed in range(6):
        rules = RUMMY.with_options(
            target_points=60, ace_mode=random.Random(seed).choice(["low", "high_or_low"])
        )
        game = Game.new([f"p{i}" for i in range(players)], rules, seed)
        play_random_game(game, random.Random(seed))
        assert game.is_over and max(game.totals) >= 60
        assert len(game.winners) == 1
        restored = Game.from_json(game.to_json())
        assert restored.to_json() == game.to_json()


def test_meld_from_natural_cards_in_any_order() -> None:
    high = RUMMY.with_options(ace_mode="high_or_low")
    assert str(Meld.from_naturals(parse_cards("5H 3H 4H"), RUMMY)) == "run: 3H 4H 5H"
    assert str(Meld.from_naturals(parse_cards("8S 8H 8C"), RUMMY)) == "set: 8S 8H 8C"
    assert str(Meld.from_naturals(parse_cards("AH KH QH"), high)) == "run: QH KH AH"
    with pytest.raises(IllegalMeld, match="don't form a meld"):
        Meld.from_naturals(parse_cards("AH KH QH"), RUMMY)
    with pytest.raises(IllegalMeld, match="at least 3"):
        Meld.from_naturals(parse_cards("8S 8H"), RUMMY)
