"""Cards parse and print themselves; Rules are immutable data with three presets (A1)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engine import Card, Game, Rules
from engine.cards import make_pack


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("10H", "10H"), ("TH", "10H"), ("AS", "AS"), ("JK", "JK"), ("qs", "QS"), ("2c", "2C")],
)
def test_card_parse_and_print(text: str, canonical: str) -> None:
    assert str(Card.parse(text)) == canonical
    assert Card.parse(canonical) is Card.parse(text)


@pytest.mark.parametrize("bad", ["", "1H", "11H", "ZZ", "10X", "JKR", "H10"])
def test_bad_card_names_the_string(bad: str) -> None:
    with pytest.raises(ValueError, match=repr(bad).replace("\\", "\\\\")):
        Card.parse(bad)


def test_card_repr_reads_back() -> None:
    card = Card.parse("10H")
    assert eval(repr(card)) is card


def test_presets_match_the_table_in_a1_2() -> None:
    standard, p000, p004 = (Rules.preset(n) for n in ("standard", "preset_000", "preset_004"))
    assert standard == Rules()
    assert (p000.players, p000.deck_profile, p000.contract_meld_size, p000.final_discard) == (
        (3, 8),
        "bicycle_105_158",
        "exact",
        "required",
    )
    # Amended in issue 11: the 000 source cuts for the deal and reshuffles without limit.
    assert p000.first_dealer == "low_card" and p000.max_restocks is None
    assert p004.deuces_wild and p004.contract_list == "list_004"
    assert p004.buy_penalty_cards == 2 and p004.buy_priority == "dealer_left"
    assert p004.joker_limit == "parity" and p004.joker_identity == "rank_only"
    assert p004.joker_swap == "anyone_then_go_down" and p004.final_discard == "forbidden"
    assert not p004.blind_bonus and p004.score_table == "table_004"
    assert p004.layoff_on_going_down_turn and not p004.down_player_blocks_buy


def test_rules_are_immutable() -> None:
    rules = Rules()
    with pytest.raises(ValidationError):
        rules.buy_penalty_cards = 2  # type: ignore[misc]


def test_unknown_preset_is_refused_clearly() -> None:
    with pytest.raises(ValueError, match=r"Unknown preset 'nope'.*standard"):
        Rules.preset("nope")


@pytest.mark.parametrize(
    "options",
    [{"players": (2, 9)}, {"num_deals": 11}, {"buy_penalty_cards": 3}, {"joker_limit": "x"}],
)
def test_invalid_option_values_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Rules().with_options(**options)


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"deuces_wild": True}, "deuces_wild"),
        ({"final_discard": "forbidden"}, "final_discard"),
        ({"joker_swap": "off"}, "joker_swap"),
        ({"contract_list": "list_004"}, "contract_list"),
        ({"buy_penalty_cards": 2}, "buy_penalty_cards"),
    ],
)
def test_rummy_refuses_shanghai_only_option_values(options: dict[str, object], reason: str) -> None:
    with pytest.raises(ValueError, match=rf"{reason}.*Shanghai"):
        Rules.preset("rummy").with_options(**options)


def test_rummy_keeps_its_own_and_shared_options() -> None:
    rules = Rules.preset("rummy").with_options(
        final_discard="required", max_restocks=None, ace_mode="high_or_low", players=(2, 4)
    )
    assert rules.final_discard == "required" and rules.max_restocks is None


def test_nine_players_are_refused() -> None:
    with pytest.raises(ValueError, match="2 to 8 players, not 9"):
        Game.new([f"p{i}" for i in range(9)], Rules(), seed=1)
    with pytest.raises(ValueError, match="3 to 8 players, not 2"):
        Game.new(["a", "b"], Rules.preset("preset_000"), seed=1)


# D1: stock size right after the deal = pack size - 11n - 1.
@pytest.mark.parametrize(
    ("profile", "expected"),
    [
        ("bicycle_105_158", {2: 82, 3: 71, 4: 60, 5: 102, 6: 91, 7: 80, 8: 69}),
        ("full_54", {2: 85, 3: 74, 4: 63, 5: 106, 6: 95, 7: 138, 8: 127}),
    ],
)
def test_d1_stock_sizes(profile: str, expected: dict[int, int]) -> None:
    rules = Rules().with_options(deck_profile=profile)
    for n, stock in expected.items():
        game = Game.new([f"p{i}" for i in range(n)], rules, seed=n)
        assert len(game.stock) == stock
        assert all(len(h) == 11 for h in game.hands)
        assert len(game.pile) == 1 and game.upcard_live


def test_s2_pack_composition() -> None:
    rules = Rules()
    assert rules.pack_for(4) == (2, 4) and len(make_pack(*rules.pack_for(4))) == 108
    assert rules.pack_for(6) == (3, 6) and rules.pack_for(8) == (4, 8)
    bicycle = rules.with_options(deck_profile="bicycle_105_158")
    assert len(make_pack(*bicycle.pack_for(4))) == 105
    assert len(make_pack(*bicycle.pack_for(8))) == 158


def test_e36_eight_players_fit_the_smallest_pack() -> None:
    rules = Rules.preset("preset_000")
    game = Game.new([f"p{i}" for i in range(8)], rules, seed=3)
    assert 11 * 8 + 1 == 89 <= 158
    assert sum(len(h) for h in game.hands) + len(game.pile) + len(game.stock) == 158


@pytest.mark.parametrize(
    ("limit", "expected"),
    [
        ("majority", [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]),
        ("parity", [1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7]),
    ],
)
def test_d2_maximum_wilds_by_length(limit: str, expected: list[int]) -> None:
    rules = Rules().with_options(joker_limit=limit)
    assert [rules.max_wilds(length) for length in range(3, 15)] == expected


def test_s14_contracts_and_minimum_cards() -> None:
    for name in ("list_000", "list_004"):
        rules = Rules().with_options(contract_list=name)
        assert [sum(size for _, size in rules.contract_for(d)) for d in range(1, 11)] == list(
            range(6, 16)
        )
    assert Rules().contract_for(5) == (("set", 3), ("run", 7))
    assert Rules().with_options(contract_list="list_004").contract_for(5) == (
        ("set", 3),
        ("set", 3),
        ("run", 4),
    )


def test_s18_s19_s21_deal_starts_left_of_dealer() -> None:
    game = Game.new(["a", "b", "c", "d"], Rules(), seed=11)
    assert game.current == (game.dealer + 1) % 4
    assert game.step == "draw" and game.discarder is None
    first = game.dealer
    # Play the first deal to its end by exhausting nothing: the dealer moves left each deal.
    game._exhaust()
    assert game.dealer == (first + 1) % 4 and game.deal == 2


def test_low_card_first_dealer_is_reproducible() -> None:
    rules = Rules().with_options(first_dealer="low_card")
    dealers = {Game.new(list("abcd"), rules, seed=s).dealer for s in range(20)}
    assert dealers <= {0, 1, 2, 3} and len(dealers) > 1
    assert Game.new(list("abcd"), rules, seed=5).dealer == Game.new(list("abcd"), rules, 5).dealer


def test_same_seed_same_deal_other_seed_other_deal() -> None:
    a = Game.new(list("abcd"), Rules(), seed=42)
    b = Game.new(list("abcd"), Rules(), seed=42)
    c = Game.new(list("abcd"), Rules(), seed=43)
    assert a.to_json() == b.to_json()
    assert a.hands != c.hands
