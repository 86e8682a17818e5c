"""The searching expert (issue 28): determinized games show a seat exactly its view, the
search is deterministic and keeps to its rollout budget, and its moves are always legal."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator

import pytest

from engine import Game, Rules
from engine.actions import Action, Discard, GoDown, RequestBuy
from engine.cards import Card, make_pack
from engine.players.determinize import sample_game
from engine.players.expert import ExpertStrategy
from engine.players.levels import make_strategy
from engine.players.reading import read_table
from engine.players.search_expert import RolloutBudget, SearchExpertStrategy
from engine.players.strategy import NormalStrategy
from engine.view import PlayerView
from tools.screen_searcher import wilson
from tools.simulate import play_game

STANDARD = Rules.preset("standard")
SMALL = RolloutBudget(samples=2, max_actions=30)


def _searcher(
    budget: RolloutBudget | None = None, clock: Callable[[], float] | None = None
) -> SearchExpertStrategy:
    """A searcher that searches every decision it can (the upcard as well as going down),
    so that the mechanism tests find searched decisions in any game."""
    return SearchExpertStrategy(
        rollouts=budget, search_buy=True, search_draw=True, search_down=True, clock=clock
    )


#: A decision to search: the view, what was asked ('choose' or 'buy'), the legal actions.
Searched = tuple[PlayerView, str, list[Action]]


def _positions(rules: Rules, seed: int, players: int = 4) -> Iterator[tuple[Game, str]]:
    """Every position of a game played by normal players (buys included), whoever is asked:
    the player in turn, and each seat that may buy while the buy window is open."""
    game = Game.new([f"p{i}" for i in range(players)], rules, seed)
    normal = NormalStrategy()
    rng = random.Random(seed)
    while not game.is_over:
        if game.buy_window_open:
            for offset in range(1, players):
                player = game.players[(game.current + offset) % players]
                if RequestBuy() in game.legal_actions(player):
                    yield game, player
                    if normal.wants_buy(game.view(player), rng):
                        game.apply(player, RequestBuy())
        player = game.current_player
        yield game, player
        game.apply(player, normal.choose(game.view(player), game.legal_actions(player), rng))


def _all_cards(game: Game) -> Counter[Card]:
    cards: Counter[Card] = Counter(game.stock) + Counter(game.pile)
    for hand in game.hands:
        cards.update(hand)
    cards.update(placed.card for table_meld in game.melds for placed in table_meld.meld.cards)
    return cards


@pytest.mark.parametrize(
    ("preset", "players"), [("standard", 4), ("preset_004", 4), ("preset_000", 6)]
)
def test_a_sampled_game_shows_the_seat_exactly_its_view(preset: str, players: int) -> None:
    """Whatever the hidden cards are dealt as, the seat sees the same view and has the same
    legal actions; the pack is whole; known pick-ups stay in their taker's hand."""
    rules = Rules.preset(preset).with_options(num_deals=2)
    checked = 0
    for index, (game, player) in enumerate(_positions(rules, 40 + players, players)):
        if index % 2:
            continue
        view = game.view(player)
        sampled = sample_game(view, random.Random(index))
        assert sampled.view(player) == view
        assert sampled.legal_actions(player) == game.legal_actions(player)
        decks, jokers = rules.pack_for(players)
        assert _all_cards(sampled) == Counter(make_pack(decks, jokers))
        for seat, held in enumerate(read_table(view).held):
            assert not Counter(held) - Counter(sampled.hands[seat])
        checked += 1
    assert checked > 50


def test_different_samples_deal_the_hidden_cards_differently() -> None:
    game, player = next(
        (g, p) for g, p in _positions(STANDARD, 3) if len(g.history) > 10 and p == g.current_player
    )
    view = game.view(player)
    first, second = (sample_game(view, random.Random(seed)) for seed in (1, 2))
    me = game.seat_of(player)
    assert first.hands[me] == second.hands[me] == game.hands[me]
    assert any(first.hands[s] != second.hands[s] for s in range(4) if s != me)


def _searched_game(rules: Rules, seed: int, deal_at_least: int = 1) -> tuple[Game, str]:
    """A copy of a game, and a player asked in it, on which the searcher's rollouts run."""
    probe = _searcher(RolloutBudget(samples=1, max_actions=1))
    for game, player in _positions(rules, seed):
        if game.deal < deal_at_least:
            continue
        view = game.view(player)
        if player == game.current_player:
            probe.choose(view, game.legal_actions(player), random.Random(0))
        else:
            probe.wants_buy(view, random.Random(0))
        if probe.last_rollouts:
            return game.copy(), player
    raise AssertionError("no searched decision found")


def _searched(rules: Rules, seed: int, deal_at_least: int = 1) -> Searched:
    """A view, what was asked ('choose' or 'buy') and the legal actions, on which the
    searcher's rollouts run."""
    game, player = _searched_game(rules, seed, deal_at_least)
    kind = "choose" if player == game.current_player else "buy"
    return game.view(player), kind, game.legal_actions(player)


def _decide(strategy: SearchExpertStrategy, searched: Searched, seed: int) -> object:
    view, kind, legal = searched
    if kind == "buy":
        return strategy.wants_buy(view, random.Random(seed))
    return strategy.choose(view, legal, random.Random(seed))


@pytest.mark.parametrize("kind_seed", [11, 12])
def test_the_search_is_deterministic_for_a_view(kind_seed: int) -> None:
    """Two fresh players, the same view, different generators handed in: the same answer
    after the same rollouts (all chance comes from generators seeded by the view)."""
    searched = _searched(STANDARD, kind_seed)
    runs = []
    for seed in (1, 2):
        strategy = _searcher(RolloutBudget(samples=3, first=3, max_actions=40))
        answer = _decide(strategy, searched, seed)
        runs.append((answer, strategy.last_rollouts, strategy.last_rollout_actions))
    assert runs[0] == runs[1]
    assert runs[0][1] == 6  # three samples, two candidates


def test_the_search_keeps_to_its_rollout_budget_on_a_big_position() -> None:
    """Deal 8 and later (contracts of 13 to 15 cards, the longest deals): the rollouts and
    their actions never exceed the budget (samples x two candidates, ``max_actions`` each,
    ``actions`` in all); a bigger budget plays more."""
    rules = STANDARD.with_options(num_deals=10)
    searched = _searched(rules, 21, deal_at_least=8)
    assert searched[0].deal >= 8
    used = []
    for budget in (
        RolloutBudget(samples=2, first=2, max_actions=25, actions=1000),
        RolloutBudget(samples=5, first=5, max_actions=80, actions=1000),
        RolloutBudget(samples=16, first=16, max_actions=60, actions=300),
    ):
        strategy = _searcher(budget)
        _decide(strategy, searched, 0)
        assert 0 < strategy.last_rollouts <= 2 * budget.samples
        assert strategy.last_rollout_actions <= strategy.last_rollouts * budget.max_actions
        assert strategy.last_rollout_actions <= budget.actions
        used.append(strategy.last_rollouts)
    assert used[0] < used[1]
    assert used[2] <= 4  # two samples of two 60-action rollouts fit in 300 actions, not three


def test_the_search_sees_only_the_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """The real game is out of reach (its methods raise) and its hidden cards do not matter:
    dealt anew, the searcher decides the same, after the same rollouts."""
    for seed in (11, 12, 13):
        game, player = _searched_game(STANDARD, seed)
        seat = game.seat_of(player)
        twin = game.copy()
        hidden = [c for s, h in enumerate(twin.hands) if s != seat for c in h] + twin.stock
        random.Random(seed).shuffle(hidden)
        for s, hand in enumerate(twin.hands):
            if s != seat:
                twin.hands[s], hidden = hidden[: len(hand)], hidden[len(hand) :]
        twin.stock = hidden
        answers = []
        for table in (game, twin):
            searched: Searched = (
                table.view(player),
                "choose" if player == table.current_player else "buy",
                table.legal_actions(player),
            )
            with monkeypatch.context() as patch:
                for name in ("view", "legal_actions", "apply", "hand_of", "copy", "to_json"):
                    patch.setattr(table, name, _forbidden)
                strategy = _searcher(SMALL)
                answers.append((_decide(strategy, searched, 0), strategy.last_rollout_actions))
        assert answers[0] == answers[1]
        assert answers[0][1] > 0


def _forbidden(*args: object, **kwargs: object) -> None:
    raise AssertionError("the searcher reached into the real game")


def test_a_clock_past_the_deadline_stops_the_search_with_the_experts_answer() -> None:
    searched = _searched(STANDARD, 11)
    ticks = iter(range(0, 1000, 10))  # every reading of the clock is 10 s later
    hurried = _searcher(clock=lambda: float(next(ticks)))
    plain = _searcher(RolloutBudget(samples=0))
    assert _decide(hurried, searched, 0) == _decide(plain, searched, 0)
    assert hurried.last_rollouts == 0


def test_going_down_is_weighed_against_holding_for_going_out_in_one() -> None:
    """By default the searcher searches going down: a hand that could go down leaving two or
    three cards plays both answers on (two samples, two candidates), and answers with one."""
    strategy = SearchExpertStrategy(rollouts=RolloutBudget(samples=2, first=2, max_actions=30))
    found = 0
    for seed in range(1, 60):
        for game, player in _positions(STANDARD, seed):
            if player != game.current_player or game.step != "play":
                continue
            legal = game.legal_actions(player)
            if not any(isinstance(action, GoDown) for action in legal):
                continue
            choice = strategy.choose(game.view(player), legal, random.Random(0))
            if strategy.last_rollouts:
                assert strategy.last_rollouts == 4
                assert choice in legal and isinstance(choice, GoDown | Discard)
                found += 1
                assert sum(strategy.searched.values()) == found
        if found >= 3:
            break
    assert found >= 3
    assert all(key.startswith("down ") for key in strategy.searched)


def test_a_zero_budget_plays_as_the_expert() -> None:
    """Without rollouts the searcher is the expert of ``expert.py``, decision for decision,
    over whole games (a setting of the searcher that shadowed one of the expert's, its
    discard window ``margin``, once made the two part in nearly every game)."""
    searcher = SearchExpertStrategy(rollouts=RolloutBudget(samples=0))
    searcher.name = "expert-classic"
    expert = make_strategy("expert-classic")
    normal = NormalStrategy()
    for seed in (9, 10):
        one = play_game(STANDARD, [searcher, normal, normal, normal], seed=seed)
        two = play_game(STANDARD, [expert, normal, normal, normal], seed=seed)
        assert (one.totals, one.actions) == (two.totals, two.actions)


def test_the_searcher_keeps_every_setting_of_the_expert() -> None:
    """The searcher's own settings never shadow the expert's: every attribute the expert
    sets has the expert's value in a default searcher."""
    expert = vars(ExpertStrategy())
    searcher = vars(SearchExpertStrategy())
    assert {name: searcher[name] for name in expert} == expert


@pytest.mark.parametrize("preset", ["standard", "preset_004", "preset_000", "rummy"])
def test_searching_seats_play_only_legal_moves(preset: str) -> None:
    """``play_game`` applies every choice through the rules, which refuse anything illegal;
    two searching seats at each table (small budget, so the test stays quick)."""
    rules = Rules.preset(preset).with_options(num_deals=3)
    for seed in range(3):
        seats = [_searcher(SMALL), NormalStrategy(), _searcher(SMALL), NormalStrategy()]
        record = play_game(rules, seats, seed=seed)
        # Classic Rummy plays to a points target, not a number of deals.
        assert record.deals == 3 if rules.game == "shanghai" else record.deals > 0


@pytest.mark.slow
def test_searching_seats_play_only_legal_moves_over_many_games() -> None:
    rules = STANDARD
    for seed in range(6):
        seats = [
            SearchExpertStrategy(),
            NormalStrategy(),
            make_strategy("expert"),
            NormalStrategy(),
        ]
        record = play_game(rules, seats, seed=100 + seed)
        assert record.deals == 10


def test_the_screens_wilson_interval() -> None:
    """22 wins in 100 (the searcher against three classic experts): [15.0%, 31.1%], as
    the textbook formula gives; an edge case stays within [0, 1]."""
    low, high = wilson(22, 100)
    assert (round(low, 3), round(high, 3)) == (0.150, 0.311)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
