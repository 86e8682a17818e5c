"""Computer players: legal play under every preset, decisions from the view alone, the easy and
normal players' signature moves, and the simulator that measures them."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from engine import (
    Card,
    Discard,
    DrawStock,
    Game,
    LayOff,
    PlayerView,
    RequestBuy,
    Rules,
    SwapJoker,
    TakeUpcard,
)
from engine.actions import Action
from engine.cards import make_pack
from engine.players.levels import make_strategy
from engine.players.strategy import (
    EasyStrategy,
    NormalStrategy,
    RandomStrategy,
    Strategy,
    cards_short,
)
from tests.engine.positions import position
from tools.simulate import (
    GameRecord,
    load_records,
    main,
    paired,
    play_game,
    seating,
    simulate,
    summarise,
)

LEVELS = ("random", "easy", "normal")


def short_rules(preset: str) -> Rules:
    """Two deals keep a whole game fast; Rummy plays two fixed hands."""
    rules = Rules.preset(preset)
    if rules.game == "rummy":
        return rules.with_options(win_condition="fixed_hands", num_deals=2)
    return rules.with_options(num_deals=2)


def play_checked(game: Game, strategies: Sequence[Strategy], seed: int) -> None:
    """Drive ``game`` like the bot does, checking every decision against the rules."""
    rngs = [random.Random(seed * 10 + s) for s in range(len(strategies))]
    steps = 0
    while not game.is_over:
        current = game.current
        if game.buy_window_open:
            for seat, player in enumerate(game.players):
                legal = game.legal_actions(player)
                if seat != current and RequestBuy() in legal:
                    view = game.view(player)
                    assert view.hand == game.hand_of(player)
                    if strategies[seat].wants_buy(view, rngs[seat]):
                        game.apply(player, RequestBuy())
        player = game.players[current]
        view = game.view(player)
        assert view.seat == current and view.hand == game.hand_of(player)
        legal = game.legal_actions(player)
        action = strategies[current].choose(view, legal, rngs[current])
        assert action in legal, f"{strategies[current].name} chose {action} outside {legal}"
        game.apply(player, action)
        steps += 1
        assert steps < 50_000
    assert len(game.score_sheet) == game.rules.num_deals


@pytest.mark.parametrize("preset", ["standard", "preset_000", "preset_004", "rummy"])
def test_every_level_plays_every_preset_legally(preset: str) -> None:
    rules = short_rules(preset)
    low, high = rules.players
    for players in range(low, high + 1):
        for game_no in range(2):
            names = [LEVELS[(seat + game_no + players) % 3] for seat in range(players)]
            seed = 1000 * players + game_no
            game = Game.new([f"p{i}" for i in range(players)], rules, seed)
            play_checked(game, [make_strategy(n) for n in names], seed)


@pytest.mark.parametrize("preset", ["standard", "preset_000", "preset_004"])
def test_late_deals_are_played_legally(preset: str) -> None:
    """Deals 8-10 need buys (RULES.md D3): start a 4-player game at deal 8."""
    rules = Rules.preset(preset)
    game = Game.new(["p0", "p1", "p2", "p3"], rules, seed=8)
    game.deal = 8
    game.deal_attempt = 1
    game.score_sheet = [[0, 0, 0, 0] for _ in range(7)]
    game._start_deal()
    play_checked(game, [make_strategy(n) for n in ("normal", "easy", "normal", "random")], 8)


# -- the view is all a strategy gets -----------------------------------------------------------


def decision_points(seed: int, count: int) -> list[tuple[Game, str]]:
    """Snapshots of a normal-vs-easy game at its first ``count`` turn decisions."""
    rules = Rules.preset("standard")
    game = Game.new(["p0", "p1", "p2", "p3"], rules, seed)
    strategies = [make_strategy(n) for n in ("normal", "easy", "normal", "easy")]
    rng = random.Random(seed)
    points: list[tuple[Game, str]] = []
    while not game.is_over and len(points) < count:
        player = game.current_player
        points.append((Game.from_json(game.to_json()), player))
        action = strategies[game.current].choose(game.view(player), game.legal_actions(player), rng)
        game.apply(player, action)
    return points


def test_choose_works_from_the_view_and_legal_list_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    inputs: list[tuple[PlayerView, list[Action], tuple[Card, ...]]] = []
    for game, player in decision_points(seed=3, count=120):
        view = game.view(player)
        assert view.hand == game.hand_of(player)
        others = [game.hand_of(p) for p in game.players if p != player]
        assert all(view.hand != hand for hand in others if hand)
        inputs.append((view, game.legal_actions(player), game.hand_of(player)))

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("a strategy reached into the Game")

    for name in ("view", "legal_actions", "apply", "hand_of", "is_legal", "to_json"):
        monkeypatch.setattr(Game, name, forbidden)
    for level in LEVELS:
        strategy = make_strategy(level)
        for view, legal, hand in inputs:
            action = strategy.choose(view, legal, random.Random(1))
            assert action in legal
            if isinstance(action, Discard):
                assert action.card in hand


def test_hidden_cards_do_not_change_a_decision() -> None:
    """Shuffle every card the player cannot see (other hands, the stock): same choices."""
    for game, player in decision_points(seed=5, count=80):
        seat = game.seat_of(player)
        hidden = [c for s, h in enumerate(game.hands) if s != seat for c in h] + game.stock
        random.Random(seat).shuffle(hidden)
        twin = Game.from_json(game.to_json())
        for s in range(len(twin.hands)):
            if s != seat:
                size = len(twin.hands[s])
                twin.hands[s], hidden = hidden[:size], hidden[size:]
        twin.stock = hidden
        for level in ("easy", "normal"):
            strategy = make_strategy(level)
            first = strategy.choose(game.view(player), game.legal_actions(player), random.Random(2))
            second = strategy.choose(
                twin.view(player), twin.legal_actions(player), random.Random(2)
            )
            assert first == second


def test_choose_refuses_when_it_is_not_the_players_turn() -> None:
    game = position(hands={1: "8H 8S 3C 4D 6H 9S JC QD KS 5C 10H"}, pile="8C")
    view = game.view("p2")
    with pytest.raises(ValueError, match="not this player's turn"):
        NormalStrategy().choose(view, [RequestBuy()], random.Random(1))


def test_make_strategy_names() -> None:
    assert isinstance(make_strategy("random"), RandomStrategy)
    assert isinstance(make_strategy("Easy"), EasyStrategy)
    assert isinstance(make_strategy("normal"), NormalStrategy)
    with pytest.raises(ValueError, match="random, easy, normal"):
        make_strategy("hard")


# -- easy --------------------------------------------------------------------------------------


def test_easy_takes_an_upcard_that_completes_a_set() -> None:
    hand = "8H 8S 3C 4D 6H 9S JC QD KS 5C 10H"
    game = position(hands={1: hand}, pile="8C")
    assert EasyStrategy().choose(game.view("p1"), game.legal_actions("p1"), random.Random(1)) == (
        TakeUpcard()
    )
    game = position(hands={1: hand}, pile="7D")
    assert EasyStrategy().choose(game.view("p1"), game.legal_actions("p1"), random.Random(1)) == (
        DrawStock()
    )


def test_easy_goes_down_then_throws_its_costliest_loose_card() -> None:
    game = position(hands={1: "8H 8S 8C 9H 9S 9C 3C 4D KS 5C 6H 10H"}, step="play")
    easy = EasyStrategy()
    action = easy.choose(game.view("p1"), game.legal_actions("p1"), random.Random(1))
    assert action.name == "down"
    game.apply("p1", action)
    action = easy.choose(game.view("p1"), game.legal_actions("p1"), random.Random(1))
    assert action in (Discard(Card.parse("KS")), Discard(Card.parse("10H")))


# -- normal ------------------------------------------------------------------------------------


def test_normal_keeps_jokers() -> None:
    # Not down, nothing to lay down: the joker stays whatever else is thrown.
    game = position(hands={1: "JK 8H 8S 3C 4D 6H 9S JC QD KS 5C 10H"}, step="play", deal=1)
    action = NormalStrategy().choose(game.view("p1"), game.legal_actions("p1"), random.Random(1))
    assert isinstance(action, Discard) and not action.card.is_joker
    # Even when an opponent is about to go out, points do not tempt it to throw the joker.
    game = position(
        hands={1: "JK 8H 8S 3C 4D 6H 9S JC QD KS 5C 10H", 2: "2C"},
        step="play",
        down=(2,),
        melds=[(2, "set: 7H 7S 7C"), (2, "set: 5H 5S 5D")],
    )
    action = NormalStrategy().choose(game.view("p1"), game.legal_actions("p1"), random.Random(1))
    assert isinstance(action, Discard) and not action.card.is_joker


def test_normal_never_throws_a_wild_while_it_has_a_natural() -> None:
    rules = short_rules("standard")
    for seed in range(3):
        game = Game.new(["p0", "p1", "p2", "p3"], rules, seed)
        strategies = [make_strategy(n) for n in ("normal", "easy", "normal", "random")]
        rng = random.Random(seed)
        while not game.is_over:
            player = game.current_player
            view = game.view(player)
            legal = game.legal_actions(player)
            action = strategies[game.current].choose(view, legal, rng)
            if strategies[game.current].name == "normal" and isinstance(action, Discard):
                assert view.hand is not None
                down = view.seats[game.current].is_down
                if not down and any(not rules.is_wild(c) for c in view.hand):
                    assert not rules.is_wild(action.card)
            game.apply(player, action)


def test_normal_takes_the_upcard_only_when_it_shortens_the_count() -> None:
    hand = "5H 6H 8H 9C 9D 2C 4D KS QS JC 3S"  # deal 2: set of 3 + run of 4
    useful = position(hands={1: hand}, pile="7H", deal=2)
    normal = NormalStrategy()
    assert normal.choose(useful.view("p1"), useful.legal_actions("p1"), random.Random(1)) == (
        TakeUpcard()
    )
    useless = position(hands={1: hand}, pile="KD", deal=2)
    assert normal.choose(useless.view("p1"), useless.legal_actions("p1"), random.Random(1)) == (
        DrawStock()
    )


def test_normal_buys_when_the_hand_is_too_small_for_the_contract() -> None:
    # Deal 8 asks for 13 cards (set of 3 + run of 10): 11 cards and a draw are one short.
    hand = "3S 4S 5S 6S 7S 8S KH KD 2C 9D JC"
    game = position(hands={2: hand}, pile="9S", deal=8, current=1, discarder=0)
    view = game.view("p2")
    assert cards_short(view) == 1
    assert RequestBuy() in game.legal_actions("p2")
    assert NormalStrategy().wants_buy(view, random.Random(1))
    useless = position(hands={2: hand}, pile="4H", deal=8, current=1, discarder=0)
    assert not NormalStrategy().wants_buy(useless.view("p2"), random.Random(1))


def test_normal_weighs_the_penalty_of_a_buy_early_on() -> None:
    # Deal 3, far from two runs: a card that helps is not worth a penalty card yet.
    hand = "3H 5H JH 2S 7S QS 4C 9C KC 6D KD"
    game = position(hands={2: hand}, pile="4H", deal=3, current=1, discarder=0)
    assert not NormalStrategy().wants_buy(game.view("p2"), random.Random(1))
    # One card from going down: buy.
    close = "3H 4H 5H 9S 10S JS 2C KD QC 7D 6D"
    game = position(hands={2: close}, pile="6H", deal=3, current=1, discarder=0)
    assert NormalStrategy().wants_buy(game.view("p2"), random.Random(1))


def test_normal_swaps_a_joker_it_can_lay_off_at_once() -> None:
    game = position(
        hands={1: "7H KD 3C"},
        step="play",
        deal=2,
        down=(1,),
        melds=[(1, "run: 5H 6H JK=7H 8H"), (1, "set: QS QD QC")],
    )
    normal = NormalStrategy()
    legal = game.legal_actions("p1")
    action = normal.choose(game.view("p1"), legal, random.Random(1))
    assert isinstance(action, SwapJoker)
    game.apply("p1", action)
    action = normal.choose(game.view("p1"), game.legal_actions("p1"), random.Random(1))
    assert isinstance(action, LayOff) and action.items[0].card.is_joker


def test_normal_does_not_feed_a_down_neighbour() -> None:
    # p2 (next after p1) is down with a set of kings on the table: the K is not thrown,
    # though it costs as much as the Q.
    game = position(
        hands={1: "KD QC 3H 3S 5C 5D 7H 7S 9C 9D 4C 6S", 2: "2H 8D"},
        step="play",
        deal=1,
        down=(2,),
        melds=[(2, "set: KS KH KC"), (2, "set: JS JH JC")],
    )
    action = NormalStrategy().choose(game.view("p1"), game.legal_actions("p1"), random.Random(1))
    assert action == Discard(Card.parse("QC"))


def test_normal_down_keeps_a_card_that_a_table_run_may_still_take() -> None:
    """10♥ is two values past the table's 5-8♥: once someone lays the 9♥ it fits. 10♣ never
    will, and both score 10, so the 10♣ goes (it once was the other way round)."""
    game = position(
        hands={1: "10H 10C 3S"},
        step="play",
        deal=2,
        down=(1,),
        melds=[(1, "run: 5H 6H 7H 8H"), (1, "set: QS QD QC")],
    )
    for strategy in (NormalStrategy(), make_strategy("expert")):
        legal = game.legal_actions("p1")
        action = strategy.choose(game.view("p1"), legal, random.Random(1))
        assert action == Discard(Card.parse("10C")), strategy.name


def test_normal_beats_random_players() -> None:
    rules = short_rules("standard")
    for game_no in range(4):
        names = seating(["normal", "random", "random", "random"], game_no)
        record = play_game(rules, [make_strategy(n) for n in names], seed=game_no)
        mine = names.index("normal")
        assert record.totals[mine] == min(record.totals)


# -- the simulator -----------------------------------------------------------------------------


def test_seating_rotates_every_strategy_through_every_seat() -> None:
    names = ["normal", "easy", "random"]
    seats = [seating(names, game) for game in range(3)]
    for seat in range(3):
        assert sorted(s[seat] for s in seats) == sorted(names)


def test_simulate_is_reproducible_and_summarised() -> None:
    first = simulate(3, ["normal", "random", "random"], "standard", seed=4, deals=1)
    again = simulate(3, ["normal", "random", "random"], "standard", seed=4, deals=1)
    assert first == again
    stats = {row.name: row for row in summarise(first)}
    assert set(stats) == {"normal", "random"}
    assert stats["random"].seats == 2
    shares = stats["normal"].win_rate + 2 * stats["random"].win_rate
    assert shares == pytest.approx(1.0)
    assert stats["normal"].ci_low <= stats["normal"].mean_total <= stats["normal"].ci_high


def test_simulate_command_prints_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--games", "2", "--seats", "normal,easy", "--deals", "1", "--seed", "3"])
    out = capsys.readouterr().out
    assert "win rate" in out and "95% CI" in out
    assert "normal" in out and "easy" in out
    assert "deals ended by exhaustion" in out and "games/s" in out


def test_pack_sanity_for_the_hand_made_positions() -> None:
    assert len(make_pack(2, 4)) == 108


def test_simulate_appends_records_that_summarise_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A split run (``--first``, ``--records``) is summarised from its files as it ran."""
    path = tmp_path / "run.jsonl"
    played = simulate(3, ["normal", "easy"], deals=1, seed=4, records_path=str(path))
    played += simulate(2, ["normal", "easy"], deals=1, seed=4, first=3, records_path=str(path))
    assert load_records([str(path)]) == played
    assert [r.strategies for r in played] == [
        tuple(seating(["normal", "easy"], i)) for i in range(5)
    ]
    # Each record names its game's seed, so another strategy's run pairs with it game by game.
    assert [r.seed for r in played] == [4 * 1_000_003 + i for i in range(5)]
    main(["--summarise", str(path)])
    out = capsys.readouterr().out
    assert "5 games from" in out and "win 95% CI" in out


def test_records_of_the_same_seed_compare_game_by_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--against`` pairs two runs by game seed: a run against itself differs by nothing,
    and a baseline where normal scored 10 more each game shows normal 10 lower (the other
    seat's total unchanged, so 10 lower against the table as well)."""
    path = tmp_path / "run.jsonl"
    played = simulate(4, ["normal", "easy"], deals=1, seed=6, records_path=str(path))
    same = {row.name: row for row in paired(played, played)}
    assert same["normal"].games == 4 and same["normal"].total == (0.0, 0.0)
    worse = [
        replace(
            r,
            totals=tuple(
                t + 10 * (n == "normal") for t, n in zip(r.totals, r.strategies, strict=True)
            ),
        )
        for r in played
    ]
    rows = {row.name: row for row in paired(played, worse)}
    assert rows["normal"].total == (-10.0, 0.0) and rows["normal"].relative == (-10.0, 0.0)
    assert rows["easy"].total == (0.0, 0.0) and rows["easy"].relative == (10.0, 0.0)
    assert paired(played, [replace(r, seed=None) for r in played]) == []
    main(["--summarise", str(path), "--against", str(path)])
    assert "paired with" in capsys.readouterr().out


def test_a_win_rate_interval_stays_between_0_and_100_percent() -> None:
    # 99 games of 100 won by the one normal seat: the normal approximation would pass 100%.
    records = [
        GameRecord(("normal", "easy"), (10, 90), (0,) if game else (1,), (1, 0), 1, 0, 10)
        for game in range(100)
    ]
    normal = next(s for s in summarise(records) if s.name == "normal")
    assert normal.win_rate == 0.99
    assert 0.9 < normal.win_low < normal.win_high == 1.0
    easy = next(s for s in summarise(records) if s.name == "easy")
    assert easy.win_low == 0.0 < easy.win_high < 0.1
