"""Scoring and the end of the game: S50-S54, D5, E35, E38."""

from __future__ import annotations

import pytest

from engine import Card, Discard, Game, Rules, parse_action, parse_cards
from engine.events import GameEnded

from .positions import position

STANDARD = Rules.preset("standard")


def test_d5_hand_values_by_table() -> None:
    hand = parse_cards("9C KH AS AD")
    assert sum(STANDARD.card_value(c) for c in hand) == 55
    table_004 = STANDARD.with_options(score_table="table_004")
    assert sum(table_004.card_value(c) for c in hand) == 45
    assert STANDARD.card_value(Card.parse("JK")) == 50
    assert (
        STANDARD.card_value(Card.parse("2H")) == 20 and table_004.card_value(Card.parse("2H")) == 25
    )
    assert (
        STANDARD.card_value(Card.parse("10D")) == 10 and STANDARD.card_value(Card.parse("3D")) == 5
    )


def test_s50_out_player_scores_zero_others_their_hands() -> None:
    game = position(
        step="play",
        current=1,
        discarder=0,
        pile="4D",
        down=(1,),
        hands={0: "9C KH AS AD", 1: "5S", 2: "JK", 3: "3C 4C"},
    )
    game.apply("p1", Discard(Card.parse("5S")))
    assert game.score_sheet == [[55, 0, 50, 10]]
    assert game.totals == [55, 0, 50, 10]


def test_d5_s51_blind_out_with_and_without_wild() -> None:
    no_wild = position(
        step="play", current=1, discarder=0, pile="4D", hands={1: "8H 8S 8C 9H 9S 9C 5D"}
    )
    no_wild.apply("p1", parse_action("down set: 8H 8S 8C | set: 9H 9S 9C"))
    no_wild.apply("p1", Discard(Card.parse("5D")))
    assert no_wild.score_sheet[0][1] == -50 and no_wild.blind_outs[1] == 1
    wild = position(
        step="play", current=1, discarder=0, pile="4D", hands={1: "8H 8S JK 9H 9S 9C 5D"}
    )
    wild.apply("p1", parse_action("down set: 8H 8S JK=8C | set: 9H 9S 9C"))
    wild.apply("p1", Discard(Card.parse("5D")))
    assert wild.score_sheet[0][1] == -25


def test_e35_discarding_a_joker_as_last_card_counts_as_using_it() -> None:
    game = position(
        step="play", current=1, discarder=0, pile="4D", hands={1: "8H 8S 8C 9H 9S 9C JK"}
    )
    game.apply("p1", parse_action("down set: 8H 8S 8C | set: 9H 9S 9C"))
    game.apply("p1", Discard(Card.parse("JK")))
    assert game.score_sheet[0][1] == -25


def test_blind_bonus_off_scores_zero() -> None:
    rules = STANDARD.with_options(blind_bonus=False)
    game = position(
        rules=rules,
        step="play",
        current=1,
        discarder=0,
        pile="4D",
        hands={1: "8H 8S 8C 9H 9S 9C 5D"},
    )
    game.apply("p1", parse_action("down set: 8H 8S 8C | set: 9H 9S 9C"))
    game.apply("p1", Discard(Card.parse("5D")))
    assert game.score_sheet[0][1] == 0 and game.blind_outs[1] == 0


def test_not_blind_when_down_on_an_earlier_turn() -> None:
    game = position(step="play", current=1, discarder=0, pile="4D", down=(1,), hands={1: "5D"})
    game.apply("p1", Discard(Card.parse("5D")))
    assert game.score_sheet[0][1] == 0


def finish(game: Game) -> None:
    while not game.is_over:
        game._exhaust()


def test_s53_game_lasts_num_deals_and_lowest_total_wins() -> None:
    game = Game.new(list("abc"), STANDARD.with_options(num_deals=2), seed=1)
    game.score_sheet = [[10, 5, 30]]
    game.deal = 2
    game.hands = [parse_cards("3C"), parse_cards("3C 3D"), parse_cards("3C")]
    events = game._exhaust()
    assert game.is_over and game.score_sheet == [[10, 5, 30], [5, 10, 5]]
    assert game.totals == [15, 15, 35] and game.winners == ["a", "b"]
    assert any(isinstance(e, GameEnded) for e in events)


@pytest.mark.parametrize(
    ("tie_break", "winners"), [("shared", ["a", "b"]), ("most_deals_out", ["b"])]
)
def test_s54_e38_ties(tie_break: str, winners: list[str]) -> None:
    game = Game.new(list("abc"), STANDARD.with_options(num_deals=1, tie_break=tie_break), seed=1)
    game.hands = [parse_cards("5C"), parse_cards("5D"), parse_cards("KC")]
    game.deals_out = [0, 1, 0]
    game._exhaust()
    assert game.totals == [5, 5, 10]
    assert game.winners == winners


def test_s52_totals_are_sums_of_deal_scores_and_game_over_refuses_actions() -> None:
    game = Game.new(list("abcd"), STANDARD.with_options(num_deals=3), seed=9)
    finish(game)
    assert game.totals == [sum(row[s] for row in game.score_sheet) for s in range(4)]
    assert len(game.score_sheet) == 3 and game.legal_actions("a") == []
    with pytest.raises(ValueError, match="over"):
        game.apply("a", parse_action("draw"))


def test_void_deal_redeals_the_same_contract() -> None:
    game = Game.new(list("abcd"), STANDARD.with_options(on_exhaustion="void_deal"), seed=2)
    dealer = game.dealer
    game._exhaust()
    assert game.deal == 1 and game.score_sheet == [] and game.dealer == (dealer + 1) % 4
