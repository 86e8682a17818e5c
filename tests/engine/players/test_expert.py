"""The expert computer player: legal, deterministic, reads only its view, keeps its budget."""

from __future__ import annotations

import random
from collections import Counter

from engine import Discard, DrawStock, Game, GoDown, PublicMove, Rules, TakeUpcard, parse_cards
from engine.actions import Action
from engine.players.expert import ExpertStrategy, SearchBudget
from engine.players.hints import card_index
from engine.players.levels import make_strategy
from engine.players.reading import read_table
from engine.players.strategy import NormalStrategy, Strategy
from tests.engine.positions import position
from tools.simulate import play_game

STANDARD = Rules.preset("standard")


def _mid_deal(seed: int, turns: int = 14) -> Game:
    """A 4-player game a few turns into its first deal, played by normal computers."""
    game = Game.new(["a", "b", "c", "d"], STANDARD, seed)
    normal = NormalStrategy()
    rng = random.Random(seed)
    for _ in range(turns):
        player = game.current_player
        game.apply(player, normal.choose(game.view(player), game.legal_actions(player), rng))
    return game


def _discard_position(seed: int) -> tuple[Game, str]:
    """A mid-deal game at the play step of a player who is not down and must discard."""
    for offset in range(40):
        game = _mid_deal(seed + offset)
        player = game.current_player
        if game.step == "draw":
            game.apply(player, game.legal_actions(player)[0])
        if game.step == "play" and not game.down[game.current]:
            return game, game.current_player
    raise AssertionError("no discard position found")


P2_DOWN_MELDS = [(2, "set: 6C 6D 6S"), (2, "set: 10H 10D 10S")]


def _p1_to_move(
    hands: dict[int, str],
    *,
    pile: str = "2C",
    step: str = "play",
    down: tuple[int, ...] = (),
    melds: list[tuple[int, str]] | None = None,
    p2_down: bool = False,
) -> Game:
    """Deal 1 (two sets), p1 to move after p0's discard; the stock's cards do not matter.
    ``p2_down``: p2 has gone down with ``P2_DOWN_MELDS`` (its hand is what is left)."""
    if p2_down:
        down, melds = (*down, 2), [*(melds or []), *P2_DOWN_MELDS]
    return position(
        hands=hands,
        stock="2D 3D 4H 5H 6H 8H 10C",
        pile=pile,
        current=1,
        step=step,
        discarder=0,
        down=down,
        melds=melds,
    )


def test_a_whole_game_with_an_expert_seat_plays_only_legal_moves() -> None:
    """``play_game`` applies every choice through the rules, which refuse anything illegal."""
    rules = STANDARD.with_options(num_deals=2)
    seats = [make_strategy("expert"), NormalStrategy(), NormalStrategy(), NormalStrategy()]
    record = play_game(rules, seats, seed=5)
    assert record.deals == 2 and record.strategies[0] == "expert"


def test_the_same_view_and_seed_give_the_same_choice() -> None:
    for seed in (1, 2, 3):
        game, player = _discard_position(seed)
        view, legal = game.view(player), game.legal_actions(player)
        first = ExpertStrategy().choose(view, legal, random.Random(9))
        again = ExpertStrategy().choose(game.view(player), legal, random.Random(9))
        assert first == again and first in legal


def test_the_choice_depends_on_the_view_only() -> None:
    """Reshuffling every card the player cannot see changes neither its view nor its move."""
    game, player = _discard_position(4)
    seat = game.seat_of(player)
    expert = ExpertStrategy()
    before = expert.choose(game.view(player), game.legal_actions(player), random.Random(1))
    others = [s for s in range(4) if s != seat]
    hidden = game.stock + [c for s in others for c in game.hands[s]]
    random.Random(2).shuffle(hidden)
    for s in others:
        size = len(game.hands[s])
        game.hands[s], hidden = hidden[:size], hidden[size:]
    game.stock = hidden
    after = expert.choose(game.view(player), game.legal_actions(player), random.Random(1))
    assert after == before


def test_the_search_keeps_to_its_budget_and_a_bigger_budget_searches_more() -> None:
    game, player = _discard_position(5)
    view, legal = game.view(player), game.legal_actions(player)
    small = ExpertStrategy(SearchBudget(evaluations=30))
    large = ExpertStrategy(SearchBudget(evaluations=5000))
    assert small.choose(view, legal, random.Random(1)) in legal
    assert large.choose(view, legal, random.Random(1)) in legal
    assert 0 < small.last_evaluations <= 30 or small.last_evaluations == 0
    assert large.last_evaluations > 30


def test_a_clock_past_the_deadline_stops_the_search_with_a_legal_move() -> None:
    ticks = iter(range(0, 10_000, 10))  # every reading of the clock is 10 s later

    game, player = _discard_position(6)
    view, legal = game.view(player), game.legal_actions(player)
    hurried = ExpertStrategy(SearchBudget(evaluations=5000, seconds=0.4), clock=lambda: next(ticks))
    assert hurried.choose(view, legal, random.Random(1)) in legal
    assert hurried.last_evaluations == 0


def test_the_expert_does_not_feed_the_next_player_what_it_collects() -> None:
    """Deal 1 (two sets): p2 took a king, so p1 (reading the table) keeps its spare king,
    which the normal player throws first as the costliest spare, and throws a five-point
    card instead."""
    game = _p1_to_move(
        {1: "4C 4D 7H 7D 9S KH 5S 3C", 2: "KD 9D 3H 5D 6S JC QS KC"}, pile="2C", step="play"
    )
    game.history = [PublicMove(2, "took", parse_cards("KC")[0])]
    view, legal = game.view("p1"), game.legal_actions("p1")
    king = Discard(parse_cards("KH")[0])
    assert NormalStrategy().choose(view, legal, random.Random(1)) == king
    for expert in (ExpertStrategy(read=True, search=False), ExpertStrategy(read=True)):
        choice = expert.choose(view, legal, random.Random(1))
        assert choice != king and choice in legal


def test_the_reading_never_counts_a_card_that_may_still_come_as_seen() -> None:
    """Every card in the stock or in another hand stays in ``unseen`` (for any history of a
    real game), and the unseen total never exceeds those hidden cards."""
    for seed in range(3):
        game = _mid_deal(seed, turns=25)
        for seat, player in enumerate(game.players):
            reading = read_table(game.view(player))
            hidden = Counter(card_index(c) for c in game.stock)
            for other in range(4):
                if other != seat:
                    hidden.update(card_index(c) for c in game.hands[other])
            assert reading.unseen_total <= sum(hidden.values())
            for index, copies in Counter(card_index(c) for c in game.stock).items():
                assert reading.unseen.get(index, 0) >= copies


def test_salvage_throws_the_joker_when_an_opponent_is_about_to_go_out() -> None:
    """p2 is down with one card; p1, three cards from its contract, sheds its joker (50
    points if caught) where the normal player keeps it, and it buys nothing."""
    game = _p1_to_move(
        {1: "JK 4C 7H 9D KS QD 3C 8S", 2: "5D"},
        pile="2C",
        step="play",
        p2_down=True,
    )
    view, legal = game.view("p1"), game.legal_actions("p1")
    joker = Discard(parse_cards("JK")[0])
    assert NormalStrategy().choose(view, legal, random.Random(1)) != joker
    assert ExpertStrategy().choose(view, legal, random.Random(1)) == joker
    assert ExpertStrategy(salvage=False).choose(view, legal, random.Random(1)) != joker


def _salvage_draw(upcard: str) -> Game:
    """p1, three cards from deal 1's two sets, is to draw while p2 is down with one card."""
    return _p1_to_move(
        {1: "4C 7H 9D KS QD 3C 8S JH", 2: "5D"},
        pile=upcard,
        step="draw",
        p2_down=True,
    )


def test_salvage_draws_a_cheap_upcard_rather_than_an_average_stock_card() -> None:
    """The upcard 5S helps nothing (no five in hand), so the normal player draws from the stock;
    in salvage only points count, and a five costs less than the stock's average card."""
    game = _salvage_draw("5S")
    view, legal = game.view("p1"), game.legal_actions("p1")
    assert NormalStrategy().choose(view, legal, random.Random(1)) == DrawStock()
    expert = ExpertStrategy()
    expert.cheap_take = True
    assert expert.choose(view, legal, random.Random(1)) == TakeUpcard()
    expert.cheap_take = False
    assert expert.choose(view, legal, random.Random(1)) == DrawStock()


def test_salvage_leaves_a_dear_upcard_that_helps_nothing() -> None:
    game = _salvage_draw("AS")
    view, legal = game.view("p1"), game.legal_actions("p1")
    expert = ExpertStrategy()
    expert.cheap_take = True
    assert expert.choose(view, legal, random.Random(1)) == DrawStock()


def test_salvage_all_sheds_points_one_card_from_the_contract_against_a_last_card() -> None:
    """p1 lacks one card (a pair and a set); p2 is down with one card. With ``salvage_all`` at
    that threat the expert throws its joker; by default, one card short, it keeps the plan."""
    game = _p1_to_move(
        {1: "JK 4C 7H 7D 7S KS 9C 3D", 2: "5D"},
        pile="2C",
        step="play",
        p2_down=True,
    )
    view, legal = game.view("p1"), game.legal_actions("p1")
    joker = Discard(parse_cards("JK")[0])
    keeping = ExpertStrategy()
    keeping.salvage_all = 2.0
    assert keeping.choose(view, legal, random.Random(1)) != joker
    shedding = ExpertStrategy()
    shedding.salvage_all = 1.0
    assert shedding.choose(view, legal, random.Random(1)) == joker


def test_graded_salvage_gives_up_a_hand_three_short_against_three_cards_left() -> None:
    """p2 is down with three cards (threat 0.55); p1 lacks three cards of deal 1's two sets.
    Grades that call that deal lost throw the joker; by default (no grades) the expert keeps
    planning: salvage alone waits for two cards left."""
    game = _p1_to_move(
        {1: "JK 4C 7H 9D KS QD 3C 8S", 2: "5D 9H 2S"},
        pile="2C",
        step="play",
        p2_down=True,
    )
    view, legal = game.view("p1"), game.legal_actions("p1")
    joker = Discard(parse_cards("JK")[0])
    graded = ExpertStrategy()
    graded.salvage_grades = ((0.55, 3), (0.35, 4))
    assert graded.choose(view, legal, random.Random(1)) == joker
    assert ExpertStrategy().choose(view, legal, random.Random(1)) != joker


def _lengthening_draw(p2_down: bool = False) -> Game:
    """Deal 1 (two sets): p1 holds three 7s and a pair of 4s, and the upcard is the fourth 7."""
    return _p1_to_move(
        {1: "7C 7D 7H 4S 4D 9C KS JD QH 3C", 2: "5D"},
        pile="7S",
        step="draw",
        p2_down=p2_down,
    )


def test_the_expert_takes_an_upcard_that_lengthens_a_meld_for_a_card_that_does_not() -> None:
    """The fourth 7 shortens nothing, so the normal player draws from the stock; the expert
    takes it (one spare fewer when it goes down), unless told not to lengthen."""
    game = _lengthening_draw()
    view, legal = game.view("p1"), game.legal_actions("p1")
    assert NormalStrategy().choose(view, legal, random.Random(1)) == DrawStock()
    assert ExpertStrategy().choose(view, legal, random.Random(1)) == TakeUpcard()
    assert ExpertStrategy(extend=False).choose(view, legal, random.Random(1)) == DrawStock()


def test_the_expert_does_not_lengthen_when_an_opponent_is_about_to_go_out() -> None:
    """p2 is down with one card: a taken card is only points, so the expert draws too."""
    game = _lengthening_draw(p2_down=True)
    view, legal = game.view("p1"), game.legal_actions("p1")
    assert ExpertStrategy(salvage=False).choose(view, legal, random.Random(1)) == DrawStock()


def test_once_down_the_expert_keeps_a_card_an_opponent_collects() -> None:
    """p1 is down holding KS and 9D, neither fits the table. The normal player throws the
    dearer king; the expert, having seen p2 (not down) take a king, keeps it for p2's set."""
    game = _p1_to_move(
        {1: "KS 9D", 2: "5D 6H 8C JD QS 2C 3D 4H"},
        pile="2C",
        step="play",
        down=(1,),
        melds=[(1, "set: 7C 7D 7H"), (1, "set: 4S 4D 4C")],
    )
    game.played_before_turn = True
    game.history = [PublicMove(2, "took", parse_cards("KC")[0])]
    view, legal = game.view("p1"), game.legal_actions("p1")
    king = Discard(parse_cards("KS")[0])
    assert NormalStrategy().choose(view, legal, random.Random(1)) == king
    assert ExpertStrategy().choose(view, legal, random.Random(1)) == Discard(parse_cards("9D")[0])
    assert ExpertStrategy(keep_collected=False).choose(view, legal, random.Random(1)) == king


def _p1_choices(game: Game, *others: Strategy) -> list[Action]:
    """What each of ``others`` and then the default expert chooses for p1 in ``game``."""
    view, legal = game.view("p1"), game.legal_actions("p1")
    return [s.choose(view, legal, random.Random(1)) for s in (*others, ExpertStrategy())]


HOLDING = "5C 5D 5H 5S 5C 7C 7D 7H 7S 7D KS 9H"  # two sets of five, and two cards besides


def test_the_expert_holds_its_contract_for_going_out_in_one_while_nobody_is_down() -> None:
    """p1 could go down leaving KS and 9H, and then score 0 at best. Nobody is down, so
    nobody can go out but in one turn: the expert throws the king and keeps the contract in
    hand, so that the next five, seven or joker puts it down and out for -25 or -50. The
    normal player, and the expert without ``blind``, go down."""
    game = _p1_to_move({1: HOLDING, 2: "KD 9D 3H 6D 6S JC QS KC"}, step="play")
    normal, plain, expert = _p1_choices(game, NormalStrategy(), ExpertStrategy(blind=False))
    assert isinstance(normal, GoDown) and isinstance(plain, GoDown)
    assert expert == Discard(parse_cards("KS")[0])


def test_the_expert_goes_down_at_once_when_an_opponent_is_down() -> None:
    """The same hand with p2 down: p2 could go out any turn, so holding eleven cards in hand
    is no longer worth the bonus."""
    game = _p1_to_move({1: HOLDING, 2: "5D"}, step="play", p2_down=True)
    assert isinstance(_p1_choices(game)[0], GoDown)


def test_the_expert_takes_an_upcard_that_puts_it_down_and_out_at_once() -> None:
    """p1 already holds deal 1's two sets, so the seventh seven shortens nothing and the normal
    player draws from the stock; with it every card but the king goes down, and the king is
    the discard: the expert takes it, even with p2 down with two cards (where it lengthens
    no meld for later)."""
    game = _p1_to_move(
        {1: "5C 5D 5H 5S 5C 7C 7D 7H 7S 7D KS", 2: "9D 3H"},
        pile="7C",
        step="draw",
        p2_down=True,
    )
    choices = _p1_choices(game, NormalStrategy(), ExpertStrategy(blind=False))
    assert choices == [DrawStock(), DrawStock(), TakeUpcard()]


def test_the_expert_does_not_hold_a_contract_bigger_than_a_hand() -> None:
    """Deal 8's set and run of ten take thirteen cards, more than a hand holds after its
    draw: there an opponent who goes down mostly goes out in the same turn, and a held hand
    is caught whole. With KD and 4H besides its contract the expert goes down (it holds only
    with ``hold_big``, which runs of 200 games found worse in deals 8-10)."""
    game = position(
        hands={
            1: "9C 9D 9H 3S 4S 5S 6S 7S 8S 9S 10S JS QS KD 4H",
            2: "KH 2D 3H 6D 6S JC QH KC",
        },
        stock="2D 3D 5H 6H 8H 10C",
        pile="2C",
        current=1,
        step="play",
        discarder=0,
        deal=8,
    )
    holding = ExpertStrategy()
    holding.hold_big = True
    default, held = _p1_choices(game, ExpertStrategy(), holding)[:2]
    assert isinstance(default, GoDown) and held == Discard(parse_cards("KD")[0])


def _late_position(lead: int, *, deal: int = 10, **zones: object) -> Game:
    """A position in ``deal`` whose earlier deals left p1's total ``lead`` points below each
    opponent's (negative: behind)."""
    game = position(deal=deal, discarder=0, **zones)  # type: ignore[arg-type]
    game.score_sheet = [[100, 100 - lead, 100, 100]] + [[0, 0, 0, 0]] * (deal - 2)
    return game


GUARD_HAND = "3H 4H 5H 6H 8C 9C 10C JC KS QD AD"  # deal 10: a run of four, one of four (8C-JC)


def test_leading_by_a_cheap_hand_in_the_last_deal_the_expert_buys_nothing() -> None:
    """p1 may buy 7H, which lengthens its run: the normal player buys it (the hand is short
    of deal 10's fifteen cards). The expert, ahead by 55 (eleven cards worth 5), refuses; so
    it does in deal 9 ahead by 110 (two such hands); a point less, or deal 8, and it buys."""
    zones = {"hands": {1: GUARD_HAND}, "pile": "7H", "current": 2, "step": "draw"}
    game = _late_position(55, **zones)
    assert NormalStrategy().wants_buy(game.view("p1"), random.Random(1))
    assert ExpertStrategy(guard=False).wants_buy(game.view("p1"), random.Random(1))
    for lead, deal, buys in ((55, 10, False), (54, 10, True), (110, 9, False), (109, 9, True)):
        game = _late_position(lead, deal=deal, **zones)
        assert ExpertStrategy().wants_buy(game.view("p1"), random.Random(1)) is buys
    game = _late_position(500, deal=8, **zones)
    assert ExpertStrategy().wants_buy(game.view("p1"), random.Random(1))


def test_guarding_a_lead_the_expert_throws_its_joker() -> None:
    """The normal player never throws a wild; the expert, guarding its lead, throws its
    dearest card, the joker (50 points if caught), and keeps it with a lead of 54."""
    game = _late_position(80, hands={1: f"{GUARD_HAND} JK"}, pile="2C", step="play")
    view, legal = game.view("p1"), game.legal_actions("p1")
    joker = Discard(parse_cards("JK")[0])
    assert NormalStrategy().choose(view, legal, random.Random(1)) != joker
    assert ExpertStrategy().choose(view, legal, random.Random(1)) == joker
    game = _late_position(54, hands={1: f"{GUARD_HAND} JK"}, pile="2C", step="play")
    view, legal = game.view("p1"), game.legal_actions("p1")
    assert ExpertStrategy().choose(view, legal, random.Random(1)) != joker


def test_a_seat_already_down_guards_no_lead() -> None:
    """Down, its cards go to the table: the expert plays on (and the Hint says nothing of a
    lead), however far ahead."""
    ahead = _late_position(80, hands={1: "KS QD"}, pile="2C", step="play")
    assert ExpertStrategy().guarded_lead(ahead.view("p1")) == 80
    down = _late_position(80, hands={1: "KS QD"}, pile="2C", step="play", down=(1,))
    assert ExpertStrategy().guarded_lead(down.view("p1")) is None


def test_guarding_a_lead_the_expert_takes_a_five_and_leaves_a_ten() -> None:
    """5S helps no run of p1's, so the normal player draws from the stock; guarding, a card
    worth 5 replaces a dearer one for sure. 10S saves nothing sure: the stock it is."""
    for upcard, expert_draws in (("5S", TakeUpcard()), ("10S", DrawStock())):
        game = _late_position(80, hands={1: GUARD_HAND}, pile=upcard)
        view, legal = game.view("p1"), game.legal_actions("p1")
        assert NormalStrategy().choose(view, legal, random.Random(1)) == DrawStock()
        assert ExpertStrategy().choose(view, legal, random.Random(1)) == expert_draws
